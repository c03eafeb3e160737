// Open WebSocket connections and their per-connection mirror flag. Fixed-size, like the device's
// socket pool: a connection beyond MAX_CONNECTIONS is refused. Raw tables read in place: every bus
// packet asks whether anyone mirrors (ws/mirror.ts), one 8-byte load of the states.
import { host_ws_send } from "../host/imports";
import { sendPanelsStates } from "./panels-states";
import { answerWsWith } from "../bus/query";

/** Eight: anyMirroring reads their states as one u64. */
export const MAX_CONNECTIONS: i32 = 8;
const ids = memory.data(MAX_CONNECTIONS * 4, 4); // u32 each
const states = memory.data(MAX_CONNECTIONS, 8); // 0 free, OPEN, or OPEN | MIRROR
/** The PANELS_STATES each connection is owed (bus/query.ts): one for every GET_PANELS_STATES it
 * sent while the query was in flight. u32 each. */
const owed = memory.data(MAX_CONNECTIONS * 4, 4);
const OPEN: u8 = 1;
const MIRRORING: u8 = 3; // OPEN | mirror on (bit 1: anyMirroring)

function stateOf(i: i32): u8 {
  return load<u8>(states + i);
}

function idOf(i: i32): u32 {
  return load<u32>(ids + ((<usize>i) << 2));
}

function setState(i: i32, s: u8): void {
  store<u8>(states + i, s);
}

function find(conn: u32): i32 {
  for (let i = 0; i < MAX_CONNECTIONS; i++) if (stateOf(i) != 0 && idOf(i) == conn) return i;
  return -1;
}

export function openConnection(conn: u32): bool {
  if (find(conn) >= 0) return true;
  for (let i = 0; i < MAX_CONNECTIONS; i++) {
    if (stateOf(i) == 0) {
      store<u32>(ids + ((<usize>i) << 2), conn);
      setState(i, OPEN);
      return true;
    }
  }
  return false;
}

export function closeConnection(conn: u32): void {
  const i = find(conn);
  if (i >= 0) {
    setState(i, 0);
    store<u32>(owed + ((<usize>i) << 2), 0); // nothing owed to a closed connection (its id may come back)
  }
}

export function isOpen(conn: u32): bool {
  return find(conn) >= 0;
}

export function setMirroring(conn: u32, on: bool): void {
  const i = find(conn);
  if (i >= 0) setState(i, on ? MIRRORING : OPEN);
}

/** Whether a slot is MIRRORING: the MAX_CONNECTIONS states at once. */
export function anyMirroring(): bool {
  return (load<u64>(states) & 0x0202020202020202) != 0;
}

/** Sends `len` bytes at `ptr` (a mirror batch) to every mirroring connection. */
export function sendToMirroring(ptr: usize, len: u32): void {
  for (let i = 0; i < MAX_CONNECTIONS; i++) if (stateOf(i) == MIRRORING) host_ws_send(idOf(i), ptr, len);
}

/** Connection `conn` is owed one more PANELS_STATES (ws/commands.ts, before bus/query.ts
 * requestStates). */
export function owe(conn: u32): void {
  const at = owed + ((<usize>find(conn)) << 2); // open: handleFrame checked
  store<u32>(at, load<u32>(at) + 1);
}

/** The live query completed: every connection gets the PANELS_STATES it is owed. */
export function payOwed(): void {
  for (let i = 0; i < MAX_CONNECTIONS; i++) {
    const at = owed + ((<usize>i) << 2);
    for (; load<u32>(at) > 0; store<u32>(at, load<u32>(at) - 1)) sendPanelsStates(idOf(i));
  }
}

answerWsWith(payOwed);
