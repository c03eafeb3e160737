// The main loop: drains the work queue, then runs the timers of playback, discovery, live queries,
// the mirror stream and MQTT, then broadcasts APP_STATE if anything changed; only the subsystems
// whose wake bit is set (core/wake.ts), so an idle tick reads one global and returns.
import { dequeue, W_APPEARANCE, W_POWER, W_PANEL_POWER, W_PANEL_COLOR, W_LOGICAL_ROOT } from "./queue";
import { W_PALETTE, W_PLAY, W_STOP, W_SPEED, W_TRIGGER, W_ANIMATION } from "./queue";
import {
  playScene,
  stopPlayback,
  setSpeed,
  playbackTick,
  playbackIdle,
  restartIfPlaying,
  playFlat,
  refreshSceneLook,
  releaseEnded,
} from "../playback/player";
import { sendAnimControl } from "../bus/commands";
import { activePalette } from "../state/appearance";
import { changeAppearance, setPower, appearanceCaughtUp } from "./look";
import { sendPower, sendColor, sendPalette } from "../bus/commands";
import { discoveryTick } from "../bus/discovery";
import { queryTick } from "../bus/query";
import { mirrorTick } from "../ws/mirror";
import { broadcastAppStateIfChanged } from "../ws/commands";
import { config, CONFIG_KEY, writeConfiguration } from "../state/config";
import { storeWrite } from "../store/kv";
import { app } from "../state/app";
import * as w from "../json/writer";
import { mqttTick } from "../mqtt/service";
import { libraryVersion } from "../scene/store";
import { host_clock_ms } from "../host/imports";
import { wake, wakeUp, wakeDone, WAKE_QUEUE, WAKE_PLAYBACK, WAKE_DISCOVERY, WAKE_QUERY } from "./wake";
import { WAKE_MIRROR, WAKE_MQTT, WAKE_STATE, WAKE_FIRMWARE, WAKE_STREAM } from "./wake";
import { streamTick } from "../stream/show";
import { flashTick, flashIdle, flashBusy } from "../firmware/flash";
import { serialTick, serialIdle } from "../firmware/serial";
import { arenaTop, arenaBack } from "../rt/arena";

/** The library version MQTT last looked at (main.ts core_tick reads it too). */
export let seenLibrary: u32 = 0;

/** Stores the configuration; 0 or a negative STORE_* status. */
export function persistConfiguration(): i32 {
  w.beginCapture();
  writeConfiguration();
  return storeWrite(CONFIG_KEY, w.endCapture());
}

/** Runs what is due (core/wake.ts). */
export function runLoop(): void {
  // a scene saved or deleted changes the MQTT scene select (the store does not know the loop)
  if (libraryVersion != seenLibrary) {
    seenLibrary = libraryVersion;
    wakeUp(WAKE_MQTT);
  }
  if (wake == 0) return;
  const now = host_clock_ms();
  const worked = (wake & WAKE_QUEUE) != 0;
  // queued work may start playback or change what MQTT publishes (brightness): both look
  if (worked) wakeUp(WAKE_PLAYBACK | WAKE_MQTT);
  wakeDone(WAKE_QUEUE);
  // each item's garbage is given back before the next (rt/arena.ts arenaBack): 16 queued appearance
  // changes, each loading its palette, would not fit one page together; what an item keeps is in
  // static memory and kept slots
  const mark = arenaTop();
  let item = dequeue();
  while (item) {
    switch (item.kind) {
      case W_APPEARANCE:
        // b = 1: an MQTT brightness command, dropped while the power is off
        // b = 2: an HTTP change, applied to the state and stored before it was answered
        if (item.b != 1 || app.isOn) changeAppearance(item.appearance()!, item.b != 2);
        break;
      case W_POWER:
        setPower(item.a != 0);
        break;
      case W_PANEL_POWER:
        sendPower(<u8>item.a, item.b != 0);
        break;
      case W_PANEL_COLOR:
        if (!app.playing) releaseEnded(<u8>item.a); // a finished scene's last frame gives way
        sendColor(<u8>item.a, <u32>item.b);
        break;
      case W_LOGICAL_ROOT:
        // Takes effect for depth, subtree and runner sources from here on (scene restart: playback).
        config.logicalRoot = item.a;
        persistConfiguration();
        restartIfPlaying(now);
        break;
      case W_PLAY:
        // (a play over MQTT while a panel flash holds the bus is dropped, as HTTP refuses it)
        if (app.isOn && !flashBusy()) playScene(item.text()!, now);
        break;
      case W_STOP:
        stopPlayback();
        break;
      case W_SPEED:
        setSpeed(<f64>item.a / 1000, now);
        break;
      case W_ANIMATION:
        if (app.isOn && !flashBusy()) playFlat(now);
        break;
      case W_TRIGGER:
        if (app.isOn) sendAnimControl(item.a, item.b);
        break;
      case W_PALETTE:
        if (!refreshSceneLook()) sendPalette(activePalette());
        break;
    }
    arenaBack(mark);
    item = dequeue();
  }
  if (worked) appearanceCaughtUp();
  if (wake & WAKE_PLAYBACK) {
    playbackTick(now);
    if (playbackIdle()) wakeDone(WAKE_PLAYBACK);
  }
  // discovery, the query and the mirror clear their own bits when they are done
  if (wake & WAKE_DISCOVERY) discoveryTick(now);
  if (wake & WAKE_QUERY) queryTick(now);
  if (wake & WAKE_MIRROR) mirrorTick(now);
  if ((wake & WAKE_MQTT) != 0 && mqttTick(now)) wakeDone(WAKE_MQTT);
  if (wake & WAKE_FIRMWARE) {
    flashTick(now);
    serialTick(now);
    if (flashIdle() && serialIdle()) wakeDone(WAKE_FIRMWARE);
  }
  if ((wake & WAKE_STREAM) != 0 && streamTick(now)) wakeDone(WAKE_STREAM);
  if (wake & WAKE_STATE) {
    wakeDone(WAKE_STATE);
    broadcastAppStateIfChanged();
  }
}
