// What the API handlers share: the methods, the path parameter, the JSON body, and the work queue's
// answers.
import { openRequest, value } from "../json/stream";
import { hexDigit, utf8SequenceLength } from "../json/reader";
import { resetErrors } from "../json/validate";
import { enqueue } from "../core/queue";
import { counted, A_BUSY } from "./answers";
import { utf8Decode } from "../util/utf8";

export const M_OTHER: u8 = 0;
export const M_GET: u8 = 1;
export const M_HEAD: u8 = 2;
export const M_POST: u8 = 3;
export const M_PUT: u8 = 4;
export const M_PATCH: u8 = 5;
export const M_DELETE: u8 = 6;

/** The bytes of the path parameter (a `*` segment) of the request being handled, as sent (in the
 * request's URL buffer, which the handler may change). */
export let paramStart: usize = 0;
export let paramLength: u32 = 0;

export function setParam(p: usize, n: u32): void {
  paramStart = p;
  paramLength = n;
}

/** The path parameter as a name (a palette's, api/routes.ts PALETTE): its segment percent-decoded
 * as UTF-8 in place ("Cœur%20%E2%9D%A4" → "Cœur ❤"); null when a "%" is not followed by two hex digits or the bytes
 * are not valid UTF-8 (strict: no overlong forms, no surrogates, nothing above U+10FFFF). "+" stays
 * "+" (paths are not form data); characters sent unencoded are taken as they are. */
export function pathName(): string | null {
  const p = paramStart;
  const n = <usize>paramLength;
  let o: usize = 0;
  for (let i: usize = 0; i < n; i++) {
    let b = <i32>load<u8>(p + i);
    if (b == 0x25) {
      if (i + 2 >= n) return null;
      const hi = hexDigit(load<u8>(p + i + 1));
      const lo = hexDigit(load<u8>(p + i + 2));
      if (hi < 0 || lo < 0) return null;
      b = (hi << 4) | lo;
      i += 2;
    }
    store<u8>(p + o++, b);
  }
  for (let i: usize = 0; i < o;) {
    if (load<u8>(p + i) < 0x80) i++;
    else {
      const size = utf8SequenceLength(p + i, p + o);
      if (size == 0) return null;
      i += size;
    }
  }
  return utf8Decode(p, o);
}

/** Opens the JSON body of the request being dispatched, to be read as it streams (json/stream.ts),
 * and returns the kind of its root value (json/fields.ts checkFields reads the rest). Clears
 * validation errors. */
export function jsonBody(req: u32): u32 {
  resetErrors();
  openRequest(req);
  return value();
}

/** Queues work without a text: row `done` (A_ACCEPTED: 202 {}) with `a` as its number n1, or 503
 * busy when the queue is full. */
export function queued(kind: u8, a: i32, b: i32, done: i32): i32 {
  return enqueue(kind, a, b) ? counted(done, a, 0) : A_BUSY;
}
