// The mirror stream (MIRROR_BATCH, 9), black box: off by default, the snapshot on SET_MIRROR(1),
// the batch and record layouts with each raw bus packet's header and CRC-8, what the commands and
// the API put on the bus, the rate limit without loss, SET_MIRROR(0), and the pulse tables of a
// runner (mirrored as sent, kept out of snapshots).
import { test, after } from "node:test";
import assert from "node:assert/strict";
import { crc8 } from "crc";
import { startHost, api } from "./helpers/host.js";
import { Client, T, frame, type Frame } from "./helpers/frames.js";

/** CRC-8/SMBUS written out: polynomial 0x07, initial 0, not reflected, no final XOR. */
function crc8smbus(bytes: Uint8Array): number {
  let crc = 0;
  for (const b of bytes) {
    crc ^= b;
    for (let i = 0; i < 8; i++) crc = crc & 0x80 ? ((crc << 1) ^ 0x07) & 0xff : (crc << 1) & 0xff;
  }
  return crc;
}

// The spec's table of internal packet types and their total sizes.
const SIZES: Record<number, number> = { 4: 6, 5: 8, 12: 25, 13: 7, 14: 7, 16: 10, 17: 70, 18: 14, 19: 6, 20: 8 };
// Beyond them, the internal pulse table (type 21, variable length; docs/decisions.md).
const TABLE = 21;
const N = 5;

interface Rec {
  address: number;
  type: number;
  size: number;
  raw: Buffer;
  /** The packet's payload, after its 5-byte header. */
  body: number[];
}

interface Batch {
  millis: number;
  records: Rec[];
}

/** Decodes a MIRROR_BATCH and checks every layout rule of the spec and the bus header on the way. */
function parseBatch(f: Frame): Batch {
  assert.equal(f.type, T.MIRROR_BATCH);
  const p = f.payload;
  assert.ok(p.length >= 6, "6-byte batch header");
  const millis = p.readUInt32LE(0);
  const count = p.readUInt16LE(4);
  const records: Rec[] = [];
  let o = 6;
  while (o < p.length) {
    assert.ok(o + 3 <= p.length, "record header inside the payload");
    const [address, type, size] = [p[o], p[o + 1], p[o + 2]];
    if (type === TABLE) assert.ok(size > 9 && (size - 9) % 2 === 0, "a pulse table: 9 bytes and u16 entries");
    else assert.equal(size, SIZES[type], `record type ${type} has the spec's size`);
    const raw = p.subarray(o + 3, o + 3 + size);
    assert.equal(raw.length, size, "record inside the payload");
    assert.equal(raw[0], address, "packet header: address");
    assert.equal(raw[1], type, "packet header: type");
    assert.equal(raw[2], size, "packet header: total length");
    assert.equal(raw[3], 6, "packet header: bus protocol version 6");
    const crc = crc8smbus(Buffer.concat([raw.subarray(0, 4), raw.subarray(5)]));
    assert.equal(raw[4], crc, `packet header: CRC-8 of a type ${type} packet`);
    records.push({ address, type, size, raw, body: [...raw.subarray(5)] });
    o += 3 + size;
  }
  assert.equal(o, p.length, "records fill the payload exactly");
  assert.equal(records.length, count, "count = number of records");
  return { millis, records };
}

/** Reads batches until one holds a record matching `until`; returns every batch read. */
async function batchesUntil(c: Client, until: (r: Rec) => boolean): Promise<Batch[]> {
  const out: Batch[] = [];
  for (;;) {
    const b = parseBatch(await c.next(T.MIRROR_BATCH));
    out.push(b);
    if (b.records.some(until)) return out;
  }
}

const recordsOf = (batches: Batch[]) => batches.flatMap((b) => b.records);
const isColor = (address: number, rgb: number[]) => (r: Rec) =>
  r.type === 5 && r.address === address && r.body.join() === rgb.join();
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

const host = await startHost({ panels: N });
const m = await Client.connect(host.wsUrl); // the mirroring client
const o = await Client.connect(host.wsUrl); // never mirrors
await m.next(T.APP_STATE);
await o.next(T.APP_STATE);
after(async () => {
  m.close();
  o.close();
  await host.stop();
});

