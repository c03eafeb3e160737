// The compiled runners WAVE, RIPPLE, CHASE, WHEEL and BOUNCE: at step start every targeted panel
// gets its own runner pulses (generated/kinds.ts K_RUNNER) with their start delays or windows, prepared and started at
// once; the panels then run them with no further traffic. See docs/runners.md for the maths.
import { body, send } from "../bus/send";
import { ADDR_BROADCAST, T_ANIM_PREPARE, T_ANIM_START } from "../bus/protocol";
import { sendAnimStart } from "../bus/commands";
import { recordAt, marks, sendPulses } from "../bus/pulse-table";
import { setHas, setCount } from "../topology/targeting";
import { count } from "../topology/rooted";
import { computeHops, findSources, hops, sources, SRC_LEAVES } from "./distance";
import { updateLayout, layoutValid, layoutX, layoutY } from "./layout";
import { runnerAt, R_RIPPLE, R_CHASE, R_WHEEL, R_BOUNCE } from "./step-params";
import { sin2, cos2, atan2Deg, asinDeg } from "./trig";
import { SCRATCH, RECORDS, START_COORDINATE, START_TARGETS } from "../rt/scratch";
import { K_RUNNER } from "../generated/kinds";

// The pulse of each mode (`mode`, below): one-shot sweeps, a repeating train, BOUNCE, WHEEL. Its
// kind byte: runner pulse (K_RUNNER) with a window (0x80; width 0 for one sweep, so it rises from the
// background; `count` sweeps are a series, the window at the start of each period) and reap on done
// (0x40) for one-shot sweeps, loop (0x10) or pingpong (0x20) for the others (one pulse a panel
// whatever the count, issue 18). Then the record offsets of the two words each target gets: its
// width W (a one-shot sweep's duration, a series' or a window's width; BOUNCE none: it goes under
// U), and U (a one-shot sweep's start delay, or a window's centre).
const ONE_SHOT = 0;
const TRAIN = 1;
const BOUNCE = 2;
const WHEEL = 3;
// prettier-ignore
const MODES = memory.data<u8>([
  K_RUNNER | 0xc0, 12, 14, 0, // one-shot sweeps (a series: W at 6)
  K_RUNNER | 0x90, 6, 4, 0, // a train
  K_RUNNER | 0xa0, 4, 4, 0, // BOUNCE
  K_RUNNER | 0x90, 6, 4, 0, // WHEEL
]);

/** What every pulse of the step shares (each target's record starts as it, then gets W and U); a
 * panel-local step's record (playback/player.ts). */
export const template = memory.data(20);

/** Per panel (index << 3): what a sweep starts from (hops, the projection on the axis, or the
 * distance to the source), worked out once per step for every target. */
const coordinate = SCRATCH + START_COORDINATE;
/** The step's targets in index order (a byte each): the per-target loops read this list instead
 * of walking the set's bits. */
const targets = SCRATCH + START_TARGETS;
/** The source centre (RIPPLE, WHEEL), x then y, or every leaf's (RIPPLE from the leaves), 16 bytes
 * each: centre(). In the records' bytes (rt/scratch.ts R), read before any record is written. */
const pivot = SCRATCH + RECORDS;

function gcd(a: i32, b: i32): i32 {
  while (b != 0) {
    const r = a % b;
    a = b;
    b = r;
  }
  return a;
}

/** x rounded half up to a whole number, at most `cap` (one call for the step start's 5 roundings). */
function nearest(x: f64, cap: i32): i32 {
  return min(<i32>Math.floor(x + 0.5), cap);
}

/** The centre of the `n` panels of findSources into `pivot` (their average: the source's panel,
 * or the centre of the leaves or of every panel); `perLeaf` (geometric RIPPLE from the leaves):
 * each one's centre instead, into `pivot` onwards. Returns how many points it stored. */
function centre(n: i32, perLeaf: bool): i32 {
  let x: f64 = 0;
  let y: f64 = 0;
  for (let k = 0; k < n; k++) {
    const i = <i32>load<u8>(sources + k);
    const px = layoutX(i);
    const py = layoutY(i);
    store<f64>(pivot + ((<usize>k) << 4), px);
    store<f64>(pivot + ((<usize>k) << 4), py, 8);
    x += px;
    y += py;
  }
  if (perLeaf) return n;
  store<f64>(pivot, x / <f64>n);
  store<f64>(pivot, y / <f64>n, 8);
  return 1;
}

/** Prepares the 20-byte record at `p` on the panels of target set `set`: one unicast a target, or,
 * when fewer bytes (and always when every panel is targeted), one broadcast and a stop-and-clear of
 * group `group` on each other panel. */
export function prepareOn(p: usize, set: i32, group: u8): void {
  const t = setCount(set);
  const cast = t == count || 25 + 7 * (count - t) < 25 * t;
  if (cast) {
    memory.copy(body(), p, 20);
    send(ADDR_BROADCAST, T_ANIM_PREPARE);
  }
  for (let q = 1; q <= count; q++) {
    if (setHas(set, q) == cast) continue;
    memory.copy(body(), p, 20);
    if (cast) store<u16>(body(), group); // group, mode 0 (stop and clear)
    send(<u8>q, cast ? T_ANIM_START : T_ANIM_PREPARE);
  }
}

