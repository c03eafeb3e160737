// The compiled runners WAVE, RIPPLE, CHASE, WHEEL and BOUNCE: at step start every targeted panel
// gets its own runner pulses (kind 9) with their start delays or windows, prepared and started at
// once; the panels then run them with no further traffic. See docs/runners.md for the maths.
import { body, send } from "../bus/send";
import { ADDR_BROADCAST, T_ANIM_PREPARE, T_ANIM_START } from "../bus/protocol";
import { sendAnimStart } from "../bus/commands";
import { recordAt, marks, MARKED, includeRange, plan, forget, sendPrepares } from "../bus/pulse-table";
import { sets, setCount, SET_WORDS } from "../topology/targeting";
import { count, root, children } from "../topology/rooted";
import { MAX_PANELS } from "../topology/tree";
import { computeHops, hops, sourcePanel, SRC_ALL, SRC_LEAVES } from "./distance";
import { updateLayout, layoutValid, layoutX, layoutY, latticeX, IX, IY, HALF_SQRT3 } from "./layout";
import { R_RIPPLE, R_CHASE, R_WHEEL, R_BOUNCE, R_RAIN } from "./fields";
import * as f from "./fields";
import { sin2, cos2, atan2Deg, asinDeg } from "./trig";
import { SCRATCH, START_COORDINATE, START_LEAVES, START_TARGETS } from "../rt/scratch";

/** The kind byte of each mode: runner pulse (kind 9) with a window (0x80; width 0 for one sweep,
 * so it rises from the background; `count` sweeps are a series, the window at the start of each
 * period) and reap on done (0x40) for one-shot sweeps, loop (0x10) or pingpong (0x20) for the
 * others. One pulse a panel whatever the count (issue 18). */
const KINDS = memory.data<u8>([0xc9, 0x99, 0xa9, 0x99]);

/** What every pulse of the step shares (each target's record starts as it, then gets the words
 * that differ). */
const template = memory.data(20);

// The step being emitted: its constants, worked out once in runnerStart.
let step = 0;
let T: f64 = 0; // one sweep, lap, pass or rotation in ms (already divided by the speed)
let L: f64 = 1; // the front's travel in rings
let K: f64 = 1; // ms per ring: T / L
let lap: f64 = 0; // a series' or train's period; WHEEL's time between blades T / lines
let series = false; // one-shot `count` sweeps (count > 1): one pulse, the window every lap
let mode = 0; // 0 one-shot sweeps, 1 repeating train, 2 bounce, 3 wheel
let coord = 0; // 0 topology hops, 1 geometric axis, 2 geometric rings (RIPPLE)
let extent: f64 = 1; // rings a panel stays lit after the front reaches it (topology and axis)
let ringWidth: f64 = 1;
let ax: f64 = 1; // the axis direction
let ay: f64 = 0;
let cx: f64 = 0; // the source centre (RIPPLE, WHEEL)
let cy: f64 = 0;
let lo: f64 = 0;
let span: f64 = 0; // the targets' extent, for reverse (L may be widened for BOUNCE)
let flip = false;
let lines: f64 = 1; // WHEEL
let sector: f64 = 360;
let thickness: f64 = 0;
let clockwise = false;
// Per panel (index << 3), what a sweep starts from: hops, the projection on the axis, or the
// distance to the source (RIPPLE); worked out once per step for every panel.
const coordinate = SCRATCH + START_COORDINATE;
/** The leaves seen from the effective root, in index order (RIPPLE and WHEEL from `leaves`; RIPPLE's
 * nearest leaf sorts them by x, after any use of the order). */
const leaves = SCRATCH + START_LEAVES;
let leafCount = 0;
/** The step's targets in index order (a byte each, `targetCount` of them): the per-target loops
 * read this list instead of walking the set's bits. */
const targets = SCRATCH + START_TARGETS;
let targetCount = 0;

function gcd(a: i32, b: i32): i32 {
  while (b != 0) {
    const r = a % b;
    a = b;
    b = r;
  }
  return a;
}

function round(v: f64): i32 {
  return <i32>Math.floor(v + 0.5);
}

function findLeaves(): void {
  leafCount = 0;
  const ch = changetype<usize>(children);
  for (let i = 1; i <= count; i++)
    if (load<u8>(ch + i) == 0 && !(i == root && count > 1)) store<u8>(leaves + leafCount++, <u8>i);
}

/** The centre of a source: its panel, or the average of the leaves or of every panel. */
function centre(s: i32): void {
  const r = f.runnerAt(s);
  const src = <i32>r.source;
  cx = 0;
  cy = 0;
  if (src == SRC_ALL || src == SRC_LEAVES) {
    const n = src == SRC_ALL ? count : leafCount;
    for (let k = 0; k < n; k++) {
      const i = src == SRC_ALL ? k + 1 : <i32>load<u8>(leaves + k);
      cx += layoutX(i);
      cy += layoutY(i);
    }
    cx /= <f64>n;
    cy /= <f64>n;
    return;
  }
  const p = sourcePanel(src, r.panel);
  cx = layoutX(p);
  cy = layoutY(p);
}

