// Small documents' validation as tables (appearance, configuration, MQTT settings, palettes, the
// setup form, the power switch, panel and playback bodies), read as they stream (json/stream.ts): a
// document is its key list (also the accepted-fields list of an unknown field's message) and a table
// of rows, read by `checkFields`. The key list is a name list (util/names.ts). A row is one field, in the order the fields are checked (the first
// problem found is the 422 message, "<path>: <rule>"): its key (an index into the key list), its kind
// and range, and where its value goes (the byte offset of a field of the target object:
// offsetof<Class>("field")). A container with a check of its own (a colour list, host names, a
// palette's stops) is read by the document's `own` function as it comes; its row of kind F_OWN, if it
// has one, gives its problem its turn among the rows' (else the document asks, problem). A field with
// no row at all is kept for its document to check after the rows (kindAt, numberAt, stringAt).
// Nothing is read twice, yet the order of the messages is the order of the checks: each field's
// problem is kept until its turn. A document with no rows
// (count 0) gets the object and accepted-fields checks alone. This file is the one place for that
// check in the small documents (scene documents have their key tables, scene/validate.ts).
import * as S from "./stream";
import { J_TRUE, J_FALSE, J_NUMBER, J_STRING, J_OBJECT } from "./reader";
import { isIntIn, colorRead, nameOfKind, fail, failMessage, takeError } from "./validate";
import { Names, nameIndex, nameString, nameList, nameCount } from "../util/names";
import { utf8Decode } from "../util/utf8";
import { intText } from "../util/int-text";

/** true or false: a bool at the offset. */
export const F_BOOL: u16 = 1;
/** An integer lo-hi: an i32. */
export const F_INT: u16 = 2;
/** A string of at most hi characters (UTF-16 units): a string. */
export const F_TEXT: u16 = 3;
/** An F_TEXT that is an MQTT topic prefix: no wildcards, no slash at either end. */
export const F_TOPIC: u16 = 4;
/** A string of lo-hi UTF-8 bytes: a string. */
export const F_BYTES: u16 = 5;
/** A colour "#RRGGBB" (either case): an i32 0xRRGGBB. */
export const F_COLOR: u16 = 6;
/** An integer that must be lo ("<key>: must be <lo>"; a schema version): checked, stored nowhere (its
 * value is known; the palette passes no target). */
export const F_EQUALS: u16 = 7;
/** A field read by the document's `own` (kind 0): its row only gives its problem its turn. */
export const F_OWN: u16 = 0;
/** Or'ed into a kind: the field must be present ("<key>: is required"). */
export const F_REQUIRED: u16 = 8;

/** The u16s of a row: key index, kind, lo, hi, offset in the target. */
export const ROW: i32 = 5;

/** The fields present in the last document checked, a bit per key index. */
export let present: u32 = 0;

/** A document's reader of its own container fields: called for key index `k` once value() has read
 * the start of a value of kind `kind`; reads the rest (S.skipRest for what it ignores) and records
 * its first problem (json/validate fail), which is kept for the field's turn. */
export type Own = (k: i32, kind: u32, target: usize) => void;

/** The `own` of a document without container fields: it skips them. */
export function skipOwn(_k: i32, kind: u32, _target: usize): void {
  S.skipRest(kind);
}

// Per key of the document last checked, SLOT bytes: its problem (a string, 0: none), a scalar's
// string (0: none), its kind, its number (an integer's: bit 8 of the kind).
const SLOT: usize = 24;
const slots = memory.data(sizeof<usize>()); // where they are (static memory, not a global)

/** The slot of key `k` of the document last checked. */
function slot(k: i32): usize {
  return load<usize>(slots) + <usize>k * SLOT;
}
const INTEGER: u32 = 0x100;

/**
 * Reads the value whose start S.value() returned as `kind` (the root, or a field of a document being
 * read): it must be an object with only keys among the first `accepted` of `keys`, then the `count`
 * rows at `rows` (their keys indexes into `keys`) are checked, each value stored into the object at
 * `target`. Reads the whole document (a syntax error anywhere is S.broken). False after recording the
 * first problem or on a syntax error.
 */