/**
 * Starts compiled runner step `s` (WAVE-BOUNCE) on the panels of target set `set` in group `group`,
 * layer byte `layer`; `rec` is its compact record (playback/compile.ts), `durationMs` its duration
 * already divided by the speed (0: infinite, a lap of 1000 ms / speed is used). False (nothing
 * sent) for an empty target set, or a WHEEL whose layout cannot be embedded.
 *
 * Per target a sweep lights panel i while its front is between a and b rings (topology: a = hops,
 * geometric axis: the centre projected on `angle`, b = a + extent; geometric RIPPLE: rings from the
 * source centre, panels as discs of radius 1, lit from when the front touches the disc until the
 * back of the ring leaves it), shifted so the earliest target lights at 0 and flipped for reverse.
 * WHEEL: the window centre and width (ms within one blade period) of the blades sweeping over the
 * disc, worked out in the coordinate loop (its distance is geometric RIPPLE's from one centre) and
 * rounded with the sweeps'. Loops are do-whiles with few branches: WAMR's classic interpreter looks
 * up where every `if` ends, and pays for every call (a rounding as a call cost 0.48 M on 8 runner
 * layers: the per-target ones stay inline).
 */
export function runnerStart(s: i32, set: i32, group: u8, layer: u8, rec: usize, durationMs: f64, speed: f64): bool {
  const r = runnerAt(s);
  const k = r.kind;
  updateLayout();
  const wheel = k == R_WHEEL;
  if (wheel && !layoutValid()) return false;
  const geometric = (r.geometric || wheel) && layoutValid();
  const src = <i32>r.source;
  const n0 = findSources(src, r.panel);
  if (!wheel && !geometric) computeHops(n0);
  // the targets (panels 1 to `count` of the set)
  let t = 0;
  for (let p = 1; p <= count; p++) if (setHas(set, p)) store<u8>(targets + t++, <u8>p);
  if (t == 0) return false;

  const T = durationMs > 0 ? durationMs : 1000 / speed; // one sweep, lap, pass or rotation (ms)
  const sweeps = <i32>r.count;
  const w = <f64>max<u8>(r.width, 1);
  const ring = geometric && k == R_RIPPLE; // coordinates: rings from the source centre
  const extent: f64 = k == R_CHASE ? 1 : k == R_BOUNCE ? 0 : w; // rings a panel stays lit (axis, hops)
  let mode = WHEEL;
  let L: f64 = 1; // the front's travel in rings
  let lo: f64 = 0; // the shift making the earliest target light at 0
  let lap: f64 = 0; // a series' or train's period; WHEEL's time between blades
  const lines = <f64>r.lines;
  const sector = 360 / lines;
  const perLeaf = ring && src == SRC_LEAVES;
  let points = 1;
  if (wheel || ring) points = centre(n0, perLeaf);
  const thickness = <f64>r.thickness;
  const flip = r.reverse;
  const recs = recordAt(0);
  // per target, what a sweep starts from, and the least and greatest of them (vl, vh): hops, the
  // projection on the axis, or the distance to the source (RIPPLE, WHEEL). From the leaves, the
  // nearest leaf's: the least square of the distances to every leaf, then its root (the square root
  // is monotonic, and two leaves' squares differ by at least 1/4 or are ties). WHEEL: its window's
  // centre instead, and its width in the record's bytes 4-11 (the pivot is in panel 0's).
  const angle = (<i32>r.angle) >> 1; // 2-degree resolution
  const ax = cos2(angle);
  const ay = sin2(angle);
  let vl = Infinity;
  let vh = -Infinity;
  let j = 0;
  do {
    const i = <usize>load<u8>(targets + j);
    const fx = layoutX(<i32>i);
    const fy = layoutY(<i32>i);
    let v: f64;
    let dx: f64 = 0;
    let dy: f64 = 0;
    if (!geometric) v = <f64>load<u8>(hops + i);
    else if (!(ring || wheel)) v = fx * ax + fy * ay;
    else {
      v = Infinity;
      let m = 0;
      do {
        dx = fx - load<f64>(pivot + ((<usize>m) << 4));
        dy = fy - load<f64>(pivot + ((<usize>m) << 4), 8);
        v = Math.min(v, dx * dx + dy * dy);
      } while (++m < points);
      v = Math.sqrt(v);
      if (wheel) {
        let deg: f64 = sector;
        // a lattice neighbour is exactly 1 away, but (X ± 1)·√3/2 − X·√3/2 can round to just above 1
        if (v > 1 + 1e-9) deg = Math.min(sector, 2 * asinDeg(1 / v) + thickness);
        let phi = atan2Deg(dy, dx);
        phi = select<f64>(-phi, phi, flip); // clockwise when reversed
        phi -= Math.floor(phi / sector) * sector; // wrap(phi, sector)
        // (a full window: T / lines rounded down; x − 0.5 + 0.5 is x for x ≥ 0.5)
        store<f64>(recs + i * 20, deg >= sector ? T / lines - 0.5 : (deg * T) / 360, 4);
        v = (phi * T) / 360;
      }
    }
    store<f64>(coordinate + (i << 3), v);
    vl = Math.min(vl, v);
    vh = Math.max(vh, v);
  } while (++j < t);
  if (wheel) lap = T / lines;
  else {
    // L becomes the latest end (a panel's start and end grow with its coordinate: from the least
    // and the greatest)
    lo = ring ? Math.max(0, vl - 1) : vl;
    L = (ring ? vh + 1 + w : vh + extent) - lo;
    if (k == R_BOUNCE) {
      mode = BOUNCE;
      lap = T;
    } else if (r.repeat) {
      // N laps of T in flight, `count` sweeps T/count apart: together one train whose sweeps come
      // every T / lcm(N, count) (every a/count + b/N of T is a multiple of it)
      mode = TRAIN;
      const n = <i32>r.repeatCount;
      lap = T / <f64>((n / gcd(n, sweeps)) * sweeps);
    } else {
      mode = ONE_SHOT;
      lap = T / <f64>sweeps;
    }
  }
  const span = L; // the targets' extent, for reverse (L may be widened for BOUNCE)
  if (mode == BOUNCE) L = Math.max(L, 1); // the band's centre travels the coordinate range in one pass
  const K = T / L; // ms per ring
  const series = mode == ONE_SHOT && sweeps > 1; // one pulse, the window every lap
  const period = max(1, nearest(lap, 65535));

  // the template: what every pulse shares
  const p = template;
  const row = MODES + ((<usize>mode) << 2);
  // group, layer, kind, animates | blend << 4
  store<u32>(p, (<u32>group) | ((<u32>layer) << 8) | ((<u32>load<u8>(row)) << 16) | ((<u32>load<u8>(rec + 1)) << 24));
  store<u32>(p, 0, 4); // the window (width 0 for one sweep)
  memory.copy(p + 8, rec + 6, 4); // colorTo
  store<u32>(p, period, 12); // one sweep's duration (each target's own), delay 0
  // a series: its period, and its duration `count` periods
  if (series) {
    store<u16>(p, <u16>period, 4);
    store<u16>(p, <u16>min(sweeps * period, 65535), 12);
  }
  memory.copy(p + 16, rec + 10, 4); // rise, fall, from, to
  if (mode == BOUNCE) store<u16>(p, <u16>max(nearest(w * K, 65535), 1), 6);

  // each target's record, its W and U: capped at capW (at least 1) and capU; a one-shot sweep
  // that would start after the longest delay is not sent
  const oW = series ? 6 : <u32>load<u8>(row, 1);
  const oU = <u32>load<u8>(row, 2);
  const capW =
    mode == ONE_SHOT ? (series ? period : 65535) : mode == TRAIN ? nearest(lap, i32.MAX_VALUE) : i32.MAX_VALUE;
  const capU = mode == ONE_SHOT ? 65535 : i32.MAX_VALUE;
  const t0 = load<u64>(p);
  const t1 = load<u64>(p, 8);
  const t2 = load<u32>(p, 16);
  j = 0;
  do {
    const i = <usize>load<u8>(targets + j);
    const q = recs + i * 20;
    // WHEEL: its centre and width (ms) from the first loop
    let x = load<f64>(coordinate + (i << 3));
    let y = load<f64>(q, 4);
    if (mode != WHEEL) {
      // where the front is (rings) when panel i lights and goes dark again, before the shift
      const a = select<f64>(Math.max(0, x - 1), x, ring) - lo;
      const b = select<f64>(x + 1 + w, x + extent, ring) - lo;
      const ia = select<f64>(span - b, a, flip);
      const ib = select<f64>(span - a, b, flip);
      x = ia * K;
      y = (ib - ia) * K;
      if (mode == TRAIN) {
        const c = ((ia + ib) / 2) * K;
        x = c - Math.floor(c / lap) * lap; // wrap(c, lap)
      }
    }
    store<u64>(q, t0);
    store<u64>(q, t1, 8);
    store<u32>(q, t2, 16);
    const W = max(1, min(<i32>Math.floor(y + 0.5), capW));
    const U = min(<i32>Math.floor(x + 0.5), capU);
    store<u16>(q + oW, <u16>W);
    store<u16>(q + oU, <u16>U);
    store<u8>(marks + i, <u8>(U != 65535 || mode != ONE_SHOT)); // MARKED or 0
  } while (++j < t);
  // an identical pulse on every target: a broadcast and a clear to each other panel, when cheaper
  if (sendPulses(t) < 0) {
    prepareOn(recordAt(<i32>load<u8>(targets)), set, group); // (a broadcast: it costs less)
  }
  sendAnimStart(group, 1);
  return true;
}
