// The scene document: top level and layers (steps in step.ts, colours in color.ts, selectors in
// targeting.ts, the startAfter graph in startafter.ts). Works on the tape of the open JSON document
// and allocates nothing for a valid scene: what it learns goes to the fixed arrays of state.ts.
// The first violation is recorded as "<json path>: <rule>" (json/validate) and stops the check.
import {
  kindOf,
  sizeOf,
  after,
  firstMember,
  nextMember,
  stringEquals,
  stringValue,
  numberValue,
  isInteger,
  J_OBJECT,
  J_ARRAY,
  J_NUMBER,
  J_STRING,
  J_TRUE,
  J_FALSE,
} from "../json/reader";
import { parseHexColorAt } from "../json/validate";
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
  textOf,
  tp,
  tl,
  charCount,
  hasControl,
  indexOfByte,
  sameText,
  quote,
} from "./text";
import { checkStep, list } from "./step";
import { checkSelector, startLayer } from "./targeting";
import { checkStartAfter } from "./startafter";
import { sourceOf, lengthOf } from "../json/reader";
import {
  FIRMWARE_SCHEMA,
  MAX_LAYERS,
  MAX_STEPS,
  GROUPS_UNKNOWN,
  GROUPS_NAMES,
  GROUPS_NUMBERS,
  ASYNC_LOOP,
  ASYNC_FREE,
  schema,
  layerCount,
  nameToken,
  groupKind,
  groupToken,
  groupNumber,
  startToken,
  asyncMode,
  disabled,
  stepCount,
  resetState,
  setSchema,
  setSpeed,
  setNameToken,
  setLayerCount,
  setGroupKind,
  addRewrite,
  RW_SPEED_MIN,
  RW_SPEED_MAX,
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

/** Validates the scene document at token `root`. SCENE_OK, SCENE_INVALID or SCENE_TOO_NEW. */
export function validateScene(root: i32, options: u32): i32 {
  resetState();
  pathReset();
  if (kindOf(root) != J_OBJECT) {
    bad("a scene must be a JSON object");
    return SCENE_INVALID;
  }
  // schemaVersion first: a newer document is refused as such, whatever else it holds
  for (let m = firstMember(root); m >= 0; m = nextMember(root, m)) {
    if (!stringEquals(m, "schemaVersion")) continue;
    const v = m + 1;
    if (isInteger(v) && numberValue(v) > <f64>FIRMWARE_SCHEMA) {
      tooNewVersion = <i64>numberValue(v);
      return SCENE_TOO_NEW;
    }
    const n = intOf(v, 1, FIRMWARE_SCHEMA);
    if (n < 0) {
      badAt("schemaVersion", "must be an integer 1-" + FIRMWARE_SCHEMA.toString());
      return SCENE_INVALID;
    }
    setSchema(n);
  }
  let layers = -1;
  for (let m = firstMember(root); m >= 0; m = nextMember(root, m)) {
    const v = m + 1;
    if (stringEquals(m, "schemaVersion")) continue;
    if (stringEquals(m, "layers")) {
      layers = v;
      pushKey("layers");
      if (!checkLayers(v)) return SCENE_INVALID;
      pop();
      continue;
    }
    let ok = true;
    if (stringEquals(m, "name")) {
      pushKey("name");
      ok = checkName(v);
      setNameToken(v);
    } else if (stringEquals(m, "id")) {
      pushKey("id");
      ok = (options & ALLOW_ID) != 0 ? checkId(v) : bad("not allowed: the service assigns scene ids");
    } else if (stringEquals(m, "loop")) {
      pushKey("loop");
      ok = needBool(v);
    } else if (stringEquals(m, "speed")) {
      pushKey("speed");
      ok = checkSpeed(v);
    } else if (stringEquals(m, "colors")) {
      pushKey("colors");
      ok = checkColors(v);
    } else if (stringEquals(m, "background")) {
      pushKey("background");
      ok = checkHex(v);
    } else if (stringEquals(m, "palette")) {
      pushKey("palette");
      ok = checkPaletteName(v);
    } else {
      ok = unknownAt(
        stringValue(m),
        "schemaVersion, name, loop, speed, colors, background, palette, layers" +
          ((options & ALLOW_ID) != 0 ? ", id" : ""),
      );
    }
    if (!ok) return SCENE_INVALID;
    pop();
  }
  if ((options & REQUIRE_NAME) != 0 && nameToken < 0) {
    badAt("name", "required to save a scene");
    return SCENE_INVALID;
  }
  if (layers < 0) {
    badAt("layers", "required: 1-" + MAX_LAYERS.toString() + " layers");
    return SCENE_INVALID;
  }
  return checkStartAfter() ? SCENE_OK : SCENE_INVALID;
}

function checkName(v: i32): bool {
  if (!needString(v)) return false;
  textOf(v);
  const n = charCount(tp, tl);
  if (n < 1 || n > <u32>NAME_MAX) return bad("must be 1-" + NAME_MAX.toString() + " characters");
  if (hasControl(tp, tl)) return bad("must not contain control characters");
  return true;
}

function checkId(v: i32): bool {
  if (kindOf(v) == J_STRING && lengthOf(v) >= 8 && lengthOf(v) <= 10) {
    const p = sourceOf(v);
    let ok = true;
    for (let i: u32 = 0; i < lengthOf(v); i++) {
      const c = load<u8>(p + i);
      if (!((c >= 0x30 && c <= 0x39) || (c >= 0x61 && c <= 0x7a))) ok = false;
    }
    if (ok) return true;
  }
  return bad("must be 8-10 characters of [a-z0-9]");
}

/** Any number; out of 0.1-10.0 it is clamped, and stored clamped. */
function checkSpeed(v: i32): bool {
  if (kindOf(v) != J_NUMBER) return bad("must be a number (it is clamped to 0.1-10.0)");
  const s = numberValue(v);
  if (s < 0.1) {
    setSpeed(0.1);
    addRewrite(v, RW_SPEED_MIN, lengthOf(v) < 3 ? 3 - lengthOf(v) : 0);
  } else if (s > 10) {
    setSpeed(10);
    addRewrite(v, RW_SPEED_MAX, 0);
  } else setSpeed(s);
  return true;
}

function checkHex(v: i32): bool {
  return (kindOf(v) == J_STRING && parseHexColorAt(sourceOf(v), lengthOf(v)) >= 0) || bad('must be a colour "#RRGGBB"');
}

/** The scene's base colours, in their order. */
export const COLOR_KEYS: StaticArray<string> = ["primary", "secondary", "tertiary"];

function checkColors(v: i32): bool {
  if (kindOf(v) != J_OBJECT) return bad("must be an object of primary, secondary and tertiary colours");
  for (let m = firstMember(v); m >= 0; m = nextMember(v, m)) {
    let k = 0;
    while (k < 3 && !stringEquals(m, COLOR_KEYS[k])) k++;
    if (k == 3) return unknownAt(stringValue(m), list(COLOR_KEYS));
    pushKey(COLOR_KEYS[k]);
    if (!checkHex(m + 1)) return false;
    pop();
  }
  return true;
}

/** A palette reference: 1-30 characters. It need not exist: playback falls back to Base colors. */
function checkPaletteName(v: i32): bool {
  if (!needString(v)) return false;
  textOf(v);
  const n = charCount(tp, tl);
  return (n >= 1 && n <= <u32>PALETTE_NAME_MAX) || bad("must be a palette name of 1-30 characters");
}

function checkLayers(v: i32): bool {
  const n = sizeOf(v);
  if (kindOf(v) != J_ARRAY || n < 1 || n > MAX_LAYERS) {
    return bad("must be an array of 1-" + MAX_LAYERS.toString() + " layers");
  }
  setLayerCount(n);
  let t = v + 1;
  for (let i = 0; i < n; i++) {
    pushIndex(i);
    if (!checkLayer(t, i)) return false;
    pop();
    t = after(t);
  }
  return true;
}

function checkLayer(v: i32, li: i32): bool {
  if (kindOf(v) != J_OBJECT) return bad("a layer must be an object");
  let group = -1;
  let sequence = -1;
  startLayer(); // 32 explicit indices per layer, panels and fallback together
  for (let m = firstMember(v); m >= 0; m = nextMember(v, m)) {
    const t = m + 1;
    let ok = true;
    if (stringEquals(m, "group")) {
      group = t;
      pushKey("group");
      ok = checkGroup(t, li);
    } else if (stringEquals(m, "sequence")) {
      sequence = t;
      pushKey("sequence");
      ok = checkSequence(t, li);
    } else if (stringEquals(m, "panels")) {
      pushKey("panels");
      ok = checkSelector(t, true);
    } else if (stringEquals(m, "fallback")) {
      pushKey("fallback");
      ok = checkSelector(t, true);
    } else if (stringEquals(m, "blend")) {
      pushKey("blend");
      ok = checkBlend(t);
    } else if (stringEquals(m, "startAfter")) {
      pushKey("startAfter");
      ok = checkStartAfterSyntax(t, li);
    } else if (stringEquals(m, "async")) {
      pushKey("async");
      ok = checkAsync(t, li);
    } else if (stringEquals(m, "palette")) {
      pushKey("palette");
      ok = checkPaletteName(t);
    } else if (stringEquals(m, "disabled")) {
      pushKey("disabled");
      ok = needBool(t);
      disabled[li] = kindOf(t) == J_TRUE;
    } else {
      ok = unknownAt(stringValue(m), "group, sequence, panels, fallback, blend, startAfter, async, palette, disabled");
    }
    if (!ok) return false;
    pop();
  }
  if (group < 0) return badAt("group", "required: a name, or a number 1-254");
  if (sequence < 0) return badAt("sequence", "required: 1-" + MAX_STEPS.toString() + " steps");
  return true;
}

function checkGroup(t: i32, li: i32): bool {
  const kind = kindOf(t);
  let k = GROUPS_UNKNOWN;
  if (kind == J_NUMBER) {
    const n = intOf(t, 0, 254);
    if (n == 0) return bad("group 0 is reserved; use 1-254");
    if (n < 0) return bad("must be a name, or an integer 1-254");
    k = GROUPS_NUMBERS;
    for (let j = 0; j < li; j++) {
      if (groupKind == GROUPS_NUMBERS && groupNumber[j] == n)
        return bad("group " + n.toString() + " is already used by layer " + j.toString());
    }
    groupNumber[li] = n;
  } else if (kind == J_STRING) {
    if (schema < 2) return bad("named groups need schemaVersion 2 or later");
    textOf(t);
    const n = charCount(tp, tl);
    if (n < 1 || n > <u32>GROUP_NAME_MAX || hasControl(tp, tl) || indexOfByte(tp, tl, 0x3a) >= 0) {
      return bad("a group name is 1-" + GROUP_NAME_MAX.toString() + " characters without ':' or control characters");
    }
    k = GROUPS_NAMES;
    for (let j = 0; j < li; j++) {
      if (groupKind == GROUPS_NAMES && sameText(groupToken[j], t)) {
        textOf(t);
        return bad("group " + quote(tp, tl) + " is already used by layer " + j.toString());
      }
    }
    groupNumber[li] = li + 1; // names map to ids in order of first appearance
  } else return bad("must be a name, or an integer 1-254");
  if (groupKind != GROUPS_UNKNOWN && groupKind != k) return bad("do not mix group names and numbers in one scene");
  setGroupKind(k);
  groupToken[li] = t;
  return true;
}

function checkSequence(t: i32, li: i32): bool {
  const n = sizeOf(t);
  if (kindOf(t) != J_ARRAY || n < 1 || n > MAX_STEPS)
    return bad("must be an array of 1-" + MAX_STEPS.toString() + " steps");
  stepCount[li] = n;
  let s = t + 1;
  for (let i = 0; i < n; i++) {
    pushIndex(i);
    if (!checkStep(s, li, i, n)) return false;
    pop();
    s = after(s);
  }
  return true;
}

function checkBlend(t: i32): bool {
  if (!needString(t)) return false;
  if (schema < 4) return bad("blend needs schemaVersion 4 or later");
  for (let k = 0; k < BLENDS.length; k++) if (stringEquals(t, BLENDS[k])) return true;
  return bad("must be one of " + list(BLENDS));
}

/** The form only; the reference itself is resolved once every layer is known (startafter.ts). */
function checkStartAfterSyntax(t: i32, li: i32): bool {
  if (schema < 2) return bad("startAfter needs schemaVersion 2 or later");
  const kind = kindOf(t);
  if (kind == J_STRING) {
    if (lengthOf(t) == 0) return bad("must be a group, or group:stepId");
  } else if (kind != J_NUMBER || intOf(t, 1, 254) < 0) return bad("must be a group name or number, or group:stepId");
  startToken[li] = t;
  return true;
}

function checkAsync(t: i32, li: i32): bool {
  const kind = kindOf(t);
  if (kind == J_TRUE) asyncMode[li] = ASYNC_LOOP;
  else if (kind == J_FALSE) return true;
  else if (stringEquals(t, "loop")) asyncMode[li] = ASYNC_LOOP;
  else if (stringEquals(t, "free")) asyncMode[li] = ASYNC_FREE;
  else return bad('must be a boolean, "loop" or "free"');
  return true;
}
