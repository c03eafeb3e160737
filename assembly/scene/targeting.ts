// Targeting selectors (a layer's `panels` and `fallback`): their syntax, checked as they stream in
// (json/stream.ts) and at the same time echoed to the canonical form and put in the pre-parsed
// form the compiled scene stores (through the writer of playback/form-io.ts); resolving them against
// the topology belongs to playback (topology/targeting.ts). Forms: "all", "root", "leaves", "branches",
// "even", "odd", "depth:N", "depth:A-B", "subtree:N", "neighbors:N", "fraction:A-B", "first:K",
// "last:K", an array of panel indices, {"exclude": [...]}, {"any": [...]}, {"all": [...]},
// {"not": selector}.
import { J_STRING, J_ARRAY, J_OBJECT, piece } from "../json/reader";
import { value, member, kind, text, textBytes, textLength, intIn } from "../json/stream";
import { put, putF64, patch8, outLength } from "../playback/form-io";
import { names, nameIndex, nameEntry } from "../util/names";
import { bad, pushKey, pushIndex, pop, quote, indexOfByte } from "./path-errors";
import * as out from "./canonical";
import { intText } from "../util/int-text";

/** Explicit panel indices per layer (its `panels` and its `fallback` together: the spec's limit). */
export const MAX_EXPLICIT = 32;
/** Selector objects nest at most this deep (`{"not": {"any": [...]}}` is two). */
export const MAX_SELECTOR_DEPTH = 4;
/** Members of one `any` or `all`. */
export const MAX_SELECTOR_TERMS = 8;

// The compiled form: one op byte, then its operands (prefix order).
/** The named forms, in STRING_FORMS order. */
export const SEL_ALL = 0;
export const SEL_ROOT = 1;
export const SEL_LEAVES = 2;
export const SEL_BRANCHES = 3;
export const SEL_EVEN = 4;
export const SEL_ODD = 5;
/** The prefixed forms, in STRING_FORMS order: depth lo, hi; subtree and neighbors a panel; first and
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

/** The string forms, by op: the named forms, then the prefixed ones (written with a colon). */
const STRING_FORMS = names("all root leaves branches even odd depth subtree neighbors first last fraction");
/** The object forms, in op order from SEL_EXCLUDE. */
const OBJECT_KEYS = names("exclude not any all");

const FORMS = "must be a selector: a string, an array of panel indices, or an object of exclude, any, all or not";
const ONE = "a selector object has exactly one of exclude, any, all or not";

let explicit = 0;
const seen = memory.data(32); // one bit per panel index 0-255

/** readList's selector lists: LIST_SELECTOR + their op, SEL_LIST and SEL_EXCLUDE unique panel indices
 * 1-254, SEL_ANY and SEL_EVERY 1-MAX_SELECTOR_TERMS selectors. */
export const LIST_SELECTOR: u32 = 32;

// validate.ts readList, the one loop over a document's lists (a list of selectors reads each with
// selector in turn), registered at start-up before any export runs
let readList: ((list: u32, level: i32) => bool) | null = null;

export function readListsWith(reader: (list: u32, level: i32) => bool): void {
  readList = reader;
}

/** A layer's selectors share one MAX_EXPLICIT: call before checking them (the flat step's too). */
export function startLayer(): void {
  explicit = 0;
}

/** Checks the selector whose start json/stream.ts value() has just read, putting its compiled form;
 * the caller has pushed its path (`layers[i].panels`). Its explicit indices count on from the
 * layer's other selector (startLayer). */
export function selector(level: i32): bool {
  const k = kind;
  if (k == J_STRING) return selectorString();
  if (k == J_ARRAY) return readList!(LIST_SELECTOR + SEL_LIST, level);
  if (k != J_OBJECT) return bad(FORMS);
  if (!member()) return bad(ONE);
  if (level >= MAX_SELECTOR_DEPTH) return bad("selectors nest at most " + MAX_SELECTOR_DEPTH.toString() + " deep");
  out.byte(0x7b);
  const f = nameIndex(OBJECT_KEYS, text, textBytes);
  if (f < 0) return bad(ONE);
  out.field(true, false);
  pushKey(nameEntry(OBJECT_KEYS, f));
  const t = value();
  const op = SEL_EXCLUDE + f; // OBJECT_KEYS' order
  let ok = true;
  if (op == SEL_NOT) {
    put(op);
    ok = selector(level + 1);
  } else if ((op == SEL_EXCLUDE) & (t != J_ARRAY)) ok = bad("must be an array of panel indices 1-254");
  else ok = readList!(LIST_SELECTOR + op, level);
  if (!ok) return false;
  pop();
  if (member()) return bad(ONE);
  out.byte(0x7d);
  return true;
}

