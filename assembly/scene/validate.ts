// The scene pass: one walk over a scene document as it streams in (json/stream.ts: a request body
// or a stored file, read forward in small windows) that validates it level by level (the objects'
// tables and their one reader: object-reader.ts; this file: the scene's and the layers' own fields; step.ts,
// color.ts, targeting.ts; startafter.ts once every layer is known), writes its canonical form
// (canonical.ts) and compiles it (playback/compile.ts, through the writer of playback/form-io.ts) at
// the same time. What it learns goes to the fixed arrays of state.ts; no part of the document is
// kept. The first violation is recorded as "<json path>: <rule>" (json/validate) and stops the
// checks; the pass then only reads on to the end, so that a syntax error anywhere still refuses the
// document as such (400) and a late schemaVersion is still seen.
import { J_OBJECT, J_ARRAY, J_NUMBER, J_STRING, J_TRUE, J_FALSE } from "../json/reader";
import {
  value,
  element,
  skipTo,
  skipRest,
  finish,
  broken,
  kind,
  text,
  textBytes,
  textLength,
  textChars,
  textControl,
  numberValue,
  numberLength,
  NUMBER_CAP,
  numberInteger,
} from "../json/stream";
import { validationError, resetErrors } from "../json/validate";
import { names, nameIndex } from "../util/names";
import {
  bad,
  badAt,
  pathReset,
  pushIndex,
  pop,
  needString,
  intOf,
  needInt,
  indexOfByte,
  quote,
  textHash,
  gate,
  gatesReset,
  judgeGates,
  setSchema as setGateSchema,
  W_NAMED_GROUPS,
  idChars,
} from "./path-errors";
import {
  readObject,
  readBool,
  readInt,
  readEnum,
  useReaders,
  keep,
  hexColor,
  Reader,
  LIMIT,
  REQUIRED,
  STEP,
  TOP,
  LAYER,
  COLORS,
  COLORS_BASE,
  LAYER_BASE,
  S_HEX,
  S_PALETTE,
  S_SCHEMA,
  S_NAME,
  S_COLORS,
  S_LAYERS,
  S_SCENE_ID,
  S_GROUP,
  S_SEQUENCE,
  S_PANELS,
  S_FALLBACK,
  S_START_AFTER,
  S_FLAT_GROUP,
  S_FLAT_PANELS,
  S_PARAMS,
  X_SPEED,
  X_SCENE,
  S_ASYNC,
} from "./object-reader";
import {
  readStep,
  readStepObject,
  readSource,
  readOrigin,
  readColorRef,
  readId,
  setParam,
  slot,
  infiniteAt,
  resetInfinite,
} from "./step";
import { KEY_DURATION, KEY_PARAMS } from "./step-keys";
import {
  selector,
  startLayer,
  startSelectorList,
  panelIndex,
  SEL_ALL,
  SEL_ANY,
  MAX_EXPLICIT,
  MAX_SELECTOR_TERMS,
  LIST_SELECTOR,
  readListsWith,
} from "./targeting";
import { checkStartAfter } from "./startafter";
import { readChannel } from "./color";
import { NAME_MAX_CHARS } from "../palette/validate";
import { TOP_KEYS, STEP_KEYS } from "./names";
import * as out from "./canonical";
import * as c from "../playback/compile";
import * as I from "../playback/items";
import { put, putBytes, outLength, patch8 } from "../playback/form-io";
import {
  FIRMWARE_SCHEMA,
  MAX_LAYERS,
  MAX_STEPS,
  GROUPS_UNKNOWN,
  GROUPS_NAMES,
  GROUPS_NUMBERS,
  groupKind,
  groupHash,
  groupNumber,
  startNumber,
  startText,
  asyncMode,
  disabled,
  stepCount,
  resetState,
  slots,
  setSchema,
  setSpeed,
  setName,
  setLayerCount,
  setGroupKind,
  setLayer,
  layer,
} from "./state";
import { intText } from "../util/int-text";

