// What the JSON reader (json/stream.ts, the one reader: every document is read as it streams) shares
// with its callers: the kinds of value, the refusal reasons and where the last refusal was, and the
// number and UTF-8 rules.
// Rules: RFC 8259 syntax, valid UTF-8 only, nesting at most MAX_DEPTH; duplicate object keys are
// refused by the callers that know the keys (json/check-fields.ts, the scene pass).

export const J_NULL: u32 = 0;
export const J_FALSE: u32 = 1;
export const J_TRUE: u32 = 2;
export const J_NUMBER: u32 = 3;
export const J_STRING: u32 = 4;
export const J_ARRAY: u32 = 5;
export const J_OBJECT: u32 = 6;

export const MAX_DEPTH: i32 = 16;

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
/** The reason (E_*), in static memory rather than a global (about 52 B of device heap). */
const errorWhy = memory.data(1);

/** The document being read (json/stream.ts) was refused at body offset `at` for `why` (E_*). */
export function refuse(at: u32, why: u8): void {
  errorOffset = at;
  store<u8>(errorWhy, why);
}

/** Why the last document was refused, for the 400 answer: the reason's piece of the texts below. */
export function errorReason(): string {
  const why = load<u8>(errorWhy);
  return why < E_CONTROL ? piece(syntaxReasons(), why) : piece(otherReasons(), why - E_CONTROL);
}

/** The refusal reasons E_VALUE-E_ESCAPE, as one text (piece; a message is at most 256 bytes).
 * @message-returns: it goes to the UTF-8 message table (scripts/messages-transform.mjs). */
function syntaxReasons(): string {
  return "expected a value|expected a member name in double quotes|expected ':'|expected ',' or the closing bracket|duplicate member name|invalid number|invalid escape";
}

/** The refusal reasons E_CONTROL-E_END, as one text. @message-returns */
function otherReasons(): string {
  return "control character in a string (escape it)|invalid UTF-8|string longer than 8191 bytes|nested deeper than 16|text after the document|unexpected end of the document";
}

/** Piece `i` of `all`, whose pieces are separated by "|": a switch of fixed texts written as one
 * message of the table (one entry, no code a case). */
export function piece(all: string, i: u32): string {
  const p = changetype<usize>(all);
  const n = (<usize>all.length) << 1;
  let start: usize = 0;
  for (; i > 0 && start < n; start += 2) if (load<u16>(p + start) == 0x7c) i--;
  let end = start;
  while (end < n && load<u16>(p + end) != 0x7c) end += 2;
  const out = __new(end - start, idof<string>());
  memory.copy(out, p + start, end - start);
  return changetype<string>(out);
}

/** The value of one hexadecimal digit (either case), or -1. */
export function hexDigit(c: i32): i32 {
  if (c >= 0x30 && c <= 0x39) return c - 0x30;
  const l = c | 0x20;
  return l >= 0x61 && l <= 0x66 ? l - 0x57 : -1;
}

/** Exact powers of ten (every one up to 1e22 is a double). */
function pow10(k: i32): f64 {
  let v: f64 = 1;
  for (let j = 0; j < k; j++) v *= 10;
  return v;
}

/** A number's value from its digits read as an integer (`mantissa`) and its power of ten (`exp`:
 * the exponent less the fraction's digits). Exact (correctly rounded) when the digits fit 2^53 and
 * the power is within 1e22, which covers every fractional number the API takes (speeds,
 * fractions); larger ones are close, not exact. */
export function scaled(mantissa: f64, exp: i32): f64 {
  let v = mantissa;
  while (exp > 22) {
    v *= 1e22;
    exp -= 22;
  }
  while (exp < -22) {
    v /= 1e22;
    exp += 22;
  }
  return exp < 0 ? v / pow10(-exp) : v * pow10(exp);
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
