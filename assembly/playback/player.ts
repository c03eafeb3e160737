// Scene playback: a stored scene's compiled form (compile.ts, made at save) is loaded into fixed
// tables at play, then this state machine runs it on the scene clock (wall time x speed), sending
// the bus traffic of each step as it starts. See docs/playback.md.
import { body, send } from "../bus/send";
import { ADDR_BROADCAST, T_ANIM_PREPARE, T_ANIM_PARAMS } from "../bus/protocol";
import { sendAnimStart, sendColor, sendBackground, sendBaseColors, sendPalette } from "../bus/commands";
import { resetErrors } from "../json/validate";
import { openStored } from "../json/stream";
import { readScene, ALLOW_ID, SCENE_OK } from "../scene/validate";
import * as canonical from "../scene/canonical";
import { sceneKey, keyLength, openScene, jsonOffset, ONE_SHOT_ID } from "../scene/store";
import {
  afterLayer,
  afterStep,
  asyncMode,
  disabled,
  stepCount,
  MAX_LAYERS,
  MAX_STEPS,
  ASYNC_NO,
  ASYNC_FREE,
} from "../scene/state";
import { app, changed } from "../state/app";
import { appearance, activePalette } from "../state/appearance";
import { config } from "../state/config";
import { storeRead, storeWrite } from "../store/kv";
import { rootAt, count } from "../topology/rooted";
import { setCount, setHas } from "../topology/targeting";
import { log, LOG_WARN } from "../util/log";
import * as c from "./compile";
import { readWritten, readMemory, writeInto, outLength } from "./bytes";
import { sameName } from "../palette/palette";
import { runnerStart, stopUntargeted } from "../runner/compile";
import { runnerAt, R_RAIN, FLAT_STEP } from "../runner/fields";
import { spawnerStart, spawnerStop, spawnerStopAll, spawnerTick, spawnersIdle, FLAT_SPAWNER } from "../runner/spawn";
import { keepSlot, keepString } from "../rt/arena";
import { Fixed } from "../rt/fixed";
import { SCRATCH, FORM, FORM_CAP } from "../rt/scratch";

const S_WAIT: u8 = 0;
const S_RUN: u8 = 1;
const S_DONE: u8 = 2;
export const LAST_PLAYED_KEY = "playback";
const lastPlayedKept = keepSlot(32); // the last played id outlives the export (rt/arena.ts)

let active = false; // the state machine runs
let ended = false; // the barrier fired on a non-looping scene
let sceneMs: f64 = 0;
let lastNow: u32 = 0;
let lookChanged = false;
let nLayers = 0;
const lstate = changetype<Fixed<u8>>(memory.data(8));
const lstep = changetype<Fixed<i32>>(memory.data(4 * 8, 4));
const lstart = changetype<Fixed<f64>>(memory.data(8 * 8, 8));
const lreached = changetype<Fixed<i32>>(memory.data(4 * 8, 4)); // highest step completed in this cycle, -1 none
const lfinished = changetype<Fixed<bool>>(memory.data(8));
const lslots = changetype<Fixed<bool>>(memory.data(8)); // the layer has animations on the panels
const lslotStep = changetype<Fixed<i32>>(memory.data(4 * 8, 4));
const lspeed = changetype<Fixed<f64>>(memory.data(8 * 8, 8)); // the speed its current animations were prepared at
const lfree = changetype<Fixed<bool>>(memory.data(8));
const lrepeat = changetype<Fixed<bool>>(memory.data(8)); // async true/loop/free: restarts its own sequence
const lbarrier = changetype<Fixed<bool>>(memory.data(8));
const ldisabled = changetype<Fixed<bool>>(memory.data(8));
const lafter = changetype<Fixed<i32>>(memory.data(4 * 8, 4));
const lafterStep = changetype<Fixed<i32>>(memory.data(4 * 8, 4));
const lspawner = changetype<Fixed<bool>>(memory.data(8)); // a spawner step of the layer is launching drops

