// The scene pass's helpers (scene/validate.ts): the JSON path of the value being checked, kept as a
// stack of segments so that a valid document builds no path strings at all; the first failure;
// schemaVersion gates, which a document may declare after what they gate; the value just read by
// the streaming tokenizer (json/stream.ts) checked at the current path; and key tables.
import { J_STRING, J_TRUE, J_FALSE, J_NUMBER } from "../json/reader";
import { kind, text, textBytes, numberInteger, numberValue } from "../json/stream";
import { fail, failMessage, validationError, resetErrors, nameOfKind } from "../json/validate";
import { arenaTop, arenaKeepLast } from "../rt/arena";

/** The UTF-16 length of `s`, read from its header (no String#length call: these run for every key
 * and name). */
function units(s: string): u32 {
  return load<u32>(changetype<usize>(s) - 4) >> 1;
}

/** Whether [p, p+k) holds the ASCII `s` (k its length), compared unit by unit from memory. */
function same(p: usize, k: u32, s: string): bool {
  const q = changetype<usize>(s);
  for (let i: u32 = 0; i < k; i++) if (<u32>load<u8>(p + i) != <u32>load<u16>(q + ((<usize>i) << 1))) return false;
  return true;
}

/** Whether [p, p+n) starts with the ASCII `prefix`. */
export function startsWith(p: usize, n: u32, prefix: string): bool {
  const k = units(prefix);
  return n >= k && same(p, k, prefix);
}

