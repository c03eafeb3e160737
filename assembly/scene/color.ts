// Colour references (color, colorTo, colorFrom): "#RRGGBB", {r, g, b} with an omitted channel
// meaning 255, {palette: 0-255} or {useColor: 0-2}. The caller has pushed the field's path.
import { kindOf, sourceOf, lengthOf, firstMember, nextMember, stringEquals, J_STRING, J_OBJECT } from "../json/reader";
import { parseHexColorAt } from "../json/validate";
import { bad, needIntAt } from "./text";

const FORMS = 'must be a colour: "#RRGGBB", {"r","g","b"}, {"palette": 0-255} or {"useColor": 0-2}';

const F_NONE = 0;
const F_CHANNELS = 1;
const F_PALETTE = 2;
const F_USE = 3;

export function checkColor(v: i32): bool {
  const kind = kindOf(v);
  if (kind == J_STRING) {
    return parseHexColorAt(sourceOf(v), lengthOf(v)) >= 0 || bad(FORMS);
  }
  if (kind != J_OBJECT) return bad(FORMS);
  let form = F_NONE;
  for (let m = firstMember(v); m >= 0; m = nextMember(v, m)) {
    let f = F_NONE;
    let key = "";
    let hi = 255;
    if (stringEquals(m, "r")) {
      f = F_CHANNELS;
      key = "r";
    } else if (stringEquals(m, "g")) {
      f = F_CHANNELS;
      key = "g";
    } else if (stringEquals(m, "b")) {
      f = F_CHANNELS;
      key = "b";
    } else if (stringEquals(m, "palette")) {
      f = F_PALETTE;
      key = "palette";
    } else if (stringEquals(m, "useColor")) {
      f = F_USE;
      key = "useColor";
      hi = 2;
    } else return bad(FORMS);
    if (form != F_NONE && form != f) return bad(FORMS);
    form = f;
    if (!needIntAt(m + 1, key, 0, hi)) return false;
  }
  return true;
}
