// Geometric runner goldens on a 20-panel branching tree that can be embedded (issue 6): the
// layout (GET /api/layout) and, for geometric WAVE, CHASE, RIPPLE, WHEEL and BOUNCE, the runner
// pulses (kind 15) prepared on each panel, read from the mirror stream and compared with tables
// worked out by hand from docs/runners.md; plus the colours of a geometric sweep on the manual clock.
// (tests/runners-golden.test.ts covers topology mode and the chain; its 20-panel tree cannot be
// embedded, so geometric mode only falls back there.)
//
// tests/fixtures/topology-tree-20.json, indices = file order (depth first, slots in order).
// Branch points 1, 2, 3, 5, 7, 13, 15, 18; leaves 4, 6, 8, 9, 12, 14, 16, 19, 20; depth 5
// (8, 9, 19, 20). Panels 11 (inEdge 1) and 17 (inEdge 2) enter through another slot than 0.
// Centres as lattice steps (X, Y): x = X·s (s = √3/2 ≈ 0.866), y = Y/2. Moves per direction:
// 30° (+1, +1), 90° (0, +2), 150° (−1, +1), 210° (−1, −1), 270° (0, −2), 330° (+1, −1).
//
//  Y  6   .   .   .   .  12   .   .   .   .
//     4   .   .   .   .  11   .   9   .   8
//     3   .   .   .  14   .  10   .   7   .
//     1   .  16   .  13   .   2   .   5   .
//     0   .   .  15   .   1   .   3   .   6
//    -2  19   .  17   .   .   .   4   .   .
//    -3   .  18   .   .   .   .   .   .   .
//    -5   .  20   .   .   .   .   .   .   .
//    X:  −4  −3  −2  −1   0   1   2   3   4
import { test, after } from "node:test";
import assert from "node:assert/strict";
import { startHost, api, waitForDiscovery } from "./helpers/host.js";
import { Client, T, frame, mirroredPackets } from "./helpers/frames.js";
import { TableExpander } from "./helpers/pulse-table.js";
import { RUNNER_KIND } from "./helpers/panel.js";
import { advance, clearPanels, colors } from "./helpers/playback.js";

const host = await startHost({ topology: "tests/fixtures/topology-tree-20.json", extraArgs: ["--manual-clock"] });
after(() => host.stop());
await waitForDiscovery(host, 20);

const PREPARE = 12;
const START = 13;
const { ONE_SHOT: KIND_ONE_SHOT, TRAIN: KIND_TRAIN, BOUNCE: KIND_BOUNCE } = RUNNER_KIND;
const GEO = { directionality: "geometric" };

// ---- reading the prepares from the mirror stream (kept local and small: see the golden test) -------

/** A prepare's 20-byte animation record (docs/bus-protocol.md) on `address`. */
interface Pulse {
  address: number;
  head: number[]; // group, layer, kind, animates | blend << 4
  w0: number; // window centre (windowed) or colorFrom bytes 0-1
  w1: number; // window width
  colorTo: number[];
  duration: number;
  delay: number;
  tail: number[]; // rise, fall, from, to
}

const mirror = await Client.connect(host.wsUrl);
after(() => mirror.ws.close());
mirror.send(frame(T.SET_MIRROR, [1]));
await mirror.next(T.MIRROR_BATCH); // the snapshot
const tables = new TableExpander(); // stateful, like a panel

/** Plays a flat runner animation in group 5 and returns the per-panel prepares up to its start(5, 1)
 * (pulse tables expanded as the panels apply them), by panel. */
async function flat(step: Record<string, unknown>): Promise<Pulse[]> {
  mirror.frames.length = 0;
  const res = await api(host, "POST", "/api/animations/play", { group: 5, color: "#ff0000", ...GEO, ...step });
  assert.equal(res.status, 202, res.text);
  await advance(host, 40); // applied on the next tick, then a mirror flush
  const pulses: Pulse[] = [];
  for (;;) {
    let started = false;
    for (const { address, type, body: raw } of mirroredPackets(await mirror.next(T.MIRROR_BATCH))) {
      for (const r of tables.expand({ address, type, body: [...raw] })) {
        const b = Buffer.from(r.body);
        if (r.type === PREPARE)
          pulses.push({
            address: r.address,
            head: [...b.subarray(0, 4)],
            w0: b.readUInt16LE(4),
            w1: b.readUInt16LE(6),
            colorTo: [...b.subarray(8, 12)],
            duration: b.readUInt16LE(12),
            delay: b.readUInt16LE(14),
            tail: [...b.subarray(16, 20)],
          });
        if (r.type === START && b[0] === 5 && b[1] === 1) started = true;
      }
    }
    if (started) return pulses.sort((a, b) => a.address - b.address); // stable: a panel's sweeps in order
  }
}

