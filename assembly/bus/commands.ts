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

/** A packet whose payload is one or two bytes: `two`'s low byte, then its high byte. */
function sendBytes(address: u8, type: u8, two: u32): void {
  store<u16>(body(), <u16>two);
  send(address, type);
}

/** A packet whose payload is a colour. */
function sendRgb(address: u8, type: u8, rgb: u32): void {
  putRgb(0, rgb);
  send(address, type);
}

export function sendPower(address: u8, on: bool): void {
  sendBytes(address, T_POWER, <u32>on);
}

export function sendColor(address: u8, rgb: u32): void {
  sendRgb(address, T_COLOR, rgb);
}

export function sendBrightness(level: u32): void {
  sendBytes(ADDR_BROADCAST, T_BRIGHTNESS, level);
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
  sendRgb(ADDR_BROADCAST, T_BACKGROUND, rgb);
}

/** mode 1 starts the prepared animations of `group`, 0 stops and clears them; group 0 means all.
 * To every panel, or to panel `address`. */
export function sendAnimStart(group: u32, mode: u32, address: u8 = ADDR_BROADCAST): void {
  sendBytes(address, T_ANIM_START, group | (mode << 8)); // each 0-255: u32, no masks
}

/** The reactive trigger: every REACTIVE animation of `group` jumps to `value`. */
export function sendAnimControl(group: u32, value: u32): void {
  sendBytes(ADDR_BROADCAST, T_ANIM_CONTROL, group | (value << 8));
}
