// The scene document's objects as tables, read by one reader (readObject) as they stream in
// (json/stream.ts): the step, a colour reference, the scene, a layer and the base colours are each a
// key list (a name list, util/names.ts: also the accepted-fields list of an unknown field's message)
// and one row per key in ROWS: what the value is (a boolean, an integer in a range, a name of a list,
// a colour, a palette name, or a field its level reads itself: step.ts, color.ts, validate.ts), the
// schemaVersion it needs, and where it goes (the level's slots; at the scene and layer levels also
// where it is compiled to, playback/compile.ts). The reader checks each member as it comes: a key of
// the level, not twice, its gate, its value; it writes the canonical form's keys (canonical.ts: the
// scalars are echoed by the tokenizer) and keeps each member's key in order (the step's rules that
// need the whole step); at the object's end, the keys its level requires (REQUIRED). The first
// problem is recorded as "<json path>: <rule>" (path-errors.ts), built only then; the scene's other members
// are then only read on (a duplicate key is still 400, a late schemaVersion still judged).
import { J_TRUE, J_FALSE, J_STRING, piece } from "../json/reader";
import * as S from "../json/stream";
import { parseHexColorAt } from "../json/validate";
import { put, putBytes } from "../playback/form-io";
import { SAVE, T_PALETTE, L_PALETTE } from "../playback/items";
import { Names, nameList, nameIndex, foundEntry } from "../util/names";
import {
  STEP_KEYS,
  CHANNEL_KEYS,
  TOP_KEYS,
  LAYER_KEYS,
  COLOR_KEYS,
  RUNNERS,
  ANIMATES,
  BLENDS,
  DIRECTIONS,
} from "./names";
import { TYPES } from "../generated/step-types";
import * as out from "./canonical";
import { slots, layer, MAX_LAYERS, MAX_STEPS } from "./state";
import {
  bad,
  unknownAt,
  badAt,
  pushKey,
  pop,
  gate,
  needInt,
  needBool,
  needString,
  W_KEY,
  W_RUNNER,
} from "./path-errors";
import { KEY_DIRECTIONALITY, KEY_SOURCE, SOURCE_GEOMETRIC } from "./step-keys";

// The levels, in the order of their rows.
export const STEP = 0;
export const COLOR = 1; // a colour reference given as an object
export const TOP = 2;
export const LAYER = 3;
export const COLORS = 4; // the scene's base colours
const LEVELS = 5;

/** Each level's first row. */
const BASE = memory.data<u8>([0, 31, 36, 45, 54]);
export const LAYER_BASE = 45;
export const COLORS_BASE = 54;
export const COLOR_BASE = 31;

/** The keys a level accepts: the first LIMIT[level] of its list (the scene's `id` only where a
 * playback body may carry it, the step's `group` and `panels` only in the flat step), and those it
 * requires, a bit per key (the scene's name only to save it; their rules: requiredRules). Each pass
 * sets them first from its options (validate.ts setLimits). */
export const LIMIT = memory.data<u8>([29, 5, 8, 9, 3]);
export const REQUIRED = memory.data<u8>([0, 0, 0x80, 3, 0]);

/** Each level's key list (by level), then the names of each E_* list: 16-bit static addresses. */
const LISTS = memory.data<u16>([
  <u16>STEP_KEYS,
  <u16>CHANNEL_KEYS,
  <u16>TOP_KEYS,
  <u16>LAYER_KEYS,
  <u16>COLOR_KEYS,
  <u16>RUNNERS,
  <u16>ANIMATES,
  <u16>DIRECTIONS,
  <u16>TYPES,
  <u16>BLENDS,
]);

function keysOf(level: i32): Names {
  return <usize>load<u16>(LISTS + ((<usize>level) << 1));
}

// ---- the rows -----------------------------------------------------------------------------------
// A row is a u16: its reader (4 bits: an index into the readers, validate.ts Readers; the last three
// rewrite their value, PAUSE, and the last two their key, NOKEY), an argument (4 bits: an integer's
// range, a list, or what the scene's reader makes of it), the schemaVersion it needs (3 bits) and where
// it is compiled to (4 bits, 0: nowhere): a palette's item tag, or the row of the compiled image it
// goes to (keep).

/** A field's reader: row `r` (its level's slot), `seen` the level's members so far (this one's bit
 * included); the value's start has just been read. False after recording the first problem. They
 * are called through the readers' table, so each stays a function of its own: WAMR's classic
 * interpreter pays for a block whose end its small cache has lost, not for a call. */
