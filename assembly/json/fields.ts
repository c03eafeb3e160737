// Small documents' validation as tables (appearance, configuration, MQTT settings, the setup form,
// the power switch): a document is its key list (also the accepted-fields list of an unknown
// field's message) and a table of rows, read by `checkFields`. A row is one field, in the order the
// fields are checked (the first problem found is the 422 message, "<path>: <rule>"): its key (an
// index into the key list), its kind and range, and where its value goes (the byte offset of a
// field of the target object: offsetof<Class>("field")). A field with a check of its own (a colour
// list, host names, a palette by name, a palette's name and stops) is in the key list but not in the
// rows: its document checks it after them. A document with no rows (count 0) gets the object and
// accepted-fields checks alone. This file is the one place for that check in the small documents
// (scene documents have their key tables, scene/validate.ts).
import { member, firstMember, nextMember, kindOf, numberValue, stringValue, intIn, J_TRUE } from "./reader";
import { expectObject, expectHexColor, expectBool, expectInt, expectString, fail } from "./validate";

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
/** An integer that must be lo ("<key>: must be <lo>"; a schema version): an i32. */
export const F_EQUALS: u16 = 7;
/** Or'ed into a kind: the field must be present ("<key>: is required"). */
export const F_REQUIRED: u16 = 8;

/** The u16s of a row: key index, kind, lo, hi, offset in the target. */
export const ROW: i32 = 5;

/** The fields present in the last document checked, a bit per key index. */
export let present: u32 = 0;

/** Checks object `v`: only `allowed` keys, then the `count` rows at `rows` (their keys indexes into
 * `keys`), each value stored into the object at `target`. False after recording the first problem. */
export function checkFields(
  v: i32,
  allowed: StaticArray<string>,
  keys: StaticArray<string>,
  rows: usize,
  count: i32,
  target: usize,
): bool {
  present = 0;
  if (!expectObject(v, "")) return false;
  for (let m = firstMember(v); m >= 0; m = nextMember(v, m)) {
    const key = stringValue(m);
    if (!allowed.includes(key)) return fail(key, "unknown field (accepted: " + allowed.join(", ") + ")");
  }
  for (let r = 0; r < count; r++) {
    const row = rows + <usize>(r * ROW * 2);
    const k = <i32>load<u16>(row);
    const kind = load<u16>(row, 2);
    const lo = <i32>load<u16>(row, 4);
    const hi = <i32>load<u16>(row, 6);
    const at = target + <usize>load<u16>(row, 8);
    const key = keys[k];
    const t = member(v, key);
    if (t < 0) {
      if (kind & F_REQUIRED) return fail(key, "is required");
      continue;
    }
    present |= 1 << k;
    const type = kind & 7;
    if (type == F_BOOL) {
      if (!expectBool(t, key)) return false;
      store<bool>(at, kindOf(t) == J_TRUE);
    } else if (type == F_INT) {
      if (!expectInt(t, key, lo, hi)) return false;
      store<i32>(at, <i32>numberValue(t));
    } else if (type == F_EQUALS) {
      if (intIn(t, lo, lo, -1) != lo) return fail(key, "must be " + lo.toString());
      store<i32>(at, lo);
    } else if (type == F_COLOR) {
      const rgb = expectHexColor(t, key);
      if (rgb < 0) return false;
      store<i32>(at, rgb);
    } else {
      if (!expectString(t, key)) return false;
      const s = stringValue(t);
      if (type == F_BYTES) {
        const n = String.UTF8.byteLength(s);
        if (n < lo || n > hi) return fail(key, "must be " + lo.toString() + "-" + hi.toString() + " bytes");
      } else if (s.length > hi) return fail(key, "must be at most " + hi.toString() + " characters");
      if (type == F_TOPIC && !topicPrefix(s)) return fail(key, "must be a topic without wildcards or outer slashes");
      store<usize>(at, changetype<usize>(s));
      __link(target, changetype<usize>(s), false); // what a field assignment does after the store
    }
  }
  return true;
}

/** No MQTT wildcard (`+`, `#`) and no slash at either end. */
function topicPrefix(s: string): bool {
  const n = s.length;
  if (n > 0 && (s.charCodeAt(0) == 0x2f || s.charCodeAt(n - 1) == 0x2f)) return false;
  for (let i = 0; i < n; i++) {
    const c = s.charCodeAt(i);
    if (c == 0x2b || c == 0x23) return false;
  }
  return true;
}
