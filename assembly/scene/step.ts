// One step of a layer's sequence: a panel-local animation (`type`), a controller runner (`runner`)
// or a gap (neither). Every field is checked for its type, range, schemaVersion and whether it
// applies to the step's kind; a field that does not apply is rejected (see docs/scenes.md), except
// where the scene format says a runner ignores it (BOUNCE: repeat, repeatCount; SPARKLE: speed).
import {
  kindOf,
  sizeOf,
  after,
  firstMember,
  nextMember,
  stringEquals,
  stringValue,
  J_OBJECT,
  J_ARRAY,
} from "../json/reader";
import {
  bad,
  badAt,
  unknownAt,
  pushKey,
  pushIndex,
  pop,
  needInt,
  needBool,
  needString,
  textOf,
  tp,
  tl,
  bytesAre,
  startsWith,
  parseDecimal,
  sameText,
  quote,
  lookup,
  signatures,
} from "./text";
import { checkColor } from "./color";
import {
  schema,
  stepDuration,
  stepIdToken,
  MAX_STEPS,
  addRewrite,
  RW_ORIGIN,
  RW_GEOMETRIC,
  RW_GEOMETRIC_SOURCE_ONLY,
} from "./state";

// Step fields, by index.
export const K_ID = 0;
export const K_TYPE = 1;
export const K_RUNNER = 2;
export const K_COLOR = 3;
export const K_COLOR_TO = 4;
export const K_COLOR_FROM = 5;
export const K_DURATION = 6;
export const K_LOOP = 7;
export const K_PINGPONG = 8;
export const K_PARAMS = 9;
export const K_ANIMATES = 10;
export const K_FROM = 11;
export const K_TO = 12;
export const K_AMOUNT = 13;
export const K_SOURCE = 14;
export const K_DIRECTIONALITY = 15;
export const K_ANGLE = 16;
export const K_REVERSE = 17;
export const K_WAVE_WIDTH = 18;
export const K_RIPPLE_WIDTH = 19;
export const K_WIDTH = 20;
export const K_COUNT = 21;
export const K_REPEAT = 22;
export const K_REPEAT_COUNT = 23;
export const K_WAVES = 24;
export const K_SPEED = 25;
export const K_LINES = 26;
export const K_THICKNESS = 27;
export const K_ORIGIN_PANEL = 28;

const KEYS: StaticArray<string> = [
  "id",
  "type",
  "runner",
  "color",
  "colorTo",
  "colorFrom",
  "duration",
  "loop",
  "pingpong",
  "params",
  "animates",
  "from",
  "to",
  "amount",
  "source",
  "directionality",
  "angle",
  "reverse",
  "waveWidth",
  "rippleWidth",
  "width",
  "count",
  "repeat",
  "repeatCount",
  "waves",
  "speed",
  "lines",
  "thickness",
  "originPanel",
];
const NKEYS = 29;
const KEY_SIGS = signatures(KEYS);

export const TYPES: StaticArray<string> = [
  "SOLID",
  "FADE",
  "TRANSITION",
  "BREATHE",
  "PULSE",
  "BLINK",
  "STROBE",
  "HUE_CYCLE",
  "REACTIVE",
];
const T_HUE_CYCLE = 7;

export const RUNNERS: StaticArray<string> = ["WAVE", "RIPPLE", "CHASE", "WHEEL", "BOUNCE", "RAIN", "SPARKLE", "MATRIX"];
/** The schemaVersion each runner needs. */
const RUNNER_SCHEMA: StaticArray<i32> = [1, 1, 1, 5, 7, 7, 7, 7];
const R_WAVE = 0;
const R_RIPPLE = 1;
const R_CHASE = 2;
const R_WHEEL = 3;
const R_BOUNCE = 4;
const R_RAIN = 5;
const R_SPARKLE = 6;
const R_MATRIX = 7;

export const ANIMATES: StaticArray<string> = ["color", "dim", "desaturate", "hue", "invert", "brighten", "saturate"];
/** The schemaVersion each animates target needs. */
const ANIMATES_SCHEMA: StaticArray<i32> = [1, 4, 4, 4, 4, 6, 6];

