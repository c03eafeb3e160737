// Custom palettes in the host's store: one file per palette, key "palettes/<hex>", where <hex> is
// the lower-case hex of the UTF-8 bytes of the name case-folded (palette.ts foldCase). Palettes stored
// before names folded beyond ASCII (their key folds ASCII letters only) are moved to their key at boot
// (migrateLegacyKeys).
// - Injective on folded names (hex of bytes is), so two names share a file exactly when they are
//   equal case-insensitively, which is how names are unique (DECISIONS.md).
// - Only [0-9a-f] follows the prefix: no name can reach outside "palettes/" (no "/", no "..").
// - A name is at most 30 code points, at most 120 UTF-8 bytes, so a key is at most 249 bytes
//   (the store's limit is 255).
// The file holds the canonical document {"schemaVersion":1,"name":...,"stops":[[0,"#RRGGBB"],...]},
// written atomically. Reading one back runs the API's validation and checks that the name maps to
// the file's own key; anything else is "corrupt" and is reported, never trusted.
// Memory: a file is read into one static buffer and checked as it streams from there (json/stream.ts),
// and a listing is read a window at a time (256 B, freed after use); what one palette's check allocates
// is given back before the next (api/palettes.ts), so serving every palette does not add up.
import { host_store_read, host_store_list, host_store_write, host_store_delete } from "../host/imports";
import { openMemory, value, broken } from "../json/stream";
import { resetErrors, fail, validationError } from "../json/validate";
import { log, LOG_WARN } from "../util/log";
import { STORE_MISSING } from "../store/kv";
import { SCRATCH, PALETTE_FILE, PALETTE_FILE_CAP, PALETTE_KEY, PALETTE_CHECK } from "../rt/scratch";
import * as w from "../json/writer";
import { fillValues, STR_INTS, VALUES } from "../json/template";
import * as t from "../generated/text";
import { arenaTop, arenaBack } from "../rt/arena";
import { Palette, foldCase } from "./palette";
import { validatePalette, paletteName, packStops } from "./validate";
import { utf8Decode, utf8Encode } from "../util/utf8";
import { sameBytes } from "../util/names";

const PREFIX_LEN: u32 = 9;
/** Custom palettes that can be stored (every file under palettes/ counts). */
export const MAX_CUSTOM_PALETTES: i32 = 64;
/** Longest name in UTF-8 bytes: 30 code points of at most 4 bytes. */
const MAX_NAME_BYTES: u32 = 120;
/** Largest palette file accepted; the canonical form of the largest palette is about 420 bytes. */
const FILE_CAP = PALETTE_FILE_CAP;

export const P_OK: i32 = 0;
export const P_MISSING: i32 = -1;
export const P_IO_ERROR: i32 = -2;
export const P_CORRUPT: i32 = -4;

const prefixBytes = memory.data<u8>([0x70, 0x61, 0x6c, 0x65, 0x74, 0x74, 0x65, 0x73, 0x2f]); // "palettes/"
// In the shared scratch region (rt/scratch.ts), valid within one call of this file.
const keyBuf = SCRATCH + PALETTE_KEY; // the key being looked up
const checkBuf = SCRATCH + PALETTE_CHECK; // the key a stored document's name maps to
const fileBuf = SCRATCH + PALETTE_FILE;

// ---- keys -------------------------------------------------------------------------------------

/** Writes the key of `name` into dest: the hex of the UTF-8 bytes (as String.UTF8.encode makes them:
 * a lone surrogate is 3 bytes) of the name folded unit by unit (every fold is in the BMP and never
 * longer in UTF-8, and a surrogate folds to itself, so this is the fold of each code point); its
 * length, or 0 when the name is empty or longer than MAX_NAME_BYTES. `legacy`: ASCII letters fold
 * only (the keys of palettes stored before foldCase). */
function keyFromName(name: string, dest: usize, legacy: bool = false): u32 {
  const p = changetype<usize>(name);
  const n = name.length;
  const bytes = <u32>utf8Encode(p, n, 0);
  if (bytes - 1 >= MAX_NAME_BYTES) return 0;
  const folded = heap.alloc((<usize>n) << 1);
  for (let i = 0; i < n; i++) {
    const c = <u32>load<u16>(p + ((<usize>i) << 1));
    store<u16>(folded + ((<usize>i) << 1), legacy && c >= 0x80 ? c : foldCase(c));
  }
  memory.copy(dest, prefixBytes, PREFIX_LEN);
  // the fold's UTF-8 after the room of its hex, which is then written from the prefix on: the two
  // digits of byte i end before byte i + 1 is read
  const utf = dest + PREFIX_LEN + MAX_NAME_BYTES;
  const m = <u32>utf8Encode(folded, n, utf);
  for (let i: u32 = 0; i < m; i++) {
    const b = <u32>load<u8>(utf + i);
    const hi = b >> 4;
    const lo = b & 15;
    store<u16>(dest + PREFIX_LEN + (i << 1), (hi + (hi < 10 ? 0x30 : 0x57)) | ((lo + (lo < 10 ? 0x30 : 0x57)) << 8));
  }
  return PREFIX_LEN + (m << 1);
}