/** Plays a stored scene (the one-shot scene when `id` is ONE_SHOT_ID) from its compiled form, or,
 * when it has none that matches its file, from its JSON (parsed, validated and compiled as at save).
 * False when it cannot be read or no longer validates (nothing changes then). */
export function playScene(id: string, now: u32): bool {
  rootAt(config.logicalRoot);
  const compiled = c.loadCompiled(id);
  if (compiled <= 0 && !playJson(id)) {
    // a compiled form that turned out corrupt has overwritten tables of what plays: stop that
    if (compiled < 0) stopPlayback();
    return false;
  }
  copyLayerState();
  // scene start: stop everything, black, then the background and the scene's look
  clearAll();
  sendColor(ADDR_BROADCAST, 0);
  sendBackground(c.background);
  // the previous scene's look goes, whether or not this one has its own
  const restore = lookChanged;
  lookChanged = c.hasColors || c.paletteName !== null;
  if (c.hasColors || restore) sendBaseColors(c.baseColors);
  sendPalettes(restore);
  app.speed = c.sceneSpeed;
  app.playing = true;
  app.lastPlayedSceneId = keepString(lastPlayedKept, id);
  app.lastPlayedSceneIsStored = id != ONE_SHOT_ID;
  changed();
  persistLastPlayed();
  active = true;
  ended = false;
  sceneMs = 0;
  lastNow = now;
  startCycle(true);
  return true;
}

/** The scene's JSON into the tables, as before compiled forms (a file of an older firmware, or
 * written by hand): read by the scene pass as it streams from the store, as at save, its compiled
 * form into a buffer (or, for one longer than that, compiled again for each window it is read in);
 * false when it cannot be read or does not validate. */
let jsonId = "";

function playJson(id: string): bool {
  jsonId = id;
  const form = SCRATCH + FORM; // rt/scratch.ts F: read back by loadScene, before any runner starts
  writeInto(form, FORM_CAP, 0);
  let ok = compileJson();
  const n = outLength;
  writeInto(0, 0, 0);
  if (ok) {
    if (n <= FORM_CAP) readMemory(form + c.PREFIX, n - c.PREFIX);
    else readWritten(recompile, c.PREFIX);
    ok = c.loadScene();
  }
  if (!ok) log(LOG_WARN, "playback: scene " + id + " cannot be played");
  return ok;
}

/** Runs the scene pass over the stored scene `jsonId` (its compiled form to the writer). */
function compileJson(): bool {
  const key = sceneKey(jsonId);
  if (openScene(key) < 0) return false;
  resetErrors();
  openStored(key, keyLength, jsonOffset);
  canonical.begin(0, 0);
  return readScene(ALLOW_ID) == SCENE_OK;
}

function recompile(): void {
  compileJson();
}

const slotUsed = changetype<Fixed<bool>>(memory.data(MAX_LAYERS + 1));

/** Palette slot 0 gets the scene's palette when the scene changes the look (or the appearance's
 * again after a scene that did); each layer override palette used by an enabled layer with panels
 * is broadcast once into its own slot (compile.ts layerSlot), so its records read it and no other
 * layer's palette changes. */
function sendPalettes(restore: bool): void {
  if (lookChanged || restore) sendPalette(c.resolvePalette(c.paletteName));
  for (let k = 1; k <= c.slotCount; k++) slotUsed[k] = false;
  for (let l = 0; l < nLayers; l++) if (!ldisabled[l] && !c.layerEmpty[l]) slotUsed[c.layerSlot[l]] = true;
  for (let k = 1; k <= c.slotCount; k++) if (slotUsed[k]) sendPalette(c.resolvePalette(c.slotName[k]), <u8>k);
}

