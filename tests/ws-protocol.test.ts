// The WebSocket frame layer, black box: CRC-16/IBM test vectors, PING/PONG byte for byte, the
// 13-byte-header form, silent drop of every kind of bad frame, TOGGLE/SET_COLOR, PANELS_STATES and
// EDGES_LIST byte for byte, the nonce clock, and a fuzz run that must not crash or wedge the core.
import { test, after } from "node:test";
import assert from "node:assert/strict";
import fs from "node:fs";
import path from "node:path";
import { crc16modbus } from "crc";
import fc from "fast-check";
import { startHost, api, tempDir } from "./helpers/host.js";
import { Client, T, frame } from "./helpers/frames.js";

// The spec's CRC-16/IBM written out from its prose (reflected, polynomial 0xA001, initial 0xFFFF),
// independent of both the core and the `crc` package.
function crc16ibm(bytes: Uint8Array): number {
  let crc = 0xffff;
  for (const b of bytes) {
    crc ^= b;
    for (let i = 0; i < 8; i++) crc = crc & 1 ? (crc >>> 1) ^ 0xa001 : crc >>> 1;
  }
  return crc;
}

// A tree whose list order differs from the depth-first discovery order, with every in-edge slot used.
// List position → discovered index: 1→1, 3→2, 5→3, 2→4, 4→5, 6→6 (root slots probed 0, 1, 2).
const dir = tempDir();
const topologyFile = path.join(dir, "topology.json");
fs.writeFileSync(
  topologyFile,
  JSON.stringify({
    panels: [
      { parent: 0, inEdge: 0 },
      { parent: 1, edge: 2, inEdge: 1 },
      { parent: 1, edge: 1, inEdge: 2 },
      { parent: 2, edge: 0, inEdge: 0 },
      { parent: 3, edge: 0, inEdge: 1 },
      { parent: 4, edge: 2, inEdge: 1 },
    ],
  }),
);
const N = 6;
// [panel, slot, connectedPanel, connectedEdge] by discovered index, worked out by hand.
const EDGES: [number, number, number, number][] = [
  [1, 0, 0, 0], // the controller link reads as unoccupied
  [1, 1, 2, 2],
  [1, 2, 4, 1],
  [2, 0, 3, 1],
  [2, 1, 0, 0],
  [2, 2, 1, 1],
  [3, 0, 0, 0],
  [3, 1, 2, 0],
  [3, 2, 0, 0],
  [4, 0, 5, 0],
  [4, 1, 1, 2],
  [4, 2, 0, 0],
  [5, 0, 4, 0],
  [5, 1, 0, 0],
  [5, 2, 6, 1],
  [6, 0, 0, 0],
  [6, 1, 5, 2],
  [6, 2, 0, 0],
];

const host = await startHost({ topology: topologyFile });
const client = await Client.connect(host.wsUrl);
await client.next(T.APP_STATE); // every client gets one on connect
after(async () => {
  client.close();
  await host.stop();
  fs.rmSync(dir, { recursive: true, force: true });
});

interface PanelState {
  index: number;
  on: number;
  r: number;
  g: number;
  b: number;
}

/** GET_PANELS_STATES, checked byte for byte against the spec's layout, decoded. */
async function states(c: Client = client): Promise<PanelState[]> {
  c.send(frame(T.GET_PANELS_STATES));
  const f = await c.next(T.PANELS_STATES);
  const p = f.payload;
  const n = p.readUInt16LE(0);
  assert.equal(p.length, 2 + n * 7, "payloadSize = 2 + N*7");
  const out: PanelState[] = [];
  for (let k = 0; k < n; k++) {
    const e = p.subarray(2 + k * 7, 9 + k * 7);
    assert.equal(e[6], 0, "reserved entry byte 6 is 0");
    out.push({ index: e.readUInt16LE(0), on: e[2], r: e[3], g: e[4], b: e[5] });
  }
  return out;
}

const hex = (s: PanelState) => "#" + [s.r, s.g, s.b].map((v) => v.toString(16).padStart(2, "0").toUpperCase()).join("");

