// One step of a layer's sequence: a panel-local animation (`type`), a controller runner (`runner`)
// or a gap (neither), read as it streams (json/stream.ts). Each field's value is checked for its
// type, range and schemaVersion as it comes, echoed to the canonical form and kept in `slot` as a
// value (compiled at the step's end: playback/compile.ts); what applies to the step's kind, and the
// rules across fields, are checked when the step ends (the kind may come last). A field that does
// not apply is rejected (see docs/scenes.md), except where the scene format says a runner ignores
// it (BOUNCE: repeat, repeatCount; SPARKLE: speed).
import { J_OBJECT, J_ARRAY, J_STRING, J_TRUE } from "../json/reader";
import { value, member, element, duplicateKey, pauseEcho, kind, text, textBytes, textLength } from "../json/stream";
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
  intOf,
  textIs,
  nameIndex,
  list,
  bytesAre,
  startsWith,
  parseDecimal,
  quote,
  lookup,
  signatures,
  gate,
  gatePasses,
  textHash,
} from "./text";
import { readColor } from "./color";
import { stepDuration, stepIdHash, MAX_STEPS } from "./state";
import * as out from "./canonical";

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

/** The value of each field (K_*) of the step just read, or -1: numbers as they are, booleans 0 or
 * 1, names as their index (type, runner, animates; directionality 1 geometric; source an index of
 * runner/fields.ts SOURCES, `panel:N` putting N under originPanel), colours packed (color.ts),
 * params their count (the first two in param0, param1). */
export const slot = new StaticArray<i32>(NKEYS);
export let param0 = 0;
export let param1 = 0;
/** The fields given, a bit per K_*, and each member's field in order (checked at the step's end). */
let given: u32 = 0;
const memberKey = new StaticArray<i32>(NKEYS + 2);
let members = 0;

/** POST /api/animations/play: the flat step also holds `group` and `panels` (read by the caller). */
let flat = false;
export function setFlatStep(on: bool): void {
  flat = on;
}

/** For the flat step's caller: the member just read is one of its own (group, panels). */
export let flatMember: (name: i32) => bool = noFlat;
function noFlat(_k: i32): bool {
  return false;
}
export function setFlatMember(f: (name: i32) => bool): void {
  flatMember = f;
}

/**
 * Reads step number `si` of layer `li` (its object is next in the stream; the caller pushed its
 * path) into `slot`; false after recording the first problem. `last`: no step follows (only the
 * last may be infinite) is known only later, so an infinite step's position is checked by the
 * caller (sequence).
 */
export function readStep(li: i32, si: i32): bool {
  if (value() != J_OBJECT) return bad("a step must be an object");
  return readStepMembers(li, si);
}

/** As readStep, its object already opened (the flat step is the document). */
export function readStepMembers(li: i32, si: i32): bool {
  const at = li * MAX_STEPS + si;
  stepIdHash[at] = 0;
  stepDuration[at] = 0;
  for (let k = 0; k < NKEYS; k++) unchecked((slot[k] = -1));
  given = 0;
  members = 0;
  param0 = 0;
  param1 = 0;
  out.byte(0x7b);
  // each member by stepMember, a function of its own (it has two callers: Binaryen inlines a function
  // with one, and inlined, the returns of its switch would become branches over the whole switch,
  // which WAMR's classic interpreter scans when its small cache of block ends has lost one)
  if (member()) {
    if (!stepMember(li, si)) return false;
    pop();
    while (member()) {
      if (!stepMember(li, si)) return false;
      pop();
    }
  }
  out.release(given & (1 << K_DIRECTIONALITY) ? "" : ',"directionality":"geometric"');
  out.byte(0x7d);
  return finishStep();
}

/** The member just read (member()), its path pushed (the caller pops it): false after recording
 * the first problem. */
