// The scene pass's helpers (scene/object-reader.ts and the levels' own fields): the JSON path of the value
// being checked, kept as a stack of segments (a key's name-list entry or an index) so that a valid
// document builds no path string at all; the first failure; schemaVersion gates, which a document
// may declare after what they gate; and the value just read by the streaming tokenizer
// (json/stream.ts) checked at the current path. Messages are only built when a check fails.
import { J_STRING, J_TRUE, J_FALSE, J_NUMBER, piece } from "../json/reader";
import { kind, text, textLength, numberInteger, numberValue } from "../json/stream";
import { fail, failMessage, validationError, resetErrors, nameOfKind } from "../json/validate";
import { arenaTop, arenaKeepLast } from "../rt/arena";
import { Names, nameString, nameEntry } from "../util/names";
import { RUNNERS, ANIMATES } from "./names";
import { Fixed } from "../rt/fixed";
import { utf8Decode } from "../util/utf8";
import { intText } from "../util/int-text";

/** Whether every byte of [p, p+n) is an ASCII digit or lowercase letter, or (with `more`) an
 * uppercase letter, '_' or '-' (scene ids; step ids). */
export function idChars(p: usize, n: u32, more: bool): bool {
  for (let i: u32 = 0; i < n; i++) {
    const c = <u32>load<u8>(p + i);
    const other = (c - 0x41 <= 25) | (c == 0x5f) | (c == 0x2d);
    if (!((c - 0x30 <= 9) | (c - 0x61 <= 25) | (more & other))) return false;
  }
  return true;
}

