// The scene pass: one walk over a scene document as it streams in (json/stream.ts: a request body
// or a stored file, read forward in small windows) that validates it level by level (this file: the
// top level and layers; step.ts, color.ts, targeting.ts; startafter.ts once every layer is known),
// writes its canonical form (canonical.ts) and compiles it (playback/compile.ts, through the writer
// of playback/bytes.ts) at the same time. What it learns goes to the fixed arrays of state.ts; no
// part of the document is kept. The first violation is recorded as "<json path>: <rule>"
// (json/validate) and stops the checks; the pass then only reads on to the end, so that a syntax
// error anywhere still refuses the document as such (400) and a late schemaVersion is still seen.
import { J_OBJECT, J_ARRAY, J_NUMBER, J_STRING, J_TRUE, J_FALSE } from "../json/reader";
import {
  value,
  member,
  element,
  skipValue,
  skipTo,
  finish,
  duplicateKey,
  broken,
  kind,
  text,
  textBytes,
  textLength,
  textChars,
  textControl,
  numberValue,
  numberInteger,
  numberLength,
  pauseEcho,
} from "../json/stream";
import { parseHexColorAt, validationError, resetErrors } from "../json/validate";
import {
  bad,
  badAt,
  unknownAt,
  pathReset,
  pushKey,
  pushIndex,
  pop,
  needBool,
  needString,
  intOf,
  textIs,
  nameIndex,
  list,
  lookup,
  signatures,
  indexOfByte,
  quote,
  textHash,
  gate,
  gatesReset,
  judgeGates,
  setSchema as setGateSchema,
} from "./text";
import { readStep, readStepMembers, setFlatStep, setFlatMember, infiniteAt, resetInfinite } from "./step";
import { checkSelector, startLayer, SEL_ALL } from "./targeting";
import { checkStartAfter } from "./startafter";
import * as out from "./canonical";
import * as c from "../playback/compile";
import { put, putF64, putBytes, patch16, outLength } from "../playback/bytes";
import {
  FIRMWARE_SCHEMA,
  MAX_LAYERS,
  MAX_STEPS,
  GROUPS_UNKNOWN,
  GROUPS_NAMES,
  GROUPS_NUMBERS,
  ASYNC_LOOP,
  ASYNC_FREE,
  ASYNC_NO,
  named,
  layerCount,
  groupKind,
  groupHash,
  groupNumber,
  startNumber,
  startText,
  afterLayer,
  afterStep,
  asyncMode,
  disabled,
  stepCount,
  resetState,
  setSchema,
  setSpeed,
  setName,
  setLayerCount,
  setGroupKind,
} from "./state";

export const SCENE_OK: i32 = 0;
/** A schemaVersion newer than the firmware: 409 schema_too_new; see tooNewVersion. */
export const SCENE_TOO_NEW: i32 = 409;
/** Invalid: 422 with json/validate's validationError(). */
export const SCENE_INVALID: i32 = 422;

/** Validation options. */
export const REQUIRE_NAME: u32 = 1; // saving to the library needs a name
export const ALLOW_ID: u32 = 2; // playback bodies may carry the id

export const NAME_MAX = 64;
export const PALETTE_NAME_MAX = 30;
export const GROUP_NAME_MAX = 32;

/** The schemaVersion of a document answered with SCENE_TOO_NEW. */
export let tooNewVersion: i64 = 0;

export const BLENDS: StaticArray<string> = [
  "opaque",
  "add",
  "max",
  "multiply",
  "screen",
  "darken",
  "overlay",
  "difference",
  "subtract",
];

/** A syntax error (json/reader errorOffset and errorReason say where and why): 400 invalid_json. */
export const SCENE_SYNTAX: i32 = 400;

/** The scene's base colours, in their order. */
export const COLOR_KEYS: StaticArray<string> = ["primary", "secondary", "tertiary"];

const SCENE_KEYS: StaticArray<string> = [
  "schemaVersion",
  "name",
  "loop",
  "speed",
  "colors",
  "background",
  "palette",
  "layers",
  "id",
];
const SCENE_SIGS = signatures(SCENE_KEYS);
const F_SCHEMA = 0;
const F_NAME = 1;
const F_LOOP = 2;
const F_SPEED = 3;
const F_COLORS = 4;
const F_BACKGROUND = 5;
const F_PALETTE = 6;
const F_LAYERS = 7;
const F_ID = 8;

