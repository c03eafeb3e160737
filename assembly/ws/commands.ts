// WebSocket commands (client → controller) and the frames the controller sends back. Commands are
// applied at once, not queued: WebSocket is the real-time path. Invalid frames, unknown types,
// wrong payload sizes and addresses that are not panels are dropped silently, as the spec says.
import {
  framePayload,
  txPayload,
  sendFrame,
  WS_TOGGLE,
  WS_SET_COLOR,
  WS_GET_EDGES_LIST,
  WS_GET_PANELS_STATES,
  WS_ANIMATION_TRIGGER,
  WS_SET_MIRROR,
  WS_PING,
  WS_PONG,
  WS_EDGES_LIST,
  WS_APP_STATE,
} from "./frame";
import { isOpen, setMirroring, owe } from "./connections";
import { sendSnapshot } from "./mirror";
import { live } from "../stream/live";
import { sendPower, sendColor, sendAnimControl } from "../bus/commands";
import { requestStates } from "../bus/query";
import { tree } from "../topology/tree";
import { app, takeChanged } from "../state/app";

/** Expected payload size by command type, -1 for a type a client may not send: TOGGLE 2,
 * SET_COLOR 4, GET_EDGES_LIST 0, GET_PANELS_STATES 0, ANIMATION_TRIGGER 2, SET_MIRROR 1, PING 0. */
// prettier-ignore
const COMMAND_SIZE = memory.data<i8>([-1, 2, -1, 4, 0, 0, -1, -1, 2, -1, 1, 0]);
const COMMAND_TYPES: u8 = 12;

function commandSize(type: u8): i32 {
  return type < COMMAND_TYPES ? <i32>load<i8>(COMMAND_SIZE + <usize>type) : -1;
}

export function handleFrame(conn: u32, ptr: usize, len: u32, now: u32): void {
  if (!isOpen(conn)) return;
  const offset = framePayload(ptr, len);
  if (offset < 0) return;
  const type = load<u8>(ptr);
  const size = <i32>load<u16>(ptr, 11);
  if (commandSize(type) != size) return;
  const p = ptr + <usize>offset;
  switch (type) {
    case WS_TOGGLE: {
      const address = <i32>load<u8>(p);
      if (tree.exists(address)) sendPower(<u8>address, load<u8>(p, 1) != 0);
      break;
    }
    case WS_SET_COLOR: {
      const address = <i32>load<u8>(p);
      const rgb = bswap<u32>(load<u32>(p)) & 0xffffff; // r, g, b after the address
      if (tree.exists(address)) sendColor(<u8>address, rgb);
      break;
    }
    case WS_GET_EDGES_LIST:
      sendEdgesList(conn);
      break;
    case WS_GET_PANELS_STATES:
      owe(conn);
      requestStates(conn, true, now);
      break;
    case WS_ANIMATION_TRIGGER: {
      const group = load<u8>(p);
      if (group >= 1 && group <= 254) sendAnimControl(group, load<u8>(p, 1));
      break;
    }
    case WS_SET_MIRROR: {
      const on = load<u8>(p) == 1;
      setMirroring(conn, on);
      if (on) sendSnapshot(conn, now);
      break;
    }
    case WS_PING:
      sendFrame(conn, WS_PONG, 0, txPayload(0));
      break;
  }
}

/** EDGES_LIST: count u16, then per panel and slot 0-2: panel, slot, connected panel, connected slot (u16 each). */
export function sendEdgesList(conn: u32): void {
  const n = tree.count * 3;
  const out = txPayload(2 + <u32>n * 8);
  store<u16>(out, <u16>n);
  let p = out + 2;
  // edge k: panel k / 3, slot k % 3 (the link tables' own index)
  for (let k = 3; k < n + 3; k++) {
    store<u16>(p, <u16>(k / 3));
    store<u16>(p, <u16>(k % 3), 2);
    store<u16>(p, <u16>tree.linkPanel[k], 4);
    store<u16>(p, <u16>tree.linkEdge[k], 6);
    p += 8;
  }
  sendFrame(conn, WS_EDGES_LIST, 2 + <u32>n * 8, out);
}

/** The 51-byte APP_STATE payload, in a frame of its own. */
function writeAppState(): usize {
  const out = txPayload(51);
  memory.fill(out, 0, 51);
  store<u8>(out, app.isOn ? 1 : 0);
  store<u8>(out, app.lastPlayedSceneIsStored ? 1 : 0, 1);
  store<u8>(out, app.playing ? 1 : 0, 2);
  store<u8>(out, live.protocol, 3); // the live stream's protocol (0 none, 1 DDP, 2 E1.31)
  store<f32>(out, <f32>app.speed, 4);
  writeAscii(out + 8, app.lastPlayedSceneId, 10);
  writeAscii(out + 19, app.controllerFirmware, 31);
  return out;
}

/** Copies at most `max` characters (ids and versions are ASCII); the rest stays 0. */
function writeAscii(p: usize, s: string, max: i32): void {
  const n = min(s.length, max);
  for (let i = 0; i < n; i++) store<u8>(p + <usize>i, <u8>s.charCodeAt(i));
}

/** APP_STATE to `conn`, or with `all` to every connection. */
export function sendAppState(conn: u32, all: bool = false): void {
  sendFrame(conn, WS_APP_STATE, 51, writeAppState(), all);
}

export function broadcastAppStateIfChanged(): void {
  if (takeChanged()) sendAppState(0, true);
}