function stepMember(li: i32, si: i32): bool {
  const k = lookup(KEYS, KEY_SIGS);
  if (k < 0) return otherMember();
  if (given & (1 << k)) return duplicate();
  given |= 1 << k;
  unchecked((memberKey[members] = k));
  // originPanel and source write their own key: legacy forms are rewritten
  if ((k != K_ORIGIN_PANEL) & (k != K_SOURCE)) out.field(members == 0);
  else if (members > 0) out.byte(0x2c);
  members++;
  const key = unchecked(KEYS[k]);
  pushKey(key);
  const form = <i32>load<u8>(FORM + k);
  if (!gate(form >> 4, key)) return false;
  pauseEcho((k == K_ORIGIN_PANEL) | (k == K_SOURCE)); // legacy forms are rewritten
  value();
  pauseEcho(false);
  // by the field's reader: WAMR's classic interpreter finds a case's block end past the cases before
  // it, so the order is by size over use (in the maximal scene), the small and frequent first
  switch (k) {
    case K_LOOP:
    case K_PINGPONG:
    case K_REVERSE:
    case K_REPEAT:
      return readBoolean(k);
    case K_DURATION: // the integers of FORM
    case K_FROM:
    case K_TO:
    case K_AMOUNT:
    case K_ANGLE:
    case K_WAVE_WIDTH:
    case K_RIPPLE_WIDTH:
    case K_WIDTH:
    case K_COUNT:
    case K_REPEAT_COUNT:
    case K_WAVES:
    case K_SPEED:
    case K_LINES:
    case K_THICKNESS:
    case K_ORIGIN_PANEL:
      return readInteger(k, li, si);
    case K_ANIMATES:
      return readAnimates(k);
    case K_TYPE:
      return readType(k);
    case K_PARAMS:
      return readParams();
    case K_RUNNER:
      return readRunner(k);
    case K_COLOR:
    case K_COLOR_TO:
    case K_COLOR_FROM:
      return readColorField(k);
    case K_DIRECTIONALITY:
      return readDirectionality(k);
    case K_ID:
      return readId(li, si);
  }
  return readSource();
}

function duplicate(): bool {
  duplicateKey();
  return false;
}

/** A member that is not a step field: true when it was the flat step's own (read; a segment pushed
 * for the caller to pop), else false after recording the failure. */
function otherMember(): bool {
  if (flat && (textIs("group") || textIs("panels"))) {
    pushKey(""); // for the caller to pop: at the root, where the flat step's members are, "" adds nothing to a path
    return flatMember(textIs("group") ? 0 : 1);
  }
  return unknownAt(String.UTF8.decodeUnsafe(text, textLength), list(KEYS) + (flat ? ", group, panels" : ""));
}

/** The rules that need the whole step: its kind, what applies to it, fields together. */
function finishStep(): bool {
  const type = slot[K_TYPE];
  const runner = slot[K_RUNNER];
  if (type >= 0 && runner >= 0) return badAt("runner", "type and runner are mutually exclusive");
  const kind = type >= 0 ? KIND_LOCAL : runner >= 0 ? KIND_RUNNER : KIND_GAP;
  if (kind == KIND_GAP && !gate(2, "a gap step")) return false;
  if (slot[K_DURATION] < 0) return badAt("duration", "required");
  if (given & ~allowed(kind, runner)) {
    for (let i = 0; i < members; i++) {
      const k = memberKey[i];
      if (k == K_TYPE || k == K_RUNNER) continue;
      const rule = applies(k, kind, runner);
      if (rule.length > 0) return badAt(KEYS[k], rule);
    }
  }
  if (given & (1 << K_COLOR) && given & (1 << K_COLOR_TO)) {
    return badAt(colorFirst ? "colorTo" : "color", "color is an alias of colorTo; give one");
  }
  if (given & (1 << K_ORIGIN_PANEL) && given & (1 << K_SOURCE)) return badAt("originPanel", "conflicts with source");
  if (slot[K_SOURCE] == SOURCE_GEOMETRIC && given & (1 << K_DIRECTIONALITY) && slot[K_DIRECTIONALITY] != 1) {
    return badAt("source", '"geometric" conflicts with directionality');
  }
  if (type == T_HUE_CYCLE && slot[K_ANIMATES] > 0) return badAt("animates", 'HUE_CYCLE animates only "color"');
  return true;
}

