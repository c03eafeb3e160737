// MQTT topics under topicPrefix: states published (retained) at connect and on every change,
// commands turned into the same queued work as HTTP. Bad payloads are logged and ignored. Topics and
// payloads are written straight into the JSON writer's buffer (session.ts publishUnder) and
// commands read from the host's bytes: no string is made for either but to log a dropped command.
import { mqtt, topicPrefix, discoveryPrefix } from "./config";
import { putName } from "./pack";
import { connected, publishStatus, publishUnder, LEVELS, L_STATUS, L_COMMAND, L_STATE } from "./session";
import { STATUS, STATUS_ONLINE } from "./session";
import { publishDiscovery, publishSelect, clearDiscovery } from "./discovery";
import { host_mqtt_subscribe } from "../host/imports";
import { app } from "../state/app";
import { appearance, AppearancePatch, HAS_BRIGHTNESS } from "../state/appearance";
import { enqueue, queueLength, QUEUE_SIZE, W_POWER, W_APPEARANCE, W_PLAY, W_STOP } from "../core/queue";
import { libraryId, sceneStatus, libraryVersion } from "../scene/store";
import { names, nameIndex, sameBytes, sameText } from "../util/names";
import { log, LOG_WARN } from "../util/log";
import * as w from "../json/writer";
import { keepSlot, keepString, arenaTop, arenaBack } from "../rt/arena";
import { Fixed } from "../rt/fixed";
import { utf8Decode } from "../util/utf8";
import { OBJECT, TOTAL_OVERHEAD } from "~lib/rt/common";

/** The command topics' last levels. */
const COMMANDS = names("power brightness scene stop light");
const C_POWER = 0;
const C_BRIGHTNESS = 1;
const C_SCENE = 2;
const C_LIGHT = 4;
/** The state topics' last levels, in the order they are published (and emptied). */
const STATES = names("power brightness light scene playing speed");
const S_SCENE = 3;
const STATE_COUNT = 6;
/** How each state's value is written: a payload word (WORDS: OFF and ON by their value; false and
 * true 2 on), a number, the scene id, the speed. */
const K_ON: u8 = 0;
const K_TRUE: u8 = 2;
const K_NUMBER: u8 = 5;
const K_SCENE: u8 = 6;
const K_SPEED: u8 = 7;
const KINDS = memory.data<u8>([K_ON, K_NUMBER, K_ON, K_SCENE, K_TRUE, K_SPEED]);
/** Payload words: OFF and ON by their value, false and true after them. */
const WORDS = names("OFF ON false true none");
const W_NONE = 4;

/** The states' values: now, and as last published (-1 forces a publish). A value is the state's
 * number (on, brightness, lit, playing, the speed in thousandths), the scene's a count of its changes
 * since the session came up. */
const now = changetype<Fixed<i32>>(memory.data(4 * STATE_COUNT, 4));
const sent = changetype<Fixed<i32>>(memory.data(4 * STATE_COUNT, 4));
/** The scene id last published, "" for none (a scene id outlives the export: rt/arena.ts). */
const sentScene = keepSlot(32);
// The library version last published, and the last brightness above 0 (Home Assistant's light turned
// on at brightness 0 comes back to it). In static memory: a wasm global costs WAMR about 52 B of heap.
@unmanaged
class Last {
  library: u32;
  litBrightness: u32;
}
const last = changetype<Last>(memory.data<u32>([0, 255]));

/** The prefixes are about to change: empties every retained config, state and the status under the
 * current ones, so nothing stale stays on the broker. */
export function clearRetained(): void {
  clearDiscovery();
  for (let i = 0; i < STATE_COUNT; i++) {
    w.beginMqtt();
    publishUnder(L_STATE, STATES, i);
  }
  publishStatus(-1);
}

/** The session came up (or Home Assistant restarted): subscribe, birth, configs and every state. */
export function announce(subscribe: bool): void {
  if (subscribe) {
    const mark = arenaTop(); // each topic's bytes are given back after its subscribe
    for (let i = 0; i <= C_LIGHT + 1; i++) {
      // the commands, then Home Assistant's status
      const t = i <= C_LIGHT ? topic(topicPrefix(mqtt), L_COMMAND, i) : topic(discoveryPrefix(mqtt), L_STATUS, -1);
      host_mqtt_subscribe(t.dataStart, t.length);
      arenaBack(mark);
    }
  }
  publishDiscovery();
  last.library = libraryVersion;
  memory.fill(changetype<usize>(sent), 0xff, 4 * STATE_COUNT);
  publishStates();
}

/** `<prefix><level>`, then command `cmd`'s last level (none for -1), as the writer writes topics. */
function topic(prefix: string, level: i32, cmd: i32): Array<u8> {
  w.beginCapture();
  w.raw(prefix);
  putName(LEVELS, level);
  if (cmd >= 0) putName(COMMANDS, cmd);
  return w.endCapture();
}

/** Publishes the states that changed since the last call (on the ticks MQTT is woken, core/wake.ts:
 * an app change, a queued command, a library change; the six values are worked out and compared
 * each time, with no version check in front). */
