// The DDP live stream input (issue 35), black box: real datagrams on the host's UDP port, built here
// byte by byte from the DDP document (3waylabs.com/ddp), and the panels' colours read back through
// GET /api/panels. Pixel i lights panel i + 1; fragments wait for the push; after 2.5 s without a
// frame the panels go back to what was showing; power off ignores streams; malformed datagrams
// change nothing. The host runs on a manual clock, so the timeout is exact.
import { test } from "node:test";
import assert from "node:assert/strict";
import { spawn } from "node:child_process";
import path from "node:path";
import fc from "fast-check";
import { api, waitFor, ROOT } from "./helpers/host.js";
import { advance, oneShot } from "./helpers/playback.js";
import { streamHost, rgb } from "./helpers/stream.js";
import { Client, T, frame, mirroredPackets } from "./helpers/frames.js";
import { crc8 } from "./helpers/panel.js";

const { host, port: ddpPort, send, shown, stream, untilShown, timeout } = await streamHost("ddpPort");

const PUSH = 0x01;
const VERSION_1 = 0x40;
const RGB8 = 0x0b; // data type: type 1 (RGB) << 3 | size 3 (8 bits)
const DISPLAY = 1; // destination id: the default output device

interface Ddp {
  flags?: number;
  sequence?: number;
  type?: number;
  id?: number;
  offset?: number;
  /** The header's length field (default: the data's). */
  length?: number;
  data: number[];
}

/** A DDP datagram: the 10-byte header (flags, sequence, data type, id, offset u32 BE, length u16
 * BE), then the data. */
function ddp(d: Ddp): Buffer {
  const b = Buffer.alloc(10 + d.data.length);
  b[0] = d.flags ?? VERSION_1 | PUSH;
  b[1] = d.sequence ?? 1;
  b[2] = d.type ?? RGB8;
  b[3] = d.id ?? DISPLAY;
  b.writeUInt32BE(d.offset ?? 0, 4);
  b.writeUInt16BE(d.length ?? d.data.length, 8);
  Buffer.from(d.data).copy(b, 10);
  return b;
}

const FRAME = ["#FF0000", "#00FF00", "#0000FF", "#123456"];

test("a frame with push lights panel i + 1 with pixel i; GET /api/state names the stream", async () => {
  assert.equal(await stream(), null);
  await advance(host, 0);
  const before = await shown();
  assert.deepEqual(before, ["#FFFFFF", "#FFFFFF", "#FFFFFF", "#FFFFFF"]); // the ambient look
  await send(ddp({ data: rgb(...FRAME) }));
  await untilShown(FRAME);
  assert.deepEqual(await stream(), { protocol: "ddp", source: "127.0.0.1" });
  await timeout();
  assert.deepEqual(await shown(), before);
});

test("fragments without push wait; the push shows the joined frame; pixels past the panels are dropped", async () => {
  await send(ddp({ flags: VERSION_1, offset: 0, data: rgb("#010203", "#040506") }));
  await new Promise((r) => setTimeout(r, 200));
  assert.equal(await stream(), null);
  assert.deepEqual(await shown(), ["#FFFFFF", "#FFFFFF", "#FFFFFF", "#FFFFFF"]);
  // the second fragment starts mid-pixel (offsets are in bytes) and runs past the fourth panel
  const tail = rgb("#070809", "#0A0B0C", "#0D0E0F");
  await send(ddp({ offset: 6 + 1, data: tail.slice(1) }));
  await send(ddp({ flags: VERSION_1, offset: 6, data: [7] }));
  await send(ddp({ offset: 12, data: rgb("#0A0B0C", "#FFFFFF", "#FFFFFF") }));
  await untilShown(["#010203", "#040506", "#070809", "#0A0B0C"]);
  await timeout();
});

test("the stream owns the panels over a playing scene, which shows again after the timeout", async () => {
  const RED = { layers: [{ group: 1, sequence: [{ type: "SOLID", color: "#FF0000", duration: 0 }] }] };
  await oneShot(host, RED);
  await advance(host, 10);
  assert.deepEqual(await shown(), ["#FF0000", "#FF0000", "#FF0000", "#FF0000"]);
  await send(ddp({ data: rgb(...FRAME) }));
  await untilShown(FRAME);
  assert.equal((await api(host, "GET", "/api/state")).body.playing, true);
  // a scene started meanwhile keeps its clock but is not shown
  const GREEN = { layers: [{ group: 1, sequence: [{ type: "SOLID", color: "#00FF00", duration: 0 }] }] };
  await oneShot(host, GREEN);
  await advance(host, 2400);
  assert.deepEqual(await shown(), FRAME);
  assert.notEqual(await stream(), null);
  await advance(host, 200);
  assert.equal(await stream(), null);
  assert.deepEqual(await shown(), ["#00FF00", "#00FF00", "#00FF00", "#00FF00"]);
  assert.equal((await api(host, "POST", "/api/scenes/stop")).status, 202);
  await advance(host, 0);
});

