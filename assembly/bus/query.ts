// Live panel state: GET /api/panels and GET_PANELS_STATES ask every panel (one broadcast QUERY)
// and answer once all have replied or QUERY_TIMEOUT_MS has passed; panels that stay silent are
// left out. Requests arriving meanwhile join the query in flight. The answers are written by the
// layers above, which register their writers: api/panels.ts the HTTP one, ws/connections.ts the
// WebSocket one.
import { send } from "./send";
import { T_QUERY, ADDR_BROADCAST } from "./protocol";
import { tree, MAX_PANELS } from "../topology/tree";
import { wakeUp, wakeDone, WAKE_QUERY } from "../core/wake";
import { Fixed } from "../rt/fixed";

export const QUERY_TIMEOUT_MS: u32 = 50;
/** HTTP requests that may wait at once (more answer 503); WebSocket connections come on top. */
export const MAX_WAITERS: i32 = 8;

/** Per panel, its answer to the query in flight: 0 none yet, else REPLIED | on << 24 | 0xRRGGBB. */
export const replies = changetype<Fixed<u32>>(memory.data(4 * (MAX_PANELS + 1), 4));
export const REPLIED: u32 = 1 << 25;

// Waiters: the HTTP requests' ids, in order; a WebSocket connection is owed a PANELS_STATES for every
// GET_PANELS_STATES it sent meanwhile, counted with the connection (ws/connections.ts owe, before it
// asks).
const httpIds = changetype<Fixed<u32>>(memory.data(4 * MAX_WAITERS, 4));
let httpWaiters = 0;
let active = false;
/** When the query went out (static memory: a wasm global costs WAMR about 52 B of heap). */
const startedAt = changetype<Fixed<u32>>(memory.data(4, 4));
let answered = 0;

// registered at start-up, before any export runs
let answerHttp: ((req: u32) => void) | null = null;
let answerWs: (() => void) | null = null;

/** When a query completes, `http` answers each HTTP waiter (its request id)... */
export function answerHttpWith(http: (req: u32) => void): void {
  answerHttp = http;
}

/** ...then `ws` every connection owed a PANELS_STATES. */
export function answerWsWith(ws: () => void): void {
  answerWs = ws;
}

/** Adds a waiter (HTTP request `id`, or a WebSocket connection that counted what it is owed) and
 * starts a query if none is in flight; false when too many are waiting. */
export function requestStates(id: u32, isWs: bool, now: u32): bool {
  if (!isWs) {
    if (httpWaiters >= MAX_WAITERS) return false;
    httpIds[httpWaiters++] = id;
  }
  if (!active) {
    active = true;
    wakeUp(WAKE_QUERY);
    startedAt[0] = now;
    answered = 0;
    memory.fill(changetype<usize>(replies), 0, 4 * (MAX_PANELS + 1));
    send(ADDR_BROADCAST, T_QUERY);
  }
  if (answered >= tree.count) complete();
  return true;
}

/** A STATE from `index`: `state` is REPLIED | on << 24 | 0xRRGGBB. */
export function onState(index: i32, state: u32): void {
  if (!active || !tree.exists(index) || replies[index] != 0) return;
  replies[index] = state;
  answered++;
  if (answered >= tree.count) complete();
}

export function queryTick(now: u32): void {
  if (active && now - startedAt[0] >= QUERY_TIMEOUT_MS) complete();
}

function complete(): void {
  active = false;
  wakeDone(WAKE_QUERY);
  // each waiter its answer: the JSON list to a GET /api/panels, PANELS_STATES to a connection
  const n = httpWaiters;
  httpWaiters = 0;
  for (let i = 0; i < n; i++) answerHttp!(httpIds[i]);
  answerWs!();
}
