// The Wi-Fi setup form of the captive portal posts here: POST /api/setup {ssid, password, mqtt?:
// {enabled, brokerDiscovery, broker, port, username, password}}. Everything is validated first; then the MQTT settings are saved (large variant; the
// small one refuses an `mqtt` part) and the host is handed the station credentials. The page asks
// GET /api/mqtt for the current settings: it shows MQTT only where there is MQTT, prefilled, and
// sends only what changed (never a password it did not get). The page itself, GET /setup, is
// web/setup.html, served by the hosts with the web app's assets.
import { names } from "../util/names";
import { host_wifi_configure } from "../host/imports";
import { A_INVALID, A_SETUP } from "../http/answers";
import { fail, setPathPrefix } from "../json/validate";
import { checkFields, present, problem, F_BYTES, F_REQUIRED } from "../json/check-fields";
import { applyMqtt } from "./mqtt";
import { parseMqttPatch, MqttConfig } from "../mqtt/config";
import { mqttAvailable } from "../mqtt/service";
import { utf8Bytes } from "../util/utf8";

/** The mqtt part takes the first six of the MQTT settings' keys (not the topic prefixes). */
const MQTT_FIELDS = 6;
const KEYS = names("ssid password mqtt");

const MQTT = 2;

class Credentials {
  ssid: string = "";
  password: string = "";
  mqtt: MqttConfig | null = null;
}

// The checks before the mqtt part's: key (in KEYS), kind, range in UTF-8 bytes, field (json/check-fields.ts).
// prettier-ignore
const ROWS = memory.data<u16>([
  0, F_BYTES | F_REQUIRED, 1, 32, <u16>offsetof<Credentials>("ssid"),
  1, F_BYTES, 0, 64, <u16>offsetof<Credentials>("password"),
]);

/** The mqtt part, as it streams: read as PATCH /api/mqtt reads its body, with its paths under mqtt.
 * (its problem waits for its turn, after the credentials'). */
function readMqtt(_k: i32, kind: u32, target: usize): void {
  setPathPrefix("mqtt.");
  changetype<Credentials>(target).mqtt = parseMqttPatch(kind, MQTT_FIELDS);
  setPathPrefix("");
}

export function postSetup(_req: u32, _param: string, root: u32): i32 {
  const c = new Credentials();
  if (!checkFields(root, KEYS, ROWS, 2, changetype<usize>(c), readMqtt, 32)) return A_INVALID;
  const ssid = utf8Bytes(c.ssid);
  const pass = utf8Bytes(c.password);
  if ((present & (1 << MQTT)) != 0) {
    if (!mqttAvailable()) {
      fail("mqtt", "this controller has no MQTT (small variant)");
      return A_INVALID;
    }
    if (problem(MQTT)) return A_INVALID;
    const a = applyMqtt(c.mqtt);
    if (a != 0) return a;
  }
  host_wifi_configure(changetype<usize>(ssid), <u32>ssid.byteLength, changetype<usize>(pass), <u32>pass.byteLength);
  return A_SETUP;
}
