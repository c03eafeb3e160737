// Golden tests of the compiled runners (issue 6): for each runner and mode on two fixed layouts,
// the runner pulses (kind 15) the controller prepares on each panel, read byte for byte from the
// mirror stream (pulse tables expanded into the records each panel prepares, tests/helpers/pulse-table.ts),
// against tables worked out by hand from docs/runners.md. Plus colours at chosen
// times on the manual clock, GET /api/layout, and the fallback of a layout that cannot be embedded.
//
// Layouts: tests/fixtures/topology-chain-10.json, a straight strip of 10 triangles (slots 1 and 2
// alternately): hops from the root are 0-9 for panels 1-10; centres (units: adjacent centres 1
// apart) at x = 0, s, s, 2s, 2s, 3s, 3s, 4s, 4s, 5s (s = √3/2 ≈ 0.866) and
// y = 0, .5, 1.5, 2, 3, 3.5, 4.5, 5, 6, 6.5. tests/fixtures/topology-20.json, a branching tree
// whose layout cannot be embedded (panels 11 and 13 fall on the same triangle).
import { test, after } from "node:test";
import assert from "node:assert/strict";
import { startHost, api, waitForDiscovery, type Host } from "./helpers/host.js";
import { Client, T, frame, mirroredPackets } from "./helpers/frames.js";
import { advance, clearPanels, colors, oneShot } from "./helpers/playback.js";
import { TableExpander } from "./helpers/pulse-table.js";
import { RUNNER_KIND } from "./helpers/panel.js";

const chain = await startHost({ topology: "tests/fixtures/topology-chain-10.json", extraArgs: ["--manual-clock"] });
const tree = await startHost({ topology: "tests/fixtures/topology-20.json", extraArgs: ["--manual-clock"] });
after(() => Promise.all([chain.stop(), tree.stop()]));
await waitForDiscovery(chain, 10);
await waitForDiscovery(tree, 20);

const PREPARE = 12;
const START = 13;
const { ONE_SHOT: KIND_ONE_SHOT, TRAIN: KIND_TRAIN, BOUNCE: KIND_BOUNCE } = RUNNER_KIND;

interface Pulse {
  address: number;
  group: number;
  layer: number;
  kind: number;
  animatesBlend: number;
  w0: number; // bytes 4-5: window centre (windowed) or colorFrom kind + first byte
  w1: number; // bytes 6-7: window width
  colorTo: number[];
  duration: number;
  delay: number;
  p0: number;
  p1: number;
  from: number;
  to: number;
}

function pulseOf(address: number, b: Buffer): Pulse {
  return {
    address,
    group: b[0],
    layer: b[1],
    kind: b[2],
    animatesBlend: b[3],
    w0: b.readUInt16LE(4),
    w1: b.readUInt16LE(6),
    colorTo: [...b.subarray(8, 12)],
    duration: b.readUInt16LE(12),
    delay: b.readUInt16LE(14),
    p0: b[16],
    p1: b[17],
    from: b[18],
    to: b[19],
  };
}

const clients = new Map<Host, Client>();
const expanders = new Map<Host, TableExpander>(); // one per mirror stream, stateful like a panel
async function mirror(host: Host): Promise<Client> {
  let c = clients.get(host);
  if (c) return c;
  c = await Client.connect(host.wsUrl);
  c.send(frame(T.SET_MIRROR, [1]));
  await c.next(T.MIRROR_BATCH); // the snapshot
  clients.set(host, c);
  expanders.set(host, new TableExpander());
  return c;
}
after(() => {
  for (const c of clients.values()) c.ws.close();
});

