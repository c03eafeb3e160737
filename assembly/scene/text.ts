// Byte-level access to string tokens of the open JSON document without allocating: a string
// without escapes is read straight from the source bytes; one with escapes (rare in scenes) is
// decoded once into a scratch buffer. Also the JSON path of the first validation failure, kept as
// a stack of segments so that a valid document builds no path strings at all.
import {
  kindOf,
  sourceOf,
  lengthOf,
  stringValue,
  stringEquals,
  intIn,
  J_STRING,
  J_TRUE,
  J_FALSE,
  stringHasEscape as hasEscape,
} from "../json/reader";
import { fail, kindName } from "../json/validate";

/** Where the text of the last `textOf` call starts, and its byte length. */
export let tp: usize = 0;
export let tl: u32 = 0;
let scratch: ArrayBuffer | null = null;

/** Points tp/tl at the UTF-8 text of string token t (decoded when it has escapes). */
export function textOf(t: i32): void {
  if (!hasEscape(t)) {
    tp = sourceOf(t);
    tl = lengthOf(t);
    return;
  }
  const buf = String.UTF8.encode(stringValue(t));
  scratch = buf;
  tp = changetype<usize>(buf);
  tl = <u32>buf.byteLength;
}

/** True when string token t's text equals the bytes [p, p+n). */
export function textEquals(t: i32, p: usize, n: u32): bool {
  if (kindOf(t) != J_STRING) return false;
  if (!hasEscape(t)) return lengthOf(t) == n && memory.compare(sourceOf(t), p, n) == 0;
  const buf = String.UTF8.encode(stringValue(t));
  return <u32>buf.byteLength == n && memory.compare(changetype<usize>(buf), p, n) == 0;
}

/** True when two string tokens hold the same text. */
export function sameText(a: i32, b: i32): bool {
  if (!hasEscape(a)) return textEquals(b, sourceOf(a), lengthOf(a));
  textOf(a);
  return textEquals(b, tp, tl);
}

/** Whether [p, p+n) starts with the ASCII `prefix`. */
export function startsWith(p: usize, n: u32, prefix: string): bool {
  const k = <u32>prefix.length;
  if (n < k) return false;
  for (let i: u32 = 0; i < k; i++) if (<u32>load<u8>(p + i) != <u32>prefix.charCodeAt(i)) return false;
  return true;
}

/** Whether [p, p+n) equals the ASCII `s`. */
export function bytesAre(p: usize, n: u32, s: string): bool {
  return n == <u32>s.length && startsWith(p, n, s);
}

/** A decimal integer of 1-5 digits in [p, p+n), or -1. */
export function parseDecimal(p: usize, n: u32): i32 {
  if (n == 0 || n > 5) return -1;
  let v = 0;
  for (let i: u32 = 0; i < n; i++) {
    const c = <i32>load<u8>(p + i);
    if (c < 0x30 || c > 0x39) return -1;
    v = v * 10 + c - 0x30;
  }
  return v;
}

/** Characters (code points) of valid UTF-8 text. */
export function charCount(p: usize, n: u32): u32 {
  let count: u32 = 0;
  for (let i: u32 = 0; i < n; i++) if ((load<u8>(p + i) & 0xc0) != 0x80) count++;
  return count;
}

/** Whether valid UTF-8 text holds a control character (U+0000-U+001F, U+007F-U+009F). */
export function hasControl(p: usize, n: u32): bool {
  for (let i: u32 = 0; i < n; i++) {
    const c = load<u8>(p + i);
    if (c < 0x20 || c == 0x7f) return true;
    if (c == 0xc2 && i + 1 < n && load<u8>(p + i + 1) < 0xa0) return true;
  }
  return false;
}

/** The index of the first `c` in [p, p+n), or -1. */
export function indexOfByte(p: usize, n: u32, c: u8): i32 {
  for (let i: u32 = 0; i < n; i++) if (load<u8>(p + i) == c) return <i32>i;
  return -1;
}

/** The text [p, p+n) as a quoted string, for error messages (allocates). */
export function quote(p: usize, n: u32): string {
  return '"' + String.UTF8.decodeUnsafe(p, n) + '"';
}

// ---- the JSON path of the value being checked -------------------------------------------------

const MAX_SEGMENTS = 24;
const segKey = new StaticArray<string | null>(MAX_SEGMENTS);
const segIndex = new StaticArray<i32>(MAX_SEGMENTS);
let depth = 0;

export function pathReset(): void {
  depth = 0;
}

export function pushKey(key: string): void {
  if (depth < MAX_SEGMENTS) {
    unchecked((segKey[depth] = key));
    unchecked((segIndex[depth] = -1));
  }
  depth++;
}

