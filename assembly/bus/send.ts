// The controller's one way onto the bus: packets are built in place behind `body()` and sealed
// by `send()`, which also hands every packet of the spec's table to the mirror stream (ws/mirror.ts,
// through mirrorPacketsTo: the bus layer knows nothing of WebSocket).
import { host_bus_send } from "../host/imports";
import { sealPacket, isMirrored, HEADER_SIZE, MAX_PACKET, T_BOOT_ENTER } from "./protocol";
import { streamHolds } from "../stream/live";
import { crc8Table } from "../util/crc8-table";

const packet = memory.data(MAX_PACKET);
// While a panel is flashed only the bootloader's packets go out: playback, queries and the rest wait.
let locked = false;

// ws/mirror.ts's, registered at start-up before any export runs
let mirror: ((ptr: usize, len: u32) => void) | null = null;

/** Every mirrored packet sent from now on also goes to `to` (ws/mirror.ts registers itself). */
export function mirrorPacketsTo(to: (ptr: usize, len: u32) => void): void {
  mirror = to;
}

export function setBusLocked(on: bool): void {
  locked = on;
}

/** Where the payload of the next packet goes. */
export function body(): usize {
  return packet + HEADER_SIZE;
}

/** Writes 0xRRGGBB as r, g, b at `offset` of the payload, and a 0 after them: callers write their
 * colours in order, and the packet ends before that byte otherwise. */
export function putRgb(offset: u32, rgb: u32): void {
  store<u32>(packet + HEADER_SIZE + offset, bswap<u32>(rgb) >> 8);
}

/** Seals and sends the packet behind body(); `len` only for a variable-length type. */
export function send(address: u8, type: u8, len: u32 = 0): void {
  if ((locked && type < T_BOOT_ENTER) || streamHolds(type)) return;
  len = sealPacket(packet, address, type, len, crc8Table);
  host_bus_send(packet, len);
  if (isMirrored(type)) mirror!(packet, len);
}