/** Everything sent for one play until the group's start(g, 1): the prepares, and the other records. */
async function capture(host: Host, group: number, play: () => Promise<void>) {
  const c = await mirror(host);
  c.frames.length = 0;
  await play();
  await advance(host, 40); // applied on the next tick, then a mirror flush (34 ms)
  const pulses: Pulse[] = [];
  const others: Array<[number, number, number[]]> = [];
  for (;;) {
    let started = false;
    for (const { address, type, body: raw } of mirroredPackets(await c.next(T.MIRROR_BATCH))) {
      for (const r of expanders.get(host)!.expand({ address, type, body: [...raw] })) {
        const b = Buffer.from(r.body);
        if (r.type === PREPARE) pulses.push(pulseOf(r.address, b));
        else others.push([r.address, r.type, r.body]);
        if (r.type === START && b[0] === group && b[1] === 1) started = true;
      }
    }
    if (started) break;
  }
  // by panel (stable: a panel's sweeps in order), as the tables list them
  pulses.sort((a, b) => a.address - b.address);
  return { pulses, others };
}

async function flat(host: Host, step: Record<string, unknown>) {
  return capture(host, 5, async () => {
    const res = await api(host, "POST", "/api/animations/play", { group: 5, color: "#ff0000", ...step });
    assert.equal(res.status, 202, res.text);
  });
}

/** The per-panel table of one-shot pulses: [address, delay, duration]. */
function oneShots(pulses: Pulse[], p0: number, p1: number): number[][] {
  for (const p of pulses) {
    assert.equal(p.kind, KIND_ONE_SHOT);
    assert.equal(p.group, 5);
    assert.equal(p.layer, 8); // a flat animation is above every scene layer
    assert.equal(p.animatesBlend, 0); // colour, default blend (max for a runner pulse)
    assert.deepEqual([p.w0, p.w1], [0, 0]); // colorFrom black: a sweep rises from the background
    assert.deepEqual(p.colorTo, [0, 255, 0, 0]);
    assert.deepEqual([p.p0, p.p1, p.from, p.to], [p0, p1, 0, 255]);
  }
  return pulses.map((p) => [p.address, p.delay, p.duration]);
}

/** The per-panel table of windowed pulses: [address, centre, width]; all share `kind` and `duration`. */
function windows(pulses: Pulse[], kind: number, duration: number, p0: number, p1: number): number[][] {
  for (const p of pulses) {
    assert.equal(p.kind, kind);
    assert.deepEqual([p.duration, p.delay, p.p0, p.p1], [duration, 0, p0, p1]);
  }
  return pulses.map((p) => [p.address, p.w0, p.w1]);
}

// ---- chain, topology --------------------------------------------------------------------------

test("WAVE, topology from the root: a triangle band of 3 rings, L = 9 + 3 rings over 1000 ms", async () => {
  // ring time k = 1000 / 12 = 83.33 ms: delay round(83.33 x), duration round(3k) = 250, rise = fall = 128
  const { pulses } = await flat(chain, { runner: "WAVE", duration: 1000 });
  assert.deepEqual(oneShots(pulses, 128, 128), [
    [1, 0, 250],
    [2, 83, 250],
    [3, 167, 250],
    [4, 250, 250],
    [5, 333, 250],
    [6, 417, 250],
    [7, 500, 250],
    [8, 583, 250],
    [9, 667, 250],
    [10, 750, 250],
  ]);
});

test("WAVE reverse: the coordinate flips (9 - x)", async () => {
  const { pulses } = await flat(chain, { runner: "WAVE", duration: 1000, reverse: true });
  assert.deepEqual(oneShots(pulses, 128, 128), [
    [1, 750, 250],
    [2, 667, 250],
    [3, 583, 250],
    [4, 500, 250],
    [5, 417, 250],
    [6, 333, 250],
    [7, 250, 250],
    [8, 167, 250],
    [9, 83, 250],
    [10, 0, 250],
  ]);
});

test("CHASE: one hard-edged ring at a time, L = 9 + 1 rings", async () => {
  const { pulses } = await flat(chain, { runner: "CHASE", duration: 1000 });
  assert.deepEqual(
    oneShots(pulses, 0, 0),
    [...Array(10)].map((_, x) => [x + 1, 100 * x, 100]),
  );
});

