// The 20-byte animation record of "animation prepare" (docs/bus-protocol.md), read into a slot.
import {
  F_WINDOW,
  KIND_MASK,
  K_RUNNER,
  A_LAST,
  B_DEFAULT,
  B_OPAQUE,
  B_MAX,
  B_LAST,
  RATE_NORMAL,
  REF_BACKGROUND,
} from "./constants";
import { Slot } from "./slots";
import { packRef } from "./color";

export const RECORD_SIZE: u32 = 20;

/** Kind, animates and blend within range; anything else is dropped. */
export function recordValid(p: usize): bool {
  const kind = load<u8>(p, 2) & 0x0f;
  const byte3 = load<u8>(p, 3);
  return ((KIND_MASK >> kind) & 1) != 0 && (byte3 & 0x0f) <= A_LAST && byte3 >> 4 <= B_LAST;
}

function refAt(p: usize): u32 {
  return packRef(load<u8>(p), load<u8>(p, 1), load<u8>(p, 2), load<u8>(p, 3));
}

/** Fills `s` (already claimed, layer set) from the record at `p`. */
export function loadRecord(s: Slot, p: usize): void {
  s.group = load<u8>(p);
  s.kind = load<u8>(p, 2) & 0x0f;
  s.flags = load<u8>(p, 2) & 0xf0;
  s.animates = load<u8>(p, 3) & 0x0f;
  const blend = load<u8>(p, 3) >> 4;
  s.blend = blend != B_DEFAULT ? blend : s.kind == K_RUNNER ? B_MAX : B_OPAQUE;
  // a windowed runner pulse has no colorFrom: bytes 4-7 are its window; it rises from the
  // background ("a pulse between color and the background", issue 18)
  const windowed = s.kind == K_RUNNER && (s.flags & F_WINDOW) != 0;
  s.colorFrom = windowed ? REF_BACKGROUND << 24 : refAt(p + 4);
  s.winCentre = windowed ? load<u16>(p, 4) : 0;
  s.winWidth = windowed ? load<u16>(p, 6) : 0;
  s.colorTo = refAt(p + 8);
  s.durationMs = load<u16>(p, 12);
  s.delayMs = load<u16>(p, 14);
  s.param0 = load<u8>(p, 16);
  s.param1 = load<u8>(p, 17);
  s.from = load<u8>(p, 18);
  s.to = load<u8>(p, 19);
  s.rate = RATE_NORMAL;
  s.triggerLeft = 0;
  s.triggerAt = 0;
}