/** The fields that apply to a step of this kind (and runner), a bit per K_*: those for which
 * applies() gives "" (it words the rule of one that does not). */
function allowed(kind: i32, runner: i32): u32 {
  let m: u32 = (1 << K_ID) | (1 << K_DURATION) | (1 << K_TYPE) | (1 << K_RUNNER);
  if (kind == KIND_GAP) return m;
  m |= (1 << K_COLOR) | (1 << K_COLOR_TO) | (1 << K_COLOR_FROM) | (1 << K_PARAMS) | (1 << K_ANIMATES);
  if (kind == KIND_LOCAL) return m | (1 << K_LOOP) | (1 << K_PINGPONG) | (1 << K_FROM) | (1 << K_TO);
  // a runner: every other field, but those of some runners only
  m |= ~((1 << K_LOOP) | (1 << K_PINGPONG) | (1 << K_FROM) | (1 << K_TO));
  m &= ~((1 << K_COUNT) | (1 << K_REPEAT) | (1 << K_REPEAT_COUNT) | (1 << K_WAVES) | (1 << K_SPEED));
  m &= ~((1 << K_LINES) | (1 << K_THICKNESS));
  if (runner <= R_CHASE) m |= 1 << K_COUNT;
  if (runner <= R_CHASE || runner == R_BOUNCE) m |= (1 << K_REPEAT) | (1 << K_REPEAT_COUNT);
  if (runner >= R_RAIN) m |= (1 << K_WAVES) | (1 << K_SPEED);
  if (runner == R_WHEEL) m |= (1 << K_LINES) | (1 << K_THICKNESS);
  return m;
}

let colorFirst = false; // color came before colorTo

/** runner/fields.ts SOURCES: root, leaves, panel:N, all, geometric. */
const SOURCE_PANEL = 2;
const SOURCE_GEOMETRIC = 4;
const SOURCE_NAMES: StaticArray<string> = ["root", "leaves", "", "all", "geometric"];

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
 * not an integer; stepMember's switch lists the integers). The schema rule reads "<key> needs
 * schemaVersion N or later". */
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

/** An integer field in its range (FORM). */
function readInteger(k: i32, li: i32, si: i32): bool {
  const range = load<u32>(RANGES + ((<usize>(load<u8>(FORM + k) & 15) - 1) << 2));
  const v = needInt(range >> 16, range & 0xffff);
  if (v < 0) return false;
  unchecked((slot[k] = v));
  if (k == K_ORIGIN_PANEL) {
    out.ascii('"source":"panel:');
    out.number();
    out.byte(0x22);
    return true;
  }
  out.number();
  if (k == K_DURATION) {
    stepDuration[li * MAX_STEPS + si] = <u32>v;
    if (v == 0) infiniteAt = si;
  }
  return true;
}

function readType(k: i32): bool {
  if (!needString()) return false;
  const t = nameIndex(TYPES);
  if (t < 0) return bad("unknown animation type; expected one of " + list(TYPES));
  out.str();
  unchecked((slot[k] = t));
  return true;
}

function readRunner(k: i32): bool {
  if (!needString()) return false;
  const r = nameIndex(RUNNERS);
  if (r < 0) return bad("unknown runner; expected one of " + list(RUNNERS));
  if (!gate(RUNNER_SCHEMA[r], RUNNERS[r])) return false;
  out.str();
  unchecked((slot[k] = r));
  return true;
}

function readColorField(k: i32): bool {
  const c = readColor();
  if (c < 0) return false;
  if (k == K_COLOR) colorFirst = (given & (1 << K_COLOR_TO)) == 0;
  unchecked((slot[k] = c));
  return true;
}