function copyLayerState(): void {
  nLayers = c.layerCount;
  for (let l = 0; l < nLayers; l++) {
    const hasAfter = afterLayer[l] >= 0;
    ldisabled[l] = disabled[l];
    lafter[l] = hasAfter ? afterLayer[l] : -1;
    lafterStep[l] = afterStep[l];
    lfree[l] = !hasAfter && asyncMode[l] == ASYNC_FREE;
    lrepeat[l] = !hasAfter && asyncMode[l] != ASYNC_NO;
    lbarrier[l] = !disabled[l] && (hasAfter || asyncMode[l] == ASYNC_NO);
    lslots[l] = false;
    lstate[l] = S_DONE;
  }
}

/** Starts every layer (free layers only on the first cycle). */
function startCycle(first: bool): void {
  for (let l = 0; l < nLayers; l++) {
    if (!first && lfree[l]) continue;
    if (lslots[l]) clearGroup(l);
    lreached[l] = -1;
    lfinished[l] = false;
    lstate[l] = ldisabled[l] ? S_DONE : S_WAIT;
  }
  for (let l = 0; l < nLayers; l++) if (lstate[l] == S_WAIT && lafter[l] < 0) startLayer(l, sceneMs);
}

function clearGroup(l: i32): void {
  sendAnimStart(c.layerGroup[l], 0);
  lslots[l] = false;
}

function clearAll(): void {
  sendAnimStart(0, 0);
  spawnerStopAll();
  flatSpawnGroup = 0;
  for (let l = 0; l < 8; l++) {
    lslots[l] = false;
    lspawner[l] = false;
  }
}

function startLayer(l: i32, t: f64): void {
  stopSpawner(l);
  lstate[l] = S_RUN;
  lstep[l] = 0;
  lstart[l] = t;
  startStep(l, lastNow);
}

/** The step's traffic: panel-local and runner steps replace the layer's animations (a runner
 * with one pulse per panel, runner/compile.ts; a spawner by starting its drops, runner/spawn.ts);
 * gaps send nothing, so the panels keep what they show. */
function startStep(l: i32, now: u32): void {
  const s = l * MAX_STEPS + lstep[l];
  const kind = c.stepKind[s];
  if (kind == c.K_GAP || c.layerEmpty[l]) return;
  const g = c.layerGroup[l];
  if (lslots[l]) clearGroup(l);
  const speed = app.speed;
  const d = <f64>c.stepDuration[s];
  const rec = c.records + <usize>(s * c.REC);
  if (kind == c.K_RUNNER) {
    if (runnerAt(s).kind >= R_RAIN) {
      // a spawner's drops are not the layer's slots: they finish on their own (see spawn.ts)
      spawnerStart(l, g, s, rec, now);
      lspawner[l] = true;
      return;
    }
    if (!runnerStart(s, l, g, <u8>l, rec, d / speed, speed)) return;
  } else {
    const scaled: u32 = d == 0 ? 0 : max<u32>(1, <u32>Math.round(d / speed));
    sendRecord(rec, min<u32>(scaled, 65535), l, g, <u8>l);
  }
  lslots[l] = true;
  lslotStep[l] = s;
  lspeed[l] = speed;
}

/** The spawner of layer l (if one runs) launches no new drops. */
function stopSpawner(l: i32): void {
  if (!lspawner[l]) return;
  spawnerStop(l);
  lspawner[l] = false;
}

/** Prepares the record on the panels of target set `set` and starts group `g`: broadcast when it
 * targets every panel, or when a broadcast plus a clear to each other panel is cheaper than one
 * unicast per target. */
function sendRecord(rec: usize, duration: u32, set: i32, g: u8, layer: u8): void {
  const t = setCount(set);
  if (t == count) prepare(rec, ADDR_BROADCAST, duration, g, layer);
  else if (25 + 7 * (count - t) < 25 * t) {
    prepare(rec, ADDR_BROADCAST, duration, g, layer);
    stopUntargeted(set, g);
  } else for (let q = 1; q <= count; q++) if (setHas(set, q)) prepare(rec, <u8>q, duration, g, layer);
  sendAnimStart(g, 1);
}

