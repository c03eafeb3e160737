// Scene playback: a stored scene's compiled form (compile.ts, made at save) is loaded into fixed
// tables at play, then this state machine runs it on the scene clock (wall time x speed), sending
// the bus traffic of each step as it starts. See docs/playback.md.
import { body, send } from "../bus/send";
import { ADDR_BROADCAST, T_ANIM_PARAMS } from "../bus/protocol";
import { sendAnimStart, sendColor, sendBackground, sendBaseColors, sendPalette } from "../bus/commands";
import { resetErrors } from "../json/validate";
import { openStored } from "../json/stream";
import { readScene, ALLOW_ID, SCENE_OK } from "../scene/validate";
import * as canonical from "../scene/canonical";
import { sceneKey, keyLength, openScene, jsonOffset, ONE_SHOT_ID } from "../scene/store";
import { MAX_LAYERS, MAX_STEPS, ASYNC_NO, ASYNC_FREE } from "../scene/state";
import { app, changed } from "../state/app";
import { appearance, activePalette } from "../state/appearance";
import { config } from "../state/config";
import { storeRead, storeWrite, storeValue } from "../store/kv";
import { rootAt } from "../topology/rooted";
import { sameText } from "../util/names";
import { log, LOG_WARN } from "../util/log";
import * as c from "./compile";
import { readWritten, next } from "./form-io";
import { sameName } from "../palette/palette";
import { runnerStart, prepareOn, template } from "../runner/compile";
import { runnerAt, R_RAIN, FLAT_STEP } from "../runner/step-params";
import { spawnerStart, spawnerStop, spawnerStopAll, spawnerTick, spawnersIdle } from "../runner/spawn";
import { keepSlot, keepString } from "../rt/arena";
import { F_LOOP, F_PINGPONG } from "../panel/engine/constants";
import { utf8Decode, utf8Encode } from "../util/utf8";

const S_WAIT: u8 = 0;
const S_RUN: u8 = 1;
const S_DONE: u8 = 2;
export const LAST_PLAYED_KEY = "playback";
const lastPlayedKept = keepSlot(32); // the last played id outlives the export (rt/arena.ts)
/** The flat animation (POST /api/animations/play) is "layer 8": its target set (compile.FLAT_SET),
 * layer byte and spawner (spawn.ts FLAT_SPAWNER) are all 8. */
const FLAT = MAX_LAYERS;

let active = false; // the state machine runs
let ended = false; // the barrier fired on a non-looping scene
let sceneMs: f64 = 0;
let cycleAt: f64 = 0; // the scene time the current cycle began (0, then each whole-scene loop's barrier)
let lastNow: u32 = 0;
let lookChanged = false;
let flatEnd: u32 = 0; // when the flat spawner's play window ends (wall clock; 0: until stopped)

/** A layer of the playing scene: how it plays (from what it was loaded with: compile.ts layerAfter,
 * layerMode, layerOff) and where it is. In static memory: no allocation, no global a field. */
@unmanaged
class Layer {
  state: u8;
  finished: bool;
  slots: bool; // the layer has animations on the panels
  endless: bool; // and they never end there (loop, pingpong, a repeating runner): they keep running
  step: i32;
  reached: i32; // the highest step completed in this cycle, -1 none
  slotStep: i32;
  start: f64; // the scene time its current step began
  origin: f64; // the scene time its sequence first began in this cycle (not moved when it repeats)
  speed: f64; // the speed its current animations were prepared at
}
const LAYER_SIZE = offsetof<Layer>();
const LAYERS = memory.data(<i32>LAYER_SIZE * (MAX_LAYERS + 1), 8); // and the flat animation's

function layer(l: i32): Layer {
  return changetype<Layer>(LAYERS + <usize>l * LAYER_SIZE);
}

/** Plays a stored scene (the one-shot scene when `id` is ONE_SHOT_ID) from its compiled form, or,
 * when it has none that matches its file, from its JSON (parsed, validated and compiled as at save).
 * False when it cannot be read or no longer validates (nothing changes then). */
