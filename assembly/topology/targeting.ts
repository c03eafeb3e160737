// Targeting resolution: a selector (a layer's `panels` or `fallback`), stored pre-parsed in the
// compiled scene form (scene/targeting.ts checkSelector), becomes a set of panel indices against
// the rooted tree (topology/rooted.ts) as it is read. Sets are bitsets of 4 words (indices 0-127) in
// a fixed pool: no allocation per call.
import * as S from "../scene/targeting";
import { next, nextF64, malformed, overrun } from "../playback/form-io";
import { tree } from "./tree";
import { depth, order, count, inSubtree, PER_PANEL } from "./rooted";
import { Fixed } from "../rt/fixed";

export const SET_WORDS = 4;
/** Pool slots: 0-9 for the caller (0-7 layers, 8 the flat animation, 9 a layer's fallback), 10
 * and up scratch for nested selectors (one per level of an object, MAX_SELECTOR_DEPTH levels, and the
 * innermost term's). */
const POOL = 10 + S.MAX_SELECTOR_DEPTH + 1;
export const sets = changetype<Fixed<u32>>(memory.data(4 * (POOL * SET_WORDS), 4));

// Sets are indexed by pool slot (< POOL) and panel index (1-127): every access is in range.
/** Set `s`'s address (4 words: two u64 halves). */
function setAt(s: i32): usize {
  return changetype<usize>(sets) + ((<usize>s) << 4);
}

export function setClear(s: i32): void {
  const w = setAt(s);
  store<u64>(w, 0);
  store<u64>(w, 0, 8);
}

export function setAdd(s: i32, p: i32): void {
  if (p >= 1 && p <= count) unchecked((sets[s * SET_WORDS + (p >> 5)] |= 1 << (p & 31)));
}

export function setHas(s: i32, p: i32): bool {
  return (unchecked(sets[s * SET_WORDS + (p >> 5)]) & (1 << (p & 31))) != 0;
}

export function setCount(s: i32): i32 {
  const w = setAt(s);
  return <i32>(popcnt(load<u64>(w)) + popcnt(load<u64>(w, 8)));
}

export function setCopy(dst: i32, src: i32): void {
  memory.copy(setAt(dst), setAt(src), 16);
}

/** Panels 1 to `count` as two 64-bit halves (no call per panel: every layer without `panels`). */
function setAllPanels(s: i32): void {
  const w = setAt(s);
  store<u64>(w, count >= 63 ? <u64>-2 : ((<u64>2) << count) - 2); // bit 0 is no panel
  const c = count - 64;
  store<u64>(w, c >= 63 ? <u64>-1 : c < 0 ? 0 : ((<u64>2) << c) - 1, 8);
}

// A string form's key, as topology/targeting.ts's walk reads it for panel x at position k
const K_POSITION = 0; // k
const K_PARITY = 1; // k & 1
const K_SUBTREE = 2; // 1 when x is in the subtree of the form's panel
const K_DEPTH = 3; // depth[x]
const K_CHILDREN = 4; // children[x], PER_PANEL bytes after depth[x]
/** By op (SEL_ALL to SEL_FRACTION): the key | a << 3 | b << 5, the positions [a, b) of a named form
 * (a prefixed form's operands set what its row leaves 0). */
// prettier-ignore
const FORMS = memory.data<u8>([
  <u8>K_POSITION, // all
  <u8>(K_DEPTH | (1 << 5)), // root: depth 0
  <u8>(K_CHILDREN | (1 << 5)), // leaves: no child
  <u8>(K_CHILDREN | (2 << 3) | (4 << 5)), // branches: 2 or 3 children
  <u8>(K_PARITY | (1 << 5)), // even
  <u8>(K_PARITY | (1 << 3) | (2 << 5)), // odd
  <u8>K_DEPTH, // depth: A-B
  <u8>(K_SUBTREE | (1 << 3) | (2 << 5)), // subtree
  <u8>K_POSITION, // neighbors (not walked)
  <u8>K_POSITION, // first: 0-K
  <u8>K_POSITION, // last: n-K to n
  <u8>K_POSITION, // fraction
]);

