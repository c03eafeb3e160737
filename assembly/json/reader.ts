// A strict, bounded JSON reader that builds no tree: one pass checks the document and records each
// value as one 8-byte token on a tape pointing back into the source bytes. A maximal scene (about
// 2,000 tokens) costs 16 KiB of tape, where a tree of objects would take ten times that.
// Rules: RFC 8259 syntax, valid UTF-8 only, nesting at most MAX_DEPTH, no duplicate object keys.
//
// Token i is one u32: kind (bits 0-2, J_*) | source offset (bits 3-18) | bits 19-31: the byte
// length of a string (without quotes) or number, or for an array or object the index of the token
// after its last one. Whether a string has escapes is read from its bytes. Kinds live in the token
// so a caller may overwrite source bytes it has consumed (scene storage writes in place).
// An object's members are a key token (a string) followed by the value's tokens.
// One document is open at a time (requests are handled one by one); it stays valid until the next
// parseJson or closeJson, and only while its source bytes live.

import * as S from "./stream";

export const J_NULL: u32 = 0;
export const J_FALSE: u32 = 1;
export const J_TRUE: u32 = 2;
export const J_NUMBER: u32 = 3;
export const J_STRING: u32 = 4;
export const J_ARRAY: u32 = 5;
export const J_OBJECT: u32 = 6;

export const MAX_DEPTH: i32 = 16;
/** Tokens per document; a maximal scene needs about 2,000. */
export const MAX_TOKENS: i32 = 4096;

export const PARSE_OK: i32 = 0;
export const PARSE_INVALID: i32 = 1;
export const PARSE_TOO_MANY_TOKENS: i32 = 2;

/** Documents larger than this are refused (offsets fit bits 3-18). */
const MAX_SOURCE: u32 = 0x10000;

let src: usize = 0;
let tape: usize = 0;
let cap: i32 = 0;
let count: i32 = 0;
let status: i32 = PARSE_OK;

// Why and where a document was refused (the 400 answer says both): the first failure's byte offset
// and its reason.
export const E_VALUE: u8 = 0;
export const E_KEY: u8 = 1;
export const E_COLON: u8 = 2;
export const E_SEPARATOR: u8 = 3;
export const E_DUPLICATE: u8 = 4;
export const E_NUMBER: u8 = 5;
export const E_ESCAPE: u8 = 6;
export const E_CONTROL: u8 = 7;
export const E_UTF8: u8 = 8;
export const E_LONG: u8 = 9;
export const E_DEPTH: u8 = 10;
export const E_TRAILING: u8 = 11;
export const E_END: u8 = 12;
export let errorOffset: u32 = 0;
let errorWhy: u8 = 0;

/** A document read as it streams (json/stream.ts) was refused at body offset `at` for `why` (E_*). */
export function refuse(at: u32, why: u8): void {
  errorOffset = at;
  errorWhy = why;
}

/** Why the last document was refused (PARSE_INVALID), for the 400 answer. Only called on that path:
 * scripts/messages-transform.mjs moves the texts to the UTF-8 message table (RULE_FUNCTIONS). */
export function errorReason(): string {
  switch (errorWhy) {
    case E_VALUE:
      return "expected a value";
    case E_KEY:
      return "expected a member name in double quotes";
    case E_COLON:
      return "expected ':'";
    case E_SEPARATOR:
      return "expected ',' or the closing bracket";
    case E_DUPLICATE:
      return "duplicate member name";
    case E_NUMBER:
      return "invalid number";
    case E_ESCAPE:
      return "invalid escape";
    case E_CONTROL:
      return "control character in a string (escape it)";
    case E_UTF8:
      return "invalid UTF-8";
    case E_LONG:
      return "string or number longer than 8191 bytes";
    case E_DEPTH:
      return "nested deeper than 16";
    case E_TRAILING:
      return "text after the document";
  }
  return "unexpected end of the document";
}

/** Parses the document in [ptr, ptr+len); the root value is token 0. */
export function parseJson(ptr: usize, len: u32): i32 {
  closeJson();
  src = ptr;
  if (len > MAX_SOURCE) return PARSE_TOO_MANY_TOKENS;
  cap = min(MAX_TOKENS, tokenBound(ptr, len));
  tape = heap.alloc((<usize>cap) << 2);
  count = 0;
  status = PARSE_OK;
  // the scanning is json/stream.ts's, over the document in memory: one set of syntax rules
  S.openMemory(ptr, len);
  value();
  S.finish();
  if (S.broken && status == PARSE_OK) status = PARSE_INVALID;
  if (status != PARSE_OK) closeJson();
  return status;
}

