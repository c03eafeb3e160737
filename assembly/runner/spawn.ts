// The particle spawners RAIN, SPARKLE and MATRIX: over a spawner step's play window the controller
// launches random one-shot drops, each a few runner pulses (kind 9, reap on done) with start delays
// along its path, prepared on the panels that show it and started at once. See docs/runners.md,
// "Spawners".
//
// Contract for the player (assembly/playback/player.ts):
// - spawnerStart(...) when a RAIN/SPARKLE/MATRIX step of layer `l` starts (after rootAt(), with
//   the scene compiled: target set `l` is read now and at each launch). Before calling it the
//   player clears the layer's previous animations as for any step (start(g, 0) when it has some).
//   Drops use the layer's own group `g` and layer byte `l`, and are started by `start(g, 1)`: a
//   layer's group never holds prepared-but-unstarted slots between ticks, so that start touches only
//   the drops (running slots are not restarted). Do not mark the layer as holding slots for the
//   spawner step (lslots): in-flight drops finish on their own when the window ends, so the next
//   step must not clear them.
// - spawnerStop(l) when that step ends (its duration elapsed, 0 = never) or the layer restarts:
//   no new drops; drops in flight finish on their own.
// - spawnerStopAll() whenever the panels' animations are all cleared (scene start/stop, power off,
//   start(0, 0)): every spawner stops and the slot accounting forgets the drops.
// - spawnerTick(now) from playbackTick, every core tick (wall clock ms, host_clock_ms()).
// - The flat animation (POST /api/animations/play) has its own spawner, FLAT_SPAWNER (target set 8,
//   layer byte 8), started with `flat` (times not scaled by the scene speed).
// Everything else (rate, paths, pulses, the 18-slot budget) is internal. The tables are static;
// nothing allocates but spawnerStart resolving a palette colour (geometric MATRIX, see resolveRef).
import { recordAt, include, sendPrepares } from "../bus/pulse-table";
import { sendAnimStart } from "../bus/commands";
import { MAX_PANELS } from "../topology/tree";
import { count, depth, rparent } from "../topology/rooted";
import { setHas } from "../topology/targeting";
import { app } from "../state/app";
import * as c from "../playback/compile";
import { samplePaletteArray } from "../palette/sample";
import { layoutValid, updateLayout } from "./layout";
import { MAX_STEPS, stepCount } from "../scene/state";
import * as f from "./fields";
import { sin2, cos2 } from "./trig";
import { rngSeed, rngBelow } from "./random";
import { SP_RAIN, SP_SPARKLE, SP_MATRIX } from "./spawn-kinds";
import { setBudget, slotFree, slotTake, slotsReset, slotsSweep, slotsClean, PANEL_SLOTS } from "./spawn-slots";
import * as path from "./spawn-paths";
import { wakeUp, WAKE_PLAYBACK } from "../core/wake";
export { SP_RAIN, SP_SPARKLE, SP_MATRIX } from "./spawn-kinds";

/** SPARKLE: a flash holds FLASH_MS, then fades over width x FADE_UNIT_MS (scene ms). */
export const FLASH_MS: f64 = 100;
export const FADE_UNIT_MS: f64 = 10;
/** A late tick launches the drops due in the last CATCH_UP_MS of scene time; older ones (a stalled
 * loop) are skipped rather than sent in a burst. */
const CATCH_UP_MS: f64 = 100;
const K_RUNNER_REAP: u8 = 9 | 0x40; // runner pulse, reap on done
const FULL: u16 = 256;
const N = 9; // one a scene layer (0-7), and the flat animation's
/** The spawner of POST /api/animations/play: target set 8 (compile.FLAT_SET), layer byte 8. */
export const FLAT_SPAWNER = 8;
const WORDS = (MAX_PANELS + 32) >> 5;

/** One spawner (one a layer): the step's fields and the launch state. Unmanaged, in static
 * memory (zeroed): no allocation, no collector work. */
@unmanaged
class Spawner {
  on: bool;
  flat: bool; // times not scaled by the scene speed (a flat animation)
  pending: bool; // prepared drops waiting for this tick's start
  geo: bool;
  reverse: bool;
  kind: i32;
  group: u8;
  anim: u8; // animates | blend << 4
  fromV: u8; // modifier identity and peak
  toV: u8;
  refs: u64; // colorFrom, colorTo references (4 bytes each, as in the record)
  headRgb: u32; // the references resolved, for dimmed MATRIX lines
  tailRgb: u32;
  width: i32;
  candN: i32;
  last: u32;
  waves: f64;
  fall: f64; // scene ms
  dirX: f64;
  dirY: f64;
  uMin: f64;
  extent: f64; // rings the head crosses at constant speed (MATRIX)
  vMin: f64;
  vMax: f64;
  elapsed: f64; // scene ms since the start
  launched: f64;
}