async function httpPanels(): Promise<{ address: number; on: boolean; color: string }[]> {
  const res = await api(host, "GET", "/api/panels");
  assert.equal(res.status, 200);
  return res.body;
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

test("CRC-16/IBM of the spec equals crc16modbus on known vectors", () => {
  const vectors: [string | Buffer, number][] = [
    ["123456789", 0x4b37],
    [Buffer.alloc(0), 0xffff],
    // Modbus RTU examples: the CRC travels low byte first ("... C5 CD", "... 76 87").
    [Buffer.from([0x01, 0x03, 0x00, 0x00, 0x00, 0x0a]), 0xcdc5],
    [Buffer.from([0x11, 0x03, 0x00, 0x6b, 0x00, 0x03]), 0x8776],
  ];
  for (const [input, expected] of vectors) {
    const bytes = Buffer.from(input);
    assert.equal(crc16ibm(bytes), expected, `own CRC of ${JSON.stringify(input)}`);
    assert.equal(crc16modbus(bytes), expected, `crc16modbus of ${JSON.stringify(input)}`);
  }
  for (let i = 0; i < 200; i++) {
    const bytes = Buffer.from(Array.from({ length: i % 40 }, (_, k) => (i * 31 + k * 17) & 0xff));
    assert.equal(crc16ibm(bytes), crc16modbus(bytes));
  }
});

test("PING → PONG: exactly 14 bytes, CRCs of the spec, payload CRC of nothing 0xFFFF", async () => {
  client.send(frame(T.PING));
  const pong = await client.next(T.PONG);
  assert.equal(pong.raw.length, 14);
  const expected = Buffer.alloc(14);
  expected[0] = 12;
  expected.writeUInt16LE(1, 1);
  expected.writeUInt32LE(pong.raw.readUInt32LE(3), 3); // the controller's clock
  expected.writeUInt16LE(crc16ibm(expected.subarray(0, 7)), 7);
  expected.writeUInt16LE(0xffff, 9);
  expected.writeUInt16LE(0, 11);
  expected[13] = 0;
  assert.deepEqual(pong.raw, expected);
  assert.equal(pong.raw.readUInt16LE(7), crc16modbus(pong.raw.subarray(0, 7)));
});

test("every controller frame's CRCs match crc16modbus and the spec's CRC", async () => {
  client.send(frame(T.GET_EDGES_LIST));
  client.send(frame(T.GET_PANELS_STATES));
  for (const type of [T.EDGES_LIST, T.PANELS_STATES]) {
    const f = await client.next(type);
    assert.equal(f.raw.readUInt16LE(7), crc16ibm(f.raw.subarray(0, 7)));
    assert.equal(f.raw.readUInt16LE(9), crc16ibm(f.raw.subarray(14)));
    assert.equal(f.raw.readUInt16LE(11), f.raw.length - 14);
  }
});

test("the reserved header byte 13 is ignored on receipt", async () => {
  const ping = frame(T.PING);
  ping[13] = 0xab;
  client.send(ping);
  await client.next(T.PONG);
  const color = frame(T.SET_COLOR, [6, 0x0a, 0x0b, 0x0c]);
  color[13] = 0xff;
  client.send(color);
  const s = (await states()).find((e) => e.index === 6)!;
  assert.deepEqual([s.r, s.g, s.b], [0x0a, 0x0b, 0x0c]);
});

test("a frame with the 13-byte header the spec's table draws is accepted", async () => {
  client.send(frame(T.PING, [], { headerLength: 13 }));
  const pong = await client.next(T.PONG);
  assert.equal(pong.raw.length, 14, "the controller answers with a 14-byte header");
  client.send(frame(T.SET_COLOR, [5, 0x12, 0x34, 0x56], { headerLength: 13 }));
  const s = (await states()).find((e) => e.index === 5)!;
  assert.deepEqual([s.r, s.g, s.b], [0x12, 0x34, 0x56]);
});

// Bad frames, each built from a good one (a PING, or a SET_COLOR that would visibly change panel 3).
type Build = (type: number, payload: number[]) => Buffer;
const BAD: [string, Build][] = [
  [
    "bad header CRC",
    (t, p) => {
      const b = frame(t, p);
      b.writeUInt16LE(b.readUInt16LE(7) ^ 0x0100, 7);
      return b;
    },
  ],
  [
    "bad payload CRC",
    (t, p) => {
      const b = frame(t, p);
      b.writeUInt16LE(b.readUInt16LE(9) ^ 0x0001, 9);
      return b;
    },
  ],
  ["protocolVersion 2 (CRCs valid)", (t, p) => frame(t, p, { version: 2 })],
  ["protocolVersion 0 (CRCs valid)", (t, p) => frame(t, p, { version: 0 })],
  ["protocolVersion 0x0100 (big-endian 1)", (t, p) => frame(t, p, { version: 0x0100 })],
  ["one byte too long (15 + size)", (t, p) => Buffer.concat([frame(t, p), Buffer.from([0])])],
  ["two bytes short (12 + size)", (t, p) => frame(t, p).subarray(0, 12 + p.length)],
  ["header only, truncated to 11 bytes", (t, p) => frame(t, p).subarray(0, 11)],
  [
    "payloadSize one larger than the payload",
    (t, p) => {
      const b = frame(t, p);
      b.writeUInt16LE(p.length + 1, 11);
      return b;
    },
  ],
  [
    "payloadSize one smaller than the payload",
    (t, p) => {
      const b = frame(t, p);
      if (p.length === 0) return Buffer.concat([b, Buffer.from([0])]);
      b.writeUInt16LE(p.length - 1, 11);
      b.writeUInt16LE(crc16modbus(Buffer.from(p.slice(0, -1))), 9);
      return b;
    },
  ],
  ["wrong payload size for the type (one extra byte, CRCs valid)", (t, p) => frame(t, [...p, 0])],
];

test("bad frames are dropped silently: no reply, no effect, and the connection still works", async () => {
  const before = await states();
  for (const [name, build] of BAD) {
    client.send(build(T.PING, []));
    client.send(build(T.SET_COLOR, [3, 0xde, 0xad, 0x01]));
    await client.sync(); // a PONG for the good PING only
    assert.equal(await client.none(T.PONG, 30), true, `${name}: a bad PING got a PONG`);
    assert.deepEqual(await states(), before, `${name}: a bad SET_COLOR had an effect`);
  }
  assert.deepEqual(
    client.frames.map((f) => f.type),
    [],
    "no frame other than the replies asked for",
  );
});

test("TOGGLE with 3 payload bytes, SET_COLOR with 3 or 5, PING with 1 are dropped", async () => {
  const before = await states();
  client.send(frame(T.TOGGLE, [3, 0, 0]));
  client.send(frame(T.TOGGLE, [3]));
  client.send(frame(T.SET_COLOR, [3, 1, 2]));
  client.send(frame(T.SET_COLOR, [3, 1, 2, 3, 4]));
  client.send(frame(T.PING, [0]));
  client.send(frame(T.GET_PANELS_STATES, [0]));
  client.send(frame(T.GET_EDGES_LIST, [1]));
  client.send(frame(T.SET_MIRROR, [1, 1]));
  await client.sync();
  assert.deepEqual(
    client.frames.map((f) => f.type),
    [],
  );
  assert.deepEqual(await states(), before);
});

test("unknown types and controller-only types sent by a client are dropped", async () => {
  const before = await states();
  for (const type of [0, 2, 6, 7, 9, 12, 13, 14, 99, 255]) {
    client.send(frame(type));
    client.send(frame(type, [3, 0]));
    client.send(frame(type, [3, 0x11, 0x22, 0x33]));
  }
  await client.sync();
  assert.deepEqual(
    client.frames.map((f) => f.type),
    [],
  );
  assert.deepEqual(await states(), before);
});

test("text frames are dropped, even one whose bytes are a valid SET_COLOR frame", async () => {
  // A SET_COLOR frame made only of bytes below 0x80, so that as text it is the very same bytes.
  let good: Buffer | null = null;
  for (let nonce = 0; !good && nonce < 5000; nonce++) {
    for (let g = 1; g < 128 && !good; g++) {
      const b = frame(T.SET_COLOR, [3, 0x21, g, 0x43], { nonce: 0x41414100 + (nonce & 0x7f) + ((nonce >> 7) << 8) });
      if (b.every((x) => x < 0x80)) good = b;
    }
  }
  assert.ok(good, "found an ASCII-only SET_COLOR frame");
  const before = await states();
  client.ws.send(good.toString("latin1")); // a text frame with exactly these bytes
  client.ws.send("hello");
  client.ws.send("");
  await client.sync();
  assert.deepEqual(await states(), before, "the text frame had an effect");
  assert.deepEqual(
    client.frames.map((f) => f.type),
    [],
  );
  // The same bytes as a binary frame do take effect.
  client.send(good);
  const s = (await states()).find((e) => e.index === 3)!;
  assert.deepEqual([s.r, s.g, s.b], [good[14 + 1], good[14 + 2], good[14 + 3]]);
});

test("an empty binary frame is dropped", async () => {
  const before = await states();
  client.send(Buffer.alloc(0));
  client.send(Buffer.from([T.PING]));
  await client.sync();
  assert.equal(await client.none(T.PONG, 30), true);
  assert.deepEqual(await states(), before);
});

test("TOGGLE turns the addressed panel off and on (PANELS_STATES and GET /api/panels)", async () => {
  client.send(frame(T.TOGGLE, [4, 0]));
  let s = await states();
  assert.deepEqual(
    s.map((e) => e.on),
    [1, 1, 1, 0, 1, 1],
  );
  let http = await httpPanels();
  assert.deepEqual(
    http.map((p) => [p.address, p.on]),
    [
      [1, true],
      [2, true],
      [3, true],
      [4, false],
      [5, true],
      [6, true],
    ],
  );
  client.send(frame(T.TOGGLE, [4, 1]));
  s = await states();
  assert.deepEqual(
    s.map((e) => e.on),
    [1, 1, 1, 1, 1, 1],
  );
  http = await httpPanels();
  assert.equal(http[3].on, true);
});

test("SET_COLOR changes the addressed panel only (PANELS_STATES and GET /api/panels)", async () => {
  const before = await states();
  client.send(frame(T.SET_COLOR, [2, 0xc0, 0x01, 0x7f]));
  const s = await states();
  const expected = before.map((e) => (e.index === 2 ? { ...e, r: 0xc0, g: 0x01, b: 0x7f } : e));
  assert.deepEqual(s, expected);
  const http = await httpPanels();
  assert.deepEqual(
    http.map((p) => p.color),
    expected.map(hex),
  );
  assert.equal(http[1].color, "#C0017F");
});

test("address 0, N+1 and 255 have no effect (TOGGLE and SET_COLOR)", async () => {
  const before = await states();
  for (const address of [0, N + 1, 200, 255]) {
    client.send(frame(T.TOGGLE, [address, 0]));
    client.send(frame(T.SET_COLOR, [address, 0x55, 0x66, 0x77]));
  }
  await client.sync();
  assert.deepEqual(await states(), before);
  assert.deepEqual(
    (await httpPanels()).map((p) => [p.on, p.color]),
    before.map((e) => [e.on === 1, hex(e)]),
  );
});

test("PANELS_STATES bytes exactly", async () => {
  const colors = [
    [0x01, 0x02, 0x03],
    [0x10, 0x20, 0x30],
    [0xff, 0x00, 0x80],
    [0x00, 0x00, 0x00],
    [0x7f, 0x80, 0x81],
    [0xfe, 0xfd, 0xfc],
  ];
  colors.forEach((c, i) => client.send(frame(T.SET_COLOR, [i + 1, ...c])));
  client.send(frame(T.TOGGLE, [3, 0]));
  client.send(frame(T.TOGGLE, [6, 0]));
  client.send(frame(T.GET_PANELS_STATES));
  const f = await client.next(T.PANELS_STATES);
  const expected = Buffer.alloc(2 + N * 7);
  expected.writeUInt16LE(N, 0);
  colors.forEach((c, i) => {
    const o = 2 + i * 7;
    expected.writeUInt16LE(i + 1, o);
    expected[o + 2] = i === 2 || i === 5 ? 0 : 1;
    expected[o + 3] = c[0];
    expected[o + 4] = c[1];
    expected[o + 5] = c[2];
    expected[o + 6] = 0;
  });
  assert.equal(f.raw.readUInt16LE(11), 2 + N * 7);
  assert.deepEqual(f.payload, expected);
  client.send(frame(T.TOGGLE, [3, 1]));
  client.send(frame(T.TOGGLE, [6, 1]));
  await client.sync();
});

test("every GET_PANELS_STATES gets its PANELS_STATES, even 20 at once beside HTTP queries", async () => {
  const second = await Client.connect(host.wsUrl);
  await second.next(T.APP_STATE);
  for (let i = 0; i < 20; i++) {
    client.send(frame(T.GET_PANELS_STATES));
    second.send(frame(T.GET_PANELS_STATES));
  }
  const http = await Promise.all(Array.from({ length: 8 }, () => api(host, "GET", "/api/panels")));
  assert.deepEqual(
    http.map((r) => r.status),
    new Array(8).fill(200),
  );
  for (const c of [client, second]) {
    for (let i = 0; i < 20; i++) assert.equal((await c.next(T.PANELS_STATES)).payload.readUInt16LE(0), N);
    await c.sync();
    assert.equal(await c.none(T.PANELS_STATES, 0), true, "one reply per query");
  }
  second.close();
});

test("GET_EDGES_LIST → EDGES_LIST bytes exactly for the --topology tree", async () => {
  client.send(frame(T.GET_EDGES_LIST));
  const f = await client.next(T.EDGES_LIST);
  const expected = Buffer.alloc(2 + EDGES.length * 8);
  expected.writeUInt16LE(EDGES.length, 0);
  EDGES.forEach((e, k) => e.forEach((v, j) => expected.writeUInt16LE(v, 2 + k * 8 + j * 2)));
  assert.equal(f.raw.readUInt16LE(11), 2 + 18 * 8);
  assert.deepEqual(f.payload, expected);
  // The HTTP view agrees.
  const http = await api(host, "GET", "/api/panels/edges");
  assert.deepEqual(
    http.body.map((e: any) => [e.panel, e.edge, e.connectedPanel, e.connectedEdge]),
    EDGES,
  );
});

test("the nonce of controller frames is the controller's microsecond clock", async () => {
  client.send(frame(T.PING));
  const a = (await client.next(T.PONG)).nonce;
  await sleep(40);
  client.send(frame(T.PING));
  const b = (await client.next(T.PONG)).nonce;
  await sleep(40);
  client.send(frame(T.PING));
  const c = (await client.next(T.PONG)).nonce;
  assert.ok(b > a && c > b, `nonces increase: ${a}, ${b}, ${c}`);
  // At least 40 ms passed between the frames: a microsecond clock moved by at least 30,000.
  assert.ok(b - a >= 30_000 && c - b >= 30_000, `microseconds: ${b - a}, ${c - b}`);
  assert.ok(c - a < 60_000_000, `not wildly off: ${c - a}`);
});

test("fuzz: random bytes and random well-formed frames never crash or wedge the controller", async () => {
  const fuzz = await Client.connect(host.wsUrl);
  let closed = false;
  fuzz.ws.on("close", () => (closed = true));
  await fuzz.next(T.APP_STATE);
  const sendAndSync = async (bytes: Uint8Array) => {
    fuzz.send(Buffer.from(bytes));
    await fuzz.sync();
    fuzz.frames.length = 0;
    return !closed;
  };
  await fc.assert(
    fc.asyncProperty(fc.oneof(fc.uint8Array({ maxLength: 40 }), fc.uint8Array({ maxLength: 1200 })), sendAndSync),
    { numRuns: 500, seed: 0x7e55e7a },
  );
  const wellFormed = fc
    .record({
      type: fc.oneof(fc.constantFrom(1, 3, 4, 5, 8, 10, 11), fc.integer({ min: 0, max: 255 })),
      payload: fc.oneof(fc.uint8Array({ maxLength: 8 }), fc.uint8Array({ maxLength: 1100 })),
      headerLength: fc.constantFrom(13 as const, 14 as const),
      nonce: fc.integer({ min: 0, max: 0xffffffff }),
    })
    .map(({ type, payload, headerLength, nonce }) => frame(type, payload, { headerLength, nonce }));
  await fc.assert(fc.asyncProperty(wellFormed, sendAndSync), { numRuns: 500, seed: 0x7e55e7b });
  fuzz.send(frame(T.PING));
  assert.equal((await fuzz.next(T.PONG)).payload.length, 0);
  const state = await api(host, "GET", "/api/state");
  assert.equal(state.status, 200);
  assert.equal(typeof state.body.isOn, "boolean");
  assert.equal(closed, false, "the connection was not closed");
  assert.doesNotMatch(host.output(), /trapped|restart/i);
  fuzz.close();
  // The first client's connection is still served too.
  await client.sync();
});