export function playScene(id: string, now: u32): bool {
  rootAt(config.logicalRoot);
  if (!loadAny(id)) return false;
  // scene start: stop everything, black, then the background and the scene's look
  clearAll();
  sendColor(ADDR_BROADCAST, 0);
  sendBackground(c.background());
  // the previous scene's look goes, whether or not this one has its own
  const restore = lookChanged;
  lookChanged = c.hasColors() || changetype<usize>(c.paletteName) != 0;
  if (c.hasColors() || restore) sendBaseColors(c.baseColors);
  sendPalettes(restore);
  app.speed = c.sceneSpeed();
  app.playing = true;
  app.lastPlayedSceneId = keepString(lastPlayedKept, id);
  app.lastPlayedSceneIsStored = !sameText(id, ONE_SHOT_ID);
  changed();
  persistLastPlayed();
  active = true;
  ended = false;
  sceneMs = 0;
  cycleAt = 0;
  lastNow = now;
  startCycle(true);
  return true;
}

let jsonId = "";
let jsonOk = false;

/** Scene `id` into the tables (compile.ts loadScene): from its compiled form, else from its JSON
 * (a file of an older firmware, or written by hand), read by the scene pass as it streams from the
 * store, as at save, its compiled form read as it is written (playback/form-io.ts readWritten: into
 * the form's buffer, compiled again for each window of a form longer than that). False when neither
 * loads; a load that failed partway has
 * overwritten tables of what plays, so that stops (docs/decisions.md, "A scene that fails to load"). */
function loadAny(id: string): bool {
  const compiled = c.openCompiled(id);
  if (compiled && c.loadScene()) return true;
  jsonId = id;
  // (its first window compiled by reading the prefix's last byte: whether it validates is known
  // before anything is loaded)
  readWritten(compileJson, c.PREFIX - 1);
  next();
  const json = jsonOk;
  if (json && c.loadScene()) return true;
  log(LOG_WARN, "playback: scene " + id + " cannot be played");
  if (compiled || json) stopPlayback();
  return false;
}

/** Runs the scene pass over the stored scene `jsonId` (its compiled form to the writer); jsonOk
 * when it validates. */
function compileJson(): void {
  const key = sceneKey(jsonId);
  jsonOk = false;
  if (openScene(key) < 0) return;
  resetErrors();
  openStored(key, keyLength, jsonOffset);
  canonical.begin(0, 0);
  jsonOk = readScene(ALLOW_ID) == SCENE_OK;
}

/** Palette slot 0 gets the scene's palette when the scene changes the look (or the appearance's
 * again after a scene that did); each layer override palette used by an enabled layer with panels
 * is broadcast once into its own slot (compile.ts layerSlot), so its records read it and no other
 * layer's palette changes. */
function sendPalettes(restore: bool): void {
  const used = (c.slotsUsed & ~1) | (<u32>(lookChanged || restore));
  for (let k = 0; k <= c.slotCount; k++)
    if ((used >> k) & 1) sendPalette(c.resolvePalette(unchecked(c.slotName[k])), <u8>k);
}

/** Starts every layer (free layers only on the first cycle) at scene time cycleAt. */
function startCycle(first: bool): void {
  for (let l = 0; l < c.layerCount; l++) {
    const L = layer(l);
    if (!first && c.layerAfter[l] < 0 && c.layerMode[l] == ASYNC_FREE) continue;
    if (L.slots) {
      sendAnimStart(unchecked(c.layerGroup[l]), 0);
      L.slots = false;
    }
    L.reached = -1;
    L.finished = false;
    L.state = c.layerOff[l] ? S_DONE : S_WAIT;
  }
  for (let l = 0; l < c.layerCount; l++) {
    const L = layer(l);
    if (L.state == S_WAIT && c.layerAfter[l] < 0) beginLayer(l, cycleAt);
  }
}

/** Every animation on the panels stops and clears: no spawner launches, no layer holds slots. */
function clearAll(): void {
  sendAnimStart(0, 0);
  spawnerStopAll();
  flatEnd = 0;
  for (let l = 0; l < MAX_LAYERS; l++) layer(l).slots = false;
}

/** Layer `l`'s sequence begins at scene time `t` (its cycle's start, or when its startAfter was met). */
function beginLayer(l: i32, t: f64): void {
  layer(l).origin = t;
  startLayer(l, t);
}

/** Layer `l` plays its sequence from step 0 at scene time `t` (the exact time, which may be up to a
 * tick before now: the clock a loop restarts on). */
