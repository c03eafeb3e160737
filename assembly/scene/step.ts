// One step of a layer's sequence: a panel-local animation (`type`), a controller runner (`runner`)
// or a gap (neither), read as it streams by object-reader.ts's reader (its STEP rows: each field's type,
// range and schemaVersion), into `slot` as values (compiled at the step's end: playback/compile.ts);
// this file reads the fields that are more than a value (params: validate.ts readList), and checks
// what applies to the step's kind and the rules across fields when the step ends (the kind may come
// last). A field that does not apply is rejected (see docs/scenes.md), except where the scene format
// says a runner ignores it (BOUNCE: repeat, repeatCount; SPARKLE: speed).
import { J_OBJECT, piece } from "../json/reader";
import { value, text, textBytes } from "../json/stream";
import { names, nameIndex } from "../util/names";
import { Fixed } from "../rt/fixed";
import { bad, badAt, needInt, needString, parseDecimal, quote, gate, textHash, idChars } from "./path-errors";
import { W_STEP_ID, W_SOURCE_GEOMETRIC, W_GAP } from "./path-errors";
import { readObject, ORDER, STEP } from "./object-reader";
import { readColor } from "./color";
import { STEP_KEYS } from "./names";
import { K_HUE_CYCLE } from "../generated/kinds"; // a type's index is its code
import {
  KEY_ID,
  KEY_TYPE,
  KEY_RUNNER,
  KEY_COLOR,
  KEY_COLOR_TO,
  KEY_DURATION,
  KEY_ANIMATES,
  KEY_SOURCE,
  KEY_DIRECTIONALITY,
  KEY_ORIGIN_PANEL,
  SOURCE_GEOMETRIC,
} from "./step-keys";
import { stepDuration, stepIdHash, MAX_STEPS, slots } from "./state";
import * as out from "./canonical";
import { intText } from "../util/int-text";

const NKEYS = 31; // and the flat step's group and panels

/** The value of each field (K_*) of the step just read, or -1: numbers as they are, booleans 0 or
 * 1, names as their index (type, runner, animates; directionality 1 geometric; source an index of
 * runner/step-params.ts SOURCES, `panel:N` putting N under originPanel), colours packed (color.ts),
 * params their count (the first two in param0, param1). The step's rows of object-reader.ts `slots`. */
export const slot = changetype<Fixed<i32>>(slots);
export let param0 = 0;
export let param1 = 0;

/** What applies to each field (finishStep): a bit per runner (R_*), LOCAL, GAP; and in bits 12-14
 * the rule it breaks on a runner step it does not apply to (notApplying: 2 panel-local only, 3-6
 * runnerRules'). */
const LOCAL: u16 = 0x100;
const GAP: u16 = 0x200;
const RUN: u16 = 0xff;
const ALL: u16 = 0x3ff;
const BOTH: u16 = 0x1ff;
const ONLY_LOCAL: u16 = LOCAL | (2 << 12);
// prettier-ignore
const APPLY = memory.data<u16>([
  ALL, ALL, ALL, BOTH, BOTH, BOTH, ALL, ONLY_LOCAL, ONLY_LOCAL, BOTH, BOTH, ONLY_LOCAL, ONLY_LOCAL, RUN, RUN, RUN,
  RUN, RUN, RUN, RUN, RUN,
  0x07 | (3 << 12), // count: WAVE, RIPPLE, CHASE
  0x17 | (4 << 12), 0x17 | (4 << 12), // repeat, repeatCount: and BOUNCE
  0xe0 | (5 << 12), 0xe0 | (5 << 12), // waves, speed: RAIN, SPARKLE, MATRIX
  0x08 | (6 << 12), 0x08 | (6 << 12), // lines, thickness: WHEEL
  RUN, ALL, ALL,
]);

/** runner/step-params.ts SOURCES: root, leaves, panel:N, all, geometric (the legacy form: SOURCE_GEOMETRIC). */
const SOURCE_NAMES = names("root leaves panel: all geometric");
const SOURCE_PANEL = 2;

