// The mirror stream: every outbound packet of the spec's ten types, coalesced into MIRROR_BATCH
// frames flushed at most every FLUSH_MS to the connections that asked with SET_MIRROR(1). A batch
// that would overflow its buffer is flushed early. A fixed snapshot table keeps the last packet per
// (address, type) so a new mirroring client first gets the current state (palettes: slot 0 only).
// Pulse tables (type 21, internal) are mirrored as sent, so the stream is the bus traffic exactly;
// neither they nor the broadcast prepare that closes one are kept in the snapshot.
import { host_ws_send, host_clock_ms } from "../host/imports";
import {
  packetSize,
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
const BATCH_CAP: u32 = 4096;
const batch = memory.data(BATCH_CAP);
let batchUsed: u32 = FRAME_HEADER + BATCH_HEADER;
let batchCount: u32 = 0;
let lastFlush: u32 = 0;

// Snapshot table. Broadcast packets (address 0): one slot for each of the ten types. Panels
// 1..MAX_PANELS: one slot each for the types sent to single panels (on/off, colour, prepare).
const TYPES: StaticArray<u8> = [4, 5, 12, 13, 14, 16, 17, 18, 19, 20];
const PANEL_TYPES: StaticArray<u8> = [T_POWER, T_COLOR, T_ANIM_PREPARE];
const BROADCAST_BYTES: u32 = 161; // sum of the ten sizes
const PANEL_BYTES: u32 = 39; // 6 + 8 + 25
const SLOTS = 10 + MAX_PANELS * 3;
const snapData = memory.data(BROADCAST_BYTES + PANEL_BYTES * <u32>MAX_PANELS);
const snapSeq = new StaticArray<u32>(SLOTS); // 0: empty
let seq: u32 = 0;
let tableGroup: u8 = 0; // the group of an open pulse table: the prepares it serves are not snapshots
let tableUses: u32 = 0;

function typeOffset(types: StaticArray<u8>, type: u8): i32 {
  let offset = 0;
  for (let i = 0; i < types.length; i++) {
    if (types[i] == type) return offset;
    offset += <i32>packetSize(types[i]);
  }
  return -1;
}

/** Slot index and data address for (address, type), or -1 when the table does not keep it. */
function slotOf(address: u32, type: u8): i32 {
  if (address == 0) return TYPES.indexOf(type);
  if (address > <u32>MAX_PANELS) return -1;
  const k = PANEL_TYPES.indexOf(type);
  return k < 0 ? -1 : 10 + (<i32>address - 1) * 3 + k;
}

function slotData(slot: i32): usize {
  if (slot < 10) return snapData + <usize>typeOffset(TYPES, TYPES[slot]);
  const panel = (slot - 10) / 3;
  const k = (slot - 10) % 3;
  return snapData + BROADCAST_BYTES + <usize>panel * PANEL_BYTES + <usize>typeOffset(PANEL_TYPES, PANEL_TYPES[k]);
}

function slotType(slot: i32): u8 {
  return slot < 10 ? TYPES[slot] : PANEL_TYPES[(slot - 10) % 3];
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
  const slot = layerPalette || tabled ? -1 : slotOf(address, type);
  if (slot >= 0) {
    memory.copy(slotData(slot), ptr, len);
    snapSeq[slot] = ++seq;
    if (address == 0) {
      // A broadcast supersedes what single panels were sent of the same type.
      const k = PANEL_TYPES.indexOf(type);
      if (k >= 0) for (let p = 0; p < MAX_PANELS; p++) snapSeq[10 + p * 3 + k] = 0;
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

/** Sends the snapshot frame to `conn`: the kept packets, oldest first. */
export function sendSnapshot(conn: u32, now: u32): void {
  const out = txPayload();
  let used: u32 = BATCH_HEADER;
  let count: u32 = 0;
  let after: u32 = 0;
  while (true) {
    // The next kept packet by sequence number: a small table, scanned once per record.
    let best = -1;
    let bestSeq: u32 = 0xffffffff;
    for (let s = 0; s < SLOTS; s++) {
      const q = snapSeq[s];
      if (q > after && q < bestSeq) {
        best = s;
        bestSeq = q;
      }
    }
    if (best < 0) break;
    after = bestSeq;
    const data = slotData(best);
    const len = packetSize(slotType(best));
    store<u8>(out + used, load<u8>(data));
    store<u8>(out + used, slotType(best), 1);
    store<u8>(out + used, <u8>len, 2);
    memory.copy(out + used + 3, data, len);
    used += 3 + len;
    count++;
  }
  store<u32>(out, now);
  store<u16>(out, <u16>count, 4);
  sendFrame(conn, WS_MIRROR_BATCH, used);
}
