// The eight built-in palettes, as static data: no object is built for them at start; a Palette is
// made when one is asked for. Stops are (position << 24) | 0xRRGGBB, chosen to look like the name.
import { Palette, sameNameAt, colorWords } from "./palette";
import { names, nameEntry, nameString } from "../util/names";

export const BUILTIN_COUNT = 8;
const NAMES = names("Rainbow Lava Ocean Forest Party Sunset Aurora Embers");
/** Palette by palette, in NAMES' order: the number of stops, then the stops. */
// prettier-ignore
const STOPS = memory.data<u32>([
  7, 0x00ff0000, 0x2bffff00, 0x5500ff00, 0x8000ffff, 0xaa0000ff, 0xd5ff00ff, 0xffff0000,
  5, 0x00000000, 0x40800000, 0x80ff2000, 0xc0ff8000, 0xffffff80,
  5, 0x00000020, 0x500030a0, 0xa00090d0, 0xdc40e0e0, 0xffe0ffff,
  5, 0x00002000, 0x60106010, 0xa030a020, 0xdc80c040, 0xffd0e080,
  5, 0x00ff00a0, 0x408000ff, 0x8000c0ff, 0xc0ffe000, 0xffff00a0,
  5, 0x00200040, 0x50a02060, 0x96ff5030, 0xd2ffa040, 0xffffe080,
  5, 0x00001020, 0x4600ff80, 0x8c00a0a0, 0xc88040ff, 0xffff40c0,
  5, 0x00000000, 0x64400000, 0xaaa01000, 0xe6ff4000, 0xffffa020,
]);

/** Built-in palette `i` (0 to BUILTIN_COUNT - 1). */
export function builtinAt(i: i32): Palette {
  let p = STOPS;
  for (let k = 0; k < i; k++) p += (<usize>load<u32>(p) + 1) << 2;
  const n = <i32>load<u32>(p);
  return new Palette(nameString(NAMES, i), colorWords(n, p + 4), true);
}

/** The built-in palette with this name (any casing: palette.ts sameName, against the ASCII bytes of
 * NAMES), or null. */
export function findBuiltin(name: string): Palette | null {
  for (let i = 0; i < BUILTIN_COUNT; i++) {
    const e = nameEntry(NAMES, i);
    if (sameNameAt(name, e + 1, load<u8>(e), false)) return builtinAt(i);
  }
  return null;
}