test("RIPPLE from panel:5: sharp front, fading over rippleWidth 2; L = 5 + 2 rings over 1000 ms", async () => {
  // hops from 5: |i - 5|; k = 1000 / 7 = 142.86: delays round(142.86 d), duration round(2k) = 286
  const { pulses } = await flat(chain, { runner: "RIPPLE", source: "panel:5", rippleWidth: 2, duration: 1000 });
  assert.deepEqual(oneShots(pulses, 0, 255), [
    [1, 571, 286],
    [2, 429, 286],
    [3, 286, 286],
    [4, 143, 286],
    [5, 0, 286],
    [6, 143, 286],
    [7, 286, 286],
    [8, 429, 286],
    [9, 571, 286],
    [10, 714, 286],
  ]);
});

test("an unknown source falls back to the root", async () => {
  const { pulses } = await flat(chain, { runner: "CHASE", source: "panel:77", duration: 1000 });
  assert.deepEqual(
    oneShots(pulses, 0, 0),
    [...Array(10)].map((_, x) => [x + 1, 100 * x, 100]),
  );
});

/** The per-panel table of series (count sweeps in one pulse, issue 18): [address, delay, period,
 * width, duration]. */
function series(pulses: Pulse[], p0: number, p1: number): number[][] {
  for (const p of pulses) {
    assert.equal(p.kind, KIND_ONE_SHOT);
    assert.deepEqual([p.group, p.layer, p.animatesBlend, p.p0, p.p1], [5, 8, 0, p0, p1]);
  }
  return pulses.map((p) => [p.address, p.delay, p.w0, p.w1, p.duration]);
}

test("count 2: two sweeps offset by duration / 2, one pulse a panel (a series)", async () => {
  // L = 12, k = 100: delay 100x, a window of 300 every 600 ms, twice (duration 1200)
  const { pulses } = await flat(chain, { runner: "WAVE", duration: 1200, count: 2 });
  assert.deepEqual(
    series(pulses, 128, 128),
    [...Array(10)].map((_, x) => [x + 1, 100 * x, 600, 300, 1200]),
  );
});

test("count 30, the spec's most: every sweep in one pulse a panel; a band wider than the gap fills it", async () => {
  // L = 12, k = 250: delay 250x; period 3000 / 30 = 100; the band (750 ms) is cut to the period
  const { pulses } = await flat(chain, { runner: "WAVE", duration: 3000, count: 30 });
  assert.deepEqual(
    series(pulses, 128, 128),
    [...Array(10)].map((_, x) => [x + 1, 250 * x, 100, 100, 3000]),
  );
});

test("count 9 CHASE: the ninth sweep lights too (8 were sent before issue 18), then the slot ends", async () => {
  // L = 10 rings, k = 90: delay 90x, lit 90 ms of every 100, 9 times (duration 900), hard-edged
  await clearPanels(chain); // black between sweeps, not the ambient look
  const { pulses } = await flat(chain, { runner: "CHASE", color: "#ff0000", duration: 900, count: 9 });
  assert.deepEqual(
    series(pulses, 0, 0),
    [...Array(10)].map((_, x) => [x + 1, 90 * x, 100, 90, 900]),
  );
  await advance(chain, 810); // t = 850 (the play was applied 40 ms ago): panel 1 in its ninth sweep
  let c = await colors(chain);
  assert.deepEqual([c[1], c[10]], ["#FF0000", "#FF0000"]);
  await advance(chain, 45); // t = 895: panel 1 between sweeps, panel 10 (τ = 85) in its first
  c = await colors(chain);
  assert.deepEqual([c[1], c[10]], ["#000000", "#FF0000"]);
  await advance(chain, 55); // t = 950: panel 1 done (no tenth sweep)
  assert.equal((await colors(chain))[1], "#000000");
  await advance(chain, 700); // t = 1650: panel 10 (τ = 840) in its ninth sweep; t = 1720: done
  assert.equal((await colors(chain))[10], "#FF0000");
  await advance(chain, 70);
  assert.equal((await colors(chain))[10], "#000000");
});

