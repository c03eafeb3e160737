// The Wi-Fi setup form of the captive portal posts here: POST /api/setup {ssid, password, mqtt?:
// {enabled, brokerDiscovery, broker, port, username, password}}. Everything is validated first; then the MQTT settings are saved (large variant; the
// small one refuses an `mqtt` part) and the host is handed the station credentials. The page asks
// GET /api/mqtt for the current settings: it shows MQTT only where there is MQTT, prefilled, and
// sends only what changed (never a password it did not get). The page itself, GET /setup, is
// web/setup.html, served by the hosts with the web app's assets.
import { host_wifi_configure } from "../host/imports";
import { jsonBody, sendInvalid } from "../http/request";
import * as w from "../json/writer";
import { member, stringValue } from "../json/reader";
import { expectObject, onlyKeys, expectString, fail, setPathPrefix } from "../json/validate";
import { applyMqtt } from "./mqtt";
import { mqttAvailable } from "../mqtt/service";

const MQTT_FIELDS = ["enabled", "brokerDiscovery", "broker", "port", "username", "password"];

/** A string member of `min`-`max` UTF-8 bytes, or null after recording the failure. */
function field(v: i32, key: string, min: i32, max: i32): ArrayBuffer | null {
  const t = member(v, key);
  if (t < 0) {
    if (min == 0) return new ArrayBuffer(0);
    fail(key, "is required");
    return null;
  }
  if (!expectString(t, key)) return null;
  const b = String.UTF8.encode(stringValue(t));
  if (b.byteLength < min || b.byteLength > max) {
    fail(key, "must be " + min.toString() + "-" + max.toString() + " bytes");
    return null;
  }
  return b;
}

export function postSetup(req: u32, _param: string, body: usize, len: u32): void {
  const v = jsonBody(req, body, len);
  if (v < 0) return;
  if (!expectObject(v, "") || !onlyKeys(v, "", ["ssid", "password", "mqtt"])) return sendInvalid(req);
  const ssid = field(v, "ssid", 1, 32);
  const pass = ssid ? field(v, "password", 0, 64) : null;
  if (!ssid || !pass) return sendInvalid(req);
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
