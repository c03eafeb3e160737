// The compiled runners WAVE, RIPPLE, CHASE, WHEEL and BOUNCE: at step start every targeted panel
// gets its own runner pulses (kind 9) with their start delays or windows, prepared and started at
// once; the panels then run them with no further traffic. See docs/runners.md for the maths.
import { body, send } from "../bus/send";
import { ADDR_BROADCAST, T_ANIM_PREPARE, T_ANIM_START } from "../bus/protocol";
import { sendAnimStart } from "../bus/commands";
import { recordAt, include, plan, forget, sendPrepares, addends } from "../bus/pulse-table";
import { setHas, setCount } from "../topology/targeting";
import { count } from "../topology/rooted";
import { MAX_PANELS } from "../topology/tree";
import { computeHops, hops, isLeaf, sourcePanel, SRC_ALL, SRC_LEAVES } from "./distance";
import { updateLayout, layoutValid, layoutX, layoutY } from "./layout";
import { R_RIPPLE, R_CHASE, R_WHEEL, R_BOUNCE, R_RAIN } from "./fields";
import * as f from "./fields";
import { sin2, cos2, atan2Deg, asinDeg } from "./trig";

/** Pulses per panel a runner step may use (count sweeps beyond it are dropped): 18 slots are shared. */
export const MAX_PULSES = 8;
const F_LOOP: u8 = 0x10;
const F_PINGPONG: u8 = 0x20;
const F_REAP: u8 = 0x40;
const F_WINDOW: u8 = 0x80;
const KIND_RUNNER: u8 = 9;

const rec0 = memory.data(20);
const rec1 = memory.data(20);

// The step being emitted.
let step = 0;
let cRec: usize = 0;
let cGroup: u8 = 0;
let cLayer: u8 = 0;
let T: f64 = 0; // one sweep, lap, pass or rotation in ms (already divided by the speed)
let L: f64 = 1; // the front's travel in rings
let pulses = 1;
let mode = 0; // 0 one-shot sweeps, 1 repeating train, 2 bounce, 3 wheel
let coord = 0; // 0 topology hops, 1 geometric axis, 2 geometric rings (RIPPLE)
let extent: f64 = 1; // rings a panel stays lit after the front reaches it (topology and axis)
let ringWidth: f64 = 1;
let ax: f64 = 1; // the axis direction
let ay: f64 = 0;
let cx: f64 = 0; // the source centre (RIPPLE, WHEEL)
let cy: f64 = 0;
let perLeaf = false;
let lo: f64 = 0;
let span: f64 = 0; // the targets' extent, for reverse (L may be widened for BOUNCE)
let flip = false;
// Where the sweep's front is (rings) when the current panel lights and goes dark again, from
// interval(); for WHEEL the window centre and width in ms.
const coordinate = new StaticArray<f64>(MAX_PANELS + 1);
let ia: f64 = 0;
let ib: f64 = 0;

/** v modulo m, in [0, m) (no f64 `%`, which would pull in fmod). */
function wrap(v: f64, m: f64): f64 {
  return v - Math.floor(v / m) * m;
}

function round(v: f64): i32 {
  return <i32>Math.floor(v + 0.5);
}

/** The centre of a source: its panel, or the average of the leaves or of every panel. */
function centre(s: i32): void {
  const src = <i32>f.rSource[s];
  cx = 0;
  cy = 0;
  if (src == SRC_ALL || src == SRC_LEAVES) {
    let n = 0;
    for (let i = 1; i <= count; i++) {
      if (src == SRC_LEAVES && !isLeaf(i)) continue;
      cx += layoutX(i);
      cy += layoutY(i);
      n++;
    }
    cx /= <f64>n;
    cy /= <f64>n;
    return;
  }
  const p = sourcePanel(src, f.rPanel[s]);
  cx = layoutX(p);
  cy = layoutY(p);
}

function distance(i: i32, x: f64, y: f64): f64 {
  const dx = layoutX(i) - x;
  const dy = layoutY(i) - y;
  return Math.sqrt(dx * dx + dy * dy);
}

/**
 * ia, ib of panel i before normalising: topology a = hops, geometric axis a = the centre
 * projected on `angle`, b = a + extent; geometric RIPPLE: rings from the source centre (per leaf
 * for `leaves`: the nearest), panels as discs of radius 1, lit from when the front touches the
 * disc until the back of the ring leaves it.
 */
function raw(i: i32): void {
  const v = unchecked(coordinate[i]);
  if (coord == 2) {
    ia = Math.max(0, v - 1);
    ib = v + 1 + ringWidth;
    return;
  }
  ia = v;
  ib = ia + extent;
}

