// The byte streams of the compiled scene form (docs/playback.md, "The compiled form"). The writer
// fills a fixed buffer with a window of what is put (the rest is only counted), so compiling needs no
// memory of its own; the reader reads a stored file in CHUNK-byte windows, a form in memory (a flat
// animation's), or a compile done again for each FORM_CAP-byte window (a scene played from its JSON:
// once for all but the longest forms). Reading
// past the end gives zeros and sets `overrun`; nothing read ever needs more memory than the window.
import { host_store_read } from "../host/imports";
import { chunk, CHUNK, MAX_SCENE_FILE } from "../scene/store";
import { SCRATCH, FORM, FORM_CAP } from "../rt/scratch";
import { utf8Decode } from "../util/utf8";
import { hashBytes } from "../util/hash";

// ---- writer -------------------------------------------------------------------------------------

/** Where the window goes, and how many bytes have been put in all. */
export let out: usize = 0;
export let outLength: u32 = 0;
let outCap: u32 = 0;
let outFrom: u32 = 0;

/** Bytes [from, from+cap) of what is put next go to [p, p+cap); outLength counts them all. Between
 * compiles the window is empty (writeInto(0, 0, 0)): the selector check puts its compiled form
 * whenever it runs. */
export function writeInto(p: usize, cap: u32, from: u32): void {
  out = p;
  outCap = cap;
  outFrom = from;
  outLength = 0;
}

export function put(b: u32): void {
  const i = outLength++ - outFrom; // before the window: wraps to a large value
  if (i < outCap) store<u8>(out + i, <u8>b);
}

/** Puts v (a byte) over the byte put at stream offset `at`, when it is in the window. */
export function patch8(at: u32, v: u32): void {
  const i = at - outFrom;
  if (i < outCap) store<u8>(out + i, <u8>v);
}

/** n bytes at p. */
export function putBytes(p: usize, n: u32): void {
  bytes(p, n, true);
}

/** The n bytes at p put (`writing`), or read into p: one loop for both (putBytes, nextBytes, a
 * compiled step's bytes). */
export function bytes(p: usize, n: u32, writing: bool): void {
  for (let i: u32 = 0; i < n; i++) {
    if (writing) put(load<u8>(p + i));
    else store<u8>(p + i, <u8>next());
  }
}

// ---- reader -------------------------------------------------------------------------------------

let rp: usize = 0; // the next byte
let rend: usize = 0; // the end of the window
let rkey: usize = 0; // the file read, or 0: `regenerate` writes each window (none for memory)
let rkeyLength: u32 = 0;
let roffset: u32 = 0; // where what is not yet in the window starts
let regenerate: () => void = nothing;
/** A read went past the end (or the file failed), or what was read is malformed. */
export let overrun = false;

function nothing(): void {}

/** What is being read is not a compiled form (a selector or value out of its range). */
export function malformed(): void {
  overrun = true;
}

/** Reads the stored file `key` (its bytes stay valid while it is read) from `offset` on. */
export function readFile(key: usize, keyLength: u32, offset: u32): void {
  regenerate = nothing;
  rp = 0;
  rend = 0;
  rkey = key;
  rkeyLength = keyLength;
  roffset = offset;
  overrun = false;
}

/** Reads the bytes [p, p+n) (a form written into memory). */
export function readMemory(p: usize, n: u32): void {
  readFile(0, 0, 0); // (past the bytes, `nothing` writes no next window)
  rp = p;
  rend = p + n;
}

/** Reads what `write` puts, from `offset` on: it is called again for each window. */
export function readWritten(write: () => void, offset: u32): void {
  readFile(0, 0, offset);
  regenerate = write;
}

export function next(): u32 {
  if (rp == rend) {
    // the next window
    let got: i32 = 0;
    let at = chunk;
    if (rkey) got = host_store_read(rkey, rkeyLength, roffset, chunk, CHUNK);
    else {
      // a compile's window: the compiled form's buffer (rt/scratch.ts F)
      at = SCRATCH + FORM;
      writeInto(at, FORM_CAP, roffset);
      regenerate();
      got = <i32>min(FORM_CAP, outLength - min(outLength, roffset));
      writeInto(0, 0, 0);
    }
    if (got <= 0) {
      overrun = true;
      return 0;
    }
    roffset += <u32>got;
    rp = at;
    rend = at + got;
  }
  return <u32>load<u8>(rp++);
}

/** n bytes to p. */
export function nextBytes(p: usize, n: u32): void {
  bytes(p, n, false);
}

const TEXT_CAP: u32 = 128; // a palette name: 30 characters
const text = memory.data(TEXT_CAP);

/** A length byte and that many UTF-8 bytes, as a string. */
export function nextText(): string {
  const n = min(next(), TEXT_CAP);
  nextBytes(text, n);
  return utf8Decode(text, n);
}

export function next32(): u32 {
  nextBytes(word, 4);
  return load<u32>(word);
}

export function nextF64(): f64 {
  nextBytes(word, 8);
  return load<f64>(word);
}

const word = memory.data(8);

export function putF64(v: f64): void {
  store<f64>(word, v);
  putBytes(word, 8);
}

// ---- hashing ------------------------------------------------------------------------------------

/** The hash of stored file `key` from `offset` on (each CHUNK-byte window the reader fetches, whole),
 * continuing `h`; `overrun` when it is longer than a scene file can be. A read that fails ends it
 * as the file's end does: what it hashed matches nothing. */
export function hashFile(key: usize, keyLength: u32, offset: u32, h: u64): u64 {
  readFile(key, keyLength, offset);
  while (true) {
    next();
    if (overrun) {
      overrun = false;
      break;
    }
    if (roffset - offset > MAX_SCENE_FILE + 512) {
      overrun = true;
      break;
    }
    h = hashBytes(h, chunk, <u32>(rend - chunk));
    rp = rend;
  }
  return h;
}
