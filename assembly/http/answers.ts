// Every fixed HTTP answer as a row of one table: its status and its body, a template whose markers
// take what the handler left (`about`, `counted`). A handler returns a row (A_*) and the
// router writes it (http/router.ts); the answers given before a handler runs (main.ts,
// http/origin.ts) call `answer` themselves. A handler that writes a document field by field (a
// scene, the lists) returns ANSWERED.
//
// A row is a line "<status> <body>"; the lines are kept in a few texts, at most eight a text,
// separated by "|" (no body holds one), so that the messages transform keeps them in its UTF-8
// table, compressed with the messages (`lines` is @message-returns: scripts/messages-transform.mjs).
// Row A is line A & 7 of text A >> 3. A body's markers: {1} the subject (a string, escaped, without
// its quotes), {2} n1 and {3} n2 (integers), {4} n1 / 1000 (at most three decimals).
import * as w from "../json/writer";
import { broken } from "../json/stream";
import { errorOffset, errorReason } from "../json/reader";
import { validationError } from "../json/validate";
import { STORE_FULL } from "../store/kv";

/** The handler wrote its answer itself. */
export const ANSWERED = 0;
export const A_OK = 1;
export const A_ACCEPTED = 2;
export const A_NO_CONTENT = 3;
export const A_NOT_FOUND = 4;
export const A_METHOD_NOT_ALLOWED = 5;
export const A_TOO_LARGE = 6;
export const A_BUSY = 7;
/** The document just read was refused: 400 invalid_json (where and why) when it is not JSON, else
 * 422 with its first problem (json/validate.ts). */
export const A_INVALID = 8;
export const A_SYNTAX = 9;
export const A_URI_TOO_LONG = 10;
export const A_HEADER_TOO_LARGE = 11;
export const A_HOST_REQUIRED = 12;
export const A_MISDIRECTED = 13;
export const A_CROSS_ORIGIN = 14;
export const A_STORAGE_FULL = 16;
export const A_STORAGE_ERROR = 17;
export const A_TOO_NEW = 18; // n1: the scene's schema version, n2: the firmware's
export const A_SYSTEM_OFF = 19;
export const A_NO_LAST_PLAYED = 20;
export const A_GROUP_NOT_FOUND = 21;
export const A_NAME_EXISTS = 22;
export const A_TOO_MANY_PALETTES = 24;
export const A_BROKER_REQUIRED = 25;
export const A_ID = 26;
export const A_NAME = 27;
export const A_POWER_ON = 28;
export const A_POWER_OFF = 29;
export const A_SPEED = 30; // n1: per mille
export const A_ROOT = 31; // n1: the logical root
export const A_SETUP = 32;
export const A_FLASHING = 33; // n1: the panels
export const A_SCENE_UNREADABLE = 34;
export const A_SCENE_NOT_DELETED = 35;
export const A_SCENE_FULL = 36;
export const A_SCENE_FULL_NEW = 37; // a new scene, before it has an id
export const A_SCENE_NOT_SAVED = 40;
export const A_SCENE_NOT_SAVED_NEW = 41;
export const A_LIBRARY_UNREADABLE = 42;
export const A_LIBRARY_FULL = 43; // n1: the most scenes
export const A_NO_FREE_ID = 44;
export const A_ONE_SHOT_NOT_STORED = 48;
export const A_PALETTE_STORE_UNREADABLE = 49;
export const A_PALETTE_CORRUPT = 50;
export const A_PALETTE_UNREADABLE = 51;
export const A_PALETTE_NOT_STORED = 56;
export const A_PALETTE_NOT_DELETED = 57;
/** The subject as the error, with 403, 422, 409 or 507. */
export const A_FORBIDDEN = 58;
export const A_FAILED = 59;
export const A_CONFLICT = 60;
export const A_FULL = 61;
/** No such panel: a path segment that is not a number, or panel n1, and the panels 1-n2. */
export const A_NO_PANEL = 64;
export const A_NO_PANEL_NUMBER = 65;
export const A_NO_PANEL_NONE = 66;
export const A_NO_PANEL_NUMBER_NONE = 72;