function startLayer(l: i32, t: f64): void {
  const L = layer(l);
  spawnerStop(l);
  L.state = S_RUN;
  L.step = 0;
  L.start = t;
  startStep(l, lastNow);
}

const NOTHING = 0;
const HOLDS = 1; // animations on the panels, in the layer's slots
const SPAWNS = 2; // a spawner launches drops: they finish on their own (see spawn.ts)

/** The traffic of layer `l`'s current step (its target set, layer byte and spawner; FLAT for the
 * flat animation, whose times the scene speed does not divide): a panel-local record, a compiled
 * runner's pulses (runner/compile.ts) or a spawner's drops (runner/spawn.ts), in place of the
 * layer's animations; a gap sends nothing, so the panels keep what they show. */
function startStep(l: i32, now: u32): i32 {
  const L = layer(l);
  const s = l * MAX_STEPS + L.step;
  const kind = unchecked(c.stepKind[s]);
  if (kind == c.STEP_GAP || unchecked(c.layerEmpty[l])) return NOTHING;
  const g = unchecked(c.layerGroup[l]);
  if (L.slots) {
    sendAnimStart(g, 0);
    L.slots = false;
  }
  const speed = l == FLAT ? 1 : app.speed;
  const rec = c.records + <usize>(s * c.REC);
  const d = <f64>unchecked(c.stepDuration[s]);
  if (kind == c.STEP_RUNNER) {
    if (runnerAt(s).kind >= R_RAIN) {
      spawnerStart(l, g, s, rec, now);
      return SPAWNS;
    }
    if (!runnerStart(s, l, g, <u8>l, rec, d / speed, speed)) return NOTHING;
  } else {
    const scaled: u32 = d == 0 ? 0 : max<u32>(1, <u32>Math.round(d / speed));
    sendRecord(rec, min<u32>(scaled, 65535), l, g, <u8>l);
  }
  L.slots = true;
  L.endless = (load<u8>(template, 2) & (F_LOOP | F_PINGPONG)) != 0; // (the record just sent)
  L.slotStep = s;
  L.speed = speed;
  return HOLDS;
}

/** Prepares the record on the panels of target set `set` and starts group `g` (runner/compile.ts
 * prepareOn: unicasts, or a broadcast and clears when cheaper). The 20-byte record of
 * docs/bus-protocol.md from the compact one (start delay 0). */
function sendRecord(rec: usize, duration: u32, set: i32, g: u8, layer: u8): void {
  const p = template;
  store<u16>(p, (<u16>g) | ((<u16>layer) << 8));
  memory.copy(p + 2, rec, 10);
  store<u32>(p + 12, duration);
  memory.copy(p + 16, rec + 10, 4);
  prepareOn(p, set, g);
  sendAnimStart(g, 1);
}

/** POST /api/animations/play, compiled by the handler (compile.loadFlat) as step 0 of "layer 8": the
 * group's animations are replaced by this one, over whatever plays (it is composited above scene
 * layers), not scaled by the scene speed. A spawner launches its drops until its duration has passed
 * (0: until a stop, a scene start or power off) or the next flat animation (there is one flat target
 * set); drops in flight finish. */
export function playFlat(now: u32): void {
  if (unchecked(c.stepKind[FLAT_STEP]) == c.STEP_GAP) return; // (nothing changes)
  spawnerStop(FLAT); // its target set (compile.FLAT_SET) is this one's now
  flatEnd = 0;
  layer(FLAT).slots = true; // the group is cleared first, whatever it shows
  if (startStep(FLAT, now) != SPAWNS) return;
  const d = <u32>c.stepDuration[FLAT_STEP];
  flatEnd = d > 0 ? max<u32>(1, now + d) : 0;
}

/** True when nothing plays: no scene, no spawner on, no drop in flight (the loop's wake bit). */
export function playbackIdle(): bool {
  return !active && spawnersIdle();
}

/** Layer `l` restarts its own sequence (async true, loop or free); the others are the barrier of a
 * scene cycle, unless disabled. */
function repeats(l: i32): bool {
  return c.layerAfter[l] < 0 && c.layerMode[l] != ASYNC_NO;
}