export const SCENE_OK: i32 = 0;
/** A schemaVersion newer than the firmware: 409 schema_too_new; see tooNewVersion. */
export const SCENE_TOO_NEW: i32 = 409;
/** Invalid: 422 with json/validate's validationError(). */
export const SCENE_INVALID: i32 = 422;
/** A syntax error (json/reader errorOffset and errorReason say where and why): 400 invalid_json. */
export const SCENE_SYNTAX: i32 = 400;

/** Validation options. */
export const REQUIRE_NAME: u32 = 1; // saving to the library needs a name
export const ALLOW_ID: u32 = 2; // playback bodies may carry the id
export const FLAT: u32 = 4; // a flat animation's step (readFlatStep; setLimits)

export const NAME_MAX = 64;
export const GROUP_NAME_MAX = 32;

/** The schemaVersion of a document answered with SCENE_TOO_NEW. */
export let tooNewVersion: i64 = 0;

// The scene's keys (object-reader.ts TOP_KEYS) and the layer's (LAYER_KEYS), by index.
const T_SCHEMA = 0;
const L_PANELS = 2;
const L_DISABLED = 8;

const ASYNC_NAMES = names("loop free");

let tooNew = false;
let schemaBad = false;

/** The keys each level accepts and requires in this pass (object-reader.ts LIMIT, REQUIRED): `options` as
 * readScene's, or FLAT. */
function setLimits(options: u32): void {
  store<u8>(LIMIT + STEP, options & FLAT ? 31 : 29);
  store<u8>(LIMIT + TOP, options & ALLOW_ID ? 9 : 8);
  store<u8>(REQUIRED + TOP, options & REQUIRE_NAME ? 0x82 : 0x80);
}

/**
 * Reads the scene document of the open stream (json/stream.ts): SCENE_OK, SCENE_INVALID (the
 * message: json/validate validationError), SCENE_TOO_NEW (tooNewVersion) or SCENE_SYNTAX. Its
 * canonical form goes where canonical.ts begin() said, its compiled form to the writer of
 * playback/form-io.ts (prefix left for sealCompiled).
 */
export function readScene(opts: u32): i32 {
  resetState();
  pathReset();
  gatesReset(false, 1);
  setLimits(opts);
  tooNew = false;
  schemaBad = false;
  for (let i: u32 = 0; i < c.PREFIX; i++) put(0);
  c.beginImage();
  if (value() != J_OBJECT) {
    if (!broken) bad("a scene must be a JSON object");
    skipTo(0);
    return conclude();
  }
  readObject(TOP);
  finish();
  return conclude();
}

/** The end: the schemaVersion's verdict, then the first problem, then the startAfter graph (the
 * required keys are checked by object-reader.ts readObject as each object ends). */
function conclude(): i32 {
  if (broken) return SCENE_SYNTAX;
  if (tooNew) return SCENE_TOO_NEW;
  if (schemaBad) {
    resetErrors();
    pathReset();
    badAt(TOP_KEYS, T_SCHEMA, "must be an integer 1-" + FIRMWARE_SCHEMA.toString());
    return SCENE_INVALID;
  }
  judgeGates();
  if (validationError().length > 0) return SCENE_INVALID;
  if (!checkStartAfter()) return SCENE_INVALID;
  c.putImage();
  return SCENE_OK;
}

/** The schemaVersion just read (sceneField, or object-reader.ts readObject after the scene's first
 * problem): its verdict is given at the end (conclude). */
export function schemaVersion(): void {
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
}

/** The fields of the scene and of the layers, the flat step's own (object-reader.ts X_SCENE rows, by S_*),
 * and those whose value is rewritten (the speed, a step's source and originPanel), their value's
 * start just read: a object-reader.ts Reader, for the fields that are rare in a scene. */