/** One-shot sweeps: [address, delay, duration] per pulse; checks the shared bytes. */
function oneShots(pulses: Pulse[], rise: number, fall: number): number[][] {
  for (const p of pulses) {
    assert.deepEqual(p.head, [5, 8, KIND_ONE_SHOT, 0]); // group 5, flat layer 8, colour, default blend
    assert.deepEqual([p.w0, p.w1, ...p.colorTo], [0, 0, 0, 255, 0, 0]); // from black to #ff0000
    assert.deepEqual(p.tail, [rise, fall, 0, 255]);
  }
  return pulses.map((p) => [p.address, p.delay, p.duration]);
}

/** Windowed pulses: [address, window centre, window width]; all of `kind`, `duration`, delay 0. */
function windows(pulses: Pulse[], kind: number, duration: number, rise: number, fall: number): number[][] {
  for (const p of pulses) {
    assert.deepEqual(p.head, [5, 8, kind, 0]);
    assert.deepEqual([p.duration, p.delay, ...p.tail], [duration, 0, rise, fall, 0, 255]);
  }
  return pulses.map((p) => [p.address, p.w0, p.w1]);
}

/** Rows [i, ...v] for panels 1-20. */
const rows = (v: number[][]): number[][] => v.map((r, i) => [i + 1, ...r]);

// ---- the layout ---------------------------------------------------------------------------------

test("GET /api/layout: the tree embeds; centres and rotations", async () => {
  // rotation = the direction of slot 0's normal; slot j's is rotation + 120·j. The root: 270 (its
  // slots 1, 2 at 30°, 150°). A child plugged by its slot e into a parent's slot whose normal is o
  // sits 1 away along o with rotation o + 180 − 120·e: 2 (1's slot 1, o = 30) 210; 3 (2's slot 1,
  // 330) 150; 4 (3's slot 1, 270) 90; 5 (3's slot 2, 30) 210; 6 (330) 150; 7 (5's slot 2, 90)
  // 270; 8 (30) 210; 9 (150) 330; 10 (2's slot 2, 90) 270; 11 (10's slot 2, 150, by its slot 1)
  // 210; 12 (11's slot 2, 90) 270; 13 (1's slot 2, 150) 330; 14 (90) 270; 15 (13's slot 2, 210)
  // 30; 16 (150) 330; 17 (15's slot 2, 270, by its slot 2) 210; 18 (17's slot 0, 210) 30;
  // 19 (150) 330; 20 (270) 90. No two centres coincide: embedded.
  const res = await api(host, "GET", "/api/layout");
  assert.equal(res.status, 200);
  // [X, Y, rotation]
  const L = [
    [0, 0, 270],
    [1, 1, 210],
    [2, 0, 150],
    [2, -2, 90],
    [3, 1, 210],
    [4, 0, 150],
    [3, 3, 270],
    [4, 4, 210],
    [2, 4, 330],
    [1, 3, 270],
    [0, 4, 210],
    [0, 6, 270],
    [-1, 1, 330],
    [-1, 3, 270],
    [-2, 0, 30],
    [-3, 1, 330],
    [-2, -2, 210],
    [-3, -3, 30],
    [-4, -2, 330],
    [-3, -5, 90],
  ];
  const xs: Record<number, number> = { 0: 0, 1: 0.866, 2: 1.732, 3: 2.598, 4: 3.464 }; // X·s, 3 decimals
  assert.deepEqual(res.body, {
    embedded: true,
    side: 1.732,
    circumradius: 1,
    root: 1,
    panels: L.map(([X, Y, rotation], i) => ({
      index: i + 1,
      x: Math.sign(X) * xs[Math.abs(X)] || 0,
      y: Y / 2,
      rotation,
    })),
  });
});

// ---- WAVE and CHASE: the centre projected on the angle ------------------------------------------

