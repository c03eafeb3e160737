// Colour references, resolved at frame time against the panel's look (palette slots and base
// colours), so a new palette or base colour shows on the next frame without restarting anything.
import { REF_RGB, REF_PALETTE, REF_BASE, REF_BACKGROUND } from "./constants";
import { samplePalette, samplePaletteArray } from "../../palette/sample";

/** Palette slots a panel holds: 0 the look's palette, 1-8 one per scene layer palette. A set
 * palette packet for a higher slot (the packet can name 0-15) is dropped. */
export const PALETTE_SLOTS: u32 = 9;
/** Stops per slot (the set palette packet's 16). */
export const SLOT_STOPS: u32 = 16;

/** What colour references read: the palette slots and the three base colours. */
export class Look {
  baseColors: StaticArray<u32> = [0xffffff, 0, 0];
  /** The panel's background, set by the compositor each frame (REF_BACKGROUND reads it). */
  background: u32 = 0;
  /** Per slot its stop count; 0: never set (slot 0 then reads the `Base colors` palette, others slot 0). */
  counts: StaticArray<u8> = new StaticArray<u8>(PALETTE_SLOTS);
  /** SLOT_STOPS stops per slot, each (position << 24) | rgb; allocated once, never per packet. */
  stops: StaticArray<u32> = new StaticArray<u32>(PALETTE_SLOTS * SLOT_STOPS);
  /** The synthesized `Base colors` palette (0 primary, 128 secondary, 255 tertiary), refreshed per use. */
  basePalette: StaticArray<u32> = new StaticArray<u32>(3);

  reset(): void {
    this.baseColors[0] = 0xffffff;
    this.baseColors[1] = 0;
    this.baseColors[2] = 0;
    for (let s: u32 = 0; s < PALETTE_SLOTS; s++) this.counts[s] = 0;
  }

  /** Slot `slot` gets `count` (1-16) stops read as (position, r, g, b) from `p`. */
  setPalette(slot: u32, count: u32, p: usize): void {
    if (slot >= PALETTE_SLOTS) return;
    this.counts[slot] = <u8>count;
    const base = slot * SLOT_STOPS;
    for (let i: u32 = 0; i < count; i++) this.stops[base + i] = bswap<u32>(load<u32>(p + i * 4));
  }
}

/** Packs a reference from its four record bytes: kind, then r,g,b / position,slot,0 / index. */
export function packRef(kind: u32, b1: u32, b2: u32, b3: u32): u32 {
  return (kind << 24) | (b1 << 16) | (b2 << 8) | b3;
}

/** Palette position `pos` of palette slot `slot`; a slot never set (or beyond the panel's) reads
 * slot 0, and slot 0 never set the `Base colors` palette. */
export function paletteColor(look: Look, pos: u32, slot: u32 = 0): u32 {
  if (slot >= PALETTE_SLOTS || look.counts[slot] == 0) slot = 0;
  const n = <u32>look.counts[slot];
  if (n > 0) return samplePalette(changetype<usize>(look.stops) + ((<usize>(slot * SLOT_STOPS)) << 2), n, pos);
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
  if (kind == REF_PALETTE) return paletteColor(look, first, (ref >> 8) & 0xff);
  if (kind == REF_BASE && first < 3) return look.baseColors[first];
  if (kind == REF_BACKGROUND) return look.background;
  return 0;
}