const KIND_GAP = 0;
const KIND_LOCAL = 1;
const KIND_RUNNER = 2;

const ID_MAX = 32;
const ID_RULE = "must be 1-32 characters of [a-zA-Z0-9_-]";

/** Value token of each field (K_*) of the step being checked or read, or -1; the field of each
 * member in order. */
export const slot = new StaticArray<i32>(NKEYS);
const memberKey = new StaticArray<i32>(NKEYS + 2);

function keyIndex(m: i32): i32 {
  return lookup(m, KEYS, KEY_SIGS);
}

/** Fills `slot` for the validated step `v` (members of other keys are skipped): compiling a step
 * reads its fields from there, with one key lookup per member. */
export function readFields(v: i32): void {
  for (let k = 0; k < NKEYS; k++) slot[k] = -1;
  for (let m = firstMember(v); m >= 0; m = nextMember(v, m)) {
    const k = keyIndex(m);
    if (k >= 0) slot[k] = m + 1;
  }
}

/** The index of string token t in `names`, or -1 (also for t = -1: no such member). */
export function nameIndex(t: i32, names: StaticArray<string>): i32 {
  if (t >= 0) for (let k = 0; k < names.length; k++) if (stringEquals(t, names[k])) return k;
  return -1;
}

/** "a, b, c". */
export function list(names: StaticArray<string>): string {
  let s = "";
  for (let k = 0; k < names.length; k++) s += (k == 0 ? "" : ", ") + names[k];
  return s;
}

/** Records "<what> needs schemaVersion <version> or later"; callers test `schema >= version` first,
 * so that `what` is only built on failure (and, as a literal, goes to the messages table). */
function tooOld(version: i32, what: string): bool {
  return bad(what + " needs schemaVersion " + version.toString() + " or later");
}

/** POST /api/animations/play: the flat step also holds `group` and `panels` (checked by the caller). */
let flat = false;
export function setFlatStep(on: bool): void {
  flat = on;
}

/** Checks step `v`, number `si` of the `count` steps of layer `li`; the caller pushed its path. */
export function checkStep(v: i32, li: i32, si: i32, count: i32): bool {
  if (kindOf(v) != J_OBJECT) return bad("a step must be an object");
  stepIdToken[li * MAX_STEPS + si] = -1;
  stepDuration[li * MAX_STEPS + si] = 0;
  for (let k = 0; k < NKEYS; k++) slot[k] = -1;
  let members = 0;
  for (let m = firstMember(v); m >= 0; m = nextMember(v, m)) {
    const k = keyIndex(m);
    if (k < 0 && flat && (stringEquals(m, "group") || stringEquals(m, "panels"))) {
      memberKey[members++] = K_TYPE; // skipped below, like type
      continue;
    }
    if (k < 0) return unknownAt(stringValue(m), list(KEYS) + (flat ? ", group, panels" : ""));
    slot[k] = m + 1;
    memberKey[members++] = k; // at most NKEYS: keys are known and never repeated
  }
  // the kind first: it decides which fields apply
  let kind = KIND_GAP;
  let type = -1;
  let runner = -1;
  if (slot[K_TYPE] >= 0) {
    pushKey("type");
    if (!needString(slot[K_TYPE])) return false;
    type = nameIndex(slot[K_TYPE], TYPES);
    if (type < 0) return bad("unknown animation type; expected one of " + list(TYPES));
    pop();
    kind = KIND_LOCAL;
  }
  if (slot[K_RUNNER] >= 0) {
    pushKey("runner");
    if (kind == KIND_LOCAL) return bad("type and runner are mutually exclusive");
    if (!needString(slot[K_RUNNER])) return false;
    runner = nameIndex(slot[K_RUNNER], RUNNERS);
    if (runner < 0) return bad("unknown runner; expected one of " + list(RUNNERS));
    if (!(schema >= RUNNER_SCHEMA[runner] || tooOld(RUNNER_SCHEMA[runner], RUNNERS[runner]))) return false;
    pop();
    kind = KIND_RUNNER;
  }
  if (kind == KIND_GAP && !(schema >= 2 || tooOld(2, "a gap step"))) return false;
  if (slot[K_DURATION] < 0) return badAt("duration", "required");

  let i = 0;
  for (let m = firstMember(v); m >= 0; m = nextMember(v, m)) {
    const k = memberKey[i++];
    if (k == K_TYPE || k == K_RUNNER) continue;
    pushKey(KEYS[k]);
    const rule = applies(k, kind, runner);
    if (rule.length > 0) return bad(rule);
    if (!checkField(k, m + 1, kind, type, runner, li, si, count)) return false;
    pop();
  }

  // rules across fields
  if (slot[K_COLOR] >= 0 && slot[K_COLOR_TO] >= 0) {
    return badAt(slot[K_COLOR] > slot[K_COLOR_TO] ? "color" : "colorTo", "color is an alias of colorTo; give one");
  }
  if (slot[K_ORIGIN_PANEL] >= 0 && slot[K_SOURCE] >= 0) {
    return badAt("originPanel", "conflicts with source");
  }
  const source = slot[K_SOURCE];
  const dir = slot[K_DIRECTIONALITY];
  if (source >= 0 && stringEquals(source, "geometric")) {
    if (dir >= 0 && !stringEquals(dir, "geometric")) {
      return badAt("source", '"geometric" conflicts with directionality');
    }
    addRewrite(source - 1, dir >= 0 ? RW_GEOMETRIC_SOURCE_ONLY : RW_GEOMETRIC, dir >= 0 ? 0 : 24);
  }
  if (slot[K_ORIGIN_PANEL] >= 0) addRewrite(slot[K_ORIGIN_PANEL] - 1, RW_ORIGIN, 3);
  if (type == T_HUE_CYCLE && slot[K_ANIMATES] >= 0 && !stringEquals(slot[K_ANIMATES], "color")) {
    return badAt("animates", 'HUE_CYCLE animates only "color"');
  }
  return true;
}