export function sceneField(r: i32, row: u32, _seen: u32): bool {
  const t = kind;
  // by S_*, then the rewritten values (object-reader.ts PAUSE): the speed, the step's source and originPanel
  // (one br_table)
  const type = row & 15;
  const s = type == X_SCENE ? (row >> 4) & 15 : type + (S_SPEED - X_SPEED);
  if ((s | 2) == S_NAME) {
    // S_PALETTE or S_NAME (one test: no case of two labels, so that the switch is one br_table)
    // (a palette need not exist: playback falls back to Base colors)
    if (!needString()) return false;
    const name = s == S_NAME;
    if (textChars - 1 >= <u32>(name ? NAME_MAX : NAME_MAX_CHARS))
      return bad(
        name
          ? "must be 1-" + NAME_MAX.toString() + " characters"
          : "must be a palette name of 1-" + NAME_MAX_CHARS.toString() + " characters",
      );
    if (!name) return keep(r, row, 0);
    if (textControl) return bad("must not contain control characters");
    setName(text, textLength);
    return true;
  }
  switch (s) {
    case S_SPEED:
      return speed();
    case S_SOURCE:
      return readSource();
    case S_ORIGIN:
      return readOrigin(r);
    case S_HEX: {
      const rgb = hexColor();
      return rgb >= 0 && keep(r, row, rgb);
    }
    case S_SCHEMA:
      schemaVersion();
      skipRest(t); // a container is no schemaVersion: read past it
      return true;
    case S_COLORS: {
      if (t != J_OBJECT) return bad("must be an object of primary, secondary and tertiary colours");
      const seen = readObject(COLORS);
      if (seen < 0) return false;
      store<u8>(I.SAVE + c.I_GIVEN, seen | 8);
      for (let i = 0; i < 3; i++)
        if (seen & (1 << i)) store<i32>(I.SAVE + c.I_COLORS + (i << 2), load<i32>(slots + ((COLORS_BASE + i) << 2)));
      return true;
    }
    case S_SCENE_ID:
      return (
        (t == J_STRING && textBytes - 8 <= 2 && idChars(text, textBytes, false)) ||
        bad("must be 8-10 characters of [a-z0-9]")
      );
    case S_GROUP:
      return readGroup(layer);
    case S_FALLBACK:
      put(I.L_FALLBACK);
      return selector(0);
    case S_START_AFTER:
      // the form only (its gate is its row's); the reference itself is resolved once every layer is
      // known (startafter.ts)
      if (t == J_STRING) {
        if (textBytes == 0) return bad("must be a group, or group:stepId");
        // its bytes, after their length (u16), in an arena block
        const b = heap.alloc(<usize>textLength + 2);
        store<u16>(b, <u16>textLength);
        memory.copy(b + 2, text, textLength);
        startText[layer] = b;
        return true;
      }
    // falls through: a number
    case S_FLAT_GROUP: {
      const flat = s == S_FLAT_GROUP;
      const v = intOf(1, 254);
      if (flat) flatGroup = v;
      else startNumber[layer] = v;
      return v >= 0 || bad(flat ? "must be a group number 1-254" : "must be a group name or number, or group:stepId");
    }
    case S_FLAT_PANELS:
      // compiled before the step (playback/compile.ts loadFlat)
      startLayer();
    // falls through
    case S_PANELS:
      put(I.L_PANELS);
      return selector(0);
    case S_ASYNC: {
      // true or "loop", "free", false
      const mode =
        t == J_STRING ? nameIndex(ASYNC_NAMES, text, textBytes) + 1 : t == J_TRUE ? 1 : t == J_FALSE ? 0 : -1;
      if ((mode < 0) | ((mode == 0) & (t != J_FALSE))) return bad('must be a boolean, "loop" or "free"');
      asyncMode[layer] = <u8>mode;
      return true;
    }
  }
  // S_LAYERS, S_SEQUENCE, S_PARAMS
  return readList(s, 0);
}