test("CRC-8/SMBUS: own implementation and the crc package's crc8 agree", () => {
  assert.equal(crc8smbus(Buffer.from("123456789")), 0xf4); // the catalogue check value
  assert.equal(crc8(Buffer.from("123456789")), 0xf4);
  for (let i = 0; i < 100; i++) {
    const bytes = Buffer.from(Array.from({ length: i % 30 }, (_, k) => (i * 37 + k * 11) & 0xff));
    assert.equal(crc8smbus(bytes), crc8(bytes));
  }
});

test("no MIRROR_BATCH to a client that did not ask", async () => {
  // Bus traffic from the WebSocket and from HTTP, no one mirroring.
  o.send(frame(T.SET_COLOR, [1, 0, 0, 0]));
  m.send(frame(T.ANIMATION_TRIGGER, [9, 9]));
  assert.equal((await api(host, "PATCH", "/api/appearance", { brightness: 255 })).status, 202);
  await o.sync();
  await m.sync();
  assert.equal(await o.none(T.MIRROR_BATCH, 150), true);
  assert.equal(await m.none(T.MIRROR_BATCH, 0), true);
});

test("SET_MIRROR(1) → an immediate snapshot holding the boot packets", async () => {
  m.send(frame(T.SET_MIRROR, [1]));
  m.send(frame(T.PING));
  await m.next(T.PONG);
  assert.equal(m.frames[0]?.type, T.MIRROR_BATCH, "the snapshot arrives before the PONG of a PING sent after");
  const snap = parseBatch(await m.next(T.MIRROR_BATCH));
  const rec = (address: number, type: number) => {
    const found = snap.records.filter((r) => r.address === address && r.type === type);
    assert.equal(found.length, 1, `one record for address ${address} type ${type}`);
    return found[0];
  };
  assert.deepEqual(rec(0, 20).body, [0, 0, 0], "background black");
  assert.deepEqual(rec(0, 4).body, [1], "power on");
  assert.deepEqual(rec(0, 19).body, [255], "brightness 255");
  assert.deepEqual(rec(0, 18).body, [0xff, 0xff, 0xff, 0, 0, 0, 0, 0, 0], "base colors #FFFFFF #000000 #000000");
  // The Base colors palette into slot 0: slot << 4 | (count - 1), then 16 x (position, r, g, b),
  // unused stops zero.
  const palette = [0x02, 0, 0xff, 0xff, 0xff, 128, 0, 0, 0, 255, 0, 0, 0];
  assert.deepEqual(rec(0, 17).body, [...palette, ...new Array(65 - palette.length).fill(0)]);
  // The ambient look, the primary base colour as every panel's colour (issue 18); panel 1's colour
  // and the trigger of the previous test are in it too.
  assert.deepEqual(rec(0, 5).body, [0xff, 0xff, 0xff]);
  assert.deepEqual(rec(1, 5).body, [0, 0, 0]);
  assert.deepEqual(rec(0, 14).body, [9, 9]);
  // Power on comes before the appearance it restores.
  const index = (type: number) => snap.records.findIndex((r) => r.address === 0 && r.type === type);
  for (const t of [19, 18, 17]) assert.ok(index(4) < index(t), `power before type ${t}`);
  assert.equal(snap.records.length, 8);
});

test("SET_COLOR on panel 2 → a type-5 record addressed to 2; a second client gets no batch", async () => {
  o.send(frame(T.SET_COLOR, [2, 0x12, 0xab, 0xef]));
  const batches = await batchesUntil(m, isColor(2, [0x12, 0xab, 0xef]));
  const r = recordsOf(batches).find(isColor(2, [0x12, 0xab, 0xef]))!;
  assert.deepEqual([...r.raw], [2, 5, 8, 6, r.raw[4], 0x12, 0xab, 0xef]);
  for (const b of batches) assert.ok(b.records.length > 0);
  await o.sync();
  assert.equal(await o.none(T.MIRROR_BATCH, 100), true);
});