/** "" when field k applies to a step of this kind (and runner), else the rule it breaks. */
function applies(k: i32, kind: i32, runner: i32): string {
  if (k == K_ID || k == K_DURATION) return "";
  if (kind == KIND_GAP) return "a gap step (no type or runner) takes only id and duration";
  switch (k) {
    case K_COLOR:
    case K_COLOR_TO:
    case K_COLOR_FROM:
    case K_PARAMS:
    case K_ANIMATES:
      return "";
    case K_LOOP:
    case K_PINGPONG:
    case K_FROM:
    case K_TO:
      return kind == KIND_LOCAL ? "" : "applies only to panel-local steps (type)";
  }
  if (kind != KIND_RUNNER) return "applies only to runner steps";
  switch (k) {
    case K_COUNT:
      return runner <= R_CHASE ? "" : "applies only to the WAVE, RIPPLE and CHASE runners";
    case K_REPEAT:
    case K_REPEAT_COUNT:
      return runner <= R_CHASE || runner == R_BOUNCE
        ? ""
        : "applies only to the WAVE, RIPPLE, CHASE and BOUNCE runners";
    case K_WAVES:
      return runner >= R_RAIN ? "" : "applies only to the RAIN, SPARKLE and MATRIX runners";
    case K_SPEED:
      return runner >= R_RAIN ? "" : "applies only to the RAIN, SPARKLE and MATRIX runners";
    case K_LINES:
    case K_THICKNESS:
      return runner == R_WHEEL ? "" : "applies only to the WHEEL runner";
  }
  return "";
}

/** The integer ranges of step fields: lowest << 16 | highest. */
const RANGES = memory.data<u32>([0xffff, 0xff, 359, 0x1001e, 0x100ff, 0x10006, 0x100fe]);
/** Per field (K_*): the schemaVersion it needs << 4 | for an integer, 1 + its index in RANGES (0:
 * not an integer). The schema rule reads "<key> needs schemaVersion N or later". */