/** The rows' texts (see above). @message-returns */
function lines(text: i32): string {
  switch (text) {
    case 0:
      return '|200 {}|202 {}|204 |404 {"error":"not_found"}|405 {"error":"method_not_allowed"}|413 {"error":"payload_too_large"}|503 {"error":"busy"}';
    case 1:
      return '422 {"error":"{1}"}|400 {"error":"invalid_json","offset":{2},"reason":"{1}"}|414 {"error":"uri_too_long"}|431 {"error":"header_too_large"}|400 {"error":"host_required"}|421 {"error":"misdirected_request"}|403 {"error":"cross_origin"}';
    case 2:
      return '507 {"error":"storage_full"}|500 {"error":"storage_error"}|409 {"error":"schema_too_new","scene":{2},"firmware":{3}}|409 {"error":"system_off"}|404 {"error":"no_last_played_scene"}|404 {"error":"group_not_found"}|409 {"error":"name_exists"}';
    case 3:
      return '507 {"error":"too_many_palettes"}|422 {"error":"broker_required"}|200 {"id":"{1}"}|200 {"name":"{1}"}|202 {"isOn":true}|202 {"isOn":false}|202 {"ok":true,"speed":{4}}|202 {"ok":true,"logicalRoot":{2}}';
    case 4:
      return '200 {"ok":true}|200 {"status":"flashing","panels":{2}}|500 {"error":"scene {1} is unreadable"}|500 {"error":"scene {1} could not be deleted"}|507 {"error":"storage full: scene {1} was not saved"}|507 {"error":"storage full: the scene was not saved"}';
    case 5:
      return '500 {"error":"scene {1} could not be saved"}|500 {"error":"the scene could not be saved"}|500 {"error":"the scene library is unreadable"}|507 {"error":"the scene library is full ({2} scenes)"}|500 {"error":"no free scene id"}';
    case 6:
      return '500 {"error":"the one-shot scene could not be stored"}|500 {"error":"the palette store could not be read"}|500 {"error":"stored palette \\"{1}\\" is corrupt"}|500 {"error":"stored palette \\"{1}\\" could not be read"}';
    case 7:
      return '500 {"error":"palette \\"{1}\\" could not be stored"}|500 {"error":"palette \\"{1}\\" could not be deleted"}|403 {"error":"{1}"}|422 {"error":"{1}"}|409 {"error":"{1}"}|507 {"error":"{1}"}';
    case 8:
      return '404 {"error":"not_found","message":"not a panel number: the panels are 1-{3}"}|404 {"error":"not_found","message":"no panel {2}: the panels are 1-{3}"}|404 {"error":"not_found","message":"not a panel number: no panels are discovered"}';
    case 9:
      return '404 {"error":"not_found","message":"no panel {2}: no panels are discovered"}';
  }
  return "";
}

// The values of the markers of the answer being written: the subject (a string), n1, n2 (i64: a
// schema version is any integer). In static memory, not globals (each a WAMR global costs about 52 B
// of device heap).
const VALUES = memory.data(24, 8);

/** Row `a` about `s` (its subject): `return about(name, A_...)`. @message-args: its literal texts go
 * to the UTF-8 message table (scripts/messages-transform.mjs). */
export function about(s: string, a: i32): i32 {
  store<usize>(VALUES, changetype<usize>(s));
  return a;
}

/** Row `a` with the numbers `x` and `y` (n1, n2). */
export function counted(a: i32, x: i64, y: i64 = 0): i32 {
  store<i64>(VALUES, x, 8);
  store<i64>(VALUES, y, 16);
  return a;
}

/** UTF-16 unit `i` of the string at `p`. */
function unit(p: usize, i: u32): u32 {
  return load<u16>(p + ((<usize>i) << 1));
}

/** Answers `req` with row `a` of the table. */
export function answer(req: u32, a: i32): void {
  if (a == A_INVALID && broken) a = A_SYNTAX;
  if (a == A_SYNTAX) counted(about(errorReason(), a), errorOffset);
  else if (a == A_INVALID) about(validationError(), a);
  const text = lines(a >> 3);
  const p = changetype<usize>(text);
  const n = <u32>text.length;
  let i: u32 = 0;
  for (let k = a & 7; k > 0; i++) if (unit(p, i) == 0x7c) k--;
  w.begin(req, (unit(p, i) - 0x30) * 100 + (unit(p, i + 1) - 0x30) * 10 + unit(p, i + 2) - 0x30);
  for (i += 4; i < n; i++) {
    const c = unit(p, i);
    if (c == 0x7c) break;
    // a marker: "{", a digit 1-4, "}"
    const m = c == 0x7b && i + 2 < n && unit(p, i + 2) == 0x7d ? unit(p, i + 1) - 0x30 : 0;
    if (m == 1) w.strBody(changetype<string>(load<usize>(VALUES)));
    else if (m == 2 || m == 3) w.int(load<i64>(VALUES + ((<usize>m - 1) << 3)));
    else if (m == 4) w.decimal(<f64>load<i64>(VALUES, 8) / 1000);
    else {
      w.byte(c);
      continue;
    }
    i += 2;
  }
  w.finish();
}

/** The row for a failed store write (store/kv.ts): 507 storage_full when the store is full. */
export function storeFailure(rc: i32): i32 {
  return rc == STORE_FULL ? A_STORAGE_FULL : A_STORAGE_ERROR;
}
