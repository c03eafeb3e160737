// Home Assistant MQTT discovery: one retained config per entity under
// `<discoveryPrefix>/<component>/<unique_id>/config`, all sharing one device block. The entities are
// a table (component, key, name and template of each); a config is its template filled in
// (json/template.ts). The scene select shows `Name (id)` while the wire carries the raw id: HA's
// select publishes the option itself, so a command_template cuts the id out of the label and a
// value_template maps an id back to its label (docs/mqtt.md).
import * as w from "../json/writer";
import { fill } from "../json/template";
import { mqtt, putTopicPrefix, discoveryPrefix, deviceName } from "./config";
import { publishStatus, STATUS_ONLINE } from "./session";
import { putName } from "./pack";
import { host_http_port } from "../host/imports";
import { openIds, firstId, nextId, idAt } from "../store/scene-ids";
import { readSummary, summaryName, summaryNameLength } from "../scene/summary";
import { app } from "../state/app";
import { names } from "../util/names";
import * as t from "../generated/text";
import { arenaTop, arenaBack } from "../rt/arena";

/** The entities, in the order their configs are published: component, key (of unique_id and of the
 * topics), name, and the template of what follows the shared head (ha-head.txt; MQTT runs on the
 * large variant only, so its model is "(large)"). */
const COMPONENTS = names("switch light select binary_sensor sensor");
const KEYS = names("power light scene playing speed");
const NAMES = names("Power Light Scene Playing Speed");
// prettier-ignore
const TAILS = memory.data<u32>([
  <u32>t.HA_SWITCH, t.HA_SWITCH_LENGTH,
  <u32>t.HA_LIGHT, t.HA_LIGHT_LENGTH,
  <u32>t.HA_SELECT, t.HA_SELECT_LENGTH,
  <u32>t.HA_PLAYING, t.HA_PLAYING_LENGTH,
  <u32>t.HA_SPEED, t.HA_SPEED_LENGTH,
]);
const ENTITIES = 5;
const SELECT = 2;

const LABEL_MAX = 40;
/** The entity whose config is being written. */
let entity = 0;

function put(marker: i32): void {
  if (marker == 1) putName(NAMES, entity);
  else if (marker == 2) w.strBody(deviceName());
  else if (marker == 3) putName(KEYS, entity);
  else if (marker == 4) putTopicPrefix(true);
  else if (marker == 6) w.strBody(app.controllerFirmware);
  else if (marker == 7) w.int(host_http_port());
  else {
    // the select's options (the list is empty when the library could not be listed)
    for (let at = firstId(); at >= 0; at = nextId(at)) {
      const id = idAt(at);
      if (marker == 8) {
        w.raw(',"');
        label(id, false);
        w.byte(0x22);
      } else {
        w.byte(0x27);
        w.raw(id);
        w.raw("':'");
        label(id, true);
        w.raw("',");
      }
    }
  }
}

/** Publishes the retained config of entity `i`: the shared head (name, unique_id, availability,
 * device), then its tail. */
function publish(i: i32): void {
  const mark = arenaTop(); // what one config allocates is given back before the next
  entity = i;
  w.beginMqtt();
  fill(t.HA_HEAD, t.HA_HEAD_LENGTH, put);
  const tail = TAILS + ((<usize>i) << 3);
  fill(load<u32>(tail), load<u32>(tail, 4), put);
  publishConfig(i);
  arenaBack(mark);
}

/** Publishes the payload in the writer (beginMqtt) as the retained config of entity `i`. The topic
 * goes into the writer after the payload: no string of it in the arena. */
function publishConfig(i: i32): void {
  w.beginTopic();
  w.raw(discoveryPrefix(mqtt));
  w.byte(0x2f);
  putName(COMPONENTS, i);
  w.byte(0x2f);
  w.raw(deviceName());
  w.byte(0x5f);
  putName(KEYS, i);
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
    if (inJinja && (c == 0x27 || c == 0x5c)) {
      w.raw("\\\\"); // the Jinja backslash, doubled for JSON
      if (c == 0x27) w.byte(c);
      else w.raw("\\\\");
    } else if (c == 0x22 || c == 0x5c || c < 0x20) w.escape(c);
    else w.byte(c);
  }
  w.raw(" (");
  w.raw(id);
  w.byte(0x29);
}

function isSpace(c: u32): bool {
  return c == 0x20 || c == 0x09 || c == 0x0a || c == 0x0d;
}

/** The select's options are read from each scene's summary as the payload streams out: memory does
 * not grow with the library. */
export function publishSelect(): void {
  const mark = arenaTop(); // the library's key list (about 1.7 KB) is not kept under the next configs
  openIds();
  publish(SELECT);
  arenaBack(mark);
}

/** Empties the retained configs under the current prefixes (before they change), so Home Assistant
 * forgets the entities there instead of keeping a stale copy beside the new ones. */
export function clearDiscovery(): void {
  for (let i = 0; i < ENTITIES; i++) {
    w.beginMqtt();
    publishConfig(i);
  }
}

/** Every config: switch, light, select, binary sensor, sensor; then the birth message. */
export function publishDiscovery(): void {
  for (let i = 0; i < ENTITIES; i++) {
    if (i == SELECT) publishSelect();
    else publish(i);
  }
  publishStatus(STATUS_ONLINE);
}
