// Integer colour maths shared by the engine: 8-bit channels packed 0xRRGGBB, Q16 envelopes and
// 0-255 amounts. Every function is pure and rounds half up.
import { ONE } from "./constants";

export function red(c: u32): u32 {
  return (c >> 16) & 0xff;
}
export function green(c: u32): u32 {
  return (c >> 8) & 0xff;
}
export function blue(c: u32): u32 {
  return c & 0xff;
}
export function rgb(r: u32, g: u32, b: u32): u32 {
  return (r << 16) | (g << 8) | b;
}

/** a + (b - a) * e / 65536 for one channel: (a * (ONE - e) + b * e + 32768) >> 16. */
export function mixQ16(a: u32, b: u32, e: u32): u32 {
  return (a * (ONE - e) + b * e + 32768) >> 16;
}

/** mixQ16 per channel. */
export function mixRgbQ16(a: u32, b: u32, e: u32): u32 {
  if (e == 0) return a;
  if (e >= ONE) return b;
  return rgb(mixQ16(red(a), red(b), e), mixQ16(green(a), green(b), e), mixQ16(blue(a), blue(b), e));
}

/** a + (b - a) * v / 255 for one channel: (a * (255 - v) + b * v + 127) / 255. */
export function mix255(a: u32, b: u32, v: u32): u32 {
  return (a * (255 - v) + b * v + 127) / 255;
}

/** An envelope as an amount 0-255: (e * 255 + 32768) >> 16. */
export function q16To255(e: u32): u32 {
  return (e * 255 + 32768) >> 16;
}