test("WAVE angle 0, waveWidth 2: x = X·s, source ignored; L = 8s + 2 over 1000 ms", async () => {
  // x from −4s (19) to 4s (6, 8): a = (X + 4)·s, b = a + 2; L = 8s + 2 = 8.928, k = 112.005 ms a
  // unit: delay round(96.999 (X + 4)) = 0, 97, 194, 291, 388, 485, 582, 679, 776; duration 2k = 224
  const X = [0, 1, 2, 2, 3, 4, 3, 4, 2, 1, 0, 0, -1, -1, -2, -3, -2, -3, -4, -3];
  const delay = [0, 97, 194, 291, 388, 485, 582, 679, 776];
  const pulses = await flat({ runner: "WAVE", angle: 0, waveWidth: 2, source: "panel:12", duration: 1000 });
  assert.deepEqual(oneShots(pulses, 128, 128), rows(X.map((x) => [delay[x + 4], 224])));
});

test("WAVE angle 90 reverse: y = Y/2 from −2.5 to 3; L = 5.5 + 3, 100 ms a unit, flipped", async () => {
  // a = y + 2.5, b = a + 3, L = 8.5, k = 850 / 8.5 = 100. Reverse: a' = L − b = 3 − y, so the
  // band enters at the top (12, y = 3) and leaves at the bottom (20, y = −2.5): delay 100 (3 − y)
  const Y = [0, 1, 0, -2, 1, 0, 3, 4, 4, 3, 4, 6, 1, 3, 0, 1, -2, -3, -2, -5];
  const pulses = await flat({ runner: "WAVE", angle: 90, reverse: true, duration: 850 });
  assert.deepEqual(oneShots(pulses, 128, 128), rows(Y.map((y) => [100 * (3 - y / 2), 300])));
});

// CHASE at 30°: u = x cos 30 + y sin 30 = (3X + Y)/4, from −3.5 (19, 20) to 4 (8); L = 7.5 + 1 = 8.5
const U30 = [0, 1, 1.5, 1, 2.5, 3, 3, 4, 2.5, 1.5, 1, 1.5, -0.5, 0, -1.5, -2, -2, -3, -3.5, -3.5];

test("CHASE angle 30: u = (3X + Y)/4, one hard-edged unit; 100 ms a unit over 850 ms", async () => {
  // a = u + 3.5, k = 850 / 8.5 = 100: delay 100 (u + 3.5), duration 100
  const pulses = await flat({ runner: "CHASE", angle: 30, duration: 850 });
  assert.deepEqual(oneShots(pulses, 0, 0), rows(U30.map((u) => [100 * (u + 3.5), 100])));
});

test("CHASE angle 31 repeat, repeatCount 2: a train with a sweep every 425 ms", async () => {
  // 31 rounds down to 30. Window centre ((a + b)/2·k) mod 425 = (100 (u + 3.5) + 50) mod 425,
  // width 100: e.g. 8 (u = 4): 800 mod 425 = 375; 2 (u = 1): 500 mod 425 = 75
  const pulses = await flat({ runner: "CHASE", angle: 31, duration: 850, repeat: true, repeatCount: 2 });
  assert.deepEqual(windows(pulses, KIND_TRAIN, 425, 0, 0), [
    [1, 400, 100],
    [2, 75, 100],
    [3, 125, 100],
    [4, 75, 100],
    [5, 225, 100],
    [6, 275, 100],
    [7, 275, 100],
    [8, 375, 100],
    [9, 225, 100],
    [10, 125, 100],
    [11, 75, 100],
    [12, 125, 100],
    [13, 350, 100],
    [14, 400, 100],
    [15, 250, 100],
    [16, 200, 100],
    [17, 200, 100],
    [18, 100, 100],
    [19, 50, 100],
    [20, 50, 100],
  ]);
});

// ---- RIPPLE: Euclidean rings, panels as discs of radius 1 ---------------------------------------