test("ANIMATION_TRIGGER: groups 1-254 broadcast a type-14 record [group, value]; 0 and 255 none", async () => {
  m.send(frame(T.ANIMATION_TRIGGER, [0, 100]));
  m.send(frame(T.ANIMATION_TRIGGER, [255, 100]));
  m.send(frame(T.ANIMATION_TRIGGER, [1, 0]));
  m.send(frame(T.ANIMATION_TRIGGER, [254, 255]));
  m.send(frame(T.ANIMATION_TRIGGER, [7, 200]));
  const records = recordsOf(await batchesUntil(m, (r) => r.type === 14 && r.body.join() === "7,200"));
  const triggers = records.filter((r) => r.type === 14);
  assert.deepEqual(
    triggers.map((r) => [r.address, ...r.body]),
    [
      [0, 1, 0],
      [0, 254, 255],
      [0, 7, 200],
    ],
  );
  assert.deepEqual([...triggers[2].raw], [0, 14, 7, 6, triggers[2].raw[4], 7, 200]);
});

test("PATCH /api/appearance brightness → a type-19 broadcast record with it", async () => {
  assert.equal((await api(host, "PATCH", "/api/appearance", { brightness: 77 })).status, 202);
  const records = recordsOf(await batchesUntil(m, (r) => r.type === 19));
  const r = records.find((x) => x.type === 19)!;
  assert.deepEqual([...r.raw], [0, 19, 6, 6, r.raw[4], 77]);
  assert.equal(records.filter((x) => x.type === 19).length, 1);
});

test("200 SET_COLOR frames over about a second: at most ~35 batches a second, none lost", async () => {
  const sent: [number, number[]][] = [];
  const start = m.frames.length;
  assert.equal(start, 0);
  for (let i = 0; i < 200; i++) {
    const address = (i % N) + 1;
    const rgb = [i & 0xff, 0x5a, (i * 7) & 0xff];
    sent.push([address, rgb]);
    o.send(frame(T.SET_COLOR, [address, ...rgb]));
    await sleep(5);
  }
  const [lastAddress, lastRgb] = sent[sent.length - 1];
  const batches = await batchesUntil(m, isColor(lastAddress, lastRgb));
  // Every SET_COLOR, in order, exactly once.
  const colors = recordsOf(batches).filter((r) => r.type === 5);
  assert.deepEqual(
    colors.map((r) => [r.address, r.body]),
    sent,
  );
  // Rate: within any second of the controller's own clock, at most about 30 frames (35 allowed).
  const millis = batches.map((b) => b.millis);
  for (let i = 1; i < millis.length; i++) assert.ok(millis[i] >= millis[i - 1], "controllerMillis never decreases");
  for (let i = 0; i < millis.length; i++) {
    const inWindow = millis.filter((t) => t >= millis[i] && t < millis[i] + 1000).length;
    assert.ok(inWindow <= 35, `${inWindow} batches within 1 s from ${millis[i]} ms`);
  }
  assert.ok(millis[millis.length - 1] - millis[0] >= 500, "the frames were spread over the second");
});

test("power off → anim-start [0,0] then power [0] broadcast; on → power [1], the appearance, the ambient look", async () => {
  o.send(frame(T.TOGGLE, [3, 0])); // a unicast power packet the broadcasts below supersede
  await o.sync(); // handled before the HTTP request: two connections have no order of their own
  assert.equal((await api(host, "POST", "/api/state/power", { isOn: false })).status, 202);
  let records = recordsOf(await batchesUntil(m, (r) => r.type === 4 && r.address === 0));
  const off = records.findIndex((r) => r.type === 4 && r.address === 0);
  assert.deepEqual(
    records.slice(off - 1, off + 1).map((r) => [r.address, r.type, ...r.body]),
    [
      [0, 13, 0, 0],
      [0, 4, 0],
    ],
  );
  assert.equal(off, records.length - 1, "nothing after power off");
  assert.deepEqual(
    records.slice(0, off - 1).map((r) => [r.address, r.type, ...r.body]),
    [[3, 4, 0]],
  );

  assert.equal((await api(host, "POST", "/api/state/power", { isOn: true })).status, 202);
  records = recordsOf(await batchesUntil(m, (r) => r.type === 5));
  assert.deepEqual(
    records.map((r) => [r.address, r.type]),
    [
      [0, 4],
      [0, 19],
      [0, 18],
      [0, 17],
      [0, 5],
    ],
  );
  assert.deepEqual(records[0].body, [1]);
  assert.deepEqual(records[1].body, [77], "the brightness set before");
  assert.deepEqual(records[4].body, records[2].body.slice(0, 3), "the ambient look: the primary base colour");
});

