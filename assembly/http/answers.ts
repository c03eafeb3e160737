// Every fixed HTTP answer as a row of one table: its status and its body, a template whose markers
// take what the handler left (`about`, `counted`). A handler returns a row (A_*) and the
// router writes it (http/router.ts); the answers given before a handler runs (main.ts,
// http/origin.ts) call `answer` themselves. A handler that writes a document field by field (a
// scene, the lists) returns ANSWERED.
//
// Row A's body is line A of assembly/text/z-answers.txt (a UTF-8 table, json/template.ts: newlines
// are never inside a dictionary entry, so the packed text is split at them as it is) and its status
// is byte A of STATUS. The "z" puts it last of the texts, which generated/text.ts lays out in name
// order: the largest, read only to answer, it then pushes fewer statics past 8 KiB, where an
// address takes a byte more in the code (-16 B). A body's markers: {1} the subject (a string, escaped, without its quotes),
// {2} n1 and {3} n2 (integers), {4} n1 / 1000 (at most three decimals).
import * as w from "../json/writer";
import { fill } from "../json/template";
import * as t from "../generated/text";
import { broken } from "../json/stream";
import { errorOffset, errorReason } from "../json/reader";
import { validationError } from "../json/validate";
import { STORE_FULL } from "../store/kv";

/** The handler wrote its answer itself (line 0 is empty). */
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
export const A_STORAGE_FULL = 15;
export const A_STORAGE_ERROR = 16;
export const A_TOO_NEW = 17; // n1: the scene's schema version, n2: the firmware's
export const A_SYSTEM_OFF = 18;
export const A_NO_LAST_PLAYED = 19;
export const A_GROUP_NOT_FOUND = 20;
export const A_NAME_EXISTS = 21;
export const A_TOO_MANY_PALETTES = 22;
export const A_BROKER_REQUIRED = 23;
export const A_ID = 24;
export const A_NAME = 25;
export const A_POWER_ON = 26;
export const A_POWER_OFF = 27;
export const A_SPEED = 28; // n1: per mille
export const A_ROOT = 29; // n1: the logical root
export const A_SETUP = 30;
export const A_FLASHING = 31; // n1: the panels
export const A_SCENE_UNREADABLE = 32;
export const A_SCENE_NOT_DELETED = 33;
export const A_SCENE_FULL = 34;
export const A_SCENE_FULL_NEW = 35; // a new scene, before it has an id (api/scenes.ts: the row after)
export const A_SCENE_NOT_SAVED = 36;
export const A_SCENE_NOT_SAVED_NEW = 37;
export const A_LIBRARY_UNREADABLE = 38;
export const A_LIBRARY_FULL = 39; // n1: the most scenes
export const A_NO_FREE_ID = 40;
export const A_ONE_SHOT_NOT_STORED = 41;
export const A_PALETTE_STORE_UNREADABLE = 42;
export const A_PALETTE_CORRUPT = 43;
export const A_PALETTE_UNREADABLE = 44;
export const A_PALETTE_NOT_STORED = 45;
export const A_PALETTE_NOT_DELETED = 46;
/** The subject as the error, with 403, 422, 409 or 507. */
export const A_FORBIDDEN = 47;
export const A_FAILED = 48;
export const A_CONFLICT = 49;
export const A_FULL = 50;
/** No such panel: a path segment that is not a number, or panel n1, and the panels 1-n2; then the
 * same when no panels are discovered (api/panels.ts adds 1 and 2 to A_NO_PANEL). */
export const A_NO_PANEL = 51;
export const A_NO_PANEL_NUMBER = 52;
export const A_NO_PANEL_NONE = 53;
export const A_NO_PANEL_NUMBER_NONE = 54;

// A status as a byte: its hundreds less two, times 32, plus the rest (at most 31).
const S200: u8 = 0;
const S202: u8 = 2;
const S204: u8 = 4;
const S400: u8 = 64;
const S403: u8 = 67;
const S404: u8 = 68;
const S405: u8 = 69;
const S409: u8 = 73;
const S413: u8 = 77;
const S414: u8 = 78;
const S421: u8 = 85;
const S422: u8 = 86;
const S431: u8 = 95;
const S500: u8 = 96;
const S503: u8 = 99;
const S507: u8 = 103;

/** The rows' statuses, row by row (line 0 has none). */
// prettier-ignore
const STATUS = memory.data<u8>([
  0, S200, S202, S204, S404, S405, S413, S503, // 0-7
  S422, S400, S414, S431, S400, S421, S403, // 8-14
  S507, S500, S409, S409, S404, S404, S409, S507, S422, // 15-23
  S200, S200, S202, S202, S202, S202, S200, S200, // 24-31
  S500, S500, S507, S507, S500, S500, S500, S507, S500, // 32-40
  S500, S500, S500, S500, S500, S500, // 41-46
  S403, S422, S409, S507, // 47-50
  S404, S404, S404, S404, // 51-54
]);

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

/** Writes marker `m` of a row's body (json/template.ts fill). */
function putMarker(m: i32): void {
  if (m == 1) w.strBody(changetype<string>(load<usize>(VALUES)));
  else if (m == 4) w.decimal(<f64>load<i64>(VALUES, 8) / 1000);
  else w.int(load<i64>(VALUES + ((<usize>m - 1) << 3)));
}

/** Answers `req` with row `a` of the table. */
export function answer(req: u32, a: i32): void {
  if (a == A_INVALID && broken) a = A_SYNTAX;
  if (a == A_SYNTAX) counted(about(errorReason(), a), errorOffset);
  else if (a == A_INVALID) about(validationError(), a);
  const s = <u32>load<u8>(STATUS + a);
  w.begin(req, 200 + (s >> 5) * 100 + (s & 31));
  let p = t.Z_ANSWERS;
  for (let k = a; k > 0; p++) if (load<u8>(p) == 0x0a) k--;
  let e = p;
  while (load<u8>(e) != 0x0a) e++; // every line ends with one
  fill(p, <u32>(e - p), putMarker);
  w.finish();
}

/** The row for a failed store write (store/kv.ts): 507 storage_full when the store is full. */
export function storeFailure(rc: i32): i32 {
  return rc == STORE_FULL ? A_STORAGE_FULL : A_STORAGE_ERROR;
}