/** The store key of a palette name, or null when the name is too long or empty to exist. */
export function paletteKey(name: string): string | null {
  const k = keyFromName(name, keyBuf);
  return k == 0 ? null : utf8Decode(keyBuf, k);
}

/** The byte length of a palette name's store key, the key left for deleteKeyed (0 when the name is too
 * long or empty to exist). DELETE's key as bytes: no string made and encoded back. */
export function paletteKeyLength(name: string): u32 {
  return keyFromName(name, keyBuf);
}

/** Deletes the file under the key paletteKeyLength left (of `k` bytes): the store's code. */
export function deleteKeyed(k: u32): i32 {
  return host_store_delete(keyBuf, k);
}

// ---- reading ----------------------------------------------------------------------------------

/** Reads and checks the palette stored under a key. On P_OK its name and stops are palette/validate's
 * paletteName() and packStops() until the next read, and the file is at fileBuf (fileLength bytes).
 * The reason a file is corrupt is left in json/validate's validationError(). With `moving`, a valid
 * document whose name's key is another (left in checkBuf) gives that key's length instead of corrupt. */
function readAt(key: usize, keyLen: u32, moving: bool = false): i32 {
  resetErrors();
  const n = host_store_read(key, keyLen, 0, fileBuf, FILE_CAP + 1);
  if (n < 0) return n == STORE_MISSING ? P_MISSING : P_IO_ERROR;
  if (<u32>n > FILE_CAP) {
    fail("$", "larger than " + FILE_CAP.toString() + " bytes");
    return P_CORRUPT;
  }
  fileLength = <u32>n;
  openMemory(fileBuf, <u32>n); // checked as it streams from the buffer
  if (!validatePalette(value())) {
    if (broken) {
      resetErrors();
      fail("$", "not valid JSON");
    }
    return P_CORRUPT;
  }
  const k = keyFromName(paletteName(), checkBuf);
  if (k != keyLen || !sameBytes(checkBuf, key, k)) {
    if (moving) return <i32>k;
    fail("name", "does not match the file's key");
    return P_CORRUPT;
  }
  return P_OK;
}
/** The bytes of the file readAt read last. */
let fileLength: u32 = 0;

/** Reads the stored palette with this name (any casing); see readAt. */
export function readPaletteNamed(name: string): i32 {
  const k = keyFromName(name, keyBuf);
  if (k == 0) return P_MISSING;
  return readAt(keyBuf, k);
}

/** Whether a palette file exists under this name's key (without reading it): P_OK, P_MISSING or
 * P_IO_ERROR. Leaves the palette last read alone. */
export function paletteFileStatus(name: string): i32 {
  const k = keyFromName(name, keyBuf);
  if (k == 0) return P_MISSING;
  const n = host_store_read(keyBuf, k, 0, fileBuf, 1);
  if (n >= 0) return P_OK;
  return n == STORE_MISSING ? P_MISSING : P_IO_ERROR;
}

/** The stored palette with this name (any casing) as a Palette, or null when there is none or it
 * cannot be read. Reads through json/stream.ts: call it only when done with the document being read. */
export function loadPalette(name: string): Palette | null {
  const status = readPaletteNamed(name);
  if (status != P_OK) {
    if (status != P_MISSING) {
      if (status == P_CORRUPT) log(LOG_WARN, 'palettes: "' + name + '" is corrupt (' + validationError() + ")");
      else log(LOG_WARN, 'palettes: "' + name + '" is unreadable');
    }
    resetErrors(); // the caller's own validation reports the palette as not found
    return null;
  }
  return new Palette(paletteName(), packStops(), false);
}

// ---- boot: keys of the ASCII-only fold ------------------------------------------------------------

/** Moves each palette file whose key is its name's ASCII-only fold (stored before names folded beyond
 * ASCII) to its key, so every casing finds it. Only keys with a non-ASCII byte can differ; a file
 * whose new key is taken already stays where it is (and reads as corrupt), with a warning. */
export function migrateLegacyKeys(): void {
  // A move changes the list under its windows, so the walk starts over after each (rare: boot only).
  for (let moved = true; moved && openList();) {
    moved = false;
    const mark = arenaTop(); // what one file's check allocates is given back before the next
    while (!moved && nextKey()) {
      moved = migrateCurrent();
      arenaBack(mark);
    }
    closeList();
  }
  resetErrors();
}