export function checkFields(
  kind: u32,
  keys: Names,
  rows: usize,
  count: i32,
  target: usize,
  own: Own,
  accepted: i32,
): bool {
  const n = min(nameCount(keys), accepted);
  const mine = heap.alloc(<usize>n * SLOT);
  memory.fill(mine, 0, <usize>n * SLOT);
  let seen: u32 = 0;
  const end = rows + <usize>(count * ROW * 2);
  let unknown: usize = 0; // the first key not allowed (a string; "" is a key)
  if (kind == J_OBJECT) {
    while (S.member()) {
      let k = nameIndex(keys, S.text, S.textBytes);
      if (<u32>k >= <u32>n) k = n;
      if (k < n && (seen & (1 << k)) != 0) {
        S.duplicateKey();
        break;
      }
      if (k == n) {
        if (!unknown) unknown = changetype<usize>(utf8Decode(S.text, S.textLength));
        S.skipValue();
        continue;
      }
      seen |= 1 << k;
      const slot = mine + <usize>k * SLOT;
      const vk = S.value();
      let row = rows;
      while (row < end && <i32>load<u16>(row) != k) row += ROW * 2;
      if (row < end && load<u16>(row, 2) & 7) {
        const rule = rowRule(row, target);
        if (rule.length > 0) fail(nameString(keys, k), rule);
        S.skipRest(vk);
      } else {
        store<u32>(slot, vk | (S.numberInteger && S.numberLength <= 16 ? INTEGER : 0), 8);
        store<f64>(slot, S.numberValue, 16);
        if (vk == J_STRING) store<usize>(slot, changetype<usize>(utf8Decode(S.text, S.textLength)), 4);
        own(k, vk, target);
      }
      const e = takeError();
      if (e.length > 0) store<usize>(slot, changetype<usize>(e));
    }
  } else S.skipRest(kind);
  if (S.depth == 0) S.finish();
  store<usize>(slots, mine);
  present = seen;
  if (S.broken) return false;
  if (kind != J_OBJECT) return fail("", "must be an object, not " + nameOfKind(kind));
  if (unknown) return fail(changetype<string>(unknown), "unknown field (accepted: " + nameList(keys, n) + ")");
  for (let row = rows; row < end; row += ROW * 2) {
    const k = <i32>load<u16>(row);
    if ((seen & (1 << k)) == 0) {
      if (load<u16>(row, 2) & F_REQUIRED) return fail(nameString(keys, k), "is required");
    } else if (problem(k)) return false;
  }
  return true;
}

/** `path[i]`: an array element's path (a colour list's, host names', a palette's stops). */
export function indexPath(path: string, i: i32): string {
  return path + "[" + intText(i) + "]";
}

/** Records the problem of field `k` of the document last checked, if it had one; true then. */
export function problem(k: i32): bool {
  const e = load<usize>(slot(k));
  if (e) failMessage(changetype<string>(e));
  return e != 0;
}

/** The kind (J_*) of field `k` (a field without a row; present). */
export function kindAt(k: i32): u32 {
  return load<u8>(slot(k), 8);
}

export function numberAt(k: i32): f64 {
  return load<f64>(slot(k), 16);
}

/** Whether field `k` is an integer in [lo, hi]. */
export function intAt(k: i32, lo: i32, hi: i32): bool {
  const v = numberAt(k);
  return load<u32>(slot(k), 8) == (J_NUMBER | INTEGER) && v >= <f64>lo && v <= <f64>hi;
}

/** The string of field `k` (the first S.TEXT_CAP bytes), or "" for another kind. */
export function stringAt(k: i32): string {
  const s = load<usize>(slot(k), 4);
  return s ? changetype<string>(s) : "";
}

/** Checks the value just read against a row, storing it into the target when it passes: "" then,
 * else the rule it breaks. @message-returns: its texts go to the UTF-8 message table. */
function rowRule(row: usize, target: usize): string {
  const kind = load<u16>(row, 2);
  const lo = <i32>load<u16>(row, 4);
  const hi = <i32>load<u16>(row, 6);
  const at = target + <usize>load<u16>(row, 8);
  const type = kind & 7;
  if (type == F_BOOL) {
    if (S.kind != J_TRUE && S.kind != J_FALSE) return "must be a boolean, not " + nameOfKind(S.kind);
    store<bool>(at, S.kind == J_TRUE);
  } else if (type == F_INT) {
    if (!isIntIn(lo, hi)) return "must be an integer " + intText(lo) + "-" + intText(hi);
    store<i32>(at, <i32>S.numberValue);
  } else if (type == F_EQUALS) {
    if (!isIntIn(lo, lo)) return "must be " + intText(lo);
  } else if (type == F_COLOR) {
    const rgb = colorRead();
    if (rgb < 0) return 'must be a colour "#RRGGBB"';
    store<i32>(at, rgb);
  } else {
    if (S.kind != J_STRING) return "must be a string, not " + nameOfKind(S.kind);
    // a longer string than `text` keeps is longer than every row allows (64 characters, 64 bytes)
    const s = utf8Decode(S.text, S.textLength);
    if (type == F_BYTES) {
      const n = <i32>S.textBytes;
      if (n < lo || n > hi) return "must be " + intText(lo) + "-" + intText(hi) + " bytes";
    } else if (s.length > hi) return "must be at most " + intText(hi) + " characters";
    else if (type == F_TOPIC && !topicPrefix()) return "must be a topic without wildcards or outer slashes";
    store<usize>(at, changetype<usize>(s));
    __link(target, changetype<usize>(s), false); // what a field assignment does after the store
  }
  return "";
}

/** No MQTT wildcard (`+`, `#`) and no slash at either end, in the string just read (whole in `text`:
 * a row's string is at most 64 characters). */
function topicPrefix(): bool {
  const p = S.text;
  const n = S.textLength;
  let ok = n == 0 || (load<u8>(p) != 0x2f && load<u8>(p + n - 1) != 0x2f);
  for (let i: u32 = 0; i < n; i++) {
    const c = load<u8>(p + i);
    if (c == 0x2b || c == 0x23) ok = false;
  }
  return ok;
}