/** At most how many tokens the document can have: one more than its commas, colons and opening
 * brackets (a value follows each, and each key is followed by a colon), so a body padded with
 * white space or long strings does not take a tape of its size. */
function tokenBound(ptr: usize, len: u32): i32 {
  let n = 2;
  for (let p = ptr, e = ptr + len; p < e; p++) {
    const c = load<u8>(p);
    if (c == 0x2c || c == 0x3a || c == 0x5b || c == 0x7b) n++;
  }
  return n;
}

/** Frees the tape of the open document. */
export function closeJson(): void {
  if (tape) heap.free(tape);
  tape = 0;
  count = 0;
}

// ---- accessors -------------------------------------------------------------------------------

// Each accessor reads token i's word itself (tape + i * 4): a call costs an interpreter more than
// the load, and these run some 100,000 times for a maximal scene.
export function kindOf(i: i32): u32 {
  return load<u32>(tape + ((<usize>i) << 2)) & 7;
}

/** Where the value's text starts in the source (strings: after the opening quote). */
export function sourceOf(i: i32): usize {
  return src + ((load<u32>(tape + ((<usize>i) << 2)) >> 3) & 0xffff);
}

/** Byte length of a string's or number's text. */
export function lengthOf(i: i32): u32 {
  return load<u32>(tape + ((<usize>i) << 2)) >> 19;
}

/** The token after value i and everything inside it. */
export function after(i: i32): i32 {
  const w = load<u32>(tape + ((<usize>i) << 2));
  const k = w & 7;
  return k == J_ARRAY || k == J_OBJECT ? <i32>(w >> 19) : i + 1;
}

/** Elements of an array or members of an object. */
export function sizeOf(i: i32): i32 {
  const k = kindOf(i);
  if (k != J_ARRAY && k != J_OBJECT) return 0;
  const stop = after(i);
  let n = 0;
  for (let t = i + 1; t < stop; t = k == J_OBJECT ? after(t + 1) : after(t)) n++;
  return n;
}

/** The k-th element of an array. */
export function element(arr: i32, k: i32): i32 {
  let t = arr + 1;
  for (let n = 0; n < k; n++) t = after(t);
  return t;
}

/** First member (its key token) of an object, or -1; members continue with nextMember. */
export function firstMember(obj: i32): i32 {
  return kindOf(obj) == J_OBJECT && after(obj) > obj + 1 ? obj + 1 : -1;
}

export function nextMember(obj: i32, key: i32): i32 {
  const t = after(key + 1);
  return t < after(obj) ? t : -1;
}

/** The value token of member `name` of an object, or -1. */
export function member(obj: i32, name: string): i32 {
  if (kindOf(obj) != J_OBJECT) return -1;
  for (let m = firstMember(obj); m >= 0; m = nextMember(obj, m)) {
    if (stringEquals(m, name)) return m + 1;
  }
  return -1;
}

/** A string token's value (allocates). */
export function stringValue(i: i32): string {
  const p = sourceOf(i);
  const n = lengthOf(i);
  if (!hasEscape(p, n)) return String.UTF8.decodeUnsafe(p, n);
  return unescape(p, p + n);
}

function hasEscape(p: usize, n: u32): bool {
  for (let k: u32 = 0; k < n; k++) if (load<u8>(p + k) == 0x5c) return true;
  return false;
}

/** True when string token i contains an escape sequence (its source bytes are not its text). */
export function stringHasEscape(i: i32): bool {
  return hasEscape(sourceOf(i), lengthOf(i));
}

/** The value of one hexadecimal digit (either case), or -1. */
export function hexDigit(c: i32): i32 {
  if (c >= 0x30 && c <= 0x39) return c - 0x30;
  const l = c | 0x20;
  return l >= 0x61 && l <= 0x66 ? l - 0x57 : -1;
}

/** Compares a string token with an ASCII string without allocating. One pass, which stops at the
 * first difference (member lookups compare many keys): bytes before an escape are the text itself,
 * so only a token with an escape up to that point needs decoding. */
export function stringEquals(i: i32, s: string): bool {
  if (kindOf(i) != J_STRING) return false;
  const n = lengthOf(i);
  const m = <u32>s.length;
  const p = sourceOf(i);
  const q = changetype<usize>(s); // the UTF-16 units, read directly: no bounds check per call
  for (let k: u32 = 0; k < n; k++) {
    const c = <u32>load<u8>(p + k);
    if (c == 0x5c) return stringValue(i) == s;
    if (k >= m || c != <u32>load<u16>(q + ((<usize>k) << 1))) return false;
  }
  return n == m;
}

