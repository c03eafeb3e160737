// Blend modes: how a colour layer combines with the accumulator below it, channel by channel
// (a below, b the layer, both 0-255). See docs/panel-engine.md for the formulas.
import { B_ADD, B_MAX, B_MULTIPLY, B_SCREEN, B_DARKEN, B_OVERLAY, B_DIFFERENCE, B_SUBTRACT } from "./constants";
import { red, green, blue, rgb } from "./fixed";

/** One channel of `mode`; opaque (and anything unknown) takes the layer. */
export function blendChannel(a: u32, b: u32, mode: u8): u32 {
  switch (mode) {
    case B_ADD:
      return min<u32>(a + b, 255);
    case B_MAX:
      return max(a, b);
    case B_MULTIPLY:
      return (a * b + 127) / 255;
    case B_SCREEN:
      return 255 - ((255 - a) * (255 - b) + 127) / 255;
    case B_DARKEN:
      return min(a, b);
    case B_OVERLAY:
      return a < 128 ? (2 * a * b + 127) / 255 : 255 - (2 * (255 - a) * (255 - b) + 127) / 255;
    case B_DIFFERENCE:
      return a > b ? a - b : b - a;
    case B_SUBTRACT:
      return a > b ? a - b : 0;
  }
  return b;
}

/** Composites `layer` over `below` with blend `mode` (already resolved from "default"). */
export function blendRgb(below: u32, layer: u32, mode: u8): u32 {
  if (mode <= 1) return layer; // opaque
  return rgb(
    blendChannel(red(below), red(layer), mode),
    blendChannel(green(below), green(layer), mode),
    blendChannel(blue(below), blue(layer), mode),
  );
}
