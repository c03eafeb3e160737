// Flashing the stored panel image over the bus, one panel at a time in discovery order, and the
// status GET /api/firmware/status reports (docs/bus-protocol.md, "Flashing a panel"). One small
// state machine on fixed buffers: the image is read from the store a page at a time, for each page
// sent, and nothing is allocated per packet. Pages go out in a window (go-back-N): up to WINDOW of
// them unacknowledged, so a deep panel's relays carry several at once. Answers only move the
// counters; what they call for is sent by the next tick at least PACE_MS after the last send, so the
// flash keeps to the clock (and a test's manual clock can hold it at any step).
import { wakeUp, WAKE_FIRMWARE } from "../core/wake";
import { send, body, setBusLocked } from "../bus/send";
import { T_BOOT_ENTER, T_BOOT_WRITE, T_BOOT_READ, T_BOOT_LEAVE, T_BOOT_RESTART, ADDR_BROADCAST } from "../bus/protocol";
import { BOOT_PAGE, BOOT_WRITE_HEAD, BOOT_OK } from "../bus/protocol";
import { rediscover } from "../bus/discovery";
import { tree } from "../topology/tree";
import { crc16 } from "../util/crc16";
import { readImage } from "./image";
import { stopPlayback } from "../playback/player";
import * as w from "../json/writer";
import { rx } from "../core/rx";
import { names, nameString } from "../util/names";
import { piece } from "../json/reader";

export const F_IDLE = 0;
export const F_CONNECTING = 1;
export const F_FLASHING = 2;
export const F_VERIFYING = 3;
export const F_DONE = 4;
export const F_ERROR = 5;

/** The states' names in the status, by state (a name list: util/names.ts). */
const STATE_NAMES = names("idle connecting flashing verifying done error");

/** The status's name of a state. */
export function stateName(s: i32): string {
  return nameString(STATE_NAMES, s);
}

/** Sends of one packet (or window) without progress before the flash ends in error. */
const TRIES = 3;
const WINDOW: u32 = 16;
const PACE_MS: u32 = 10;
/** The answer timeout: a base plus a margin per relaying hop (115,200 baud: ~13 ms a hop for a page). */
const TIMEOUT_BASE_MS: u32 = 150;
const TIMEOUT_HOP_MS: u32 = 30;
/** After the last panel: the time the panels take to restart before discovery runs again. */
const RESTART_MS: u32 = 300;

// Why a flash failed (with the panel, the step and the page).
const X_SILENT = 1; // no answer
const X_REFUSED = 2; // NAKed (a write), or refused (enter, leave)
const X_DIFFERS = 3; // read back differs
const X_STORE = 4; // the stored image could not be read
const X_GONE = 5; // rediscovery found fewer panels

export let state = 0; // F_IDLE (a literal is the global's own initial value, not start-up code)
if (F_IDLE != 0) ERROR("firmware/flash.ts: state's initial value");
export let panel: i32 = 0;
export let total: i32 = 0;
let pages: u32 = 0;
// A panel is flashed in four steps, one table: ENTER, WRITE every page, READ every page back, LEAVE.
// Each step sends `units` packets (its pages, or one) through the same window and counts the answers
// the same way: base is the oldest unanswered unit, next the next to send (go-back-N).
const S_ENTER = 0;
const S_WRITE = 1;
const S_READ = 2;
const S_LEAVE = 3;
/** Each step's packet type, and the state the status shows meanwhile. */
const STEP_OP = memory.data<u8>([T_BOOT_ENTER, T_BOOT_WRITE, T_BOOT_READ, T_BOOT_LEAVE]);
const STEP_STATE = memory.data<u8>([<u8>F_CONNECTING, <u8>F_FLASHING, <u8>F_VERIFYING, <u8>F_VERIFYING]);
let step = S_ENTER;
let base: u32 = 0; // the oldest unacknowledged unit
let next: u32 = 0; // the next unit to send
let tries = 0;
let due = false; // the next step is to be sent (at the next tick)
let restarting = false;
export let errorKind = 0;
export let errorPage: i32 = -1;

/** The flash's fields read a few times each, in static memory (a wasm global costs WAMR about 52 B of
 * heap): the image's size in bytes (header included), when the last step was sent, the answer
 * timeout of the current panel, when the restart began, the step that failed. */
@unmanaged
class Run {
  size: u32;
  sentAt: u32;
  timeout: u32;
  restartAt: u32;
  errorStep: u8;
}
const run = changetype<Run>(memory.data(offsetof<Run>(), 4));

const page = rx + 512; // scratch past the BOOT_ACK being handled (core/rx.ts)

/** Connecting, flashing or verifying: a new upload is refused (409). */
export function flashBusy(): bool {
  return state >= F_CONNECTING && state <= F_VERIFYING;
}

/** 0-100: how far the current panel is (pages written, then pages verified). */
export function progress(): i32 {
  if (state == F_DONE) return 100;
  if (pages == 0 || state < F_FLASHING || state > F_VERIFYING) return 0;
  return <i32>((((<u32>step - 1) * pages + base) * 100) / (2 * pages));
}

/** Nothing to do on a tick: no flash running and no restart awaited (core/wake.ts). */
export function flashIdle(): bool {
  return !flashBusy() && !restarting;
}

