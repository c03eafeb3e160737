// The panel bus protocol, shared by the controller and the panel firmware. docs/bus-protocol.md
// is the prose version of this file: keep them together.
//
// Header (5 bytes): address, type, total length, protocol version, CRC-8 over every other byte.
// Downstream, address 0 is broadcast, 1-254 a panel index, 255 the neighbour on this link (used
// while it has no address yet). Upstream, the address is the sending panel's index.
import { crc8Update } from "../util/crc8";

export const BUS_VERSION: u8 = 6;
export const HEADER_SIZE: u32 = 5;
export const MAX_PACKET: u32 = 255; // the length byte's limit (a pulse table can fill it)

export const ADDR_BROADCAST: u8 = 0;
export const ADDR_LINK: u8 = 255;

// Discovery and queries (not mirrored).
export const T_RESET: u8 = 1; // broadcast: forget address, stop everything, go dark
export const T_ASSIGN: u8 = 2; // link-local: newAddr u8, parentEdge u8
export const T_HELLO: u8 = 3; // upstream: inEdge u8, firmware u16
export const T_PROBE: u8 = 6; // unicast: edge u8, newAddr u8
export const T_EMPTY: u8 = 7; // upstream: edge u8
export const T_QUERY: u8 = 8; // broadcast or unicast: report state
export const T_STATE: u8 = 9; // upstream: on u8, r u8, g u8, b u8

// The ten packet types of the interface spec's table (mirrored to WebSocket clients).
export const T_POWER: u8 = 4; // on u8
export const T_COLOR: u8 = 5; // r, g, b
export const T_ANIM_PREPARE: u8 = 12; // 20-byte animation record, see docs/bus-protocol.md
export const T_ANIM_START: u8 = 13; // group u8 (0 all), mode u8 (1 start, 0 stop and clear)
export const T_ANIM_CONTROL: u8 = 14; // group u8, value u8: the reactive trigger
export const T_ANIM_PARAMS: u8 = 16; // group u8, timeScale u16 (per mille), p0 u8, p1 u8
export const T_PALETTE: u8 = 17; // slot << 4 | (count - 1), 16 x (position, r, g, b)
export const T_BASE_COLORS: u8 = 18; // 3 x (r, g, b)
export const T_BRIGHTNESS: u8 = 19; // brightness u8
export const T_BACKGROUND: u8 = 20; // r, g, b

// Internal, beyond the spec's ten (mirrored too: docs/decisions.md). Variable length.
export const T_PULSE_TABLE: u8 = 21; // group u8, first u8, mask u16, entries (docs/bus-protocol.md)
export const TABLE_HEAD: u32 = 9; // header + group, first, mask
export const TABLE_OPEN: u16 = 0x8000; // mask bit 15: the first packet of a table
export const TABLE_WORDS: u16 = 0x03fe; // record words 1-9 may be carried (word 0 is group, layer)
export const TABLE_USES_SHIFT: u32 = 12; // mask bits 12-14: the broadcast prepares it serves, minus 1
export const TABLE_SKIP: u16 = 0xffff; // an entry whose first word is this: not included

// The bootloader exchange (docs/bus-protocol.md, "Flashing a panel"): mirrored too. Downstream
// unicast but RESTART (broadcast); BOOT_ACK is the panel's one answer.
export const T_BOOT_ENTER: u8 = 22; // length u32: the whole image (header included)
export const T_BOOT_WRITE: u8 = 23; // page u16, crc u16 (CRC-16 of the data), data 1-128 B. Variable length
export const T_BOOT_READ: u8 = 24; // page u16, length u8: answered with the CRC-16 of the page as read back
export const T_BOOT_ACK: u8 = 25; // upstream: op u8 (the type answered), page u16, status u8, crc u16
export const T_BOOT_LEAVE: u8 = 26; // commit the written image as the one to boot
export const T_BOOT_RESTART: u8 = 27; // broadcast: every panel restarts, into its committed image
export const BOOT_PAGE: u32 = 128; // bytes of image a BOOT_WRITE carries (the last page may be shorter)
export const BOOT_WRITE_HEAD: u32 = 9; // header + page, crc