const SIZE = offsetof<Spawner>();
const TABLE = memory.data(<i32>SIZE * N, 8);

function spawnerAt(s: i32): Spawner {
  return changetype<Spawner>(TABLE + <usize>s * SIZE);
}

// Where drops start (leaves, tops or panels): a bitset of panel indices per spawner.
const cand = memory.data(N * WORDS * 4);
const reserve = memory.data(N); // per layer: slots its own steps may hold (layerSlots)

function bit(s: i32, p: i32): usize {
  return cand + ((s * WORDS + (p >> 5)) << 2);
}

/** A colour reference resolved as the panels would now: RGB, a position of the palette in the
 * reference's slot (0 the scene's, 1-8 a layer override), a scene base colour. */
function resolveRef(ref: u32): u32 {
  const k = ref & 0xff;
  const a = (ref >> 8) & 0xff;
  if (k == 0) return ((ref & 0xff00) << 8) | ((ref >> 8) & 0xff00) | (ref >> 24);
  if (k == 2) return a < 3 ? c.baseColors[a] : 0;
  if (k != 1) return 0;
  const slot = (ref >> 16) & 0xff;
  const pal = c.resolvePalette(slot == 0 ? c.paletteName : c.slotName[slot]);
  return samplePaletteArray(pal.stops, <u32>pal.stops.length, a);
}

/** An RGB colour scaled by level / 256, as the 4 reference bytes (kind 0, r, g, b) read as u32. */
function scaledRef(rgb: u32, level: u32): u32 {
  const r = (((rgb >> 16) & 0xff) * level) >> 8;
  const g = (((rgb >> 8) & 0xff) * level) >> 8;
  const b = ((rgb & 0xff) * level) >> 8;
  return (r << 8) | (g << 16) | (b << 24);
}

/** Slots a layer's own steps may hold on each of its panels, the most over its steps: a
 * panel-local step 1 (a gap keeps the step before), a compiled runner 1 (one pulse whatever its
 * `count`), a spawner none. */
function layerSlots(l: i32): i32 {
  for (let i = 0; i < stepCount[l]; i++) {
    const st = l * MAX_STEPS + i;
    const k = c.stepKind[st];
    if (k == c.K_LOCAL || (k == c.K_RUNNER && f.runnerAt(st).kind < f.R_RAIN)) return 1;
  }
  return 0;
}

/** Per panel the slots drops may use: 18, minus what the scene's layers targeting the panel may
 * hold, minus one for a notification (POST /api/animations/play). */
function computeBudget(): void {
  for (let l = 0; l < c.layerCount; l++) store<u8>(reserve + l, c.layerEmpty[l] ? 0 : layerSlots(l));
  for (let p = 1; p <= count; p++) {
    let reserved = 1;
    for (let l = 0; l < c.layerCount; l++) if (setHas(l, p)) reserved += <i32>load<u8>(reserve + l);
    setBudget(p, max(0, PANEL_SLOTS - reserved));
  }
}

/** True when the root-to-leaf path of `leaf` crosses a panel of target set `set`. */
function reachesTarget(leaf: i32, set: i32): bool {
  for (let p = leaf; p != 0; p = rparent[p]) if (setHas(set, p)) return true;
  return false;
}

/** Where drops of spawner `s` start, and the height (topology) or extent (geometric MATRIX). */
function computeCandidates(s: i32, sp: Spawner): void {
  let n = 0;
  const k = sp.kind;
  if (k == SP_MATRIX && sp.geo) {
    let lo = Infinity;
    let hi = -Infinity;
    let vl = Infinity;
    let vh = -Infinity;
    for (let p = 1; p <= count; p++) {
      if (!setHas(s, p)) continue;
      const u = path.along(p, sp.dirX, sp.dirY);
      const v = path.across(p, sp.dirX, sp.dirY);
      lo = min(lo, u);
      hi = max(hi, u);
      vl = min(vl, v);
      vh = max(vh, v);
      n++;
    }
    sp.uMin = lo;
    sp.extent = hi - lo + 1;
    sp.vMin = vl;
    sp.vMax = vh;
    sp.candN = n;
    return;
  }
  let deepest = 0;
  for (let p = 1; p <= count; p++) {
    deepest = max(deepest, <i32>depth[p]);
    let ok: bool;
    if (k == SP_SPARKLE) ok = setHas(s, p);
    else if (sp.geo) ok = path.isTop(p, sp.dirX, sp.dirY);
    else ok = path.isLeafPanel(p) && reachesTarget(p, s);
    const w = bit(s, p);
    const m: u32 = 1 << (p & 31);
    store<u32>(w, ok ? load<u32>(w) | m : load<u32>(w) & ~m);
    if (ok) n++;
  }
  sp.candN = n;
  sp.extent = <f64>(deepest + 1);
}