test("each frame resets the timeout; a later frame replaces the earlier", async () => {
  await send(ddp({ data: rgb(...FRAME) }));
  await untilShown(FRAME);
  await advance(host, 2000);
  const next = ["#111111", "#222222", "#333333", "#444444"];
  await send(ddp({ sequence: 2, data: rgb(...next) }));
  await untilShown(next);
  await advance(host, 2000);
  assert.notEqual(await stream(), null);
  assert.deepEqual(await shown(), next);
  await timeout();
});

test("power off ends the stream and ignores frames; power on brings the look back", async () => {
  await send(ddp({ data: rgb(...FRAME) }));
  await untilShown(FRAME);
  assert.equal((await api(host, "POST", "/api/state/power", { isOn: false })).status, 202);
  await advance(host, 0);
  assert.equal(await stream(), null);
  await send(ddp({ data: rgb("#ABCDEF", "#ABCDEF", "#ABCDEF", "#ABCDEF") }));
  await new Promise((r) => setTimeout(r, 200));
  assert.equal(await stream(), null);
  const panels = (await api(host, "GET", "/api/panels")).body as Array<{ on: boolean; color: string }>;
  assert.ok(
    panels.every((p) => !p.on && p.color !== "#ABCDEF"),
    JSON.stringify(panels),
  );
  assert.equal((await api(host, "POST", "/api/state/power", { isOn: true })).status, 202);
  await advance(host, 0);
  assert.deepEqual(await shown(), ["#FFFFFF", "#FFFFFF", "#FFFFFF", "#FFFFFF"]);
});

/** True when `b` is a DDP datagram this display would show: the rule the core applies. */
function wouldShow(b: Uint8Array): boolean {
  if (b.length < 10) return false;
  const head = b[0] & 0x10 ? 14 : 10;
  if ((b[0] & 0xc0) !== 0x40 || (b[0] & 0x06) !== 0 || b.length < head || !(b[0] & PUSH)) return false;
  if ((b[2] !== RGB8 && b[2] !== 0) || b[3] !== DISPLAY) return false;
  return ((b[8] << 8) | b[9]) <= b.length - head && b.length <= 1024;
}

test("malformed datagrams change nothing and crash nothing", async () => {
  const look = await shown();
  const good = rgb("#ABCDEF", "#ABCDEF", "#ABCDEF", "#ABCDEF");
  const bad: Buffer[] = [
    Buffer.alloc(0),
    ddp({ data: good }).subarray(0, 9), // shorter than the header
    ddp({ length: 13, data: good }), // the header promises more than came
    ddp({ flags: 0x80 | PUSH, data: good }), // version 2
    ddp({ flags: 0x00 | PUSH, data: good }), // version 0
    ddp({ type: 0x1b, data: good }), // RGBW
    ddp({ type: 0x0a, data: good }), // RGB, 4 bits
    ddp({ id: 2, data: good }), // another destination
    ddp({ id: 251, data: good }), // status
    ddp({ flags: VERSION_1 | PUSH | 0x02, data: good }), // a query
    ddp({ flags: VERSION_1 | PUSH | 0x10, data: good.slice(0, 3) }), // timecode: 14-byte header, length too long
    Buffer.concat([ddp({ data: good }), Buffer.alloc(1500 - 22)]), // larger than any datagram taken (1024)
  ];
  for (const b of bad) assert.ok(!wouldShow(b));
  for (const b of bad) await send(b);
  const random = fc.sample(
    fc.uint8Array({ minLength: 0, maxLength: 400 }).filter((b) => !wouldShow(b)),
    { numRuns: 300, seed: 35 },
  );
  for (const b of random) await send(b);
  await new Promise((r) => setTimeout(r, 300));
  assert.equal(await stream(), null);
  assert.deepEqual(await shown(), look);
  // still alive and streaming: a good frame after all that shows
  await send(ddp({ data: good }));
  await untilShown(["#ABCDEF", "#ABCDEF", "#ABCDEF", "#ABCDEF"]);
  await timeout();
});

