// Colour references (color, colorTo, colorFrom): "#RRGGBB", {r, g, b} with an omitted channel
// meaning 255, {palette: 0-255} or {useColor: 0-2}; read from the stream (json/stream.ts: an object
// by object-reader.ts's reader, its COLOR rows) and returned packed as a record's 4 colour bytes: kind << 24
// | data (kind 0 an RGB colour, 1 a palette position << 16, 2 a base colour << 16). The caller pushed
// the path.
import { J_STRING, J_OBJECT } from "../json/reader";
import { kind, text, textBytes } from "../json/stream";
import { parseHexColorAt } from "../json/validate";
import { bad, pop } from "./path-errors";
import { readObject, readInt, refused, COLOR, COLOR_BASE } from "./object-reader";
import { slots } from "./state";

/** The colour reference whose start json/stream.ts value() has just read; its packed form, or -1
 * after recording the failure. */
export function readColor(): i32 {
  const k = kind;
  let rgb = -1;
  if (k == J_STRING) rgb = parseHexColorAt(text, textBytes);
  else if (k == J_OBJECT) {
    const v = slots + (COLOR_BASE << 2);
    // r, g, b 255 unless given
    store<u64>(v, 0xff000000ff);
    store<i32>(v, 255, 8);
    const seen = readObject(COLOR);
    if (seen < 0) return -1;
    // r, g, b, else palette, else useColor
    if ((seen & 7) != 0 || seen == 0) return (load<i32>(v) << 16) | (load<i32>(v, 4) << 8) | load<i32>(v, 8);
    return seen & 8 ? (1 << 24) | (load<i32>(v, 12) << 16) : (2 << 24) | (load<i32>(v, 16) << 16);
  }
  if (rgb < 0) refused();
  return rgb;
}

/** A member of a colour object (r, g, b, palette, useColor: row `r`), its value just read; `seen`
 * its members so far: one form only. A object-reader.ts Reader. */
export function readChannel(r: i32, row: u32, seen: u32): bool {
  const k = r - COLOR_BASE;
  const others = seen & ~(1 << k);
  if (others & (k < 3 ? 0x18 : 0x1f)) {
    pop(); // the rule is the colour's
    return refused();
  }
  // its range: the row's (0-255, useColor 0-2)
  return readInt(r, row, seen);
}
