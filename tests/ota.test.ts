// Self-update over the network (espota's protocol), black box on every host: the project's own
// uploader (host/src/ota-client.ts, `tessera ota`) sends images to a running host over real UDP and
// TCP. A valid core (the debug build: another build identifier) replaces the running one with every
// stored scene, palette and setting intact and the panels discovered again, and open WebSocket clients
// get the new core's APP_STATE; a wrong MD5, a non-wasm image, a filesystem upload, an oversized image
// and a second upload while one runs are refused, with the old core still serving. The image kept in
// the data directory boots at the next start (one that cannot falls back to the build's core). The
// POSIX host built with wasm2c runs another image as a shared object it makes with wasm2c and the C
// compiler (native/port/posix/core_loader.c).
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import dgram from "node:dgram";
import { spawnSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { startHost, api, firmwareOf, waitFor, waitForDiscovery, ROOT, type Host } from "./helpers/host.js";
import { Client, T } from "./helpers/frames.js";
import { upload } from "../host/src/ota-client.js";
import { baseScene } from "./helpers/scenes.js";

const RELEASE = fs.readFileSync(path.join(ROOT, "build/controller.wasm"));
const DEBUG = fs.readFileSync(path.join(ROOT, "build/controller.debug.wasm"));
const PANELS = 4;

let host: Host;
let otaPort: number;
const clients: Client[] = [];

/** A UDP port free right now (bound, read, released). */
async function freeUdpPort(): Promise<number> {
  const s = dgram.createSocket("udp4");
  await new Promise<void>((resolve) => s.bind(0, "127.0.0.1", () => resolve()));
  const port = s.address().port;
  await new Promise<void>((resolve) => s.close(() => resolve()));
  return port;
}

/** The project's command-line client, as a user runs it (package.json "bin"). */
const tessera = (args: string[]) =>
  spawnSync(process.execPath, [path.join(ROOT, "bin/tessera.mjs"), ...args], { cwd: ROOT, encoding: "utf8" });

const send = (image: Uint8Array, extra: { command?: number; md5?: string } = {}) =>
  upload({ host: "127.0.0.1", port: otaPort, image, ...extra });

/** Everything stored, as the API shows it. */
async function stored() {
  const [appearance, palettes, scenes, config] = await Promise.all(
    ["/api/appearance", "/api/palettes", "/api/scenes", "/api/configuration"].map((p) => api(host, "GET", p)),
  );
  return { appearance: appearance.body, palettes: palettes.body, scenes: scenes.body, config: config.body };
}

async function firmware(): Promise<string> {
  const res = await api(host, "GET", "/api/state");
  assert.equal(res.status, 200);
  return res.body.controllerFirmware;
}

/** The host again on the same data directory (and UDP port). */
const restart = async (dataDir?: string) => {
  await host?.stop();
  host = await startHost({ panels: PANELS, otaPort, dataDir, extraArgs: ["--log-level", "info"] });
};

before(async () => {
  otaPort = await freeUdpPort();
  await restart();
  assert.equal((await api(host, "PATCH", "/api/appearance", { brightness: 77 })).status, 202);
  await waitFor(async () => (await api(host, "GET", "/api/appearance")).body.brightness === 77);
  const palette = {
    name: "Dusk",
    stops: [
      [0, "#200040"],
      [128, "#FF5030"],
      [255, "#FFE080"],
    ],
  };
  assert.ok((await api(host, "POST", "/api/palettes", palette)).status < 300);
  assert.ok((await api(host, "POST", "/api/scenes", baseScene())).status < 300);
});

after(async () => {
  for (const c of clients) c.close();
  await host?.stop();
});

test("refused uploads leave the running core serving", async () => {
  const before = await firmware();
  assert.equal(before, firmwareOf(RELEASE));
  const state = await stored();
  const refusals: Array<[string, () => Promise<void>, RegExp]> = [
    ["a wrong MD5", () => send(DEBUG, { md5: "0".repeat(32) }), /ERR/],
    ["an image that is no WebAssembly (right MD5)", () => send(Buffer.from("not a core image ".repeat(500))), /ERR/],
    ["a filesystem upload (command 100)", () => send(DEBUG, { command: 100 }), /invitation refused: ERR/],
    ["an image larger than the slot", () => send(Buffer.alloc((1 << 20) + 1, 1)), /invitation refused: ERR/],
  ];
  for (const [what, attempt, error] of refusals) {
    await assert.rejects(attempt(), error, what);
    assert.equal(await firmware(), before, `${what}: the old core still runs`);
  }
  // a WebAssembly module that is not a core: right MD5, wrong imports and exports
  const notCore = Buffer.from([0, 0x61, 0x73, 0x6d, 1, 0, 0, 0]);
  await assert.rejects(send(notCore), /ERR/);
  assert.equal(await firmware(), before);
  assert.deepEqual(await stored(), state);
  assert.ok(!fs.existsSync(path.join(host.dataDir, "controller.wasm")), "no refused image is kept");
  // the command-line uploader says why, and fails
  const cli = tessera(["ota", "--host", "127.0.0.1", "--port", String(otaPort), "package.json"]);
  assert.equal(cli.status, 1);
  assert.match(cli.stderr, /tessera: ota: .*ERR/);
  assert.equal(await firmware(), before);
});

test("another core replaces the running one: stored data intact, panels rediscovered, APP_STATE sent", async () => {
  const state = await stored();
  const before = await firmware();
  const ws = await Client.connect(host.wsUrl);
  clients.push(ws);
  await ws.next(T.APP_STATE); // the one sent on connect
  // Two uploads at once: one is taken, the other refused at its invitation.
  const results = await Promise.allSettled([send(DEBUG), send(DEBUG)]);
  const taken = results.filter((r) => r.status === "fulfilled");
  const refused = results.filter((r): r is PromiseRejectedResult => r.status === "rejected");
  assert.equal(taken.length, 1, `exactly one upload is taken: ${refused.map((r) => r.reason).join("; ")}`);
  assert.match(String(refused[0].reason), /invitation refused: ERR/);
  assert.deepEqual(fs.readFileSync(path.join(host.dataDir, "controller.wasm")), DEBUG, "the image is kept");
  const expected = firmwareOf(DEBUG);
  assert.notEqual(expected, before);
  assert.equal(await firmware(), expected);
  const f = await ws.next(T.APP_STATE, 5000); // the new core's, on the same connection
  assert.equal(f.payload.subarray(19, 19 + expected.length).toString("ascii"), expected);
  assert.equal(f.payload[19 + expected.length], 0);
  await waitForDiscovery(host, PANELS);
  assert.deepEqual(await stored(), state);
  assert.match(
    host.output(),
    new RegExp(`${before.split("+")[1]}.*${expected.split("+")[1]}`),
    "both identifiers logged",
  );
  // and back to the release build, with the command-line uploader
  const cli = tessera(["ota", "--host", "127.0.0.1", "--port", String(otaPort), "build/controller.wasm"]);
  assert.equal(cli.status, 0, cli.stderr);
  assert.match(cli.stderr, /Uploading: 100%/);
  assert.equal(await firmware(), before);
  await waitForDiscovery(host, PANELS);
  assert.deepEqual(await stored(), state);
});

test("the image a self-update kept boots at the next start; one that cannot, the build's core instead", async () => {
  await send(DEBUG);
  assert.equal(await firmware(), firmwareOf(DEBUG));
  const state = await stored();
  const dataDir = host.dataDir;
  await restart(dataDir);
  assert.equal(await firmware(), firmwareOf(DEBUG), "the kept image runs after a restart");
  await waitForDiscovery(host, PANELS);
  assert.deepEqual(await stored(), state);
  const ws = await Client.connect(host.wsUrl);
  clients.push(ws);
  const f = await ws.next(T.APP_STATE);
  assert.equal(f.payload.subarray(19, 19 + firmwareOf(DEBUG).length).toString("ascii"), firmwareOf(DEBUG));
  // a kept file that is no core: the build's core runs, and the log says why
  await host.stop();
  fs.writeFileSync(path.join(dataDir, "controller.wasm"), "not a core image");
  await restart(dataDir);
  assert.equal(await firmware(), firmwareOf(RELEASE));
  assert.match(host.output(), /cannot boot .*controller\.wasm/);
  assert.deepEqual(await stored(), state);
  // and the release image again, kept, boots next time too
  await send(RELEASE);
  await restart(dataDir);
  assert.equal(await firmware(), firmwareOf(RELEASE));
  assert.doesNotMatch(host.output(), /cannot boot/);
  const cache = path.join(dataDir, ".core"); // a host that compiles images (POSIX, wasm2c) keeps none it no longer runs
  if (fs.existsSync(cache)) assert.deepEqual(fs.readdirSync(cache), []);
});
