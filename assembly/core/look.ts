// What the controller pushes to the panels as a whole: power and the appearance.
import { sendPower, sendBrightness, sendBaseColors, sendPalette, sendAnimStart, sendColor } from "../bus/commands";
import { ADDR_BROADCAST } from "../bus/protocol";
import {
  appearance,
  activePalette,
  APPEARANCE_KEY,
  writeAppearance,
  AppearancePatch,
  applyAppearancePatch,
  setAppearancePalette,
  HAS_BRIGHTNESS,
  HAS_COLORS,
} from "../state/appearance";
import { app, changed } from "../state/app";
import { POWER_KEY } from "../state/config";
import { storeWrite, storeValue } from "../store/kv";
import * as w from "../json/writer";
import { haltPlayback, refreshSceneLook, releaseEnded } from "../playback/player";
import { keepSlot, keepString, cloneString } from "../rt/arena";
import { streamDrop } from "../stream/live";

/** Brightness, base colours and the active palette, to every panel. */
export function pushAppearance(): void {
  sendBrightness(appearance.brightness);
  sendBaseColors(appearance.baseColors);
  sendPalette(activePalette());
}

/** Stores the appearance; 0 or a negative STORE_* status. */
export function persistAppearance(): i32 {
  w.beginCapture();
  writeAppearance();
  return storeWrite(APPEARANCE_KEY, w.endCapture());
}

// The appearance as stored ahead of the tick: the live one with every queued HTTP change applied
// (aheadSet false: the same as the live one). An HTTP change is applied to it and stored before its
// 202; the live appearance takes the change at the tick (the deferred-execution rule), and once the
// queue is drained the two are the same again (appearanceCaughtUp).
let aheadSet = false;
let aheadBrightness: u32 = 0;
const aheadColors = memory.data(4 * 3, 4);
const liveColors = memory.data(4 * 3, 4); // the live ones, set aside meanwhile
let aheadPalette = "";
const aheadKept = keepSlot(64); // outlives the export (rt/arena.ts)

/** Stores the appearance with `patch` applied on top of what is stored ahead; the live appearance
 * does not change. 0, or a negative STORE_* status (then nothing changed). */
export function storeAppearanceAhead(patch: AppearancePatch): i32 {
  const colors = changetype<usize>(appearance.baseColors);
  const brightness = appearance.brightness;
  memory.copy(liveColors, colors, 12);
  const palette = cloneString(appearance.palette); // its slot changes below
  if (aheadSet) {
    appearance.brightness = aheadBrightness;
    memory.copy(colors, aheadColors, 12);
    appearance.palette = aheadPalette;
  }
  applyAppearancePatch(patch);
  const rc = persistAppearance();
  if (rc == 0) {
    aheadSet = true;
    aheadBrightness = appearance.brightness;
    memory.copy(aheadColors, colors, 12);
    aheadPalette = keepString(aheadKept, appearance.palette);
  }
  appearance.brightness = brightness;
  memory.copy(colors, liveColors, 12);
  setAppearancePalette(palette);
  return rc;
}

/** The work queue is drained: every stored change is live. */
export function appearanceCaughtUp(): void {
  aheadSet = false;
}

/** Applies a validated appearance change, persists it (unless it was stored already) and sends what
 * changed. */
export function changeAppearance(patch: AppearancePatch, persist: bool = true): void {
  applyAppearancePatch(patch);
  if (persist) persistAppearance();
  if (patch.has & HAS_BRIGHTNESS) sendBrightness(appearance.brightness);
  if (!(patch.has & HAS_COLORS) && changetype<usize>(patch.palette) == 0) return;
  // a new look with no scene playing shows: the ambient look replaces a held frame (a finished
  // scene's last animations are cleared first)
  if (!app.playing) {
    releaseEnded();
    showAmbient();
  }
  // A playing scene keeps its own colours and palettes (the appearance fills in the rest).
  if (refreshSceneLook()) return;
  if (patch.has & HAS_COLORS) sendBaseColors(appearance.baseColors);
  // Base colors is synthesized from the base colours, so it follows them.
  sendPalette(activePalette());
}

/** Sends the power state to every panel: on lights them and re-broadcasts the appearance; off
 * stops and clears every animation and darkens them. */
export function pushPower(on: bool): void {
  if (on) {
    sendPower(ADDR_BROADCAST, true);
    pushAppearance();
  } else {
    sendAnimStart(0, 0);
    sendPower(ADDR_BROADCAST, false);
  }
}

/** The ambient look (issue 18, docs/decisions.md): the panels' idle colour, shown while no animation
 * does, is the primary base colour (the panel applies the global brightness). At boot, at power on
 * and at a change of base colours or palette while no scene plays. */
export function showAmbient(): void {
  sendColor(ADDR_BROADCAST, unchecked(appearance.baseColors[0]));
}

/** The power table. A change of isOn is persisted (for powerStateOnBoot 2) and broadcast. */
export function setPower(on: bool): void {
  if (!on) streamDrop(); // power off ignores streams: its packets go out, the look returns at power on
  pushPower(on);
  if (!on) haltPlayback();
  else if (!app.isOn) showAmbient();
  if (app.isOn != on) {
    app.isOn = on;
    changed();
    storePower(on);
  }
}

/** Stores the power state ("1" or "0", for powerStateOnBoot 2); 0 or a negative STORE_* status. */
export function storePower(on: bool): i32 {
  const bytes = storeValue(null, 1);
  store<u8>(bytes.dataStart, on ? 0x31 : 0x30);
  return storeWrite(POWER_KEY, bytes);
}