test("repeat with count 2 and repeatCount 3: one looping pulse, a sweep every 1200 / lcm(2, 3) = 200 ms", async () => {
  // centre (100x + 150) mod 200, width min(300, 200)
  const { pulses } = await flat(chain, { runner: "WAVE", duration: 1200, repeat: true, repeatCount: 3, count: 2 });
  assert.deepEqual(
    windows(pulses, KIND_TRAIN, 200, 128, 128),
    [...Array(10)].map((_, x) => [x + 1, (100 * x + 150) % 200, 200]),
  );
});

test("repeat with repeatCount 2: a looping train, a sweep every 600 ms, windows centred at (100x + 150) mod 600", async () => {
  const { pulses } = await flat(chain, { runner: "WAVE", duration: 1200, repeat: true, repeatCount: 2 });
  assert.deepEqual(windows(pulses, KIND_TRAIN, 600, 128, 128), [
    [1, 150, 300],
    [2, 250, 300],
    [3, 350, 300],
    [4, 450, 300],
    [5, 550, 300],
    [6, 50, 300],
    [7, 150, 300],
    [8, 250, 300],
    [9, 350, 300],
    [10, 450, 300],
  ]);
});

test("source all: every panel pulses together, one broadcast prepare", async () => {
  const { pulses, others } = await flat(chain, { runner: "WAVE", source: "all", duration: 900 });
  assert.deepEqual(oneShots(pulses, 128, 128), [[0, 0, 900]]); // L = 3 rings, the whole duration
  assert.deepEqual(others, [
    [0, START, [5, 0]],
    [0, START, [5, 1]],
  ]);
});

test("BOUNCE: pingpong windows, one pass of 900 ms, the band's centre at 100x", async () => {
  // M = 9 rings, 100 ms a ring: centre 100x, width 3 rings = 300 ms
  const { pulses } = await flat(chain, { runner: "BOUNCE", duration: 900 });
  assert.deepEqual(
    windows(pulses, KIND_BOUNCE, 900, 128, 128),
    [...Array(10)].map((_, x) => [x + 1, 100 * x, 300]),
  );
});

test("BOUNCE reverse starts at the far end: centres 100 (9 - x)", async () => {
  const { pulses } = await flat(chain, { runner: "BOUNCE", duration: 900, reverse: true });
  assert.deepEqual(
    windows(pulses, KIND_BOUNCE, 900, 128, 128),
    [...Array(10)].map((_, x) => [x + 1, 100 * (9 - x), 300]),
  );
});

test("modifier sweeps: animates with amount ramps from the identity to the amount", async () => {
  // dim: identity 255 -> 40; hue without amount: 0 -> 128; brighten without amount: 0 -> 255
  const cases: Array<[Record<string, unknown>, number, number, number]> = [
    [{ animates: "dim", amount: 40 }, 1, 255, 40],
    [{ animates: "hue" }, 3, 0, 128],
    [{ animates: "brighten" }, 5, 0, 255],
  ];
  for (const [fields, animates, from, to] of cases) {
    const { pulses } = await flat(chain, { runner: "CHASE", duration: 1000, ...fields });
    assert.equal(pulses.length, 10);
    for (const p of pulses) assert.deepEqual([p.animatesBlend, p.from, p.to], [animates, from, to]);
  }
});

// ---- chain, geometric ---------------------------------------------------------------------------

test("WAVE geometric along angle 90: y coordinates, L = 6.5 + 3", async () => {
  // k = 1000 / 9.5 = 105.26 ms a unit: delay round(105.26 y), duration round(3k) = 316
  const { pulses } = await flat(chain, { runner: "WAVE", directionality: "geometric", angle: 90, duration: 1000 });
  assert.deepEqual(oneShots(pulses, 128, 128), [
    [1, 0, 316],
    [2, 53, 316],
    [3, 158, 316],
    [4, 211, 316],
    [5, 316, 316],
    [6, 368, 316],
    [7, 474, 316],
    [8, 526, 316],
    [9, 632, 316],
    [10, 684, 316],
  ]);
});