/** Resolves the selector next in the compiled form being read (playback/form-io.ts) into set `out`
 * (0-9), with the current rooting. One that is not well formed marks the reader malformed. */
export function resolveSelector(out: i32): void {
  resolve(out, 0);
}

function resolve(out: i32, level: i32): void {
  setClear(out);
  const op = <i32>next();
  if (overrun) return;
  const scratch = 10 + level;
  if (op < S.SEL_LIST) {
    // a string form: one walk over the canonical positions k (panel x = order[k]), taking the panels
    // whose key (FORMS: k, its parity, whether x is in the subtree, x's depth or children) is in [a, b)
    if (op == S.SEL_ALL) return setAllPanels(out);
    const row = <u32>load<u8>(FORMS + op);
    const key = <i32>(row & 7);
    let a = (<i32>(row >> 3)) & 3;
    let b = <i32>(row >> 5);
    let v = 0;
    if (op == S.SEL_FRACTION) {
      // x*n <= k < y*n, so 0-0.5 and 0.5-1 split the order without overlap. The bounds are decimals
      // of at most 10 places stored as the nearest double (scene/targeting.ts decimal; forms saved
      // before round 6 of issue 12 hold them a few ulps off): x*n is a whole number or at least 1e-10
      // from one, and off by far less than 1e-12, so ceil(x*n - 1e-12) is the exact ceiling (0.15 of
      // 20 panels is 3, not 4)
      a = <i32>Math.ceil(nextF64() * <f64>count - 1e-12);
      b = <i32>Math.ceil(nextF64() * <f64>count - 1e-12);
    } else if (op >= S.SEL_DEPTH) {
      v = <i32>next();
      if (op == S.SEL_LAST) {
        a = count - v;
        b = count;
      } else if (op == S.SEL_FIRST) b = v;
      else if (op == S.SEL_DEPTH) {
        a = v;
        b = <i32>next() + 1;
      }
    }
    if (op == S.SEL_NEIGHBORS) {
      if (tree.exists(v)) for (let slot = 0; slot < 3; slot++) setAdd(out, tree.connectedPanel(v, slot));
      return;
    }
    if (op == S.SEL_SUBTREE && !tree.exists(v)) return;
    for (let k = 0; k < count; k++) {
      const x = <i32>order[k];
      let at = k;
      if (key == K_PARITY) at = k & 1;
      else if (key == K_SUBTREE) at = <i32>inSubtree(x, v);
      else if (key >= K_DEPTH) at = load<u8>(changetype<usize>(depth) + x + (key - K_DEPTH) * PER_PANEL);
      if ((at >= a) & (at < b)) setAdd(out, x);
    }
    return;
  }
  if (op == S.SEL_LIST) return addIndices(out);
  if (op == S.SEL_NONE) return;
  // objects nest at most MAX_SELECTOR_DEPTH deep: the scratch sets suffice
  if ((op > S.SEL_EVERY) | (level >= S.MAX_SELECTOR_DEPTH)) return malformed();
  // exclude and not: every panel but those of their one term; any: the union of its terms, all: their
  // intersection (a word at a time)
  const n = op >= S.SEL_ANY ? <i32>next() : 1;
  if (op != S.SEL_ANY) setAllPanels(out);
  for (let i = 0; i < n && !overrun; i++) {
    if (op == S.SEL_EXCLUDE) addIndices(scratch);
    else resolve(scratch, level + 1);
    for (let w: usize = 0; w < 16; w += 8) {
      const at = setAt(out) + w;
      const x = load<u64>(at);
      const y = load<u64>(setAt(scratch) + w);
      store<u64>(at, op == S.SEL_ANY ? x | y : op == S.SEL_EVERY ? x & y : x & ~y);
    }
  }
}

/** A count, then that many panel indices; indices that do not exist are skipped. */
function addIndices(out: i32): void {
  setClear(out);
  const n = next();
  for (let i: u32 = 0; i < n; i++) setAdd(out, <i32>next());
}
