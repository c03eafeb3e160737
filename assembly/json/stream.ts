// A strict JSON tokenizer that reads its document as it streams, forward only, a WINDOW at a time:
// from the request being dispatched (host_http_read), from a stored file (host_store_read) or from
// memory. Nothing of the document is kept but the scalar just read: a string decoded into `text`
// (at most TEXT_CAP bytes kept; its length, characters and control characters counted whole), a
// number's text (NUMBER_CAP bytes) and value. The caller walks the document with value(), member()
// and element(), so memory does not grow with the document. Same rules, refusal reasons and byte
// offsets as json/reader.ts (RFC 8259, valid UTF-8, nesting at most MAX_DEPTH), except duplicate
// keys, which only the caller can see (its tables: json/check-fields.ts, scene/object-reader.ts); a refusal is kept in the
// reader's errorOffset and errorReason().
import { host_http_read, host_store_read } from "../host/imports";
import { names } from "../util/names";
import { utf8Put } from "../util/utf8";
import {
  J_NULL,
  J_FALSE,
  J_TRUE,
  J_NUMBER,
  J_STRING,
  J_ARRAY,
  J_OBJECT,
  MAX_DEPTH,
  E_VALUE,
  E_KEY,
  E_COLON,
  E_SEPARATOR,
  E_DUPLICATE,
  E_NUMBER,
  E_ESCAPE,
  E_CONTROL,
  E_UTF8,
  E_LONG,
  E_DEPTH,
  E_TRAILING,
  E_END,
  refuse,
  hexDigit,
  scaled,
  utf8Length,
  utf8Valid,
} from "./reader";

const WINDOW: u32 = 256;
const win = memory.data(WINDOW);
/** Decoded string bytes kept: a scene's longest valid string is a name of 64 characters. */
export const TEXT_CAP: u32 = 256;
export const text = memory.data(TEXT_CAP + 4); // (+ room for the bytes of a character past TEXT_CAP)
/** A number's characters kept, the most a value may have. */
export const NUMBER_CAP: u32 = 64;
export const numberText = memory.data(NUMBER_CAP);
const MAX_LENGTH: u32 = 0x1fff; // as json/reader.ts

const FROM_HTTP: u32 = 0;
const FROM_STORE: u32 = 1;
const FROM_MEMORY: u32 = 2;
/** What is read (read once per window: in static memory, not WAMR globals). */
@final
@unmanaged
class Source {
  from: u32; // FROM_*
  handle: usize; // the request, or the stored file's key
  length: u32; // the key's, or the memory's
  origin: usize; // where the source starts: a store offset or a memory address
}
const source = changetype<Source>(memory.data(offsetof<Source>()));

let wp: u32 = 0; // next byte of the window
let we: u32 = 0; // end of the window
let base: u32 = 0; // document offset of the window's first byte
let drained = false; // the source has nothing more

/** The document's first refusal (the reader's errorOffset and errorReason() say where and why). */
export let broken = false;

/** The scalar last read: its kind (J_*), where it starts, a string's text, a number's value. */
export let kind: u32 = 0; // J_NULL
export let startedAt: u32 = 0;
export let textLength: u32 = 0; // bytes kept in `text` (at most TEXT_CAP)
export let textBytes: u32 = 0; // the whole string's UTF-8 bytes
export let textChars: u32 = 0; // its characters (code points)
export let textControl = false; // it holds U+0000-U+001F or U+007F-U+009F
export let textEscaped = false;
export let numberLength: u32 = 0; // bytes kept in numberText
export let numberValue: f64 = 0;
export let numberInteger = false; // no fraction or exponent

// Containers open: bit d of `objects` set when level d is an object, of `fresh` while it has no
// member yet. `pending`: a key or a comma was read, its value is next.
export let depth = 0;
let objects: u32 = 0;
let fresh: u32 = 0;
let pending = false;

function reset(): void {
  capturing = false;
  echoed = false;
  echoPaused = false;
  wp = 0;
  we = 0;
  base = 0;
  drained = false;
  broken = false;
  depth = 0;
  objects = 0;
  fresh = 0;
  pending = false;
}

/** Reads the body of request `r` (being dispatched). */
export function openRequest(r: u32): void {
  reset();
  source.from = FROM_HTTP;
  source.handle = r;
}