export type Reader = (r: i32, row: u32, seen: u32) => bool;

// The readers by row type (validate.ts Readers: the first three are this file's), and the reader of
// a late schemaVersion (validate.ts schemaVersion), registered by the scene pass at start-up: the
// readers of the fields that are objects and lists read objects with readObject in turn.
let readers: usize = 0;
let lateSchema: (() => void) | null = null;

/** Registers the readers (a StaticArray<Reader>, by row type) and the schemaVersion reader. */
export function useReaders(table: StaticArray<Reader>, schema: () => void): void {
  readers = changetype<usize>(table);
  lateSchema = schema;
}

const V_BOOL: u16 = 0;
const V_INT: u16 = 1; // argument: RANGES index
const V_ENUM: u16 = 2; // argument: E_* list
const X_COLOR_REF: u16 = 3;
const X_STEP_ID: u16 = 4;
const X_CHANNEL: u16 = 5; // argument: RANGES index
export const X_SCENE: u16 = 6; // argument: S_* (validate.ts sceneField)
/** The value is rewritten: the tokenizer does not echo it (readers from here on). */
const PAUSE: u32 = 7;
export const X_SPEED: u16 = 7;
/** The member writes its own key (a legacy form rewritten under another; readers from here on). */
const NOKEY: u32 = 8;
export const X_SOURCE: u16 = 8;
const X_ORIGIN: u16 = 9;

/** The fields of the scene and the layers (X_SCENE rows), and the rare ones of the step, by what
 * validate.ts sceneField makes of them. */
export const S_HEX: u16 = 0; // "#RRGGBB"
export const S_PALETTE: u16 = 1; // a palette name, 1-30 characters
export const S_SCHEMA: u16 = 2;
export const S_NAME: u16 = 3;
export const S_COLORS: u16 = 4;
export const S_LAYERS: u16 = 5;
export const S_SCENE_ID: u16 = 6;
export const S_GROUP: u16 = 7;
export const S_SEQUENCE: u16 = 8;
export const S_PANELS: u16 = 9;
export const S_FALLBACK: u16 = 10;
export const S_START_AFTER: u16 = 11;
export const S_ASYNC: u16 = 12;
export const S_FLAT_GROUP: u16 = 13;
export const S_FLAT_PANELS: u16 = 14;
export const S_PARAMS: u16 = 15; // a step's params

/** Integer ranges: lowest << 16 | highest. */
const RANGES = memory.data<u32>([0xffff, 0xff, 359, 0x1001e, 0x100ff, 0x10006, 0x100fe, 2]);
const R_65535: u16 = 0 << 4;
const R_255: u16 = 1 << 4;
const R_359: u16 = 2 << 4;
const R_1_30: u16 = 3 << 4;
const R_1_255: u16 = 4 << 4;
const R_1_6: u16 = 5 << 4;
const R_0_2: u16 = 7 << 4;

const E_RUNNERS: u16 = 0;
const E_ANIMATES: u16 = 1;
const E_DIRECTIONS: u16 = 2;
const E_TYPES: u16 = 3;
const E_BLENDS: u16 = 4;
/** The schemaVersion each name needs, 9 per list, of the lists before E_TYPES (types and blends
 * need none, whatever their number). */
// prettier-ignore
const ENUM_GATES = memory.data<u8>([
  1, 1, 1, 5, 7, 7, 7, 7, 0, // runners
  1, 4, 4, 4, 4, 6, 6, 0, 0, // animates
  0, 3, // directionality
]);