/** The 20-byte record of docs/bus-protocol.md from the compact one (start delay 0). */
function prepare(rec: usize, address: u8, duration: u32, g: u8, layer: u8): void {
  const p = body();
  store<u8>(p, g);
  store<u8>(p + 1, layer);
  memory.copy(p + 2, rec, 10);
  store<u32>(p + 12, duration);
  memory.copy(p + 16, rec + 10, 4);
  send(address, T_ANIM_PREPARE);
}

// The flat spawner (POST /api/animations/play with RAIN, SPARKLE or MATRIX): its group, and when its
// play window ends (wall clock; 0: until stopped).
let flatSpawnGroup: u8 = 0;
let flatSpawnEnd: u32 = 0;

/** POST /api/animations/play, compiled by the handler (compile.compileFlat): the group's
 * animations are replaced by this one, over whatever plays (it is composited above scene layers).
 * A spawner launches its drops until its duration has passed (0: until a stop, a scene start or
 * power off) or the next flat animation (there is one flat target set); drops in flight finish. */
export function playFlat(now: u32): void {
  const g = c.flatGroup;
  if (c.flatKind == c.K_GAP) return;
  sendAnimStart(g, 0);
  if (flatSpawnGroup != 0) stopFlatSpawner(); // its target set (compile.FLAT_SET) is this one's now
  if (c.flatKind == c.K_RUNNER) {
    const s = FLAT_STEP;
    // not scaled by the scene speed
    if (runnerAt(s).kind >= R_RAIN) {
      spawnerStart(FLAT_SPAWNER, g, s, c.flatRecord, now, true);
      flatSpawnGroup = g;
      flatSpawnEnd = c.flatDuration > 0 ? max<u32>(1, now + c.flatDuration) : 0;
      return;
    }
    runnerStart(s, c.FLAT_SET, g, <u8>MAX_LAYERS, c.flatRecord, <f64>c.flatDuration, 1);
    return;
  }
  sendRecord(c.flatRecord, c.flatDuration, c.FLAT_SET, g, <u8>MAX_LAYERS);
}

function stopFlatSpawner(): void {
  spawnerStop(FLAT_SPAWNER);
  flatSpawnGroup = 0;
}

/** True when nothing plays: no scene, no flat spawner, no drop in flight (the loop's wake bit). */
export function playbackIdle(): bool {
  return !active && flatSpawnGroup == 0 && spawnersIdle();
}

/** Every tick, scene or not: the flat spawner's window, then the drops due. */
function tickSpawners(now: u32): void {
  if (flatSpawnGroup != 0 && flatSpawnEnd != 0 && <i32>(now - flatSpawnEnd) >= 0) stopFlatSpawner();
  spawnerTick(now);
}

function satisfied(l: i32): bool {
  const t = lafter[l];
  if (ldisabled[t] || lfinished[t]) return true;
  return lafterStep[l] >= 0 && lreached[t] >= lafterStep[l];
}