// A live stream's frame (docs/bus-protocol.md, "Colours"): mirrored too. Broadcast, variable length.
export const T_COLORS: u8 = 28; // first u8, then r, g, b for panels first, first + 1, ...
export const COLORS_HEAD: u32 = 6; // header + first
// BOOT_ACK status
export const BOOT_OK: u8 = 0;
export const BOOT_BAD_CRC: u8 = 1; // the page's CRC-16 did not match its data
export const BOOT_FAILED: u8 = 2; // the flash refused the erase, write or read
export const BOOT_REFUSED: u8 = 3; // LEAVE: the written image is not bootable (header or CRC-32)

// Total packet size by type (0: unknown; VARIABLE | the least size for a variable-length type: the
// pulse table, BOOT_WRITE), read in place: one load a packet.
const VARIABLE: u32 = 0x80;
const SIZES = memory.data<u8>([
  0, 5, 7, 8, 6, 8, 7, 6, 5, 9, 0, 0, 25, 7, 7, 0, 10, 70, 14, 6, 8, 0x8a, 9, 0x8a, 8, 11, 5, 5, 0x89,
]);
const TYPES_KNOWN: u8 = 29;
if (TABLE_HEAD + 1 != 10 || BOOT_WRITE_HEAD + 1 != 10 || COLORS_HEAD + 3 != 9)
  ERROR("bus/protocol.ts: SIZES' least sizes");

/** Total packet size for a fixed-length type (VARIABLE | its least size for a variable-length one),
 * or 0 when the type is unknown. */
export function packetSize(type: u8): u32 {
  return type < TYPES_KNOWN ? <u32>load<u8>(SIZES + type) : 0;
}

// a bit a type: POWER, COLOR, ANIM_PREPARE-ANIM_CONTROL, ANIM_PARAMS-BOOT_RESTART (PULSE_TABLE among them), COLORS
const MIRRORED: u32 =
  (1 << T_POWER) | (1 << T_COLOR) | (7 << T_ANIM_PREPARE) | (0xfff << T_ANIM_PARAMS) | (1 << T_COLORS);

/** True for the ten types of the spec, the pulse table, the bootloader's and COLORS: what the mirror stream carries. */
export function isMirrored(type: u8): bool {
  return type < 32 && ((MIRRORED >> type) & 1) != 0;
}

/** A CRC-8/SMBUS implementation: crc8Update, or the controller's crc8Table. */
export type Crc8 = (crc: u32, ptr: usize, len: u32) => u32;

function packetCrc(ptr: usize, len: u32, crc: Crc8 = crc8Update): u8 {
  return <u8>crc(crc(0, ptr, 4), ptr + HEADER_SIZE, len - HEADER_SIZE);
}

/** Writes the header of a packet of `type` (payload already in place) and seals it with its CRC;
 * `len` only for a variable-length type (the pulse table). */
export function sealPacket(ptr: usize, address: u8, type: u8, len: u32 = 0, crc: Crc8 = crc8Update): u32 {
  if (len == 0) len = packetSize(type);
  store<u8>(ptr, address);
  store<u8>(ptr, type, 1);
  store<u8>(ptr, <u8>len, 2);
  store<u8>(ptr, BUS_VERSION, 3);
  store<u8>(ptr, packetCrc(ptr, len, crc), 4);
  return len;
}

/** Checks length, version and CRC of a received packet (a variable-length one: at least its least size). */
export function packetValid(ptr: usize, len: u32): bool {
  // a packet shorter than a header fails the size test (every size is at least HEADER_SIZE; the
  // header's reads stay in the receive buffer)
  const s = packetSize(load<u8>(ptr, 1));
  const size = s & VARIABLE ? (len >= (s ^ VARIABLE) ? len : 0) : s;
  if (size == 0 || size != len || <u32>load<u8>(ptr, 2) != len) return false;
  if (load<u8>(ptr, 3) != BUS_VERSION) return false;
  return load<u8>(ptr, 4) == packetCrc(ptr, len);
}
