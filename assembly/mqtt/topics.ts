// MQTT topics under topicPrefix: states published (retained) at connect and on every change,
// commands turned into the same queued work as HTTP. Bad payloads are logged and ignored.
import { topicPrefix, discoveryPrefix } from "./config";
import { publishText, connected } from "./session";
import { publishDiscovery, publishSelect, clearDiscovery } from "./discovery";
import { host_mqtt_subscribe } from "../host/imports";
import { app, appVersion } from "../state/app";
import { appearance, AppearancePatch } from "../state/appearance";
import { enqueue, queueLength, QUEUE_SIZE, W_POWER, W_APPEARANCE, W_PLAY, W_STOP } from "../core/queue";
import { libraryId, sceneStatus, libraryVersion } from "../scene/store";
import { log, LOG_WARN } from "../util/log";
import * as w from "../json/writer";
import { keepSlot, keepString, arenaTop, arenaBack } from "../rt/arena";

const COMMANDS: StaticArray<string> = ["power", "brightness", "scene", "stop", "light"];
const C_LIGHT = 4;

// What was last published; -1 / "\0" force a publish.
let sentPower: i32 = -1;
let sentLight: i32 = -1;
// The last brightness above 0: Home Assistant's light turned on at brightness 0 comes back to it.
let litBrightness: u32 = 255;
let sentBrightness: i32 = -1;
let sentScene = "\0";
const sentKept = keepSlot(32); // a scene id outlives the export (rt/arena.ts)
let sentPlaying: i32 = -1;
let sentSpeed: i64 = -1;
let sentLibrary: u32 = 0;
// The app state version last published: an idle tick then costs three comparisons.
let sentVersion: u32 = 0;
let fresh = false;

const STATES: StaticArray<string> = ["power", "light", "brightness", "scene", "playing", "speed"];

/** The prefixes are about to change: empties every retained config, state and the status under the
 * current ones, so nothing stale stays on the broker. */
export function clearRetained(): void {
  clearDiscovery();
  for (let i = 0; i < STATES.length; i++) state(STATES[i], "");
  publishText(topicPrefix() + "/status", "", true);
}

/** Publishes one state; what it allocates is given back at once (the states at connect add up). */
function state(suffix: string, payload: string): void {
  const mark = arenaTop();
  publishText(topicPrefix() + "/state/" + suffix, payload, true);
  arenaBack(mark);
}

/** The session came up (or Home Assistant restarted): subscribe, birth, configs and every state. */
export function announce(subscribe: bool): void {
  if (subscribe) {
    const mark = arenaTop(); // each topic's strings are given back after its subscribe
    for (let i = 0; i < COMMANDS.length; i++) {
      subscribeTo(topicPrefix() + "/command/" + COMMANDS[i]);
      arenaBack(mark);
    }
    subscribeTo(discoveryPrefix() + "/status");
    arenaBack(mark);
  }
  publishDiscovery();
  sentLibrary = libraryVersion;
  sentPower = sentLight = sentBrightness = sentPlaying = -1;
  sentSpeed = -1;
  sentScene = "\0";
  fresh = false;
  publishStates();
}

function subscribeTo(topic: string): void {
  const t = String.UTF8.encode(topic);
  host_mqtt_subscribe(changetype<usize>(t), <u32>t.byteLength);
}

function currentScene(): string {
  return app.playing && app.lastPlayedSceneIsStored ? app.lastPlayedSceneId : "none";
}

