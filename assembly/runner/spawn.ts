// The particle spawners RAIN, SPARKLE and MATRIX: over a spawner step's play window the controller
// launches random one-shot drops, each a few runner pulses (K_RUNNER, reap on done) with start delays
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
//   spawner step (Layer.slots): in-flight drops finish on their own when the window ends, so the
//   next step must not clear them.
// - spawnerStop(l) when that step ends (its duration elapsed, 0 = never) or the layer restarts:
//   no new drops; drops in flight finish on their own. Stopping a spawner that is not on does
//   nothing.
// - spawnerStopAll() whenever the panels' animations are all cleared (scene start/stop, power off,
//   start(0, 0)): every spawner stops and the slot accounting forgets the drops.
// - spawnerTick(now) from playbackTick, every core tick (wall clock ms, host_clock_ms()).
// - The flat animation (POST /api/animations/play) has its own spawner, FLAT_SPAWNER (target set 8,
//   layer byte 8), whose times the scene speed does not divide.
// Everything else (rate, paths, pulses, the 18-slot budget) is internal. The tables are static;
// nothing allocates but spawnerStart resolving a palette colour (geometric MATRIX, see resolveRef).
import { recordAt, include, sendPulses } from "../bus/pulse-table";
import { K_RUNNER } from "../generated/kinds";
import { sendAnimStart } from "../bus/commands";
import { count, depth, rparent, children } from "../topology/rooted";
import { setHas } from "../topology/targeting";
import { app } from "../state/app";
import * as c from "../playback/compile";
import { samplePaletteArray } from "../palette/sample";
import { layoutValid, updateLayout } from "./layout";
import { MAX_LAYERS } from "../scene/state";
import { runnerAt, identityOf, R_RAIN } from "./step-params";
import { sin2, cos2 } from "./trig";
import { rngSeed, rngBelow } from "./random";
import { setBudget, slotFree, slotTake, slotsReset, slotsSweep, slotsClean, PANEL_SLOTS } from "./spawn-slots";
import {
  walk,
  linePath,
  isTop,
  along,
  across,
  pathPanels,
  pathPositions,
  pathLevels,
  FULL,
  WALK_STAY,
  WALK_ROOTWARD,
  WALK_DOWNHILL,
} from "./spawn-paths";
import { wakeUp, WAKE_PLAYBACK } from "../core/wake";

// The kinds, in the order of the runner names RAIN, SPARKLE, MATRIX (runner/step-params.ts R_RAIN + kind).
const SP_RAIN = 0;
const SP_SPARKLE = 1;
const SP_MATRIX = 2;
/** SPARKLE: a flash holds FLASH_MS, then fades over width x FADE_UNIT_MS (scene ms). */
const FLASH_MS: f64 = 100;
const FADE_UNIT_MS: f64 = 10;
/** A late tick launches the drops due in the last CATCH_UP_MS of scene time; older ones (a stalled
 * loop) are skipped rather than sent in a burst. */
const CATCH_UP_MS: f64 = 100;
const K_RUNNER_REAP: u8 = K_RUNNER | 0x40; // runner pulse, reap on done
const N = 9; // one a scene layer (0-7), and the flat animation's
/** The spawner of POST /api/animations/play: target set 8 (compile.FLAT_SET), layer byte 8. */
export const FLAT_SPAWNER = 8;
/** How a drop goes (spawn-paths.ts): along a walk, or a straight line (geometric MATRIX). */
const LINE = 3;

/** One spawner (one a layer): the step's fields and the launch state. Unmanaged, in static
 * memory (zeroed): no allocation, no collector work. */
