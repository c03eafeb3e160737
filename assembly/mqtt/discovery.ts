// Home Assistant MQTT discovery: one retained config per entity under
// `<discoveryPrefix>/<component>/<unique_id>/config`, all sharing one device block. The scene
// select shows `Name (id)` while the wire carries the raw id: HA's select publishes the option
// itself, so a command_template cuts the id out of the label and a value_template maps an id back
// to its label (docs/mqtt.md).
import * as w from "../json/writer";
import { fill } from "../json/template";
import { topicPrefix, putTopicPrefix, discoveryPrefix, deviceName } from "./config";
import { publishText } from "./session";
import { host_http_port } from "../host/imports";
import { openIds, firstId, nextId, idAt } from "../store/scene-ids";
import { readSummary, summaryName, summaryNameLength } from "../scene/summary";
import { app } from "../state/app";
import * as t from "../generated/text";
import { arenaTop, arenaBack } from "../rt/arena";

const LABEL_MAX = 40;
let large = true;
// The document being written: its entity name and key, whether the select lists the library.
let entity = "";
let key = "";
let listing = false;

export function setVariant(isLarge: bool): void {
  large = isLarge;
}

function put(marker: i32): void {
  if (marker == 1) w.strBody(entity);
  else if (marker == 2) w.strBody(deviceName());
  else if (marker == 3) w.raw(key);
  else if (marker == 4) putTopicPrefix();
  else if (marker == 5) w.raw(large ? "large" : "small");
  else if (marker == 6) w.strBody(app.controllerFirmware);
  else if (marker == 7) w.int(host_http_port());
  else if (marker == 8) {
    for (let at = listing ? firstId() : -1; at >= 0; at = nextId(at)) {
      w.raw(',"');
      label(idAt(at), false);
      w.byte(0x22);
    }
  } else if (marker == 9) {
    for (let at = listing ? firstId() : -1; at >= 0; at = nextId(at)) {
      const id = idAt(at);
      w.byte(0x27);
      w.raw(id);
      w.raw("':'");
      label(id, true);
      w.raw("',");
    }
  }
}

/** Publishes one retained config: the shared head (name, unique_id, availability, device), then `tail`. */
function publish(component: string, name: string, k: string, tail: usize, tailLen: u32): void {
  const mark = arenaTop(); // what one config allocates is given back before the next
  entity = name;
  key = k;
  w.beginMqtt();
  fill(t.HA_HEAD, t.HA_HEAD_LENGTH, put);
  fill(tail, tailLen, put);
  publishConfig(component, k);
  arenaBack(mark);
}

/** Publishes the payload in the writer (beginMqtt) as the retained config of `component` `k`. The
 * topic goes into the writer after the payload: no string of it in the arena. */
function publishConfig(component: string, k: string): void {
  w.beginTopic();
  w.raw(discoveryPrefix());
  w.byte(0x2f);
  w.raw(component);
  w.byte(0x2f);
  w.raw(deviceName());
  w.byte(0x5f);
  w.raw(k);
  w.raw("/config");
  w.publishMqttTopic(true);
}

/** The select's label of scene `id`, `Name (id)` with the name cut to LABEL_MAX UTF-16 units at a
 * character boundary (its id alone when unreadable or blank), escaped for a JSON string, and for
 * `inJinja` also for a single-quoted Jinja literal inside it: `'` and `\` get a Jinja backslash,
 * which JSON doubles. Spaces around the name are left out: Home Assistant strips a template's
 * output, so a label with them could never match its option. */
function label(id: string, inJinja: bool): void {
  let start: u32 = 0;
  let end: u32 = 0;
  if (readSummary(id)) {
    end = summaryNameLength;
    while (start < end && isSpace(load<u8>(summaryName + start))) start++;
    while (end > start && isSpace(load<u8>(summaryName + end - 1))) end--;
  }
  if (start == end) w.raw(id);
  let units = 0;
  for (let i = start; i < end; i++) {
    const c = <u32>load<u8>(summaryName + i);
    if ((c & 0xc0) != 0x80) {
      units += c >= 0xf0 ? 2 : 1; // a 4-byte sequence is a surrogate pair: both units or neither
      if (units > LABEL_MAX) break;
    }
    if (inJinja && (c == 0x27 || c == 0x5c)) w.raw(c == 0x27 ? "\\\\'" : "\\\\\\\\");
    else if (c == 0x22 || c == 0x5c || c < 0x20) w.escape(c);
    else w.byte(c);
  }
  w.raw(" (");
  w.raw(id);
  w.byte(0x29);
}

function isSpace(c: u8): bool {
  return c == 0x20 || c == 0x09 || c == 0x0a || c == 0x0d;
}

/** The select's options are read from each scene's summary as the payload streams out: memory does
 * not grow with the library. */
export function publishSelect(): void {
  const mark = arenaTop(); // the library's key list (about 1.7 KB) is not kept under the next configs
  listing = openIds();
  publish("select", "Scene", "scene", t.HA_SELECT, t.HA_SELECT_LENGTH);
  listing = false;
  arenaBack(mark);
}

/** The five entities: component and key of each config topic. */
const COMPONENTS: StaticArray<string> = ["switch", "light", "select", "binary_sensor", "sensor"];
const ENTITY_KEYS: StaticArray<string> = ["power", "light", "scene", "playing", "speed"];

/** Empties the retained configs under the current prefixes (before they change), so Home Assistant
 * forgets the entities there instead of keeping a stale copy beside the new ones. */
export function clearDiscovery(): void {
  for (let i = 0; i < COMPONENTS.length; i++) {
    w.beginMqtt();
    publishConfig(COMPONENTS[i], ENTITY_KEYS[i]);
  }
}

/** Every config: switch, light, select, binary sensor, sensor; then the birth message. */
export function publishDiscovery(): void {
  publish("switch", "Power", "power", t.HA_SWITCH, t.HA_SWITCH_LENGTH);
  publish("light", "Light", "light", t.HA_LIGHT, t.HA_LIGHT_LENGTH);
  publishSelect();
  publish("binary_sensor", "Playing", "playing", t.HA_PLAYING, t.HA_PLAYING_LENGTH);
  publish("sensor", "Speed", "speed", t.HA_SPEED, t.HA_SPEED_LENGTH);
  publishText(topicPrefix() + "/status", "online", true);
}
