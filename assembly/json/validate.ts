// Checks for request and stored documents. The first failure is kept as "<path>: <rule>", which
// becomes the 422 message; callers validate everything before changing anything.
import { JValue, J_OBJECT, J_STRING, J_BOOL, kindName } from "./value";

let firstError = "";

export function resetErrors(): void {
  firstError = "";
}

export function validationError(): string {
  return firstError;
}

export function fail(path: string, rule: string): bool {
  if (firstError.length == 0) firstError = path + ": " + rule;
  return false;
}

export function expectObject(v: JValue, path: string): bool {
  return v.kind == J_OBJECT || fail(path, "must be an object, not " + kindName(v.kind));
}

/** Every key of object `v` must be one of `allowed`. */
export function onlyKeys(v: JValue, path: string, allowed: string[]): bool {
  for (let i = 0; i < v.length; i++) {
    const key = v.keyAt(i);
    if (!allowed.includes(key)) return fail(join(path, key), "unknown field");
  }
  return true;
}

export function join(path: string, key: string): string {
  return path.length == 0 ? key : path + "." + key;
}

export function expectInt(v: JValue, path: string, lo: i64, hi: i64): bool {
  if (v.isInteger() && v.num >= <f64>lo && v.num <= <f64>hi) return true;
  return fail(path, "must be an integer " + lo.toString() + "-" + hi.toString());
}

export function expectBool(v: JValue, path: string): bool {
  return v.kind == J_BOOL || fail(path, "must be a boolean, not " + kindName(v.kind));
}

export function expectString(v: JValue, path: string): bool {
  return v.kind == J_STRING || fail(path, "must be a string, not " + kindName(v.kind));
}

/** Parses "#RRGGBB" (either case) to 0xRRGGBB, or -1. */
export function parseHexColor(s: string): i32 {
  if (s.length != 7 || s.charCodeAt(0) != 0x23) return -1;
  let v = 0;
  for (let i = 1; i < 7; i++) {
    const c = s.charCodeAt(i) | 0x20;
    let d = -1;
    if (c >= 0x30 && c <= 0x39) d = c - 0x30;
    else if (c >= 0x61 && c <= 0x66) d = c - 0x57;
    if (d < 0) return -1;
    v = (v << 4) | d;
  }
  return v;
}

/** A "#RRGGBB" string; returns the colour or -1 after recording the failure. */
export function expectHexColor(v: JValue, path: string): i32 {
  const rgb = v.kind == J_STRING ? parseHexColor(v.str) : -1;
  if (rgb < 0) fail(path, 'must be a colour "#RRGGBB"');
  return rgb;
}
