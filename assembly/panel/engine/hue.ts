// Hue on a 1536-step circle (six sectors of 256: red, yellow, green, cyan, blue, magenta at
// 0, 256, 512, 768, 1024, 1280). A colour keeps its largest channel M and smallest m; its hue
// decides which channel is the middle one and where it sits between m and M.
import { red, green, blue, rgb } from "./fixed";

export const HUE_TURN: u32 = 1536;

/** The colour of hue `h` (any u32, taken mod 1536) with largest channel M and smallest m. */
export function hueRgb(h: u32, M: u32, m: u32): u32 {
  h %= HUE_TURN;
  const d = M - m;
  const x = (d * (h & 255) + 128) >> 8; // how far the middle channel has moved within the sector
  const up = m + x;
  const down = M - x;
  switch (h >> 8) {
    case 0:
      return rgb(M, up, m);
    case 1:
      return rgb(down, M, m);
    case 2:
      return rgb(m, M, up);
    case 3:
      return rgb(m, down, M);
    case 4:
      return rgb(up, m, M);
  }
  return rgb(M, m, down);
}

/** The hue (0-1535) of a colour whose channels are not all equal (d = M - m > 0). */
export function hueOf(r: u32, g: u32, b: u32, M: u32, m: u32): u32 {
  const d = M - m;
  const half = d >> 1;
  if (r == M && b == m) return ((g - m) * 256 + half) / d;
  if (g == M && b == m) return 256 + ((M - r) * 256 + half) / d;
  if (g == M && r == m) return 512 + ((b - m) * 256 + half) / d;
  if (b == M && r == m) return 768 + ((M - g) * 256 + half) / d;
  if (b == M && g == m) return 1024 + ((r - m) * 256 + half) / d;
  return 1280 + ((M - b) * 256 + half) / d;
}

/** Rotates the hue of `c` by `delta` steps of 1536 a turn, keeping M and m; greys are unchanged. */
export function rotateHue(c: u32, delta: u32): u32 {
  const r = red(c);
  const g = green(c);
  const b = blue(c);
  const M = max(r, max(g, b));
  const m = min(r, min(g, b));
  if (M == m) return c;
  return hueRgb(hueOf(r, g, b, M, m) + delta, M, m);
}