/** Starts flashing the stored image of `bytes` bytes to every discovered panel. */
export function flashStart(bytes: u32, now: u32): void {
  wakeUp(WAKE_FIRMWARE);
  stopPlayback();
  run.size = bytes;
  pages = (bytes + BOOT_PAGE - 1) / BOOT_PAGE;
  total = tree.count;
  errorKind = 0;
  errorPage = -1;
  panel = 0;
  restarting = false;
  if (total == 0) {
    state = F_DONE;
    return;
  }
  setBusLocked(true);
  run.sentAt = now;
  begin(S_LEAVE + 1, now);
}

/** Starts step `s` of the current panel, sent at the next tick; past LEAVE, the next panel's ENTER,
 * and past the last panel the restart. */
function begin(s: i32, now: u32): void {
  if (s > S_LEAVE) {
    s = S_ENTER;
    panel++;
    if (panel > total) {
      // Every panel holds the new image: they restart into it, and discovery finds them again.
      state = F_DONE;
      panel = total;
      setBusLocked(false);
      send(ADDR_BROADCAST, T_BOOT_RESTART);
      restarting = true;
      run.restartAt = now;
      return;
    }
    let depth: u32 = 0;
    for (let p = panel; p > 0; p = <i32>tree.parent[p]) depth++;
    run.timeout = TIMEOUT_BASE_MS + TIMEOUT_HOP_MS * depth;
  }
  step = s;
  state = load<u8>(STEP_STATE + s);
  base = next = 0;
  tries = 0;
  due = true;
}

/** The step's units are pages (WRITE, READ), not its one packet (ENTER, LEAVE). */
function paged(): bool {
  return <u32>(step - S_WRITE) < 2;
}

/** Sends units [next, base + WINDOW) of the current step. */
function sendStep(now: u32): void {
  run.sentAt = now;
  const units = paged() ? pages : 1;
  while (next < units && next < base + WINDOW) {
    const off = next * BOOT_PAGE;
    const want = min(BOOT_PAGE, run.size - off);
    const b = body();
    let len: u32 = 0;
    store<u16>(b, <u16>next);
    store<u8>(b, <u8>want, 2); // READ's length (WRITE's CRC overwrites it)
    if (step == S_ENTER) store<u32>(b, run.size);
    else if (step == S_WRITE) {
      const n = readImage(off, b + 4, want);
      if (n != <i32>want) {
        fail(X_STORE, <i32>next);
        return;
      }
      store<u16>(b, <u16>crc16(b + 4, want), 2);
      len = BOOT_WRITE_HEAD + want;
    }
    send(<u8>panel, load<u8>(STEP_OP + step), len);
    next++;
  }
}

function fail(kind: i32, p: i32): void {
  errorKind = kind;
  run.errorStep = <u8>state;
  errorPage = p;
  state = F_ERROR;
  setBusLocked(false);
}

/** A BOOT_ACK from panel `from`: `op` the type answered, then page (0 for ENTER and LEAVE), status
 * and the read-back CRC. */
export function onBootAck(from: i32, op: u32, p: u32, status: u32, crc: u32, now: u32): void {
  // another panel's, another step's, stale, or after a gap
  if (from != panel || !flashBusy() || op != load<u8>(STEP_OP + step) || p != base) return;
  let good = status == BOOT_OK;
  if (good && step == S_READ) {
    const off = p * BOOT_PAGE;
    const want = min(BOOT_PAGE, run.size - off);
    if (readImage(off, page, want) != <i32>want) return fail(X_STORE, <i32>p);
    good = crc16(page, want) == crc;
  }
  if (!good) {
    // Go back to this page; give up after TRIES (ENTER and LEAVE at once: refused).
    if (++tries >= TRIES || !paged()) return fail(status != BOOT_OK ? X_REFUSED : X_DIFFERS, paged() ? <i32>p : -1);
    next = base;
  } else {
    base++;
    tries = 0;
    if (base == (paged() ? pages : 1)) return begin(step + 1, now);
  }
  due = true;
}

/** Timers: an unanswered step is sent again, TRIES times in all; after the flash, the rediscovery. */
export function flashTick(now: u32): void {
  if (restarting) {
    if (now - run.restartAt < RESTART_MS) return;
    restarting = false;
    rediscover(now);
    return;
  }
  if (!flashBusy()) return;
  if (due) {
    if (now - run.sentAt < PACE_MS) return;
    due = false;
    sendStep(now);
    return;
  }
  if (now - run.sentAt < run.timeout) return;
  if (++tries >= TRIES) return fail(X_SILENT, paged() ? <i32>base : -1);
  next = base;
  sendStep(now);
}

/** After the rediscovery that follows a flash: a panel that did not come back is an error (of the
 * step F_DONE; the bus, unlocked when the flash was done, stays so). */
export function flashRediscovered(): void {
  if (state == F_DONE && tree.count < total) {
    panel = tree.count + 1;
    fail(X_GONE, -1);
  }
}

/** Writes the error field: the panel, what failed, and the step. */
export function writeError(): void {
  w.raw(',"error":"panel ');
  w.int(panel);
  w.raw(": ");
  if (errorPage >= 0) {
    w.raw("page ");
    w.int(errorPage);
    w.byte(0x20);
  }
  // what failed (X_*)
  const k = <u32>(errorKind - X_SILENT);
  w.raw(piece(failures(), min(k, X_GONE - X_SILENT)));
  w.raw(" (");
  w.strBody(stateName(run.errorStep));
  w.raw(')"');
}

/** What failed, by X_* from X_SILENT, as one text (json/reader.ts piece). @message-returns: it goes
 * to the UTF-8 message table (scripts/messages-transform.mjs). */
function failures(): string {
  return "no answer|refused|differs on read-back|image unreadable|lost at restart";
}
