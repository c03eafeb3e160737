// The PANELS_STATES frame: the answer a WebSocket connection is owed for a GET_PANELS_STATES once
// the live query (bus/query.ts) is complete (ws/connections.ts payOwed, only to open connections).
import { txPayload, sendFrame, WS_PANELS_STATES } from "./frame";
import { replies, REPLIED } from "../bus/query";
import { tree } from "../topology/tree";

/** PANELS_STATES for the live query just completed: the panels that replied, in index order. */
export function sendPanelsStates(conn: u32): void {
  const out = txPayload(2 + <u32>tree.count * 7);
  let p = out + 2;
  let n = 0;
  for (let i = 1; i <= tree.count; i++) {
    const state = replies[i];
    if (state == 0) continue;
    store<u16>(p, <u16>i);
    store<u32>(p, bswap<u32>(state ^ REPLIED), 2); // on, r, g, b
    store<u8>(p, 0, 6);
    p += 7;
    n++;
  }
  store<u16>(out, <u16>n);
  sendFrame(conn, WS_PANELS_STATES, 2 + <u32>n * 7, out);
}