/** Reads stored file `k` from `offset` on. */
export function openStored(k: usize, kLength: u32, offset: u32): void {
  reset();
  source.from = FROM_STORE;
  source.handle = k;
  source.length = kLength;
  source.origin = offset;
}

/** Reads [p, p+n). */
export function openMemory(p: usize, n: u32): void {
  reset();
  source.from = FROM_MEMORY;
  source.origin = p;
  source.length = n;
}

/** The document offset of the next byte. */
export function offset(): u32 {
  return base + wp;
}

// Echo: while it is on, the source bytes of each scalar value go to `sink` as they are scanned (a
// window's piece at a time), so that a copy of the document keeps them as written (escapes and all)
// without holding them (scene/canonical.ts). The caller turns it off for a value it rewrites.
let echoOn = false;
let capturing = false;
let captureFrom: u32 = 0;
/** Whether the scalar last read went to the sink. */
export let echoed = false;
let sink: (p: usize, n: u32) => void = noSink;
function noSink(_p: usize, _n: u32): void {}

/** Sends each scalar value's source bytes to `to` from now on (with `on` false: to nothing). */
export function setEcho(on: bool, to: (p: usize, n: u32) => void): void {
  echoOn = on;
  if (on) sink = to;
}

/** Pauses or resumes the echo set by setEcho (a value the caller rewrites). */
export function pauseEcho(paused: bool): void {
  echoPaused = paused;
}
let echoPaused = false;

function startCapture(): void {
  capturing = echoOn && !echoPaused;
  captureFrom = wp;
}

function endCapture(): void {
  if (capturing && wp > captureFrom) sink(win + captureFrom, wp - captureFrom);
  echoed = capturing;
  capturing = false;
}

function fill(): bool {
  if (drained) return false;
  if (capturing) {
    if (we > captureFrom) sink(win + captureFrom, we - captureFrom);
    captureFrom = 0;
  }
  base += we;
  wp = 0;
  let n: i32 = 0;
  const from = source.from;
  const length = source.length;
  if (from == FROM_HTTP) n = host_http_read(<u32>source.handle, win, WINDOW);
  else if (from == FROM_STORE) n = host_store_read(source.handle, length, <u32>source.origin + base, win, WINDOW);
  else {
    n = <i32>min(WINDOW, length - min(length, base));
    memory.copy(win, source.origin + base, <usize>n);
  }
  if (n <= 0) {
    drained = true;
    we = 0;
    return false;
  }
  we = <u32>n;
  return true;
}

/** The next byte, or -1 at the end (or after a refusal). */
function peek(): i32 {
  if (wp == we && !fill()) return -1;
  return <i32>load<u8>(win + wp);
}

/** Refuses the document at offset `at` (E_END when nothing is left there). */
function failAt(at: u32, why: u8): void {
  if (!broken) {
    broken = true;
    refuse(at, why != E_TRAILING && at == offset() && peek() < 0 ? E_END : why);
  }
  drained = true;
  capturing = false;
  wp = we = 0;
  depth = 0;
  pending = false;
}

function fail(why: u8): void {
  failAt(offset(), why);
}

function skipSpace(): i32 {
  while (true) {
    // within the window without a call per byte (the interpreter pays for calls)
    while (wp < we) {
      const c = <i32>load<u8>(win + wp);
      if (c != 0x20 && c != 0x0a && c != 0x0d && c != 0x09) return c;
      wp++;
    }
    if (!fill()) return -1;
  }
}

/** Opens a container (an object when `isObject`) and returns its kind `k`. */
function open(isObject: bool, k: u32): u32 {
  kind = k;
  if (depth >= MAX_DEPTH) {
    fail(E_DEPTH);
    return k;
  }
  const bit: u32 = 1 << depth;
  if (isObject) objects |= bit;
  else objects &= ~bit;
  fresh |= bit;
  depth++;
  wp++;
  return k;
}

// WAMR's classic interpreter (the device's) pays for every call, and for every `if` and branch out
// of a block whose end its small cache has lost: it scans the bytecode for the end. So the paths
// taken for every token are short and flat here (the next byte read in place, plain strings
// scanned in one loop, no call per byte; numbers, for size, go through one scanner that works out
// their value as it reads them), and the rare paths come after the common
// one has returned (Binaryen inlines a function called from one place: inlined, its returns become
// branches over its whole body, so a rare path inlined in front of a common one would be scanned).