/** The scene time layer `l`'s startAfter came (its layer disabled: the cycle's start; done or past
 * its step: when that step ended, on the awaited layer's own clock, never before the cycle), or -1
 * while it has not. */
function metAt(l: i32): f64 {
  const a = <i32>c.layerAfter[l];
  let s = <i32>c.layerAfterStep[l];
  const t = layer(a);
  if (c.layerOff[a]) return cycleAt;
  if (!(t.finished || (s >= 0 && t.reached >= s))) return -1;
  if (s < 0) s = <i32>c.layerSteps[a] - 1;
  let end = t.origin;
  for (let k = 0; k <= s; k++) end += <f64>unchecked(c.stepDuration[a * MAX_STEPS + k]);
  return max(end, cycleAt);
}

/** Advances the scene clock to `now` and plays what is due; then, scene or not, the flat spawner's
 * window and the drops due. */
export function playbackTick(now: u32): void {
  if (active) {
    sceneMs += <f64>(now - lastNow) * app.speed;
    lastNow = now;
    for (let pass = 0; pass < 4; pass++) {
      let progressed = false;
      for (let l = 0; l < c.layerCount; l++) {
        const L = layer(l);
        const met = L.state == S_WAIT && c.layerAfter[l] >= 0 ? metAt(l) : -1;
        if (met >= 0) {
          beginLayer(l, met);
          progressed = true;
        }
        while (L.state == S_RUN) {
          const d = <f64>unchecked(c.stepDuration[l * MAX_STEPS + L.step]);
          const end = L.start + d;
          if (d == 0 || sceneMs < end) break;
          L.reached = L.step;
          progressed = true;
          spawnerStop(l);
          if (L.step + 1 < <i32>c.layerSteps[l]) {
            L.step++;
            L.start = end;
            startStep(l, now);
          } else {
            L.finished = true;
            if (repeats(l)) startLayer(l, end);
            else L.state = S_DONE;
            break;
          }
        }
      }
      if (!progressed) break;
    }
  }
  if (flatEnd != 0 && <i32>(now - flatEnd) >= 0) {
    spawnerStop(FLAT);
    flatEnd = 0;
  }
  spawnerTick(now);
  if (!active || ended) return;
  let barriers = 0;
  let open = false;
  let last = cycleAt; // when the last barrier layer finished
  for (let l = 0; l < c.layerCount; l++) {
    const L = layer(l);
    const off = c.layerOff[l];
    if (off) continue;
    open = open || repeats(l) || (L.slots && L.endless); // something of the scene keeps running
    if (repeats(l)) continue;
    barriers++;
    if (L.state != S_DONE) return;
    last = max(last, L.start + <f64>unchecked(c.stepDuration[l * MAX_STEPS + L.step]));
  }
  if (barriers == 0) return;
  if (c.sceneLoop()) {
    cycleAt = last; // the next cycle begins when this one ended, not at the tick that noticed
    return startCycle(false);
  }
  ended = true;
  if (!open) {
    active = false;
    app.playing = false;
    changed();
  }
}

/** POST /api/scenes/stop: the scene and every overlay (POST /api/animations/play) stop where they
 * are, playing or finished: the panels hold the current frame (issue 18; docs/decisions.md). The
 * appearance returns. */
export function stopPlayback(): void {
  sendAnimStart(0, 2);
  restoreLook();
  haltPlayback();
}

/** Power off (the power packets already stop and clear everything): the state machine stops. */
export function haltPlayback(): void {
  active = false;
  spawnerStopAll();
  flatEnd = 0;
  for (let l = 0; l < MAX_LAYERS; l++) layer(l).slots = false;
  if (app.playing) {
    app.playing = false;
    changed();
  }
}

/** A look change (to every panel) or a direct colour (to panel `address`) with no scene playing
 * (core/look.ts, core/loop.ts): a scene that ended by itself still has its last animations on the
 * panels (a finished layer holds its last frame), which would hide the new idle colour, so they are
 * cleared there, as a stop would have; with the look, the appearance's look returns
 * (docs/decisions.md, "The look after a scene ends by itself"). */
export function releaseEnded(address: u8 = ADDR_BROADCAST): void {
  const all = address == ADDR_BROADCAST;
  for (let l = 0; l < c.layerCount; l++) {
    const L = layer(l);
    if (!L.slots) continue;
    sendAnimStart(unchecked(c.layerGroup[l]), 0, address);
    if (all) L.slots = false;
  }
  if (all) restoreLook();
}