test("angle has a 2-degree resolution: 91 sweeps like 90", async () => {
  const a = await flat(chain, { runner: "CHASE", directionality: "geometric", angle: 90, duration: 1000 });
  const b = await flat(chain, { runner: "CHASE", directionality: "geometric", angle: 91, duration: 1000 });
  assert.deepEqual(b.pulses, a.pulses);
});

test("RIPPLE geometric from the root: Euclidean rings, panels as discs of radius 1", async () => {
  // d = |centre|: 0, 1, 1.732, 2.646, 3.464, 4.359, 5.196, 6.083, 6.928, 7.810; lights from
  // max(0, d - 1) to d + 1 + 2; L = 7.810 + 3 = 10.810, k = 92.505 ms a unit
  const { pulses } = await flat(chain, {
    runner: "RIPPLE",
    directionality: "geometric",
    rippleWidth: 2,
    duration: 1000,
  });
  assert.deepEqual(oneShots(pulses, 0, 255), [
    [1, 0, 278],
    [2, 0, 370],
    [3, 68, 370],
    [4, 152, 370],
    [5, 228, 370],
    [6, 311, 370],
    [7, 388, 370],
    [8, 470, 370],
    [9, 548, 370],
    [10, 630, 370],
  ]);
});

test("RIPPLE geometric from all: one ripple from the centre of the strip (2.165, 3.25)", async () => {
  // the strip is symmetric about its centre: d = 3.905, 3.041, 2.179, 1.323, 0.5 for panels 1-5
  // (and 10-6); a = max(0, d - 1), b = d + 3; L = 3.905 + 3 = 6.905, k = 144.82 ms a unit:
  // panels 5 and 6 (d = 0.5) from 0 for 3.5k = 507 ms, the others 4k = 579 ms
  const { pulses } = await flat(chain, {
    runner: "RIPPLE",
    directionality: "geometric",
    source: "all",
    duration: 1000,
  });
  assert.deepEqual(oneShots(pulses, 0, 255), [
    [1, 421, 579],
    [2, 296, 579],
    [3, 171, 579],
    [4, 47, 579],
    [5, 0, 507],
    [6, 0, 507],
    [7, 47, 579],
    [8, 171, 579],
    [9, 296, 579],
    [10, 421, 579],
  ]);
});

test("WHEEL: 2 blades of 20 degrees about the root, one turn in 1200 ms", async () => {
  // period 600 ms; panel at angle φ, distance d: window centre (φ mod 180) · 1200 / 360, width
  // (2 asin(1 / d) + 20) · 1200 / 360; panels 1 and 2 (d <= 1) contain the pivot: always lit
  const { pulses } = await flat(chain, { runner: "WHEEL", lines: 2, thickness: 20, duration: 1200 });
  assert.deepEqual(windows(pulses, KIND_TRAIN, 600, 0, 0), [
    [1, 0, 600],
    [2, 100, 600],
    [3, 200, 302],
    [4, 164, 215],
    [5, 200, 179],
    [6, 178, 155],
    [7, 200, 141],
    [8, 184, 130],
    [9, 200, 122],
    [10, 188, 116],
  ]);
});

// ---- the branching tree ---------------------------------------------------------------------------

// depth from the root of tests/fixtures/topology-20.json, panels 1-20
const DEPTH = [0, 1, 2, 3, 3, 4, 2, 3, 3, 4, 4, 1, 2, 3, 4, 4, 3, 4, 5, 5];
// hops to the nearest leaf (leaves 4, 6, 8, 10, 11, 15, 16, 19, 20)
const LEAF_HOPS = [3, 2, 1, 0, 1, 0, 1, 0, 1, 0, 0, 3, 2, 1, 0, 0, 2, 1, 0, 0];