const ID_MAX = 32;
const ID_RULE = "must be 1-32 characters of [a-zA-Z0-9_-]";

/** The step being read: its layer, its index, and whether color came before colorTo. */
let stepLayer = 0;
let stepIndex = 0;
let colorFirst = false;

/**
 * Reads step number `si` of layer `li` (its object is next in the stream; the caller pushed its
 * path) into `slot`; false after recording the first problem. Whether it is the last (only the last
 * may be infinite) is known only later: the caller checks an infinite step's position (infiniteAt).
 */
export function readStep(li: i32, si: i32): bool {
  if (value() != J_OBJECT) return bad("a step must be an object");
  return readStepObject(li, si);
}

/** As readStep, its object already opened (the flat step is the document). */
export function readStepObject(li: i32, si: i32): bool {
  stepLayer = li;
  stepIndex = si;
  const at = li * MAX_STEPS + si;
  stepIdHash[at] = 0;
  memory.fill(slots, 0xff, NKEYS << 2);
  param0 = 0;
  param1 = 0;
  const seen = readObject(STEP);
  if (seen < 0 || !finishStep(<u32>seen)) return false;
  const d = slot[KEY_DURATION];
  stepDuration[at] = <u32>d;
  if (d == 0) infiniteAt = si;
  return true;
}

/** A colour reference (color, colorTo, colorFrom): a object-reader.ts Reader. */
export function readColorRef(r: i32, _row: u32, seen: u32): bool {
  const c = readColor();
  if (c < 0) return false;
  if (r == KEY_COLOR) colorFirst = (seen & (1 << KEY_COLOR_TO)) == 0;
  slot[r] = c;
  return true;
}

/** originPanel, the legacy form: written as source "panel:N" (read through validate.ts sceneField). */
export function readOrigin(r: i32): bool {
  const v = needInt(1, 254);
  if (v < 0) return false;
  slot[r] = v;
  out.fragment(out.F_SOURCE_PANEL);
  out.number();
  out.byte(0x22);
  return true;
}

/** The rule a field with APPLY bits `a` breaks on a step of this kind (GAP, LOCAL, else a runner
 * step), which it does not apply to. */
function notApplying(a: u32, kind: u32): string {
  const i = kind == GAP ? 0 : kind == LOCAL ? 1 : a >> 12;
  return i < 3 ? piece(kindRules(), i) : piece(runnerRules(), i - 3);
}

/** notApplying's rules, as two texts (json/reader.ts piece; a message is at most 256 bytes).
 * @message-returns: they go to the UTF-8 message table (scripts/messages-transform.mjs). */
function kindRules(): string {
  return "a gap step (no type or runner) takes only id and duration|applies only to runner steps|applies only to panel-local steps (type)";
}

/** @message-returns */
function runnerRules(): string {
  return "applies only to the WAVE, RIPPLE and CHASE runners|applies only to the WAVE, RIPPLE, CHASE and BOUNCE runners|applies only to the RAIN, SPARKLE and MATRIX runners|applies only to the WHEEL runner";
}

/** The rules that need the whole step (its members `seen`): its kind, what applies to it, fields
 * together. */
