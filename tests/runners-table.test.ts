// Compiled runners on the bus with pulse tables (bus type 21, docs/bus-protocol.md "Pulse table"):
// the exact packets the controller sends, read raw from the mirror stream (which carries the
// tables), and the scene-start bound: 8 runner layers on 100 panels put under 8 KiB on the bus.
// Chain: tests/fixtures/topology-chain-10.json, hops 0-9 for panels 1-10 (tests/runners-golden.test.ts).
import { test, after } from "node:test";
import assert from "node:assert/strict";
import { startHost, api, waitForDiscovery, type Host } from "./helpers/host.js";
import { Client, T, frame, mirroredPackets, type Frame } from "./helpers/frames.js";
import { advance, oneShot } from "./helpers/playback.js";
import { TableExpander, decodeTable } from "./helpers/pulse-table.js";
import { crc8, RUNNER_KIND } from "./helpers/panel.js";
import { runnerLayersScene } from "./helpers/scenes.js";

const chain = await startHost({ topology: "tests/fixtures/topology-chain-10.json", extraArgs: ["--manual-clock"] });
const big = await startHost({ panels: 100, extraArgs: ["--manual-clock"] });
after(() => Promise.all([chain.stop(), big.stop()]));
await waitForDiscovery(chain, 10);
await waitForDiscovery(big, 100);

const PREPARE = 12;
const START = 13;
const TABLE = 21;

/** MIRROR_BATCH records as [address, type, raw packet bytes]; checks each header and CRC-8. */
function records(f: Frame): Array<[number, number, number[]]> {
  return mirroredPackets(f).map(({ address, type, packet }) => {
    const raw = [...packet];
    assert.deepEqual(raw.slice(0, 4), [address, type, raw.length, 6], "header: address, type, length, version");
    assert.equal(raw[4], crc8([...raw.slice(0, 4), ...raw.slice(5)]), "CRC-8");
    return [address, type, raw];
  });
}

const clients = new Map<Host, Client>();
after(() => {
  for (const c of clients.values()) c.close();
});

/** Every record mirrored for one request, until `until` is seen (or the batches end). */
async function capture(host: Host, go: () => Promise<void>, until: (r: [number, number, number[]]) => boolean) {
  let c = clients.get(host);
  if (!c) {
    c = await Client.connect(host.wsUrl);
    c.send(frame(T.SET_MIRROR, [1]));
    await c.next(T.MIRROR_BATCH); // the snapshot
    clients.set(host, c);
  }
  await advance(host, 50);
  await c.sync();
  c.frames.length = 0;
  await go();
  await advance(host, 0); // applied on this tick
  await advance(host, 40); // a mirror flush
  const out: Array<[number, number, number[]]> = [];
  for (;;) {
    const batch = records(await c.next(T.MIRROR_BATCH));
    out.push(...batch);
    if (batch.some(until)) return out;
  }
}

async function flat(step: Record<string, unknown>) {
  const recs = await capture(
    chain,
    async () => {
      const res = await api(chain, "POST", "/api/animations/play", { group: 5, color: "#ff0000", ...step });
      assert.equal(res.status, 202, res.text);
    },
    ([, type, raw]) => type === START && raw[5] === 5 && raw[6] === 1,
  );
  return recs.map(([address, type, raw]): [number, number, number[]] => [address, type, raw.slice(5)]);
}

const u16 = (v: number) => [v & 0xff, v >> 8];
/** A one-shot CHASE pulse record of group 5, layer 8, red, rise = fall = 0: duration and delay. */
const chase = (duration: number, delay: number) => [
  5,
  8,
  RUNNER_KIND.ONE_SHOT, // runner | reap | window: rises from the background (issue 18)
  0,
  0,
  0,
  0,
  0,
  0,
  255,
  0,
  0,
  ...u16(duration),
  ...u16(delay),
  0,
  0,
  0,
  255,
];

test("CHASE on 10 panels: one table of delays (2 B a panel) and one broadcast prepare, 68 B instead of 264", async () => {
  // delays 100x, duration 100 (docs/runners.md); the mask: word 7 (delay) | open bit 15
  const recs = await flat({ runner: "CHASE", duration: 1000 });
  assert.deepEqual(recs, [
    [0, START, [5, 0]],
    [0, TABLE, [5, 1, 0x80, 0x80, ...[0, 100, 200, 300, 400, 500, 600, 700, 800, 900].flatMap(u16)]],
    [0, PREPARE, chase(100, 0)],
    [0, START, [5, 1]],
  ]);
  const lengths = recs.map(([, type, body]) => body.length + 5);
  assert.deepEqual(lengths, [7, 29, 25, 7]);
});