function readAnimates(k: i32): bool {
  if (!needString()) return false;
  const a = nameIndex(ANIMATES);
  if (a < 0) return bad("must be one of " + list(ANIMATES));
  const v = ANIMATES_SCHEMA[a];
  if (!gatePasses(v) && !gate(v, "animates " + ANIMATES[a])) return false;
  out.str();
  unchecked((slot[k] = a));
  return true;
}

function readDirectionality(k: i32): bool {
  const geometric = textIs("geometric") && kind == J_STRING;
  if (!geometric && !(textIs("topology") && kind == J_STRING)) return bad('must be "topology" or "geometric"');
  if (geometric && !gate(3, "geometric directionality")) return false;
  out.str();
  unchecked((slot[k] = geometric ? 1 : 0));
  return true;
}

/** loop, pingpong, reverse, repeat. */
function readBoolean(k: i32): bool {
  if (!needBool()) return false;
  out.boolean();
  unchecked((slot[k] = kind == J_TRUE ? 1 : 0));
  return true;
}

/** The step whose duration was 0 (infinite), or -1: the caller refuses it when another follows. */
export let infiniteAt = -1;

export function resetInfinite(): void {
  infiniteAt = -1;
}

function readId(li: i32, si: i32): bool {
  if (!gate(8, "a step id")) return false;
  if (!needString()) return false;
  const n = textBytes;
  if (n < 1 || n > <u32>ID_MAX) return bad(ID_RULE);
  for (let i: u32 = 0; i < n; i++) {
    const c = <u32>load<u8>(text + i);
    const ok =
      (c >= 0x30 && c <= 0x39) || (c >= 0x41 && c <= 0x5a) || (c >= 0x61 && c <= 0x7a) || c == 0x5f || c == 0x2d;
    if (!ok) return bad(ID_RULE);
  }
  const h = textHash(text, n) | 1; // 0: no id
  for (let j = 0; j < si; j++) {
    if (stepIdHash[li * MAX_STEPS + j] == h) {
      return bad("step id " + quote(text, n) + " is already used by step " + j.toString() + " of this sequence");
    }
  }
  stepIdHash[li * MAX_STEPS + si] = h;
  out.str();
  slot[K_ID] = 1;
  return true;
}

function readParams(): bool {
  if (kind != J_ARRAY) return bad("must be an array of 0-4 integers 0-255");
  out.byte(0x5b);
  let n = 0;
  while (element()) {
    if (n == 4) return bad("must be an array of 0-4 integers 0-255");
    pushIndex(n);
    if (n > 0) out.byte(0x2c);
    value();
    const v = needInt(0, 255);
    if (v < 0) return false;
    pop();
    out.number();
    if (n == 0) param0 = v;
    else if (n == 1) param1 = v;
    n++;
  }
  out.byte(0x5d);
  slot[K_PARAMS] = n;
  return true;
}

function readSource(): bool {
  if (!needString()) return false;
  const p = text;
  const n = textBytes;
  let s = -1;
  for (let i = 0; i < SOURCE_NAMES.length; i++) if (i != SOURCE_PANEL && bytesAre(p, n, SOURCE_NAMES[i])) s = i;
  if (s == SOURCE_GEOMETRIC) {
    if (!gate(3, 'source "geometric"')) return false;
    // the legacy form: root, with geometric directionality right after unless the step gives one
    out.ascii('"source":"root"');
    out.hold();
  } else if (s < 0) {
    const panel = startsWith(p, n, "panel:") ? parseDecimal(p + 6, n - 6) : -1;
    if (panel < 1 || panel > 254) return bad('must be "root", "leaves", "all" or "panel:N" with a panel index 1-254');
    s = SOURCE_PANEL;
    slot[K_ORIGIN_PANEL] = panel;
  }
  if (s != SOURCE_GEOMETRIC) {
    out.ascii('"source":');
    out.str();
  }
  slot[K_SOURCE] = s;
  return true;
}