/** The next byte that is not white space, or -1 at the end: in place when it is at hand. (A static
 * method, so that it can be inlined: prettier reads no decorator on a function.) */
@final
@unmanaged
class Next {
  @inline
  static byte(): i32 {
    // (at `we` this reads the byte after the window's data, whose value is not used)
    const c = select<i32>(<i32>load<u8>(win + wp), -1, wp < we);
    return c > 0x20 ? c : skipSpace();
  }
}

/**
 * Reads the start of the next value: a container's opening bracket (then member() or element()
 * until they return false), or a whole scalar. Returns its kind; J_NULL after a refusal.
 */
export function value(): u32 {
  pending = false;
  const c = Next.byte();
  startedAt = base + wp;
  kind = J_NULL;
  echoed = false;
  if (c == 0x7b) return open(true, J_OBJECT);
  if (c == 0x5b) return open(false, J_ARRAY);
  startCapture();
  if (c == 0x22) {
    readString();
    return endScalar();
  }
  scalar(c);
  return endScalar();
}

function endScalar(): u32 {
  endCapture();
  if (broken) kind = J_NULL;
  return kind;
}

/** A scalar other than a string, its first byte `c`. */
function scalar(c: i32): void {
  if (c == 0x74) return literal(LITERALS, J_TRUE);
  if (c == 0x66) return literal(LITERALS + 5, J_FALSE);
  if (c == 0x6e) return literal(LITERALS + 11, J_NULL);
  if (c != 0x2d && <u32>(c - 0x30) > 9) return fail(E_VALUE);
  readNumber();
}

/** Past the comma before a container's next item: true when one is next; false when the container
 * closed (`closer`) or on a refusal. */
function item(closer: i32): bool {
  if (depth == 0) return false;
  const bit: u32 = 1 << (depth - 1);
  const c = Next.byte();
  if (c == closer) return close(bit);
  if (fresh & bit) fresh &= ~bit;
  else {
    if (c != 0x2c) return failed(E_SEPARATOR);
    wp++;
  }
  return true;
}

/** The next member of the object just opened or being read: true with its key in `text` (its
 * value is next); false when the object closed. */
export function member(): bool {
  if (!item(0x7d)) return false;
  if (Next.byte() != 0x22) return failed(E_KEY);
  keyAt = base + wp;
  readString();
  if (broken) return false;
  if (Next.byte() != 0x3a) return failed(E_COLON);
  wp++;
  pending = true;
  return true;
}

/** The next element of the array just opened or being read: true when one is next; false when
 * the array closed. */
export function element(): bool {
  if (!item(0x5d)) return false;
  pending = true;
  return true;
}

function failed(why: u8): bool {
  fail(why);
  return false;
}

/** Where the key member() last read starts (its opening quote). */
export let keyAt: u32 = 0;

/** Refuses the key member() just read: it repeats one of its object. */
export function duplicateKey(): void {
  failAt(keyAt, E_DUPLICATE);
}

function close(bit: u32): bool {
  fresh &= ~bit;
  wp++;
  depth--;
  return false;
}

/** Skips the rest of the value whose start value() has just read. */
export function skipRest(k: u32): void {
  if (k != J_OBJECT && k != J_ARRAY) return;
  const d = depth - 1;
  skipTo(d);
}

/** Reads past a whole value. */
export function skipValue(): void {
  skipRest(value());
}

/** Reads on until `d` containers are open (a value due is read past first). */
export function skipTo(d: i32): void {
  if (pending) skipValue();
  while (depth > d && !broken) {
    if (objects & (1 << (depth - 1))) {
      while (member()) skipValue();
    } else {
      while (element()) skipValue();
    }
  }
}

/** After the root value: only white space may follow. */
export function finish(): void {
  if (broken) return;
  if (skipSpace() >= 0) fail(E_TRAILING);
}

/** The literals, a name list (util/names.ts): true at 0, false at 5, null at 11. */
const LITERALS = names("true false null");

