// Whole HTTP responses in one call: errors and literal bodies. Longer bodies use json/writer directly.
import { begin, finish, raw, str, byte } from "../json/writer";

/** `{"error":"<message>"}` with the given status. @message-args: its literal texts go to the UTF-8
 * message table (scripts/messages-transform.mjs). */
export function sendError(request: u32, code: u32, message: string): void {
  begin(request, code);
  raw('{"error":');
  str(message);
  byte(0x7d);
  finish();
}

/** A literal JSON body such as "{}". */
export function sendLiteral(request: u32, code: u32, body: string): void {
  begin(request, code);
  raw(body);
  finish();
}
