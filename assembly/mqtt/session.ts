// The MQTT session as a state machine driven by the main loop and the host's events: resolve the
// broker (manual, mDNS browse, the two default hosts), connect, then on loss or failure wait a
// capped, doubling backoff and try again. The host only connects, publishes and reports; it never
// reconnects on its own. See docs/mqtt.md. Its names (sources, errors, states) are name lists
// (util/names.ts), kept as indexes and written as bytes.
import { host_mqtt_connect, host_mqtt_disconnect, host_mdns_browse } from "../host/imports";
import { mqtt, topicPrefix, putTopicPrefix, deviceName } from "./config";
import { packU16, packString, putName, NO_NAME } from "./pack";
import { intText } from "../util/int-text";
import { utf8Encode } from "../util/utf8";
import { names, Names, nameEntry, nameString } from "../util/names";
import { log, LOG_INFO, LOG_WARN } from "../util/log";
import * as w from "../json/writer";
import { fillFields, V_BOOL, V_INT, V_STR } from "../json/template";
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
const S_MANUAL: u8 = 0;
const S_MDNS: u8 = 1;
const S_LOCAL: u8 = 2;
/** discoverySource, by step + 1 (0: none yet). */
const SOURCES = names("none manual mdns homeassistant_local homeassistant");
/** The candidates of the default-host steps (S_LOCAL on). */
const DEFAULT_HOSTS = names("homeassistant.local homeassistant");
/** lastError: none, the host reasons of core_mqtt_event(EV_FAILED, reason) (1 on), lost. */
const ERRORS = names("none unreachable auth refused unavailable lost");
const E_REFUSED = 3;
const E_LOST = 5;
/** brokerDiscoveryState. */
const STATES = names("idle failed done searching");
/** `<topicPrefix>/status` payloads, the last will's included (STATUS_*). */
export const STATUS = names("online offline");
export const STATUS_ONLINE = 0;
export const STATUS_OFFLINE = 1;
export const EV_CONNECTED: u32 = 1;
export const EV_LOST: u32 = 2;
export const EV_FAILED: u32 = 3;

const BACKOFF_MIN: u32 = 1000;
const BACKOFF_MAX: u32 = 60000;
const BROWSE_MS: u32 = 3000;
const CONNECT_GUARD_MS: u32 = 20000; // if a host never answers a connect
const KEEPALIVE_S = 60;
const DEFAULT_PORT = 1883;

let phase = 0; // P_OFF (literals are globals' own initial values, not start-up code)
let step = 0;
let backoff: u32 = 1000; // BACKOFF_MIN
if (P_OFF != 0 || BACKOFF_MIN != 1000) ERROR("mqtt/session.ts: phase's or backoff's initial value");
let cached = false; // the resolved broker and port worked: retry them before resolving again
let failedAll = false;
let lastError = 0; // in ERRORS
let source = 0; // in SOURCES
/** The broker of the current or latest attempt: a DNS name outlives the export that resolved it. */
const resolvedBroker = keepSlot(256);
/** The current timer's deadline and the port of the latest attempt, in static memory (a wasm global
 * costs WAMR about 52 B of heap). */
@unmanaged
class Attempt {
  deadline: u32;
  port: i32;
}
const attempt = changetype<Attempt>(memory.data(offsetof<Attempt>(), 4));

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
    if (farewell) publishStatus(STATUS_OFFLINE);
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
  keepString(resolvedBroker, "");
  attempt.port = 0;
  source = 0;
  lastError = 0;
  phase = mqtt.enabled ? P_START : P_OFF;
  wakeUp(WAKE_MQTT);
}

/** The steps tried, by mode (MODE_*, 4 bytes each: 255 ends), then with a manual broker (row 4). */
// prettier-ignore
const SEQUENCES = memory.data<u8>([
  255, 0, 0, 0, // manual, without a broker: nothing to try
  S_MDNS, S_LOCAL, S_LOCAL + 1, 255, // auto
  S_MDNS, 255, 0, 0, // mDNS only
  S_LOCAL, S_LOCAL + 1, 255, 0, // the default hosts only
  S_MANUAL, 255, 0, 0, // a broker given
]);

/** Step `i` of the configured mode's sequence, or -1 past its end. */
function stepAt(i: i32): i32 {
  const row = mqtt.broker.length > 0 ? 4 : mqtt.brokerDiscovery;
  const s = i < 4 ? <i32>load<u8>(SEQUENCES + <usize>(row * 4 + i)) : 255;
  return s == 255 ? -1 : s;
}

function runStep(now: u32): void {
  const s = stepAt(step);
  if (s < 0) {
    // every candidate failed
    failedAll = true;
    cached = false;
    return wait(now);
  }
  if (s == S_MDNS) {
    phase = P_BROWSE;
    attempt.deadline = now + BROWSE_MS + 1000;
    host_mdns_browse(SERVICE + 1, load<u8>(SERVICE), BROWSE_MS); // the list's one name, in place
    return;
  }
  if (s == S_MANUAL) connectTo(mqtt.broker, mqtt.port, s, now);
  else connectTo(nameString(DEFAULT_HOSTS, s - S_LOCAL), DEFAULT_PORT, s, now);
}