/** Sorts `leaves` by lattice x (insertion sort: a few dozen leaves, once per step). */
function sortLeavesByX(): void {
  for (let k = 1; k < leafCount; k++) {
    const q = load<u8>(leaves + k);
    const xq = latticeX(<i32>q);
    let j = k;
    for (; j > 0; j--) {
      const r = load<u8>(leaves + j - 1);
      if (latticeX(<i32>r) <= xq) break;
      store<u8>(leaves + j, r);
    }
    store<u8>(leaves + j, q);
  }
}

/** Per target, what a sweep starts from (the coordinate table), and the least and greatest of
 * them (vl, vh): hops, the projection on the axis, or the distance to the source (RIPPLE). From the
 * leaves, the nearest leaf's: found on the exact integer lattice (4·d² = 3·dx² + dy² in lattice
 * steps), the floating-point distance worked out only for the nearest (and ties, whose float
 * values may differ in the last bit: the least of theirs, whatever the order). The leaves are
 * sorted by x, so each panel looks only at those whose 3·dx² alone is not beyond the best so far,
 * outwards from its own x. */
function prepareCoordinates(perLeaf: bool): void {
  if (perLeaf && coord == 2) sortLeavesByX();
  let vl = Infinity;
  let vh = -Infinity;
  let k = 0;
  do {
    const i = <usize>load<u8>(targets + k);
    const xi = <i32>load<i16>(IX + (i << 1));
    const yi = <i32>load<i16>(IY + (i << 1));
    const fx = <f64>xi * HALF_SQRT3; // layoutX(i)
    const fy = <f64>yi * 0.5;
    let v: f64;
    if (coord == 0) v = <f64>load<u8>(hops + i);
    else if (coord == 1) v = fx * ax + fy * ay;
    else if (!perLeaf) {
      const dx = fx - cx;
      const dy = fy - cy;
      v = Math.sqrt(dx * dx + dy * dy);
    } else {
      v = Infinity;
      let best = i32.MAX_VALUE;
      // the first leaf at or right of xi, then rightwards and leftwards from there
      let a = 0;
      let b = leafCount;
      while (a < b) {
        const m = (a + b) >> 1;
        if (<i32>load<i16>(IX + ((<usize>load<u8>(leaves + m)) << 1)) < xi) a = m + 1;
        else b = m;
      }
      for (let s = 1; s >= -1; s -= 2) {
        for (let j = s > 0 ? a : a - 1; j >= 0 && j < leafCount; j += s) {
          const q = <usize>load<u8>(leaves + j);
          const xq = <i32>load<i16>(IX + (q << 1));
          const yq = <i32>load<i16>(IY + (q << 1));
          const ex = 3 * (xi - xq) * (xi - xq);
          if (ex > best) break;
          const e = ex + (yi - yq) * (yi - yq);
          if (e > best) continue;
          const dx = fx - <f64>xq * HALF_SQRT3;
          const dy = fy - <f64>yq * 0.5;
          const d = Math.sqrt(dx * dx + dy * dy);
          v = e < best ? d : Math.min(v, d);
          best = e;
        }
      }
    }
    store<f64>(coordinate + (i << 3), v);
    vl = Math.min(vl, v);
    vh = Math.max(vh, v);
  } while (++k < targetCount);
  // the shift making the earliest target light at 0; L becomes the latest end
  // (a panel's start and end grow with its coordinate: from the least and the greatest)
  lo = coord == 2 ? Math.max(0, vl - 1) : vl;
  const hi = coord == 2 ? vh + 1 + ringWidth : vh + extent;
  L = hi - lo;
  span = L;
}

/**
 * Every target's pulse as a 20-byte record (pulse-table.ts recordAt), marked for sending: the
 * template plus the words that differ. A sweep lights panel i while its front is between ia and
 * ib rings (topology: a = hops, geometric axis: the centre projected on `angle`, b = a + extent;
 * geometric RIPPLE: rings from the source centre, panels as discs of radius 1, lit from when the
 * front touches the disc until the back of the ring leaves it), shifted so the earliest target
 * lights at 0 and flipped for reverse. WHEEL: the window centre and width (ms within one blade
 * period) of the blades sweeping over the disc. One loop for every target, no call per target
 * but WHEEL's trigonometry.
 */