export function pushIndex(i: i32): void {
  if (depth < MAX_SEGMENTS) unchecked((segIndex[depth] = i));
  depth++;
}

export function pop(): void {
  if (depth > 0) depth--;
}

/** The current path, e.g. `layers[2].sequence[0].duration`. */
export function here(): string {
  let s = "";
  for (let i = 0; i < min(depth, MAX_SEGMENTS); i++) {
    const key = segKey[i];
    if (segIndex[i] < 0 && key !== null) s = s.length == 0 ? key : s + "." + key;
    else s += "[" + segIndex[i].toString() + "]";
  }
  return s;
}

/** Records `rule` at the current path; returns false. */
export function bad(rule: string): bool {
  return fail(here(), rule);
}

/** Records "unknown field (accepted: <accepted>)" at member `key`; returns false. @message-args: its
 * literal texts go to the UTF-8 message table (scripts/messages-transform.mjs). */
export function unknownAt(key: string, accepted: string): bool {
  return badAt(key, "unknown field (accepted: " + accepted + ")");
}

/** Records `rule` at member `key` of the current path; returns false. */
export function badAt(key: string, rule: string): bool {
  pushKey(key);
  fail(here(), rule);
  pop();
  return false;
}

// ---- typed values, checked at the current path -------------------------------------------------

/** The value of an integer token within [lo, hi] (lo >= 0), or -1. */
export function intOf(t: i32, lo: i32, hi: i32): i32 {
  return <i32>intIn(t, <i64>lo, <i64>hi, -1);
}

/** An integer within [lo, hi] at the current path; its value, or -1 after recording the failure. */
export function needInt(t: i32, lo: i32, hi: i32): i32 {
  const v = intOf(t, lo, hi);
  if (v < 0) bad("must be an integer " + lo.toString() + "-" + hi.toString());
  return v;
}

/** An integer within [lo, hi] at member `key` of the current path. */
export function needIntAt(t: i32, key: string, lo: i32, hi: i32): bool {
  pushKey(key);
  const ok = needInt(t, lo, hi) >= 0;
  pop();
  return ok;
}

export function needBool(t: i32): bool {
  const k = kindOf(t);
  return k == J_TRUE || k == J_FALSE || bad("must be a boolean, not " + kindName(t));
}

export function needString(t: i32): bool {
  return kindOf(t) == J_STRING || bad("must be a string, not " + kindName(t));
}

// ---- fast key lookup -----------------------------------------------------------------------------

/** A signature of an ASCII key: length, first and last byte. */
export function signature(s: string): u32 {
  const n = s.length;
  return n == 0 ? 0 : ((<u32>n) << 16) | ((<u32>s.charCodeAt(0)) << 8) | (<u32>s.charCodeAt(n - 1));
}

/** Slots of a key table's hash (more than twice the largest table's keys). */
const SLOTS = 64;

function slotOf(sig: u32): u32 {
  return (sig * 0x9e3779b1) >> 26;
}

/** The hash of a key table for `lookup`: per slot (open addressing) the signature of a key << 8 |
 * its index + 1, or 0. Keys are at most 255 bytes. */
export function signatures(keys: StaticArray<string>): StaticArray<u32> {
  const out = new StaticArray<u32>(SLOTS);
  for (let i = 0; i < keys.length; i++) {
    const sig = signature(keys[i]);
    let h = slotOf(sig);
    while (out[h] != 0) h = (h + 1) & (SLOTS - 1);
    out[h] = (sig << 8) | (<u32>i + 1);
  }
  return out;
}

/** The index of string token t in `keys` (with their `table` from signatures()), or -1: one probe
 * of the hash for most keys, where a scan of the table cost a validation 29 compares per member. */
export function lookup(t: i32, keys: StaticArray<string>, table: StaticArray<u32>): i32 {
  const n = lengthOf(t);
  if (kindOf(t) != J_STRING || n == 0) return -1;
  const p = sourceOf(t);
  const sig = (n << 16) | ((<u32>load<u8>(p)) << 8) | (<u32>load<u8>(p + n - 1));
  for (let h = slotOf(sig); ; h = (h + 1) & (SLOTS - 1)) {
    const e = unchecked(table[h]);
    if (e == 0) break;
    const k = <i32>(e & 0xff) - 1;
    if (e >> 8 == sig && stringEquals(t, unchecked(keys[k]))) return k;
  }
  // a key with escapes has another signature than its text: compare it with each (rare)
  if (hasEscape(t)) for (let k = 0; k < keys.length; k++) if (stringEquals(t, keys[k])) return k;
  return -1;
}
