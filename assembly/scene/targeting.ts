// Targeting selectors (a layer's `panels` and `fallback`): their syntax, checked and at the same
// time put in the pre-parsed form the compiled scene stores (through the writer of
// playback/bytes.ts: outside a compile it counts and stores nothing); resolving them against the
// topology belongs to playback (topology/targeting.ts). Forms: "all", "root", "leaves", "branches",
// "even", "odd", "depth:N", "depth:A-B", "subtree:N", "neighbors:N", "fraction:A-B", "first:K",
// "last:K", an array of panel indices, {"exclude": [...]}, {"any": [...]}, {"all": [...]},
// {"not": selector}.
import { kindOf, sizeOf, after, firstMember, stringEquals, intIn, J_STRING, J_ARRAY, J_OBJECT } from "../json/reader";
import { put, putF64 } from "../playback/bytes";
import {
  bad,
  pushKey,
  pushIndex,
  pop,
  textOf,
  tp,
  tl,
  startsWith,
  bytesAre,
  parseDecimal,
  quote,
  indexOfByte,
} from "./text";

/** Explicit panel indices per layer (its `panels` and its `fallback` together: the spec's limit). */
export const MAX_EXPLICIT = 32;
/** Selector objects nest at most this deep (`{"not": {"any": [...]}}` is two). */
export const MAX_SELECTOR_DEPTH = 4;
/** Members of one `any` or `all`. */
export const MAX_SELECTOR_TERMS = 8;

// The compiled form: one op byte, then its operands (prefix order).
/** The named forms, in NAMED order. */
export const SEL_ALL = 0;
export const SEL_ROOT = 1;
export const SEL_LEAVES = 2;
export const SEL_BRANCHES = 3;
export const SEL_EVEN = 4;
export const SEL_ODD = 5;
/** The prefixed forms, in PREFIXED order: depth lo, hi; subtree and neighbors a panel; first and
 * last K; fraction A, B as two f64. */
export const SEL_DEPTH = 6;
export const SEL_SUBTREE = 7;
export const SEL_NEIGHBORS = 8;
export const SEL_FIRST = 9;
export const SEL_LAST = 10;
export const SEL_FRACTION = 11;
/** A count, then that many panel indices. */
export const SEL_LIST = 12;
export const SEL_EXCLUDE = 13;
/** One selector. */
export const SEL_NOT = 14;
/** A count, then that many selectors: `any` and `all`. */
export const SEL_ANY = 15;
export const SEL_EVERY = 16;
/** Nothing: an absent fallback. */
export const SEL_NONE = 17;

const NAMED: StaticArray<string> = ["all", "root", "leaves", "branches", "even", "odd"];
const PREFIXED: StaticArray<string> = ["depth:", "subtree:", "neighbors:", "first:", "last:", "fraction:"];

const FORMS = "must be a selector: a string, an array of panel indices, or an object of exclude, any, all or not";

let explicit = 0;
const seen = new StaticArray<u32>(8); // one bit per panel index 0-255

/** Checks a whole selector, putting its compiled form; the caller has pushed its path
 * (`layers[i].panels`). Its explicit indices count from 0, or, with `layer`, on from the layer's
 * other selector (startLayer). */
export function checkSelector(v: i32, layer: bool = false): bool {
  if (!layer) explicit = 0;
  return selector(v, 0);
}

/** A layer's selectors share one MAX_EXPLICIT: call before checking them with `layer` set. */
export function startLayer(): void {
  explicit = 0;
}

function selector(v: i32, level: i32): bool {
  const kind = kindOf(v);
  if (kind == J_STRING) return selectorString(v);
  if (kind == J_ARRAY) return indices(SEL_LIST, v);
  if (kind != J_OBJECT) return bad(FORMS);
  if (sizeOf(v) != 1) return bad("a selector object has exactly one of exclude, any, all or not");
  if (level >= MAX_SELECTOR_DEPTH) return bad("selectors nest at most " + MAX_SELECTOR_DEPTH.toString() + " deep");
  const m = firstMember(v);
  const value = m + 1;
  if (stringEquals(m, "exclude")) {
    pushKey("exclude");
    const ok = kindOf(value) == J_ARRAY ? indices(SEL_EXCLUDE, value) : bad("must be an array of panel indices 1-254");
    pop();
    return ok;
  }
  if (stringEquals(m, "not")) {
    pushKey("not");
    put(SEL_NOT);
    const ok = selector(value, level + 1);
    pop();
    return ok;
  }
  const any = stringEquals(m, "any");
  if (!any && !stringEquals(m, "all")) return bad("a selector object has exactly one of exclude, any, all or not");
  pushKey(any ? "any" : "all");
  const n = sizeOf(value);
  if (kindOf(value) != J_ARRAY || n < 1 || n > MAX_SELECTOR_TERMS) {
    return bad("must be an array of 1-" + MAX_SELECTOR_TERMS.toString() + " selectors");
  }
  put(any ? SEL_ANY : SEL_EVERY);
  put(n);
  let t = value + 1;
  for (let i = 0; i < n; i++) {
    pushIndex(i);
    if (!selector(t, level + 1)) return false;
    pop();
    t = after(t);
  }
  pop();
  return true;
}

