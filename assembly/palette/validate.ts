// The palette document (scene-format spec, "Palette document"), checked as it streams
// (json/stream.ts, json/check-fields.ts). The same check serves request bodies and stored files, so a
// stored palette can never hold what the API would reject.
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
// The first problem found, in the order above (the stops' count before the stops), is kept as
// "<path>: <rule>".
import { names } from "../util/names";
import { J_ARRAY, J_STRING, piece } from "../json/reader";
import * as S from "../json/stream";
import { expectKind, colorRead, fail, nameOfKind } from "../json/validate";
import { checkFields, indexPath, present, problem, F_EQUALS, F_OWN } from "../json/check-fields";
import { utf8Decode } from "../util/utf8";
import { MAX_STOPS, colorWords } from "./palette";

export const PALETTE_SCHEMA_VERSION: i32 = 1;
export const NAME_MAX_CHARS: i32 = 30;

const KEYS = names("schemaVersion name stops");
const NAME = 1;
const STOPS = 2;
// The rows (json/check-fields.ts): schemaVersion, optional, must be 1; then the name's problem (readOwn).
// The stops' (readStops) come after the name's presence is checked.
// prettier-ignore
const ROWS = memory.data<u16>([
  0, F_EQUALS, <u16>PALETTE_SCHEMA_VERSION, <u16>PALETTE_SCHEMA_VERSION, 0,
  1, F_OWN, 0, 0, 0,
]);

/** The name and the stops of the document last validated (made in the export's memory by readOwn):
 * a string and a StaticArray<u32> of stops packed as (position << 24) | 0xRRGGBB. */
let name: usize = 0;
let stops: usize = 0;

/** Validates the palette document whose root value() has just read (kind `kind`), reading it to its
 * end; false after recording the first problem (or on a syntax error: S.broken). */
export function validatePalette(kind: u32): bool {
  if (!checkFields(kind, KEYS, ROWS, 2, 0, readOwn, 32)) return false;
  if ((present & (1 << NAME)) == 0) return fail("name", "required");
  if ((present & (1 << STOPS)) == 0) return fail("stops", "required");
  return !problem(STOPS);
}

/** The name of the document last validated. */
export function paletteName(): string {
  return changetype<string>(name);
}

/** The stops of the document last validated. */
export function packStops(): StaticArray<u32> {
  return changetype<StaticArray<u32>>(stops);
}

/** The fields read as they come (json/check-fields.ts Own): the name and the stops. */
function readOwn(k: i32, kind: u32, _target: usize): void {
  if (k != NAME) return readStops(kind);
  const rule = nameRule(kind);
  if (rule.length > 0) fail("name", rule);
  else name = changetype<usize>(utf8Decode(S.text, S.textLength));
  S.skipRest(kind); // a name that is not a string
}

/** name, just read (of kind `kind`): "" when it passes its rules, else the rule it breaks, by what
 * the tokenizer counted of the whole string (code points, control characters). @message-returns: its texts go to the UTF-8 message table. */
function nameRule(kind: u32): string {
  if (kind != J_STRING) return "must be a string, not " + nameOfKind(kind);
  if (S.textChars - 1 >= <u32>NAME_MAX_CHARS) return "must be 1-" + NAME_MAX_CHARS.toString() + " characters";
  if (S.textControl) return "must not contain control characters";
  // "." or "..": URL clients resolve such a path segment away, so the palette could never be
  // addressed by GET, PUT or DELETE
  const n = S.textBytes;
  if (n <= 2 && load<u8>(S.text) == 0x2e && load<u8>(S.text + n - 1) == 0x2e)
    return 'must not be "." or ".." (it could not be used in a URL)';
  return "";
}

/** stops, as it streams: each stop checked as it ends (a pair [position, "#RRGGBB"], the first
 * position 0, positions strictly increasing) and packed while all are valid; its count (1-16), then
 * the first problem, is the message once the array ends, when the last stop is known (its position
 * must be 255, which comes before its colour). */
function readStops(kind: u32): void {
  if (!expectKind(J_ARRAY, "stops", "an array")) return S.skipRest(kind);
  const got = heap.alloc(MAX_STOPS * 4); // the stops packed
  let n = 0;
  let bad = -1; // the first stop with a problem (R_LAST aside), `rule` its rule
  let rule = 0;
  let last = 0; // the position of the stop read last
  while (S.element()) {
    const e = S.value();
    let items = 0;
    let pos = -1;
    let rgb = -1;
    if (e == J_ARRAY) {
      while (S.element()) {
        const v = S.value();
        if (items == 0) pos = S.intIn(0, 255, -1);
        else if (items == 1) rgb = colorRead();
        S.skipRest(v);
        items++;
      }
    } else S.skipRest(e); // (`items` stays 0 for a stop that is not an array)
    if (bad < 0) {
      rule = 0;
      if (items != 2) rule = R_PAIR;
      else if (pos < 0) rule = R_INTEGER;
      else if (n == 0 && pos != 0) rule = R_FIRST;
      else if (n > 0 && pos <= last) rule = R_INCREASING;
      else if (rgb < 0) rule = R_COLOR;
      if (rule != 0) bad = n;
      else if (n < MAX_STOPS) store<u32>(got + <usize>(n << 2), ((<u32>pos) << 24) | (<u32>rgb));
    }
    last = pos;
    n++;
  }
  if (n > 1 && (bad < 0 || (bad == n - 1 && rule == R_COLOR)) && last != 255) {
    bad = n - 1;
    rule = R_LAST;
  }
  if (n < 1 || n > MAX_STOPS) fail("stops", "must have 1-" + MAX_STOPS.toString() + " entries");
  else if (bad >= 0) {
    // stops[i], and its item for a rule of one: [0] the position's, [1] the colour's
    let path = indexPath("stops", bad);
    if (rule != R_PAIR) path = indexPath(path, <i32>(rule == R_COLOR));
    fail(path, stopRule(rule));
  } else {
    stops = changetype<usize>(colorWords(n, got));
  }
}

const R_PAIR = 1;
const R_INTEGER = 2;
const R_FIRST = 3;
const R_INCREASING = 4;
const R_LAST = 5;
const R_COLOR = 6;

/** The rule a stop breaks (R_*). */
function stopRule(rule: i32): string {
  return piece(stopRules(), rule - R_PAIR);
}

/** The rules' texts by R_*, as one text (json/reader.ts piece). @message-returns: it goes to the
 * UTF-8 message table (scripts/messages-transform.mjs). */
function stopRules(): string {
  return 'must be an array [position, "#RRGGBB"]|must be an integer 0-255|the first position must be 0|positions must be strictly increasing|the last position must be 255|must be a colour "#RRGGBB"';
}
