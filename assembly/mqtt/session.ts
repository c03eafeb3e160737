// The MQTT session as a state machine driven by the main loop and the host's events: resolve the
// broker (manual, mDNS browse, the two default hosts), connect, then on loss or failure wait a
// capped, doubling backoff and try again. The host only connects, publishes and reports; it never
// reconnects on its own. See docs/mqtt.md.
import { host_mqtt_connect, host_mqtt_disconnect, host_mdns_browse, host_mqtt_publish } from "../host/imports";
import { mqtt, topicPrefix, deviceName, MODE_AUTO, MODE_MDNS, MODE_HOSTS } from "./config";
import { Packer } from "./pack";
import { log, LOG_INFO, LOG_WARN } from "../util/log";
import * as w from "../json/writer";
import { fill } from "../json/template";
import * as t from "../generated/text";
import { wakeUp, WAKE_MQTT } from "../core/wake";
import { keepSlot, keepString } from "../rt/arena";

// Phases.
const P_OFF = 0; // disabled
const P_START = 1; // (re)start on the next tick
const P_BROWSE = 2; // waiting for mDNS results
const P_CONNECT = 3; // waiting for the host's connect outcome
const P_UP = 4; // connected
const P_WAIT = 5; // backing off

// Resolution steps, in the order mode 1 tries them.
const S_MANUAL = 0;
const S_MDNS = 1;
const S_LOCAL = 2;
const S_HOST = 3;
const SOURCES: StaticArray<string> = ["manual", "mdns", "homeassistant_local", "homeassistant"];
const DEFAULT_HOSTS: StaticArray<string> = ["", "", "homeassistant.local", "homeassistant"];

/** host reasons of core_mqtt_event(EV_FAILED, reason). */
const REASONS: StaticArray<string> = ["unreachable", "auth", "refused", "unavailable"];
export const EV_CONNECTED: u32 = 1;
export const EV_LOST: u32 = 2;
export const EV_FAILED: u32 = 3;

const BACKOFF_MIN: u32 = 1000;
const BACKOFF_MAX: u32 = 60000;
const BROWSE_MS: u32 = 3000;
const CONNECT_GUARD_MS: u32 = 20000; // if a host never answers a connect
const KEEPALIVE_S = 60;
const DEFAULT_PORT = 1883;

let phase = P_OFF;
let step = 0;
let deadline: u32 = 0;
let backoff: u32 = BACKOFF_MIN;
let cached = false; // resolvedBroker/resolvedPort worked: retry them before resolving again
let searched = false; // the current attempt came from discovery (not manual)
let failedAll = false;
let lastError = "none";
let source = "none";
let resolvedBroker = "";
const brokerKept = keepSlot(256); // a DNS name outlives the export that resolved it (rt/arena.ts)
let resolvedPort = 0;

export function connected(): bool {
  return phase == P_UP;
}

/** A timer runs (start, browse, connect, back-off): the session needs ticks. */
export function sessionTimed(): bool {
  return phase != P_OFF && phase != P_UP;
}

/** Ends the session under the current settings: `offline` on its status topic, then a clean
 * disconnect (without the `offline` when the status topic was just emptied). Called before new
 * settings are committed (the prefix may change). */
export function stopSession(farewell: bool = true): void {
  if (phase == P_UP) {
    if (farewell) publishText(topicPrefix() + "/status", "offline", true);
    host_mqtt_disconnect();
  } else if (phase == P_CONNECT) host_mqtt_disconnect();
  phase = P_OFF;
}

/** Settings changed (PATCH, setup, boot): drop the session and the cached endpoint; the next tick
 * resolves again. */
export function restartSession(): void {
  stopSession();
  cached = false;
  failedAll = false;
  backoff = BACKOFF_MIN;
  resolvedBroker = "";
  resolvedPort = 0;
  source = "none";
  lastError = "none";
  phase = mqtt.enabled ? P_START : P_OFF;
  wakeUp(WAKE_MQTT);
}

/** The step sequence of the configured mode, or -1 past its end. */
function stepAt(i: i32): i32 {
  if (mqtt.broker.length > 0) return i == 0 ? S_MANUAL : -1;
  const mode = mqtt.brokerDiscovery;
  if (mode == MODE_AUTO) return i < 3 ? S_MDNS + i : -1;
  if (mode == MODE_MDNS) return i == 0 ? S_MDNS : -1;
  if (mode == MODE_HOSTS) return i < 2 ? S_LOCAL + i : -1;
  return -1;
}

