// The palette library: GET /api/palettes, GET|PUT|DELETE /api/palettes/{name}, POST /api/palettes.
// Names in paths are percent-decoded (UTF-8) by the router (http/path-name.ts) and looked up
// case-insensitively. `Base colors` (from
// the appearance) and the eight built-ins (in the firmware image) cannot be created, changed or
// deleted; custom palettes live in the store (palette/store.ts). Storage changes answer 200 (204 for
// DELETE); a change that reaches the panels (the active palette updated or deleted) also queues a
// palette broadcast for the next tick.
import * as w from "../json/writer";
import { fail } from "../json/validate";
import { jsonBody } from "../http/request";
import * as A from "../http/answers";
import { about } from "../http/answers"; // by its name: a message call (scripts/messages-transform.mjs)
import { W_PALETTE, enqueue } from "../core/queue";
import { persistAppearance } from "../core/look";
import { sceneUsesPalette } from "../playback/player";
import { appearance } from "../state/appearance";
import { Palette, BASE_COLORS_NAME, sameName, basePalette } from "../palette/palette";
import { BUILTIN_COUNT, builtinAt, findBuiltin } from "../palette/builtin";
import { validatePalette, paletteName, packStops } from "../palette/validate";
import {
  readPaletteNamed,
  paletteFileStatus,
  paletteKey,
  paletteKeyLength,
  deleteKeyed,
  openList,
  nextKey,
  readCurrent,
  currentKey,
  closeList,
  countPalettes,
  writePaletteDoc,
  canonicalBytes,
  MAX_CUSTOM_PALETTES,
  P_OK,
  P_MISSING,
  P_CORRUPT,
} from "../palette/store";
import { storeWrite, STORE_MISSING, STORE_FULL } from "../store/kv";
import { validationError } from "../json/validate";
import { log, LOG_WARN, LOG_ERROR } from "../util/log";
import { sameText } from "../util/names";
import { arenaTop, arenaBack } from "../rt/arena";

// ---- names ------------------------------------------------------------------------------------

/** `Base colors` or a built-in with this name (any casing), synthesized/taken from the image. */
function reservedPalette(name: string): Palette | null {
  if (sameName(name, BASE_COLORS_NAME)) return basePalette(appearance.baseColors);
  return findBuiltin(name);
}

/** 403: the reserved palette `p` cannot be changed or deleted (`verb`): one formatted message, what
 * it is an argument. @message-args */
function forbidden(p: Palette, verb: string): i32 {
  const name = p.name;
  return about(
    'palette "' +
      name +
      '" is ' +
      (sameText(name, BASE_COLORS_NAME) ? "synthesized from the appearance base colours" : "built in") +
      " and cannot be " +
      verb,
    A.A_FORBIDDEN,
  );
}

// ---- handlers ---------------------------------------------------------------------------------

/** Base colors, the built-ins, then the custom palettes sorted by case-folded name (the store's key
 * order); a custom palette that cannot be read is logged and left out. Streams (chunked) when long. */
export function listPalettes(_req: u32, _param: string, _arg: u32): i32 {
  w.byte(0x5b);
  writePaletteDoc(BASE_COLORS_NAME, basePalette(appearance.baseColors).stops);
  for (let i = 0; i < BUILTIN_COUNT; i++) {
    w.byte(0x2c);
    const p = builtinAt(i);
    writePaletteDoc(p.name, p.stops);
  }
  if (openList()) {
    const mark = arenaTop(); // what one palette allocates is given back before the next
    while (nextKey()) {
      const status = readCurrent();
      if (status == P_OK) {
        w.byte(0x2c);
        writePaletteDoc(paletteName(), packStops());
      } else if (status == P_CORRUPT)
        log(LOG_WARN, "palettes: skipping " + currentKey() + ": corrupt (" + validationError() + ")");
      else log(LOG_WARN, "palettes: skipping " + currentKey() + ": unreadable");
      arenaBack(mark);
    }
    closeList();
  } else log(LOG_ERROR, "palettes: the palette store cannot be listed");
  w.byte(0x5d);
  return A.ANSWERED;
}

