// The panel side of the pulse table (docs/bus-protocol.md, "Pulse table"): table packets arm the
// panel with its OWN entry (the record words that differ per panel) for the next `uses` broadcast
// prepares of the table's group; each of them applies with the entry added to its words, and a
// panel the table left out ignores them. A few bytes of state, no allocation.
import { TABLE_HEAD, TABLE_OPEN, TABLE_WORDS, TABLE_SKIP, TABLE_USES_SHIFT, HEADER_SIZE } from "../bus/protocol";
import { RECORD_SIZE } from "./engine/record";
import { sumWords } from "../bus/table-sum";

let armedGroup: u8 = 0; // 0: no table open
let uses: u32 = 0; // broadcast prepares of the group still to serve
let included = false; // this panel's entry arrived (else it ignores those prepares)
let mask: u32 = 0;
const entry = memory.data(RECORD_SIZE); // the carried words, at their record offsets
const merged = memory.data(RECORD_SIZE);

/** Record bytes an entry of mask `m` carries (2 a word), 0 when the mask is not valid. */
function entryBytes(m: u32): u32 {
  if ((m & 0x0c01) != 0) return 0; // word 0 (group, layer) and bits 10-11 are not used
  return (<u32>popcnt(m & TABLE_WORDS)) << 1;
}

/** A pulse table packet of `len` bytes at `pkt`, received by panel `address`. */
export function tableReceive(pkt: usize, len: u32, address: u8): void {
  const body = pkt + HEADER_SIZE;
  const m = <u32>load<u16>(body, 2);
  const e = entryBytes(m);
  if (e == 0 || (len - TABLE_HEAD) % e != 0) return; // not a whole number of entries: dropped
  const group = load<u8>(body);
  // the first packet of a table, or one of another group, starts over: left out until an entry
  if ((m & TABLE_OPEN) != 0 || group != armedGroup) included = false;
  armedGroup = group;
  uses = ((m >> TABLE_USES_SHIFT) & 7) + 1;
  mask = m & TABLE_WORDS;
  const first = <u32>load<u8>(body, 1);
  const k = <u32>address - first;
  if (<u32>address < first || k >= (len - TABLE_HEAD) / e) return;
  let src = pkt + TABLE_HEAD + k * e;
  included = load<u16>(src + e - 2) != TABLE_SKIP; // the entry's last word marks "left out"
  for (let w: u32 = 1; w < 10; w++) {
    if ((m & (1 << w)) == 0) continue;
    store<u16>(entry + (w << 1), load<u16>(src));
    src += 2;
  }
}

/**
 * The record a broadcast prepare of record `rec` stands for on this panel: `rec` itself when no
 * table of its group is armed; else the record with this panel's entry added to its words, or 0
 * when the table left this panel out or a sum does not fit 16 bits (sumWords).
 */
export function tableApply(rec: usize): usize {
  if (armedGroup == 0 || load<u8>(rec) != armedGroup) return rec;
  if (--uses == 0) armedGroup = 0;
  if (!included) return 0;
  memory.copy(merged, rec, RECORD_SIZE);
  return sumWords(merged, entry, mask) ? merged : 0;
}

/** start(group, 0) of the armed group (0: all) and RESET disarm. */
export function tableClose(group: u32): void {
  if (group == 0 || group == <u32>armedGroup) armedGroup = 0;
}
