// Diagnostics to the host's log. Levels: 0 error, 1 warning, 2 info, 3 debug.
import { host_log, host_panic } from "../host/imports";
import { utf8Bytes } from "./utf8";
import { intText } from "./int-text";

export const LOG_ERROR: u32 = 0;
export const LOG_WARN: u32 = 1;
export const LOG_INFO: u32 = 2;

/** @message-args: its literal texts go to the UTF-8 message table (scripts/messages-transform.mjs). */
export function log(level: u32, message: string): void {
  const bytes = utf8Bytes(message);
  host_log(level, changetype<usize>(bytes), <u32>bytes.byteLength);
}

/** Replaces AssemblyScript's `env.abort` (asc --use abort=...), so the core imports no `env` names
 * that would clash with WAMR's libc builtins. The host logs the message and restarts the core. */
export function coreAbort(message: string | null, file: string | null, line: u32, column: u32): void {
  panic(
    "abort: " + (message ? message : "") + " at " + (file ? file : "?") + ":" + intText(line) + ":" + intText(column),
  );
}

/** Hands `text` to the host, which restarts the core. @message-args: its literal texts go to the
 * UTF-8 message table (scripts/messages-transform.mjs). */
function panic(text: string): void {
  const bytes = utf8Bytes(text);
  host_panic(changetype<usize>(bytes), <u32>bytes.byteLength);
  unreachable();
}
