// The canonical form of a validated scene, as stored: the document's own members in their own
// order, strings and numbers exactly as written (escapes kept), no whitespace, with the legacy forms
// normalised and an out-of-range speed clamped (state.ts rewrites).
//
// It is written over the request body in place: every output byte normally comes from a source byte
// at or after it, so the output never overtakes the input. A rewrite that is longer than what it
// replaces can overtake it; then the bytes that would overwrite unread input wait in a small spill
// ring (at most the total growth of the rewrites, about 2 KiB for a maximal scene) and move into the
// body as the input behind them is consumed. What is left in the ring at the end follows the bytes
// in place. So storing a scene needs no second copy of it while the JSON tape is open.
import {
  kindOf,
  sourceOf,
  lengthOf,
  numberValue,
  firstMember,
  nextMember,
  after,
  sizeOf,
  J_OBJECT,
  J_ARRAY,
  J_STRING,
  J_NUMBER,
  J_NULL,
  J_TRUE,
} from "../json/reader";
import {
  rewriteToken,
  rewriteKind,
  rewriteCount,
  rewriteGrowth,
  RW_SPEED_MIN,
  RW_SPEED_MAX,
  RW_ORIGIN,
  RW_GEOMETRIC,
  RW_GEOMETRIC_SOURCE_ONLY,
} from "./state";

let w: usize = 0; // where the next in-place byte goes
let free: usize = 0; // input before this address has been read and may be overwritten
let cursor = 0; // next rewrite
let ring: usize = 0;
let ringCap: u32 = 0;
let ringHead: u32 = 0;
let ringCount: u32 = 0;
let overflow = false;

function drain(): void {
  while (ringCount > 0 && w < free) {
    store<u8>(w++, load<u8>(ring + ringHead));
    ringHead = ringHead + 1 == ringCap ? 0 : ringHead + 1;
    ringCount--;
  }
}

function put(c: u8): void {
  if (ringCount == 0 && w < free) {
    store<u8>(w++, c);
    return;
  }
  if (ringCount == ringCap) {
    overflow = true;
    return;
  }
  let tail = ringHead + ringCount;
  if (tail >= ringCap) tail -= ringCap;
  store<u8>(ring + tail, c);
  ringCount++;
}

/** Copies input bytes [p, p+n) to the output. */
function copy(p: usize, n: u32): void {
  if (ringCount == 0 && w <= p) {
    // the usual case: nothing waits and the output is behind the input (memory.copy is a memmove)
    memory.copy(w, p, n);
    w += n;
    if (p + n > free) free = p + n;
    return;
  }
  for (let j: u32 = 0; j < n; j++) {
    const c = load<u8>(p + j);
    if (p + j + 1 > free) free = p + j + 1;
    drain();
    put(c);
  }
}

function text(s: string): void {
  for (let i = 0; i < s.length; i++) put(<u8>s.charCodeAt(i));
}

/** The rewrite of token t, or 0 (tokens are visited in document order). */
function rewriteOf(t: i32): u8 {
  while (cursor < rewriteCount && rewriteToken[cursor] < t) cursor++;
  return cursor < rewriteCount && rewriteToken[cursor] == t ? rewriteKind[cursor] : 0;
}

function literalLength(t: i32): u32 {
  const k = kindOf(t);
  return k == J_NULL || k == J_TRUE ? 4 : 5;
}

let tokenEnd = 0; // the token after the document
let srcEnd: usize = 0;

/** Where token t's text starts in the input (a string's opening quote). */
function spanStart(t: i32): usize {
  return kindOf(t) == J_STRING ? sourceOf(t) - 1 : sourceOf(t);
}

/** Input before `p` is dead: the walk has read it, or it is whitespace and punctuation. */
function reach(p: usize): void {
  if (p > free) free = p;
  drain();
}

/** Input before token t is dead (t may be the token after the document). */
function reachToken(t: i32): void {
  reach(t < tokenEnd ? spanStart(t) : srcEnd);
}

function value(t: i32): void {
  const k = kindOf(t);
  if (k == J_OBJECT) {
    reach(sourceOf(t) + 1);
    put(0x7b);
    let first = true;
    for (let m = firstMember(t); m >= 0; m = nextMember(t, m)) {
      if (!first) {
        reachToken(m);
        put(0x2c);
      }
      first = false;
      const rw = rewriteOf(m);
      if (rw == RW_ORIGIN) {
        const panel = <i32>numberValue(m + 1); // 1-254, validated
        reach(sourceOf(m + 1) + lengthOf(m + 1)); // the member is read
        text('"source":"panel:');
        if (panel >= 100) put(<u8>(0x30 + panel / 100));
        if (panel >= 10) put(<u8>(0x30 + ((panel / 10) % 10)));
        put(<u8>(0x30 + (panel % 10)));
        put(0x22);
        continue;
      }
      if (rw == RW_GEOMETRIC || rw == RW_GEOMETRIC_SOURCE_ONLY) {
        reach(sourceOf(m + 1) + lengthOf(m + 1) + 1); // the member is read
        text('"source":"root"');
        if (rw == RW_GEOMETRIC) text(',"directionality":"geometric"');
        continue;
      }
      copy(sourceOf(m) - 1, lengthOf(m) + 2);
      reachToken(m + 1);
      put(0x3a);
      value(m + 1);
    }
    reachToken(after(t));
    put(0x7d);
  } else if (k == J_ARRAY) {
    reach(sourceOf(t) + 1);
    put(0x5b);
    const n = sizeOf(t);
    let e = t + 1;
    for (let i = 0; i < n; i++) {
      if (i > 0) {
        reachToken(e);
        put(0x2c);
      }
      value(e);
      e = after(e);
    }
    reachToken(after(t));
    put(0x5d);
  } else if (k == J_STRING) {
    copy(sourceOf(t) - 1, lengthOf(t) + 2);
  } else if (k == J_NUMBER) {
    const rw = rewriteOf(t);
    if (rw == RW_SPEED_MIN || rw == RW_SPEED_MAX) {
      reach(sourceOf(t) + lengthOf(t)); // the number is read
      text(rw == RW_SPEED_MIN ? "0.1" : "10");
    } else copy(sourceOf(t), lengthOf(t));
  } else {
    copy(sourceOf(t), literalLength(t));
  }
}

/**
 * Writes the canonical form of the validated document at `root` over its own source bytes
 * [src, src+len). Returns how many bytes are in place at `src`; the rest of the output
 * (spillLength) waits in the spill ring for spillTo. -1 if the ring overflowed
 * (a bug: it is sized by the rewrites' growth).
 */
export function writeCanonicalInPlace(root: i32, src: usize, len: u32): i32 {
  cursor = 0;
  w = src;
  free = src;
  srcEnd = src + len;
  tokenEnd = after(root);
  ringCap = rewriteGrowth + 1;
  ring = heap.alloc(ringCap);
  ringHead = 0;
  ringCount = 0;
  overflow = false;
  value(root);
  free = src + len;
  drain();
  if (overflow) {
    releaseSpill();
    return -1;
  }
  return <i32>(w - src);
}

/** Bytes of output waiting in the spill ring. */
export function spillLength(): u32 {
  return ringCount;
}

/** Copies the spilled bytes to `dest` and releases the ring. */
export function spillTo(dest: usize): void {
  for (let i: u32 = 0; i < ringCount; i++) {
    let at = ringHead + i;
    if (at >= ringCap) at -= ringCap;
    store<u8>(dest + i, load<u8>(ring + at));
  }
  releaseSpill();
}

export function releaseSpill(): void {
  if (ring) heap.free(ring);
  ring = 0;
  ringCount = 0;
}
