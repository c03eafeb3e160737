// APP_STATE (13), black box: one frame to every client on connect, the 51-byte payload byte for
// byte, a broadcast to every client when an app-state field changes, and none when nothing did.
import { test, after } from "node:test";
import assert from "node:assert/strict";
import fs from "node:fs";
import path from "node:path";
import { startHost, api, ROOT, firmwareOf } from "./helpers/host.js";
import { Client, T, frame, mirroredPackets, type Frame } from "./helpers/frames.js";

const VERSION = firmwareOf(); // the package version + the build identifier of build/controller.wasm

const host = await startHost({ panels: 4 });
const clients: Client[] = [];
after(async () => {
  for (const c of clients) c.close();
  await host.stop();
});

async function connect(): Promise<Client> {
  const c = await Client.connect(host.wsUrl);
  clients.push(c);
  return c;
}

/** The APP_STATE payload the spec's table describes, built by hand. */
function appState(s: { isOn: boolean; stored?: boolean; playing?: boolean; speed?: number; sceneId?: string }): Buffer {
  const p = Buffer.alloc(51);
  p[0] = s.isOn ? 1 : 0;
  p[1] = s.stored ? 1 : 0;
  p[2] = s.playing ? 1 : 0;
  p[3] = 0;
  p.writeFloatLE(s.speed ?? 1.0, 4);
  p.write(s.sceneId ?? "", 8, 10, "ascii"); // char[11], NUL-terminated, the rest NUL
  p.write(VERSION, 19, 31, "ascii"); // char[32], NUL-terminated, the rest NUL
  return p;
}

function checkHeader(f: Frame): void {
  assert.equal(f.type, 13);
  assert.equal(f.raw.length, 14 + 51);
  assert.equal(f.raw.readUInt16LE(11), 51);
}

/** Waits until a mirroring client has seen a bus packet of `type`: the queued work has run. */
async function waitForPacket(c: Client, type: number): Promise<Buffer> {
  for (;;) {
    const found = mirroredPackets(await c.next(T.MIRROR_BATCH)).find((m) => m.type === type);
    if (found) return found.packet;
  }
}

test("every client receives exactly one APP_STATE on connect", async () => {
  const a = await connect();
  const b = await connect();
  for (const c of [a, b]) {
    const f = await c.next(T.APP_STATE);
    checkHeader(f);
    await c.sync();
    assert.equal(await c.none(T.APP_STATE, 100), true, "a second APP_STATE arrived");
    assert.deepEqual(
      c.frames.map((x) => x.type),
      [],
    );
  }
  a.close();
  b.close();
});

test("the APP_STATE payload is exactly the 51 bytes of the spec", async () => {
  assert.ok(VERSION.length > 0 && VERSION.length <= 31);
  const c = await connect();
  const f = await c.next(T.APP_STATE);
  checkHeader(f);
  assert.deepEqual(f.payload, appState({ isOn: true }));
  assert.equal(f.payload.readFloatLE(4), 1.0);
  assert.equal(f.payload.subarray(19, 19 + VERSION.length).toString("ascii"), VERSION);
  // It agrees with GET /api/state.
  const state = (await api(host, "GET", "/api/state")).body;
  assert.equal(state.isOn, true);
  assert.equal(state.playing, false);
  assert.equal(state.speed, 1);
  assert.equal(state.controllerFirmware, VERSION);
  c.close();
});

test("POST /api/state/power false → every connected client gets APP_STATE with isOn 0", async () => {
  const a = await connect();
  const b = await connect();
  await a.next(T.APP_STATE);
  await b.next(T.APP_STATE);
  const res = await api(host, "POST", "/api/state/power", { isOn: false });
  assert.equal(res.status, 202);
  for (const c of [a, b]) {
    const f = await c.next(T.APP_STATE);
    checkHeader(f);
    assert.deepEqual(f.payload, appState({ isOn: false }));
  }
  assert.equal((await api(host, "GET", "/api/state")).body.isOn, false);

  // A client connecting now is told the system is off.
  const late = await connect();
  assert.deepEqual((await late.next(T.APP_STATE)).payload, appState({ isOn: false }));

  // Off again changes nothing: no APP_STATE. The mirror shows when the work has run.
  a.send(frame(T.SET_MIRROR, [1]));
  await a.next(T.MIRROR_BATCH); // the snapshot
  assert.equal((await api(host, "POST", "/api/state/power", { isOn: false })).status, 202);
  await waitForPacket(a, 4);
  await a.sync();
  await b.sync();
  for (const c of [a, b, late]) assert.equal(await c.none(T.APP_STATE, 100), true, "APP_STATE without a change");

  // Back on: every client, the late one included, gets isOn 1.
  assert.equal((await api(host, "POST", "/api/state/power", { isOn: true })).status, 202);
  for (const c of [a, b, late]) assert.deepEqual((await c.next(T.APP_STATE)).payload, appState({ isOn: true }));
  a.send(frame(T.SET_MIRROR, [0]));
  for (const c of [a, b, late]) c.close();
});

test("PATCH /api/appearance (not an app-state field) produces no APP_STATE", async () => {
  const a = await connect();
  const b = await connect();
  await a.next(T.APP_STATE);
  await b.next(T.APP_STATE);
  a.send(frame(T.SET_MIRROR, [1]));
  await a.next(T.MIRROR_BATCH); // the snapshot
  const res = await api(host, "PATCH", "/api/appearance", {
    brightness: 42,
    baseColors: ["#102030", "#405060", "#708090"],
  });
  assert.equal(res.status, 202);
  const packet = await waitForPacket(a, 19); // the change has been applied
  assert.equal(packet[5], 42);
  await a.sync();
  await b.sync();
  for (const c of [a, b]) assert.equal(await c.none(T.APP_STATE, 150), true, "PATCH appearance sent APP_STATE");
  assert.equal((await api(host, "GET", "/api/appearance")).body.brightness, 42);
  a.close();
  b.close();
});
