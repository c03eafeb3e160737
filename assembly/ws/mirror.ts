// The mirror stream: every outbound packet of the spec's ten types, coalesced into MIRROR_BATCH
// frames flushed at most every FLUSH_MS to the connections that asked with SET_MIRROR(1). A batch
// that would overflow its buffer is flushed early. A fixed snapshot table keeps the last packet per
// (address, type) so a new mirroring client first gets the current state (palettes: slot 0 only).
// Pulse tables (type 21, internal) are mirrored as sent, so the stream is the bus traffic exactly;
// neither they nor the broadcast prepare that closes one are kept in the snapshot.
import { host_ws_send, host_ws_append, host_clock_ms } from "../host/imports";
import {
  T_ANIM_PREPARE,
  T_PALETTE,
  T_PULSE_TABLE,
  TABLE_USES_SHIFT,
  HEADER_SIZE,
  packetSize,
  sealPacket,
} from "../bus/protocol";
import { mirrorPacketsTo } from "../bus/send";
import { FRAME_HEADER, WS_MIRROR_BATCH, writeHeader, writeHeaderCrc } from "./frame";
import { crc16Update } from "../util/crc16";
import { anyMirroring, sendToMirroring } from "./connections";
import { MAX_PANELS } from "../topology/tree";
import { wakeUp, wakeDone, WAKE_MIRROR } from "../core/wake";

export const FLUSH_MS: u32 = 34; // at most about 30 frames per second
const BATCH_HEADER: u32 = 6; // controllerMillis u32, count u16
const BATCH_CAP: u32 = 2048; // a burst beyond it goes out early, in more frames (docs/decisions.md)
const batch = memory.data(BATCH_CAP);
// FRAME_HEADER + BATCH_HEADER as a literal: the global's own initial value, not start-up code
let batchUsed: u32 = 20;
if (FRAME_HEADER + BATCH_HEADER != 20) ERROR("ws/mirror.ts: batchUsed's initial value");
let batchCount: u32 = 0;
let lastFlush: u32 = 0;

// Snapshot table. Broadcast packets (address 0): one slot for each of the ten types. Panels
// 1..MAX_PANELS: one slot each for the types sent to single panels (on/off, colour, prepare: the
// first three types). A slot keeps the packet's payload: address, type and length follow from the
// slot, and the header is sealed again when the snapshot goes out (1,550 B less than whole packets).
// Raw tables read in place (a call per array read or search costs an interpreter hundreds of
// instructions, and every packet of a runner start comes here).
const TYPES = memory.data<u8>([4, 5, 12, 13, 14, 16, 17, 18, 19, 20]);
/** Where each type's payload is kept in its run (the payload sizes of the ones before it summed). */
const OFFSETS = memory.data<u8>([0, 1, 4, 24, 26, 28, 33, 98, 107, 108]);
const BROADCAST_BYTES: u32 = 111; // the ten payload sizes summed
const PANEL_BYTES: u32 = 24; // 1 + 3 + 20: the payloads of POWER, COLOR, ANIM_PREPARE
// Sequence numbers (0: empty), u16 each (renumbered 1..n in order when they run out): the ten
// broadcast slots, then per panel type a run of MAX_PANELS (a broadcast clears its type's run in one
// fill).
const SLOTS = 10 + MAX_PANELS * 3;
const snapData = memory.data(BROADCAST_BYTES + PANEL_BYTES * <u32>MAX_PANELS);
const snapSeq = memory.data(SLOTS * 2, 2);
/** The snapshot goes to the host in pieces of at most this size (host_ws_append), one frame on the wire. */
const PIECE: u32 = 512;
let seq: u32 = 0;
let tableGroup: u8 = 0; // the group of an open pulse table: the prepares it serves are not snapshots
let tableUses: u32 = 0;

/** The index of `type` in TYPES (POWER, COLOR, ANIM_PREPARE first: the panel kinds 0-2), or -1. */
function typeIndex(type: u8): i32 {
  for (let i = 0; i < 10; i++) if (load<u8>(TYPES + i) == type) return i;
  return -1;
}

/** The index in TYPES and OFFSETS of `slot`'s type. */
function slotType(slot: i32): i32 {
  return slot < 10 ? slot : (slot - 10) / MAX_PANELS;
}

function slotData(slot: i32): usize {
  const at = snapData + <usize>load<u8>(OFFSETS + slotType(slot));
  return slot < 10 ? at : at + BROADCAST_BYTES + <usize>((slot - 10) % MAX_PANELS) * PANEL_BYTES;
}

