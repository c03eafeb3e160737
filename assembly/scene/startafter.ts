// The startAfter graph, once every layer has been read: each reference names an existing group
// (and step, in the `group:stepId` form of schemaVersion 8), no layer waits for itself, the waits
// form no cycle, and what is awaited is not infinite. Also the scene's length for the library list.
import { pathReset, pushKey, pushIndex, bad, indexOfByte, parseDecimal, quote, textHash } from "./path-errors";
import { nameEntry } from "../util/names";
import { TOP_KEYS, LAYER_KEYS } from "./names";
import {
  schema,
  speed,
  layerCount,
  groupKind,
  groupHash,
  startNumber,
  startText,
  afterLayer,
  afterStep,
  asyncMode,
  disabled,
  stepCount,
  stepDuration,
  stepIdHash,
  GROUPS_NAMES,
  ASYNC_NO,
  MAX_STEPS,
} from "./state";
import { intText } from "../util/int-text";

/** Records `rule` at layer `layer`'s startAfter; returns false. @message-id rule (json/validate.ts
 * fail). */
function badAt(layer: i32, rule: string): bool {
  pathReset();
  pushKey(nameEntry(TOP_KEYS, 7)); // layers
  pushIndex(layer);
  pushKey(nameEntry(LAYER_KEYS, 5)); // startAfter
  return bad(rule);
}

/** Resolves every layer's startAfter and checks the graph. */
export function checkStartAfter(): bool {
  for (let li = 0; li < layerCount; li++) {
    const n = startNumber[li];
    const t = startText[li];
    if ((n < 0) & (t == 0)) continue;
    // a number, or a text: a group, or group:stepId
    const p = t + 2;
    const len = t != 0 ? <u32>load<u16>(t) : 0;
    const colon = indexOfByte(p, len, 0x3a);
    const groupLen: u32 = colon < 0 ? len : <u32>colon;
    if (colon >= 0) {
      if (schema < 8) return badAt(li, "the group:stepId form needs schemaVersion 8 or later");
      if (groupLen == 0 || <u32>colon + 1 >= len) return badAt(li, "must be a group, or group:stepId");
    }
    // the group as readGroup keeps it (groupHash): a number (a text names one in a scene of numbered
    // groups), or a name's hash; a number names no group in a scene of named groups
    const named = groupKind == GROUPS_NAMES;
    const h: u64 = n >= 0 ? <u64>n : named ? textHash(p, groupLen) : <u64>parseDecimal(p, groupLen);
    let target = -1;
    for (let j = 0; (n < 0 || !named) && j < layerCount; j++) if (groupHash[j] == h) target = j;
    if (target < 0) return badAt(li, "no layer has group " + (n >= 0 ? intText(n) : quote(p, groupLen)));
    let step = -1;
    if (colon >= 0) {
      const sp = p + <usize>colon + 1;
      const sn = len - <u32>colon - 1;
      const sh = textHash(sp, sn) | 1;
      for (let s = 0; s < stepCount[target]; s++) if (stepIdHash[target * MAX_STEPS + s] == sh) step = s;
      if (step < 0) return badAt(li, "layer " + quote(p, groupLen) + " has no step with id " + quote(sp, sn));
    }
    if (target == li) return badAt(li, "a layer cannot start after itself");
    const awaited = step >= 0 ? step : stepCount[target] - 1;
    if (stepDuration[target * MAX_STEPS + awaited] == 0) {
      return badAt(li, step >= 0 ? "the awaited step is infinite" : "the awaited sequence ends with an infinite step");
    }
    afterLayer[li] = target;
    afterStep[li] = step;
  }
  for (let li = 0; li < layerCount; li++) {
    let l = afterLayer[li];
    for (let hops = 0; hops < layerCount && l >= 0; hops++) {
      if (l == li) return badAt(li, "startAfter forms a cycle");
      l = afterLayer[l];
    }
  }
  return true;
}

/** When step `last` of layer `l` ends, in ms at speed 1 (the graph is acyclic): after what the
 * layer waits for (its awaited layer's step, or whole sequence, unless that layer is disabled). */
function endTime(l: i32, last: i32): u64 {
  const target = afterLayer[l];
  const step = afterStep[l];
  let t: u64 = target < 0 || disabled[target] ? 0 : endTime(target, step >= 0 ? step : stepCount[target] - 1);
  for (let s = 0; s <= last; s++) t += stepDuration[l * MAX_STEPS + s];
  return t;
}

/**
 * The scene's length in ms for the library list: when the scene-cycle barrier fires, i.e. the
 * latest end of a barrier layer (not disabled; async false, or startAfter set), following the
 * startAfter chains, divided by the scene's speed and rounded. 0 when a barrier layer ends with an
 * infinite step, or when no layer is a barrier layer (the scene has no fixed length: `longest` stays 0).
 */
export function sceneDuration(): u32 {
  let longest: u64 = 0;
  for (let l = 0; l < layerCount; l++) {
    if (disabled[l]) continue;
    if (afterLayer[l] < 0 && asyncMode[l] != ASYNC_NO) continue;
    const n = stepCount[l];
    if (stepDuration[l * MAX_STEPS + n - 1] == 0) return 0;
    const end = endTime(l, n - 1);
    if (end > longest) longest = end;
  }
  return <u32>Math.round(<f64>longest / speed);
}
