// MQTT settings (GET/PATCH /api/mqtt, the setup form). Persisted under "mqtt" in the API's JSON
// shape plus the password, and read back through the same validation. An empty topicPrefix or
// discoveryPrefix means the default (`tessera/<hostname>`, `homeassistant`).
import { names } from "../util/names";
import { fail } from "../json/validate";
import { checkFields, skipOwn, present, F_BOOL, F_INT, F_TEXT, F_TOPIC } from "../json/fields";
import * as w from "../json/writer";
import { fill } from "../json/template";
import * as t from "../generated/text";
import { keepSlot, keepString, cloneString } from "../rt/arena";

export const MQTT_KEY = "mqtt";
export const MODE_MANUAL: i32 = 0;
export const MODE_AUTO: i32 = 1;
export const MODE_MDNS: i32 = 2;
export const MODE_HOSTS: i32 = 3;
export const DEFAULT_DISCOVERY_PREFIX = "homeassistant";
const MAX_TEXT: u16 = 64;

export class MqttConfig {
  enabled: bool = false;
  brokerDiscovery: i32 = MODE_AUTO;
  broker: string = "";
  port: i32 = 1883;
  username: string = "";
  password: string = "";
  topicPrefix: string = "";
  discoveryPrefix: string = "";

  copy(): MqttConfig {
    const c = new MqttConfig();
    c.enabled = this.enabled;
    c.brokerDiscovery = this.brokerDiscovery;
    c.broker = cloneString(this.broker); // `mqtt`'s strings are kept slots, overwritten by commitMqtt
    c.port = this.port;
    c.username = cloneString(this.username);
    c.password = cloneString(this.password);
    c.topicPrefix = cloneString(this.topicPrefix);
    c.discoveryPrefix = cloneString(this.discoveryPrefix);
    return c;
  }
}

export const mqtt = new MqttConfig();
// the settings outlive every export: their strings live in slots allocated at start-up (rt/arena.ts)
const kept = [keepSlot(MAX_TEXT), keepSlot(MAX_TEXT), keepSlot(MAX_TEXT), keepSlot(MAX_TEXT), keepSlot(MAX_TEXT)];
let hostname = "";

const hostnameKept = keepSlot(64); // core_init's memory is given back (rt/arena.ts)

export function setHostname(name: string): void {
  hostname = keepString(hostnameKept, name);
}

export function deviceName(): string {
  return hostname;
}

export function topicPrefix(c: MqttConfig = mqtt): string {
  return c.topicPrefix.length > 0 ? c.topicPrefix : "tessera/" + hostname;
}

/** topicPrefix() as a JSON string's body, without making the string (a discovery config names it
 * several times, and each made string would stay until the connect's export returns). */
export function putTopicPrefix(): void {
  if (mqtt.topicPrefix.length > 0) w.strBody(mqtt.topicPrefix);
  else {
    w.raw("tessera/");
    w.strBody(hostname);
  }
}

export function discoveryPrefix(c: MqttConfig = mqtt): string {
  return c.discoveryPrefix.length > 0 ? c.discoveryPrefix : DEFAULT_DISCOVERY_PREFIX;
}

export const KEYS = names("enabled brokerDiscovery broker port username password topicPrefix discoveryPrefix");

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
  const given = (present & (1 << 5)) != 0 && c.password.length > 0; // KEYS[5]: password
  if (c.password.length == 0) c.password = mqtt.password;
  // MQTT sends a password only with a user name: without one a stored password is dropped
  if (c.username.length == 0 && c.password.length > 0) {
    if (given) {
      fail("password", "needs a username (MQTT sends a password only with a user name)");
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

/** Makes `c` the settings (copied into the kept ones). */
export function commitMqtt(c: MqttConfig): void {
  mqtt.enabled = c.enabled;
  mqtt.brokerDiscovery = c.brokerDiscovery;
  mqtt.broker = keepString(kept[0], c.broker);
  mqtt.port = c.port;
  mqtt.username = keepString(kept[1], c.username);
  mqtt.password = keepString(kept[2], c.password);
  mqtt.topicPrefix = keepString(kept[3], c.topicPrefix);
  mqtt.discoveryPrefix = keepString(kept[4], c.discoveryPrefix);
}

let withPassword = false;

function put(marker: i32): void {
  if (marker == 1) w.boolean(mqtt.enabled);
  else if (marker == 2) w.int(mqtt.brokerDiscovery);
  else if (marker == 3) w.str(mqtt.broker);
  else if (marker == 4) w.int(mqtt.port);
  else if (marker == 5) w.str(mqtt.username);
  else if (marker == 6) {
    if (!withPassword) return;
    w.raw(',"password":');
    w.str(mqtt.password);
  } else if (marker == 7) w.str(withPassword ? mqtt.topicPrefix : topicPrefix());
  else w.str(withPassword ? mqtt.discoveryPrefix : discoveryPrefix());
}

/** The settings as JSON, without the closing brace; the stored form has the password and the
 * prefixes as set (empty: default). */
export function writeMqttSettings(stored: bool): void {
  withPassword = stored;
  fill(t.MQTT_SETTINGS, t.MQTT_SETTINGS_LENGTH, put);
}
