// The core's memory manager: an arena, with no collector. Everything allocated while an export runs
// is given back at once when the outermost export returns (arenaLeave): the core keeps nothing it
// allocates across exports, so no collector is needed, memory use is the worst single export's and
// cannot fragment, and an allocation is a few instructions. What must live on is allocated before
// the arena's floor (module start-up and core_init, arenaStart) or kept in fixed buffers (keepString).
//
// Why not `--runtime <this file>`: asc treats any runtime given by path as the incremental one and
// then instruments every call for a shadow stack. So asconfig.json selects the `stub` runtime (no
// collector, no visitors, no write barriers) and points its allocation helpers here with global
// aliases (`use: __alloc=assembly/rt/arena/arenaAlloc`, ...); the stub's own bump allocator, which
// cannot go back to a mark, is then never referenced and not compiled in.
//
// Block layout, as AssemblyScript's other runtimes (its std library reads the object header): a
// 4-byte size before each block, then for an object (arenaNew) the 16-byte object header. A static
// object (a literal) has no block: only its rtId and rtSize are its own, the bytes before them belong
// to what precedes it (scripts/static-data-transform.mjs). So the size and gc words are read only of a
// block this file allocated: free and realloc act on a block that ends at the top, and the standard
// library renews only an Array's buffer, which keeps a block even when static.
import { BLOCK, BLOCK_OVERHEAD, OBJECT, OBJECT_OVERHEAD } from "~lib/rt/common";
import { host_panic, host_log } from "../host/imports";

/** Blocks start at 8-byte boundaries (f64 tables); AssemblyScript's own runtimes use 16 (v128). */
const ALIGN_MASK: usize = 7;
/** Debug builds (asserts on: the debug target, `node scripts/build.mjs --poison`) fill memory the
 * arena gives back with this byte, so a reference kept past its export reads garbage at once (a
 * string of 2.7 G characters, a pointer out of memory) and the black-box tests fail loudly. */
export const POISON: u8 = 0xa5;

function blockStart(at: usize): usize {
  return ((at + BLOCK_OVERHEAD + ALIGN_MASK) & ~ALIGN_MASK) - BLOCK_OVERHEAD;
}

/** Where the next block goes (0 until the first allocation: module start-up may allocate before this
 * file's globals would be initialised). */
let top: usize = 0;
/** What a reset goes back to (floor: the end of start-up's blocks, raised while an HTTP body is held),
 * the start-up floor (base: arenaStart) and the exports running (depth: more than one only if a host
 * import called back into the core), in static memory rather than in globals (each costs WAMR about
 * 52 B of device heap); top, read by every allocation, stays a global. */
@final
@unmanaged
class Marks {
  floor: usize;
  base: usize;
  depth: i32;
}
const marks = changetype<Marks>(memory.data(offsetof<Marks>()));

const FULL = memory.data<u8>([0x61, 0x72, 0x65, 0x6e, 0x61, 0x20, 0x66, 0x75, 0x6c, 0x6c]); // "arena full"

/** A block must end within memory, which is never grown: one page (asconfig.json), docs/device-memory.md. */
function fits(end: usize): void {
  if (end > (<usize>memory.size()) << 16) {
    host_panic(FULL, 10);
    unreachable();
  }
}

export function arenaAlloc(size: usize): usize {
  if (top == 0) top = marks.floor = marks.base = blockStart(__heap_base);
  const block = top;
  const ptr = block + BLOCK_OVERHEAD;
  const end = blockStart(ptr + size);
  if (end < ptr) unreachable(); // wrapped: far larger than memory
  fits(end);
  changetype<BLOCK>(block).mmInfo = end - ptr;
  top = end;
  if (!ASC_NO_ASSERT && end > high) high = end;
  return ptr;
}

export function arenaRealloc(ptr: usize, size: usize): usize {
  const block = changetype<BLOCK>(ptr - BLOCK_OVERHEAD);
  const have = block.mmInfo;
  if (ptr + have == top) {
    // the last block grows or shrinks in place
    const end = blockStart(ptr + size);
    fits(end);
    block.mmInfo = end - ptr;
    top = end;
    if (!ASC_NO_ASSERT && end > high) high = end;
    return ptr;
  }
  if (size <= have) return ptr;
  const moved = arenaAlloc(size); // arrays grow their capacity geometrically themselves
  memory.copy(moved, ptr, have);
  return moved;
}

/** Only the last block's memory comes back at once; the rest at the end of the export. */
export function arenaFree(ptr: usize): void {
  const block = changetype<BLOCK>(ptr - BLOCK_OVERHEAD);
  if (ptr + block.mmInfo == top && ptr > marks.floor) top = changetype<usize>(block);
}

export function arenaNew(size: usize, id: u32): usize {
  const ptr = arenaAlloc(OBJECT_OVERHEAD + size);
  const object = changetype<OBJECT>(ptr - BLOCK_OVERHEAD);
  object.gcInfo = 0;
  object.gcInfo2 = 0;
  object.rtId = id;
  object.rtSize = <u32>size;
  return ptr + OBJECT_OVERHEAD;
}

export function arenaRenew(oldPtr: usize, size: usize): usize {
  const ptr = arenaRealloc(oldPtr - OBJECT_OVERHEAD, OBJECT_OVERHEAD + size) + OBJECT_OVERHEAD;
  changetype<OBJECT>(ptr - OBJECT_OVERHEAD - BLOCK_OVERHEAD).rtSize = <u32>size;
  return ptr;
}