/** Moves the file under the list's current key when it is a legacy key; whether it did. */
function migrateCurrent(): bool {
  const key = listPtr + keyAt;
  let wide = false;
  for (let i = PREFIX_LEN; i + 1 < keyLen && !wide; i += 2) wide = load<u8>(key + i) >= 0x38; // byte >= 0x80
  const k = wide ? readAt(key, keyLen, true) : 0; // the name's key, in checkBuf
  if (k <= 0) return false;
  const old = keyFromName(paletteName(), keyBuf, true);
  if (old != keyLen || !sameBytes(keyBuf, key, old)) return false; // not a legacy key: corrupt
  if (host_store_read(checkBuf, k, 0, keyBuf, 1) != STORE_MISSING) {
    log(LOG_WARN, "palettes: kept " + currentKey());
    return false;
  }
  return host_store_write(checkBuf, k, fileBuf, fileLength) == 0 && host_store_delete(key, keyLen) == 0;
}

// ---- listing ----------------------------------------------------------------------------------

/** The list is read in windows of this many bytes (host_store_list's offset): a store key is at most
 * 255 bytes, so a key and its newline always fit one. Holding 64 maximal keys at once (16 KB) would
 * not fit a one-page core's arena. */
const WINDOW: u32 = 256;
/** The window (one arena block while a list is open), the list offset of its first byte, its bytes. */
let listPtr: usize = 0;
let windowAt: u32 = 0;
let listLen: u32 = 0;
/** The list's full length, and where in the window the next key starts. */
let listTotal: u32 = 0;
let listPos: u32 = 0;
/** The key nextKey() found: listPtr + keyAt, keyLen bytes. */
export let keyAt: u32 = 0;
export let keyLen: u32 = 0;

/** Fills the window from list offset `at`; false on an I/O error. */
function fill(at: u32): bool {
  const n = host_store_list(prefixBytes, PREFIX_LEN, at, listPtr, WINDOW);
  if (n < 0) return false;
  listTotal = <u32>n;
  windowAt = at;
  listLen = at < listTotal ? min(listTotal - at, WINDOW) : 0;
  listPos = 0;
  return true;
}

/** Opens the list of keys under palettes/ (sorted by key, so by folded name); false on an I/O
 * error. Walk it with nextKey(), then closeList(). */
export function openList(): bool {
  closeList();
  listPtr = heap.alloc(WINDOW);
  if (fill(0)) return true;
  closeList();
  return false;
}

/** Steps to the next key of the open list; false at the end (or on an I/O error). */
export function nextKey(): bool {
  while (listPos < listLen || windowAt + listLen < listTotal) {
    const start = listPos;
    let end = start;
    while (end < listLen && load<u8>(listPtr + end) != 0x0a) end++;
    if (end == listLen && windowAt + listLen < listTotal) {
      // the key goes on past the window: read on from its start (a key longer than a window cannot be
      // stored; an I/O error ends the list too)
      if (start == 0 || !fill(windowAt + start)) return false;
      continue;
    }
    listPos = end + 1;
    if (end == start) continue;
    keyAt = start;
    keyLen = end - start;
    return true;
  }
  return false;
}

/** The current key of the list, as a string (for log messages). */
export function currentKey(): string {
  return utf8Decode(listPtr + keyAt, keyLen);
}

/** Reads the palette under the current key of the list; see readAt. */
export function readCurrent(): i32 {
  return readAt(listPtr + keyAt, keyLen);
}

export function closeList(): void {
  if (listPtr) heap.free(listPtr);
  listPtr = 0;
  windowAt = 0;
  listLen = 0;
  listTotal = 0;
  listPos = 0;
}

/** Files under palettes/, or -1 on an I/O error. */
export function countPalettes(): i32 {
  if (!openList()) return -1;
  let n = 0;
  while (nextKey()) n++;
  closeList();
  return n;
}

// ---- writing ----------------------------------------------------------------------------------

/** Writes a palette document in canonical form to the current writer sink (its head from
 * assembly/text/palette.txt). */
export function writePaletteDoc(name: string, stops: StaticArray<u32>): void {
  store<usize>(VALUES, changetype<usize>(name));
  fillValues(t.PALETTE, t.PALETTE_LENGTH, STR_INTS);
  for (let i = 0; i < stops.length; i++) {
    if (i > 0) w.byte(0x2c);
    w.byte(0x5b);
    w.int(unchecked(stops[i]) >> 24);
    w.byte(0x2c);
    w.color(unchecked(stops[i]) & 0xffffff);
    w.byte(0x5d);
  }
  w.raw("]}");
}

/** The canonical bytes of a palette document, for the store. */
export function canonicalBytes(name: string, stops: StaticArray<u32>): Array<u8> {
  w.beginCapture();
  writePaletteDoc(name, stops);
  return w.endCapture();
}