/** Starts selector list `op` (scene/validate.ts readList): puts the op and a count to patch, whose
 * place it returns. */
export function startSelectorList(op: i32): u32 {
  memory.fill(seen, 0, 32);
  put(op);
  const at = outLength;
  put(0);
  return at;
}

/** The element of a panel list just read (SEL_LIST, SEL_EXCLUDE): a panel index 1-254, unique in its list,
 * counted toward the layer's MAX_EXPLICIT. */
export function panelIndex(): bool {
  const p = intIn(1, 254, -1);
  if (p < 0) return bad("must be a panel index, an integer 1-254");
  const w = seen + (((<usize>p) >> 5) << 2);
  const bit: u32 = 1 << (p & 31);
  if (load<u32>(w) & bit) return bad("panel " + intText(p) + " is listed twice");
  store<u32>(w, load<u32>(w) | bit);
  if (++explicit > MAX_EXPLICIT) return bad("at most " + MAX_EXPLICIT.toString() + " explicit panel indices per layer");
  put(p);
  return true;
}

function selectorString(): bool {
  const p = text;
  const n = textBytes;
  // a named form is a whole name, a prefixed one its name and a colon: one list, split at the colon
  const colon = indexOfByte(p, n, 0x3a);
  const op = nameIndex(STRING_FORMS, p, colon < 0 ? n : <u32>colon);
  if ((op < 0) | (op < SEL_DEPTH != colon < 0)) return bad("unknown selector " + quote(p, min(n, textLength)));
  put(op);
  if (colon < 0) return true;
  const k = op - SEL_DEPTH;
  const q = p + colon + 1;
  const m = n - colon - 1;
  // A, or A-B (fraction: each digits with an optional fraction; depth: A alone is A-A)
  const dash = indexOfByte(q, m, 0x2d);
  const range = dash >= 0;
  const fraction = op == SEL_FRACTION;
  const a = decimal(q, range ? <u32>dash : m, fraction);
  const b = range ? decimal(q + dash + 1, m - dash - 1, fraction) : a;
  let ok = false;
  if (fraction) {
    putF64(a);
    putF64(b);
    ok = range && a >= 0 && a <= b && b <= 1;
  } else {
    put(<i32>a);
    if (op == SEL_DEPTH) {
      put(<i32>b);
      ok = a >= 0 && a <= b && b <= 254;
    } else ok = !range && a >= 1 && a <= 254;
  }
  return ok || bad(piece(prefixedRules(), k));
}

/** The rule of each prefixed form, in its order (json/reader.ts piece). @message-returns: it goes to
 * the UTF-8 message table (scripts/messages-transform.mjs). */
function prefixedRules(): string {
  return "must be depth:N or depth:A-B with 0 <= A <= B <= 254|must be subtree:N with a panel index 1-254|must be neighbors:N with a panel index 1-254|must be first:K with K 1-254|must be last:K with K 1-254|must be fraction:A-B with 0 <= A <= B <= 1";
}

/** A non-negative decimal (`fraction`: digits with an optional fraction, 0, 1, 0.25, at most 12
 * characters; else 1-5 digits); -1 when malformed. Its digits are read as one integer, then divided
 * once by the power of ten of its fraction's digits: both are exact, so the quotient is the double
 * nearest the decimal written (0.15 reads 0.15; topology/targeting.ts takes fraction bounds as exact
 * decimals). */
export function decimal(p: usize, n: u32, fraction: bool): f64 {
  let v: i64 = 0;
  let scale: i64 = 0; // 0 before the point, then 10 to the fraction's digits
  let ok = n - 1 < (fraction ? 12 : 5);
  for (let i: u32 = 0; ok && i < n; i++) {
    const d = <u32>load<u8>(p + i) - 0x30;
    if (d <= 9) {
      v = v * 10 + d;
      scale *= 10;
    } else {
      ok = (d == <u32>-2) & (scale == 0) & (i > 0) & (i + 1 < n) & fraction;
      scale = 1;
    }
  }
  return ok ? <f64>v / <f64>max(scale, 1) : -1;
}
