// WebSocket binary frames: a 14-byte header (type u8, protocolVersion u16, nonce u32, headerCrc u16
// over bytes 0-6, payloadCrc u16, payloadSize u16, one reserved byte sent as 0) and the payload.
// A frame of exactly 13 + payloadSize bytes (header as the spec's table draws it) is accepted too.
import { crc16 } from "../util/crc16";
import { host_clock_us, host_ws_send, host_ws_broadcast } from "../host/imports";

export const FRAME_HEADER: u32 = 14;
export const PROTOCOL_VERSION: u32 = 1;

export const WS_TOGGLE: u8 = 1;
export const WS_SET_COLOR: u8 = 3;
export const WS_GET_EDGES_LIST: u8 = 4;
export const WS_GET_PANELS_STATES: u8 = 5;
export const WS_PANELS_STATES: u8 = 6;
export const WS_EDGES_LIST: u8 = 7;
export const WS_ANIMATION_TRIGGER: u8 = 8;
export const WS_MIRROR_BATCH: u8 = 9;
export const WS_SET_MIRROR: u8 = 10;
export const WS_PING: u8 = 11;
export const WS_PONG: u8 = 12;
export const WS_APP_STATE: u8 = 13;

/** Payload offset of a valid frame in [ptr, ptr+len), or -1 when it must be dropped. */
export function framePayload(ptr: usize, len: u32): i32 {
  // a frame shorter than its header fails the size test below (the reads stay in the rx buffer)
  if (<u32>load<u16>(ptr, 1) != PROTOCOL_VERSION) return -1;
  if (<u32>load<u16>(ptr, 7) != crc16(ptr, 7)) return -1;
  const size = <u32>load<u16>(ptr, 11);
  const offset = len - size; // the header's 14 or 13 bytes (a size above len wraps round: neither)
  if (offset != FRAME_HEADER && offset != FRAME_HEADER - 1) return -1;
  if (<u32>load<u16>(ptr, 9) != crc16(ptr + offset, size)) return -1;
  return <i32>offset;
}

/** Fills the 14-byte header in front of a payload of `size` bytes at ptr + 14. */
export function writeHeader(ptr: usize, type: u8, size: u32): void {
  writeHeaderCrc(ptr, type, size, crc16(ptr + FRAME_HEADER, size));
}

/** The header of a payload whose CRC is `crc`, for a frame given to the host in pieces (the
 * payload is not behind it in memory). */
export function writeHeaderCrc(ptr: usize, type: u8, size: u32, crc: u32): void {
  store<u8>(ptr, type);
  store<u16>(ptr, <u16>PROTOCOL_VERSION, 1);
  store<u32>(ptr, host_clock_us(), 3);
  store<u16>(ptr, <u16>crc16(ptr, 7), 7);
  store<u16>(ptr, <u16>crc, 9);
  store<u16>(ptr, <u16>size, 11);
  store<u8>(ptr, 0, 13);
}

// Outgoing frames other than mirror batches are built in the memory of the export that sends them
// (rt/arena.ts), sized to the frame: no static buffer for the largest (the edges list, 2,402 B for
// 100 panels), which would sit idle between frames. The host copies a frame before host_ws_send
// returns, so the block goes back at once when it is the last. The mirror snapshot (4,997 B of
// payload for 100 panels) goes to the host in pieces instead (ws/mirror.ts, host_ws_append).

/** Room for the payload of an outgoing frame of at most `cap` bytes; fill it, then sendFrame it. */
export function txPayload(cap: u32): usize {
  return heap.alloc(FRAME_HEADER + cap) + FRAME_HEADER;
}

/** Sends the frame to `conn`, or with `all` to every open connection. */
export function sendFrame(conn: u32, type: u8, size: u32, payload: usize, all: bool = false): void {
  const frame = payload - FRAME_HEADER;
  writeHeader(frame, type, size);
  if (all) host_ws_broadcast(frame, FRAME_HEADER + size);
  else host_ws_send(conn, frame, FRAME_HEADER + size);
  heap.free(frame);
}
