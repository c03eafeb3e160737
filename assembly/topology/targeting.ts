// Targeting resolution: a validated selector (a layer's `panels` or `fallback`, a token of the open
// JSON document) becomes a set of panel indices against the rooted tree (topology/rooted.ts).
// Sets are bitsets of 4 words (indices 0-127) in a fixed pool: no allocation per call.
import { kindOf, sizeOf, after, firstMember, stringEquals, intIn, J_STRING, J_ARRAY } from "../json/reader";
import { textOf, tp, tl, startsWith, bytesAre, parseDecimal, indexOfByte } from "../scene/text";
import { decimal } from "../scene/targeting";
import { tree } from "./tree";
import { depth, children, order, root, count, inSubtree } from "./rooted";

export const SET_WORDS = 4;
/** Pool slots: 0-9 for the caller (0-7 layers, 8 the flat animation), 10 and up scratch for
 * nested selectors (2 per level, 5 levels). */
const POOL = 20;
export const sets = new StaticArray<u32>(POOL * SET_WORDS);

export function setClear(s: i32): void {
  for (let i = 0; i < SET_WORDS; i++) sets[s * SET_WORDS + i] = 0;
}

export function setAdd(s: i32, p: i32): void {
  if (p >= 1 && p <= count) sets[s * SET_WORDS + (p >> 5)] |= 1 << (p & 31);
}

export function setHas(s: i32, p: i32): bool {
  return (sets[s * SET_WORDS + (p >> 5)] & (1 << (p & 31))) != 0;
}

export function setCount(s: i32): i32 {
  let n = 0;
  for (let i = 0; i < SET_WORDS; i++) n += <i32>popcnt(sets[s * SET_WORDS + i]);
  return n;
}

export function setCopy(dst: i32, src: i32): void {
  for (let i = 0; i < SET_WORDS; i++) sets[dst * SET_WORDS + i] = sets[src * SET_WORDS + i];
}

function setAllPanels(s: i32): void {
  setClear(s);
  for (let p = 1; p <= count; p++) setAdd(s, p);
}

/** Resolves the selector at token `v` into set `out` (0-9). Uses the current rooting. */
export function resolveSelector(v: i32, out: i32): void {
  resolve(v, out, 0);
}

function resolve(v: i32, out: i32, level: i32): void {
  setClear(out);
  const kind = kindOf(v);
  if (kind == J_STRING) return resolveString(v, out);
  if (kind == J_ARRAY) return addIndices(v, out);
  const m = firstMember(v);
  const value = m + 1;
  const scratch = 10 + level * 2;
  if (stringEquals(m, "exclude")) {
    addIndices(value, scratch);
    for (let p = 1; p <= count; p++) if (!setHas(scratch, p)) setAdd(out, p);
    return;
  }
  if (stringEquals(m, "not")) {
    resolve(value, scratch, level + 1);
    for (let p = 1; p <= count; p++) if (!setHas(scratch, p)) setAdd(out, p);
    return;
  }
  const union = stringEquals(m, "any");
  if (!union) setAllPanels(out);
  const n = sizeOf(value);
  let t = value + 1;
  for (let i = 0; i < n; i++) {
    resolve(t, scratch + 1, level + 1);
    for (let w = 0; w < SET_WORDS; w++) {
      const a = sets[out * SET_WORDS + w];
      const b = sets[(scratch + 1) * SET_WORDS + w];
      sets[out * SET_WORDS + w] = union ? a | b : a & b;
    }
    t = after(t);
  }
}

/** Listed indices that exist; missing ones are skipped. */
function addIndices(v: i32, out: i32): void {
  setClear(out);
  const n = sizeOf(v);
  let t = v + 1;
  for (let i = 0; i < n; i++) {
    setAdd(out, <i32>intIn(t, 1, 254, 0));
    t = after(t);
  }
}

/** Canonical positions [a, b) into `out`. */
function addPositions(out: i32, a: i32, b: i32): void {
  for (let k = max(a, 0); k < min(b, count); k++) setAdd(out, order[k]);
}

function resolveString(v: i32, out: i32): void {
  textOf(v);
  const p = tp;
  const n = tl;
  if (bytesAre(p, n, "all")) return setAllPanels(out);
  if (bytesAre(p, n, "root")) return setAdd(out, root);
  const leaves = bytesAre(p, n, "leaves");
  if (leaves || bytesAre(p, n, "branches")) {
    for (let q = 1; q <= count; q++) if (leaves ? children[q] == 0 : children[q] >= 2) setAdd(out, q);
    return;
  }
  const even = bytesAre(p, n, "even");
  if (even || bytesAre(p, n, "odd")) {
    for (let k = even ? 0 : 1; k < count; k += 2) setAdd(out, order[k]);
    return;
  }
  if (startsWith(p, n, "depth:")) {
    const q = p + 6;
    const m = n - 6;
    const dash = indexOfByte(q, m, 0x2d);
    const a = dash < 0 ? parseDecimal(q, m) : parseDecimal(q, <u32>dash);
    const b = dash < 0 ? a : parseDecimal(q + dash + 1, m - dash - 1);
    for (let x = 1; x <= count; x++) if (<i32>depth[x] >= a && <i32>depth[x] <= b) setAdd(out, x);
    return;
  }
  if (startsWith(p, n, "subtree:")) {
    const s = parseDecimal(p + 8, n - 8);
    if (!tree.exists(s)) return;
    for (let x = 1; x <= count; x++) if (inSubtree(x, s)) setAdd(out, x);
    return;
  }
  if (startsWith(p, n, "neighbors:")) {
    const s = parseDecimal(p + 10, n - 10);
    if (!tree.exists(s)) return;
    for (let slot = 0; slot < 3; slot++) setAdd(out, tree.connectedPanel(s, slot));
    return;
  }
  if (startsWith(p, n, "first:")) return addPositions(out, 0, parseDecimal(p + 6, n - 6));
  if (startsWith(p, n, "last:")) return addPositions(out, count - parseDecimal(p + 5, n - 5), count);
  if (startsWith(p, n, "fraction:")) {
    const q = p + 9;
    const m = n - 9;
    const dash = indexOfByte(q, m, 0x2d);
    const a = decimal(q, <u32>dash);
    const b = decimal(q + dash + 1, m - dash - 1);
    // positions k with a*n <= k < b*n (so 0-0.5 and 0.5-1 split the order without overlap)
    addPositions(out, <i32>Math.ceil(a * <f64>count), <i32>Math.ceil(b * <f64>count));
  }
}
