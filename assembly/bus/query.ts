// Live panel state: GET /api/panels and GET_PANELS_STATES ask every panel (one broadcast QUERY)
// and answer once all have replied or QUERY_TIMEOUT_MS has passed; panels that stay silent are
// left out. Requests arriving meanwhile join the query in flight.
import { send } from "./send";
import { T_QUERY, ADDR_BROADCAST } from "./protocol";
import { tree, MAX_PANELS } from "../topology/tree";
import { MAX_CONNECTIONS } from "../ws/connections";
import { wakeUp, wakeDone, WAKE_QUERY } from "../core/wake";
import { Fixed } from "../rt/fixed";
import { sendPanelsStates } from "../ws/commands";
import { writePanels } from "../api/panels";

export const QUERY_TIMEOUT_MS: u32 = 50;
/** HTTP requests that may wait at once (more answer 503); WebSocket connections come on top. */
export const MAX_WAITERS: i32 = 8;
const WAITER_SLOTS = MAX_WAITERS + MAX_CONNECTIONS;

export const replied = changetype<Fixed<bool>>(memory.data(MAX_PANELS + 1));
export const replyOn = changetype<Fixed<bool>>(memory.data(MAX_PANELS + 1));
export const replyColor = changetype<Fixed<u32>>(memory.data(4 * (MAX_PANELS + 1), 4));

// Waiters: an HTTP request id, or a WebSocket connection id with the number of replies it is owed
// (every GET_PANELS_STATES gets its PANELS_STATES, however many a connection sends meanwhile).
const waiterId = changetype<Fixed<u32>>(memory.data(4 * WAITER_SLOTS, 4));
const waiterIsWs = changetype<Fixed<bool>>(memory.data(WAITER_SLOTS));
const waiterCount = changetype<Fixed<u32>>(memory.data(4 * WAITER_SLOTS, 4));
let waiters = 0;
let httpWaiters = 0;
let active = false;
/** When the query went out (static memory: a wasm global costs WAMR about 52 B of heap). */
const startedAt = changetype<Fixed<u32>>(memory.data(4, 4));
let answered = 0;

/** Adds a waiter and starts a query if none is in flight; false when too many are waiting. */
export function requestStates(id: u32, isWs: bool, now: u32): bool {
  let k = 0;
  while (k < waiters && !(isWs && waiterIsWs[k] && waiterId[k] == id)) k++;
  if (k < waiters) waiterCount[k]++;
  else {
    if (isWs ? waiters - httpWaiters >= MAX_CONNECTIONS : httpWaiters >= MAX_WAITERS) return false;
    waiterId[k] = id;
    waiterIsWs[k] = isWs;
    waiterCount[k] = 1;
    waiters++;
    if (!isWs) httpWaiters++;
  }
  if (!active) {
    active = true;
    wakeUp(WAKE_QUERY);
    startedAt[0] = now;
    answered = 0;
    memory.fill(changetype<usize>(replied), 0, MAX_PANELS + 1);
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
  if (active && now - startedAt[0] >= QUERY_TIMEOUT_MS) complete();
}

function complete(): void {
  active = false;
  wakeDone(WAKE_QUERY);
  const n = waiters;
  waiters = 0;
  httpWaiters = 0;
  // each waiter its answer: PANELS_STATES to a connection, the JSON list to a GET /api/panels
  for (let i = 0; i < n; i++)
    for (let r: u32 = 0; r < waiterCount[i]; r++) {
      if (waiterIsWs[i]) sendPanelsStates(waiterId[i]);
      else writePanels(waiterId[i]);
    }
}
