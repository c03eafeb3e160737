// Targeting resolution: a selector (a layer's `panels` or `fallback`), stored pre-parsed in the
// compiled scene form (scene/targeting.ts checkSelector), becomes a set of panel indices against
// the rooted tree (topology/rooted.ts) as it is read. Sets are bitsets of 4 words (indices 0-127) in
// a fixed pool: no allocation per call.
import * as S from "../scene/targeting";
import { next, nextF64, malformed, overrun } from "../playback/bytes";
import { tree } from "./tree";
import { depth, children, order, root, count, inSubtree } from "./rooted";

export const SET_WORDS = 4;
/** Pool slots: 0-9 for the caller (0-7 layers, 8 the flat animation, 9 a layer's fallback), 10
 * and up scratch for nested selectors (2 per level, 5 levels). */
const POOL = 20;
export const sets = new StaticArray<u32>(POOL * SET_WORDS);

// Sets are indexed by pool slot (< POOL) and panel index (1-127): every access is in range.
export function setClear(s: i32): void {
  for (let i = 0; i < SET_WORDS; i++) unchecked((sets[s * SET_WORDS + i] = 0));
}

export function setAdd(s: i32, p: i32): void {
  if (p >= 1 && p <= count) unchecked((sets[s * SET_WORDS + (p >> 5)] |= 1 << (p & 31)));
}

export function setHas(s: i32, p: i32): bool {
  return (unchecked(sets[s * SET_WORDS + (p >> 5)]) & (1 << (p & 31))) != 0;
}

export function setCount(s: i32): i32 {
  let n = 0;
  for (let i = 0; i < SET_WORDS; i++) n += <i32>popcnt(unchecked(sets[s * SET_WORDS + i]));
  return n;
}

export function setCopy(dst: i32, src: i32): void {
  for (let i = 0; i < SET_WORDS; i++) sets[dst * SET_WORDS + i] = sets[src * SET_WORDS + i];
}

function setAllPanels(s: i32): void {
  setClear(s);
  for (let p = 1; p <= count; p++) setAdd(s, p);
}

/** Resolves the selector next in the compiled form being read (playback/bytes.ts) into set `out`
 * (0-9), with the current rooting. One that is not well formed marks the reader malformed. */
export function resolveSelector(out: i32): void {
  resolve(out, 0);
}

function resolve(out: i32, level: i32): void {
  setClear(out);
  const op = <i32>next();
  if (overrun) return;
  // objects nest at most MAX_SELECTOR_DEPTH deep: the scratch sets suffice
  if (op >= S.SEL_EXCLUDE && op <= S.SEL_EVERY && level >= S.MAX_SELECTOR_DEPTH) return malformed();
  const scratch = 10 + level * 2;
  switch (op) {
    case S.SEL_ALL:
      return setAllPanels(out);
    case S.SEL_ROOT:
      return setAdd(out, root);
    case S.SEL_LEAVES:
    case S.SEL_BRANCHES:
      for (let q = 1; q <= count; q++) if (op == S.SEL_LEAVES ? children[q] == 0 : children[q] >= 2) setAdd(out, q);
      return;
    case S.SEL_EVEN:
    case S.SEL_ODD:
      for (let k = op - S.SEL_EVEN; k < count; k += 2) setAdd(out, order[k]);
      return;
    case S.SEL_DEPTH: {
      const a = <i32>next();
      const b = <i32>next();
      for (let x = 1; x <= count; x++) if (<i32>depth[x] >= a && <i32>depth[x] <= b) setAdd(out, x);
      return;
    }
    case S.SEL_SUBTREE:
    case S.SEL_NEIGHBORS: {
      const s = <i32>next();
      if (!tree.exists(s)) return;
      if (op == S.SEL_SUBTREE) {
        for (let x = 1; x <= count; x++) if (inSubtree(x, s)) setAdd(out, x);
      } else for (let slot = 0; slot < 3; slot++) setAdd(out, tree.connectedPanel(s, slot));
      return;
    }
    case S.SEL_FIRST:
      return addPositions(out, 0, <i32>next());
    case S.SEL_LAST:
      return addPositions(out, count - <i32>next(), count);
    case S.SEL_FRACTION: {
      const a = nextF64();
      const b = nextF64();
      if (!(a >= 0 && a <= b && b <= 1)) return malformed();
      // positions k with a*n <= k < b*n (so 0-0.5 and 0.5-1 split the order without overlap)
      return addPositions(out, <i32>Math.ceil(a * <f64>count), <i32>Math.ceil(b * <f64>count));
    }
    case S.SEL_LIST:
      return addIndices(out);
    case S.SEL_EXCLUDE:
    case S.SEL_NOT:
      if (op == S.SEL_EXCLUDE) addIndices(scratch);
      else resolve(scratch, level + 1);
      for (let p = 1; p <= count; p++) if (!setHas(scratch, p)) setAdd(out, p);
      return;
    case S.SEL_ANY:
    case S.SEL_EVERY: {
      const union = op == S.SEL_ANY;
      if (!union) setAllPanels(out);
      const n = <i32>next();
      for (let i = 0; i < n && !overrun; i++) {
        resolve(scratch + 1, level + 1);
        for (let w = 0; w < SET_WORDS; w++) {
          const a = sets[out * SET_WORDS + w];
          const b = sets[(scratch + 1) * SET_WORDS + w];
          sets[out * SET_WORDS + w] = union ? a | b : a & b;
        }
      }
      return;
    }
    case S.SEL_NONE:
      return;
  }
  malformed();
}

/** A count, then that many panel indices; indices that do not exist are skipped. */
function addIndices(out: i32): void {
  setClear(out);
  const n = next();
  for (let i: u32 = 0; i < n; i++) setAdd(out, <i32>next());
}

/** Canonical positions [a, b) into `out`. */
function addPositions(out: i32, a: i32, b: i32): void {
  for (let k = max(a, 0); k < min(b, count); k++) setAdd(out, order[k]);
}
