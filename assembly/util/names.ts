// Name lists: the core's fixed names (JSON keys, enum values such as step types and blend modes,
// route patterns) as one packed UTF-8 table each, in static memory: a name is its byte length (one
// byte, 1-255) then its bytes; a 0 ends the list. Compared straight against the bytes the JSON
// tokenizer or a URL gives, and written straight into an answer: no UTF-16 string, no header, no
// conversion, and an index is the name's number in its table.
//
// In the source a list is `names("a b c")`, its names separated by single spaces. The build's transform
// (scripts/messages-transform.mjs) turns that call into `memory.data<u8>([1, 97, 1, 98, 1, 99, 0])`, so
// the list costs its bytes and nothing at start-up; without the transform (as-pect) `names` packs the
// list when it runs, with the same bytes.

import { utf8Decode, utf8Bytes } from "./utf8";

/** A name list's address (see above). */
export type Names = usize;

/** The packed list of the space-separated `list` (@names: the transform packs a literal at build time). */
export function names(list: string): Names {
  const bytes = utf8Bytes(list);
  const n = bytes.byteLength;
  const src = changetype<usize>(bytes);
  const out = heap.alloc(<usize>n + 2);
  let w = out + 1; // the length byte of the name being copied
  let len: u32 = 0;
  for (let i = 0; i <= n; i++) {
    const c: u32 = i < n ? load<u8>(src + i) : 0x20;
    if (c == 0x20) {
      store<u8>(w, <u8>len);
      w += len + 1;
      len = 0;
    } else store<u8>(w + 1 + len++, <u8>c);
  }
  store<u8>(w, 0);
  return out + 1;
}

/** The number of names in `list`. */
export function nameCount(list: Names): i32 {
  let i = 0;
  for (let p = list; load<u8>(p) != 0; p += 1 + <usize>load<u8>(p)) i++;
  return i;
}

/** Where name `i` of `list` starts (its length byte); the list's end (a 0) past the last one. */
export function nameEntry(list: Names, i: i32): usize {
  let p = list;
  while (i-- > 0 && load<u8>(p) != 0) p += 1 + <usize>load<u8>(p);
  return p;
}

/** The byte length of name `i` of `list` (0 past the last one). */
export function nameLength(list: Names, i: i32): u32 {
  return load<u8>(nameEntry(list, i));
}

/** The first byte of name `i` of `list`. */
export function nameBytes(list: Names, i: i32): usize {
  return nameEntry(list, i) + 1;
}

/** The entry (util/names.ts nameEntry) of the name nameIndex last found. */
export let foundEntry: usize = 0;

/** The index of the bytes [p, p+n) among the names of `list`, or -1 (its entry in foundEntry). A
 * name's length and first byte are compared in one test before the rest (the scene pass looks every
 * key up here). */
export function nameIndex(list: Names, p: usize, n: u32): i32 {
  // (a name's length byte and first byte, as a u16 load of its entry gives them; no name is longer
  // than 255 bytes, and none is empty: an empty text matches nothing)
  const first = select<u32>(n | ((<u32>load<u8>(p)) << 8), 0, n < 256);
  let e = list;
  let k = 0;
  for (let w = <u32>load<u16>(e); (w & 0xff) != 0; w = <u32>load<u16>(e)) {
    if (w == first) {
      if (sameBytes(e + 2, p + 1, n - 1)) {
        foundEntry = e;
        return k;
      }
    }
    e += 1 + (w & 0xff);
    k++;
  }
  return -1;
}

/** Whether the `n` bytes at `a` are those at `b` (names, store keys, topics; a loop of its own:
 * memory.compare's inlined loop is larger). */
export function sameBytes(a: usize, b: usize, n: u32): bool {
  for (let i: usize = 0; i < n; i++) if (load<u8>(a + i) != load<u8>(b + i)) return false;
  return true;
}

/** Whether strings `a` and `b` hold the same text: their byte lengths (the word before each), then
 * their UTF-16 bytes. Ours instead of `==`, whose ~lib compare (with its null checks) is larger. */
export function sameText(a: string, b: string): bool {
  const pa = changetype<usize>(a);
  const n = load<u32>(pa - 4);
  return n == load<u32>(changetype<usize>(b) - 4) && sameBytes(pa, changetype<usize>(b), n);
}

/** Name `i` of `list` as a string (messages). */
export function nameString(list: Names, i: i32): string {
  const e = nameEntry(list, i);
  return utf8Decode(e + 1, load<u8>(e));
}

/** The first `count` names of `list` as "a, b, c" (the accepted fields of a message). */
export function nameList(list: Names, count: i32 = 255): string {
  // each name takes at most twice its entry's bytes (its length byte becomes ", ")
  const buf = heap.alloc((nameEntry(list, count) - list) << 1);
  let at = buf;
  let e = list;
  for (let k = 0; k < count && load<u8>(e) != 0; k++) {
    if (k > 0) {
      store<u16>(at, 0x202c); // ", "
      at += 2;
    }
    const len = <usize>load<u8>(e);
    memory.copy(at, e + 1, len);
    at += len;
    e += 1 + len;
  }
  return utf8Decode(buf, at - buf);
}
