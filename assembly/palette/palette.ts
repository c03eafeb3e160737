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

/**
 * Unicode simple case folding (CaseFolding.txt, status C and S) of one code point, for the scripts
 * palette names are likely to use: Basic Latin, Latin-1, Latin Extended-A, Latin Extended Additional,
 * Greek, Cyrillic, Armenian, the Kelvin, Ohm and Angstrom signs and fullwidth Latin. Any other code
 * point is its own fold (docs/decisions.md, "Palette names: case folding"). Every fold is in the BMP
 * and no longer in UTF-8 than the original.
 */
export function foldCase(c: u32): u32 {
  if (c < 0x80) return c >= 0x41 && c <= 0x5a ? c | 0x20 : c;
  if (c < 0x100) {
    if (c == 0xb5) return 0x3bc; // micro sign → μ
    return c >= 0xc0 && c <= 0xde && c != 0xd7 ? c + 0x20 : c;
  }
  if (c < 0x180) {
    // pairs: even upper/odd lower, except 0x139-0x148 and 0x179-0x17e (odd upper/even lower)
    if (c == 0x130 || c == 0x131 || c == 0x138 || c == 0x149) return c; // dotted/dotless I, kra, ŉ
    if (c == 0x178) return 0xff; // Ÿ
    if (c == 0x17f) return 0x73; // long s
    if ((c >= 0x139 && c <= 0x148) || (c >= 0x179 && c <= 0x17e)) return c & 1 ? c + 1 : c;
    return c & 1 ? c : c + 1;
  }
  if (c >= 0x370 && c < 0x400) {
    if (c == 0x386) return 0x3ac;
    if (c >= 0x388 && c <= 0x38a) return c + 37;
    if (c == 0x38c) return 0x3cc;
    if (c == 0x38e || c == 0x38f) return c + 63;
    if (c >= 0x391 && c <= 0x3ab && c != 0x3a2) return c + 32;
    if (c == 0x3c2) return 0x3c3; // final sigma
    return c;
  }
  if (c >= 0x400 && c < 0x530) {
    if (c < 0x410) return c + 80;
    if (c < 0x430) return c + 32;
    if (c == 0x4c0) return 0x4cf;
    if (c >= 0x4c1 && c <= 0x4ce) return c & 1 ? c + 1 : c;
    if ((c >= 0x460 && c <= 0x481) || (c >= 0x48a && c <= 0x4bf) || c >= 0x4d0) return c & 1 ? c : c + 1;
    return c;
  }
  if (c >= 0x531 && c <= 0x556) return c + 48; // Armenian
  if (c >= 0x1e00 && c <= 0x1eff) {
    if (c == 0x1e9b) return 0x1e61;
    if (c == 0x1e9e) return 0xdf; // capital sharp s → ß
    if ((c >= 0x1e00 && c <= 0x1e95) || c >= 0x1ea0) return c & 1 ? c : c + 1;
    return c;
  }
  if (c == 0x2126) return 0x3c9; // Ohm sign → ω
  if (c == 0x212a) return 0x6b; // Kelvin sign → k
  if (c == 0x212b) return 0xe5; // Angstrom sign → å
  if (c >= 0xff21 && c <= 0xff3a) return c + 32; // fullwidth A-Z
  return c;
}

/** Case-insensitive name comparison for palette names (foldCase, code unit by code unit: every fold
 * is in the BMP, so surrogate pairs compare exactly). */
export function sameName(a: string, b: string): bool {
  if (a.length != b.length) return false;
  for (let i = 0; i < a.length; i++) {
    if (foldCase(<u32>a.charCodeAt(i)) != foldCase(<u32>b.charCodeAt(i))) return false;
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
