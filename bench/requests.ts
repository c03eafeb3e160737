// The requests the bench measures, shared by the in-core loop, the HTTP/WS load and the bare
// servers so that every figure is about the same bytes.
import { frame, T } from "../tests/helpers/frames.js";

export interface HttpCase {
  name: string;
  method: "GET" | "PATCH";
  path: string;
  /** Bodies sent in turn; PATCH alternates two values so every request really changes state. */
  bodies: Buffer[];
  expectedStatus: number;
}

export const GET_STATE: HttpCase = {
  name: "GET /api/state",
  method: "GET",
  path: "/api/state",
  bodies: [Buffer.alloc(0)],
  expectedStatus: 200,
};

export const PATCH_APPEARANCE: HttpCase = {
  name: "PATCH /api/appearance",
  method: "PATCH",
  path: "/api/appearance",
  bodies: [Buffer.from('{"brightness":100}'), Buffer.from('{"brightness":101}')],
  expectedStatus: 202,
};

/** Not timed: polled until discovery has listed every panel. */
export const GET_EDGES: HttpCase = {
  name: "GET /api/panels/edges",
  method: "GET",
  path: "/api/panels/edges",
  bodies: [Buffer.alloc(0)],
  expectedStatus: 200,
};

/** SET_COLOR to panel 1 (#FF8000): no reply, a bus packet per frame. */
export const SET_COLOR_FRAME = frame(T.SET_COLOR, [1, 0xff, 0x80, 0x00]);
export const PING_FRAME = frame(T.PING);
