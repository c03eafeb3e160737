// Checks for request and stored documents, on tokens of the open JSON document (json/reader).
// The first failure is kept as "<path>: <rule>", which becomes the 422 message; callers validate
// everything before changing anything.
import {
  kindOf,
  isInteger,
  numberValue,
  sourceOf,
  lengthOf,
  hexDigit,
  J_NULL,
  J_FALSE,
  J_TRUE,
  J_NUMBER,
  J_STRING,
  J_ARRAY,
  J_OBJECT,
} from "./reader";

let firstError = "";
/** Put before every path: a document checked inside another (the setup form's `mqtt` part). */
let pathPrefix = "";

export function setPathPrefix(prefix: string): void {
  pathPrefix = prefix;
}

export function resetErrors(): void {
  firstError = "";
}

export function validationError(): string {
  return firstError;
}

/** Records "<path>: <rule>" unless a problem is recorded already; false. @message-args: its literal
 * texts go to the UTF-8 message table (scripts/messages-transform.mjs). */
export function fail(path: string, rule: string): bool {
  if (firstError.length == 0) firstError = (path.length > 0 ? pathPrefix + path : "$") + ": " + rule;
  return false;
}

/** Records a whole message ("<path>: <rule>", built earlier) unless a problem is recorded already. */
export function failMessage(message: string): void {
  if (firstError.length == 0) firstError = message;
}

/** Human-readable name of a token's kind, for error messages. */
export function kindName(i: i32): string {
  return nameOfKind(kindOf(i));
}

/** Human-readable name of a kind (J_*), for error messages. */
export function nameOfKind(k: u32): string {
  switch (k) {
    case J_NULL:
      return "null";
    case J_FALSE:
    case J_TRUE:
      return "a boolean";
    case J_NUMBER:
      return "a number";
    case J_STRING:
      return "a string";
    case J_ARRAY:
      return "an array";
  }
  return "an object";
}

export function expectObject(i: i32, path: string): bool {
  return kindOf(i) == J_OBJECT || fail(path, "must be an object, not " + kindName(i));
}

export function expectArray(i: i32, path: string): bool {
  return kindOf(i) == J_ARRAY || fail(path, "must be an array, not " + kindName(i));
}

export function expectInt(i: i32, path: string, lo: i32, hi: i32): bool {
  if (isInteger(i)) {
    const v = numberValue(i);
    if (v >= <f64>lo && v <= <f64>hi) return true;
  }
  return fail(path, "must be an integer " + lo.toString() + "-" + hi.toString());
}

export function expectBool(i: i32, path: string): bool {
  const k = kindOf(i);
  return k == J_TRUE || k == J_FALSE || fail(path, "must be a boolean, not " + kindName(i));
}

export function expectString(i: i32, path: string): bool {
  return kindOf(i) == J_STRING || fail(path, "must be a string, not " + kindName(i));
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

/** A "#RRGGBB" string token; returns the colour, or -1 after recording the failure. */
export function expectHexColor(i: i32, path: string): i32 {
  const rgb = kindOf(i) == J_STRING ? parseHexColorAt(sourceOf(i), lengthOf(i)) : -1;
  if (rgb < 0) fail(path, 'must be a colour "#RRGGBB"');
  return rgb;
}