/** The scene's speed: any number; out of 0.1-10.0 it is clamped, and stored clamped. */
function speed(): bool {
  if (kind != J_NUMBER) return bad("must be a number (it is clamped to 0.1-10.0)");
  if (numberLength > NUMBER_CAP) return bad("must be a number of at most 64 characters"); // stored as written
  const v = numberValue;
  const clamped = v < 0.1 ? 0.1 : v > 10 ? 10 : v;
  if (v < 0.1) out.fragment(out.F_TENTH);
  else if (v > 10) out.fragment(out.F_TEN);
  else out.number();
  setSpeed(clamped);
  return true;
}

// (each rule is written out where it fails: the messages transform makes it one literal there, and a
// valid document builds no string)
// readList's lists, by their fields' S_*; sceneField's cases after the S_* of X_SCENE rows
const S_SPEED = 16;
const S_SOURCE = 17;
const S_ORIGIN = 18;
const LIST_LAYERS = S_LAYERS;
const LIST_STEPS = S_SEQUENCE;
const LIST_PARAMS = S_PARAMS;

/** The scene's layers, the sequence of the layer being read, a step's params (0-4 integers 0-255),
 * or a selector's list of `level` (put as its op, its count and its elements): one loop for them all
 * (one refusal for each: not an array, too many, none). */
export function readList(list: u32, level: i32): bool {
  const array = kind == J_ARRAY;
  let more = array;
  let n = 0;
  const li = layer;
  const sel = list >= LIST_SELECTOR;
  const terms = list >= LIST_SELECTOR + <u32>SEL_ANY;
  // (a panel list ends at its MAX_EXPLICIT first)
  const max =
    list == LIST_LAYERS
      ? MAX_LAYERS
      : list == LIST_STEPS
        ? MAX_STEPS
        : terms
          ? MAX_SELECTOR_TERMS
          : sel
            ? MAX_EXPLICIT + 1
            : 4;
  if (list == LIST_STEPS) resetInfinite();
  const at = sel ? startSelectorList(<i32>(list - LIST_SELECTOR)) : 0;
  if (more) {
    out.byte(0x5b);
    while ((more = element()) && n < max) {
      if ((list == LIST_STEPS) & (infiniteAt >= 0)) {
        pushIndex(infiniteAt);
        return badAt(STEP_KEYS, KEY_DURATION, "0 (infinite) is only allowed on the last step");
      }
      if (n > 0) out.byte(0x2c);
      pushIndex(n);
      if (sel) {
        value();
        if (!(terms ? selector(level + 1) : panelIndex())) return false;
      } else if (list == LIST_PARAMS) {
        value();
        const v = needInt(0, 255);
        if (v < 0) return false;
        setParam(n, v);
      } else if (list == LIST_STEPS) {
        if (!readStep(li, n)) return false;
        stepCount[li] = n + 1;
        c.putStep();
      } else {
        setLayerCount(n + 1);
        if (!readLayer(n)) return false;
      }
      pop();
      n++;
    }
  }
  // (params and panel lists may be empty; only `any` and `all` of the selector lists can fail here: a
  // panel list is an array)
  if (!array || more || n < <i32>((list != LIST_PARAMS) & (sel <= terms)))
    return bad(
      list == LIST_STEPS
        ? "must be an array of 1-" + MAX_STEPS.toString() + " steps"
        : list == LIST_LAYERS
          ? "must be an array of 1-" + MAX_LAYERS.toString() + " layers"
          : terms
            ? "must be an array of 1-" + MAX_SELECTOR_TERMS.toString() + " selectors"
            : "must be an array of 0-4 integers 0-255",
    );
  out.byte(0x5d);
  if (list == LIST_PARAMS) slot[KEY_PARAMS] = n;
  if (sel) patch8(at, n);
  return true;
}