/** A number token is an integer when its text has no fraction or exponent. */
export function isInteger(i: i32): bool {
  if (kindOf(i) != J_NUMBER) return false;
  const p = sourceOf(i);
  const n = lengthOf(i);
  if (n > 16) return false;
  for (let k: u32 = 0; k < n; k++) {
    const c = load<u8>(p + k);
    if (c == 0x2e || c == 0x65 || c == 0x45) return false;
  }
  return true;
}

export function numberValue(i: i32): f64 {
  const p = sourceOf(i);
  const n = lengthOf(i);
  if (isInteger(i)) {
    let v: f64 = 0;
    const neg = load<u8>(p) == 0x2d;
    for (let k: u32 = neg ? 1 : 0; k < n; k++) v = v * 10 + <f64>(load<u8>(p + k) - 0x30);
    return neg ? -v : v;
  }
  return decimalValue(p, n);
}

/** Exact powers of ten (every one up to 1e22 is a double). */
function pow10(k: i32): f64 {
  let v: f64 = 1;
  for (let j = 0; j < k; j++) v *= 10;
  return v;
}

/** The value of a number the scanner has checked: the digits as an integer times a power of ten.
 * Exact (correctly rounded) when the digits fit 2^53 and the power is within 1e22, which covers
 * every fractional number the API takes (speeds, fractions); larger ones are close, not exact. */
export function decimalValue(p: usize, n: u32): f64 {
  let k: u32 = 0;
  const neg = load<u8>(p) == 0x2d;
  if (neg) k++;
  let mantissa: f64 = 0;
  let exp = 0;
  let c = load<u8>(p + k);
  for (; k < n && c != 0x2e && (c | 0x20) != 0x65; c = load<u8>(p + ++k)) mantissa = mantissa * 10 + <f64>(c - 0x30);
  if (k < n && c == 0x2e) {
    for (c = load<u8>(p + ++k); k < n && (c | 0x20) != 0x65; c = load<u8>(p + ++k)) {
      mantissa = mantissa * 10 + <f64>(c - 0x30);
      exp--;
    }
  }
  if (k < n) {
    const sign = load<u8>(p + ++k);
    const minus = sign == 0x2d;
    if (sign == 0x2d || sign == 0x2b) k++;
    let e = 0;
    for (; k < n && e < 100000; k++) e = e * 10 + <i32>(load<u8>(p + k) - 0x30);
    exp += minus ? -e : e;
  }
  let v = mantissa;
  while (exp > 22) {
    v *= 1e22;
    exp -= 22;
  }
  while (exp < -22) {
    v /= 1e22;
    exp += 22;
  }
  v = exp < 0 ? v / pow10(-exp) : v * pow10(exp);
  return neg ? -v : v;
}

/** The integer value of a token, when it is an integer within [lo, hi]; else `fallback`. One pass
 * over its digits (validation and compiling read some 4,000 integers for a maximal scene): a
 * fraction or exponent stops it, as the scanner let only digits, '-', '.', 'e', 'E' and '+' in. */
export function intIn(i: i32, lo: i64, hi: i64, fallback: i64): i64 {
  if (kindOf(i) != J_NUMBER) return fallback;
  const p = sourceOf(i);
  const n = lengthOf(i);
  if (n > 16) return fallback;
  const neg = load<u8>(p) == 0x2d;
  let v: i64 = 0;
  for (let k: u32 = neg ? 1 : 0; k < n; k++) {
    const d = <u32>load<u8>(p + k) - 0x30;
    if (d > 9) return fallback;
    v = v * 10 + <i64>d;
  }
  if (neg) v = -v;
  return v >= lo && v <= hi ? v : fallback;
}

// ---- the tape, from the streaming tokenizer ---------------------------------------------------

function token(kind: u32, at: u32): i32 {
  if (count == cap) {
    status = PARSE_TOO_MANY_TOKENS;
    S.stopAll();
    return -1;
  }
  const i = count++;
  store<u32>(tape + ((<usize>i) << 2), kind | (at << 3));
  return i;
}

/** Sets bits 19-31 of token t. */
function setHigh(t: i32, v: u32): void {
  const a = tape + ((<usize>t) << 2);
  store<u32>(a, (load<u32>(a) & 0x7ffff) | (v << 19));
}

/** One value and everything in it onto the tape. Strings and numbers longer than 8191 bytes are
 * refused by the tokenizer (their lengths fit bits 19-31). */