test("tree: WAVE from the leaves converges inward, L = 3 + 3 rings", async () => {
  const { pulses } = await flat(tree, { runner: "WAVE", source: "leaves", duration: 600 });
  assert.deepEqual(
    oneShots(pulses, 128, 128),
    LEAF_HOPS.map((h, i) => [i + 1, 100 * h, 300]),
  );
});

test("tree: RIPPLE from the root, L = 5 + 2 rings", async () => {
  const { pulses } = await flat(tree, { runner: "RIPPLE", duration: 700 });
  assert.deepEqual(
    oneShots(pulses, 0, 255),
    DEPTH.map((d, i) => [i + 1, 100 * d, 200]),
  );
});

test("tree: the coordinate spans only the targeted panels (CHASE on subtree:12)", async () => {
  // depths 1-5 of panels 12-20 shifted to 0-4; L = 4 + 1; unicast to the 9 targets only
  const { pulses, others } = await flat(tree, { runner: "CHASE", panels: "subtree:12", duration: 500 });
  assert.deepEqual(
    oneShots(pulses, 0, 0),
    DEPTH.slice(11).map((d, i) => [i + 12, 100 * (d - 1), 100]),
  );
  assert.deepEqual(others, [
    [0, START, [5, 0]],
    [0, START, [5, 1]],
  ]);
});

test("tree: the layout cannot be embedded, so geometric falls back to topology and WHEEL sends nothing", async () => {
  const topo = await flat(tree, { runner: "RIPPLE", duration: 700 });
  const geo = await flat(tree, { runner: "RIPPLE", directionality: "geometric", duration: 700 });
  assert.deepEqual(geo.pulses, topo.pulses);
  const leaves = await flat(tree, { runner: "WAVE", source: "leaves", directionality: "geometric", duration: 600 });
  assert.deepEqual(
    oneShots(leaves.pulses, 128, 128),
    LEAF_HOPS.map((h, i) => [i + 1, 100 * h, 300]),
  );
  const c = await mirror(tree);
  c.frames.length = 0;
  const res = await api(tree, "POST", "/api/animations/play", { group: 5, runner: "WHEEL", duration: 1000 });
  assert.equal(res.status, 202);
  await advance(tree, 40);
  const recs = mirroredPackets(await c.next(T.MIRROR_BATCH)).map((m) => [m.address, m.type, [...m.body]]);
  assert.deepEqual(recs, [[0, START, [5, 0]]]); // the group is cleared, nothing is prepared
});

test("tree: source root follows the logical root", async () => {
  const res = await api(tree, "PATCH", "/api/configuration", { logicalRoot: 12 });
  assert.equal(res.status, 202, res.text);
  await advance(tree, 10);
  try {
    // hops from 12: 12:0, 1 13:1, 2 14 17:2, 3 7 15 16 18:3, 4 5 8 9 19 20:4, 6 10 11:5
    const HOPS12 = [1, 2, 3, 4, 4, 5, 3, 4, 4, 5, 5, 0, 1, 2, 3, 3, 2, 3, 4, 4];
    const { pulses } = await flat(tree, { runner: "CHASE", duration: 600 });
    assert.deepEqual(
      oneShots(pulses, 0, 0),
      HOPS12.map((h, i) => [i + 1, 100 * h, 100]),
    );
  } finally {
    await api(tree, "PATCH", "/api/configuration", { logicalRoot: 0 });
    await advance(tree, 10);
  }
});

// ---- scenes, colours ------------------------------------------------------------------------------

test("a runner step in a scene: the layer's group and layer byte, durations divided by the speed", async () => {
  const scene = {
    schemaVersion: 4,
    speed: 2,
    layers: [{ group: 3, blend: "add", sequence: [{ runner: "CHASE", color: "#00ff00", duration: 2000 }] }],
  };
  const { pulses } = await capture(chain, 3, () => oneShot(chain, scene));
  // layer 0, group 3, blend add (2) in the high nibble
  for (const p of pulses) assert.deepEqual([p.group, p.layer, p.kind, p.animatesBlend], [3, 0, KIND_ONE_SHOT, 0x20]);
  assert.deepEqual(
    pulses.map((p) => [p.address, p.delay, p.duration]),
    [...Array(10)].map((_, x) => [x + 1, 100 * x, 100]),
  );
  await api(chain, "POST", "/api/scenes/stop", {});
  await clearPanels(chain); // a stop holds the frame (issue 18): the next test starts black
  await advance(chain, 10);
});