function fillRecords(): void {
  const n = targetCount; // at least 1
  const t0 = load<u64>(template);
  const t1 = load<u64>(template, 8);
  const t2 = load<u32>(template, 16);
  const window = <i32>load<u16>(template, 4); // a series' period
  const width = select<usize>(6, 12, series); // where a one-shot sweep's window or duration goes
  const ring = coord == 2;
  const lapMs = round(lap);
  const recs = recordAt(0);
  // do-while loops with few branches: WAMR's classic interpreter looks up where every `if` ends
  let k = 0;
  do {
    const i = <usize>load<u8>(targets + k);
    const p = recs + i * 20;
    store<u64>(p, t0);
    store<u64>(p, t1, 8);
    store<u32>(p, t2, 16);
    store<u8>(marks + i, MARKED);
    if (mode == 3) {
      const dx = <f64>load<i16>(IX + (i << 1)) * HALF_SQRT3 - cx; // layoutX(i), layoutY(i)
      const dy = <f64>load<i16>(IY + (i << 1)) * 0.5 - cy;
      const d = Math.sqrt(dx * dx + dy * dy);
      let deg: f64 = sector;
      // a lattice neighbour is exactly 1 away, but (X ± 1)·√3/2 − X·√3/2 can round to just above 1
      if (d > 1 + 1e-9) deg = Math.min(sector, 2 * asinDeg(1 / d) + thickness);
      let phi = atan2Deg(dy, dx);
      phi = select<f64>(-phi, phi, clockwise);
      phi -= Math.floor(phi / sector) * sector; // wrap(phi, sector)
      store<u16>(p, <u16>(<i32>Math.floor((phi * T) / 360 + 0.5)), 4);
      store<u16>(p, <u16>max(<i32>Math.floor(deg >= sector ? T / lines : (deg * T) / 360 + 0.5), 1), 6);
    } else {
      // where the front is (rings) when panel i lights and goes dark again, before the shift
      const v = load<f64>(coordinate + (i << 3));
      const ra = select<f64>(Math.max(0, v - 1), v, ring);
      const rb = select<f64>(v + 1 + ringWidth, v + extent, ring);
      const a = ra - lo;
      const b = rb - lo;
      const ia = select<f64>(span - b, a, flip);
      const ib = select<f64>(span - a, b, flip);
      if (mode == 0) {
        // a series' window is at most its lap (wider sweeps merge)
        const d = max(1, min(<i32>Math.floor((ib - ia) * K + 0.5), 65535));
        store<u16>(p + width, <u16>select(min(d, window), d, series));
        const delay = min(<i32>Math.floor(ia * K + 0.5), 65535);
        store<u16>(p, <u16>delay, 14);
        // starts after the longest delay: not sent
        store<u8>(marks + i, <u8>(delay != 65535)); // MARKED or 0
      } else if (mode == 1) {
        const centre = ((ia + ib) / 2) * K;
        store<u16>(p, <u16>(<i32>Math.floor(centre - Math.floor(centre / lap) * lap + 0.5)), 4); // wrap(centre, lap)
        store<u16>(p, <u16>max(min(<i32>Math.floor((ib - ia) * K + 0.5), lapMs), 1), 6);
      } else store<u16>(p, <u16>(<i32>Math.floor(ia * K + 0.5)), 4);
    }
  } while (++k < n);
  includeRange(<i32>load<u8>(targets), <i32>load<u8>(targets + n - 1));
}

function sendRecord(p: usize, address: u8): void {
  memory.copy(body(), p, 20);
  send(address, T_ANIM_PREPARE);
}

/** Panel i is in the target set whose words start at `words` (targeting.ts bitsets). */
function targeted(words: usize, i: i32): bool {
  return ((load<u32>(words + (((<usize>i) >> 5) << 2)) >>> (i & 31)) & 1) != 0;
}

/** The target set's panels (1 to `count`) into `targets`, walked a word at a time. */
function listTargets(words: usize): void {
  let n = 0;
  for (let wi = 0; wi <= count >> 5; wi++) {
    let b = load<u32>(words + ((<usize>wi) << 2));
    if (wi == 0) b &= ~1;
    if (wi == count >> 5) b &= <u32>(((<u64>2) << (count & 31)) - 1);
    for (; b != 0; b &= b - 1) store<u8>(targets + n++, <u8>((wi << 5) + <i32>ctz(b)));
  }
  targetCount = n;
}

/** Stops and clears group `group` on every panel outside target set `set` (after a broadcast
 * prepare meant for the set's panels). */
export function stopUntargeted(set: i32, group: u8): void {
  const words = changetype<usize>(sets) + ((<usize>set * SET_WORDS) << 2);
  for (let q = 1; q <= count; q++) {
    if (targeted(words, q)) continue;
    store<u8>(body(), group);
    store<u8>(body(), 0, 1);
    send(<u8>q, T_ANIM_START);
  }
}

