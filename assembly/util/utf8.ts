// UTF-16 strings to UTF-8 bytes and back: the core's own pair, in place of the standard library's
// String.UTF8 (three loops and two wrappers, ~830 B of code). Byte for byte what String.UTF8 did with
// its defaults (WTF-8, not null-terminated), including text that is not valid Unicode: a surrogate not
// in a pair is written as its own three bytes, and invalid UTF-8 is read as String.UTF8.decodeUnsafe
// read it (assembly/tests/utf8.spec.ts compares the two).

/** Writes the `len` UTF-16 units at `p` as UTF-8 at `buf` and returns the byte count; with `buf` 0
 * only counts. A lead surrogate followed by a trail is one four-byte character; any other surrogate
 * is written as three bytes (WTF-8). */
export function utf8Encode(p: usize, len: i32, buf: usize): usize {
  const end = p + ((<usize>len) << 1);
  let o: usize = 0;
  while (p < end) {
    let c = <u32>load<u16>(p);
    p += 2;
    if ((c & 0xfc00) == 0xd800 && p < end) {
      const d = <u32>load<u16>(p);
      if ((d & 0xfc00) == 0xdc00) {
        c = 0x10000 + ((c & 0x3ff) << 10) + (d & 0x3ff);
        p += 2;
      }
    }
    // (only counting: written to a scratch word)
    o += utf8Put(c, buf ? buf + o : counted);
  }
  return o;
}

const counted = memory.data(4);

/** Writes code point `c` (any value below 0x110000, surrogates too) as UTF-8 at `at`, 1-4 bytes, and
 * returns how many: the one encoder of the core (this file, the JSON writer and tokenizer). */
export function utf8Put(c: u32, at: usize): u32 {
  // n continuation bytes; the lead's marker is byte n of 0xf0e0c000 (none for ASCII)
  const n: u32 = c < 0x80 ? 0 : c < 0x800 ? 1 : c < 0x10000 ? 2 : 3;
  store<u8>(at, ((0xf0e0c000 >> (n << 3)) & 0xff) | (c >> (6 * n)));
  for (let i: u32 = 1; i <= n; i++) store<u8>(at + i, 0x80 | ((c >> (6 * (n - i))) & 0x3f));
  return n + 1;
}

/** `s` as UTF-8 in a new buffer (String.UTF8.encode(s)). */
export function utf8Bytes(s: string): ArrayBuffer {
  const p = changetype<usize>(s);
  const n = utf8Encode(p, s.length, 0);
  const buf = __new(n, idof<ArrayBuffer>());
  utf8Encode(p, s.length, buf);
  return changetype<ArrayBuffer>(buf);
}

/** The `len` UTF-8 bytes at `p` as a string. As String.UTF8.decodeUnsafe: a lead of 110xxxxx takes one
 * continuation byte, 1110xxxx two, any other byte with its high bit set three; continuation bytes give
 * their low six bits unchecked; a sequence cut short by the end ends the text. */
export function utf8Decode(p: usize, len: usize): string {
  const end = p + len;
  const s = __new(len << 1, idof<String>()); // at most one unit per byte
  let o = s;
  while (p < end) {
    let c = <u32>load<u8>(p++);
    if (c & 0x80) {
      const n: usize = (c & 0xe0) == 0xc0 ? 1 : (c & 0xf0) == 0xe0 ? 2 : 3;
      if (p + n > end) break;
      c &= 0x3f >> (<u32>n);
      for (let i: usize = 0; i < n; i++) c = (c << 6) | ((<u32>load<u8>(p++)) & 0x3f);
      if (c >= 0x10000) {
        c -= 0x10000;
        store<u16>(o, (c >> 10) | 0xd800);
        o += 2;
        c = (c & 0x3ff) | 0xdc00;
      }
    }
    store<u16>(o, c);
    o += 2;
  }
  return changetype<string>(__renew(s, o - s));
}
