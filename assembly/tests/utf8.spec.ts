// The core's UTF-8 codec (util/utf8.ts) against the standard library's String.UTF8 it replaced:
// the same bytes and the same strings, for valid text and for what is not (lone surrogates, invalid
// and cut-short UTF-8).
import { utf8Encode, utf8Bytes, utf8Decode } from "../util/utf8";

/** The bytes of `b` as hex, to compare buffers as strings. */
function hex(p: usize, n: usize): string {
  let s = "";
  for (let i: usize = 0; i < n; i++) s += (<u32>load<u8>(p + i)).toString(16) + " ";
  return s;
}

/** Checks utf8Encode and utf8Bytes give String.UTF8.encode's bytes for `s`. */
function sameEncoding(s: string): void {
  const std = String.UTF8.encode(s);
  const n = utf8Encode(changetype<usize>(s), s.length, 0);
  expect<usize>(n).toBe(<usize>std.byteLength);
  expect<usize>(n).toBe(<usize>String.UTF8.byteLength(s));
  const buf = heap.alloc(n + 1);
  store<u8>(buf + n, 0xaa);
  expect<usize>(utf8Encode(changetype<usize>(s), s.length, buf)).toBe(n);
  expect<u8>(load<u8>(buf + n)).toBe(0xaa); // nothing written past the count
  expect<string>(hex(buf, n)).toBe(hex(changetype<usize>(std), std.byteLength));
  const own = utf8Bytes(s);
  expect<string>(hex(changetype<usize>(own), own.byteLength)).toBe(hex(changetype<usize>(std), std.byteLength));
}

/** Checks utf8Decode gives String.UTF8.decodeUnsafe's string for `bytes`. */
function sameDecoding(bytes: u8[]): void {
  const p = heap.alloc(bytes.length + 1);
  for (let i = 0; i < bytes.length; i++) store<u8>(p + i, bytes[i]);
  const std = String.UTF8.decodeUnsafe(p, bytes.length);
  const own = utf8Decode(p, bytes.length);
  expect<i32>(own.length).toBe(std.length);
  expect<string>(hex(changetype<usize>(own), own.length << 1)).toBe(hex(changetype<usize>(std), std.length << 1));
}

describe("utf8Encode", () => {
  it("writes ASCII, 2-, 3- and 4-byte characters as String.UTF8 does", () => {
    sameEncoding("");
    sameEncoding("scene-1 \u0000\u007f");
    sameEncoding("é\u0080\u07ff");
    sameEncoding("€\u0800\uffff\ud7ff\ue000");
    sameEncoding("😀\ud800\udc00\udbff\udfff");
    expect<string>(hex(changetype<usize>(utf8Bytes("a😀é")), 7)).toBe("61 f0 9f 98 80 c3 a9 ");
  });

  it("writes a lone surrogate as its own three bytes (WTF-8), as String.UTF8.encode's default", () => {
    sameEncoding("\ud800");
    sameEncoding("a\udc00b");
    sameEncoding("\udc00\ud800"); // a trail then a lead: two lone surrogates
    sameEncoding("x\ud83d"); // a lead at the end
    sameEncoding("\ud83d\ud83d\ude00");
    expect<string>(hex(changetype<usize>(utf8Bytes("\ud800")), 3)).toBe("ed a0 80 ");
  });
});

describe("utf8Decode", () => {
  it("reads ASCII, 2-, 3- and 4-byte characters as String.UTF8 does", () => {
    sameDecoding([]);
    sameDecoding([0x61, 0x00, 0x7f]);
    sameDecoding([0xc3, 0xa9, 0xdf, 0xbf]);
    sameDecoding([0xe2, 0x82, 0xac, 0xef, 0xbf, 0xbf]);
    sameDecoding([0xf0, 0x9f, 0x98, 0x80, 0xf4, 0x8f, 0xbf, 0xbf]);
    expect<string>(utf8Decode(changetype<usize>(utf8Bytes("a😀é€")), 10)).toBe("a😀é€");
  });

  it("reads encoded lone surrogates back", () => {
    sameDecoding([0xed, 0xa0, 0x80, 0x61, 0xed, 0xb0, 0x80]);
    expect<string>(utf8Decode(changetype<usize>(utf8Bytes("\ud800a")), 4)).toBe("\ud800a");
  });

  it("reads invalid UTF-8 as String.UTF8.decodeUnsafe did", () => {
    sameDecoding([0x80, 0x41, 0x42, 0x43]); // a continuation byte as a lead takes three more
    sameDecoding([0xbf, 0x80, 0x80, 0x80, 0x61]);
    sameDecoding([0xff, 0xff, 0xff, 0xff]); // beyond U+10FFFF
    sameDecoding([0xf8, 0x88, 0x80, 0x80]);
    sameDecoding([0xc0, 0x80, 0xe0, 0x80, 0x80]); // overlong forms
    sameDecoding([0xf0, 0x80, 0x80, 0x80]);
    sameDecoding([0xc3, 0x41, 0xe2, 0x28, 0xa1]); // continuation bytes that are not
    sameDecoding([0x61, 0xc3]); // cut short at the end
    sameDecoding([0x61, 0xe2, 0x82]);
    sameDecoding([0x61, 0xf0, 0x9f, 0x98]);
    sameDecoding([0xe2]);
  });
});