/** The `r`-th (0-based) start candidate of spawner `s`, in index order. */
function candidate(s: i32, r: i32): i32 {
  for (let p = 1; p <= count; p++) {
    if ((load<u32>(bit(s, p)) & (1 << (p & 31))) == 0) continue;
    if (r-- == 0) return p;
  }
  return 0;
}

/**
 * Starts (or restarts) the spawner of layer `layer` (0-7) for runner step `step` (its fields in
 * runner/fields.ts: rKind - R_RAIN is SP_RAIN, SP_SPARKLE or SP_MATRIX; rAmount the modifier peak
 * (animates other than color), rWaves the drops a second, rSpeed the fall time (0: 1000), rWidth the
 * tail in rings (SPARKLE: the fade length), rGeometric (MATRIX's default is geometric), rAngle the
 * direction drops travel in the layout plane, counterclockwise from +x, rReverse). Drops go to the
 * panels of target set `layer` (topology/targeting), in group `groupId`, layer byte `layer`. `rec` is
 * the step's compact record (playback/compile.ts REC: byte 1 animates | blend << 4, bytes 2-5
 * colorFrom, 6-9 colorTo). Times are scene times (the scene speed divides them, as for every step),
 * except with `flat`. `now` is the wall clock.
 */
export function spawnerStart(layer: i32, groupId: u8, step: i32, rec: usize, now: u32, flat: bool = false): void {
  const r = f.runnerAt(step);
  const spawner = <i32>r.kind - f.R_RAIN;
  const amount = <i32>r.amount;
  const perSecond = <i32>r.waves;
  const speedMs = <i32>r.speed;
  const tail = <i32>r.width;
  const geometric = r.geometric;
  const angle = <i32>r.angle;
  const rev = r.reverse;
  if (layer < 0 || layer >= N || spawner < SP_RAIN || spawner > SP_MATRIX) return;
  const sp = spawnerAt(layer);
  sp.kind = spawner;
  sp.flat = flat;
  sp.group = groupId;
  sp.anim = load<u8>(rec, 1);
  sp.refs = load<u64>(rec + 2);
  const a = <i32>(sp.anim & 15);
  sp.fromV = a == 0 ? 0 : f.identityOf(a);
  sp.toV = <u8>(a == 0 ? 255 : amount);
  sp.waves = <f64>min(255, max(1, perSecond));
  sp.fall = speedMs > 0 ? <f64>speedMs : 1000;
  sp.width = max(0, tail);
  sp.reverse = rev && spawner != SP_SPARKLE;
  // geometric needs an embeddable layout; without one it falls back to topology (spec)
  if (spawner != SP_SPARKLE && geometric) updateLayout();
  sp.geo = spawner != SP_SPARKLE && geometric && layoutValid();
  const k2 = (angle >> 1) + (sp.reverse ? 90 : 0); // 2-degree steps, + 180° reversed
  sp.dirX = cos2(k2);
  sp.dirY = sin2(k2);
  computeCandidates(layer, sp);
  computeBudget();
  if (spawner == SP_MATRIX && sp.geo) {
    sp.tailRgb = resolveRef(<u32>sp.refs);
    sp.headRgb = resolveRef(<u32>(sp.refs >> 32));
  }
  rngSeed(layer);
  sp.elapsed = 0;
  sp.launched = 0;
  sp.last = now;
  sp.pending = false;
  if (!sp.on) spawning++;
  sp.on = true;
  wakeUp(WAKE_PLAYBACK);
  slotsSweep(now);
}

/** How many spawners are on: an idle tick looks at none of them. */
let spawning = 0;

/** The scene speed, or 1 for the flat spawner. */
function speedOf(sp: Spawner): f64 {
  return sp.flat ? 1 : app.speed;
}

/** No new drops from layer `layer`'s spawner; drops in flight finish on their own. */
export function spawnerStop(layer: i32): void {
  if (layer < 0 || layer >= N) return;
  const sp = spawnerAt(layer);
  if (sp.on) spawning--;
  sp.on = false;
}

/** Every spawner stops and the slot accounting is reset (the panels were cleared). */
export function spawnerStopAll(): void {
  for (let s = 0; s < N; s++) spawnerAt(s).on = false;
  spawning = 0;
  slotsReset();
}