/** The end of core_init: what start-up allocated stays for good (the reset floor). */
export function arenaStart(): void {
  marks.base = top;
  marks.floor = top;
  if (!ASC_NO_ASSERT) memory.fill(top, POISON, ((<usize>memory.size()) << 16) - top);
}

/** An export begins. */
export function arenaEnter(): void {
  marks.depth++;
}

/** An export ends: the outermost one gives back everything above the floor. */
export function arenaLeave(): void {
  if (--marks.depth > 0) return;
  if (!ASC_NO_ASSERT) {
    if (high > peak) reportPeak(high);
    high = marks.floor;
    memory.fill(marks.floor, POISON, top - marks.floor);
  }
  top = marks.floor;
}

// Debug builds log each new high-water mark (info level), to measure the worst workloads: the
// highest top of any export, blocks given back before it returned included.
let peak: usize = 0;
let high: usize = 0;
const line = memory.data(64);

function putNumber(at: usize, n: usize): usize {
  let digits: usize = 1;
  for (let v = n; v >= 10; v /= 10) digits++;
  for (let i = digits; i > 0; i--) {
    store<u8>(at + i - 1, <u8>(0x30 + (n % 10)));
    n /= 10;
  }
  return at + digits;
}

function putText(at: usize, s: string): usize {
  for (let i = 0; i < s.length; i++) store<u8>(at + i, <u8>s.charCodeAt(i));
  return at + s.length;
}

function reportPeak(at: usize): void {
  peak = at;
  let p = putText(line, "arena peak ");
  p = putNumber(p, peak - marks.base);
  p = putText(p, " B, start-up ");
  p = putNumber(p, marks.base - __heap_base);
  p = putText(p, " B, static ");
  p = putNumber(p, __heap_base);
  p = putText(p, " B");
  host_log(2, line, <u32>(p - line));
}

/** The outermost export is running and has allocated: what it leaves behind points into memory
 * about to be given back. */
export function arenaUsed(): bool {
  return marks.depth == 1 && top != marks.floor;
}

/** Where the next block goes (the end of what is allocated). */
export function arenaTop(): usize {
  return top;
}

/** Gives back what was allocated since `mark` (an arenaTop() of the same export): for an export that
 * does one bounded piece of work after another (MQTT publishes at connect), so their garbage does not
 * add up. Nothing allocated since the mark may be used after. */
export function arenaBack(mark: usize): void {
  if (mark < marks.floor || mark > top) return;
  if (!ASC_NO_ASSERT) memory.fill(mark, POISON, top - mark);
  top = mark;
}

/** Keeps `s`, the last string made, and gives back what was allocated since `mark` (an arenaTop() of
 * the same export) before it: the partial strings of a message built by concatenation. `s` moves
 * down to `mark`; nothing else allocated since the mark may be used after. */
export function arenaKeepLast(mark: usize, s: string): string {
  const old = changetype<usize>(s);
  const n = (<usize>s.length) << 1;
  if (mark < marks.floor || mark > old || old + n > top) return s;
  const end = top;
  top = mark;
  // the new block's headers lie below the old string's bytes (at or above mark): the copy is a move
  const p = arenaNew(n, idof<string>());
  memory.copy(p, old, n);
  if (!ASC_NO_ASSERT && end > top) memory.fill(top, POISON, end - top);
  return changetype<string>(p);
}

/** Holds everything below `end` across exports (an HTTP body between core_http_begin and its
 * dispatch); 0 lets the floor go back to start-up's. */
export function arenaHold(end: usize): void {
  const base = marks.base;
  marks.floor = end > base ? end : base;
}

/** A string that outlives its export: `slot` is a string of `capacity` characters allocated at
 * start-up (keepSlot); `s` is copied into it (cut to its capacity: callers validate lengths) and the
 * slot is returned. Reading the slot's old value after this reads the new one. */
export function keepString(slot: string, s: string): string {
  const p = changetype<usize>(slot);
  if (changetype<usize>(s) == p) return slot;
  const cap = changetype<BLOCK>(p - OBJECT_OVERHEAD - BLOCK_OVERHEAD).mmInfo - OBJECT_OVERHEAD;
  const n = min<usize>((<usize>s.length) << 1, cap & ~1);
  memory.copy(p, changetype<usize>(s), n);
  changetype<OBJECT>(p - OBJECT_OVERHEAD - BLOCK_OVERHEAD).rtSize = <u32>n;
  return slot;
}

/** A start-up string slot of `capacity` characters for keepString (empty until kept). */
export function keepSlot(capacity: i32): string {
  const p = arenaNew((<usize>capacity) << 1, idof<string>());
  changetype<OBJECT>(p - OBJECT_OVERHEAD - BLOCK_OVERHEAD).rtSize = 0;
  return changetype<string>(p);
}

/** A copy of `s` in the export's memory, for a caller that must keep a value a kept slot is about
 * to be given (keepString overwrites the slot in place). */
export function cloneString(s: string): string {
  const n = (<usize>s.length) << 1;
  const p = arenaNew(n, idof<string>());
  memory.copy(p, changetype<usize>(s), n);
  return changetype<string>(p);
}