test("WAVE colours at t = 250 ms: a triangle band around panel 2", async () => {
  // WAVE 1200 ms on the chain: delay 100x, 300 ms triangles. At t = 250: panel 1 at τ = 250
  // (falling, e = 21846 -> 85), panel 2 at τ = 150 (the peak), panel 3 at τ = 50 (rising, 85),
  // panels 4-10 still pending
  await flat(chain, { runner: "WAVE", color: "#ff0000", duration: 1200 });
  await advance(chain, 210); // the play was applied 40 ms ago
  const c = await colors(chain);
  assert.deepEqual(
    [...Array(10)].map((_, i) => c[i + 1]),
    ["#550000", "#FF0000", "#550000", ...Array(7).fill("#000000")],
  );
});

test("RIPPLE colours at t = 250 ms: a sharp front at panel 3, fading behind", async () => {
  // RIPPLE 1100 ms, width 2: delay 100x, 200 ms each, rise 0 fall 255. At t = 250: panel 1 is done
  // (reaped), panel 2 at τ = 150 (e = 16384 -> 64), panel 3 at τ = 50 (e = 49152 -> 191)
  await flat(chain, { runner: "RIPPLE", color: "#00ff00", duration: 1100 });
  await advance(chain, 210);
  const c = await colors(chain);
  assert.deepEqual(
    [...Array(10)].map((_, i) => c[i + 1]),
    ["#000000", "#004000", "#00BF00", ...Array(7).fill("#000000")],
  );
});

test("repeating WAVE: the train comes round again after one lap", async () => {
  // lap 1200 ms, one sweep in flight: panel 2's window is centred at 250 (100..400 of each lap)
  await flat(chain, { runner: "WAVE", color: "#ff0000", duration: 1200, repeat: true });
  await advance(chain, 210); // t = 250: panel 2 at its peak
  assert.equal((await colors(chain))[2], "#FF0000");
  await advance(chain, 300); // t = 550: dark gap for panel 2, panel 5 at its peak (centre 550)
  let c = await colors(chain);
  assert.deepEqual([c[2], c[5]], ["#000000", "#FF0000"]);
  await advance(chain, 900); // t = 1450 = 250 of lap 2
  c = await colors(chain);
  assert.deepEqual([c[2], c[5]], ["#FF0000", "#000000"]);
});

test("an opaque runner hides the layer below in its dark phase too (issue 18); max lets it show", async () => {
  // a green SOLID under a repeating CHASE (lap 1000 ms, panel x + 1 lit over 100x..100x + 100),
  // background #400000. At t = 50 panel 1 is lit, panel 5 dark: opaque shows the background there
  const scene = (blend?: string) => ({
    schemaVersion: 5,
    background: "#400000",
    layers: [
      { group: 1, sequence: [{ type: "SOLID", color: "#00FF00", duration: 0 }] },
      {
        group: 2,
        ...(blend ? { blend } : {}),
        sequence: [{ runner: "CHASE", color: "#0000FF", duration: 1000, repeat: true }],
      },
    ],
  });
  await oneShot(chain, scene("opaque"));
  await advance(chain, 0); // applied at t = 0
  await advance(chain, 50);
  let c = await colors(chain);
  assert.deepEqual([c[1], c[5]], ["#0000FF", "#400000"]);
  await oneShot(chain, scene());
  await advance(chain, 0);
  await advance(chain, 50);
  c = await colors(chain);
  assert.deepEqual([c[1], c[5]], ["#00FFFF", "#00FF00"]);
  await clearPanels(chain);
});