const SCENE = X_SCENE;
// prettier-ignore
const ROWS = memory.data<u16>([
  // STEP (step.ts K_*)
  X_STEP_ID, V_ENUM | (E_TYPES << 4), V_ENUM | (E_RUNNERS << 4), X_COLOR_REF, X_COLOR_REF, X_COLOR_REF,
  V_INT | R_65535, V_BOOL, V_BOOL, SCENE | (S_PARAMS << 4), V_ENUM | (E_ANIMATES << 4), V_INT | R_255, V_INT | R_255,
  V_INT | R_255, X_SOURCE, V_ENUM | (E_DIRECTIONS << 4), V_INT | R_359, V_BOOL,
  V_INT | R_255, V_INT | R_255, V_INT | R_255, V_INT | R_1_30, V_BOOL | (5 << 8), V_INT | R_1_255 | (5 << 8),
  V_INT | R_1_255 | (7 << 8), V_INT | R_65535, V_INT | R_1_6, V_INT | R_359, X_ORIGIN,
  SCENE | (S_FLAT_GROUP << 4), SCENE | (S_FLAT_PANELS << 4),
  // COLOR: r g b palette useColor
  X_CHANNEL | R_255, X_CHANNEL | R_255, X_CHANNEL | R_255, X_CHANNEL | R_255, X_CHANNEL | R_0_2,
  // TOP (validate.ts T_*): the compiled tags (playback/compile.ts: an item's, or an image row's)
  SCENE | (S_SCHEMA << 4), SCENE | (S_NAME << 4), V_BOOL | (1 << 11), X_SPEED, SCENE | (S_COLORS << 4),
  SCENE | (S_HEX << 4) | (3 << 11), SCENE | (S_PALETTE << 4) | (5 << 11), SCENE | (S_LAYERS << 4), SCENE | (S_SCENE_ID << 4),
  // LAYER (validate.ts L_*)
  SCENE | (S_GROUP << 4), SCENE | (S_SEQUENCE << 4), SCENE | (S_PANELS << 4), SCENE | (S_FALLBACK << 4),
  V_ENUM | (E_BLENDS << 4) | (4 << 11), SCENE | (S_START_AFTER << 4) | (2 << 8), SCENE | (S_ASYNC << 4),
  SCENE | (S_PALETTE << 4) | (10 << 11), V_BOOL,
  // COLORS
  SCENE | (S_HEX << 4), SCENE | (S_HEX << 4), SCENE | (S_HEX << 4),
]);

/** Each level's members' keys in the order they came (the step's rules read them at its end). */
export const ORDER = memory.data(LEVELS * 32);

// ---- the reader ---------------------------------------------------------------------------------

/**
 * Reads the members of the object json/stream.ts value() has just opened, as `level`'s rows say,
 * and its closing brace; returns its members, a bit per key (the level's index of each), or -1 after
 * recording the first problem (or on a syntax error: S.broken). After the scene's first problem its
 * other members are only read on, for a duplicate key or a schemaVersion (validate.ts).
 */
export function readObject(level: i32): i32 {
  const base = <i32>load<u8>(BASE + level);
  const list = keysOf(level);
  const limit = <u32>load<u8>(LIMIT + level);
  const order = ORDER + ((<usize>level) << 5);
  let seen: u32 = 0;
  let count = 0;
  let ok = true;
  out.byte(0x7b);
  // (a loop without an `if` around its body: the interpreter looks an `if`'s end up each time)
  if (S.member())
    do {
      const k = nameIndex(list, S.text, S.textBytes); // -1 when unknown
      const bit: u32 = select<u32>(1 << k, 0, k >= 0);
      if (seen & bit) {
        S.duplicateKey();
        return -1;
      }
      seen |= bit;
      if (!ok) {
        // the scene after its first problem
        S.value();
        if (k == 0) lateSchema!();
        S.skipRest(S.kind);
        continue;
      }
      if (<u32>k >= limit) ok = unknown(level, k, limit);
      else {
        store<u8>(order + count, <u8>k);
        const r = base + k;
        const row = <u32>load<u16>(ROWS + ((<usize>r) << 1));
        const type = row & 15;
        out.field(count == 0, type >= NOKEY);
        count++;
        pushKey(foundEntry);
        ok = gate((row >> 8) & 7, W_KEY);
        if (ok) {
          S.pauseEcho(type >= PAUSE);
          S.value();
          S.pauseEcho(false);
          ok = changetype<Reader>(load<usize>(readers + (type << 2)))(r, row, seen);
          if (ok) pop();
        }
      }
      if (!ok) {
        if (level != TOP) return -1;
        out.stop();
        S.skipTo(1);
      }
    } while (S.member());
  // a required key missing (the scene's name, then its layers; a layer's group, then its sequence)
  const missing = (<u32>load<u8>(REQUIRED + level)) & ~seen;
  if (!ok || missing) {
    if (ok) {
      const k = <i32>ctz(missing);
      badAt(list, k, piece(requiredRules(), level == LAYER ? k + 2 : k >> 2));
    }
    return -1;
  }
  // a step's legacy `source: "geometric"` (step.ts readSource): its directionality as the step's
  // last member, unless the step gives one (not at a colour object inside it)
  if (
    (level == STEP) &
    ((seen & (1 << KEY_DIRECTIONALITY)) == 0) &
    (load<i32>(slots + (KEY_SOURCE << 2)) == SOURCE_GEOMETRIC)
  )
    out.fragment(out.F_DIRECTIONALITY);
  out.byte(0x7d);
  return seen;
}