test("count 2 is one series a panel: one table of delays, one broadcast prepare (period 600, width 300)", async () => {
  // WAVE 1200 ms: delays 100x; a window of 300 ms every 600 ms, twice (duration 1200), rise = fall = 128
  const recs = await flat({ runner: "WAVE", duration: 1200, count: 2 });
  assert.deepEqual(recs, [
    [0, START, [5, 0]],
    [0, TABLE, [5, 1, 0x80, 0x80, ...[0, 100, 200, 300, 400, 500, 600, 700, 800, 900].flatMap(u16)]],
    [
      0,
      PREPARE,
      [
        5,
        8,
        RUNNER_KIND.ONE_SHOT,
        0,
        ...u16(600),
        ...u16(300),
        0,
        255,
        0,
        0,
        ...u16(1200),
        ...u16(0),
        128,
        128,
        0,
        255,
      ],
    ],
    [0, START, [5, 1]],
  ]);
});

test("a gap in the targets: 0xFFFF marks the panels left out, or a new packet when that is cheaper", async () => {
  // panels 3 and 8: hops 2 and 7 shifted to 0 and 5, L = 6 rings over 600 ms: delays 0 and 500;
  // 4 markers (8 B) cost less than a second packet header (9 B)
  assert.deepEqual(await flat({ runner: "CHASE", duration: 600, panels: [3, 8] }), [
    [0, START, [5, 0]],
    [0, TABLE, [5, 3, 0x80, 0x80, ...[0, 0xffff, 0xffff, 0xffff, 0xffff, 500].flatMap(u16)]],
    [0, PREPARE, chase(100, 0)],
    [0, START, [5, 1]],
  ]);
  // panels 1 and 10: 8 markers (16 B) cost more than a header: two packets, the second without the open bit
  assert.deepEqual(await flat({ runner: "CHASE", duration: 1000, panels: [1, 10] }), [
    [0, START, [5, 0]],
    [0, TABLE, [5, 1, 0x80, 0x80, ...u16(0)]],
    [0, TABLE, [5, 10, 0x80, 0x00, ...u16(900)]],
    [0, PREPARE, chase(100, 0)],
    [0, START, [5, 1]],
  ]);
});

test("one panel: a unicast prepare is cheaper (25 B against 11 + 25)", async () => {
  assert.deepEqual(await flat({ runner: "CHASE", duration: 1000, panels: [4] }), [
    [0, START, [5, 0]],
    [4, PREPARE, chase(1000, 0)],
    [0, START, [5, 1]],
  ]);
});

test("windowed pulses carry their window (words 2-3) in the table", async () => {
  // BOUNCE 900 ms on the chain: centre 100x, width 300 (the same for all: only word 2 varies)
  const recs = await flat({ runner: "BOUNCE", duration: 900 });
  const table = recs.find(([, type]) => type === TABLE)!;
  const t = decodeTable(table[2]);
  assert.deepEqual([t.group, t.first, t.open, t.uses, t.words], [5, 1, true, 1, [2]]);
  assert.deepEqual(
    t.entries,
    [...Array(10)].map((_, x) => [100 * x]),
  );
});

// ---- the scene-start bound --------------------------------------------------------------------------

// pulses a panel each layer of runnerLayersScene gets: one, whatever its count (issue 18: a series)
const PULSES = [1, 1, 1, 1, 1, 1, 1, 1];

test("8 runner layers on 100 panels, one pulse a panel each: the scene starts with under 8 KiB on the bus", async () => {
  const scene = runnerLayersScene();
  const recs = await capture(
    big,
    () => oneShot(big, scene),
    ([, type, raw]) => type === START && raw[5] === 8 && raw[6] === 1,
  );
  const bytes = recs.reduce((sum, [, , raw]) => sum + raw.length, 0);
  // one prepare per panel and pulse made 8 x 100 x 25 = 20,000 B (51 pulses a panel before count
  // sweeps became one series: 127,500 B)
  assert.ok(bytes < 8192, `${bytes} bytes`);
  assert.equal(recs.filter(([a, type]) => type === PREPARE && a !== 0).length, 0, "no unicast prepare");
  // every panel gets every pulse of every layer: the tables expanded as the panels apply them
  const x = new TableExpander();
  const prepares = recs
    .flatMap(([address, type, raw]) => x.expand({ address, type, body: raw.slice(5) }))
    .filter((r) => r.type === PREPARE);
  for (let l = 0; l < 8; l++) {
    const mine = prepares.filter((r) => r.body[0] === l + 1);
    assert.equal(mine.length, 100 * PULSES[l], `layer ${l + 1}`);
    for (let p = 1; p <= 100; p++)
      assert.equal(mine.filter((r) => r.address === p).length, PULSES[l], `layer ${l + 1} panel ${p}`);
  }
  console.log(`# 8 runner layers: ${bytes} bytes at scene start`);
  await api(big, "POST", "/api/scenes/stop");
});