test("RIPPLE from the root: d = |centre|, lit from max(0, d − 1) to d + 1 + 2; L = 4 + 3", async () => {
  // d² = 3X²/4 + Y²/4: 1 0; 2, 13 1; 3, 10, 14, 15 √3; 4, 11, 17 2; 5, 9, 16 √7; 7, 12, 18 3;
  // 6 2√3; 8 4; 19, 20 √13. L = 4 + 3 = 7, k = 142.857: delay round(k (d − 1)), duration 4k = 571
  // (1: from 0 to 3, 429; 2, 13: from 0 to 4, 571). √3 − 1 → 105, 2 − 1 → 143, √7 − 1 → 235,
  // 2 → 286, 2√3 − 1 → 352, 3 → 429, √13 − 1 → 372
  const pulses = await flat({ runner: "RIPPLE", rippleWidth: 2, duration: 1000 });
  assert.deepEqual(oneShots(pulses, 0, 255), [
    [1, 0, 429],
    [2, 0, 571],
    [3, 105, 571],
    [4, 143, 571],
    [5, 235, 571],
    [6, 352, 571],
    [7, 286, 571],
    [8, 429, 571],
    [9, 235, 571],
    [10, 105, 571],
    [11, 143, 571],
    [12, 286, 571],
    [13, 0, 571],
    [14, 105, 571],
    [15, 105, 571],
    [16, 235, 571],
    [17, 143, 571],
    [18, 286, 571],
    [19, 372, 571],
    [20, 372, 571],
  ]);
});

test("RIPPLE from panel:7, rippleWidth 1: L = √43 + 2 over 1200 ms", async () => {
  // 7 at (3, 3). d: 7 0; 5, 8, 9 1; 3, 6, 10 √3; 2 2; 4, 11 √7; 1, 12 3; 13 √13; 14 2√3; 15 √21;
  // 16 √28; 17 5; 18 6; 19, 20 √43 = 6.557. a = max(0, d − 1), b = d + 2; L = 8.557,
  // k = 140.229: duration 3k = 421 (7: 2k = 280); delays round(k (d − 1)): √3 → 103, 2 → 140,
  // √7 → 231, 3 → 280, √13 → 365, 2√3 → 346, √21 → 502, √28 → 602, 5 → 561, 6 → 701, √43 → 779
  const pulses = await flat({ runner: "RIPPLE", source: "panel:7", rippleWidth: 1, duration: 1200 });
  assert.deepEqual(oneShots(pulses, 0, 255), [
    [1, 280, 421],
    [2, 140, 421],
    [3, 103, 421],
    [4, 231, 421],
    [5, 0, 421],
    [6, 103, 421],
    [7, 0, 280],
    [8, 0, 421],
    [9, 0, 421],
    [10, 103, 421],
    [11, 231, 421],
    [12, 280, 421],
    [13, 365, 421],
    [14, 346, 421],
    [15, 502, 421],
    [16, 602, 421],
    [17, 561, 421],
    [18, 701, 421],
    [19, 779, 421],
    [20, 779, 421],
  ]);
});

test("RIPPLE from the leaves: one ripple per leaf, each panel lit by the nearest", async () => {
  // nearest leaf: the 9 leaves d = 0 (from 0 to 3); 3, 5, 7, 10, 11, 13, 15, 18 are next to a leaf,
  // d = 1 (from 0 to 4); 1, 2 and 17 are √3 from the nearest (1: 14; 2: 4, 9; 17: 16, 19, 20),
  // from √3 − 1 to √3 + 3. L = √3 + 3 = 4.732, k = 126.795: leaves 3k = 380, next 4k = 507,
  // 1, 2, 17 delay 0.732k = 93
  const pulses = await flat({ runner: "RIPPLE", source: "leaves", duration: 600 });
  const d = [3, 3, 1, 0, 1, 0, 1, 0, 0, 1, 1, 0, 1, 0, 1, 0, 3, 1, 0, 0]; // 3 stands for √3
  assert.deepEqual(oneShots(pulses, 0, 255), rows(d.map((v) => (v === 0 ? [0, 380] : v === 1 ? [0, 507] : [93, 507]))));
});

test("RIPPLE from all: one ripple from the average centre (3s/20, 17/40)", async () => {
  // ΣX = 3, ΣY = 17: centre (0.130, 0.425). d: 1 0.444, 2 0.740, 3 1.658, 4 2.144, 5 2.469,
  // 6 3.361, 7 2.692, 8 3.687, 9 2.247, 10 1.303, 11 1.580, 12 2.578, 13 0.999, 14 1.465,
  // 15 1.910, 16 2.729, 17 2.345, 18 3.339, 19 3.866, 20 3.9997. L = 20's d + 3 = 6.9997,
  // k = 1100 / L = 157.150: d < 1 from 0 to d + 3 (1: 3.444k = 541; 2: 588; 13: 3.999k = 628),
  // the others from (d − 1)k, 4k = 629 long
  const pulses = await flat({ runner: "RIPPLE", source: "all", duration: 1100 });
  assert.deepEqual(oneShots(pulses, 0, 255), [
    [1, 0, 541],
    [2, 0, 588],
    [3, 103, 629],
    [4, 180, 629],
    [5, 231, 629],
    [6, 371, 629],
    [7, 266, 629],
    [8, 422, 629],
    [9, 196, 629],
    [10, 48, 629],
    [11, 91, 629],
    [12, 248, 629],
    [13, 0, 628],
    [14, 73, 629],
    [15, 143, 629],
    [16, 272, 629],
    [17, 211, 629],
    [18, 368, 629],
    [19, 450, 629],
    [20, 471, 629],
  ]);
});