const LAYER_KEYS: StaticArray<string> = [
  "group",
  "sequence",
  "panels",
  "fallback",
  "blend",
  "startAfter",
  "async",
  "palette",
  "disabled",
];
const LAYER_SIGS = signatures(LAYER_KEYS);
const L_GROUP = 0;
const L_SEQUENCE = 1;
const L_PANELS = 2;
const L_FALLBACK = 3;
const L_BLEND = 4;
const L_START_AFTER = 5;
const L_ASYNC = 6;
const L_PALETTE = 7;
const L_DISABLED = 8;

let options: u32 = 0;
let tooNew = false;
let schemaBad = false;

/**
 * Reads the scene document of the open stream (json/stream.ts): SCENE_OK, SCENE_INVALID (the
 * message: json/validate validationError), SCENE_TOO_NEW (tooNewVersion) or SCENE_SYNTAX. Its
 * canonical form goes where canonical.ts begin() said, its compiled form to the writer of
 * playback/bytes.ts (prefix left for sealCompiled).
 */
export function readScene(opts: u32): i32 {
  options = opts;
  resetState();
  pathReset();
  gatesReset(false, 1);
  tooNew = false;
  schemaBad = false;
  for (let i: u32 = 0; i < c.PREFIX; i++) put(0);
  if (value() != J_OBJECT) {
    if (!broken) bad("a scene must be a JSON object");
    skipTo(0);
    return conclude(false);
  }
  out.byte(0x7b);
  let seen: u32 = 0;
  let layers = false;
  let failed = false;
  while (member()) {
    const k = lookup(SCENE_KEYS, SCENE_SIGS);
    if (k >= 0 && seen & (1 << k)) {
      duplicateKey();
      break;
    }
    if (k >= 0) seen |= 1 << k;
    if (k == F_SCHEMA) {
      readSchemaVersion(seen == 1);
      continue;
    }
    if (failed) {
      skipValue();
      continue;
    }
    if (k < 0 || (k == F_ID && (options & ALLOW_ID) == 0)) {
      if (k == F_ID) badAt("id", "not allowed: the service assigns scene ids");
      else
        unknownAt(
          String.UTF8.decodeUnsafe(text, textLength),
          "schemaVersion, name, loop, speed, colors, background, palette, layers" +
            ((options & ALLOW_ID) != 0 ? ", id" : ""),
        );
      failed = true;
      out.stop();
      skipValue();
      continue;
    }
    out.field(seen == 1 << k);
    pushKey(SCENE_KEYS[k]);
    if (k == F_LAYERS) layers = true;
    if (!topField(k)) {
      failed = true;
      out.stop();
      skipTo(1);
      continue;
    }
    pop();
  }
  out.byte(0x7d);
  finish();
  if (broken) return SCENE_SYNTAX;
  return conclude(layers);
}

/** The end: the schemaVersion's verdict, then the first problem, then the rules of the whole. */
function conclude(layers: bool): i32 {
  if (broken) return SCENE_SYNTAX;
  if (tooNew) return SCENE_TOO_NEW;
  if (schemaBad) {
    resetErrorsForSchema();
    return SCENE_INVALID;
  }
  judgeGates();
  if (validationError().length > 0) return SCENE_INVALID;
  pathReset();
  if ((options & REQUIRE_NAME) != 0 && !named) {
    badAt("name", "required to save a scene");
    return SCENE_INVALID;
  }
  if (!layers) {
    badAt("layers", "required: 1-" + MAX_LAYERS.toString() + " layers");
    return SCENE_INVALID;
  }
  if (!checkStartAfter()) return SCENE_INVALID;
  for (let l = 0; l < layerCount; l++) {
    if (afterLayer[l] < 0) continue;
    put(c.T_AFTER);
    put(l);
    put(afterLayer[l]);
    put((<u32>afterStep[l]) & 0xff);
  }
  put(c.T_END);
  return SCENE_OK;
}

function resetErrorsForSchema(): void {
  resetErrors();
  pathReset();
  badAt("schemaVersion", "must be an integer 1-" + FIRMWARE_SCHEMA.toString());
}

