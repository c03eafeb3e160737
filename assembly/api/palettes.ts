// The palette library: GET /api/palettes, GET|PUT|DELETE /api/palettes/{name}, POST /api/palettes.
// Names in paths are percent-decoded (UTF-8) and looked up case-insensitively. `Base colors` (from
// the appearance) and the eight built-ins (in the firmware image) cannot be created, changed or
// deleted; custom palettes live in the store (palette/store.ts). Storage changes answer 200 (204 for
// DELETE); a change that reaches the panels (the active palette updated or deleted) also queues a
// palette broadcast for the next tick.
import * as w from "../json/writer";
import { hexDigit, utf8SequenceLength } from "../json/reader";
import { fail } from "../json/validate";
import { M_GET, M_POST, M_PUT, M_DELETE, jsonBody, sendInvalid, queueOrBusy } from "../http/request";
import { sendError, sendLiteral } from "../http/response";
import { W_PALETTE } from "../core/queue";
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
import { storeWrite, storeDelete, STORE_MISSING, STORE_FULL } from "../store/kv";
import { validationError } from "../json/validate";
import { log, LOG_WARN, LOG_ERROR } from "../util/log";
import { arenaTop, arenaBack } from "../rt/arena";

/** Handles /api/palettes (seg.length 2) and /api/palettes/{name} (seg.length 3). */

// ---- names ------------------------------------------------------------------------------------

/** `Base colors` or a built-in with this name (any casing), synthesized/taken from the image. */
function reservedPalette(name: string): Palette | null {
  if (sameName(name, BASE_COLORS_NAME)) return basePalette(appearance.baseColors);
  return findBuiltin(name);
}

function quoted(s: string): string {
  return '"' + s + '"';
}

function sendForbidden(req: u32, p: Palette, verb: string): void {
  sendError(
    req,
    403,
    "palette " +
      quoted(p.name) +
      (p.name == BASE_COLORS_NAME ? " is synthesized from the appearance base colours" : " is built in") +
      " and cannot be " +
      verb,
  );
}

/** Decodes a percent-encoded path segment as UTF-8 ("Cœur%20%E2%9D%A4" → "Cœur ❤"); null when a
 * "%" is not followed by two hex digits or the bytes are not valid UTF-8 (strict: no overlong
 * forms, no surrogates, nothing above U+10FFFF). "+" stays "+" (paths are not form data);
 * characters sent unencoded are taken as they are. Decodes in place, in the UTF-8 copy. */
export function percentDecode(s: string): string | null {
  const buf = String.UTF8.encode(s);
  const p = changetype<usize>(buf);
  const n = <usize>buf.byteLength;
  let o: usize = 0;
  for (let i: usize = 0; i < n; i++) {
    let b = <i32>load<u8>(p + i);
    if (b == 0x25) {
      if (i + 2 >= n) return null;
      const hi = hexDigit(load<u8>(p + i + 1));
      const lo = hexDigit(load<u8>(p + i + 2));
      if (hi < 0 || lo < 0) return null;
      b = (hi << 4) | lo;
      i += 2;
    }
    i32.store8(p + o++, b); // (`store` is a local handler name here)
  }
  for (let i: usize = 0; i < o;) {
    if (load<u8>(p + i) < 0x80) i++;
    else {
      const size = utf8SequenceLength(p + i, p + o);
      if (size == 0) return null;
      i += size;
    }
  }
  return String.UTF8.decodeUnsafe(p, o);
}

// ---- handlers ---------------------------------------------------------------------------------

/** Base colors, the built-ins, then the custom palettes sorted by case-folded name (the store's key
 * order); a custom palette that cannot be read is logged and left out. Streams (chunked) when long. */
export function listPalettes(req: u32, _param: string, _body: usize, _len: u32): void {
  w.begin(req, 200);
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
      } else {
        const why = status == P_CORRUPT ? "corrupt (" + validationError() + ")" : "unreadable";
        log(LOG_WARN, "palettes: skipping " + currentKey() + ": " + why);
      }
      arenaBack(mark);
    }
    closeList();
  } else log(LOG_ERROR, "palettes: the palette store cannot be listed");
  w.byte(0x5d);
  w.finish();
}