/** Advances the scene clock to `now` and plays what is due. */
export function playbackTick(now: u32): void {
  if (!active) return tickSpawners(now);
  sceneMs += <f64>(now - lastNow) * app.speed;
  lastNow = now;
  for (let pass = 0; pass < 4; pass++) {
    let progressed = false;
    for (let l = 0; l < nLayers; l++) {
      if (lstate[l] == S_WAIT && lafter[l] >= 0 && satisfied(l)) {
        startLayer(l, sceneMs);
        progressed = true;
      }
      while (lstate[l] == S_RUN) {
        const s = l * MAX_STEPS + lstep[l];
        const d = <f64>c.stepDuration[s];
        if (d == 0 || sceneMs < lstart[l] + d) break;
        const end = lstart[l] + d;
        lreached[l] = lstep[l];
        progressed = true;
        stopSpawner(l);
        if (lstep[l] + 1 < stepCount[l]) {
          lstep[l]++;
          lstart[l] = end;
          startStep(l, now);
        } else {
          lfinished[l] = true;
          if (lrepeat[l]) startLayer(l, end);
          else lstate[l] = S_DONE;
          break;
        }
      }
    }
    if (!progressed) break;
  }
  tickSpawners(now);
  if (ended) return;
  let barriers = 0;
  for (let l = 0; l < nLayers; l++) {
    if (!lbarrier[l]) continue;
    barriers++;
    if (lstate[l] != S_DONE) return;
  }
  if (barriers == 0) return;
  if (c.sceneLoop) return startCycle(false);
  ended = true;
  let open = false;
  for (let l = 0; l < nLayers; l++) if (lrepeat[l] && !ldisabled[l]) open = true;
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
  if (lookChanged) {
    sendBaseColors(appearance.baseColors);
    sendPalette(activePalette());
    lookChanged = false;
  }
  haltPlayback();
}

/** Power off (the power packets already stop and clear everything): the state machine stops. */
export function haltPlayback(): void {
  active = false;
  spawnerStopAll();
  flatSpawnGroup = 0;
  for (let l = 0; l < 8; l++) lspawner[l] = false;
  if (app.playing) {
    app.playing = false;
    changed();
  }
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
  for (let l = 0; l < nLayers; l++) {
    if (!lslots[l]) continue;
    const p = body();
    const rec = c.records + <usize>(lslotStep[l] * c.REC);
    store<u8>(p, c.layerGroup[l]);
    store<u16>(p + 1, <u16>min<f64>(65535, Math.round((speed / lspeed[l]) * 1000)));
    store<u8>(p + 3, load<u8>(rec + 10));
    store<u8>(p + 4, load<u8>(rec + 11));
    send(ADDR_BROADCAST, T_ANIM_PARAMS);
  }
}

/** The group id of a layer name of the playing scene, or -1. */
export function groupOfName(name: string): i32 {
  if (!active && !app.playing) return -1;
  return c.groupOfName(name);
}

function persistLastPlayed(): void {
  const bytes = new Array<u8>();
  bytes.push(app.lastPlayedSceneIsStored ? 0x31 : 0x30);
  const id = app.lastPlayedSceneId;
  for (let i = 0; i < id.length; i++) bytes.push(<u8>id.charCodeAt(i));
  storeWrite(LAST_PLAYED_KEY, bytes);
}

/** Boot: the last played scene (for POST /api/scenes/play after a reboot). */
export function loadLastPlayed(): void {
  const b = storeRead(LAST_PLAYED_KEY, 16);
  if (!b || b.length < 9) return;
  app.lastPlayedSceneIsStored = b[0] == 0x31;
  app.lastPlayedSceneId = keepString(lastPlayedKept, String.UTF8.decodeUnsafe(b.dataStart + 1, b.length - 1));
}

/** A look edit while a scene is on the panels (the appearance, or a stored palette it uses): the
 * scene keeps what it sets itself and takes the rest from the appearance, so its base colours and
 * every palette slot it uses are sent again, resolved now. False when no scene is on the panels:
 * the caller pushes the appearance as usual. */
export function refreshSceneLook(): bool {
  if (!app.playing && !lookChanged) return false;
  if (!c.hasColors) for (let i = 0; i < 3; i++) c.baseColors[i] = appearance.baseColors[i];
  sendBaseColors(c.baseColors);
  sendPalettes(true);
  return true;
}

/** Whether the scene on the panels resolves the palette `name`: its own (the appearance's when it
 * has none) or a layer's. */
export function sceneUsesPalette(name: string): bool {
  if (!app.playing && !lookChanged) return false;
  const own = c.paletteName;
  if (sameName(own !== null ? own : appearance.palette, name)) return true;
  for (let k = 1; k <= c.slotCount; k++) if (sameName(c.slotName[k]!, name)) return true;
  return false;
}