const FORM = memory.data<u8>([
  0, // id (checkId)
  0, // type
  0, // runner
  0, // color
  0, // colorTo
  0, // colorFrom
  1, // duration 0-65535
  0, // loop
  0, // pingpong
  0, // params
  0, // animates
  2, // from 0-255
  2, // to
  2, // amount
  0, // source
  0, // directionality
  3, // angle 0-359
  0, // reverse
  2, // waveWidth
  2, // rippleWidth
  2, // width
  4, // count 1-30
  0x50, // repeat: schemaVersion 5
  0x55, // repeatCount 1-255, schemaVersion 5
  0x75, // waves 1-255, schemaVersion 7
  1, // speed
  6, // lines 1-6
  3, // thickness
  7, // originPanel 1-254
]);

function checkField(k: i32, t: i32, kind: i32, type: i32, runner: i32, li: i32, si: i32, count: i32): bool {
  const form = <i32>load<u8>(FORM + k);
  if (schema < form >> 4) return tooOld(form >> 4, KEYS[k]);
  if (form & 15) {
    const range = load<u32>(RANGES + ((<usize>(form & 15) - 1) << 2));
    const v = needInt(t, range >> 16, range & 0xffff);
    if (v < 0 || k != K_DURATION) return v >= 0;
    if (v == 0 && si != count - 1) return bad("0 (infinite) is only allowed on the last step");
    stepDuration[li * MAX_STEPS + si] = <u32>v;
    return true;
  }
  switch (k) {
    case K_ID:
      return checkId(t, li, si);
    case K_COLOR:
    case K_COLOR_TO:
    case K_COLOR_FROM:
      return checkColor(t);
    case K_PARAMS:
      return checkParams(t);
    case K_ANIMATES: {
      if (!needString(t)) return false;
      const a = nameIndex(t, ANIMATES);
      if (a < 0) return bad("must be one of " + list(ANIMATES));
      return schema >= ANIMATES_SCHEMA[a] || tooOld(ANIMATES_SCHEMA[a], "animates " + ANIMATES[a]);
    }
    case K_SOURCE:
      return checkSource(t);
    case K_DIRECTIONALITY:
      if (stringEquals(t, "topology")) return true;
      if (stringEquals(t, "geometric")) return schema >= 3 || tooOld(3, "geometric directionality");
      return bad('must be "topology" or "geometric"');
  }
  return needBool(t); // loop, pingpong, reverse, repeat
}

function checkId(t: i32, li: i32, si: i32): bool {
  if (!(schema >= 8 || tooOld(8, "a step id"))) return false;
  if (!needString(t)) return false;
  textOf(t);
  if (tl < 1 || tl > <u32>ID_MAX) return bad(ID_RULE);
  for (let i: u32 = 0; i < tl; i++) {
    const c = <u32>load<u8>(tp + i);
    const ok =
      (c >= 0x30 && c <= 0x39) || (c >= 0x41 && c <= 0x5a) || (c >= 0x61 && c <= 0x7a) || c == 0x5f || c == 0x2d;
    if (!ok) return bad(ID_RULE);
  }
  for (let j = 0; j < si; j++) {
    const other = stepIdToken[li * MAX_STEPS + j];
    if (other >= 0 && sameText(other, t)) {
      textOf(t);
      return bad("step id " + quote(tp, tl) + " is already used by step " + j.toString() + " of this sequence");
    }
  }
  stepIdToken[li * MAX_STEPS + si] = t;
  return true;
}

function checkParams(t: i32): bool {
  const n = sizeOf(t);
  if (kindOf(t) != J_ARRAY || n > 4) return bad("must be an array of 0-4 integers 0-255");
  let e = t + 1;
  for (let i = 0; i < n; i++) {
    pushIndex(i);
    if (needInt(e, 0, 255) < 0) return false;
    pop();
    e = after(e);
  }
  return true;
}

function checkSource(t: i32): bool {
  if (!needString(t)) return false;
  textOf(t);
  if (bytesAre(tp, tl, "root") || bytesAre(tp, tl, "leaves") || bytesAre(tp, tl, "all")) return true;
  if (bytesAre(tp, tl, "geometric")) return schema >= 3 || tooOld(3, 'source "geometric"');
  if (startsWith(tp, tl, "panel:")) {
    const n = parseDecimal(tp + 6, tl - 6);
    if (n >= 1 && n <= 254) return true;
  }
  return bad('must be "root", "leaves", "all" or "panel:N" with a panel index 1-254');
}