export function getPalette(req: u32, encoded: string, _body: usize, _len: u32): void {
  const name = percentDecode(encoded);
  if (name === null) return sendError(req, 404, "not_found");
  const reserved = reservedPalette(name);
  if (reserved) {
    w.begin(req, 200);
    writePaletteDoc(reserved.name, reserved.stops);
    w.finish();
    return;
  }
  const status = readPaletteNamed(name);
  if (status == P_OK) {
    w.begin(req, 200);
    writePaletteDoc(paletteName(), packStops());
    w.finish();
    return;
  }
  if (status == P_MISSING) return sendError(req, 404, "not_found");
  if (status == P_CORRUPT) {
    log(LOG_WARN, "palettes: " + quoted(name) + " is corrupt (" + validationError() + ")");
    return sendError(req, 500, "stored palette " + quoted(name) + " is corrupt");
  }
  sendError(req, 500, "stored palette " + quoted(name) + " could not be read");
}

export function createPalette(req: u32, _param: string, _body: usize, _len: u32): void {
  if (!validatePalette(jsonBody(req))) return sendInvalid(req);
  const name = paletteName();
  const stops = packStops();
  if (reservedPalette(name)) return sendError(req, 409, "name_exists");
  const status = paletteFileStatus(name);
  if (status == P_OK) return sendError(req, 409, "name_exists");
  if (status != P_MISSING) return sendError(req, 500, "the palette store could not be read");
  const count = countPalettes();
  if (count < 0) return sendError(req, 500, "the palette store could not be read");
  if (count >= MAX_CUSTOM_PALETTES) return sendError(req, 507, "too_many_palettes");
  if (!store(req, name, stops)) return;
  w.begin(req, 200);
  w.raw('{"name":');
  w.str(name);
  w.byte(0x7d);
  w.finish();
}

/** Writes a palette file; false after answering 507 (storage full) or 500. */
function store(req: u32, name: string, stops: StaticArray<u32>): bool {
  const rc = storeWrite(paletteKey(name)!, canonicalBytes(name, stops));
  if (rc == 0) return true;
  if (rc == STORE_FULL) sendError(req, 507, "storage_full");
  else sendError(req, 500, "palette " + quoted(name) + " could not be stored");
  return false;
}

/** PUT: a full palette document whose name equals the path's (case-insensitively); only the stops
 * change, the stored name keeps its casing. A stored file that cannot be read is replaced. */
export function updatePalette(req: u32, encoded: string, _body: usize, _len: u32): void {
  const name = percentDecode(encoded);
  if (name === null) return sendError(req, 404, "not_found");
  const reserved = reservedPalette(name);
  if (reserved) return sendForbidden(req, reserved, "changed");
  const status = readPaletteNamed(name);
  if (status == P_MISSING) return sendError(req, 404, "not_found");
  let storedName: string | null = null;
  if (status == P_OK) storedName = paletteName();
  else log(LOG_WARN, "palettes: " + quoted(name) + " cannot be read; PUT replaces it");
  if (!validatePalette(jsonBody(req))) return sendInvalid(req);
  const bodyName = paletteName();
  if (!sameName(bodyName, name)) {
    fail("name", "must equal the palette name in the path (" + quoted(name) + ")");
    return sendInvalid(req);
  }
  const stops = packStops();
  const finalName = storedName !== null ? storedName : bodyName;
  // The panels show the new stops from the next tick when the appearance or a playing scene uses it.
  const shown = sameName(appearance.palette, finalName) || sceneUsesPalette(finalName);
  if (shown && !queueOrBusy(req, W_PALETTE, 0, 0)) return;
  if (!store(req, finalName, stops)) return;
  sendLiteral(req, 200, "{}");
}

/** DELETE: 204. When it was the appearance's palette, the appearance falls back to Base colors
 * (persisted) and the panels get it on the next tick. */
export function deletePalette(req: u32, encoded: string, _body: usize, _len: u32): void {
  const name = percentDecode(encoded);
  if (name === null) return sendError(req, 404, "not_found");
  const reserved = reservedPalette(name);
  if (reserved) return sendForbidden(req, reserved, "deleted");
  const key = paletteKey(name);
  if (key === null) return sendError(req, 404, "not_found");
  const active = sameName(appearance.palette, name);
  if ((active || sceneUsesPalette(name)) && !queueOrBusy(req, W_PALETTE, 0, 0)) return;
  const rc = storeDelete(key);
  if (rc == STORE_MISSING) return sendError(req, 404, "not_found");
  if (rc < 0) return sendError(req, 500, "palette " + quoted(name) + " could not be deleted");
  if (active) {
    appearance.palette = BASE_COLORS_NAME;
    persistAppearance();
  }
  w.begin(req, 204);
  w.finish();
}
