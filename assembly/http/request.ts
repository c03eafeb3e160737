// Helpers shared by the API handlers: reading the JSON body and answering the common errors.
import { errorOffset, errorReason } from "../json/reader";
import { openRequest, value, broken } from "../json/stream";
import * as w from "../json/writer";
import { resetErrors, validationError } from "../json/validate";
import { sendError, sendLiteral } from "./response";
import { enqueue, queueFull, Work } from "../core/queue";
import { STORE_FULL } from "../store/kv";

export const M_OTHER: u8 = 0;
export const M_GET: u8 = 1;
export const M_HEAD: u8 = 2;
export const M_POST: u8 = 3;
export const M_PUT: u8 = 4;
export const M_PATCH: u8 = 5;
export const M_DELETE: u8 = 6;

/** Opens the JSON body of the request being dispatched, to be read as it streams (json/stream.ts),
 * and returns the kind of its root value (json/fields.ts checkFields reads the rest). Clears
 * validation errors. */
export function jsonBody(req: u32): u32 {
  resetErrors();
  openRequest(req);
  return value();
}

/** Answers 400 invalid_json with where (a byte offset into the body) and why the document was
 * refused (json/reader's errorOffset and errorReason, also set by json/stream.ts). */
export function sendSyntaxError(req: u32): void {
  w.begin(req, 400);
  w.raw('{"error":"invalid_json","offset":');
  w.int(errorOffset);
  w.raw(',"reason":');
  w.str(errorReason());
  w.byte(0x7d);
  w.finish();
}

/** Answers a refused body: 400 invalid_json when it is not JSON, else 422 with the first problem. */
export function sendInvalid(req: u32): void {
  if (broken) sendSyntaxError(req);
  else sendError(req, 422, validationError());
}

/** Queues work, or answers 503 busy and returns null. */
export function queueOrBusy(req: u32, kind: u8, a: i32, b: i32): Work | null {
  const w = enqueue(kind, a, b);
  if (!w) sendError(req, 503, "busy");
  return w;
}

/** Answers a failed store write: 507 storage_full when the store is full, else 500 storage_error. */
export function sendStoreFailure(req: u32, rc: i32): void {
  sendError(req, rc == STORE_FULL ? 507 : 500, rc == STORE_FULL ? "storage_full" : "storage_error");
}

/** Whether the work queue has room for one more item (so a change can be stored before queueing it). */
export function queueHasRoom(req: u32): bool {
  if (!queueFull()) return true;
  sendError(req, 503, "busy");
  return false;
}

export function sendAccepted(req: u32): void {
  sendLiteral(req, 202, "{}");
}