function readSchemaVersion(first: bool): void {
  out.field(first);
  value();
  if (kind == J_NUMBER && numberInteger && numberValue > <f64>FIRMWARE_SCHEMA) {
    tooNew = true;
    tooNewVersion = <i64>numberValue;
  }
  const n = intOf(1, FIRMWARE_SCHEMA);
  if (n < 0) schemaBad = true;
  else {
    setSchema(n);
    setGateSchema(n);
  }
  out.number();
}

function topField(k: i32): bool {
  pauseEcho(k == F_SPEED); // a speed out of range is written clamped
  const t = value();
  pauseEcho(false);
  switch (k) {
    case F_NAME: {
      if (!needString()) return false;
      if (textChars < 1 || textChars > <u32>NAME_MAX) return bad("must be 1-" + NAME_MAX.toString() + " characters");
      if (textControl) return bad("must not contain control characters");
      setName(text, textLength);
      out.str();
      return true;
    }
    case F_ID: {
      let ok = t == J_STRING && textBytes >= 8 && textBytes <= 10;
      for (let i: u32 = 0; ok && i < textBytes; i++) {
        const ch = load<u8>(text + i);
        ok = (ch >= 0x30 && ch <= 0x39) || (ch >= 0x61 && ch <= 0x7a);
      }
      if (!ok) return bad("must be 8-10 characters of [a-z0-9]");
      out.str();
      return true;
    }
    case F_LOOP:
      if (!needBool()) return false;
      out.boolean();
      put(c.T_LOOP);
      put(t == J_TRUE ? 1 : 0);
      return true;
    case F_SPEED: {
      // any number; out of 0.1-10.0 it is clamped, and stored clamped
      if (t != J_NUMBER) return bad("must be a number (it is clamped to 0.1-10.0)");
      const v = numberValue;
      const clamped = v < 0.1 ? 0.1 : v > 10 ? 10 : v;
      if (v < 0.1) out.ascii("0.1");
      else if (v > 10) out.ascii("10");
      else if (numberLength > 64) out.decimal(v);
      else out.number();
      setSpeed(clamped);
      put(c.T_SPEED);
      putF64(clamped);
      return true;
    }
    case F_COLORS:
      return readColors();
    case F_BACKGROUND: {
      const rgb = hex();
      if (rgb < 0) return false;
      put(c.T_BACKGROUND);
      putRgb(rgb);
      return true;
    }
    case F_PALETTE:
      if (!paletteName()) return false;
      put(c.T_PALETTE);
      putText();
      return true;
  }
  return readLayers(); // F_LAYERS
}

function putRgb(rgb: i32): void {
  put(rgb >> 16);
  put(rgb >> 8);
  put(rgb);
}

/** The string just read as a length byte and its UTF-8 bytes. */
function putText(): void {
  put(textLength);
  putBytes(text, textLength);
}

/** A "#RRGGBB" string (the value just read): the colour, or -1 after recording the failure. */
function hex(): i32 {
  const rgb = kind == J_STRING ? parseHexColorAt(text, textBytes) : -1;
  if (rgb < 0) bad('must be a colour "#RRGGBB"');
  else out.str();
  return rgb;
}

function readColors(): bool {
  if (kind != J_OBJECT) return bad("must be an object of primary, secondary and tertiary colours");
  out.byte(0x7b);
  let seen = 0;
  const rgb = new StaticArray<i32>(3);
  while (member()) {
    let k = 0;
    while (k < 3 && !textIs(COLOR_KEYS[k])) k++;
    if (k == 3) return unknownAt(String.UTF8.decodeUnsafe(text, textLength), list(COLOR_KEYS));
    if (seen & (1 << k)) {
      duplicateKey();
      return false;
    }
    out.field(seen == 0);
    seen |= 1 << k;
    pushKey(COLOR_KEYS[k]);
    value();
    rgb[k] = hex();
    if (rgb[k] < 0) return false;
    pop();
  }
  out.byte(0x7d);
  put(c.T_COLORS);
  put(seen);
  for (let k = 0; k < 3; k++) if (seen & (1 << k)) putRgb(rgb[k]);
  return true;
}

/** A palette reference (the value just read): 1-30 characters. It need not exist: playback falls
 * back to Base colors. */
function paletteName(): bool {
  if (!needString()) return false;
  if (textChars < 1 || textChars > <u32>PALETTE_NAME_MAX) return bad("must be a palette name of 1-30 characters");
  out.str();
  return true;
}

