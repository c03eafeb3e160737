// Palettes: up to 16 stops, each packed as (position << 24) | 0xRRGGBB. The built-ins live in the
// firmware image; `Base colors` is synthesized from the appearance base colours.

export const BASE_COLORS_NAME = "Base colors";
export const MAX_STOPS = 16;

export class Palette {
  constructor(
    public name: string,
    public stops: StaticArray<u32>,
    public builtin: bool,
  ) {}
}

/** Case-insensitive name comparison for palette names (ASCII letters fold). */
export function sameName(a: string, b: string): bool {
  if (a.length != b.length) return false;
  for (let i = 0; i < a.length; i++) {
    let x = a.charCodeAt(i);
    let y = b.charCodeAt(i);
    if (x >= 0x41 && x <= 0x5a) x |= 0x20;
    if (y >= 0x41 && y <= 0x5a) y |= 0x20;
    if (x != y) return false;
  }
  return true;
}

export function basePalette(base: StaticArray<u32>): Palette {
  const stops = new StaticArray<u32>(3);
  stops[0] = base[0];
  stops[1] = (128 << 24) | base[1];
  stops[2] = (255 << 24) | base[2];
  return new Palette(BASE_COLORS_NAME, stops, true);
}