/** The key just read is not one of the level's (k its index, or negative). */
function unknown(level: i32, k: i32, limit: u32): bool {
  if (level == COLOR) refused();
  else if (level == TOP && k == 8) badAt(TOP_KEYS, 8, "not allowed: the service assigns scene ids");
  else unknownAt(nameList(keysOf(level), limit));
  return false;
}

/** Keeps value `v` of row `r`, and compiles it when the row has a tag: a palette's item, or the
 * image row it goes to (playback/items.ts SAVE: the scene's loop and background, a u32; a layer's
 * blend, its index + 1, a byte in the layer's column). */
export function keep(r: i32, row: u32, v: i32): bool {
  store<i32>(slots + ((<usize>r) << 2), v);
  const t = row >> 11;
  if (t == 0) return true;
  if ((t == T_PALETTE) | (t == L_PALETTE)) {
    put(t);
    putText();
  } else if (t > 3) store<u8>(SAVE + (t << 3) + layer, v + <i32>((row & 15) == V_ENUM));
  else store<u32>(SAVE + (t << 3), v);
  return true;
}

export function readBool(r: i32, row: u32, _seen: u32): bool {
  const kind = S.kind;
  if ((kind != J_TRUE) & (kind != J_FALSE)) return needBool();
  return keep(r, row, <i32>(kind == J_TRUE));
}

/** An integer in the row's range (RANGES), kept in its slot (-1 when it fails). */
export function readInt(r: i32, row: u32, _seen: u32): bool {
  const range = load<u32>(RANGES + ((row >> 2) & 0x3c));
  const v = needInt(range >> 16, range & 0xffff);
  store<i32>(slots + ((<usize>r) << 2), v);
  return v >= 0;
}

/** A name of the list the row says (E_*), once its gates pass. */
export function readEnum(r: i32, row: u32, _seen: u32): bool {
  const e = <i32>((row >> 4) & 15);
  if (S.kind != J_STRING) return e == E_DIRECTIONS ? enumFailed(e) : needString();
  if (e == E_BLENDS && !gate(4, W_KEY)) return false;
  const i = nameIndex(enumList(e), S.text, S.textBytes);
  if (i < 0) return enumFailed(e);
  // (its gate names it: W_RUNNER, W_ANIMATES or W_GEOMETRIC, in the order of E_*)
  const since = e < <i32>E_TYPES ? load<u8>(ENUM_GATES + <usize>(e * 9 + i)) : 0;
  return gate(since, (W_RUNNER + e) | ((<u32>i) << 8)) && keep(r, row, i);
}

function enumList(e: i32): Names {
  return keysOf(LEVELS + e);
}

function enumFailed(e: i32): bool {
  if (e == E_DIRECTIONS) return bad('must be "topology" or "geometric"');
  return bad(piece(enumRules(), e) + nameList(enumList(e)));
}

/** The starts of enumFailed's rules by E_* (json/reader.ts piece), its list's names after them.
 * @message-returns: it goes to the UTF-8 message table (scripts/messages-transform.mjs). */
function enumRules(): string {
  return "unknown runner; expected one of |must be one of ||unknown animation type; expected one of |must be one of ";
}

/** The rules of a required key (REQUIRED) that is missing: the scene's name and layers, a layer's
 * group and sequence. @message-returns: it goes to the UTF-8 message table, the limits folded into
 * its text (scripts/messages-transform.mjs). */
function requiredRules(): string {
  return (
    "required to save a scene|required: 1-" +
    MAX_LAYERS.toString() +
    " layers|required: a name, or a number 1-254|required: 1-" +
    MAX_STEPS.toString() +
    " steps"
  );
}

const FORMS = 'must be a colour: "#RRGGBB", {"r","g","b"}, {"palette": 0-255} or {"useColor": 0-2}';

/** Records that the colour (color.ts) is none of its forms, an unknown key of its object included;
 * false. */
export function refused(): bool {
  return bad(FORMS);
}

/** A "#RRGGBB" string just read: its colour, or -1 after recording the failure. */
export function hexColor(): i32 {
  const rgb = S.kind == J_STRING ? parseHexColorAt(S.text, S.textBytes) : -1;
  if (rgb < 0) bad('must be a colour "#RRGGBB"');
  return rgb;
}

/** Puts the string just read as a length byte and its UTF-8 bytes. */
export function putText(): void {
  put(S.textLength);
  putBytes(S.text, S.textLength);
}