/** A decimal integer of 1-5 digits in [p, p+n), or -1. */
export function parseDecimal(p: usize, n: u32): i32 {
  if (n - 1 >= 5) return -1;
  let v = 0;
  for (let i: u32 = 0; i < n; i++) {
    const d = <u32>load<u8>(p + i) - 0x30;
    if (d > 9) return -1;
    v = v * 10 + d;
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
  return '"' + utf8Decode(p, n) + '"';
}

/** A hash of [p, p+n) (names and step ids are compared by it: 64 bits, no table of their text). */
export function textHash(p: usize, n: u32): u64 {
  let h: u64 = 0xcbf29ce484222325 ^ (<u64>n);
  for (let i: u32 = 0; i < n; i++) h = (h ^ (<u64>load<u8>(p + i))) * 0x100000001b3;
  return h;
}

// ---- the JSON path of the value being checked -------------------------------------------------
// A segment is a key, as the address of its name-list entry (a length byte, then the name), or an
// index i, as ~i; CURRENT_KEY is the key json/stream.ts has just read (an unknown one).

// (a scene's deepest path has 11 segments: layers[i].fallback.not.any[j].not.any[k].exclude[m]; pushes
// past MAX_SEGMENTS wrap, pops never pass the pushes)
const MAX_SEGMENTS = 32;
const segments = changetype<Fixed<i32>>(memory.data(MAX_SEGMENTS * 4));
/** A segment: the key member() has just read, from the tokenizer's text. */
export const CURRENT_KEY = 1;
let depth = 0;

export function pathReset(): void {
  depth = 0;
}

/** Pushes a key: its name-list entry (util/names.ts nameEntry), or CURRENT_KEY. */
export function pushKey(entry: usize): void {
  segments[depth++ & (MAX_SEGMENTS - 1)] = <i32>entry;
}

export function pushIndex(i: i32): void {
  segments[depth++ & (MAX_SEGMENTS - 1)] = ~i;
}

export function pop(): void {
  if (depth > 0) depth--;
}

/** The name of key segment `s`. */
function keyName(s: i32): string {
  if (s == CURRENT_KEY) return utf8Decode(text, textLength);
  return utf8Decode(<usize>s + 1, load<u8>(<usize>s));
}

/** The current path, e.g. `layers[2].sequence[0].duration`. */
export function here(): string {
  let s = "";
  for (let i = 0; i < min(depth, MAX_SEGMENTS); i++) {
    const g = segments[i];
    if (g < 0) s += "[" + intText(~g) + "]";
    else s = s.length == 0 ? keyName(g) : s + "." + keyName(g);
  }
  return s;
}

/** Records `rule` at the current path; returns false. @message-id rule (json/validate.ts fail). */
export function bad(rule: string): bool {
  noteError();
  return fail(here(), rule);
}

/** Records "unknown field (accepted: <accepted>)" at the key just read; returns false. @message-args:
 * its literal texts go to the UTF-8 message table (scripts/messages-transform.mjs). */
export function unknownAt(accepted: string): bool {
  pushKey(CURRENT_KEY);
  return bad("unknown field (accepted: " + accepted + ")");
}

/** Records `rule` at member `k` of `keys` (a name list) under the current path; returns false.
 * @message-id rule (json/validate.ts fail). */
export function badAt(keys: Names, k: i32, rule: string): bool {
  pushKey(nameEntry(keys, k));
  bad(rule);
  pop();
  return false;
}

// ---- schemaVersion gates ------------------------------------------------------------------------
// What needs a schemaVersion is checked against it at once when the document declared it before;
// else the first use of each version is kept (its message) and judged at the end, when the
// version is known: a use above it is the document's error if it came before any other.

/** What a gate's message names (whatNeeds), built only when it fails or is kept: the member's key,
 * a phrase, or a name of a list (W_RUNNER, W_ANIMATES: | its index << 8). */
export const W_KEY = 0;
export const W_NAMED_GROUPS = 1;
export const W_SOURCE_GEOMETRIC = 2;
export const W_STEP_ID = 3;
export const W_GAP = 4;
/** A name of object-reader.ts's lists: W_RUNNER + its list (runners, animates, directionality). */
export const W_RUNNER = 5;
export const W_ANIMATES = 6;
export const W_GEOMETRIC = 7;

/** The document's schemaVersion, once read (the pass sets it); until then every gate passes. */
export let schemaKnown = false;
export let schema = 1;
/** The gate messages kept (gateSlow), in the order they came, and the version each needs; which
 * versions have one (a bit each). */
const gateMessage = changetype<Fixed<usize>>(memory.data(16 * 4));
const gateVersion = changetype<Fixed<i32>>(memory.data(16 * 4));
let gateVersions: u32 = 0;
let gates = 0;
let gatesBeforeError = -1; // gates recorded when the first other error was

export function gatesReset(known: bool, version: i32): void {
  schemaKnown = known;
  schema = version;
  gateVersions = 0;
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

/** "<what> needs" (or "need") for a gate's message. @message-returns: its texts go to the message
 * table. */
function whatNeeds(what: u32): string {
  const i = <i32>(what >> 8);
  const w = what & 0xff;
  if (w == W_KEY) return keyName(segments[(depth - 1) & (MAX_SEGMENTS - 1)]) + " needs";
  if (w == W_RUNNER) return nameString(RUNNERS, i) + " needs";
  if (w == W_ANIMATES) return "animates " + nameString(ANIMATES, i) + " needs";
  return piece(phrases(), w);
}

/** The phrases of whatNeeds by W_* (the names' pieces empty), as one text (json/reader.ts piece).
 * @message-returns: it goes to the UTF-8 message table (scripts/messages-transform.mjs). */
function phrases(): string {
  return '|named groups need|source "geometric" needs|a step id needs|a gap step needs|||geometric directionality needs';
}

/** What `what` names (W_*) needs schemaVersion `version`: true when it may be used (so far). The
 * message, "<what> needs schemaVersion N or later", is only built when it fails or is kept. */
export function gate(version: i32, what: u32): bool {
  // (most uses pass; the rest is after this, not in a block the passing path has to skip)
  if ((version <= 1) | (schemaKnown & (schema >= version))) return true;
  return gateSlow(version, what);
}

/** "<what> needs schemaVersion N or later". @message-returns: its texts go to the message table. */
function gateRule(version: i32, what: u32): string {
  return whatNeeds(what) + " schemaVersion " + intText(version) + " or later";
}

function gateSlow(version: i32, what: u32): bool {
  if (schemaKnown) return bad(gateRule(version, what));
  if (version < 16 && (gateVersions & (1 << version)) == 0) {
    // one string kept per version, without the partial ones (a document with its schemaVersion last
    // records up to 15)
    gateVersions |= 1 << version;
    const mark = arenaTop();
    const message = here() + ": " + gateRule(version, what);
    gateMessage[gates] = changetype<usize>(arenaKeepLast(mark, message));
    gateVersion[gates++] = version;
  }
  return true;
}

/** At the end, with the schemaVersion known: the earliest gated use above it that came before the
 * first other error becomes the error. */
export function judgeGates(): void {
  // (before that error: as unsigned, -1 is past every gate)
  for (let i = 0; <u32>i < min(<u32>gates, <u32>gatesBeforeError); i++) {
    if (gateVersion[i] > schema) {
      resetErrors();
      failMessage(changetype<string>(gateMessage[i]));
      return;
    }
  }
}

// ---- the value just read, checked at the current path ---------------------------------------------

/** The kind of the value just read, for messages. */
function kindName(): string {
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
  if (v < 0) bad("must be an integer " + intText(lo) + "-" + intText(hi));
  return v;
}

export function needBool(): bool {
  return kind == J_TRUE || kind == J_FALSE || bad("must be a boolean, not " + kindName());
}

export function needString(): bool {
  return kind == J_STRING || bad("must be a string, not " + kindName());
}
