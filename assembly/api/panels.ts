// GET /api/panels (live), GET /api/panels/edges, PUT /api/panels/{address}/on and /color.
// The PUTs bypass the animation system: a running animation overwrites them on its next frame.
import { names, Names } from "../util/names";
import * as w from "../json/writer";
import { fillValues, VALUES, STR_INTS } from "../json/template";
import * as t from "../generated/text";
import { host_clock_ms } from "../host/imports";
import { tree } from "../topology/tree";
import { requestStates, replies, answerHttpWith } from "../bus/query";
import { queued, paramStart, paramLength } from "../http/request";
import * as A from "../http/answers";
import { checkFields, skipOwn, F_INT, F_COLOR, F_REQUIRED, ROW } from "../json/check-fields";
import { W_PANEL_POWER, W_PANEL_COLOR } from "../core/queue";

export function getPanels(req: u32, _param: string, _arg: u32): i32 {
  return requestStates(req, false, host_clock_ms()) ? A.ANSWERED : A.A_BUSY;
}

/** Answers a GET /api/panels once the live query is complete. */
function writePanels(req: u32): void {
  w.begin(req, 200);
  w.byte(0x5b);
  let first = true;
  for (let i = 1; i <= tree.count; i++) {
    const state = replies[i]; // bus/query.ts: REPLIED | on << 24 | 0xRRGGBB
    if (state == 0) continue;
    if (!first) w.byte(0x2c);
    first = false;
    store<i32>(VALUES, i, 8);
    store<u8>(VALUES, (<u8>(state >> 24)) & 1, 48);
    fillValues(t.PANEL, t.PANEL_LENGTH, STR_INTS); // assembly/text/panel.txt
    w.color(state); // its six hex digits: the bits above 0xffffff are not read
    w.byte(0x7d);
  }
  w.byte(0x5d);
  w.finish();
}

/** Three edges a panel, from a template (assembly/text/edge.txt; markers 2-5). */
export function getEdges(_req: u32, _param: string, _arg: u32): i32 {
  w.byte(0x5b);
  for (let k = 3; k < (tree.count + 1) * 3; k++) {
    // edge k: panel k / 3, slot k % 3
    if (k > 3) w.byte(0x2c);
    const i = k / 3;
    const slot = k % 3;
    store<i32>(VALUES, i, 8);
    store<i32>(VALUES, slot, 16);
    store<i32>(VALUES, tree.connectedPanel(i, slot), 24);
    store<i32>(VALUES, tree.connectedEdge(i, slot), 32);
    fillValues(t.EDGE, t.EDGE_LENGTH, STR_INTS);
  }
  w.byte(0x5d);
  return A.ANSWERED;
}

// The two bodies, {"value": 0 or 1} and {"color": "#RRGGBB"}: key, kind, range, offset (json/check-fields.ts).
const VALUE_KEYS = names("value");
const COLOR_KEYS = names("color");
// prettier-ignore
const ONE_FIELD = memory.data<u16>([
  0, F_INT | F_REQUIRED, 0, 1, 0,
  0, F_COLOR | F_REQUIRED, 0, 0, 0,
]);
const field = memory.data(4); // the value read

/** The path's panel address: its segment (http/request.ts paramStart) as a decimal number of at most
 * three digits, or -1. */
function pathAddress(): i32 {
  const len = paramLength;
  if (len == 0 || len > 3) return -1;
  let n = 0;
  for (let i: u32 = 0; i < len; i++) {
    const d = <u32>load<u8>(paramStart + i) - 0x30;
    if (d > 9) return -1;
    n = n * 10 + <i32>d;
  }
  return n;
}

/** Queues a panel's change: the `kind` (core/queue.ts W_*) with the panel's address and the body's one
 * field (a row of ONE_FIELD). A path that is not a discovered panel is 404, saying which panels there
 * are. */
function putPanel(root: u32, keys: Names, row: usize, kind: u8): i32 {
  const address = pathAddress();
  if (!tree.exists(address)) {
    // the rows in order: not a number, no panel n; then both when no panels are discovered
    const a = A.A_NO_PANEL + (address >= 0 ? 1 : 0) + (tree.count == 0 ? 2 : 0);
    return A.counted(a, address, tree.count);
  }
  if (!checkFields(root, keys, row, 1, field, skipOwn, 32)) return A.A_INVALID;
  return queued(kind, address, load<i32>(field), A.A_ACCEPTED);
}

export function putPanelOn(_req: u32, _param: string, root: u32): i32 {
  return putPanel(root, VALUE_KEYS, ONE_FIELD, W_PANEL_POWER);
}

export function putPanelColor(_req: u32, _param: string, root: u32): i32 {
  return putPanel(root, COLOR_KEYS, ONE_FIELD + ROW * 2, W_PANEL_COLOR);
}

answerHttpWith(writePanels);