// (each rule is written out where it fails: the messages transform makes it one literal there, and a
// valid document builds no string)
function readLayers(): bool {
  if (kind != J_ARRAY) return bad("must be an array of 1-" + MAX_LAYERS.toString() + " layers");
  out.byte(0x5b);
  let n = 0;
  while (element()) {
    if (n == MAX_LAYERS) return bad("must be an array of 1-" + MAX_LAYERS.toString() + " layers");
    if (n > 0) out.byte(0x2c);
    setLayerCount(n + 1);
    pushIndex(n);
    if (!readLayer(n)) return false;
    pop();
    n++;
  }
  if (n == 0) return bad("must be an array of 1-" + MAX_LAYERS.toString() + " layers");
  out.byte(0x5d);
  return true;
}

function readLayer(li: i32): bool {
  if (value() != J_OBJECT) return bad("a layer must be an object");
  startLayer(); // 32 explicit indices per layer, panels and fallback together
  put(c.T_LAYER);
  out.byte(0x7b);
  let seen: u32 = 0;
  while (member()) {
    const k = lookup(LAYER_KEYS, LAYER_SIGS);
    if (k < 0)
      return unknownAt(
        String.UTF8.decodeUnsafe(text, textLength),
        "group, sequence, panels, fallback, blend, startAfter, async, palette, disabled",
      );
    if (seen & (1 << k)) {
      duplicateKey();
      return false;
    }
    out.field(seen == 0);
    seen |= 1 << k;
    pushKey(LAYER_KEYS[k]);
    if (!layerField(k, li)) return false;
    pop();
  }
  out.byte(0x7d);
  if ((seen & (1 << L_GROUP)) == 0) return badAt("group", "required: a name, or a number 1-254");
  if ((seen & (1 << L_SEQUENCE)) == 0) return badAt("sequence", "required: 1-" + MAX_STEPS.toString() + " steps");
  if ((seen & (1 << L_PANELS)) == 0) {
    put(c.L_PANELS);
    put(SEL_ALL);
  }
  put(c.L_END);
  return true;
}

function layerField(k: i32, li: i32): bool {
  if (k == L_PANELS) {
    put(c.L_PANELS);
    return checkSelector(true);
  }
  if (k == L_FALLBACK) {
    // after its length: a layer whose panels (read before it) match skips it unread
    put(c.L_FALLBACK);
    const at = outLength;
    put(0);
    put(0);
    const ok = checkSelector(true);
    patch16(at, outLength - at - 2);
    return ok;
  }
  if (k == L_SEQUENCE) return readSequence(li);
  const t = value();
  switch (k) {
    case L_GROUP:
      return readGroup(li);
    case L_BLEND: {
      if (!needString()) return false;
      if (!gate(4, "blend")) return false;
      const b = nameIndex(BLENDS);
      if (b < 0) return bad("must be one of " + list(BLENDS));
      out.str();
      put(c.L_BLEND);
      put(b + 1);
      return true;
    }
    case L_START_AFTER:
      // the form only; the reference itself is resolved once every layer is known (startafter.ts)
      if (!gate(2, "startAfter")) return false;
      if (t == J_STRING) {
        if (textBytes == 0) return bad("must be a group, or group:stepId");
        startText[li] = String.UTF8.decodeUnsafe(text, textLength);
        out.str();
        return true;
      }
      if (t != J_NUMBER || intOf(1, 254) < 0) return bad("must be a group name or number, or group:stepId");
      startNumber[li] = intOf(1, 254);
      out.number();
      return true;
    case L_ASYNC: {
      let mode = ASYNC_NO;
      if (t == J_TRUE || (t == J_STRING && textIs("loop"))) mode = ASYNC_LOOP;
      else if (t == J_STRING && textIs("free")) mode = ASYNC_FREE;
      else if (t != J_FALSE) return bad('must be a boolean, "loop" or "free"');
      asyncMode[li] = mode;
      if (t == J_STRING) out.str();
      else out.boolean();
      put(c.L_ASYNC);
      put(mode);
      return true;
    }
    case L_PALETTE:
      if (!paletteName()) return false;
      put(c.L_PALETTE);
      putText();
      return true;
  }
  // L_DISABLED
  if (!needBool()) return false;
  disabled[li] = t == J_TRUE;
  out.boolean();
  put(c.L_DISABLED);
  put(t == J_TRUE ? 1 : 0);
  return true;
}