function finishStep(seen: u32): bool {
  const type = slot[KEY_TYPE];
  const runner = slot[KEY_RUNNER];
  if ((type >= 0) & (runner >= 0)) return badAt(STEP_KEYS, KEY_RUNNER, "type and runner are mutually exclusive");
  const kind: u32 = type >= 0 ? LOCAL : runner >= 0 ? 1 << runner : GAP;
  if (kind == GAP && !gate(2, W_GAP)) return false;
  if (slot[KEY_DURATION] < 0) return badAt(STEP_KEYS, KEY_DURATION, "required");
  // each member in order (the first that does not apply is the message)
  const n = popcnt(seen);
  for (let i: u32 = 0; i < n; i++) {
    const k = <i32>load<u8>(ORDER + i); // object-reader.ts: the step's level is 0
    const a = <u32>load<u16>(APPLY + ((<usize>k) << 1));
    if ((a & kind) == 0) return badAt(STEP_KEYS, k, notApplying(a, kind));
  }
  const given = seen;
  if (given & (1 << KEY_COLOR) && given & (1 << KEY_COLOR_TO)) {
    return badAt(STEP_KEYS, colorFirst ? KEY_COLOR_TO : KEY_COLOR, "color is an alias of colorTo; give one");
  }
  if (given & (1 << KEY_ORIGIN_PANEL) && given & (1 << KEY_SOURCE))
    return badAt(STEP_KEYS, KEY_ORIGIN_PANEL, "conflicts with source");
  if (slot[KEY_SOURCE] == SOURCE_GEOMETRIC && given & (1 << KEY_DIRECTIONALITY) && slot[KEY_DIRECTIONALITY] != 1) {
    return badAt(STEP_KEYS, KEY_SOURCE, '"geometric" conflicts with directionality');
  }
  if (type == K_HUE_CYCLE && slot[KEY_ANIMATES] > 0)
    return badAt(STEP_KEYS, KEY_ANIMATES, 'HUE_CYCLE animates only "color"');
  return true;
}

/** The step whose duration was 0 (infinite), or -1: the caller refuses it when another follows. */
export let infiniteAt = -1;

export function resetInfinite(): void {
  infiniteAt = -1;
}

/** A step's id: unique in its sequence (a object-reader.ts Reader). */
export function readId(_r: i32, _row: u32, _seen: u32): bool {
  if (!gate(8, W_STEP_ID)) return false;
  if (!needString()) return false;
  const n = textBytes;
  if (n - 1 >= <u32>ID_MAX || !idChars(text, n, true)) return bad(ID_RULE);
  const h = textHash(text, n) | 1; // 0: no id
  const first = stepLayer * MAX_STEPS;
  for (let j = 0; j < stepIndex; j++) {
    if (stepIdHash[first + j] == h) {
      return bad("step id " + quote(text, n) + " is already used by step " + intText(j) + " of this sequence");
    }
  }
  stepIdHash[first + stepIndex] = h;
  slot[KEY_ID] = 1;
  return true;
}

/** Param `n` of the step being read, 0-255 (validate.ts reads the list; the first two are kept). */
export function setParam(n: i32, v: i32): void {
  if (n == 0) param0 = v;
  else if (n == 1) param1 = v;
}

/** source: root, leaves, all, panel:N, or the legacy "geometric" (read through validate.ts
 * sceneField: its value is rewritten). */
export function readSource(): bool {
  if (!needString()) return false;
  const p = text;
  const n = textBytes;
  let s = nameIndex(SOURCE_NAMES, p, n);
  if (s == SOURCE_GEOMETRIC) {
    if (!gate(3, W_SOURCE_GEOMETRIC)) return false;
    // the legacy form: root, with geometric directionality as the step's last member unless the
    // step gives one (object-reader.ts readObject)
    out.fragment(out.F_SOURCE_ROOT);
  } else if ((s < 0) | (s == SOURCE_PANEL)) {
    // "panel:N" (`text` holds at least 6 bytes)
    const prefixed = (n > 6) & (load<u32>(p) == 0x656e6170) & (load<u16>(p, 4) == 0x3a6c);
    const panel = prefixed ? parseDecimal(p + 6, n - 6) : -1;
    if (<u32>(panel - 1) >= 254) return bad('must be "root", "leaves", "all" or "panel:N" with a panel index 1-254');
    s = SOURCE_PANEL;
    slot[KEY_ORIGIN_PANEL] = panel;
  }
  if (s != SOURCE_GEOMETRIC) {
    out.fragment(out.F_SOURCE);
    out.str();
  }
  slot[KEY_SOURCE] = s;
  return true;
}
