// Home Assistant MQTT discovery: one retained config per entity under
// `<discoveryPrefix>/<component>/<unique_id>/config`, all sharing one device block. The scene
// select shows `Name (id)` while the wire carries the raw id: HA's select publishes the option
// itself, so a command_template cuts the id out of the label and a value_template maps an id back
// to its label (docs/mqtt.md).
import * as w from "../json/writer";
import { fill } from "../json/template";
import { topicPrefix, discoveryPrefix, deviceName } from "./config";
import { publishText } from "./session";
import { host_mqtt_publish, host_http_port } from "../host/imports";
import { listSceneIds, readSceneFile, lastLength } from "../scene/store";
import { parseJson, closeJson, member, stringValue, kindOf, PARSE_OK, J_STRING } from "../json/reader";
import { controllerFirmware } from "../state/app";
import * as t from "../generated/text";

const LABEL_MAX = 40;
let large = true;
// The document being written: its entity name and key, the select's ids and labels.
let entity = "";
let key = "";
let ids: string[] = [];
let labels: string[] = [];

export function setVariant(isLarge: bool): void {
  large = isLarge;
}

function put(marker: i32): void {
  if (marker == 1) w.strBody(entity);
  else if (marker == 2) w.strBody(deviceName());
  else if (marker == 3) w.raw(key);
  else if (marker == 4) w.strBody(topicPrefix());
  else if (marker == 5) w.raw(large ? "large" : "small");
  else if (marker == 6) w.strBody(controllerFirmware);
  else if (marker == 7) w.int(host_http_port());
  else if (marker == 8) {
    for (let i = 0; i < labels.length; i++) {
      w.byte(0x2c);
      w.str(labels[i]);
    }
  } else if (marker == 9) {
    for (let i = 0; i < labels.length; i++) {
      w.byte(0x27);
      w.raw(ids[i]);
      w.raw("':'");
      jinja(labels[i]);
      w.raw("',");
    }
  }
}

/** Publishes one retained config: the shared head (name, unique_id, availability, device), then `tail`. */
function publish(component: string, name: string, k: string, tail: usize, tailLen: u32): void {
  entity = name;
  key = k;
  w.beginCapture();
  fill(t.HA_HEAD, t.HA_HEAD_LENGTH, put);
  fill(tail, tailLen, put);
  const bytes = w.endCapture();
  const topic = String.UTF8.encode(discoveryPrefix() + "/" + component + "/" + deviceName() + "_" + k + "/config");
  host_mqtt_publish(changetype<usize>(topic), <u32>topic.byteLength, bytes.dataStart, <u32>bytes.length, 1);
}

/** The name of a stored scene, cut to LABEL_MAX characters, or its id when unreadable. */
function sceneName(id: string): string {
  const buf = readSceneFile(id);
  if (buf == 0) return id;
  let name = id;
  if (parseJson(buf, lastLength) == PARSE_OK) {
    const n = member(0, "name");
    if (n >= 0 && kindOf(n) == J_STRING) name = stringValue(n);
  }
  closeJson();
  heap.free(buf);
  return name.length > LABEL_MAX ? name.substring(0, LABEL_MAX) : name;
}

/** A label inside a single-quoted Jinja literal, inside a JSON string: `'` and `\` get a Jinja
 * backslash, which JSON doubles. */
function jinja(s: string): void {
  let run = 0;
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c != 0x27 && c != 0x5c) continue;
    if (i > run) w.strBody(s.substring(run, i));
    w.raw(c == 0x27 ? "\\\\'" : "\\\\\\\\");
    run = i + 1;
  }
  if (run < s.length) w.strBody(s.substring(run));
}

export function publishSelect(): void {
  const list = listSceneIds();
  ids = list ? list : [];
  labels = [];
  for (let i = 0; i < ids.length; i++) labels.push(sceneName(ids[i]) + " (" + ids[i] + ")");
  publish("select", "Scene", "scene", t.HA_SELECT, t.HA_SELECT_LENGTH);
  ids = [];
  labels = [];
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