test("a later snapshot replays to the current state", async () => {
  const late = await Client.connect(host.wsUrl);
  await late.next(T.APP_STATE);
  late.send(frame(T.SET_MIRROR, [1]));
  const snap = parseBatch(await late.next(T.MIRROR_BATCH));
  // One record per (address, type).
  const keys = snap.records.map((r) => `${r.address}:${r.type}`);
  assert.equal(new Set(keys).size, keys.length);
  // Replaying the records in order gives what the panels report.
  const on = new Map<number, number>();
  const color = new Map<number, string>();
  for (const r of snap.records) {
    const targets = r.address === 0 ? [1, 2, 3, 4, 5] : [r.address];
    for (const a of targets) {
      if (r.type === 4) on.set(a, r.body[0]);
      if (r.type === 5) color.set(a, r.body.join());
    }
  }
  late.send(frame(T.GET_PANELS_STATES));
  const p = (await late.next(T.PANELS_STATES)).payload;
  assert.equal(p.readUInt16LE(0), N);
  for (let k = 0; k < N; k++) {
    const e = p.subarray(2 + k * 7);
    const a = e.readUInt16LE(0);
    assert.equal(on.get(a), e[2], `panel ${a} on/off`);
    assert.equal(color.get(a), [e[3], e[4], e[5]].join(), `panel ${a} colour`);
  }
  const last = (type: number) => snap.records.find((r) => r.address === 0 && r.type === type)!.body;
  assert.deepEqual(last(19), [77]);
  assert.deepEqual(last(14), [7, 200]);
  assert.deepEqual(last(13), [0, 0]);
  late.close();
  // The other mirroring client was not sent this snapshot.
  await m.sync();
  assert.equal(await m.none(T.MIRROR_BATCH, 60), true);
});

test("SET_MIRROR(0) stops the stream", async () => {
  o.send(frame(T.SET_COLOR, [4, 1, 2, 3]));
  await batchesUntil(m, isColor(4, [1, 2, 3])); // nothing pending
  m.send(frame(T.SET_MIRROR, [0]));
  await m.sync();
  m.frames.length = 0;
  o.send(frame(T.SET_COLOR, [4, 4, 5, 6]));
  assert.equal((await api(host, "PATCH", "/api/appearance", { brightness: 200 })).status, 202);
  await o.sync();
  await m.sync();
  assert.equal(await m.none(T.MIRROR_BATCH, 150), true);
  // The packets did go out: mirroring again shows them in the snapshot.
  m.send(frame(T.SET_MIRROR, [1]));
  const snap = parseBatch(await m.next(T.MIRROR_BATCH));
  assert.ok(snap.records.some(isColor(4, [4, 5, 6])));
  assert.ok(snap.records.some((r) => r.type === 19 && r.body[0] === 200));
});

test("the mirror follows the mirroring clients: a second one, one closing, SET_MIRROR(1) twice then (0)", async () => {
  // the core counts its mirroring connections: every bus packet asks whether anyone mirrors
  const a = await Client.connect(host.wsUrl);
  const b = await Client.connect(host.wsUrl);
  for (const c of [a, b]) {
    c.send(frame(T.SET_MIRROR, [1]));
    await c.next(T.MIRROR_BATCH); // the snapshot
  }
  o.send(frame(T.SET_COLOR, [3, 7, 8, 9]));
  await batchesUntil(a, isColor(3, [7, 8, 9]));
  await batchesUntil(b, isColor(3, [7, 8, 9]));
  a.ws.close();
  await sleep(50);
  o.send(frame(T.SET_COLOR, [3, 10, 11, 12]));
  await batchesUntil(b, isColor(3, [10, 11, 12])); // still mirrored to the one left
  b.send(frame(T.SET_MIRROR, [1])); // again: counted once
  await b.next(T.MIRROR_BATCH);
  b.send(frame(T.SET_MIRROR, [0]));
  await b.sync();
  b.frames.length = 0;
  o.send(frame(T.SET_COLOR, [3, 13, 14, 15]));
  await o.sync();
  assert.equal(await b.none(T.MIRROR_BATCH, 150), true);
  b.ws.close();
});

