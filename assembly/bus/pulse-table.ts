// Per-panel animation records onto the bus, cheaply: the caller writes each panel's record
// (recordAt) and marks it (include); sendPulses() then sends them as one unicast prepare a panel,
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
  MAX_PACKET,
} from "./protocol";
import { MAX_PANELS } from "../topology/tree";
import { count } from "../topology/rooted";
import { SCRATCH, RECORDS } from "../rt/scratch";

const REC = 20;
const PREPARE_BYTES = 25;
const recs = SCRATCH + RECORDS; // rt/scratch.ts: valid from the first record to the send
// Per panel: 0 not included, MARKED included, IN_TABLE included and carried by the table.
// Loops read these bytes and the records in place over every panel on the bus (no included range
// kept): no call per panel or word. A caller that walks its own panels may mark them here itself.
export const marks = memory.data(MAX_PANELS + 1);
export const MARKED: u8 = 1;
const IN_TABLE: u8 = 2;
// How the included records go out (sendPulses).
const UNICASTS = 0;
const TABLES = 1; // tables and one broadcast prepare (and unicasts for the panels left out)
const BROADCAST = 2; // every panel on the bus, one record

/** Where panel `p`'s 20-byte record goes. */
export function recordAt(p: i32): usize {
  return recs + <usize>p * REC;
}

/** Panel `p` gets its record (recordAt) at the next sendPulses. */
export function include(p: i32): void {
  store<u8>(marks + p, MARKED);
}

/**
 * The table packets over the panels in the table, in index order; a run of left-out panels costs
 * an entry each, or a new packet when its header is cheaper. Only counts (dry) or also sends;
 * returns their bytes.
 */
function tables(group: u8, dry: bool, mask: u32, w0: usize): i32 {
  const e = (<i32>popcnt(mask)) << 1; // an entry's bytes
  const per = (<i32>MAX_PACKET - <i32>TABLE_HEAD) / e;
  let bytes = 0;
  let open = TABLE_OPEN;
  const hi = count;
  let p = 1;
  while (p <= hi) {
    if (load<u8>(marks + p) != IN_TABLE) {
      p++;
      continue;
    }
    const first = p;
    let last = p;
    for (let q = p + 1; q <= hi && q - first < per; q++) {
      if (load<u8>(marks + q) != IN_TABLE) continue;
      if ((q - last - 1) * e > <i32>TABLE_HEAD) break; // the gap costs more than a new packet
      last = q;
    }
    const size = <i32>TABLE_HEAD + (last - first + 1) * e;
    bytes += size;
    if (!dry) {
      const b = body();
      store<u8>(b, group);
      store<u8>(b, <u8>first, 1);
      store<u16>(b, <u16>(mask | open), 2); // uses 1
      // the carried words a word at a time (lowest first), each over every entry
      let o = b + 4;
      for (let w = mask; w != 0; w &= w - 1) {
        const at = (<usize>ctz(w)) << 1;
        const none = select<u32>(TABLE_SKIP, 0, at == w0);
        let r = recs + <usize>first * REC + at;
        let q = marks + <usize>first;
        let x = o;
        do {
          store<u16>(x, select<u32>(load<u16>(r), none, load<u8>(q) == IN_TABLE));
          x += e;
          r += REC;
        } while (++q <= marks + <usize>last);
        o += 2;
      }
      send(ADDR_BROADCAST, T_PULSE_TABLE, <u32>size); // TABLE_HEAD is the header and 4 bytes
    }
    open = 0;
    p = last + 1;
  }
  return bytes;
}

/**
 * Sends the included records (marked MARKED, the others of the range 0) by whichever costs fewer
 * bytes: unicast prepares, or tables plus one broadcast prepare (just the broadcast when every panel
 * on the bus gets the same record), and forgets them. Returns the bytes; or -1, sending nothing,
 * when every one of `targets` panels (fewer than are on the bus) is included with the same record
 * and the caller's own way costs less: one broadcast and a clear (7 bytes) to each other panel.
 */
export function sendPulses(targets: i32): i32 {
  const all = count;
  let base = 1; // the panel whose record the broadcast prepare carries
  while (base <= all && load<u8>(marks + base) == 0) base++;
  // the words that differ among the records: each one's bits that differ from the first's, OR-ed
  // (three words a record, then a bit a 16-bit word)
  const first = recordAt(base);
  let n = 0;
  let x0: u64 = 0;
  let x1: u64 = 0;
  let x2: u32 = 0;
  let r = first;
  for (let p = base; p <= all; p++) {
    if (load<u8>(marks + p) != 0) {
      x0 |= load<u64>(r) ^ load<u64>(first);
      x1 |= load<u64>(r, 8) ^ load<u64>(first, 8);
      x2 |= load<u32>(r, 16) ^ load<u32>(first, 16);
      n++;
    }
    r += REC;
  }
  const d = body();
  store<u64>(d, x0);
  store<u64>(d, x1, 8);
  store<u32>(d, x2, 16);
  let mask: u32 = 0;
  for (let w = 0; w < 10; w++) mask |= (<u32>(load<u16>(d + (w << 1)) != 0)) << w;
  const alternative = targets < all && n == targets && mask == 0 ? 25 + 7 * (all - targets) : i32.MAX_VALUE;
  let m = 0; // included panels the table can carry
  let how = n > 0 && mask == 0 && n == all ? BROADCAST : UNICASTS;
  let bytes = PREPARE_BYTES * (how == BROADCAST ? 1 : n);
  let w0: usize = 0; // byte offset of the last carried word: TABLE_SKIP there means "left out"
  if (how != BROADCAST && n > 0) {
    if (mask == 0) mask = 1 << 7; // the same record on some panels: the delay word marks them
    w0 = <usize>((31 - clz(mask)) << 1);
    // in the table: included, and its last carried word can be told from the "left out" marker
    let p = base;
    let r = recs + <usize>p * REC + w0;
    do {
      const mark = load<u8>(marks + p);
      const carried = (<i32>(mark != 0)) & (<i32>(load<u16>(r) != TABLE_SKIP));
      store<u8>(marks + p, select<u8>(IN_TABLE, mark, carried));
      m += carried;
      r += REC;
    } while (++p <= all);
    // the tables' bytes counted by their packets, plus unicasts for the rest
    const viaTable = m == 0 ? bytes : tables(0, true, mask, w0) + PREPARE_BYTES * (1 + n - m);
    if (viaTable < bytes) {
      how = TABLES;
      bytes = viaTable;
    }
  }
  if (alternative < bytes) {
    forget();
    return -1;
  }
  if (how != UNICASTS) {
    if (how == TABLES) {
      while (load<u8>(marks + base) != IN_TABLE) base++;
      tables(load<u8>(recordAt(base)), false, mask, w0);
    }
    // the broadcast record: the first's, its carried words zero (each panel adds its entry)
    const b = body();
    memory.copy(b, recordAt(base), REC);
    for (let w = mask; w != 0; w &= w - 1) store<u16>(b + ((<usize>ctz(w)) << 1), 0);
    send(ADDR_BROADCAST, T_ANIM_PREPARE);
  }
  // the rest as unicasts (none when the table carries every record)
  if (how == UNICASTS || (how == TABLES && m < n))
    for (let p = 1; p <= all; p++) {
      const k = load<u8>(marks + p);
      if (k == 0 || (how == TABLES && k == IN_TABLE)) continue;
      memory.copy(body(), recordAt(p), REC);
      send(<u8>p, T_ANIM_PREPARE);
    }
  forget();
  return bytes;
}

/** Drops the included records unsent. */
export function forget(): void {
  memory.fill(marks + 1, 0, count);
}
