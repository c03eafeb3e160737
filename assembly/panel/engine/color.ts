// Colour references, resolved at frame time against the panel's look (active palette and base
// colours), so a new palette or base colour shows on the next frame without restarting anything.
import { REF_RGB, REF_PALETTE, REF_BASE } from "./constants";
import { samplePaletteArray } from "../../palette/sample";

/** What colour references read: the active palette and the three base colours. */
export class Look {
  baseColors: StaticArray<u32> = [0xffffff, 0, 0];
  paletteCount: u32 = 0; // 0: no palette received, the `Base colors` palette applies
  palette: StaticArray<u32> = new StaticArray<u32>(16); // (position << 24) | rgb
  /** The synthesized `Base colors` palette (0 primary, 128 secondary, 255 tertiary), refreshed per use. */
  basePalette: StaticArray<u32> = new StaticArray<u32>(3);

  reset(): void {
    this.baseColors[0] = 0xffffff;
    this.baseColors[1] = 0;
    this.baseColors[2] = 0;
    this.paletteCount = 0;
  }
}

/** Packs a reference from its four record bytes: kind, then r,g,b / position / index. */
export function packRef(kind: u32, b1: u32, b2: u32, b3: u32): u32 {
  return (kind << 24) | (b1 << 16) | (b2 << 8) | b3;
}

/** Palette position `pos` of the active palette (the `Base colors` palette when none was set). */
export function paletteColor(look: Look, pos: u32): u32 {
  if (look.paletteCount > 0) return samplePaletteArray(look.palette, look.paletteCount, pos);
  const p = look.basePalette;
  p[0] = look.baseColors[0];
  p[1] = (128 << 24) | look.baseColors[1];
  p[2] = (255 << 24) | look.baseColors[2];
  return samplePaletteArray(p, 3, pos);
}

/** 0xRRGGBB of a reference; an unknown kind or base index gives black. */
export function resolveColor(ref: u32, look: Look): u32 {
  const kind = ref >>> 24;
  if (kind == REF_RGB) return ref & 0xffffff;
  const first = (ref >> 16) & 0xff;
  if (kind == REF_PALETTE) return paletteColor(look, first);
  if (kind == REF_BASE && first < 3) return look.baseColors[first];
  return 0;
}