test("a runner's pulse table is mirrored as sent (type 21, its own length); snapshots leave it out", async () => {
  // CHASE count 2 on the 5 panels: one table of 5 delays (9 + 10 B) serving one broadcast prepare,
  // the two sweeps one series (issue 18: period 500 ms, duration 1000), instead of 5 unicasts
  assert.equal(
    (await api(host, "POST", "/api/animations/play", { group: 9, runner: "CHASE", count: 2, duration: 1000 })).status,
    202,
  );
  const records = recordsOf(await batchesUntil(m, (r) => r.type === 13 && r.body.join() === "9,1"));
  const at = records.findIndex((r) => r.type === TABLE);
  assert.ok(at >= 0, "a pulse table");
  const t = records[at];
  assert.deepEqual([t.address, t.size, ...t.body.slice(0, 4)], [0, 19, 9, 1, 0x80, 0x80]); // group 9, from panel 1, delays
  assert.deepEqual(t.body.slice(4, 6), [0, 0], "the root lights first");
  const u16 = (b: number[], o: number) => b[o] | (b[o + 1] << 8);
  assert.deepEqual(
    records.slice(at + 1, at + 2).map((r) => [r.address, r.type, r.body[0], u16(r.body, 4), u16(r.body, 12)]),
    [[0, 12, 9, 500, 1000]],
    "then one broadcast prepare: a sweep every 500 ms, twice",
  );
  assert.equal(records.filter((r) => r.type === 12).length, 1, "no unicast prepare");
  // a new mirroring client's snapshot holds neither the table nor the prepares it served
  const late = await Client.connect(host.wsUrl);
  await late.next(T.APP_STATE);
  late.send(frame(T.SET_MIRROR, [1]));
  const snap = parseBatch(await late.next(T.MIRROR_BATCH));
  late.close();
  assert.equal(snap.records.filter((r) => r.type === TABLE).length, 0);
  assert.equal(snap.records.filter((r) => r.type === 12 && r.body[0] === 9).length, 0);
  assert.ok(
    snap.records.some((r) => r.type === 13 && r.body.join() === "9,1"),
    "the start is kept",
  );
});

test("the snapshot keeps its order past 65,535 kept packets (its sequence numbers are renumbered)", async () => {
  // m stops mirroring: the flood below is not what this test reads.
  m.send(frame(T.SET_MIRROR, [0]));
  await m.sync();
  const s = await Client.connect(host.wsUrl);
  await s.next(T.APP_STATE);
  // Panel 2's colour first, then 65,536 more kept packets on panels 3-5 (the last on 4, 5, then 3),
  // then panel 1's: the numbers run out on the way, and the snapshot must still list them in order.
  s.send(frame(T.SET_COLOR, [2, 22, 22, 22]));
  for (let i = 0; i < 65536; i++) {
    s.send(frame(T.SET_COLOR, [3 + (i % 3), i & 0xff, (i >> 8) & 0xff, 1]));
    if (i % 4096 === 4095) await s.sync(); // keep the host's queues short
  }
  s.send(frame(T.SET_COLOR, [1, 11, 11, 11]));
  await s.sync();
  s.send(frame(T.SET_MIRROR, [1]));
  const snap = parseBatch(await s.next(T.MIRROR_BATCH));
  s.close();
  // the ambient look's broadcast colour (address 0, issue 18) is older than all of them
  const colors = snap.records.filter((r) => r.type === 5 && r.address !== 0).map((r) => [r.address, ...r.body]);
  assert.deepEqual(
    colors.map((c) => c[0]),
    [2, 4, 5, 3, 1],
    "panel 2 first, then 3-5 in the order last set, panel 1 last",
  );
  assert.deepEqual(colors[0], [2, 22, 22, 22]);
  assert.deepEqual(colors[4], [1, 11, 11, 11]);
  assert.deepEqual(colors[3], [3, 0xff, 0xff, 1], "panel 3's last colour: i = 65,535");
});