export function publishStates(): void {
  if (!connected()) return;
  const brightness = <i32>appearance.brightness;
  if (brightness > 0) last.litBrightness = <u32>brightness;
  const on: i32 = app.isOn ? 1 : 0;
  const scene = app.playing && app.lastPlayedSceneIsStored ? app.lastPlayedSceneId : "";
  now[0] = on;
  now[1] = brightness;
  // The light is lit when powered at a brightness above 0 (Home Assistant ignores a brightness of 0).
  now[2] = on & (<i32>(brightness > 0));
  now[3] = sent[S_SCENE] + <i32>(sent[S_SCENE] < 0 || !sameText(scene, sentScene));
  now[4] = app.playing ? 1 : 0;
  now[5] = <i32>Math.round(app.speed * 1000); // 0.1-10
  for (let i = 0; i < STATE_COUNT; i++) {
    const v = now[i];
    if (v == sent[i]) continue;
    sent[i] = v;
    w.beginMqtt();
    const kind = load<u8>(KINDS + i);
    if (kind == K_NUMBER) w.int(v);
    else if (kind == K_SPEED) w.decimal(app.speed);
    else if (kind == K_SCENE) {
      keepString(sentScene, scene);
      if (scene.length > 0) w.raw(scene);
      else putName(WORDS, W_NONE);
    } else putName(WORDS, <i32>kind + v);
    publishUnder(L_STATE, STATES, i);
  }
  if (libraryVersion != last.library) {
    last.library = libraryVersion;
    publishSelect();
  }
}

/** A decimal 0-255 without sign, spaces or leading zeros beyond one digit, or -1. */
function byteValue(p: usize, n: u32): i32 {
  if (n == 0 || n > 3 || (n > 1 && load<u8>(p) == 0x30)) return -1;
  let v = 0;
  for (let i: u32 = 0; i < n; i++) {
    const d = <i32>load<u8>(p + i) - 0x30;
    if (<u32>d > 9) return -1;
    v = v * 10 + d;
  }
  return v <= 255 ? v : -1;
}

/** Logs a command dropped: the topic (`topicLen` bytes at `p`) and its payload (`payloadLen` more).
 * @message-args: its literal texts go to the UTF-8 message table (scripts/messages-transform.mjs). */
function ignored(p: usize, topicLen: u32, payloadLen: u32, why: string): void {
  let payload = utf8Decode(p + topicLen, payloadLen);
  if (payload.length > 32) {
    // cut to 32 units in place (the decoded copy is this call's own), never between the two halves of
    // a surrogate pair
    const at = changetype<usize>(payload);
    changetype<OBJECT>(at - TOTAL_OVERHEAD).rtSize = (load<u16>(at, 62) & 0xfc00) == 0xd800 ? 62 : 64;
    payload += "...";
  }
  log(LOG_WARN, "mqtt: ignored " + utf8Decode(p, topicLen) + ' "' + payload + '": ' + why);
}

/** A message on a subscribed topic: `topicLen` bytes of topic at `p`, then `payloadLen` of payload.
 * Work is queued like HTTP's; a command that is not is logged (ignored). */
export function handleMessage(p: usize, topicLen: u32, payloadLen: u32): void {
  const status = topic(discoveryPrefix(mqtt), L_STATUS, -1);
  if (<u32>status.length == topicLen && sameBytes(status.dataStart, p, topicLen)) {
    if (nameIndex(STATUS, p + topicLen, payloadLen) == STATUS_ONLINE) announce(false);
    return;
  }
  const base = topic(topicPrefix(mqtt), L_COMMAND, -1);
  const k = <u32>base.length;
  if (k > topicLen || !sameBytes(base.dataStart, p, k)) return;
  const cmd = nameIndex(COMMANDS, p + k, topicLen - k);
  if (cmd < 0) return;
  const why = command(cmd, p + topicLen, payloadLen);
  if (why.length > 0) ignored(p, topicLen, payloadLen, why);
}

/** Queues command `cmd` with its payload (`n` bytes at `payload`): "", or why it was not. Brightness
 * and scene commands are dropped at apply time when the power is off (b = 1: only while on).
 * @message-returns: its texts go to the UTF-8 message table (scripts/messages-transform.mjs). */
function command(cmd: i32, payload: usize, n: u32): string {
  const word = nameIndex(WORDS, payload, n);
  let kind: u8 = W_STOP;
  let a = 0;
  let text: string | null = null;
  if (cmd == C_POWER || cmd == C_LIGHT) {
    if (<u32>word > 1) return "not ON or OFF";
    kind = W_POWER;
    a = word;
    // the light turned on at brightness 0 comes back at its last brightness (after the power)
    if (cmd == C_LIGHT && a == 1 && appearance.brightness == 0) {
      if (queueLength() > QUEUE_SIZE - 2) return "work queue full";
      enqueue(W_POWER, 1, 1);
      brightness(last.litBrightness);
      return "";
    }
  } else if (cmd == C_BRIGHTNESS) {
    a = byteValue(payload, n);
    if (a < 0) return "not 0-255";
    if (!brightness(<u32>a)) return "work queue full";
    return "";
  } else if (cmd == C_SCENE && word != W_NONE) {
    const id = utf8Decode(payload, n);
    if (!libraryId(id) || sceneStatus(id) != 0) return "no such scene";
    if (!app.isOn) return "power is off";
    kind = W_PLAY;
    text = id;
  } else if (cmd == C_SCENE && !app.isOn) return "power is off";
  const item = enqueue(kind, a, 1);
  if (!item) return "work queue full";
  item.setText(text);
  return "";
}

/** Queues a brightness change (applied only while on); false when the queue is full. */
function brightness(value: u32): bool {
  const item = enqueue(W_APPEARANCE, <i32>value, 1);
  if (!item) return false;
  const patch = new AppearancePatch();
  patch.has = HAS_BRIGHTNESS;
  patch.brightness = value;
  item.setAppearance(patch);
  return true;
}