/** Whether [p, p+n) equals the ASCII `s`. */
export function bytesAre(p: usize, n: u32, s: string): bool {
  return n == units(s) && same(p, n, s);
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

/** The index of the first `c` in [p, p+n), or -1. */
export function indexOfByte(p: usize, n: u32, c: u8): i32 {
  for (let i: u32 = 0; i < n; i++) if (load<u8>(p + i) == c) return <i32>i;
  return -1;
}

/** The text [p, p+n) as a quoted string, for error messages (allocates). */
export function quote(p: usize, n: u32): string {
  return '"' + String.UTF8.decodeUnsafe(p, n) + '"';
}

/** A hash of [p, p+n) (names and step ids are compared by it: 64 bits, no table of their text). */
export function textHash(p: usize, n: u32): u64 {
  let h: u64 = 0xcbf29ce484222325 ^ (<u64>n);
  for (let i: u32 = 0; i < n; i++) h = (h ^ (<u64>load<u8>(p + i))) * 0x100000001b3;
  return h;
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
  noteError();
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
  bad(rule);
  pop();
  return false;
}

// ---- schemaVersion gates ------------------------------------------------------------------------
// What needs a schemaVersion is checked against it at once when the document declared it before;
// else the first use of each version is kept (its message) and judged at the end, when the
// version is known: a use above it is the document's error if it came before any other.

/** The document's schemaVersion, once read (the pass sets it); until then every gate passes. */
export let schemaKnown = false;
export let schema = 1;
const gateMessage = new StaticArray<string | null>(16);
const gateOrder = new StaticArray<i32>(16);
let gates = 0;
let gatesBeforeError = -1; // gates recorded when the first other error was

export function gatesReset(known: bool, version: i32): void {
  schemaKnown = known;
  schema = version;
  for (let v = 0; v < 16; v++) gateMessage[v] = null;
  gates = 0;
  gatesBeforeError = -1;
}

export function setSchema(version: i32): void {
  schemaKnown = true;
  schema = version;
}

function noteError(): void {
  if (gatesBeforeError < 0 && validationError().length == 0) gatesBeforeError = gates;
}

/** `what` needs schemaVersion `version`: true when it may be used (so far). The message is only built
 * on failure: "<what> needs schemaVersion N or later". */
export function gate(version: i32, what: string, needs: string = " needs"): bool {
  // (most uses pass; the rest is after this, not in a block the passing path has to skip)
  if ((version <= 1) | (schemaKnown & (schema >= version))) return true;
  if (schemaKnown) return bad(what + needs + " schemaVersion " + version.toString() + " or later");
  if (version > 1 && version < 16 && gateMessage[version] === null) {
    // one string kept per version, without the partial ones (a document with its schemaVersion last
    // records up to 15)
    const mark = arenaTop();
    const message = here() + ": " + what + needs + " schemaVersion " + version.toString() + " or later";
    gateMessage[version] = arenaKeepLast(mark, message);
    gateOrder[version] = gates++;
  }
  return true;
}

/** Whether gate(version, …) would pass without building its message: a caller whose `what` is made
 * (a concatenation per step is garbage a one-page core cannot spare) asks this first. */
export function gatePasses(version: i32): bool {
  if (schemaKnown) return schema >= version;
  return version <= 1 || version >= 16 || gateMessage[version] !== null;
}

/** At the end, with the schemaVersion known: the earliest gated use above it that came before the
 * first other error becomes the error. */
export function judgeGates(): void {
  let best = -1;
  for (let v = schema + 1; v < 16; v++) {
    if (gateMessage[v] === null) continue;
    if (gatesBeforeError >= 0 && gateOrder[v] >= gatesBeforeError) continue;
    if (best < 0 || gateOrder[v] < gateOrder[best]) best = v;
  }
  if (best < 0) return;
  resetErrors();
  failMessage(gateMessage[best]!);
}

// ---- the value just read, checked at the current path ---------------------------------------------

/** The kind of the value just read, for messages. */
export function kindName(): string {
  return nameOfKind(kind);
}

/** The value just read as an integer within [lo, hi] (lo >= 0), or -1. */
export function intOf(lo: i32, hi: i32): i32 {
  if (kind != J_NUMBER || !numberInteger || numberValue < <f64>lo || numberValue > <f64>hi) return -1;
  return <i32>numberValue;
}

/** An integer within [lo, hi] at the current path; its value, or -1 after recording the failure. */
export function needInt(lo: i32, hi: i32): i32 {
  const v = intOf(lo, hi);
  if (v < 0) bad("must be an integer " + lo.toString() + "-" + hi.toString());
  return v;
}

export function needBool(): bool {
  return kind == J_TRUE || kind == J_FALSE || bad("must be a boolean, not " + kindName());
}

export function needString(): bool {
  return kind == J_STRING || bad("must be a string, not " + kindName());
}

/** The string just read is the ASCII `s`. */
export function textIs(s: string): bool {
  return bytesAre(text, textBytes, s);
}

/** The index of the string just read in `names`, or -1. */
export function nameIndex(names: StaticArray<string>): i32 {
  if (kind == J_STRING) for (let k = 0; k < names.length; k++) if (textIs(names[k])) return k;
  return -1;
}

/** "a, b, c", made as one string: a concatenation per name (or StaticArray#join, which the
 * optimised build makes of concatenations) keeps every partial list, 10 KB for a step's. */
export function list(names: StaticArray<string>): string {
  let units = 0;
  for (let k = 0; k < names.length; k++) units += names[k].length + (k > 0 ? 2 : 0);
  const out = changetype<usize>(__new((<usize>units) << 1, idof<string>()));
  let at = out;
  for (let k = 0; k < names.length; k++) {
    if (k > 0) {
      store<u32>(at, 0x0020002c); // ", "
      at += 4;
    }
    const n = (<usize>names[k].length) << 1;
    memory.copy(at, changetype<usize>(names[k]), n);
    at += n;
  }
  return changetype<string>(out);
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

/** The index of the key just read (json/stream.ts `text`) in `keys` (with their `table` from
 * signatures()), or -1: one probe of the hash for most keys. */
export function lookup(keys: StaticArray<string>, table: StaticArray<u32>): i32 {
  const n = textBytes;
  if (n - 1 > 254) return -1;
  const sig = (n << 16) | ((<u32>load<u8>(text)) << 8) | (<u32>load<u8>(text + n - 1));
  let h = (sig * 0x9e3779b1) >> 26; // slotOf
  while (true) {
    const e = load<u32>(changetype<usize>(table) + (h << 2));
    if (e == 0) return -1;
    if (e >> 8 == sig) {
      // the key's UTF-16 units against the text's bytes (the same length: its signature matched)
      const k = <i32>(e & 0xff) - 1;
      const q = changetype<usize>(unchecked(keys[k]));
      let i: u32 = 0;
      while (i < n && <u32>load<u8>(text + i) == <u32>load<u16>(q + (i << 1))) i++;
      if (i == n) return k;
    }
    h = (h + 1) & (SLOTS - 1);
  }
}