/** Called for every mirrored packet the controller puts on the bus. */
function mirrorPacket(ptr: usize, len: u32): void {
  const address = <u32>load<u8>(ptr);
  const type = load<u8>(ptr, 1);
  // the snapshot keeps the look's palette (slot 0), not a scene layer's (slots 1-8)
  const layerPalette = type == T_PALETTE && load<u8>(ptr, HEADER_SIZE) >> 4 != 0;
  let tabled = false;
  if (type == T_PULSE_TABLE) {
    tableGroup = load<u8>(ptr, HEADER_SIZE);
    tableUses = (((<u32>load<u16>(ptr, HEADER_SIZE + 2)) >> TABLE_USES_SHIFT) & 7) + 1;
  } else if (type == T_ANIM_PREPARE && address == 0 && tableGroup != 0) {
    tabled = load<u8>(ptr, HEADER_SIZE) == tableGroup;
    if (tabled && --tableUses == 0) tableGroup = 0;
  }
  const t = typeIndex(type);
  const k = t < 3 ? t : -1; // the panel kind
  // the slot of (address, type): a broadcast's type, or a panel's kind and index
  let slot = address == 0 ? t : k < 0 || address > <u32>MAX_PANELS ? -1 : 10 + k * MAX_PANELS + (<i32>address - 1);
  if (layerPalette || tabled) slot = -1;
  if (slot >= 0) {
    memory.copy(slotData(slot), ptr + HEADER_SIZE, len - HEADER_SIZE);
    if (seq == 0xffff) renumber();
    store<u16>(snapSeq + ((<usize>slot) << 1), <u16>++seq);
    if (address == 0) {
      // A broadcast supersedes what single panels were sent of the same type.
      if (k >= 0) memory.fill(snapSeq + ((<usize>(10 + k * MAX_PANELS)) << 1), 0, MAX_PANELS * 2);
    }
  }
  if (!anyMirroring()) return;
  if (batchUsed + 3 + len > BATCH_CAP) flushMirror(host_clock_ms());
  const rec = batch + batchUsed;
  memory.copy(rec, ptr, 3); // a packet's own first three bytes are its record head
  memory.copy(rec + 3, ptr, len);
  batchUsed += 3 + len;
  batchCount++;
  wakeUp(WAKE_MIRROR);
}

function flushMirror(now: u32): void {
  lastFlush = now;
  if (batchCount == 0) return;
  store<u32>(batch + FRAME_HEADER, now);
  store<u16>(batch + FRAME_HEADER + 4, <u16>batchCount);
  const size = batchUsed - FRAME_HEADER;
  writeHeader(batch, WS_MIRROR_BATCH, size);
  sendToMirroring(batch, batchUsed);
  batchUsed = FRAME_HEADER + BATCH_HEADER;
  batchCount = 0;
  wakeDone(WAKE_MIRROR);
}

export function mirrorTick(now: u32): void {
  if (batchCount > 0 && now - lastFlush >= FLUSH_MS) flushMirror(now);
}

/** How many slots nextSlot found above `after` (for nextSlot(0): every kept one). */
let above: u32 = 0;

/** The slot after `after` in sequence order (the least sequence number above it), or -1. */
function nextSlot(after: u32): i32 {
  let best = -1;
  let bestSeq: u32 = 0x10000;
  let n: u32 = 0;
  for (let s = 0; s < SLOTS; s++) {
    const q = <u32>load<u16>(snapSeq + ((<usize>s) << 1));
    if (q > after) {
      n++;
      if (q < bestSeq) {
        best = s;
        bestSeq = q;
      }
    }
  }
  above = n;
  return best;
}

/** Sequence numbers ran out (once in 65,535 kept packets): the kept ones become 1..n in the same
 * order. The k-th is at most its old number, so the search for the next above the old one never
 * meets a renumbered slot. */
function renumber(): void {
  let after: u32 = 0;
  let n: u32 = 0;
  for (let s = nextSlot(0); s >= 0; s = nextSlot(after)) {
    const at = snapSeq + ((<usize>s) << 1);
    after = <u32>load<u16>(at);
    store<u16>(at, <u16>++n);
  }
  seq = n;
}

/** Sends the snapshot frame to `conn`: the kept packets, oldest first, as one MIRROR_BATCH. The
 * payload goes to the host in pieces of at most PIECE bytes (host_ws_append) as it is written from the
 * table, its CRC and size summed on the way; then the send carrying the header, which the host puts
 * before them (docs/decisions.md): no 5 KB frame in the arena. A record is address, type, length and
 * the packet; a panel's packet is sealed again from its payload. */
export function sendSnapshot(conn: u32, now: u32): void {
  const piece = heap.alloc(PIECE);
  let slot = nextSlot(0);
  store<u32>(piece, now);
  store<u16>(piece, <u16>above, 4);
  let used = BATCH_HEADER;
  let size: u32 = 0;
  let crc: u32 = 0xffff;
  while (true) {
    const type = load<u8>(TYPES + slotType(slot)); // slot -1 reads the byte before TYPES: not used
    const len = packetSize(type);
    if (slot < 0 || used + 3 + len > PIECE) {
      crc = crc16Update(crc, piece, used);
      size += used;
      host_ws_append(piece, used);
      used = 0;
      if (slot < 0) break;
    }
    const packet = piece + used + 3;
    memory.copy(packet + HEADER_SIZE, slotData(slot), len - HEADER_SIZE);
    sealPacket(packet, slot < 10 ? 0 : <u8>(((slot - 10) % MAX_PANELS) + 1), type);
    memory.copy(packet - 3, packet, 3); // a packet's own first three bytes are its record head
    used += 3 + len;
    // the next kept packet by sequence number: a small table, scanned once per record
    slot = nextSlot(<u32>load<u16>(snapSeq + ((<usize>slot) << 1)));
  }
  writeHeaderCrc(piece, WS_MIRROR_BATCH, size, crc);
  host_ws_send(conn, piece, FRAME_HEADER);
  heap.free(piece);
}

mirrorPacketsTo(mirrorPacket);