function readLayer(li: i32): bool {
  if (value() != J_OBJECT) return bad("a layer must be an object");
  setLayer(li);
  startLayer(); // 32 explicit indices per layer, panels and fallback together
  put(I.T_LAYER);
  const seen = readObject(LAYER);
  if (seen < 0) return false;
  if ((seen & (1 << L_PANELS)) == 0) {
    put(I.L_PANELS);
    put(SEL_ALL);
  }
  disabled[li] = load<i32>(slots + ((LAYER_BASE + L_DISABLED) << 2)) == 1 && (seen & (1 << L_DISABLED)) != 0;
  put(I.L_END);
  return true;
}

function readGroup(li: i32): bool {
  // a number, or a name: its hash (the same layer's number, names map to ids in order of first
  // appearance)
  let k = GROUPS_NUMBERS;
  let n = intOf(0, 254);
  let h = <u64>n;
  if (kind == J_STRING) {
    if (!gate(2, W_NAMED_GROUPS)) return false;
    if (textChars - 1 >= <u32>GROUP_NAME_MAX || textControl || indexOfByte(text, textLength, 0x3a) >= 0) {
      return bad("a group name is 1-" + GROUP_NAME_MAX.toString() + " characters without ':' or control characters");
    }
    k = GROUPS_NAMES;
    n = li + 1;
    h = textHash(text, textLength);
  } else {
    // (anything else but a number is -1 here too)
    if (n == 0) return bad("group 0 is reserved; use 1-254");
    if (n < 0) return bad("must be a name, or an integer 1-254");
  }
  for (let j = 0; groupKind == k && j < li; j++) {
    if (groupHash[j] == h) {
      const what = k == GROUPS_NAMES ? quote(text, textLength) : intText(n);
      return bad("group " + what + " is already used by layer " + intText(j));
    }
  }
  groupHash[li] = h;
  groupNumber[li] = n;
  if (groupKind != GROUPS_UNKNOWN && groupKind != k) return bad("do not mix group names and numbers in one scene");
  setGroupKind(k);
  // the compiled form keeps a name of at most 32 bytes (the trigger looks layers up by it)
  const keep = k == GROUPS_NAMES && textLength <= 32 ? textLength : 0;
  put(I.L_GROUP);
  put(n);
  put(keep);
  putBytes(text, keep);
  return true;
}

// ---- POST /api/animations/play: one flat step -----------------------------------------------------

/** The flat step's group (sceneField reads it), or -1. */
export let flatGroup = -1;

/**
 * Reads the flat step of the open stream; its group (1-254), or -1 (SCENE_SYNTAX when `broken`,
 * else invalid). It also holds `group` (1-254) and `panels` (a selector); its selector and record go
 * to the writer: L_PANELS selector (SEL_ALL when not given), then putStep's bytes.
 */
export function readFlatStep(): i32 {
  resetState();
  pathReset();
  gatesReset(true, FIRMWARE_SCHEMA);
  setSchema(FIRMWARE_SCHEMA);
  setLimits(FLAT);
  flatGroup = -1;
  let ok = true;
  if (value() != J_OBJECT) {
    if (!broken) ok = bad("must be a step object");
    skipTo(0);
  } else {
    ok = readStepObject(0, 0);
    if (!ok) skipTo(0);
  }
  finish();
  if (broken || !ok) return -1;
  if (flatGroup < 0) {
    badAt(STEP_KEYS, 29, "must be a group number 1-254");
    return -1;
  }
  // (its panels, when given, were put first)
  if (outLength == 0) {
    put(I.L_PANELS);
    put(SEL_ALL);
  }
  c.putStep();
  return flatGroup;
}

/** object-reader.ts's reader of each row type (a class's static, so that it can be @lazy, which prettier
 * reads on no global: compiled where it is used, after the globals its readers use; static data all
 * the same). */
@final
@unmanaged
class Readers {
  @lazy
  static table: StaticArray<Reader> = [
    readBool,
    readInt,
    readEnum,
    readColorRef,
    readId,
    readChannel,
    sceneField,
    sceneField, // the speed, source and originPanel too: rare, and they pause the echo
    sceneField,
    sceneField,
  ];
}

useReaders(Readers.table, schemaVersion);
readListsWith(readList);
