// Per-panel animation records onto the bus, cheaply: the caller writes each panel's record
// (recordAt) and marks it (include); sendPrepares() then sends them as one unicast prepare a panel,
// or, when fewer bytes, as pulse tables (type 21: each panel's words that differ) followed by one
// broadcast prepare, which every panel of the table applies with its own words added and every
// other panel ignores. docs/bus-protocol.md, "Pulse table". The table's `uses` (several broadcast
// prepares served by one table) is for the panels; the controller sends one prepare a table (a
// runner's `count` sweeps are one pulse, issue 18).
import { body, send } from "./send";
import {
  ADDR_BROADCAST,
  T_ANIM_PREPARE,
  T_PULSE_TABLE,
  TABLE_HEAD,
  TABLE_OPEN,
  TABLE_SKIP,
  HEADER_SIZE,
  MAX_PACKET,
} from "./protocol";
import { MAX_PANELS } from "../topology/tree";
import { SCRATCH, RECORDS } from "../rt/scratch";

const REC = 20;
const PREPARE_BYTES = 25;
const recs = SCRATCH + RECORDS; // rt/scratch.ts: valid from the first record to the send
// Per panel: 0 not included, MARKED included, IN_TABLE included and carried by the table (plan()).
// Loops read these bytes and the records in place: no call per panel or word. A caller that walks
// its own panels may mark them here itself and then give their range to includeRange().
export const marks = memory.data(MAX_PANELS + 1);
export const MARKED: u8 = 1;
const IN_TABLE: u8 = 2;
let lo = MAX_PANELS + 1; // the included range
let hi = 0;
let mask: u32 = 0; // the words the table carries (bits 1-9)
let w0: usize = 0; // byte offset of the last carried word: TABLE_SKIP there means "left out"
let base = 0; // the panel whose record the broadcast prepare carries

/** Where panel `p`'s 20-byte record goes. */
export function recordAt(p: i32): usize {
  return recs + <usize>p * REC;
}

/** Panel `p` gets its record (recordAt) at the next sendPrepares. */
export function include(p: i32): void {
  store<u8>(marks + p, MARKED);
  lo = min(lo, p);
  hi = max(hi, p);
}

/** Panels `first` to `last` hold every mark set in place (some may be 0: left out). */
export function includeRange(first: i32, last: i32): void {
  lo = min(lo, first);
  hi = max(hi, last);
}

function entryBytes(): i32 {
  return (<i32>popcnt(mask)) << 1;
}

/**
 * The table packets over the panels in the table, in index order; a run of left-out panels costs
 * an entry each, or a new packet when its header is cheaper. Only counts (dry) or also sends;
 * returns their bytes.
 */
function tables(group: u8, dry: bool): i32 {
  const e = entryBytes();
  const per = (<i32>MAX_PACKET - <i32>TABLE_HEAD) / e;
  let bytes = 0;
  let open = true;
  let p = lo;
  while (p <= hi) {
    if (load<u8>(marks + p) != IN_TABLE) {
      p++;
      continue;
    }
    const first = p;
    let last = p;
    if (dense) last = min(hi, first + per - 1);
    else
      for (let q = p + 1; q <= hi && q - first < per; q++) {
        if (load<u8>(marks + q) != IN_TABLE) continue;
        if ((q - last - 1) * e > <i32>TABLE_HEAD) break; // the gap costs more than a new packet
        last = q;
      }
    const n = last - first + 1;
    bytes += <i32>TABLE_HEAD + n * e;
    if (!dry) {
      const b = body();
      store<u8>(b, group);
      store<u8>(b, <u8>first, 1);
      store<u16>(b, <u16>(mask | (open ? TABLE_OPEN : 0)), 2); // uses 1
      let o = b + 4;
      for (let q = first; q <= last; q++) {
        const r = recs + <usize>q * REC;
        const carried = load<u8>(marks + q) == IN_TABLE;
        // the carried words in order (bit by bit of the mask)
        for (let m = mask; m != 0; m &= m - 1) {
          const wo = (<usize>ctz(m)) << 1;
          store<u16>(o, carried ? load<u16>(r + wo) : wo == w0 ? TABLE_SKIP : 0);
          o += 2;
        }
      }
      send(ADDR_BROADCAST, T_PULSE_TABLE, <u32>(o - b) + HEADER_SIZE);
    }
    open = false;
    p = last + 1;
  }
  return bytes;
}

/** Panel p's record (p 0: the broadcast one, the entries' words zero) into the packet body. */
function putRecord(p: i32): void {
  const b = body();
  memory.copy(b, recordAt(p == 0 ? base : p), REC);
  if (p == 0) for (let m = mask; m != 0; m &= m - 1) store<u16>(b + ((<usize>ctz(m)) << 1), 0);
}

