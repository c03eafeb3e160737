// Checks for request and stored documents, on the value json/stream.ts has just read.
// The first failure is kept as "<path>: <rule>", which becomes the 422 message; callers validate
// everything before changing anything.
import { hexDigit, piece, J_STRING, J_OBJECT } from "./reader";
import * as S from "./stream";
import { messageText } from "../util/message-id";
import { intText } from "../util/int-text";

let firstError = "";
/** Put before every path: a document checked inside another (the setup form's `mqtt` part). A
 * string, 0 for none, in static memory rather than a global (about 52 B of device heap). */
const pathPrefix = memory.data(sizeof<usize>());

export function setPathPrefix(prefix: string): void {
  store<usize>(pathPrefix, changetype<usize>(prefix));
}

export function resetErrors(): void {
  firstError = "";
}

export function validationError(): string {
  return firstError;
}

/** The problem recorded so far ("" when none), which is forgotten: a document read as it streams
 * keeps each field's problem until the field's turn comes (json/check-fields.ts). */
export function takeError(): string {
  const e = firstError;
  firstError = "";
  return e;
}

/** Records "<path>: <rule>" unless a problem is recorded already; false. @message-args: its literal
 * texts go to the UTF-8 message table (scripts/messages-transform.mjs); @message-id rule: a literal
 * one arrives as its id (util/message-id.ts). */
export function fail(path: string, rule: string): bool {
  if (firstError.length != 0) return false;
  const prefix = load<usize>(pathPrefix);
  const text = messageText(rule);
  firstError = (path.length == 0 ? "$" : prefix ? changetype<string>(prefix) + path : path) + ": " + text;
  return false;
}

/** Records a whole message ("<path>: <rule>", built earlier) unless a problem is recorded already. */
export function failMessage(message: string): void {
  if (firstError.length == 0) firstError = message;
}

/** Human-readable name of a kind (J_*), for error messages only. */
export function nameOfKind(k: u32): string {
  return piece(kinds(), min(k, J_OBJECT));
}

/** The kinds' names by J_*, as one text (json/reader.ts piece). @message-returns: it goes to the
 * UTF-8 message table (scripts/messages-transform.mjs). */
function kinds(): string {
  return "null|a boolean|a boolean|a number|a string|an array|an object";
}

/** Whether the value just read is of kind `k`; else records "must be <what>, not <its kind>".
 * @message-args */
export function expectKind(k: u32, path: string, what: string): bool {
  return S.kind == k || fail(path, "must be " + what + ", not " + nameOfKind(S.kind));
}

/** Whether the value just read is an integer in [lo, hi] (written without fraction or exponent). */
export function isIntIn(lo: i32, hi: i32): bool {
  return S.numberInteger && S.numberLength <= 16 && S.intIn(lo, hi, lo - 1) >= lo;
}

export function expectInt(path: string, lo: i32, hi: i32): bool {
  return isIntIn(lo, hi) || fail(path, "must be an integer " + intText(lo) + "-" + intText(hi));
}

/** Parses "#RRGGBB" (either case) at p..p+len to 0xRRGGBB, or -1. */
export function parseHexColorAt(p: usize, len: u32): i32 {
  if (len != 7 || load<u8>(p) != 0x23) return -1;
  let v = 0;
  for (let k: usize = 1; k < 7; k++) {
    const d = hexDigit(<i32>load<u8>(p + k));
    if (d < 0) return -1;
    v = (v << 4) | d;
  }
  return v;
}

/** The colour of the string just read, when it is "#RRGGBB"; else -1. */
export function colorRead(): i32 {
  return S.kind == J_STRING ? parseHexColorAt(S.text, S.textBytes) : -1;
}

/** A "#RRGGBB" string just read; returns the colour, or -1 after recording the failure. */
export function expectHexColor(path: string): i32 {
  const rgb = colorRead();
  if (rgb < 0) fail(path, 'must be a colour "#RRGGBB"');
  return rgb;
}