const SERVICE = names("_mqtt._tcp");

/** Connects to `host`, found by step `s`: the record of host_mqtt_connect (docs/host-abi.md). */
function connectTo(host: string, port: i32, s: i32, now: u32): void {
  keepString(resolvedBroker, host);
  attempt.port = port;
  source = s + 1;
  phase = P_CONNECT;
  attempt.deadline = now + CONNECT_GUARD_MS;
  const prefix = topicPrefix(mqtt);
  w.beginCapture();
  packU16(port);
  packU16(KEEPALIVE_S);
  w.byte(1); // will retain
  packString(host, NO_NAME);
  packString(deviceName(), NO_NAME);
  packString(mqtt.username, NO_NAME);
  packString(mqtt.password, NO_NAME);
  // the will: `<topicPrefix>/status`, "offline"
  packU16(<u32>utf8Encode(changetype<usize>(prefix), prefix.length, 0) + 7);
  w.raw(prefix);
  putName(LEVELS, L_STATUS);
  packString("", nameEntry(STATUS, STATUS_OFFLINE));
  log(LOG_INFO, "mqtt: connecting to " + host + ":" + intText(port) + " (" + nameString(SOURCES, source) + ")");
  const r = w.endCapture();
  host_mqtt_connect(r.dataStart, r.length);
}

function wait(now: u32): void {
  phase = P_WAIT;
  attempt.deadline = now + backoff;
  log(LOG_INFO, "mqtt: next attempt in " + intText(backoff) + " ms");
  backoff = min(backoff * 2, BACKOFF_MAX);
}

/** Timers: starts, browse and connect deadlines, backoff. */
export function sessionTick(now: u32): void {
  if (phase == P_START) {
    step = 0;
    failedAll = false;
    if (cached) connectTo(resolvedBroker, attempt.port, source - 1, now);
    else runStep(now);
  } else if ((phase == P_WAIT || phase == P_BROWSE || phase == P_CONNECT) && <i32>(now - attempt.deadline) >= 0) {
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

/** A connect failed for host reason `reason` (0 unreachable, 1 auth, 2 refused, 3 unavailable). */
function failed(reason: u32, now: u32): void {
  lastError = reason < 4 ? <i32>reason + 1 : E_REFUSED;
  log(LOG_WARN, "mqtt: connecting to " + resolvedBroker + " failed (" + nameString(ERRORS, lastError) + ")");
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
    lastError = 0;
    log(LOG_INFO, "mqtt: connected to " + resolvedBroker);
    return true;
  }
  if (kind == EV_LOST && phase == P_UP) {
    lastError = E_LOST;
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

/** The levels of the topics under topicPrefix (and discoveryPrefix's status). */
export const LEVELS = names("/status /command/ /state/");
export const L_STATUS = 0;
export const L_COMMAND = 1;
export const L_STATE = 2;

/** Ends the payload in the writer (w.beginMqtt) and publishes it, retained, under
 * `<topicPrefix><level>`, then name `i` of `list` (none for `list` 0). */
export function publishUnder(level: i32, list: Names = 0, i: i32 = 0): void {
  w.beginTopic();
  putTopicPrefix(false);
  putName(LEVELS, level);
  if (list) putName(list, i);
  w.publishMqttTopic(true);
}

/** `<topicPrefix>/status`, retained: STATUS name `word`, or empty for -1. */
export function publishStatus(word: i32): void {
  w.beginMqtt();
  if (word >= 0) putName(STATUS, word);
  publishUnder(L_STATUS);
}

/** The runtime fields of GET /api/mqtt, marker by marker (json/template.ts fillFields). */
class Runtime {
  connected: bool = false;
  state: string = "";
  broker: string = "";
  port: i32 = 0;
  source: string = "";
  error: string = "";
}
// prettier-ignore
const FIELDS = memory.data<u8>([
  V_BOOL, <u8>offsetof<Runtime>("connected"),
  V_STR, <u8>offsetof<Runtime>("state"),
  V_STR, <u8>offsetof<Runtime>("broker"),
  V_INT, <u8>offsetof<Runtime>("port"),
  V_STR, <u8>offsetof<Runtime>("source"),
  V_STR, <u8>offsetof<Runtime>("error"),
]);

/** The runtime fields of GET /api/mqtt, and the closing brace. */
export function writeRuntime(): void {
  const r = changetype<Runtime>(__new(offsetof<Runtime>(), idof<Runtime>())); // every field set below
  r.connected = phase == P_UP;
  // idle with a broker given; without one every candidate was searched for: done once one connected
  let state = 0;
  if (phase != P_OFF && mqtt.broker.length == 0) state = failedAll ? 1 : phase == P_UP || cached ? 2 : 3;
  r.state = nameString(STATES, state);
  r.broker = resolvedBroker;
  r.port = attempt.port;
  r.source = nameString(SOURCES, source);
  r.error = nameString(ERRORS, lastError);
  fillFields(t.MQTT_RUNTIME, t.MQTT_RUNTIME_LENGTH, FIELDS, changetype<usize>(r));
}
