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

const EVEN: u16 = 0x7fff; // pairs: an even upper case, then its lower case
const ODD: u16 = 0x7ffe; // pairs: an odd upper case, then its lower case

/**
 * Unicode simple case folding (CaseFolding.txt, status C and S) of the scripts palette names are
 * likely to use: Basic Latin, Latin-1, Latin Extended-A, Latin Extended Additional, Greek, Cyrillic,
 * Armenian, the Kelvin, Ohm and Angstrom signs and fullwidth Latin. A row: first and last code
 * point, and the fold: a difference (an i16), or EVEN / ODD pairs; the first row that holds a code
 * point decides (exceptions come before their range), and a code point in none is its own fold
 * (docs/decisions.md, "Palette names: case folding"). Every fold is in the BMP and no longer in
 * UTF-8 than the original.
 */
// prettier-ignore
const FOLDS = memory.data<u16>([
  0xb5, 0xb5, 0x3bc - 0xb5, // micro sign → μ
  0xd7, 0xd7, 0, // ×
  0xc0, 0xde, 32,
  0x130, 0x131, 0, // dotted and dotless I
  0x138, 0x138, 0, // kra
  0x149, 0x149, 0, // ŉ
  0x178, 0x178, <u16>(0xff - 0x178), // Ÿ
  0x17f, 0x17f, <u16>(0x73 - 0x17f), // long s
  0x139, 0x148, ODD,
  0x179, 0x17e, ODD,
  0x100, 0x17f, EVEN,
  0x386, 0x386, 0x3ac - 0x386,
  0x388, 0x38a, 37,
  0x38c, 0x38c, 0x3cc - 0x38c,
  0x38e, 0x38f, 63,
  0x3a2, 0x3a2, 0,
  0x391, 0x3ab, 32,
  0x3c2, 0x3c2, 1, // final sigma
  0x400, 0x40f, 80,
  0x410, 0x42f, 32,
  0x4c0, 0x4c0, 0x4cf - 0x4c0,
  0x4c1, 0x4ce, ODD,
  0x460, 0x481, EVEN,
  0x48a, 0x4bf, EVEN,
  0x4d0, 0x52f, EVEN,
  0x531, 0x556, 48, // Armenian
  0x1e9b, 0x1e9b, <u16>(0x1e61 - 0x1e9b),
  0x1e9e, 0x1e9e, <u16>(0xdf - 0x1e9e), // capital sharp s → ß
  0x1e00, 0x1e95, EVEN,
  0x1ea0, 0x1eff, EVEN,
  0x2126, 0x2126, <u16>(0x3c9 - 0x2126), // Ohm sign → ω
  0x212a, 0x212a, <u16>(0x6b - 0x212a), // Kelvin sign → k
  0x212b, 0x212b, <u16>(0xe5 - 0x212b), // Angstrom sign → å
  0xff21, 0xff3a, 32, // fullwidth A-Z
]);
const FOLD_ROWS = 34;

/** The simple case fold of code point `c` (FOLDS; ASCII without the table). */
export function foldCase(c: u32): u32 {
  if (c < 0x80) return c >= 0x41 && c <= 0x5a ? c | 0x20 : c;
  for (let i = 0; i < FOLD_ROWS; i++) {
    const row = FOLDS + <usize>i * 6;
    if (c < <u32>load<u16>(row) || c > <u32>load<u16>(row, 2)) continue;
    const d = load<u16>(row, 4);
    if (d == EVEN) return c & 1 ? c : c + 1;
    if (d == ODD) return c & 1 ? c + 1 : c;
    return c + <u32>(<i32>(<i16>d));
  }
  return c;
}

/** Case-insensitive name comparison for palette names (foldCase, code unit by code unit: every fold
 * is in the BMP, so surrogate pairs compare exactly). */
export function sameName(a: string, b: string): bool {
  return sameNameAt(a, changetype<usize>(b), b.length, true);
}

/** sameName against the `n` code units at `p`: UTF-16 (`wide`), or ASCII bytes. */
export function sameNameAt(a: string, p: usize, n: i32, wide: bool): bool {
  if (a.length != n) return false;
  for (let i = 0; i < n; i++) {
    const c = wide ? <u32>load<u16>(p + ((<usize>i) << 1)) : <u32>load<u8>(p + <usize>i);
    if (foldCase(<u32>a.charCodeAt(i)) != foldCase(c)) return false;
  }
  return true;
}

/** `n` colour words (stops, base colours) copied from `from`, or zeros when `from` is 0: a new
 * StaticArray<u32> made without its constructor (a length check and its error texts). */
export function colorWords(n: i32, from: usize): StaticArray<u32> {
  const size = (<usize>n) << 2;
  const a = __new(size, idof<StaticArray<u32>>());
  if (from) memory.copy(a, from, size);
  else memory.fill(a, 0, size);
  return changetype<StaticArray<u32>>(a);
}

export function basePalette(base: StaticArray<u32>): Palette {
  const stops = colorWords(3, changetype<usize>(base));
  unchecked((stops[1] = (128 << 24) | base[1]));
  unchecked((stops[2] = (255 << 24) | base[2]));
  return new Palette(BASE_COLORS_NAME, stops, true);
}