/** The appearance's base colours and palette again, if the scene had changed them. */
function restoreLook(): void {
  if (!lookChanged) return;
  sendBaseColors(appearance.baseColors);
  sendPalette(activePalette());
  lookChanged = false;
}

/** A live stream let the panels go (stream/show.ts): the scene's look and each running layer's
 * current step again, where the scene clock is now (the clock ran on while the stream was shown).
 * False when no scene plays. */
export function resumeScene(now: u32): bool {
  if (!app.playing) return false;
  playbackTick(now);
  sendColor(ADDR_BROADCAST, 0);
  sendBackground(c.background());
  refreshSceneLook();
  for (let l = 0; l < c.layerCount; l++) if (layer(l).state == S_RUN) startStep(l, now);
  return true;
}

/** A logicalRoot change while playing restarts the scene with the new rooting. */
export function restartIfPlaying(now: u32): void {
  if (app.playing) playScene(app.lastPlayedSceneId, now);
}

/** Speed change mid-scene: running animations get the new rate through update params, without a
 * restart; the scene clock runs at the new speed from now on. */
export function setSpeed(speed: f64, now: u32): void {
  playbackTick(now);
  app.speed = speed;
  changed();
  if (!active) return;
  for (let l = 0; l < c.layerCount; l++) {
    const L = layer(l);
    if (!L.slots) continue;
    const p = body();
    const rec = c.records + <usize>(L.slotStep * c.REC);
    store<u8>(p, unchecked(c.layerGroup[l]));
    store<u16>(p + 1, <u16>min<f64>(65535, Math.round((speed / L.speed) * 1000)));
    store<u16>(p + 3, load<u16>(rec + 10)); // param0, param1
    send(ADDR_BROADCAST, T_ANIM_PARAMS);
  }
}

/** The group id of a layer name of the playing scene, or -1. */
export function groupOfName(name: string): i32 {
  if (!active && !app.playing) return -1;
  return c.groupOfName(name);
}

// The stored value: "1" (a stored scene) or "0" (the one-shot), then the id (ASCII, at most 32).
function persistLastPlayed(): void {
  const id = app.lastPlayedSceneId;
  const n = min(id.length, 32);
  const v = storeValue(null, n + 1);
  const p = v.dataStart;
  store<u8>(p, 0x30 | (<u8>app.lastPlayedSceneIsStored));
  utf8Encode(changetype<usize>(id), n, p + 1); // (ASCII: a byte a character)
  storeWrite(LAST_PLAYED_KEY, v);
}

/** Boot: the last played scene (for POST /api/scenes/play after a reboot). */
export function loadLastPlayed(): void {
  const b = storeRead(LAST_PLAYED_KEY, 16);
  if (!b || b.length < 9) return;
  app.lastPlayedSceneIsStored = load<u8>(b.dataStart) == 0x31;
  app.lastPlayedSceneId = keepString(lastPlayedKept, utf8Decode(b.dataStart + 1, b.length - 1));
}

/** A look edit while a scene is on the panels (the appearance, or a stored palette it uses): the
 * scene keeps what it sets itself and takes the rest from the appearance, so its base colours and
 * every palette slot it uses are sent again, resolved now. False when no scene is on the panels:
 * the caller pushes the appearance as usual. */
export function refreshSceneLook(): bool {
  if (!app.playing && !lookChanged) return false;
  if (!c.hasColors()) memory.copy(changetype<usize>(c.baseColors), changetype<usize>(appearance.baseColors), 12);
  sendBaseColors(c.baseColors);
  sendPalettes(true);
  return true;
}

/** Whether the scene on the panels resolves the palette `name`: its own (the appearance's when it
 * has none) or a layer's. */
export function sceneUsesPalette(name: string): bool {
  if (!app.playing && !lookChanged) return false;
  for (let k = 0; k <= c.slotCount; k++) {
    const slot = unchecked(c.slotName[k]); // (slot 0: the scene's palette, else the appearance's)
    if (sameName(changetype<usize>(slot) ? slot : appearance.palette, name)) return true;
  }
  return false;
}
