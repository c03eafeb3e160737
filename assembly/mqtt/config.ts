// MQTT settings (GET/PATCH /api/mqtt, the setup form). Persisted under "mqtt" in the API's JSON
// shape plus the password, and read back through the same validation. An empty topicPrefix or
// discoveryPrefix means the default (`tessera/<hostname>`, `homeassistant`). The document is tables:
// its keys and checks (json/check-fields.ts) in, its fields (json/template.ts fillFields) out.
import { names, nameString } from "../util/names";
import { fail } from "../json/validate";
import { checkFields, skipOwn, present, F_BOOL, F_INT, F_TEXT, F_TOPIC } from "../json/check-fields";
import * as w from "../json/writer";
import { fillFields, V_BOOL, V_INT, V_STR } from "../json/template";
import * as t from "../generated/text";
import { putName } from "./pack";
import { keepSlot, keepString, cloneString } from "../rt/arena";

export const MQTT_KEY = "mqtt";
export const MODE_MANUAL: i32 = 0;
export const MODE_AUTO: i32 = 1;
export const MODE_MDNS: i32 = 2;
export const MODE_HOSTS: i32 = 3;
/** The default topic prefix's start (then the hostname) and the default discovery prefix. */
const DEFAULTS = names("tessera/ homeassistant");
const MAX_TEXT: u16 = 64;
const DEFAULT_PORT = 1883;

/** The settings. The strings come last (STRINGS on): copy and commit walk them by offset. No
 * constructor runs: keptSettings sets the defaults, copy every field. */
export class MqttConfig {
  enabled: bool = false;
  brokerDiscovery: i32 = MODE_AUTO;
  port: i32 = DEFAULT_PORT;
  broker: string = "";
  username: string = "";
  password: string = "";
  topicPrefix: string = "";
  discoveryPrefix: string = "";

  /** A copy whose strings are the export's own (`mqtt`'s are kept slots, overwritten by commitMqtt).
   * Every field is copied: no constructor runs. */
  copy(): MqttConfig {
    const to = changetype<usize>(__new(END, idof<MqttConfig>()));
    const from = changetype<usize>(this);
    memory.copy(to, from, STRINGS);
    for (let o = STRINGS; o < END; o += sizeof<usize>())
      store<usize>(to + o, changetype<usize>(cloneString(load<string>(from + o))));
    return changetype<MqttConfig>(to);
  }
}

const STRINGS = offsetof<MqttConfig>("broker");
const END = offsetof<MqttConfig>();

/** The settings in force. They outlive every export: their strings are slots allocated at start-up
 * (rt/arena.ts), which commitMqtt fills in place. */
export const mqtt = keptSettings();

function keptSettings(): MqttConfig {
  // start-up memory is zeros (enabled false): the other defaults, and the slots for the strings
  const c = changetype<MqttConfig>(__new(END, idof<MqttConfig>()));
  c.brokerDiscovery = MODE_AUTO;
  c.port = DEFAULT_PORT;
  for (let o = STRINGS; o < END; o += sizeof<usize>())
    store<usize>(changetype<usize>(c) + o, changetype<usize>(keepSlot(MAX_TEXT)));
  return c;
}

/** The hostname (host_mdns_hostname), kept from core_init, whose memory is given back. */
const hostname = keepSlot(64);

export function setHostname(name: string): void {
  keepString(hostname, name);
}

export function deviceName(): string {
  return hostname;
}

export function topicPrefix(c: MqttConfig = mqtt): string {
  return c.topicPrefix.length > 0 ? c.topicPrefix : nameString(DEFAULTS, 0) + hostname;
}

/** topicPrefix() written without making the string (a discovery config names it several times, and
 * each made string would stay until the connect's export returns): as a JSON string's body for
 * `json`, else as it is (a topic). */
export function putTopicPrefix(json: bool): void {
  let s = mqtt.topicPrefix;
  if (s.length == 0) {
    putName(DEFAULTS, 0);
    s = hostname;
  }
  if (json) w.strBody(s);
  else w.raw(s);
}

export function discoveryPrefix(c: MqttConfig = mqtt): string {
  return c.discoveryPrefix.length > 0 ? c.discoveryPrefix : nameString(DEFAULTS, 1);
}