// ---- WHEEL: blades about the pivot --------------------------------------------------------------

test("WHEEL, one blade about the root, one turn in 3600 ms (10 ms a degree)", async () => {
  // window centre φ·10 (φ the panel's angle, 0-360), width 2 asin(1/d)·10; 1, 2 and 13 hold the
  // pivot in their disc (d ≤ 1): always lit. 2 asin(1/d): √3 70.53°, 2 60°, √7 44.42°, 3 38.94°,
  // 2√3 33.56°, 4 28.96°, √13 32.20°. φ: 3, 6 0°; 5 10.89°; 7, 8, 2 30°; 9 49.11°; 10 60°;
  // 11, 12 90°; 14 120°; 13 150°; 16 169.11°; 15 180°; 19 196.10°; 17, 18 210°; 20 223.90°; 4 330°
  const pulses = await flat({ runner: "WHEEL", lines: 1, duration: 3600 });
  assert.deepEqual(windows(pulses, KIND_TRAIN, 3600, 0, 0), [
    [1, 0, 3600],
    [2, 300, 3600],
    [3, 0, 705],
    [4, 3300, 600],
    [5, 109, 444],
    [6, 0, 336],
    [7, 300, 389],
    [8, 300, 290],
    [9, 491, 444],
    [10, 600, 705],
    [11, 900, 600],
    [12, 900, 389],
    [13, 1500, 3600],
    [14, 1200, 705],
    [15, 1800, 705],
    [16, 1691, 444],
    [17, 2100, 600],
    [18, 2100, 389],
    [19, 1961, 322],
    [20, 2239, 322],
  ]);
});

test("WHEEL, one blade about panel:3: all three neighbours, exactly 1 away, are always lit", async () => {
  // pivot 3 at (2, 0). Its neighbours 2 (150°), 4 (270°) and 5 (30°) are at d = 1, so their discs
  // hold the pivot: always lit (5's float distance (3s − 2s, 0.5) once came out just above 1 and
  // got a 180° window). Others, φ and d: 6 0° √3; 7 60° √3; 8 49.11° √7; 9 90° 2; 10 120° √3;
  // 11 130.89° √7; 12 120° 2√3; 13 169.11° √7; 14 150° 3; 1 180° √3; 15 180° 2√3; 16 173.41° √19;
  // 17 196.10° √13; 18 199.11° √21; 19 190.89° √28; 20 210° 5. 2 asin(1/√19) = 26.53°
  const pulses = await flat({ runner: "WHEEL", source: "panel:3", duration: 3600 });
  assert.deepEqual(windows(pulses, KIND_TRAIN, 3600, 0, 0), [
    [1, 1800, 705],
    [2, 1500, 3600],
    [3, 0, 3600],
    [4, 2700, 3600],
    [5, 300, 3600],
    [6, 0, 705],
    [7, 600, 705],
    [8, 491, 444],
    [9, 900, 600],
    [10, 1200, 705],
    [11, 1309, 444],
    [12, 1200, 336],
    [13, 1691, 444],
    [14, 1500, 389],
    [15, 1800, 336],
    [16, 1734, 265],
    [17, 1961, 322],
    [18, 1991, 252],
    [19, 1909, 218],
    [20, 2100, 231],
  ]);
});