/** The literal whose name-list entry is at `e`, of kind `k`. */
function literal(e: usize, k: u32): void {
  const n = <u32>load<u8>(e);
  for (let i: u32 = 1; i <= n; i++) {
    if (peek() != <i32>load<u8>(e + i)) return fail(E_VALUE);
    wp++;
  }
  kind = k;
}

/** Keeps a number byte and moves past it. */
function keep(c: i32): void {
  if (numberLength < NUMBER_CAP) store<u8>(numberText + numberLength, <u8>c);
  numberLength++;
  wp++;
}

// A number's syntax (RFC 8259) as states: 0 start, 1 after '-', 2 a leading 0, 3 integer digits,
// 4 after '.', 5 fraction digits, 6 after 'e', 7 after the exponent's sign, 8 exponent digits; by
// the next byte's class (0, 1-9, '-', '+', '.', 'e' or 'E', other), the next state or 9: the end.
// It may end in 2, 3, 5 or 8 (ACCEPT).
// prettier-ignore
const NUMBER = memory.data<u8>([
  2, 3, 1, 9, 9, 9, 9, // start
  2, 3, 9, 9, 9, 9, 9, // -
  9, 9, 9, 9, 4, 6, 9, // 0
  3, 3, 9, 9, 4, 6, 9, // integer digits
  5, 5, 9, 9, 9, 9, 9, // .
  5, 5, 9, 9, 9, 6, 9, // fraction digits
  8, 8, 7, 7, 9, 9, 9, // e
  8, 8, 9, 9, 9, 9, 9, // sign
  8, 8, 9, 9, 9, 9, 9, // exponent digits
]);
const ACCEPT = (1 << 2) | (1 << 3) | (1 << 5) | (1 << 8);

function readNumber(): void {
  numberLength = 0;
  let state: u32 = 0;
  // its value (a number of more than NUMBER_CAP bytes is no value, below): the digits as an integer, the fraction's digits counted down, the exponent
  let mantissa: f64 = 0;
  let exp = 0;
  let e = 0;
  let minus = false;
  while (true) {
    const c = peek();
    const d = <u32>(c - 0x30);
    // the byte's class, by selects (no block per byte for the interpreter)
    const cls = select<u32>(
      d != 0 ? 1 : 0,
      select<u32>(
        2,
        select<u32>(3, select<u32>(4, select<u32>(5, 6, (c | 0x20) == 0x65), c == 0x2e), c == 0x2b),
        c == 0x2d,
      ),
      d <= 9,
    );
    const next = <u32>load<u8>(NUMBER + state * 7 + cls);
    if (next == 9) break;
    if (numberLength < NUMBER_CAP) {
      if (next == 8) {
        if (e < 100000) e = e * 10 + <i32>d;
      } else if (next == 7) minus = c == 0x2d;
      else if (d <= 9) {
        mantissa = mantissa * 10 + <f64>d;
        exp -= <i32>(next == 5);
      }
    }
    keep(c);
    state = next;
  }
  if (((1 << state) & ACCEPT) == 0) return fail(E_NUMBER);
  kind = J_NUMBER;
  // A longer number is well-formed JSON but no field's value: it reads as NaN, no integer, which
  // every field's check refuses with a 422 naming its path (not read from its first NUMBER_CAP
  // bytes: an exponent past them would be lost, and no field needs more than 17 significant digits).
  numberInteger = state <= 3 && numberLength <= NUMBER_CAP;
  if (numberLength > NUMBER_CAP) {
    numberValue = NaN;
    return;
  }
  const v = scaled(mantissa, exp + (minus ? -e : e));
  numberValue = load<u8>(numberText) == 0x2d ? -v : v;
}

/** A code point into `text` as UTF-8 (its bytes past TEXT_CAP land in the spare room, not kept). */
function putCode(cp: u32): void {
  textChars++;
  if (cp < 0x20 || (cp >= 0x7f && cp <= 0x9f)) textControl = true;
  const n = utf8Put(cp, text + textLength);
  textLength = min(textLength + n, TEXT_CAP);
  textBytes += n;
}

function hex4(): i32 {
  let v = 0;
  for (let k = 0; k < 4; k++) {
    const d = hexDigit(peek());
    if (d < 0) return -1;
    wp++;
    v = (v << 4) | d;
  }
  return v;
}

