// The mirror stream: every outbound packet of the spec's ten types, coalesced into MIRROR_BATCH
// frames flushed at most every FLUSH_MS to the connections that asked with SET_MIRROR(1). A batch
// that would overflow its buffer is flushed early. A fixed snapshot table keeps the last packet per
// (address, type) so a new mirroring client first gets the current state (palettes: slot 0 only).
// Pulse tables (type 21, internal) are mirrored as sent, so the stream is the bus traffic exactly;
// neither they nor the broadcast prepare that closes one are kept in the snapshot.
import { host_ws_send, host_clock_ms } from "../host/imports";
import {
  T_POWER,
  T_COLOR,
  T_ANIM_PREPARE,
  T_PALETTE,
  T_PULSE_TABLE,
  TABLE_USES_SHIFT,
  HEADER_SIZE,
} from "../bus/protocol";
import { FRAME_HEADER, WS_MIRROR_BATCH, writeHeader, txPayload, sendFrame } from "./frame";
import { anyMirroring, mirroringCount, mirroringAt } from "./connections";
import { MAX_PANELS } from "../topology/tree";
import { wakeUp, wakeDone, WAKE_MIRROR } from "../core/wake";

export const FLUSH_MS: u32 = 34; // at most about 30 frames per second
const BATCH_HEADER: u32 = 6; // controllerMillis u32, count u16
const BATCH_CAP: u32 = 2048; // a burst beyond it goes out early, in more frames (docs/decisions.md)
const batch = memory.data(BATCH_CAP);
let batchUsed: u32 = FRAME_HEADER + BATCH_HEADER;
let batchCount: u32 = 0;
let lastFlush: u32 = 0;

// Snapshot table. Broadcast packets (address 0): one slot for each of the ten types. Panels
// 1..MAX_PANELS: one slot each for the types sent to single panels (on/off, colour, prepare).
// Raw tables read in place (a call per array read or search costs an interpreter hundreds of
// instructions, and every packet of a runner start comes here).
const TYPES = memory.data<u8>([4, 5, 12, 13, 14, 16, 17, 18, 19, 20]);
/** Where each broadcast type's packet is kept (the sizes of the ones before it summed). */
const OFFSETS = memory.data<u8>([0, 6, 14, 39, 46, 53, 63, 133, 147, 153]);
const BROADCAST_BYTES: u32 = 161; // sum of the ten sizes
const PANEL_BYTES: u32 = 39; // 6 + 8 + 25: POWER, COLOR, ANIM_PREPARE
const PANEL_OFFSETS = memory.data<u8>([0, 6, 14]);
// Sequence numbers (0: empty), u16 each (renumbered 1..n in order when they run out): the ten
// broadcast slots, then per panel type a run of MAX_PANELS (a broadcast clears its type's run in one
// fill).
const SLOTS = 10 + MAX_PANELS * 3;
const snapData = memory.data(BROADCAST_BYTES + PANEL_BYTES * <u32>MAX_PANELS);
const snapSeq = memory.data(SLOTS * 2, 2);
/** The snapshot's records at most: each kept packet and its 3-byte record head. */
const SNAPSHOT_RECORDS: u32 = BROADCAST_BYTES + 10 * 3 + (PANEL_BYTES + 3 * 3) * <u32>MAX_PANELS;
let seq: u32 = 0;
let tableGroup: u8 = 0; // the group of an open pulse table: the prepares it serves are not snapshots
let tableUses: u32 = 0;

/** The panel type index of `type` (POWER 0, COLOR 1, ANIM_PREPARE 2), or -1. */
function panelKind(type: u8): i32 {
  return type == T_POWER ? 0 : type == T_COLOR ? 1 : type == T_ANIM_PREPARE ? 2 : -1;
}

/** Slot index for (address, type) (`k` its panelKind), or -1 when the table does not keep it. */
function slotOf(address: u32, type: u8, k: i32): i32 {
  if (address == 0) {
    for (let i = 0; i < 10; i++) if (load<u8>(TYPES + i) == type) return i;
    return -1;
  }
  return k < 0 || address > <u32>MAX_PANELS ? -1 : 10 + k * MAX_PANELS + (<i32>address - 1);
}

function slotData(slot: i32): usize {
  if (slot < 10) return snapData + <usize>load<u8>(OFFSETS + slot);
  const k = (slot - 10) / MAX_PANELS;
  const panel = (slot - 10) % MAX_PANELS;
  return snapData + BROADCAST_BYTES + <usize>panel * PANEL_BYTES + <usize>load<u8>(PANEL_OFFSETS + k);
}

/** Called for every mirrored packet the controller puts on the bus. */
export function mirrorPacket(ptr: usize, len: u32): void {
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
  const k = panelKind(type);
  const slot = layerPalette || tabled ? -1 : slotOf(address, type, k);
  if (slot >= 0) {
    memory.copy(slotData(slot), ptr, len);
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
  store<u8>(rec, <u8>address);
  store<u8>(rec, type, 1);
  store<u8>(rec, <u8>len, 2);
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
  const n = mirroringCount();
  for (let i = 0; i < n; i++) host_ws_send(mirroringAt(i), batch, batchUsed);
  batchUsed = FRAME_HEADER + BATCH_HEADER;
  batchCount = 0;
  wakeDone(WAKE_MIRROR);
}

export function mirrorTick(now: u32): void {
  if (batchCount > 0 && now - lastFlush >= FLUSH_MS) flushMirror(now);
}

/** The slot after `after` in sequence order (the least sequence number above it), or -1. */
function nextSlot(after: u32): i32 {
  let best = -1;
  let bestSeq: u32 = 0x10000;
  for (let s = 0; s < SLOTS; s++) {
    const q = <u32>load<u16>(snapSeq + ((<usize>s) << 1));
    if (q > after && q < bestSeq) {
      best = s;
      bestSeq = q;
    }
  }
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

/** Sends the snapshot frame to `conn`: the kept packets, oldest first. */
export function sendSnapshot(conn: u32, now: u32): void {
  const out = txPayload(BATCH_HEADER + SNAPSHOT_RECORDS);
  let used: u32 = BATCH_HEADER;
  let count: u32 = 0;
  let after: u32 = 0;
  while (true) {
    // The next kept packet by sequence number: a small table, scanned once per record.
    const best = nextSlot(after);
    if (best < 0) break;
    after = <u32>load<u16>(snapSeq + ((<usize>best) << 1));
    // a record is address, type, length and the packet: its own first three bytes, then itself
    const data = slotData(best);
    const len = <u32>load<u8>(data, 2);
    memory.copy(out + used, data, 3);
    memory.copy(out + used + 3, data, len);
    used += 3 + len;
    count++;
  }
  store<u32>(out, now);
  store<u16>(out, <u16>count, 4);
  sendFrame(conn, WS_MIRROR_BATCH, used, out);
}
