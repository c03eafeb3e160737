// Modifiers: layers without a colour of their own that transform the accumulator below them by
// an amount v 0-255. At its identity value each one returns its input unchanged, exactly.
import { A_DIM, A_DESATURATE, A_HUE, A_INVERT, A_BRIGHTEN, A_SATURATE } from "./constants";
import { red, green, blue, rgb, mix255 } from "./fixed";
import { rotateHue } from "./hue";

/** dim: scale toward black, 255 unchanged. Channel: (c * v + 127) / 255. */
export function dim(c: u32, v: u32): u32 {
  if (v >= 255) return c;
  return rgb(mix255(0, red(c), v), mix255(0, green(c), v), mix255(0, blue(c), v));
}

/** The grey of the same luma: (77 r + 150 g + 29 b + 128) >> 8. */
export function luma(c: u32): u32 {
  return (77 * red(c) + 150 * green(c) + 29 * blue(c) + 128) >> 8;
}

/** desaturate: cross-fade from the grey of equal luma (v = 0) to the colour (v = 255). */
export function desaturate(c: u32, v: u32): u32 {
  if (v >= 255) return c;
  const y = luma(c);
  return rgb(mix255(y, red(c), v), mix255(y, green(c), v), mix255(y, blue(c), v));
}

/** hue: rotate by v / 256 of a turn (v * 6 steps of the 1536-step hue circle). */
export function hue(c: u32, v: u32): u32 {
  if (v == 0) return c;
  return rotateHue(c, v * 6);
}

/** invert: cross-fade toward 255 - c; 255 fully inverted. */
export function invert(c: u32, v: u32): u32 {
  if (v == 0) return c;
  const r = red(c);
  const g = green(c);
  const b = blue(c);
  return rgb(mix255(r, 255 - r, v), mix255(g, 255 - g, v), mix255(b, 255 - b, v));
}

/** brighten: cross-fade toward white; 255 is white. */
export function brighten(c: u32, v: u32): u32 {
  if (v == 0) return c;
  return rgb(mix255(red(c), 255, v), mix255(green(c), 255, v), mix255(blue(c), 255, v));
}

/**
 * saturate: cross-fade toward the fully saturated colour of the same hue and largest channel M,
 * whose channels are (c - m) * M / (M - m) rounded (m the smallest channel); greys stay grey.
 */
export function saturate(c: u32, v: u32): u32 {
  if (v == 0) return c;
  const r = red(c);
  const g = green(c);
  const b = blue(c);
  const M = max(r, max(g, b));
  const m = min(r, min(g, b));
  const d = M - m;
  if (d == 0) return c;
  const h = d >> 1;
  const tr = ((r - m) * M + h) / d;
  const tg = ((g - m) * M + h) / d;
  const tb = ((b - m) * M + h) / d;
  return rgb(mix255(r, tr, v), mix255(g, tg, v), mix255(b, tb, v));
}

/** Applies modifier `animates` with amount `v` to the accumulator `c`. */
export function applyModifier(c: u32, animates: u8, v: u32): u32 {
  switch (animates) {
    case A_DIM:
      return dim(c, v);
    case A_DESATURATE:
      return desaturate(c, v);
    case A_HUE:
      return hue(c, v);
    case A_INVERT:
      return invert(c, v);
    case A_BRIGHTEN:
      return brighten(c, v);
    case A_SATURATE:
      return saturate(c, v);
  }
  return c;
}
