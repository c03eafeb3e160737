// GET /api/panels (live), GET /api/panels/edges, PUT /api/panels/{address}/on and /color.
// The PUTs bypass the animation system: a running animation overwrites them on its next frame.
import { names } from "../util/names";
import * as w from "../json/writer";
import { host_clock_ms } from "../host/imports";
import { tree } from "../topology/tree";
import { requestStates, replied, replyOn, replyColor } from "../bus/query";
import { jsonBody, sendInvalid, queueOrBusy, sendAccepted } from "../http/request";
import { sendError } from "../http/response";
import { checkFields, F_INT, F_COLOR, F_REQUIRED, ROW } from "../json/fields";
import { W_PANEL_POWER, W_PANEL_COLOR } from "../core/queue";

export function getPanels(req: u32, _param: string, _body: usize, _len: u32): void {
  if (!requestStates(req, false, host_clock_ms())) sendError(req, 503, "busy");
}

/** Answers a GET /api/panels once the live query is complete. */
export function writePanels(req: u32): void {
  w.begin(req, 200);
  w.byte(0x5b);
  let first = true;
  for (let i = 1; i <= tree.count; i++) {
    if (!replied[i]) continue;
    if (!first) w.byte(0x2c);
    first = false;
    w.raw('{"address":');
    w.int(i);
    w.raw(',"on":');
    w.boolean(replyOn[i]);
    w.raw(',"color":');
    w.color(replyColor[i]);
    w.byte(0x7d);
  }
  w.byte(0x5d);
  w.finish();
}

export function getEdges(req: u32, _param: string, _body: usize, _len: u32): void {
  w.begin(req, 200);
  w.byte(0x5b);
  for (let i = 1; i <= tree.count; i++) {
    for (let slot = 0; slot < 3; slot++) {
      if (i > 1 || slot > 0) w.byte(0x2c);
      w.raw('{"panel":');
      w.int(i);
      w.raw(',"edge":');
      w.int(slot);
      w.raw(',"connectedPanel":');
      w.int(tree.connectedPanel(i, slot));
      w.raw(',"connectedEdge":');
      w.int(tree.connectedEdge(i, slot));
      w.byte(0x7d);
    }
  }
  w.byte(0x5d);
  w.finish();
}

// The two bodies, {"value": 0 or 1} and {"color": "#RRGGBB"}: key, kind, range, offset (json/fields.ts).
const VALUE_KEYS = names("value");
const COLOR_KEYS = names("color");
// prettier-ignore
const ONE_FIELD = memory.data<u16>([
  0, F_INT | F_REQUIRED, 0, 1, 0,
  0, F_COLOR | F_REQUIRED, 0, 0, 0,
]);
const field = memory.data(4); // the value read

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

/** 404 for an address that is not a discovered panel, saying which panels there are. */
function noPanel(req: u32, address: i32): void {
  w.begin(req, 404);
  w.raw('{"error":"not_found","message":"');
  if (address < 0) w.raw("not a panel number");
  else {
    w.raw("no panel ");
    w.int(address);
  }
  if (tree.count == 0) w.raw(": no panels are discovered");
  else {
    w.raw(": the panels are 1-");
    w.int(tree.count);
  }
  w.raw('"}');
  w.finish();
}

export function putPanelOn(req: u32, segment: string, _body: usize, _len: u32): void {
  const address = parseAddress(segment);
  if (!tree.exists(address)) return noPanel(req, address);
  if (!checkFields(jsonBody(req), VALUE_KEYS, ONE_FIELD, 1, field)) return sendInvalid(req);
  if (queueOrBusy(req, W_PANEL_POWER, address, load<i32>(field))) sendAccepted(req);
}

export function putPanelColor(req: u32, segment: string, _body: usize, _len: u32): void {
  const address = parseAddress(segment);
  if (!tree.exists(address)) return noPanel(req, address);
  if (!checkFields(jsonBody(req), COLOR_KEYS, ONE_FIELD + ROW * 2, 1, field)) return sendInvalid(req);
  if (queueOrBusy(req, W_PANEL_COLOR, address, load<i32>(field))) sendAccepted(req);
}
