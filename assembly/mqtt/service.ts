// Network presence put together: identity from the host, the mDNS advertisement, and (large variant
// only) the MQTT settings, session and topics. main.ts forwards the host's events here.
import { host_mdns_hostname, host_mdns_advertise, host_http_port } from "../host/imports";
import { deviceName, setHostname, MQTT_KEY, writeMqttSettings, MqttConfig } from "./config";
import { sessionTick, sessionTimed, sessionEvent, sessionBrowse } from "./session";
import { announce, publishStates, handleMessage } from "./topics";
import { packU16, packString, NO_NAME } from "./pack";
import { intText } from "../util/int-text";
import { names, nameEntry } from "../util/names";
import { app } from "../state/app";
import { tree } from "../topology/tree";
import { storeWrite } from "../store/kv";
import { arenaTop, arenaBack } from "../rt/arena";
import * as w from "../json/writer";
import { wakeUp, WAKE_MQTT } from "../core/wake";
import { utf8Decode } from "../util/utf8";

let large = false;

export function mqttAvailable(): bool {
  return large;
}

/** Boot, before the stored settings are read (core/boot.ts, which reads MQTT's when mqttAvailable):
 * the hostname and the variant. */
export function networkInit(isLarge: bool): void {
  large = isLarge;
  const buf = memory.data(64);
  const n = host_mdns_hostname(buf, 64);
  setHostname(utf8Decode(buf, min<u32>(n, 64)));
}

/** The advertisement's fixed texts (ADS), by index. */
const ADS = names("_tessera._tcp version= variant=large variant=small panels=");

/** `<hostname>.local`, `_tessera._tcp` on the HTTP port, TXT version, variant and panel count. */
export function advertise(): void {
  w.beginCapture();
  packU16(host_http_port());
  packString(deviceName(), NO_NAME);
  packString("", nameEntry(ADS, 0));
  packString(app.controllerFirmware, nameEntry(ADS, 1));
  packString("", nameEntry(ADS, large ? 2 : 3));
  packString(intText(tree.count), nameEntry(ADS, 4));
  const r = w.endCapture();
  host_mdns_advertise(r.dataStart, r.length);
}

/** Stores settings `c`; 0 or a negative STORE_* status. */
export function persistMqtt(c: MqttConfig): i32 {
  w.beginCapture();
  writeMqttSettings(true, c);
  w.byte(0x7d);
  return storeWrite(MQTT_KEY, w.endCapture());
}

/** The session's timers and the states that changed. Returns true when it needs no more ticks until
 * something wakes it (an app change, an event: core/wake.ts): no timer runs, every state is out. */
export function mqttTick(now: u32): bool {
  if (!large) return true;
  sessionTick(now);
  publishStates();
  return !sessionTimed();
}

// The host's events may change the session's phase or the states to publish: the next tick looks.
export function mqttEvent(kind: u32, reason: u32, now: u32): void {
  wakeUp(WAKE_MQTT);
  const mark = arenaTop();
  if (large && sessionEvent(kind, reason, now)) {
    arenaBack(mark); // the connect's log line is out: the configs start from an empty arena
    announce(true);
  }
}

export function mqttMessage(ptr: usize, topicLen: u32, payloadLen: u32): void {
  if (!large) return;
  wakeUp(WAKE_MQTT);
  handleMessage(ptr, topicLen, payloadLen);
}

export function mdnsResult(ptr: usize, hostLen: u32, port: u32, now: u32): void {
  wakeUp(WAKE_MQTT);
  if (large && hostLen > 0) sessionBrowse(utf8Decode(ptr, hostLen), port, now);
}

export function mdnsDone(now: u32): void {
  wakeUp(WAKE_MQTT);
  if (large) sessionBrowse("", 0, now);
}
