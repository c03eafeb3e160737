// The palette document (scene-format spec, "Palette document"), checked on tokens of the open JSON
// document. The same check serves request bodies and stored files, so a stored palette can never
// hold what the API would reject. The success path allocates nothing for names without escapes.
//
//   {"schemaVersion": 1, "name": "<1-30 characters>", "stops": [[0, "#RRGGBB"], ..., [255, "#RRGGBB"]]}
//
// - schemaVersion: optional, default 1; any other value is 422 "schemaVersion: must be 1".
// - name: required; 1-30 Unicode code points (an emoji such as ❤ is one, whatever its UTF-16 or
//   UTF-8 length); no control characters (U+0000-U+001F, U+007F-U+009F); not "." or "..".
// - stops: required; 1-16 entries, each a 2-element array [integer position 0-255, "#RRGGBB"];
//   positions strictly increasing, the first 0 and (with two or more stops) the last 255. A single
//   stop is a solid colour at position 0 (the spec's "1-16 stops" and "first 0, last 255" cannot
//   both hold for one stop).
// The first problem found, in document order, is kept as "<path>: <rule>".
import {
  kindOf,
  member,
  stringValue,
  sizeOf,
  element,
  numberValue,
  intIn,
  after,
  sourceOf,
  lengthOf,
  J_ARRAY,
  J_STRING,
  stringHasEscape as hasEscape,
} from "../json/reader";
import { expectString, expectArray, parseHexColorAt, fail } from "../json/validate";
import { checkFields, F_EQUALS } from "../json/fields";
import { MAX_STOPS } from "./palette";

export const PALETTE_SCHEMA_VERSION: i32 = 1;
export const NAME_MAX_CHARS: i32 = 30;

const KEYS: StaticArray<string> = ["schemaVersion", "name", "stops"];
// The rows (json/fields.ts): schemaVersion, optional, must be 1; name and stops are checked below.
// prettier-ignore
const ROWS = memory.data<u16>([0, F_EQUALS, <u16>PALETTE_SCHEMA_VERSION, <u16>PALETTE_SCHEMA_VERSION, 0]);
const version = memory.data(4);

/** Validates a palette document at token `v`; false after recording the first problem. */
export function validatePalette(v: i32): bool {
  if (!checkFields(v, KEYS, KEYS, ROWS, 1, version)) return false;
  const name = member(v, "name");
  if (name < 0) return fail("name", "required");
  if (!checkName(name)) return false;
  const stops = member(v, "stops");
  if (stops < 0) return fail("stops", "required");
  return checkStops(stops);
}

/** The name token of a validated document. */
export function nameToken(v: i32): i32 {
  return member(v, "name");
}

/** The stops of a validated document, packed as (position << 24) | 0xRRGGBB. */
export function packStops(v: i32): StaticArray<u32> {
  const stops = member(v, "stops");
  const n = sizeOf(stops);
  const out = new StaticArray<u32>(n);
  let e = stops + 1; // walk the elements with after(), not element(stops, i) (which rescans)
  for (let i = 0; i < n; i++) {
    const pos = element(e, 0);
    const rgb = element(e, 1);
    out[i] = ((<u32>numberValue(pos)) << 24) | (<u32>colorOf(rgb));
    e = after(e);
  }
  return out;
}

/** The colour of a "#RRGGBB" string token, or -1. */
function colorOf(t: i32): i32 {
  return kindOf(t) == J_STRING ? parseHexColorAt(sourceOf(t), lengthOf(t)) : -1;
}

function checkName(t: i32): bool {
  if (!expectString(t, "name")) return false;
  let chars = 0;
  let control = false;
  if (!hasEscape(t)) {
    // Valid UTF-8 (the reader checked): count the bytes that start a code point.
    const p = sourceOf(t);
    const n = lengthOf(t);
    for (let k: u32 = 0; k < n; k++) {
      const b = <u32>load<u8>(p + k);
      if ((b & 0xc0) != 0x80) chars++;
      if (b < 0x20 || b == 0x7f) control = true;
      if (b == 0xc2 && k + 1 < n && <u32>load<u8>(p + k + 1) <= 0x9f) control = true; // U+0080-U+009F
    }
  } else {
    const s = stringValue(t);
    for (let k = 0; k < s.length; k++) {
      const c = s.charCodeAt(k);
      if (c < 0xdc00 || c > 0xdfff) chars++; // a low surrogate completes its pair
      if (c < 0x20 || (c >= 0x7f && c <= 0x9f)) control = true;
    }
  }
  if (chars < 1 || chars > NAME_MAX_CHARS)
    return fail("name", "must be 1-" + NAME_MAX_CHARS.toString() + " characters");
  if (control) return fail("name", "must not contain control characters");
  if (isDotSegment(t)) return fail("name", 'must not be "." or ".." (it could not be used in a URL)');
  return true;
}

/** "." or "..": URL clients resolve such a path segment away, so the palette could never be
 * addressed by GET, PUT or DELETE. */
function isDotSegment(t: i32): bool {
  if (hasEscape(t)) {
    const s = stringValue(t);
    return s == "." || s == "..";
  }
  const p = sourceOf(t);
  const n = lengthOf(t);
  return (n == 1 || n == 2) && load<u8>(p) == 0x2e && load<u8>(p + n - 1) == 0x2e;
}

function checkStops(stops: i32): bool {
  if (!expectArray(stops, "stops")) return false;
  const n = sizeOf(stops);
  if (n < 1 || n > MAX_STOPS) return fail("stops", "must have 1-" + MAX_STOPS.toString() + " entries");
  let prev: i64 = -1;
  let e = stops + 1;
  for (let i = 0; i < n; i++) {
    if (kindOf(e) != J_ARRAY || sizeOf(e) != 2) return fail(stopPath(i, -1), 'must be an array [position, "#RRGGBB"]');
    const pos = intIn(element(e, 0), 0, 255, -1);
    if (pos < 0) return fail(stopPath(i, 0), "must be an integer 0-255");
    if (i == 0 && pos != 0) return fail(stopPath(i, 0), "the first position must be 0");
    if (i > 0 && pos <= prev) return fail(stopPath(i, 0), "positions must be strictly increasing");
    if (i > 0 && i == n - 1 && pos != 255) return fail(stopPath(i, 0), "the last position must be 255");
    if (colorOf(element(e, 1)) < 0) return fail(stopPath(i, 1), 'must be a colour "#RRGGBB"');
    prev = pos;
    e = after(e);
  }
  return true;
}

function stopPath(i: i32, k: i32): string {
  const p = "stops[" + i.toString() + "]";
  return k < 0 ? p : p + "[" + k.toString() + "]";
}