/** True when no spawner is on and no drop holds a slot: spawnerTick has nothing to do. */
export function spawnersIdle(): bool {
  return spawning == 0 && slotsClean();
}

/** Launches the drops due at wall time `now`: drop k of a spawner at scene time k / waves. */
export function spawnerTick(now: u32): void {
  slotsSweep(now);
  if (spawning == 0) return;
  for (let s = 0; s < N; s++) {
    const sp = spawnerAt(s);
    if (!sp.on) continue;
    sp.elapsed += <f64>(now - sp.last) * speedOf(sp);
    sp.last = now;
    if (!app.isOn) continue;
    // drops 0..k are due once k / waves s have passed
    const due = Math.floor((sp.elapsed * sp.waves) / 1000) + 1;
    sp.launched = max(sp.launched, Math.floor(((sp.elapsed - CATCH_UP_MS) * sp.waves) / 1000) + 1);
    for (; sp.launched < due; sp.launched++) launch(s, sp, now);
    if (sp.pending) {
      sendAnimStart(sp.group, 1);
      sp.pending = false;
    }
  }
}

/** One drop of spawner `s`: its path, then one pulse a panel of it that is targeted and has room. */
function launch(s: i32, sp: Spawner, now: u32): void {
  const k = sp.kind;
  const n = sp.candN;
  if (n == 0) return;
  if (k == SP_SPARKLE) {
    const fade = <f64>sp.width * FADE_UNIT_MS;
    const d = FLASH_MS + fade;
    emit(s, sp, candidate(s, rngBelow(s, n)), 0, d, <u8>Math.round((255 * fade) / d), FULL, now);
    if (sendPrepares(count) > 0) sp.pending = true;
    return;
  }
  let ring: f64;
  if (k == SP_MATRIX && sp.geo) {
    path.linePath(sp.dirX, sp.dirY, sp.uMin, sp.vMin, sp.vMax, s);
    ring = sp.fall / sp.extent;
  } else {
    const start = candidate(s, rngBelow(s, n));
    if (sp.geo) path.downhillPath(start, sp.dirX, sp.dirY, s);
    else path.leafPath(start, sp.reverse);
    // RAIN: the whole path in the fall time; MATRIX: the tree's height in it (constant speed)
    ring = sp.fall / (k == SP_MATRIX ? sp.extent : path.pathRings);
  }
  const w = <f64>sp.width;
  const fallP = <u8>Math.round((255 * w) / (w + 1));
  for (let i = 0; i < path.pathLen; i++)
    emit(s, sp, path.pathPanel(i), path.pathPos(i) * ring, (w + 1) * ring, fallP, path.pathLevel(i), now);
  // one unicast a panel, or pulse tables over the path's index range and one broadcast prepare
  if (sendPrepares(count) > 0) sp.pending = true;
}

/** The pulse of spawner `s` on panel `p` (its record, sent by the launch): `delay` and `duration`
 * scene ms, the envelope's fall proportion, brightness `level` (256 full). Skipped when `p` is not
 * targeted or is full. */
function emit(s: i32, sp: Spawner, p: i32, delay: f64, duration: f64, fallP: u8, level: u16, now: u32): void {
  if (!setHas(s, p) || !slotFree(p, now)) return;
  const speed = speedOf(sp);
  const dl = <u32>min<f64>(65535, Math.round(delay / speed));
  const du = <u32>min<f64>(65535, max<f64>(1, Math.round(duration / speed)));
  const b = recordAt(p);
  store<u8>(b, sp.group);
  store<u8>(b, <u8>s, 1);
  store<u8>(b, K_RUNNER_REAP, 2);
  store<u8>(b, sp.anim, 3);
  let refs = sp.refs;
  let to = sp.toV;
  if (level < FULL) {
    // a dimmed line: the resolved colours scaled (RGB references), or the amount towards identity
    if ((sp.anim & 15) == 0) refs = (<u64>scaledRef(sp.tailRgb, level)) | ((<u64>scaledRef(sp.headRgb, level)) << 32);
    else to = <u8>(<i32>sp.fromV + (((<i32>sp.toV - <i32>sp.fromV) * <i32>level) >> 8));
  }
  store<u64>(b + 4, refs);
  store<u16>(b + 12, <u16>du);
  store<u16>(b + 14, <u16>dl);
  store<u8>(b + 16, 0); // rise: the head is instantly on
  store<u8>(b + 17, fallP);
  store<u8>(b + 18, sp.fromV);
  store<u8>(b + 19, to);
  include(p);
  slotTake(p, now + dl + du);
}