@unmanaged
class Spawner {
  pending: bool; // prepared drops waiting for this tick's start
  reverse: bool;
  how: i32; // WALK_* or LINE
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

/** Panel p is where a drop of spawner `s` may start: a target (SPARKLE, a line's count), a top
 * (geometric RAIN), or a leaf whose root path crosses a target (topology). Worked out again at each
 * launch rather than kept as a set: smaller code, for at most one pass over the panels (with a walk to
 * the root per leaf, topology) per drop, in the tick of a playing spawner, which no bench row times. */
function isStart(s: i32, sp: Spawner, p: i32): bool {
  const how = sp.how;
  if (how == WALK_DOWNHILL) return isTop(p, sp.dirX, sp.dirY);
  if (how != WALK_ROOTWARD) return setHas(s, p);
  if (children[p] != 0) return false;
  for (let q = p; q != 0; q = rparent[q]) if (setHas(s, q)) return true;
  return false;
}

/** A colour reference resolved as the panels would now: RGB, a position of the palette in the
 * reference's slot (0 the scene's, 1-8 a layer override), a scene base colour. */
function resolveRef(ref: u32): u32 {
  const k = ref & 0xff;
  const a = (ref >> 8) & 0xff;
  if (k == 0) return ((ref & 0xff00) << 8) | ((ref >> 8) & 0xff00) | (ref >> 24);
  if (k == 2) return a < 3 ? unchecked(c.baseColors[a]) : 0;
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

/** Per panel the slots drops may use: 18, minus one for each layer in `holding` (a bit per layer
 * of the scene whose own steps may hold a slot, player.ts) that targets the panel, minus one for a
 * notification (POST /api/animations/play). */
function computeBudget(holding: u32): void {
  for (let p = 1; p <= count; p++) {
    let reserved = 1;
    for (let l = 0; l < MAX_LAYERS; l++) reserved += <i32>(((holding >> l) & 1) != 0 && setHas(l, p));
    setBudget(p, PANEL_SLOTS - reserved); // (at most 1 + 8 reserved)
  }
}

/**
 * Starts (or restarts) the spawner of layer `layer` (0-7) for runner step `step` (its fields in
 * runner/step-params.ts: kind - R_RAIN is SP_RAIN, SP_SPARKLE or SP_MATRIX; amount the modifier peak
 * (animates other than color), waves the drops a second, speed the fall time (0: 1000), width the
 * tail in rings (SPARKLE: the fade length), geometric (MATRIX's default is geometric), angle the
 * direction drops travel in the layout plane, counterclockwise from +x, reverse). Drops go to the
 * panels of target set `layer` (topology/targeting), in group `groupId`, layer byte `layer`. `rec` is
 * the step's compact record (playback/compile.ts REC: byte 1 animates | blend << 4, bytes 2-5
 * colorFrom, 6-9 colorTo). Times are scene times (the scene speed
 * divides them, as for every step), except for FLAT_SPAWNER's. `now` is the wall clock; the slot
 * budget leaves room for the loaded scene's layers that may hold a slot (compile.ts holding).
 */
export function spawnerStart(layer: i32, groupId: u8, step: i32, rec: usize, now: u32): void {
  const r = runnerAt(step);
  const kind = <i32>r.kind - R_RAIN; // (the player calls it for these three kinds, layers 0-8)
  const sp = spawnerAt(layer);
  sp.kind = kind;
  sp.group = groupId;
  const anim = load<u8>(rec, 1);
  sp.anim = anim;
  sp.refs = load<u64>(rec + 2);
  const a = <i32>(anim & 15);
  sp.fromV = identityOf(a); // 0 for colour
  sp.toV = a == 0 ? 255 : r.amount;
  sp.waves = <f64>max<i32>(1, r.waves); // (a u8)
  sp.fall = r.speed > 0 ? <f64>r.speed : 1000;
  sp.width = r.width;
  const sparkle = kind == SP_SPARKLE;
  sp.reverse = r.reverse && !sparkle;
  // geometric needs an embeddable layout; without one it falls back to topology (spec)
  if (!sparkle && r.geometric) updateLayout();
  const geo = !sparkle && r.geometric && layoutValid();
  const how = sparkle ? WALK_STAY : !geo ? WALK_ROOTWARD : kind == SP_MATRIX ? LINE : WALK_DOWNHILL;
  sp.how = how;
  const k2 = ((<i32>r.angle) >> 1) + (sp.reverse ? 90 : 0); // 2-degree steps, + 180° reversed
  const dx = cos2(k2);
  const dy = sin2(k2);
  sp.dirX = dx;
  sp.dirY = dy;
  // how many panels drops may start from, and the height (topology) or the targets' extent (a line)
  let n = 0;
  let deepest = 0;
  let lo = Infinity;
  let hi = -Infinity;
  let vl = Infinity;
  let vh = -Infinity;
  for (let p = 1; p <= count; p++) {
    deepest = max(deepest, <i32>depth[p]);
    const ok = isStart(layer, sp, p);
    if (how == LINE && ok) {
      const u = along(p, dx, dy);
      const v = across(p, dx, dy);
      lo = min(lo, u);
      hi = max(hi, u);
      vl = min(vl, v);
      vh = max(vh, v);
    }
    n += <i32>ok;
  }
  sp.extent = how == LINE ? hi - lo + 1 : <f64>(deepest + 1);
  if (how == LINE) {
    sp.uMin = lo;
    sp.vMin = vl;
    sp.vMax = vh;
    sp.tailRgb = resolveRef(<u32>sp.refs);
    sp.headRgb = resolveRef(<u32>(sp.refs >> 32));
  }
  sp.candN = n;
  computeBudget(c.holding);
  rngSeed(layer);
  store<u64>(changetype<usize>(sp), 0, offsetof<Spawner>("elapsed")); // elapsed, launched = 0
  store<u64>(changetype<usize>(sp), 0, offsetof<Spawner>("launched"));
  sp.last = now;
  sp.pending = false;
  spawning |= 1 << layer;
  wakeUp(WAKE_PLAYBACK);
  slotsSweep(now);
}

/** The spawners that are on, a bit each: an idle tick looks at none of them. */
let spawning: u32 = 0;

/** No new drops from layer `layer`'s spawner; drops in flight finish on their own. */
export function spawnerStop(layer: i32): void {
  spawning &= ~(1 << layer); // (layers 0-8)
}

/** Every spawner stops and the slot accounting is reset (the panels were cleared). */
export function spawnerStopAll(): void {
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
    if (((spawning >> s) & 1) == 0) continue;
    const speed = s == FLAT_SPAWNER ? 1 : app.speed;
    sp.elapsed += <f64>(now - sp.last) * speed;
    sp.last = now;
    if (!app.isOn) continue;
    const due = dropsDue(sp, 0);
    sp.launched = max(sp.launched, dropsDue(sp, CATCH_UP_MS));
    for (; sp.launched < due; sp.launched++) launch(s, sp, speed, now);
    if (sp.pending) {
      sendAnimStart(sp.group, 1);
      sp.pending = false;
    }
  }
}

/** Drops 0..k are due once k / waves s have passed: the drops due `before` scene ms ago. */
function dropsDue(sp: Spawner, before: f64): f64 {
  return Math.floor(((sp.elapsed - before) * sp.waves) / 1000) + 1;
}

/**
 * One drop of spawner `s`: its path, then one pulse a panel of it that is targeted and has room (its
 * record, sent by the launch: the delay and duration in scene ms, divided by `speed`; the
 * envelope's fall proportion, the brightness level, 256 full).
 */
function launch(s: i32, sp: Spawner, speed: f64, now: u32): void {
  if (sp.candN == 0) return;
  const how = sp.how;
  const w = <f64>sp.width;
  let len: i32;
  if (how == LINE) len = linePath(sp.dirX, sp.dirY, sp.uMin, sp.vMin, sp.vMax, s);
  else {
    // the `r`-th start candidate, in index order
    let r = rngBelow(s, sp.candN);
    let start = 0;
    for (let p = 1; p <= count; p++) {
      if (!isStart(s, sp, p)) continue;
      if (r-- == 0) {
        start = p;
        break;
      }
    }
    len = walk(start, how, sp.reverse, sp.dirX, sp.dirY, s);
  }
  // RAIN: the whole path in the fall time; MATRIX: the tree's height in it (constant speed)
  const ring = sp.fall / (sp.kind == SP_MATRIX ? sp.extent : <f64>len);
  let duration = (w + 1) * ring;
  let fallP = <u8>Math.round((255 * w) / (w + 1));
  if (how == WALK_STAY) {
    const fade = w * FADE_UNIT_MS;
    duration = FLASH_MS + fade;
    fallP = <u8>Math.round((255 * fade) / duration);
  }
  const du = <u32>min<f64>(65535, max<f64>(1, Math.round(duration / speed)));
  for (let i = 0; i < len; i++) {
    const p = <i32>load<u8>(pathPanels + i);
    if (!setHas(s, p) || !slotFree(p, now)) continue;
    const dl = <u32>min<f64>(65535, Math.round((load<f64>(pathPositions + ((<usize>i) << 3)) * ring) / speed));
    const level = <u32>load<u16>(pathLevels + ((<usize>i) << 1));
    const b = recordAt(p);
    // group, layer, kind, animates | blend << 4
    store<u32>(b, (<u32>sp.group) | (s << 8) | ((<u32>K_RUNNER_REAP) << 16) | ((<u32>sp.anim) << 24));
    let refs = sp.refs;
    let to = sp.toV;
    if (level < FULL) {
      // a dimmed line: the resolved colours scaled (RGB references), or the amount towards identity
      if ((sp.anim & 15) == 0) refs = (<u64>scaledRef(sp.tailRgb, level)) | ((<u64>scaledRef(sp.headRgb, level)) << 32);
      else to = <u8>(<i32>sp.fromV + (((<i32>sp.toV - <i32>sp.fromV) * <i32>level) >> 8));
    }
    store<u64>(b + 4, refs);
    store<u32>(b + 12, du | (dl << 16));
    // rise 0 (the head is instantly on), fall, from, to
    store<u32>(b + 16, ((<u32>fallP) << 8) | ((<u32>sp.fromV) << 16) | ((<u32>to) << 24));
    include(p);
    slotTake(p, now + dl + du);
  }
  // one unicast a panel, or pulse tables over the path's index range and one broadcast prepare
  if (sendPulses(count) > 0) sp.pending = true;
}