function readGroup(li: i32): bool {
  let k = GROUPS_UNKNOWN;
  if (kind == J_NUMBER) {
    const n = intOf(0, 254);
    if (n == 0) return bad("group 0 is reserved; use 1-254");
    if (n < 0) return bad("must be a name, or an integer 1-254");
    k = GROUPS_NUMBERS;
    for (let j = 0; j < li; j++) {
      if (groupKind == GROUPS_NUMBERS && groupNumber[j] == n)
        return bad("group " + n.toString() + " is already used by layer " + j.toString());
    }
    groupNumber[li] = n;
    out.number();
  } else if (kind == J_STRING) {
    if (!gate(2, "named groups", " need")) return false;
    const n = textChars;
    if (n < 1 || n > <u32>GROUP_NAME_MAX || textControl || indexOfByte(text, textLength, 0x3a) >= 0) {
      return bad("a group name is 1-" + GROUP_NAME_MAX.toString() + " characters without ':' or control characters");
    }
    k = GROUPS_NAMES;
    const h = textHash(text, textLength);
    for (let j = 0; j < li; j++) {
      if (groupKind == GROUPS_NAMES && groupHash[j] == h)
        return bad("group " + quote(text, textLength) + " is already used by layer " + j.toString());
    }
    groupHash[li] = h;
    groupNumber[li] = li + 1; // names map to ids in order of first appearance
    out.str();
  } else return bad("must be a name, or an integer 1-254");
  if (groupKind != GROUPS_UNKNOWN && groupKind != k) return bad("do not mix group names and numbers in one scene");
  setGroupKind(k);
  // the compiled form keeps a name of at most 32 bytes (the trigger looks layers up by it)
  const keep = k == GROUPS_NAMES && textLength <= 32 ? textLength : 0;
  put(c.L_GROUP);
  put(groupNumber[li]);
  put(keep);
  putBytes(text, keep);
  return true;
}

function readSequence(li: i32): bool {
  if (value() != J_ARRAY) return bad("must be an array of 1-" + MAX_STEPS.toString() + " steps");
  out.byte(0x5b);
  resetInfinite();
  let n = 0;
  while (element()) {
    if (n == MAX_STEPS) return bad("must be an array of 1-" + MAX_STEPS.toString() + " steps");
    if (infiniteAt >= 0) {
      pushIndex(infiniteAt);
      return badAt("duration", "0 (infinite) is only allowed on the last step");
    }
    if (n > 0) out.byte(0x2c);
    pushIndex(n);
    if (!readStep(li, n)) return false;
    pop();
    stepCount[li] = n + 1;
    c.putStep();
    n++;
  }
  if (n == 0) return bad("must be an array of 1-" + MAX_STEPS.toString() + " steps");
  out.byte(0x5d);
  return true;
}

// ---- POST /api/animations/play: one flat step -----------------------------------------------------

let flatGroup = -1;

/** The flat step's own members: `group` (1-254) and `panels` (a selector, compiled into the writer). */
function flatMember(which: i32): bool {
  if (which == 1) {
    pushKey("panels");
    put(c.L_PANELS);
    const ok = checkSelector();
    pop();
    return ok;
  }
  value();
  flatGroup = intOf(1, 254);
  if (flatGroup < 0) return badAt("group", "must be a group number 1-254");
  return true;
}

/** Reads the flat step of the open stream; its group (1-254), or -1 (SCENE_SYNTAX when `broken`,
 * else invalid). Its selector and record go to the writer: L_PANELS selector (when given), then
 * putStep's bytes. */
export function readFlatStep(): i32 {
  resetState();
  pathReset();
  gatesReset(true, FIRMWARE_SCHEMA);
  setSchema(FIRMWARE_SCHEMA);
  flatGroup = -1;
  setFlatStep(true);
  setFlatMember(flatMember);
  let ok = true;
  if (value() != J_OBJECT) {
    if (!broken) ok = bad("must be a step object");
    skipTo(0);
  } else {
    ok = readStepMembers(0, 0);
    if (!ok) skipTo(0);
  }
  setFlatStep(false);
  finish();
  if (broken || !ok) return -1;
  if (flatGroup < 0) {
    badAt("group", "must be a group number 1-254");
    return -1;
  }
  c.putStep();
  return flatGroup;
}
