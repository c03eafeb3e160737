// http/request.ts pathName: a path segment is a name when its bytes, percent-decoded, are strict
// UTF-8. It checks that by a round trip through the core's codec; here it is held to a plain reader
// of the rules (shortest forms only, no surrogates, nothing above U+10FFFF), over every sequence
// of up to four bytes drawn from the bytes at the rules' edges.
import { pathName } from "../http/path-name";

/** The reference: whether [p, p+n) is strict UTF-8, read sequence by sequence. */
function strict(p: usize, n: u32): bool {
  for (let i: u32 = 0; i < n;) {
    const c = <u32>load<u8>(p + i);
    if (c < 0x80) {
      i++;
      continue;
    }
    const len: u32 = c >= 0xc2 && c <= 0xdf ? 2 : c >= 0xe0 && c <= 0xef ? 3 : c >= 0xf0 && c <= 0xf4 ? 4 : 0;
    if (len == 0 || i + len > n) return false;
    let cp = c & (0x7f >> len);
    for (let k: u32 = 1; k < len; k++) {
      const b = <u32>load<u8>(p + i + k);
      if ((b & 0xc0) != 0x80) return false;
      cp = (cp << 6) | (b & 0x3f);
    }
    const least: u32 = len == 2 ? 0x80 : len == 3 ? 0x800 : 0x10000;
    if (cp < least || cp > 0x10ffff || (cp >= 0xd800 && cp <= 0xdfff)) return false;
    i += len;
  }
  return true;
}

// prettier-ignore
const TAIL: u8[] = [0x41, 0x80, 0x8f, 0x90, 0x9f, 0xa0, 0xbf, 0xc2]; // after a 4-byte lead
// prettier-ignore
const EDGES: u8[] = [
  0x00, 0x25, 0x41, 0x7f, 0x80, 0x8f, 0x90, 0x9f, 0xa0, 0xbf, 0xc0, 0xc1, 0xc2, 0xdf, 0xe0, 0xe1,
  0xec, 0xed, 0xee, 0xef, 0xf0, 0xf1, 0xf4, 0xf5, 0xf7, 0xf8, 0xff,
];

const PARAM = memory.data(32);

/** pathName of the ASCII `s`. */
function param(s: string): string | null {
  for (let i = 0; i < s.length; i++) store<u8>(PARAM + i, s.charCodeAt(i));
  return pathName(PARAM, s.length);
}

describe("pathName", () => {
  it("takes exactly the strict UTF-8 of up to four bytes", () => {
    const buf = heap.alloc(8);
    let checked = 0;
    for (let n = 1; n <= 4; n++) {
      // every sequence of EDGES up to three bytes; of four, an EDGES byte then three of TAIL
      let count = 1;
      for (let k = 0; k < n; k++) count *= n == 4 && k > 0 ? TAIL.length : EDGES.length;
      for (let x = 0; x < count; x++) {
        let v = x;
        for (let k = 0; k < n; k++) {
          const from = n == 4 && k > 0 ? TAIL : EDGES;
          const b = from[v % from.length];
          store<u8>(buf + k, b == 0x25 ? 0x41 : b); // no "%": not decoded here
          v /= from.length;
        }
        const want = strict(buf, n);
        const got = pathName(buf, n);
        if ((got !== null) != want) expect<string>(x.toString() + "/" + n.toString()).toBe("agreed");
        checked++;
      }
    }
    expect<i32>(checked).toBe(27 + 27 * 27 + 27 * 27 * 27 + 27 * 8 * 8 * 8);
  });

  it("decodes percent escapes first, and refuses a broken one", () => {
    expect<string | null>(param("C%C5%93ur%20%E2%9D%A4")).toBe("Cœur ❤");
    expect<string | null>(param("%ED%A0%80")).toBeNull(); // a surrogate
    expect<string | null>(param("%C1%81")).toBeNull(); // an overlong "A"
    expect<string | null>(param("%F4%90%80%80")).toBeNull(); // above U+10FFFF
    expect<string | null>(param("%zz")).toBeNull();
    expect<string | null>(param("a%2")).toBeNull();
    expect<string | null>(param("a+b")).toBe("a+b");
  });
});
