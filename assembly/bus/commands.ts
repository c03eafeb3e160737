// The packets of the interface spec's table, one function each. Address 0 is broadcast.
import { send, body, putRgb } from "./send";
import {
  T_POWER,
  T_COLOR,
  T_BRIGHTNESS,
  T_BASE_COLORS,
  T_PALETTE,
  T_BACKGROUND,
  T_ANIM_START,
  T_ANIM_CONTROL,
  ADDR_BROADCAST,
} from "./protocol";
import { Palette, MAX_STOPS } from "../palette/palette";

export function sendPower(address: u8, on: bool): void {
  store<u8>(body(), on ? 1 : 0);
  send(address, T_POWER);
}

export function sendColor(address: u8, rgb: u32): void {
  putRgb(0, rgb);
  send(address, T_COLOR);
}

export function sendBrightness(level: u32): void {
  store<u8>(body(), <u8>level);
  send(ADDR_BROADCAST, T_BRIGHTNESS);
}

export function sendBaseColors(base: StaticArray<u32>): void {
  for (let i = 0; i < 3; i++) putRgb(i * 3, unchecked(base[i]));
  send(ADDR_BROADCAST, T_BASE_COLORS);
}

/** Broadcast into palette slot `slot` (0: the look's palette; 1-8: a scene layer's). Byte 0 is
 * slot << 4 | (count - 1); unused stop slots are zero so the packet bytes depend only on the palette. */
export function sendPalette(palette: Palette, slot: u8 = 0): void {
  const p = body();
  const n = min(palette.stops.length, MAX_STOPS); // 1-16 in a valid palette
  store<u8>(p, (slot << 4) | (<u8>max(n - 1, 0)));
  // a stop (position << 24 | 0xRRGGBB) goes out as position, r, g, b: the u32 big-endian
  for (let i = 0; i < MAX_STOPS; i++) store<u32>(p + 1 + (i << 2), bswap<u32>(i < n ? unchecked(palette.stops[i]) : 0));
  send(ADDR_BROADCAST, T_PALETTE);
}

export function sendBackground(rgb: u32): void {
  putRgb(0, rgb);
  send(ADDR_BROADCAST, T_BACKGROUND);
}

/** mode 1 starts the prepared animations of `group`, 0 stops and clears them; group 0 means all. */
export function sendAnimStart(group: u8, mode: u8): void {
  store<u16>(body(), (<u16>group) | ((<u16>mode) << 8));
  send(ADDR_BROADCAST, T_ANIM_START);
}

/** The reactive trigger: every REACTIVE animation of `group` jumps to `value`. */
export function sendAnimControl(group: u8, value: u8): void {
  store<u16>(body(), (<u16>group) | ((<u16>value) << 8));
  send(ADDR_BROADCAST, T_ANIM_CONTROL);
}
