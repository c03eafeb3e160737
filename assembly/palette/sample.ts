// Palette sampling, shared by the panel engine and (later) the controller: pure functions over
// packed stops, no allocation. A stop is (position << 24) | 0xRRGGBB; positions strictly increase.

/**
 * The colour at `pos` (0-255) of the `count` stops at `stops` (u32 each). Before the first stop
 * the first colour, after the last stop the last colour; between two stops each channel is
 * interpolated linearly and rounded half up: (c0 * (p1 - pos) + c1 * (pos - p0) + span / 2) / span.
 * No stops give black.
 */
export function samplePalette(stops: usize, count: u32, pos: u32): u32 {
  if (count == 0) return 0;
  let prev = load<u32>(stops);
  if (pos <= prev >>> 24) return prev & 0xffffff;
  for (let i: u32 = 1; i < count; i++) {
    const next = load<u32>(stops + ((<usize>i) << 2));
    const p1 = next >>> 24;
    if (pos <= p1) return mixStops(prev, next, pos - (prev >>> 24), p1 - (prev >>> 24));
    prev = next;
  }
  return prev & 0xffffff;
}

/** samplePalette over the first `count` entries of a StaticArray of stops. */
export function samplePaletteArray(stops: StaticArray<u32>, count: u32, pos: u32): u32 {
  return samplePalette(changetype<usize>(stops), min<u32>(count, <u32>stops.length), pos);
}

/** Channel-wise a + (b - a) * x / span, rounded; 0 < x <= span. */
function mixStops(a: u32, b: u32, x: u32, span: u32): u32 {
  const y = span - x;
  const half = span >> 1;
  const r = (((a >> 16) & 0xff) * y + ((b >> 16) & 0xff) * x + half) / span;
  const g = (((a >> 8) & 0xff) * y + ((b >> 8) & 0xff) * x + half) / span;
  const c = ((a & 0xff) * y + (b & 0xff) * x + half) / span;
  return (r << 16) | (g << 8) | c;
}