export function getPalette(req: u32, name: string, _arg: u32): i32 {
  const reserved = reservedPalette(name);
  const status = reserved ? P_OK : readPaletteNamed(name);
  if (status == P_OK) {
    w.begin(req, 200);
    if (reserved) writePaletteDoc(reserved.name, reserved.stops);
    else writePaletteDoc(paletteName(), packStops());
    w.finish();
    return A.ANSWERED;
  }
  if (status == P_MISSING) return A.A_NOT_FOUND;
  if (status == P_CORRUPT) {
    log(LOG_WARN, 'palettes: "' + name + '" is corrupt (' + validationError() + ")");
    return A.about(name, A.A_PALETTE_CORRUPT);
  }
  return A.about(name, A.A_PALETTE_UNREADABLE);
}

export function createPalette(_req: u32, _param: string, root: u32): i32 {
  if (!validatePalette(root)) return A.A_INVALID;
  const name = paletteName();
  const stops = packStops();
  if (reservedPalette(name)) return A.A_NAME_EXISTS;
  const status = paletteFileStatus(name);
  if (status == P_OK) return A.A_NAME_EXISTS;
  if (status != P_MISSING) return A.A_PALETTE_STORE_UNREADABLE;
  const count = countPalettes();
  if (count < 0) return A.A_PALETTE_STORE_UNREADABLE;
  if (count >= MAX_CUSTOM_PALETTES) return A.A_TOO_MANY_PALETTES;
  return store(name, stops, A.A_NAME);
}

/** Writes a palette file: `done` about the palette, or 507 (storage full) or 500. */
function store(name: string, stops: StaticArray<u32>, done: i32): i32 {
  const rc = storeWrite(paletteKey(name)!, canonicalBytes(name, stops));
  if (rc == 0) return A.about(name, done);
  return rc == STORE_FULL ? A.A_STORAGE_FULL : A.about(name, A.A_PALETTE_NOT_STORED);
}

/** The answer's row when a change to palette `name` cannot be queued while the panels show it (the
 * appearance's, or one a playing scene uses), else 0: the panels show it from the next tick. */
function busyShowing(name: string): i32 {
  const shown = sameName(appearance.palette, name) || sceneUsesPalette(name);
  return shown && !enqueue(W_PALETTE, 0, 0) ? A.A_BUSY : 0;
}

/** PUT: a full palette document whose name equals the path's (case-insensitively); only the stops
 * change, the stored name keeps its casing. A stored file that cannot be read is replaced. */
export function updatePalette(req: u32, name: string, _arg: u32): i32 {
  const reserved = reservedPalette(name);
  if (reserved) return forbidden(reserved, "changed");
  const status = readPaletteNamed(name);
  if (status == P_MISSING) return A.A_NOT_FOUND;
  let storedName: string | null = null;
  if (status == P_OK) storedName = paletteName();
  else log(LOG_WARN, 'palettes: "' + name + '" cannot be read; PUT replaces it');
  if (!validatePalette(jsonBody(req))) return A.A_INVALID;
  const bodyName = paletteName();
  if (!sameName(bodyName, name)) {
    fail("name", 'must equal the palette name in the path ("' + name + '")');
    return A.A_INVALID;
  }
  const stops = packStops();
  const finalName = changetype<usize>(storedName) != 0 ? storedName : bodyName;
  const busy = busyShowing(finalName);
  return busy != 0 ? busy : store(finalName, stops, A.A_OK);
}

/** DELETE: 204. When it was the appearance's palette, the appearance falls back to Base colors
 * (persisted) and the panels get it on the next tick. */
export function deletePalette(_req: u32, name: string, _arg: u32): i32 {
  const reserved = reservedPalette(name);
  if (reserved) return forbidden(reserved, "deleted");
  const k = paletteKeyLength(name);
  if (k == 0) return A.A_NOT_FOUND;
  const busy = busyShowing(name); // (leaves the key alone)
  if (busy != 0) return busy;
  const rc = deleteKeyed(k);
  if (rc == STORE_MISSING) return A.A_NOT_FOUND;
  if (rc < 0) return A.about(name, A.A_PALETTE_NOT_DELETED);
  if (sameName(appearance.palette, name)) {
    appearance.palette = BASE_COLORS_NAME;
    persistAppearance();
  }
  return A.A_NO_CONTENT;
}
