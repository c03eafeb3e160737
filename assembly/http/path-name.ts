// A path segment as a name: a palette's, percent-encoded in the URL (api/routes.ts PALETTE; the
// router passes the path parameter, http/request.ts paramStart and paramLength).
import { hexDigit } from "../json/reader";
import { utf8Decode, utf8Bytes } from "../util/utf8";

/** The segment [p, p+n) as a name: percent-decoded
 * as UTF-8 in place ("Cœur%20%E2%9D%A4" → "Cœur ❤"); null when a "%" is not followed by two hex digits or the bytes
 * are not valid UTF-8 (strict: no overlong forms, no surrogates, nothing above U+10FFFF). "+" stays
 * "+" (paths are not form data); characters sent unencoded are taken as they are. */
export function pathName(p: usize, n: usize): string | null {
  let o: usize = 0;
  for (let i: usize = 0; i < n; i++) {
    let b = <i32>load<u8>(p + i);
    if (b == 0x25) {
      if (i + 2 >= n) return null;
      const hi = hexDigit(load<u8>(p + i + 1));
      const lo = hexDigit(load<u8>(p + i + 2));
      if (hi < 0 || lo < 0) return null;
      b = (hi << 4) | lo;
      i += 2;
    }
    store<u8>(p + o++, b);
  }
  // Valid when the bytes decode and encode back to themselves with no surrogate among them: the
  // lenient decoder (util/utf8.ts) reads anything, but only the shortest form of a character up to
  // U+10FFFF encodes back the same, and the encoder writes a lone surrogate (ED A0-BF ..) as its
  // bytes, so that lead is refused on its own.
  const s = utf8Decode(p, o);
  const e = changetype<usize>(utf8Bytes(s));
  if (<usize>changetype<ArrayBuffer>(e).byteLength != o) return null;
  for (let i: usize = 0; i < o; i++) {
    const c = load<u8>(p + i);
    if (c != load<u8>(e + i) || (c == 0xed && load<u8>(p + i + 1) >= 0xa0)) return null;
  }
  return s;
}