test("an opaque one-shot sweep hides the layer below for its whole step, after its band has passed too (issue 36)", async () => {
  // a green SOLID under a one-shot CHASE of 1000 ms (panel x + 1 lit over 100x..100x + 100),
  // background #400000. At t = 250 the band is on panel 3; panels 1 and 2, which it has passed,
  // show the background (before: green again), panel 5, not reached yet, too. The sweep is the
  // layer's last step, so the layer holds that frame afterwards; a stop ends it.
  await oneShot(chain, {
    schemaVersion: 5,
    background: "#400000",
    layers: [
      { group: 1, sequence: [{ type: "SOLID", color: "#00FF00", duration: 0 }] },
      { group: 2, blend: "opaque", sequence: [{ runner: "CHASE", color: "#0000FF", duration: 1000 }] },
    ],
  });
  await advance(chain, 0); // applied at t = 0
  await advance(chain, 250);
  let c = await colors(chain);
  assert.deepEqual([c[1], c[2], c[3], c[5]], ["#400000", "#400000", "#0000FF", "#400000"]);
  await advance(chain, 700); // t = 950: every panel but the last one passed
  c = await colors(chain);
  assert.deepEqual(
    [...Array(10)].map((_, i) => c[i + 1]),
    [...Array(9).fill("#400000"), "#0000FF"],
  );
  await advance(chain, 1000); // the layer has finished and holds its last frame
  c = await colors(chain);
  assert.deepEqual(
    [...Array(10)].map((_, i) => c[i + 1]),
    Array(10).fill("#400000"),
  );
  await api(chain, "POST", "/api/scenes/stop", {});
  await clearPanels(chain);
});

// ---- GET /api/layout ------------------------------------------------------------------------------

test("GET /api/layout: centres, rotations, embedded", async () => {
  const res = await api(chain, "GET", "/api/layout");
  assert.equal(res.status, 200);
  // the root points up (slot 0 faces down: 270°); its slot 1 neighbour is at 30°, 1 away, and
  // turned half a turn (210°); the strip then alternates
  const s = [0, 0.866, 1.732, 2.598, 3.464, 4.33];
  assert.deepEqual(res.body, {
    embedded: true,
    side: 1.732,
    circumradius: 1,
    root: 1,
    panels: [...Array(10)].map((_, i) => ({
      index: i + 1,
      x: s[Math.floor((i + 1) / 2)],
      y: [0, 0.5, 1.5, 2, 3, 3.5, 4.5, 5, 6, 6.5][i],
      rotation: i % 2 === 0 ? 270 : 210,
    })),
  });
  const t = await api(tree, "GET", "/api/layout");
  const body = t.body as { embedded: boolean; panels: Array<{ index: number; x: number; y: number }> };
  assert.equal(body.embedded, false);
  // panels 11 and 13 land on the same triangle
  assert.deepEqual([body.panels[10].x, body.panels[10].y], [body.panels[12].x, body.panels[12].y]);
  assert.equal((await api(chain, "POST", "/api/layout", {})).status, 405);
  // the logical root is the origin: with root 3 (at 0.866, 1.5) panel 1 is at (-0.866, -1.5)
  assert.equal((await api(chain, "PATCH", "/api/configuration", { logicalRoot: 3 })).status, 202);
  try {
    await advance(chain, 10);
    const moved = (await api(chain, "GET", "/api/layout")).body as {
      root: number;
      panels: Array<{ x: number; y: number; rotation: number }>;
    };
    assert.equal(moved.root, 3);
    assert.deepEqual(moved.panels[0], { index: 1, x: -0.866, y: -1.5, rotation: 270 });
    assert.deepEqual(moved.panels[2], { index: 3, x: 0, y: 0, rotation: 270 });
  } finally {
    await api(chain, "PATCH", "/api/configuration", { logicalRoot: 0 });
    await advance(chain, 10);
  }
});