export const KEYS = names("enabled brokerDiscovery broker port username password topicPrefix discoveryPrefix");
const PASSWORD = 5;

// The checks, in order (the first problem is the message): key (in KEYS), kind, range, field.
// prettier-ignore
const ROWS = memory.data<u16>([
  0, F_BOOL, 0, 0, <u16>offsetof<MqttConfig>("enabled"),
  1, F_INT, 0, 3, <u16>offsetof<MqttConfig>("brokerDiscovery"),
  3, F_INT, 1, 65535, <u16>offsetof<MqttConfig>("port"),
  2, F_TEXT, 0, MAX_TEXT, <u16>offsetof<MqttConfig>("broker"),
  4, F_TEXT, 0, MAX_TEXT, <u16>offsetof<MqttConfig>("username"),
  5, F_TEXT, 0, MAX_TEXT, <u16>offsetof<MqttConfig>("password"),
  6, F_TOPIC, 0, MAX_TEXT, <u16>offsetof<MqttConfig>("topicPrefix"),
  7, F_TOPIC, 0, MAX_TEXT, <u16>offsetof<MqttConfig>("discoveryPrefix"),
]);

/** Applies the members of the object whose start value() has just read (kind `kind`; among KEYS,
 * the first `accepted` ones) onto a copy of the settings; null after recording the first problem. An empty
 * password keeps the stored one; an empty username drops it. */
export function parseMqttPatch(kind: u32, accepted: i32 = 8): MqttConfig | null {
  const c = mqtt.copy();
  if (!checkFields(kind, KEYS, ROWS, 8, changetype<usize>(c), skipOwn, accepted)) return null;
  const given = (present & (1 << PASSWORD)) != 0 && c.password.length > 0;
  if (c.password.length == 0) c.password = mqtt.password;
  // MQTT sends a password only with a user name: without one a stored password is dropped
  if (c.username.length == 0 && c.password.length > 0) {
    if (given) {
      fail(nameString(KEYS, PASSWORD), "needs a username (MQTT sends a password only with a user name)");
      return null;
    }
    c.password = "";
  }
  return c;
}

/** The spec's broker_required rule. */
export function brokerMissing(c: MqttConfig): bool {
  return c.enabled && c.brokerDiscovery == MODE_MANUAL && c.broker.length == 0;
}

/** Makes `c` the settings (its strings copied into the kept ones). */
export function commitMqtt(c: MqttConfig): void {
  const to = changetype<usize>(mqtt);
  const from = changetype<usize>(c);
  memory.copy(to, from, STRINGS);
  for (let o = STRINGS; o < END; o += sizeof<usize>()) keepString(load<string>(to + o), load<string>(from + o));
}

// The document's values, marker by marker (json/template.ts fillFields): the stored form
// (mqtt-stored.txt) has them all, the API's (mqtt-settings.txt) all but the password (6).
// prettier-ignore
const FIELDS = memory.data<u8>([
  V_BOOL, <u8>offsetof<MqttConfig>("enabled"),
  V_INT, <u8>offsetof<MqttConfig>("brokerDiscovery"),
  V_STR, <u8>offsetof<MqttConfig>("broker"),
  V_INT, <u8>offsetof<MqttConfig>("port"),
  V_STR, <u8>offsetof<MqttConfig>("username"),
  V_STR, <u8>offsetof<MqttConfig>("password"),
  V_STR, <u8>offsetof<MqttConfig>("topicPrefix"),
  V_STR, <u8>offsetof<MqttConfig>("discoveryPrefix"),
]);

/** The settings as JSON, without the closing brace; the stored form (of `c`) has the password and
 * the prefixes as set (empty: default), the API's (of the settings in force) the prefixes in force. */
export function writeMqttSettings(stored: bool, c: MqttConfig = mqtt): void {
  if (stored) return fillFields(t.MQTT_STORED, t.MQTT_STORED_LENGTH, FIELDS, changetype<usize>(c));
  const shown = mqtt.copy();
  shown.topicPrefix = topicPrefix(mqtt);
  shown.discoveryPrefix = discoveryPrefix(mqtt);
  fillFields(t.MQTT_SETTINGS, t.MQTT_SETTINGS_LENGTH, FIELDS, changetype<usize>(shown));
}