/** True when every target got the same pulse as the first (fillRecords). */
function uniform(): bool {
  const r0 = recordAt(<i32>load<u8>(targets));
  for (let k = 1; k < targetCount; k++)
    if (memory.compare(r0, recordAt(<i32>load<u8>(targets + k)), 20) != 0) return false;
  return true;
}

/**
 * Starts compiled runner step `s` (WAVE-BOUNCE) on the panels of target set `set` in group `group`,
 * layer byte `layer`; `rec` is its compact record (playback/compile.ts), `durationMs` its duration
 * already divided by the speed (0: infinite, a lap of 1000 ms / speed is used). False (nothing
 * sent) for a spawner, an empty target set, or a WHEEL whose layout cannot be embedded.
 */
export function runnerStart(s: i32, set: i32, group: u8, layer: u8, rec: usize, durationMs: f64, speed: f64): bool {
  const r = f.runnerAt(s);
  const k = r.kind;
  if (k >= R_RAIN || count == 0 || setCount(set) == 0) return false;
  updateLayout();
  const geometric = r.geometric && layoutValid();
  if (k == R_WHEEL && !layoutValid()) return false;
  const src = <i32>r.source;
  step = s;
  T = durationMs > 0 ? durationMs : 1000 / speed;
  const sweeps = <i32>r.count;
  series = false;
  mode = 3;
  L = 1;
  if (src == SRC_LEAVES) findLeaves();
  if (k != R_WHEEL && !geometric) computeHops(src, r.panel);
  // after computeHops: the list takes the bytes of its queue (none: only bits beyond `count`)
  listTargets(changetype<usize>(sets) + ((<usize>set * SET_WORDS) << 2));
  const t = targetCount;
  if (t == 0) return false;
  if (k == R_WHEEL) {
    centre(s);
    lines = <f64>r.lines;
    lap = T / lines;
    sector = 360 / lines;
    thickness = <f64>r.thickness;
    clockwise = r.reverse;
  } else {
    const w = <f64>max<u8>(r.width, 1);
    coord = !geometric ? 0 : k == R_RIPPLE ? 2 : 1;
    if (coord == 1) {
      const k2 = (<i32>r.angle) >> 1; // 2-degree resolution
      ax = cos2(k2);
      ay = sin2(k2);
    }
    if (coord == 2 && src != SRC_LEAVES) centre(s);
    ringWidth = w;
    extent = k == R_CHASE ? 1 : k == R_BOUNCE ? 0 : w;
    prepareCoordinates(src == SRC_LEAVES);
    flip = r.reverse;
    if (k == R_BOUNCE) {
      mode = 2;
      L = Math.max(L, 1); // the band's centre travels the coordinate range in one pass
      lap = T;
    } else if (r.repeat) {
      // N laps of T in flight, `count` sweeps T/count apart: together one train whose sweeps come
      // every T / lcm(N, count) (every a/count + b/N of T is a multiple of it)
      mode = 1;
      const n = <i32>r.repeatCount;
      lap = T / <f64>((n / gcd(n, sweeps)) * sweeps);
    } else {
      mode = 0;
      series = sweeps > 1;
      lap = T / <f64>sweeps;
    }
  }
  K = T / L;
  // the template: what every pulse shares; a one-shot sweep's duration and delay, a window's
  // centre (and width) are the panel's own (fillRecords)
  const p = template;
  store<u8>(p, group);
  store<u8>(p, layer, 1);
  store<u8>(p, load<u8>(KINDS + mode), 2);
  store<u8>(p, load<u8>(rec + 1), 3); // animates | blend << 4
  store<u32>(p, 0, 4); // the window (width 0 for one sweep)
  memory.copy(p + 8, rec + 6, 4); // colorTo
  const period = max(1, min(round(lap), 65535));
  store<u16>(p, <u16>period, 12); // one sweep: fillRecords()
  // a series: its period, and its duration `count` periods (fillRecords gives the width)
  if (series) {
    store<u16>(p, <u16>period, 4);
    store<u16>(p, <u16>min(sweeps * period, 65535), 12);
  }
  store<u16>(p, 0, 14);
  memory.copy(p + 16, rec + 10, 4); // rise, fall, from, to
  if (mode == 2) store<u16>(p, <u16>max(min(round(<f64>max<u8>(r.width, 1) * K), 65535), 1), 6);
  // each target's record, sent as unicasts or as pulse tables, whichever is smaller (pulse-table.ts)
  fillRecords();
  // an identical pulse on every target: a broadcast and a clear to each other panel, when cheaper
  if (t < count && 25 + 7 * (count - t) < plan(count) && uniform()) {
    forget();
    sendRecord(recordAt(<i32>load<u8>(targets)), ADDR_BROADCAST);
    stopUntargeted(set, group);
  } else sendPrepares(count);
  sendAnimStart(group, 1);
  return true;
}