/** The COLORS bus packet (type 28, docs/bus-protocol.md), built by hand: broadcast, length 6 + 3n,
 * bus version 6, CRC-8 over the header's first four bytes and the payload. */
function colorsPacket(first: number, colours: number[]): number[] {
  const head = [0, 28, 6 + colours.length, 6];
  const payload = [first, ...colours];
  return [...head, crc8([...head, ...payload]), ...payload];
}

test("APP_STATE carries the protocol in byte 3, once on and once off; the mirror carries the frame as COLORS", async () => {
  const c = await Client.connect(host.wsUrl);
  try {
    await c.next(T.APP_STATE); // on connect
    c.send(frame(T.SET_MIRROR, [1]));
    await c.next(T.MIRROR_BATCH); // the snapshot
    await send(ddp({ data: rgb(...FRAME) }));
    const on = await c.next(T.APP_STATE);
    assert.equal(on.payload.length, 51);
    assert.equal(on.payload[3], 1);
    await advance(host, 40); // the mirror's flush
    const batch = await c.next(T.MIRROR_BATCH);
    const packets = mirroredPackets(batch);
    assert.deepEqual(
      packets.filter((p) => p.type === 28).map((p) => [...p.packet]),
      [colorsPacket(1, rgb(...FRAME))],
    );
    // the scene's animations are cleared first: animation start (group 0, mode 0)
    assert.ok(
      packets.findIndex((p) => p.type === 13 && p.body[0] === 0 && p.body[1] === 0) <
        packets.findIndex((p) => p.type === 28),
    );
    assert.ok(await c.none(T.APP_STATE, 100), "one APP_STATE as the stream starts");
    await timeout();
    const off = await c.next(T.APP_STATE);
    assert.equal(off.payload[3], 0);
    assert.ok(await c.none(T.APP_STATE, 200), "one APP_STATE as the stream ends");
  } finally {
    c.ws.close();
  }
});

test("while a stream owns the panels brightness goes out and the look waits; after it the new look shows", async () => {
  const c = await Client.connect(host.wsUrl);
  try {
    c.send(frame(T.SET_MIRROR, [1]));
    await c.next(T.MIRROR_BATCH); // the snapshot
    await send(ddp({ data: rgb(...FRAME) }));
    await untilShown(FRAME);
    assert.equal((await api(host, "PATCH", "/api/appearance", { brightness: 100 })).status, 202);
    assert.equal(
      (await api(host, "PATCH", "/api/appearance", { baseColors: ["#102030", "#000000", "#000000"] })).status,
      202,
    );
    await advance(host, 40);
    assert.deepEqual(await shown(), FRAME);
    const types: number[][] = [];
    for (;;) {
      const b = await c.next(T.MIRROR_BATCH, 300).catch(() => null);
      if (!b) break;
      for (const p of mirroredPackets(b)) types.push([p.type, ...p.body]);
    }
    assert.ok(
      types.some((t) => t[0] === 19 && t[1] === 100),
      `brightness went out: ${JSON.stringify(types)}`,
    );
    assert.ok(!types.some((t) => t[0] === 18 || t[0] === 5), `the look waited: ${JSON.stringify(types)}`);
    await timeout();
    assert.deepEqual(await shown(), ["#102030", "#102030", "#102030", "#102030"]);
    assert.equal(
      (await api(host, "PATCH", "/api/appearance", { brightness: 255, baseColors: ["#FFFFFF", "#000000", "#000000"] }))
        .status,
      202,
    );
    await advance(host, 0);
  } finally {
    c.ws.close();
  }
});

test("scripts/stream-demo.mjs sends a moving rainbow the panels show", async () => {
  const demo = spawn(process.execPath, [
    path.join(ROOT, "scripts/stream-demo.mjs"),
    ...["--port", String(ddpPort), "--panels", "4", "--fps", "20", "--seconds", "1"],
  ]);
  let out = "";
  demo.stdout.on("data", (d) => (out += d));
  const exited = new Promise<number | null>((resolve) => demo.once("exit", resolve));
  await waitFor(async () => (await stream()) !== null, 3000, 20);
  const a = await shown();
  assert.equal(new Set(a).size, 4, `four hues: ${a}`); // a rainbow across the panels
  await new Promise((r) => setTimeout(r, 200));
  const b = await shown();
  assert.notDeepEqual(b, a, "it moves");
  assert.equal(await exited, 0);
  assert.match(out, /sent 20 frames of 4 panels/);
  await timeout();
});
