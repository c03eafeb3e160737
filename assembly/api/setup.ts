// The Wi-Fi setup form of the captive portal posts here: POST /api/setup {ssid, password, mqtt?:
// {enabled, brokerDiscovery, broker, port, username, password}}. Everything is validated first; then the MQTT settings are saved (large variant; the
// small one refuses an `mqtt` part) and the host is handed the station credentials. The page asks
// GET /api/mqtt for the current settings: it shows MQTT only where there is MQTT, prefilled, and
// sends only what changed (never a password it did not get). The page itself, GET /setup, is
// web/setup.html, served by the hosts with the web app's assets.
import { host_wifi_configure } from "../host/imports";
import { jsonBody, sendInvalid } from "../http/request";
import * as w from "../json/writer";
import { member } from "../json/reader";
import { fail, setPathPrefix } from "../json/validate";
import { checkFields, F_BYTES, F_REQUIRED } from "../json/fields";
import { applyMqtt } from "./mqtt";
import { mqttAvailable } from "../mqtt/service";

const MQTT_FIELDS: StaticArray<string> = ["enabled", "brokerDiscovery", "broker", "port", "username", "password"];
const KEYS: StaticArray<string> = ["ssid", "password", "mqtt"];

class Credentials {
  ssid: string = "";
  password: string = "";
}

// The checks before the mqtt part's: key (in KEYS), kind, range in UTF-8 bytes, field (json/fields.ts).
// prettier-ignore
const ROWS = memory.data<u16>([
  0, F_BYTES | F_REQUIRED, 1, 32, <u16>offsetof<Credentials>("ssid"),
  1, F_BYTES, 0, 64, <u16>offsetof<Credentials>("password"),
]);

export function postSetup(req: u32, _param: string, body: usize, len: u32): void {
  const v = jsonBody(req, body, len);
  if (v < 0) return;
  const c = new Credentials();
  if (!checkFields(v, KEYS, KEYS, ROWS, 2, changetype<usize>(c))) return sendInvalid(req);
  const ssid = String.UTF8.encode(c.ssid);
  const pass = String.UTF8.encode(c.password);
  const m = member(v, "mqtt");
  if (m >= 0 && !mqttAvailable()) {
    fail("mqtt", "this controller has no MQTT (small variant)");
    return sendInvalid(req);
  }
  setPathPrefix("mqtt.");
  const saved = m < 0 || applyMqtt(req, m, MQTT_FIELDS);
  setPathPrefix("");
  if (!saved) return;
  host_wifi_configure(changetype<usize>(ssid), <u32>ssid.byteLength, changetype<usize>(pass), <u32>pass.byteLength);
  w.begin(req, 200);
  w.raw('{"ok":true}'); // a literal raw(): moved to the UTF-8 message table
  w.finish();
}
