// Live panel state: GET /api/panels and GET_PANELS_STATES ask every panel (one broadcast QUERY)
// and answer once all have replied or QUERY_TIMEOUT_MS has passed; panels that stay silent are
// left out. Requests arriving meanwhile join the query in flight.
import { send } from "./send";
import { T_QUERY, ADDR_BROADCAST } from "./protocol";
import { tree, MAX_PANELS } from "../topology/tree";

export const QUERY_TIMEOUT_MS: u32 = 50;
export const MAX_WAITERS: i32 = 8;

export const replied = new StaticArray<bool>(MAX_PANELS + 1);
export const replyOn = new StaticArray<bool>(MAX_PANELS + 1);
export const replyColor = new StaticArray<u32>(MAX_PANELS + 1);

// Waiters: an HTTP request id, or a WebSocket connection id.
const waiterId = new StaticArray<u32>(MAX_WAITERS);
const waiterIsWs = new StaticArray<bool>(MAX_WAITERS);
let waiters = 0;
let active = false;
let startedAt: u32 = 0;
let answered = 0;
let onComplete: (id: u32, isWs: bool) => void = (id: u32, isWs: bool) => {};

export function setQueryHandler(handler: (id: u32, isWs: bool) => void): void {
  onComplete = handler;
}

/** Adds a waiter and starts a query if none is in flight; false when too many are waiting. */
export function requestStates(id: u32, isWs: bool, now: u32): bool {
  if (waiters == MAX_WAITERS) return false;
  waiterId[waiters] = id;
  waiterIsWs[waiters] = isWs;
  waiters++;
  if (!active) {
    active = true;
    startedAt = now;
    answered = 0;
    for (let i = 0; i <= MAX_PANELS; i++) replied[i] = false;
    send(ADDR_BROADCAST, T_QUERY);
  }
  if (answered >= tree.count) complete();
  return true;
}

export function onState(index: i32, on: bool, rgb: u32): void {
  if (!active || !tree.exists(index) || replied[index]) return;
  replied[index] = true;
  replyOn[index] = on;
  replyColor[index] = rgb;
  answered++;
  if (answered >= tree.count) complete();
}

export function queryTick(now: u32): void {
  if (active && now - startedAt >= QUERY_TIMEOUT_MS) complete();
}

function complete(): void {
  active = false;
  const n = waiters;
  waiters = 0;
  for (let i = 0; i < n; i++) onComplete(waiterId[i], waiterIsWs[i]);
}
