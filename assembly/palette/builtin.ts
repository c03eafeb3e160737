// The eight built-in palettes. Stops are (position << 24) | 0xRRGGBB, chosen to look like the name.
import { Palette } from "./palette";

function p(name: string, stops: StaticArray<u32>): Palette {
  return new Palette(name, stops, true);
}

export const BUILTIN_PALETTES: Palette[] = [
  p("Rainbow", [0x00ff0000, 0x2bffff00, 0x5500ff00, 0x8000ffff, 0xaa0000ff, 0xd5ff00ff, 0xffff0000]),
  p("Lava", [0x00000000, 0x40800000, 0x80ff2000, 0xc0ff8000, 0xffffff80]),
  p("Ocean", [0x00000020, 0x500030a0, 0xa00090d0, 0xdc40e0e0, 0xffe0ffff]),
  p("Forest", [0x00002000, 0x60106010, 0xa030a020, 0xdc80c040, 0xffd0e080]),
  p("Party", [0x00ff00a0, 0x408000ff, 0x8000c0ff, 0xc0ffe000, 0xffff00a0]),
  p("Sunset", [0x00200040, 0x50a02060, 0x96ff5030, 0xd2ffa040, 0xffffe080]),
  p("Aurora", [0x00001020, 0x4600ff80, 0x8c00a0a0, 0xc88040ff, 0xffff40c0]),
  p("Embers", [0x00000000, 0x64400000, 0xaaa01000, 0xe6ff4000, 0xffffa020]),
];