/** Per panel, what raw() starts from: hops, the projection on the axis, or the distance to the
 * source (RIPPLE; from the leaves, the nearest leaf's), worked out once per step rather than for
 * every pulse of every panel (from the leaves that was quadratic in the panels each time). */
function prepareCoordinates(): void {
  for (let i = 1; i <= count; i++) {
    let v: f64;
    if (coord == 2) {
      if (perLeaf) {
        v = Infinity;
        for (let q = 1; q <= count; q++) if (isLeaf(q)) v = Math.min(v, distance(i, layoutX(q), layoutY(q)));
      } else v = distance(i, cx, cy);
    } else v = coord == 1 ? layoutX(i) * ax + layoutY(i) * ay : <f64>hops[i];
    unchecked((coordinate[i] = v));
  }
}

/** The shift making the earliest target light at 0; L becomes the latest end. */
function normalise(set: i32, reverse: bool): void {
  lo = Infinity;
  let hi: f64 = -Infinity;
  for (let i = 1; i <= count; i++) {
    if (!setHas(set, i)) continue;
    raw(i);
    lo = Math.min(lo, ia);
    hi = Math.max(hi, ib);
  }
  L = hi - lo;
  span = L;
  flip = reverse;
}

/** ia, ib of panel i, normalised; reverse flips them (the same band travelling the other way). */
function interval(i: i32): void {
  raw(i);
  const a = ia - lo;
  const b = ib - lo;
  ia = flip ? span - b : a;
  ib = flip ? span - a : b;
}

/** WHEEL: ia, ib = the window centre and width (ms within one blade period) of the blades sweeping
 * over panel i's disc. */
function wheel(i: i32): void {
  const lines = <f64>f.rLines[step];
  const sector = 360 / lines;
  const d = distance(i, cx, cy);
  let deg: f64 = sector;
  // a lattice neighbour is exactly 1 away, but (X ± 1)·√3/2 − X·√3/2 can round to just above 1
  if (d > 1 + 1e-9) deg = Math.min(sector, 2 * asinDeg(1 / d) + <f64>f.rThickness[step]);
  let phi = atan2Deg(layoutY(i) - cy, layoutX(i) - cx);
  if (f.rReverse[step]) phi = -phi; // clockwise
  ia = (wrap(phi, sector) * T) / 360;
  ib = deg >= sector ? T / lines : (deg * T) / 360;
}

/** How much later sweep j of `count` comes (ms): j·T/count, within the lap for a train. */
function sweepOffset(j: i32): i32 {
  const offset = (<f64>j * T) / <f64>f.rCount[step];
  return mode == 1 ? round(wrap(offset, T / <f64>f.rRepeatCount[step])) : round(offset);
}

/** Pulse j of panel i as a 20-byte record at p. */
function fill(i: i32, j: i32, p: usize): void {
  let kind: u8 = KIND_RUNNER;
  let delay: f64 = 0;
  let dur: f64 = T;
  let wc: i32 = 0;
  let ww: i32 = 0;
  if (mode == 3) wheel(i);
  else interval(i);
  const k = T / L;
  if (mode == 0) {
    kind |= F_REAP;
    delay = <f64>(round(ia * k) + sweepOffset(j)); // rounded apart: sweeps can share one pulse table
    dur = (ib - ia) * k;
  } else if (mode == 1) {
    kind |= F_LOOP | F_WINDOW;
    dur = T / <f64>f.rRepeatCount[step];
    wc = round(wrap(((ia + ib) / 2) * k, dur)) + sweepOffset(j); // the engine wraps it round the lap
    if (wc > 65535) wc %= round(dur);
    ww = min(round((ib - ia) * k), round(dur));
  } else if (mode == 2) {
    kind |= F_PINGPONG | F_WINDOW;
    wc = round(ia * k);
    ww = min(round(<f64>max<u8>(f.rWidth[step], 1) * k), 65535);
  } else {
    kind |= F_LOOP | F_WINDOW;
    dur = T / <f64>f.rLines[step];
    wc = round(ia);
    ww = round(ib);
  }
  store<u8>(p, cGroup);
  store<u8>(p, cLayer, 1);
  store<u8>(p, kind, 2);
  store<u8>(p, load<u8>(cRec + 1), 3); // animates | blend << 4
  if (mode != 0) ww = max(ww, 1); // a width of 0 would mean "no window"
  store<u16>(p, <u16>wc, 4); // window, or colorFrom black (kind 0, 0, 0, 0)
  store<u16>(p, <u16>ww, 6);
  memory.copy(p + 8, cRec + 6, 4); // colorTo
  store<u16>(p, <u16>max(1, min(round(dur), 65535)), 12);
  store<u16>(p, <u16>min(round(delay), 65535), 14);
  memory.copy(p + 16, cRec + 10, 4); // rise, fall, from, to
}