/** An array of unique panel indices 1-254 (put as `op`, its count and the indices); counts toward
 * the selector's MAX_EXPLICIT. */
function indices(op: i32, v: i32): bool {
  for (let i = 0; i < 8; i++) seen[i] = 0;
  const n = sizeOf(v);
  put(op);
  put(n);
  let t = v + 1;
  for (let i = 0; i < n; i++) {
    pushIndex(i);
    const p = <i32>intIn(t, 1, 254, -1);
    if (p < 0) return bad("must be a panel index, an integer 1-254");
    const bit: u32 = 1 << (p & 31);
    if (seen[p >> 5] & bit) return bad("panel " + p.toString() + " is listed twice");
    seen[p >> 5] |= bit;
    if (++explicit > MAX_EXPLICIT)
      return bad("at most " + MAX_EXPLICIT.toString() + " explicit panel indices per layer");
    put(p);
    pop();
    t = after(t);
  }
  return true;
}

function selectorString(v: i32): bool {
  textOf(v);
  const p = tp;
  const n = tl;
  for (let k = 0; k < NAMED.length; k++) {
    if (!bytesAre(p, n, NAMED[k])) continue;
    put(k);
    return true;
  }
  for (let k = 0; k < PREFIXED.length; k++) {
    const skip = <u32>PREFIXED[k].length;
    if (!startsWith(p, n, PREFIXED[k])) continue;
    const q = p + skip;
    const m = n - skip;
    const dash = indexOfByte(q, m, 0x2d);
    const op = SEL_DEPTH + k;
    put(op);
    if (op == SEL_FRACTION) {
      // A-B, each digits with an optional fraction
      const a = dash < 0 ? -1 : decimal(q, <u32>dash);
      const b = dash < 0 ? -1 : decimal(q + dash + 1, m - dash - 1);
      putF64(a);
      putF64(b);
      return (a >= 0 && b >= 0 && a <= 1 && b <= 1 && a <= b) || bad("must be fraction:A-B with 0 <= A <= B <= 1");
    }
    // N, or A-B for depth; the rules are literal `bad` arguments: the messages transform moves them
    // to its UTF-8 table
    const range = op == SEL_DEPTH && dash >= 0;
    const a = parseDecimal(q, range ? <u32>dash : m);
    const b = range ? parseDecimal(q + dash + 1, m - dash - 1) : a;
    put(a);
    if (op == SEL_DEPTH) {
      put(b);
      return (a >= 0 && b <= 254 && a <= b) || bad("must be depth:N or depth:A-B with 0 <= A <= B <= 254");
    }
    return (
      (a >= 1 && a <= 254) ||
      bad(
        op == SEL_SUBTREE
          ? "must be subtree:N with a panel index 1-254"
          : op == SEL_NEIGHBORS
            ? "must be neighbors:N with a panel index 1-254"
            : op == SEL_FIRST
              ? "must be first:K with K 1-254"
              : "must be last:K with K 1-254",
      )
    );
  }
  return bad("unknown selector " + quote(p, n));
}

/** A non-negative decimal: digits with an optional fraction (0, 1, 0.25); -1 when malformed. */
export function decimal(p: usize, n: u32): f64 {
  if (n == 0 || n > 12) return -1;
  let v: f64 = 0;
  let scale: f64 = 0;
  let digits = 0;
  for (let i: u32 = 0; i < n; i++) {
    const c = <i32>load<u8>(p + i);
    if (c == 0x2e) {
      if (scale != 0 || digits == 0 || i + 1 == n) return -1;
      scale = 1;
      continue;
    }
    if (c < 0x30 || c > 0x39) return -1;
    digits++;
    if (scale == 0) v = v * 10 + <f64>(c - 0x30);
    else {
      scale /= 10;
      v += scale * <f64>(c - 0x30);
    }
  }
  return v;
}
