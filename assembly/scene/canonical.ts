// The canonical form of a scene, as stored: written by the scene pass (scene/validate.ts) while it
// reads the document, member by member in the document's own order, without white space; strings
// escaped as JSON.stringify does (\" \\ and control characters, the rest as UTF-8), numbers as
// written, the legacy forms rewritten and an out-of-range speed clamped. The bytes go out through
// a small buffer, appended to a staging key (host_store_append) when the pass stores the scene, or
// nowhere when it only validates: no copy of the document is ever whole in memory.
import { host_store_append, host_store_delete } from "../host/imports";
import { text, textLength, numberText, numberLength, echoed, setEcho } from "../json/stream";
import { names, nameEntry } from "../util/names";

const CAP: u32 = 256;
const buf = memory.data(CAP);
let used: u32 = 0;
let on = false;
let sink: usize = 0;
let sinkLength: u32 = 0;
/** The first failed append's status (0: none). */
export let status = 0;

/** Writes to staging key [k, k+n) (deleted first: a previous run may have left it), or with k 0
 * nowhere (the pass only validates). */
export function begin(k: usize, n: u32): void {
  sink = k;
  sinkLength = n;
  on = k != 0;
  used = 0;
  status = 0;
  setEcho(on, bytes);
  if (on) host_store_delete(k, n);
}

/** Bytes as they are (a scalar's source, json/stream.ts echo). */
export function bytes(p: usize, n: u32): void {
  if (on && used + n <= CAP) {
    memory.copy(buf + used, p, n);
    used += n;
    return;
  }
  for (let i: u32 = 0; i < n; i++) byte(<u32>load<u8>(p + i));
}

/** Stops writing (after a refusal: what follows is not kept). */
export function stop(): void {
  on = false;
  setEcho(false, bytes);
}

export function flush(): void {
  if (on && used > 0 && status == 0) {
    const rc = host_store_append(sink, sinkLength, buf, used);
    if (rc < 0) status = rc;
  }
  used = 0;
}

export function byte(c: u32): void {
  if (!on) return;
  if (used == CAP) flush();
  store<u8>(buf + used++, <u8>c);
}

/** The texts the canonical form writes of its own (a name list, util/names.ts). */
const FRAGMENTS = names(',"directionality":"geometric" "source":"root" "source": "source":"panel: 0.1 10');
export const F_DIRECTIONALITY = 0;
export const F_SOURCE_ROOT = 1;
export const F_SOURCE = 2;
export const F_SOURCE_PANEL = 3;
export const F_TENTH = 4;
export const F_TEN = 5;

/** Fixed text `i` (F_*). */
export function fragment(i: i32): void {
  const e = nameEntry(FRAGMENTS, i);
  bytes(e + 1, load<u8>(e));
}

/** `"<key>":`, after a comma unless it is its object's first member: the key json/stream.ts member()
 * has just read (a known key: its bytes are its text); with `keyless`, only the comma (the member
 * writes its own key: a legacy form rewritten). */
export function field(first: bool, keyless: bool): void {
  if (!on) return;
  if (!first) byte(0x2c);
  if (keyless) return;
  byte(0x22);
  bytes(text, textLength);
  byte(0x22);
  byte(0x3a);
}

/** The string just read (json/stream.ts), a rewritten value (the echo paused): one the pass has
 * validated (`source`: ASCII letters, digits and ':'), so it needs no escapes. */
export function str(): void {
  byte(0x22);
  bytes(text, textLength);
  byte(0x22);
}

/** The number just read, as written (json/stream.ts refuses one of more than 64 characters). */
export function number(): void {
  if (!echoed) bytes(numberText, numberLength);
}

/** Flushes the rest; 0, or the failed append's status. */
export function end(): i32 {
  flush();
  on = false;
  setEcho(false, bytes);
  return status;
}