/** Publishes the states that changed since the last call (every tick while connected). */
export function publishStates(): void {
  if (!connected()) return;
  if (
    fresh &&
    appVersion == sentVersion &&
    <i32>appearance.brightness == sentBrightness &&
    libraryVersion == sentLibrary
  )
    return;
  fresh = true;
  sentVersion = appVersion;
  const on = app.isOn ? 1 : 0;
  if (on != sentPower) state("power", (sentPower = on) ? "ON" : "OFF");
  if (<i32>appearance.brightness != sentBrightness) {
    sentBrightness = <i32>appearance.brightness;
    if (sentBrightness > 0) litBrightness = <u32>sentBrightness;
    state("brightness", sentBrightness.toString());
  }
  // The light is lit when powered at a brightness above 0 (Home Assistant ignores a brightness of 0).
  const lit = on == 1 && sentBrightness > 0 ? 1 : 0;
  if (lit != sentLight) state("light", (sentLight = lit) ? "ON" : "OFF");
  const scene = currentScene();
  if (scene != sentScene) state("scene", (sentScene = keepString(sentKept, scene)));
  const playing = app.playing ? 1 : 0;
  if (playing != sentPlaying) state("playing", (sentPlaying = playing) ? "true" : "false");
  const milli = <i64>Math.round(app.speed * 1000);
  if (milli != sentSpeed) {
    sentSpeed = milli;
    w.beginCapture();
    w.decimal(app.speed);
    const b = w.endCapture();
    state("speed", String.UTF8.decodeUnsafe(b.dataStart, b.length));
  }
  if (libraryVersion != sentLibrary) {
    sentLibrary = libraryVersion;
    publishSelect();
  }
}

/** A decimal 0-255 without sign, spaces or leading zeros beyond one digit, or -1. */
function byteValue(s: string): i32 {
  if (s.length == 0 || s.length > 3 || (s.length > 1 && s.charCodeAt(0) == 0x30)) return -1;
  let n = 0;
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c < 0x30 || c > 0x39) return -1;
    n = n * 10 + c - 0x30;
  }
  return n <= 255 ? n : -1;
}

/** Logs a command dropped. @message-args: its literal texts go to the UTF-8 message table
 * (scripts/messages-transform.mjs). */
function ignored(topic: string, payload: string, why: string): void {
  let cut = 32; // never between the two halves of a surrogate pair
  if (payload.length > cut && (payload.charCodeAt(cut - 1) & 0xfc00) == 0xd800) cut--;
  const shown = payload.length > 32 ? payload.substring(0, cut) + "..." : payload;
  log(LOG_WARN, "mqtt: ignored " + topic + ' "' + shown + '": ' + why);
}

/** A message on a subscribed topic. Work is queued like HTTP's; brightness and scene commands
 * are dropped at apply time when the power is off (b = 1: only while on). */
export function handleMessage(topic: string, payload: string): void {
  if (topic == discoveryPrefix() + "/status") {
    if (payload == "online") announce(false);
    return;
  }
  const base = topicPrefix() + "/command/";
  if (!topic.startsWith(base)) return;
  const cmd = COMMANDS.indexOf(topic.substring(base.length));
  if (cmd < 0) return;
  let kind: u8 = 0;
  let a = 0;
  let text: string | null = null;
  if (cmd == 0 || cmd == C_LIGHT) {
    if (payload != "ON" && payload != "OFF") return ignored(topic, payload, "not ON or OFF");
    kind = W_POWER;
    a = payload == "ON" ? 1 : 0;
    // the light turned on at brightness 0 comes back at its last brightness (after the power)
    if (cmd == C_LIGHT && a == 1 && appearance.brightness == 0) {
      if (queueLength() > QUEUE_SIZE - 2) return ignored(topic, payload, "work queue full");
      enqueue(W_POWER, 1, 1);
      brightness(litBrightness);
      return;
    }
  } else if (cmd == 1) {
    a = byteValue(payload);
    if (a < 0) return ignored(topic, payload, "not 0-255");
    kind = W_APPEARANCE;
  } else if (cmd == 2 && payload != "none") {
    if (!libraryId(payload) || sceneStatus(payload) != 0) return ignored(topic, payload, "no such scene");
    if (!app.isOn) return ignored(topic, payload, "power is off");
    kind = W_PLAY;
    text = payload;
  } else {
    if (cmd == 2 && !app.isOn) return ignored(topic, payload, "power is off");
    kind = W_STOP;
  }
  if (kind == W_APPEARANCE) {
    if (!brightness(<u32>a)) ignored(topic, payload, "work queue full");
    return;
  }
  const item = enqueue(kind, a, 1);
  if (!item) return ignored(topic, payload, "work queue full");
  item.setText(text);
}

/** Queues a brightness change (applied only while on); false when the queue is full. */
function brightness(value: u32): bool {
  const item = enqueue(W_APPEARANCE, <i32>value, 1);
  if (!item) return false;
  const patch = new AppearancePatch();
  patch.hasBrightness = true;
  patch.brightness = value;
  item.setAppearance(patch);
  return true;
}