function sendRecord(p: usize, address: u8): void {
  memory.copy(body(), p, 20);
  send(address, T_ANIM_PREPARE);
}

/** True when every target gets the same pulses as `first`. */
function uniform(set: i32, first: i32): bool {
  for (let i = first + 1; i <= count; i++) {
    if (!setHas(set, i)) continue;
    for (let j = 0; j < pulses; j++) {
      fill(first, j, rec0);
      fill(i, j, rec1);
      if (memory.compare(rec0, rec1, 20) != 0) return false;
    }
  }
  return true;
}

/**
 * Starts compiled runner step `s` (WAVE-BOUNCE) on the panels of target set `set` in group `group`,
 * layer byte `layer`; `rec` is its compact record (playback/compile.ts), `durationMs` its duration
 * already divided by the speed (0: infinite, a lap of 1000 ms / speed is used). False (nothing
 * sent) for a spawner, an empty target set, or a WHEEL whose layout cannot be embedded.
 */
export function runnerStart(s: i32, set: i32, group: u8, layer: u8, rec: usize, durationMs: f64, speed: f64): bool {
  const k = f.rKind[s];
  const t = setCount(set);
  if (k >= R_RAIN || t == 0 || count == 0) return false;
  updateLayout();
  const geometric = f.rGeometric[s] && layoutValid();
  if (k == R_WHEEL && !layoutValid()) return false;
  step = s;
  cRec = rec;
  cGroup = group;
  cLayer = layer;
  T = durationMs > 0 ? durationMs : 1000 / speed;
  pulses = 1;
  const w = <f64>max<u8>(f.rWidth[s], 1);
  if (k == R_WHEEL) {
    mode = 3;
    centre(s);
    L = 1;
  } else {
    coord = !geometric ? 0 : k == R_RIPPLE ? 2 : 1;
    if (coord == 0) computeHops(f.rSource[s], f.rPanel[s], false);
    if (coord == 1) {
      const k2 = (<i32>f.rAngle[s]) >> 1; // 2-degree resolution
      ax = cos2(k2);
      ay = sin2(k2);
    }
    perLeaf = f.rSource[s] == SRC_LEAVES;
    if (coord == 2 && !perLeaf) centre(s);
    ringWidth = w;
    extent = k == R_CHASE ? 1 : k == R_BOUNCE ? 0 : w;
    prepareCoordinates();
    normalise(set, f.rReverse[s]);
    if (k == R_BOUNCE) {
      mode = 2;
      L = Math.max(L, 1); // the band's centre travels the coordinate range in one pass
    } else {
      mode = f.rRepeat[s] ? 1 : 0;
      pulses = min(<i32>f.rCount[s], MAX_PULSES);
    }
  }
  // each panel's record, sent as unicasts or as pulse tables, whichever is smaller (pulse-table.ts);
  // count sweeps differ only by a later start (the delay, or a train's window centre), added to
  // sweep 0's
  for (let i = 1; i <= count; i++) {
    if (!setHas(set, i)) continue;
    const r = recordAt(i);
    fill(i, 0, r);
    if (mode == 0 && load<u16>(r, 14) == 65535) continue; // starts after the longest delay
    include(i);
  }
  for (let u = 0; u < pulses; u++) addends[u] = <u16>sweepOffset(u);
  const word = mode == 1 ? 2 : 7;
  let first = 1;
  while (!setHas(set, first)) first++;
  // identical pulses on every target: broadcasts and a clear to each other panel, when that is cheaper
  if (t < count && 25 * pulses + 7 * (count - t) < plan(count, pulses, word) && uniform(set, first)) {
    forget();
    for (let j = 0; j < pulses; j++) {
      fill(first, j, rec0);
      sendRecord(rec0, ADDR_BROADCAST);
    }
    for (let q = 1; q <= count; q++) {
      if (setHas(set, q)) continue;
      store<u8>(body(), group);
      store<u8>(body(), 0, 1);
      send(<u8>q, T_ANIM_START);
    }
  } else sendPrepares(count, pulses, word);
  sendAnimStart(group, 1);
  return true;
}