/** A string (key or value) from its opening quote, decoded into `text`. Most are plain ASCII that
 * ends within the window: they are scanned and copied at once, with no call per byte and no blocks
 * for WAMR's classic interpreter to look up; the rest (escapes, other characters, the window's
 * end, a refusal) are read again from their start by readStringSlow. */
function readString(): void {
  let p = wp + 1;
  let a: u32 = 0;
  while (p < we) {
    a = <u32>load<u8>(win + p);
    // a quote, a backslash, a control character or a byte beyond ASCII
    if ((a == 0x22) | (a == 0x5c) | (a - 0x20 >= 0x5f)) break;
    p++;
  }
  if ((a == 0x22) & (p < we)) {
    const n = p - wp - 1;
    memory.copy(text, win + wp + 1, min(n, TEXT_CAP));
    textLength = min(n, TEXT_CAP);
    textBytes = n;
    textChars = n;
    textControl = false;
    textEscaped = false;
    wp = p + 1;
    kind = J_STRING;
    return;
  }
  readStringSlow();
}

/** The general case, a byte at a time (readString read the plain ones at once). */
function readStringSlow(): void {
  const quote = offset();
  wp++;
  textLength = 0;
  textBytes = 0;
  textChars = 0;
  textControl = false;
  textEscaped = false;
  while (true) {
    const c = peek();
    if (c < 0) return fail(E_END);
    const at = offset();
    if (c == 0x22) {
      wp++;
      break;
    }
    if (c == 0x5c) {
      textEscaped = true;
      wp++;
      const e = peek();
      wp++;
      if (e == 0x75) {
        let u = hex4();
        let ok = u >= 0 && (u < 0xdc00 || u > 0xdfff);
        if (ok && u >= 0xd800 && u < 0xdc00) {
          ok = peek() == 0x5c;
          wp++;
          ok = ok && peek() == 0x75;
          wp++;
          const low = ok ? hex4() : -1;
          ok = low >= 0xdc00 && low <= 0xdfff;
          u = 0x10000 + ((u - 0xd800) << 10) + (low - 0xdc00);
        }
        if (!ok) return failAt(at, E_ESCAPE);
        putCode(<u32>u);
      } else {
        let v = -1;
        if (e == 0x22 || e == 0x5c || e == 0x2f) v = e;
        else if (e == 0x62) v = 8;
        else if (e == 0x66) v = 12;
        else if (e == 0x6e) v = 10;
        else if (e == 0x72) v = 13;
        else if (e == 0x74) v = 9;
        if (v < 0) return failAt(at, E_ESCAPE);
        putCode(<u32>v);
      }
      continue;
    }
    if (c < 0x20) return fail(E_CONTROL);
    wp++;
    if (c < 0x80) {
      putCode(<u32>c);
      continue;
    }
    // a multi-byte sequence (json/reader.ts's rules): its lead byte says how long, its value must
    // need that length; read across windows
    const n = utf8Length(<u32>c);
    if (n == 0) return failAt(at, E_UTF8);
    let cp = (<u32>c) & (0x7f >> n);
    for (let k: u32 = 1; k < n; k++) {
      const b = peek();
      if (b < 0 || (b & 0xc0) != 0x80) return failAt(at, E_UTF8);
      wp++;
      cp = (cp << 6) | ((<u32>b) & 0x3f);
    }
    if (!utf8Valid(cp, n)) return failAt(at, E_UTF8);
    putCode(cp);
  }
  // the source bytes between the quotes, for the length limit
  if (offset() - quote - 2 > MAX_LENGTH) return failAt(quote, E_LONG);
  kind = J_STRING;
}

/** Whether the string just read is exactly the ASCII `s`. */
export function textIs(s: string): bool {
  const n = s.length;
  if (<u32>n != textBytes) return false;
  for (let i = 0; i < n; i++) if (<u32>load<u8>(text + i) != <u32>s.charCodeAt(i)) return false;
  return true;
}

/** The number just read as an integer in [lo, hi], or `fallback`. */
export function intIn(lo: i32, hi: i32, fallback: i32): i32 {
  if (kind != J_NUMBER || !numberInteger || numberValue < <f64>lo || numberValue > <f64>hi) return fallback;
  return <i32>numberValue;
}