test("WHEEL, 3 blades of 40° about panel:7, clockwise, one turn in 1200 ms", async () => {
  // a blade every 400 ms (120°), 10/3 ms a degree; clockwise: centre (−φ mod 120)·10/3, width
  // (2 asin(1/d) + 40)·10/3. From 7 (3, 3): 5, 8, 9 (d = 1) and 7 itself always lit (400).
  // φ: 1, 2, 17, 18 −150°; 3 −120°; 4 −109.11°; 6 −60°; 9, 12 150°; 10, 14 180°; 11 169.11°;
  // 13 −163.90°; 15 −160.89°; 16 −169.11°; 19 −157.59°; 20 −142.41°.
  // 2 asin(1/d): 3 √3 70.53°; 2 2 60°; 4, 11 √7 44.42°; 1, 12 3 38.94°; 13 √13 32.20°;
  // 14 2√3 33.56°; 15 √21 25.21°; 16 √28 21.79°; 17 5 23.07°; 18 6 19.19°; 19, 20 √43 17.54°
  const pulses = await flat({
    runner: "WHEEL",
    source: "panel:7",
    lines: 3,
    thickness: 40,
    reverse: true,
    duration: 1200,
  });
  assert.deepEqual(windows(pulses, KIND_TRAIN, 400, 0, 0), [
    [1, 100, 263],
    [2, 100, 333],
    [3, 0, 368],
    [4, 364, 281],
    [5, 300, 400],
    [6, 200, 368],
    [7, 0, 400],
    [8, 300, 400],
    [9, 300, 400],
    [10, 200, 368],
    [11, 236, 281],
    [12, 300, 263],
    [13, 146, 241],
    [14, 200, 245],
    [15, 136, 217],
    [16, 164, 206],
    [17, 100, 210],
    [18, 100, 197],
    [19, 125, 192],
    [20, 75, 192],
  ]);
});

// ---- BOUNCE along an angle -------------------------------------------------------------------------

test("BOUNCE angle 270: the band's centre travels −y from 12 (top) to 20 (bottom) in 1100 ms", async () => {
  // u = −y from −3 to 2.5, M = 5.5, 200 ms a unit: centre 200 (3 − y), width 3 units = 600
  const Y = [0, 1, 0, -2, 1, 0, 3, 4, 4, 3, 4, 6, 1, 3, 0, 1, -2, -3, -2, -5];
  const pulses = await flat({ runner: "BOUNCE", angle: 270, duration: 1100 });
  assert.deepEqual(windows(pulses, KIND_BOUNCE, 1100, 128, 128), rows(Y.map((y) => [200 * (3 - y / 2), 600])));
});

test("BOUNCE angle 0 reverse, width 2: starts at the right edge", async () => {
  // u = X·s, M = 8s = 6.928, 1000 / M = 144.338 ms a unit: reversed centre (4 − X)·s·144.338 =
  // 125 (4 − X); width 2 · 144.338 = 289
  const X = [0, 1, 2, 2, 3, 4, 3, 4, 2, 1, 0, 0, -1, -1, -2, -3, -2, -3, -4, -3];
  const pulses = await flat({ runner: "BOUNCE", angle: 0, reverse: true, width: 2, duration: 1000 });
  assert.deepEqual(windows(pulses, KIND_BOUNCE, 1000, 128, 128), rows(X.map((x) => [125 * (4 - x), 289])));
});

// ---- colours --------------------------------------------------------------------------------------

test("CHASE angle 90 colours: a horizontal band climbing the tree", async () => {
  // y from −2.5 to 3, L = 5.5 + 1, k = 1300 / 6.5 = 200: delay 200 (y + 2.5), 200 ms each, full
  // colour (hard-edged). At t = 650: y = 0 (1, 3, 6, 15; 500-700) and y = 0.5 (2, 5, 13, 16;
  // 600-800) lit; at t = 1000 only y = 2 (8, 9, 11; 900-1100)
  await clearPanels(host); // black where the band is not: the panels no longer show the ambient look
  await flat({ runner: "CHASE", angle: 90, color: "#0000ff", duration: 1300 });
  await advance(host, 610); // the play was applied 40 ms ago
  const lit = (c: Record<number, string>) =>
    Object.keys(c)
      .map(Number)
      .filter((i) => c[i] !== "#000000")
      .sort((a, b) => a - b);
  let c = await colors(host);
  assert.deepEqual(lit(c), [1, 2, 3, 5, 6, 13, 15, 16]);
  assert.ok([1, 2, 3, 5, 6, 13, 15, 16].every((i) => c[i] === "#0000FF"));
  await advance(host, 350);
  c = await colors(host);
  assert.deepEqual(lit(c), [8, 9, 11]);
  assert.ok([8, 9, 11].every((i) => c[i] === "#0000FF"));
});
