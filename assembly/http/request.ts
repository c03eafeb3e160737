// What the API handlers share: the methods, the path parameter, the JSON body, and the work queue's
// answers.
import { openRequest, value } from "../json/stream";
import { resetErrors } from "../json/validate";
import { enqueue } from "../core/queue";
import { counted, A_BUSY } from "./answers";

// 0: any other method
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

/** Opens the JSON body of the request being dispatched, to be read as it streams (json/stream.ts),
 * and returns the kind of its root value (json/check-fields.ts checkFields reads the rest). Clears
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