function runStep(now: u32): void {
  const s = stepAt(step);
  if (s < 0) return giveUp(now);
  searched = s != S_MANUAL;
  if (s == S_MDNS) {
    phase = P_BROWSE;
    deadline = now + BROWSE_MS + 1000;
    const service = String.UTF8.encode("_mqtt._tcp");
    host_mdns_browse(changetype<usize>(service), <u32>service.byteLength, BROWSE_MS);
    return;
  }
  connectTo(s == S_MANUAL ? mqtt.broker : DEFAULT_HOSTS[s], s == S_MANUAL ? mqtt.port : DEFAULT_PORT, s, now);
}

function connectTo(host: string, port: i32, s: i32, now: u32): void {
  resolvedBroker = keepString(brokerKept, host);
  resolvedPort = port;
  source = SOURCES[s];
  phase = P_CONNECT;
  deadline = now + CONNECT_GUARD_MS;
  const p = new Packer()
    .u16(port)
    .u16(KEEPALIVE_S)
    .u8(1) // will retain
    .str(host)
    .str(deviceName())
    .str(mqtt.username)
    .str(mqtt.password)
    .str(topicPrefix() + "/status")
    .str("offline");
  log(LOG_INFO, "mqtt: connecting to " + host + ":" + port.toString() + " (" + source + ")");
  host_mqtt_connect(p.bytes.dataStart, <u32>p.bytes.length);
}

function giveUp(now: u32): void {
  failedAll = true;
  cached = false;
  wait(now);
}

function wait(now: u32): void {
  phase = P_WAIT;
  deadline = now + backoff;
  log(LOG_INFO, "mqtt: next attempt in " + backoff.toString() + " ms");
  backoff = min(backoff * 2, BACKOFF_MAX);
}

/** Timers: starts, browse and connect deadlines, backoff. */
export function sessionTick(now: u32): void {
  if (phase == P_START) {
    step = 0;
    failedAll = false;
    if (cached) connectTo(resolvedBroker, resolvedPort, SOURCES.indexOf(source), now);
    else runStep(now);
  } else if ((phase == P_WAIT || phase == P_BROWSE || phase == P_CONNECT) && <i32>(now - deadline) >= 0) {
    if (phase == P_WAIT) phase = P_START;
    else if (phase == P_BROWSE) nextStep(now);
    else {
      host_mqtt_disconnect();
      failed(0, now);
    }
  }
}

function nextStep(now: u32): void {
  step++;
  runStep(now);
}

function failed(reason: u32, now: u32): void {
  lastError = reason < <u32>REASONS.length ? REASONS[reason] : "refused";
  log(LOG_WARN, "mqtt: connecting to " + resolvedBroker + " failed (" + lastError + ")");
  if (cached) {
    cached = false;
    return wait(now);
  }
  nextStep(now);
}

/** The host's outcome of a connect, or the loss of the session. Returns true on connect. */
export function sessionEvent(kind: u32, reason: u32, now: u32): bool {
  if (kind == EV_CONNECTED && phase == P_CONNECT) {
    phase = P_UP;
    cached = true;
    failedAll = false;
    backoff = BACKOFF_MIN;
    lastError = "none";
    log(LOG_INFO, "mqtt: connected to " + resolvedBroker);
    return true;
  }
  if (kind == EV_LOST && phase == P_UP) {
    lastError = "lost";
    log(LOG_WARN, "mqtt: connection to " + resolvedBroker + " lost");
    wait(now);
  } else if (kind == EV_FAILED && phase == P_CONNECT) failed(reason, now);
  return false;
}

/** An mDNS answer (`host` empty at the end of the browse). A record without a port uses `port`. */
export function sessionBrowse(host: string, port: u32, now: u32): void {
  if (phase != P_BROWSE) return;
  if (host.length == 0) return nextStep(now);
  connectTo(host, port > 0 ? <i32>port : mqtt.port, S_MDNS, now);
}

export function publishText(topic: string, payload: string, retain: bool): void {
  const t = String.UTF8.encode(topic);
  const p = String.UTF8.encode(payload);
  host_mqtt_publish(changetype<usize>(t), <u32>t.byteLength, changetype<usize>(p), <u32>p.byteLength, retain ? 1 : 0);
}

function putRuntime(marker: i32): void {
  if (marker == 1) w.boolean(phase == P_UP);
  else if (marker == 2) {
    let state = "idle";
    if (phase != P_OFF && mqtt.broker.length == 0) {
      if (failedAll) state = "failed";
      else if (phase == P_UP || (cached && searched)) state = "done";
      else state = "searching";
    }
    w.str(state);
  } else if (marker == 3) w.str(resolvedBroker);
  else if (marker == 4) w.int(resolvedPort);
  else if (marker == 5) w.str(source);
  else w.str(lastError);
}

/** The runtime fields of GET /api/mqtt, and the closing brace. */
export function writeRuntime(): void {
  fill(t.MQTT_RUNTIME, t.MQTT_RUNTIME_LENGTH, putRuntime);
}
