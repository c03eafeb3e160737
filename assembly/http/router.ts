// Maps method and path to a handler. Unknown paths answer 404 not_found, known paths with another
// method 405 method_not_allowed; HEAD is answered like GET (the host drops the body).
import { M_GET, M_HEAD, M_POST, M_PUT, M_PATCH } from "./request";
import { sendError } from "./response";
import { getAppearance, patchAppearance } from "../api/appearance";
import { getState, postPower } from "../api/state";
import { getConfiguration, patchConfiguration } from "../api/configuration";
import { getPanels, getEdges, putPanelOn, putPanelColor } from "../api/panels";
import { routeScenes } from "../api/scenes";
import { routeAnimations } from "../api/playback";
import { routePalettes } from "../api/palettes";
import { getMqtt, patchMqtt } from "../api/mqtt";
import { getSetupPage, postSetup } from "../api/setup";
import { mqttAvailable } from "../mqtt/service";
import { getLayout } from "../api/layout";
import { splitOn } from "../util/split";

/** The path without query string, split on "/" (leading slash dropped). */
function segments(url: string): string[] {
  let path = url;
  const q = path.indexOf("?");
  if (q >= 0) path = path.substring(0, q);
  if (path.length > 1 && path.endsWith("/")) path = path.substring(0, path.length - 1);
  if (path.startsWith("/")) path = path.substring(1);
  return splitOn(path, 0x2f);
}

/** A decimal panel address 1-999 from a path segment, or -1. */
function parseAddress(s: string): i32 {
  if (s.length == 0 || s.length > 3) return -1;
  let n = 0;
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c < 0x30 || c > 0x39) return -1;
    n = n * 10 + (c - 0x30);
  }
  return n;
}

export function route(req: u32, method: u32, url: string, body: usize, len: u32, now: u32): void {
  const seg = segments(url);
  const m = method == M_HEAD ? M_GET : method;
  if (seg.length == 1 && seg[0] == "setup") {
    if (m == M_GET) return getSetupPage(req);
    return sendError(req, 405, "method_not_allowed");
  }
  if (seg.length < 2 || seg[0] != "api") return sendError(req, 404, "not_found");
  const area = seg[1];
  const n = seg.length;
  if (area == "appearance" && n == 2) {
    if (m == M_GET) return getAppearance(req);
    if (m == M_PATCH) return patchAppearance(req, body, len);
  } else if (area == "state" && n == 2) {
    if (m == M_GET) return getState(req);
  } else if (area == "state" && n == 3 && seg[2] == "power") {
    if (m == M_POST) return postPower(req, body, len);
  } else if (area == "configuration" && n == 2) {
    if (m == M_GET) return getConfiguration(req);
    if (m == M_PATCH) return patchConfiguration(req, body, len);
  } else if (area == "mqtt" && n == 2 && mqttAvailable()) {
    if (m == M_GET) return getMqtt(req);
    if (m == M_PATCH) return patchMqtt(req, body, len);
  } else if (area == "setup" && n == 2) {
    if (m == M_POST) return postSetup(req, body, len);
  } else if (area == "panels" && n == 2) {
    if (m == M_GET) return getPanels(req, now);
  } else if (area == "panels" && n == 3 && seg[2] == "edges") {
    if (m == M_GET) return getEdges(req);
  } else if (area == "panels" && n == 4 && (seg[3] == "on" || seg[3] == "color")) {
    if (m != M_PUT) return sendError(req, 405, "method_not_allowed");
    const address = parseAddress(seg[2]);
    if (seg[3] == "on") return putPanelOn(req, address, body, len);
    return putPanelColor(req, address, body, len);
  } else if (area == "layout" && n == 2) {
    if (m == M_GET) return getLayout(req);
  } else if (area == "palettes" && n <= 3) {
    return routePalettes(req, m, seg, body, len);
  } else if (area == "scenes") {
    return routeScenes(req, m, seg, body, len);
  } else if (area == "animations") {
    return routeAnimations(req, m, seg, body, len);
  } else {
    return sendError(req, 404, "not_found");
  }
  sendError(req, 405, "method_not_allowed");
}