function value(): void {
  const k = S.value();
  if (S.broken) return;
  const at = S.startedAt;
  if (k == J_STRING) {
    const t = token(J_STRING, at + 1);
    if (t >= 0) setHigh(t, S.offset() - at - 2);
    return;
  }
  const t = token(k, at);
  if (t < 0) return;
  if (k == J_NUMBER) return setHigh(t, S.offset() - at);
  if (k == J_ARRAY) {
    while (S.element()) value();
  } else if (k == J_OBJECT) {
    // one bit per key hash (keyBit): a key whose bit is still clear repeats no earlier key, so the
    // scan of the earlier keys runs only on a hash collision, or once any key has an escape
    let seen: u64 = 0;
    let escaped = false;
    while (S.member()) {
      const key = token(J_STRING, S.keyAt + 1);
      if (key < 0) return;
      setHigh(key, S.keyEnd - S.keyAt - 2);
      const bit = keyBit(key);
      escaped = escaped || S.textEscaped;
      if ((escaped || (seen & bit) != 0) && duplicateKey(t, key)) return S.duplicateKey();
      seen |= bit;
      value();
    }
  } else return;
  if (!S.broken && status == PARSE_OK) setHigh(t, <u32>count);
}

/** A bit of 64 picked by the key's length and first and last bytes. */
function keyBit(key: i32): u64 {
  const p = sourceOf(key);
  const n = lengthOf(key);
  const sig = (n << 16) | ((<u32>load<u8>(p)) << 8) | (<u32>load<u8>(p + n - 1));
  return (<u64>1) << ((sig * 0x9e3779b1) >> 26);
}

/** True when the key just read equals an earlier key of the same object. */
function duplicateKey(obj: i32, key: i32): bool {
  const a = sourceOf(key);
  const n = lengthOf(key);
  const escaped = hasEscape(a, n);
  for (let m = obj + 1; m < key; m = after(m + 1)) {
    if (escaped || hasEscape(sourceOf(m), lengthOf(m))) {
      if (stringValue(m) == stringValue(key)) return true;
    } else if (lengthOf(m) == n && memory.compare(sourceOf(m), a, n) == 0) return true;
  }
  return false;
}

function hexAt(p: usize): i32 {
  let v = 0;
  for (let k: usize = 0; k < 4; k++) {
    const c = (<i32>load<u8>(p + k)) | 0x20;
    v = (v << 4) | (c <= 0x39 ? c - 0x30 : c - 0x57);
  }
  return v;
}

/** Decodes the escapes of an already validated string. */
function unescape(p: usize, stop: usize): string {
  let out = "";
  let run = p;
  while (p < stop) {
    if (load<u8>(p) != 0x5c) {
      p++;
      continue;
    }
    out += String.UTF8.decodeUnsafe(run, p - run);
    const e = load<u8>(p + 1);
    p += 2;
    if (e == 0x75) {
      const u = hexAt(p);
      p += 4;
      if (u >= 0xd800 && u < 0xdc00) {
        out += String.fromCharCodes([u, hexAt(p + 2)]);
        p += 6;
      } else out += String.fromCharCode(u);
    } else if (e == 0x62) out += "\b";
    else if (e == 0x66) out += "\f";
    else if (e == 0x6e) out += "\n";
    else if (e == 0x72) out += "\r";
    else if (e == 0x74) out += "\t";
    else out += String.fromCharCode(e);
    run = p;
  }
  return out + String.UTF8.decodeUnsafe(run, stop - run);
}

/** How many bytes the UTF-8 sequence led by byte `c` (>= 0x80) has, 2-4, or 0 when no sequence
 * begins with it. The lead byte's value bits are `c & (0x7f >> n)`. */
export function utf8Length(c: u32): u32 {
  return c >= 0xc2 && c <= 0xdf ? 2 : c >= 0xe0 && c <= 0xef ? 3 : c >= 0xf0 && c <= 0xf4 ? 4 : 0;
}

/** Whether `cp`, decoded from `n` bytes, is a character written in its shortest form (overlong
 * forms, surrogates and > U+10FFFF are invalid). */
export function utf8Valid(cp: u32, n: u32): bool {
  const least: u32 = n == 2 ? 0x80 : n == 3 ? 0x800 : 0x10000;
  return cp >= least && cp <= 0x10ffff && (cp < 0xd800 || cp > 0xdfff);
}

/** Length of the valid UTF-8 sequence at `p`, or 0. */
export function utf8SequenceLength(p: usize, stop: usize): u32 {
  const c = <u32>load<u8>(p);
  const n = utf8Length(c);
  if (n == 0 || p + n > stop) return 0;
  let cp = c & (0x7f >> n);
  for (let k: u32 = 1; k < n; k++) {
    const b = <u32>load<u8>(p + k);
    if ((b & 0xc0) != 0x80) return 0;
    cp = (cp << 6) | (b & 0x3f);
  }
  return utf8Valid(cp, n) ? n : 0;
}
