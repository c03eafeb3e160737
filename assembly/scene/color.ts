// Colour references (color, colorTo, colorFrom): "#RRGGBB", {r, g, b} with an omitted channel
// meaning 255, {palette: 0-255} or {useColor: 0-2}; read from the stream (json/stream.ts), echoed
// to the canonical form and returned packed as a record's 4 colour bytes: kind << 24 | data (kind 0
// an RGB colour, 1 a palette position << 16, 2 a base colour << 16). The caller pushed the path.
import { J_STRING, J_OBJECT } from "../json/reader";
import { value, member, duplicateKey, kind, text, textBytes } from "../json/stream";
import { parseHexColorAt } from "../json/validate";
import { bad, pushKey, pop, needInt, textIs } from "./text";
import * as out from "./canonical";

const FORMS = 'must be a colour: "#RRGGBB", {"r","g","b"}, {"palette": 0-255} or {"useColor": 0-2}';
const KEYS: StaticArray<string> = ["r", "g", "b", "palette", "useColor"];

function refused(): i32 {
  bad(FORMS);
  return -1;
}

/** The colour reference whose start json/stream.ts value() has just read; its packed form, or -1
 * after recording the failure. */
export function readColor(): i32 {
  const k = kind;
  if (k == J_STRING) {
    const rgb = parseHexColorAt(text, textBytes);
    if (rgb < 0) return refused();
    out.str();
    return rgb;
  }
  if (k != J_OBJECT) return refused();
  out.byte(0x7b);
  let form = -1; // 0 channels, 1 palette, 2 useColor
  let rgb: u32 = 0xffffff;
  let data: u32 = 0;
  let seen = 0;
  while (member()) {
    let f = 0;
    while (f < 5 && !textIs(KEYS[f])) f++;
    if (f == 5) return refused();
    if (seen & (1 << f)) {
      duplicateKey();
      return -1;
    }
    const fk = f < 3 ? 0 : f - 2;
    if (form >= 0 && form != fk) return refused();
    form = fk;
    out.field(seen == 0);
    seen |= 1 << f;
    pushKey(KEYS[f]);
    value();
    const v = needInt(0, f == 4 ? 2 : 255);
    pop();
    if (v < 0) return -1;
    out.number();
    if (f < 3) {
      const shift = 16 - 8 * f;
      rgb = (rgb & ~((<u32>0xff) << shift)) | ((<u32>v) << shift);
    } else data = (<u32>v) << 16;
  }
  out.byte(0x7d);
  return form <= 0 ? <i32>rgb : (form << 24) | (<i32>data);
}