// The plan of the included records (plan()): how they go out and what it costs.
let n = 0; // included panels
let m = 0; // panels the table can hold
let allSame = false; // every panel on the bus, one record: broadcasts only
let useTable = false;
let dense = false; // every panel of the included range is in the table: no gaps to look for
let planned = 0; // bytes

/** Works out how the included records go out (`all` panels on the bus) and what it costs; sends
 * nothing. Returns the bytes. */
export function plan(all: i32): i32 {
  n = 0;
  m = 0;
  base = 0;
  // the words that differ from the first included record: the differences of every record,
  // or-ed in three loads a record (bytes 0-7, 8-15, 16-19)
  let d0: u64 = 0;
  let d1: u64 = 0;
  let d2: u32 = 0;
  // the first included record, then every one without a branch (WAMR's classic interpreter looks
  // up where every `if` ends): a record left out adds nothing
  let p = lo;
  while (p <= hi && load<u8>(marks + p) == 0) p++;
  base = p <= hi ? p : 0;
  const b = recs + <usize>p * REC;
  if (base != 0)
    do {
      const on = load<u8>(marks + p) != 0;
      store<u8>(marks + p, <u8>on); // MARKED
      n += <i32>on;
      const r = recs + <usize>p * REC;
      const keep = -(<u64>on);
      d0 |= (load<u64>(r) ^ load<u64>(b)) & keep;
      d1 |= (load<u64>(r, 8) ^ load<u64>(b, 8)) & keep;
      d2 |= (load<u32>(r, 16) ^ load<u32>(b, 16)) & (<u32>keep);
    } while (++p <= hi);
  mask = 0;
  // word w (bits 1-9; word 0 is group and layer, the same in every record) from its 16-bit lane
  for (let w: u32 = 1; w < 10; w++) {
    const lane = w < 4 ? d0 >> (w << 4) : w < 8 ? d1 >> ((w - 4) << 4) : <u64>(d2 >> ((w - 8) << 4));
    if ((lane & 0xffff) != 0) mask |= 1 << w;
  }
  allSame = n > 0 && mask == 0 && n == all;
  useTable = false;
  planned = PREPARE_BYTES * (allSame ? 1 : n);
  if (allSame || n == 0) return planned;
  if (mask == 0) mask = 1 << 7; // the same record on some panels: the delay word marks them
  w0 = <usize>((31 - clz(mask)) << 1);
  // in the table: included, and its last carried word can be told from the "left out" marker
  p = base;
  do {
    const mark = load<u8>(marks + p);
    const carried = (<i32>(mark != 0)) & (<i32>(load<u16>(recs + <usize>p * REC + w0) != TABLE_SKIP));
    store<u8>(marks + p, select<u8>(IN_TABLE, mark, carried));
    m += carried;
  } while (++p <= hi);
  if (m == 0) return planned;
  // the tables' bytes: counted by their packets, or, when every panel of the range is in the table
  // (no gap to weigh), full packets of `per` entries
  let bytes: i32;
  dense = m == hi - lo + 1;
  if (dense) {
    const e = entryBytes();
    const per = (<i32>MAX_PACKET - <i32>TABLE_HEAD) / e;
    bytes = ((m + per - 1) / per) * <i32>TABLE_HEAD + m * e;
  } else bytes = tables(0, true);
  const viaTable = bytes + PREPARE_BYTES * (1 + n - m); // + unicasts for the rest
  useTable = viaTable < planned;
  if (useTable) planned = viaTable;
  return planned;
}

/** Drops the included records unsent. */
export function forget(): void {
  if (hi >= lo) memory.fill(marks + lo, 0, hi - lo + 1);
  lo = MAX_PANELS + 1;
  hi = 0;
}

/**
 * Sends the included panels' records (`all`: the number of panels on the bus) by whichever costs
 * fewer bytes (plan): unicast prepares, or tables plus one broadcast prepare (just the broadcast
 * when every panel gets the same record). Forgets them after. Returns the planned bytes.
 */
export function sendPrepares(all: i32): i32 {
  const bytes = plan(all);
  if (allSame || useTable) {
    if (useTable) {
      while (load<u8>(marks + base) != IN_TABLE) base++;
      tables(load<u8>(recordAt(base)), false);
    }
    putRecord(0);
    send(ADDR_BROADCAST, T_ANIM_PREPARE);
  }
  // the rest as unicasts (none when the table carries every record)
  if (!allSame && !(useTable && m == n)) {
    for (let p = lo; p <= hi; p++) {
      const k = load<u8>(marks + p);
      if (k == 0 || (useTable && k == IN_TABLE)) continue;
      putRecord(p);
      send(<u8>p, T_ANIM_PREPARE);
    }
  }
  forget();
  return bytes;
}
