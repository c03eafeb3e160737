// Appearance: the global look of all panels (brightness, three base colours, active palette).
// Persisted under the key "appearance" in the same JSON shape as the API, and read back through
// the same validation, so a stored document can never hold what the API would reject.
import { names } from "../util/names";
import { J_ARRAY } from "../json/reader";
import * as S from "../json/stream";
import { colorRead, fail } from "../json/validate";
import { checkFields, indexPath, present, F_INT, F_OWN, F_TEXT } from "../json/check-fields";
import { fillFields, V_INT, V_COLORS, V_STR } from "../json/template";
import * as t from "../generated/text";
import { Palette, BASE_COLORS_NAME, sameName, basePalette, colorWords } from "../palette/palette";
import { findBuiltin } from "../palette/builtin";
import { loadPalette } from "../palette/store";
import { log, LOG_WARN } from "../util/log";
import { keepSlot, keepString } from "../rt/arena";

export const APPEARANCE_KEY = "appearance";

export class Appearance {
  brightness: u32 = 255;
  baseColors: StaticArray<u32> = [0xffffff, 0x000000, 0x000000];
  palette: string = BASE_COLORS_NAME;
}

export const appearance = new Appearance();
const paletteKept = keepSlot(64); // the palette name outlives the export (rt/arena.ts)

/** Sets the appearance's palette name (copied into its fixed slot). */
export function setAppearancePalette(name: string): void {
  appearance.palette = keepString(paletteKept, name);
}

/** A patch's present bits (json/check-fields.ts `present`: bit k is row k of ROWS). */
export const HAS_BRIGHTNESS: u32 = 1;
export const HAS_COLORS: u32 = 2;

/** A validated change: only the fields present in the request. */
export class AppearancePatch {
  has: u32 = 0; // the fields present: HAS_BRIGHTNESS, HAS_COLORS (the request's present bits)
  brightness: u32 = 0;
  baseColors: StaticArray<u32> = colorWords(3, 0);
  palette: string | null = null;
}

/** The palette with this name (any casing): Base colors, a built-in or a stored custom palette
 * (with its stored casing), or null. A custom palette is read from the store through json/stream.ts:
 * call this only when done with the document being read. */
export function findPalette(name: string): Palette | null {
  if (sameName(name, BASE_COLORS_NAME)) return basePalette(appearance.baseColors);
  const builtin = findBuiltin(name);
  return builtin ? builtin : loadPalette(name);
}

/** The palette the panels show: the appearance palette, or Base colors if it has gone. */
export function activePalette(): Palette {
  const found = findPalette(appearance.palette);
  return found ? found : basePalette(appearance.baseColors);
}

const KEYS = names("brightness baseColors palette");
const COLORS = 1;
// The checks in order: key (in KEYS), kind, range, field (json/check-fields.ts). The colours are read by
// readColors; the palette is a string of any length (one that names no palette is refused after).
// prettier-ignore
const ROWS = memory.data<u16>([
  0, F_INT, 0, 255, <u16>offsetof<AppearancePatch>("brightness"),
  1, F_OWN, 0, 0, 0,
  2, F_TEXT, 0, 0xffff, <u16>offsetof<AppearancePatch>("palette"),
]);

/** baseColors, as it streams: an array of 3 colours (its length is checked first, then the first
 * colour that is not one). */
function readColors(_k: i32, kind: u32, target: usize): void {
  const colors = changetype<usize>(changetype<AppearancePatch>(target).baseColors);
  let n = 0;
  let bad = -1;
  if (kind == J_ARRAY) {
    while (S.element()) {
      const e = S.value();
      if (n < 3) {
        const rgb = colorRead();
        if (rgb >= 0)
          store<u32>(colors + ((<usize>n) << 2), rgb); // (n < 3: no bounds check)
        else if (bad < 0) bad = n;
      }
      S.skipRest(e);
      n++;
    }
  } else S.skipRest(kind);
  if (kind != J_ARRAY || n != 3) fail("baseColors", 'must be an array of 3 colours "#RRGGBB"');
  else if (bad >= 0) fail(indexPath("baseColors", bad), 'must be a colour "#RRGGBB"');
}

/** Validates the PATCH body (or, with `stored`, the stored document) whose root value() has just
 * read (kind `kind`); null after recording the first problem. The palette is checked last (finding a
 * custom one reads its file). A stored appearance whose palette has gone (deleted, or its file
 * corrupt) keeps its other fields and falls back to Base colors. */
export function parseAppearancePatch(kind: u32, stored: bool = false): AppearancePatch | null {
  const patch = new AppearancePatch();
  if (!checkFields(kind, KEYS, ROWS, 3, changetype<usize>(patch), readColors, 32)) return null;
  patch.has = present;
  const wanted = patch.palette;
  if (changetype<usize>(wanted) != 0) {
    const found = findPalette(wanted);
    if (!found) {
      if (!stored) {
        fail("palette", 'no palette named "' + wanted + '"');
        return null;
      }
      log(LOG_WARN, 'appearance: palette "' + wanted + '" not found; using Base colors');
    }
    patch.palette = found ? found.name : BASE_COLORS_NAME;
  }
  return patch;
}

export function applyAppearancePatch(patch: AppearancePatch): void {
  if (patch.has & HAS_BRIGHTNESS) appearance.brightness = patch.brightness;
  if (patch.has & HAS_COLORS)
    memory.copy(changetype<usize>(appearance.baseColors), changetype<usize>(patch.baseColors), 12);
  const name = patch.palette;
  if (changetype<usize>(name) != 0) {
    // The palette may have been deleted since the change was validated (PATCH, then DELETE before
    // the tick): then the appearance falls back to Base colors.
    const found = findPalette(name);
    setAppearancePalette(found ? found.name : BASE_COLORS_NAME);
  }
}

// The document's values: kind, field of Appearance (json/template.ts fillFields), marker by marker.
// prettier-ignore
const FIELDS = memory.data<u8>([
  V_INT, <u8>offsetof<Appearance>("brightness"),
  V_COLORS, <u8>offsetof<Appearance>("baseColors"),
  V_STR, <u8>offsetof<Appearance>("palette"),
]);

/** Writes the appearance as JSON to the current writer sink. */
export function writeAppearance(): void {
  fillFields(t.APPEARANCE, t.APPEARANCE_LENGTH, FIELDS, changetype<usize>(appearance));
}
