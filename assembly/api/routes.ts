// Every endpoint of the HTTP API in one static table (http/router.ts finds the row): a row is a path
// pattern, a method, what its body is, and its handler. The patterns after "api/" are one name list
// (util/names.ts), walked with the rows: a row marked NEW starts the next pattern, the others share
// the row before's; a row's number picks its handler in `handle`.
// No object is built for it at start. A `*` segment is the path parameter: a scene id, a panel
// address, a palette name (as sent; PALETTE below decodes it). A more specific pattern comes before a
// `*` one that would also match it (scenes/play before scenes/*).
//
// What the body is (the flags):
// - none: a GET, HEAD or DELETE, whose body is ignored, or a POST whose handler reads none;
// - READ_JSON: a small document (json/check-fields.ts), opened by the router as it streams, its root's kind
//   passed to the handler (`arg`);
// - its handler's: the handler opens the request itself (a scene document: the scene pass; a palette,
//   after the store is read);
// - STREAM: the firmware upload, read in pieces by its handler (api/firmware.ts), whatever its size;
//   `arg` is its length. Any other body above the limit is refused before the handler runs (main.ts).
// A DOCUMENT row's handler writes the body of a 200 answer, which the router begins and ends.
// What the router checks before the handler runs, once for every row that asks (in this order):
// - POWERED: the system is on, else 409 system_off (the playback routes);
// - SCENE: the `*` segment is a library scene id (scene/store.ts libraryId), else 404;
// - PALETTE: the `*` segment is a palette name, percent-decoded (http/path-name.ts), else 404;
//   the handler gets the decoded name.
import { names } from "../util/names";
import { M_GET, M_POST, M_PUT, M_PATCH, M_DELETE } from "../http/request";
import { getAppearance, patchAppearance } from "./appearance";
import { getState, postPower } from "./state";
import { getConfiguration, patchConfiguration } from "./configuration";
import { getPanels, getEdges, putPanelOn, putPanelColor } from "./panels";
import { listScenes, createScene, createSceneAt, getScene, patchScene, deleteScene } from "./scenes";
import { playById, playLast, playOneShot, stop, speed, animationPlay, trigger } from "./playback";
import { listPalettes, createPalette, getPalette, updatePalette, deletePalette } from "./palettes";
import { getMqtt, patchMqtt } from "./mqtt";
import { postSetup } from "./setup";
import { getLayout } from "./layout";
import { postFirmware, getFirmwareStatus } from "./firmware";

// A row is one u16: its method (the low three bits), its flags, and NEW on the first row of a pattern.
/** A small JSON document, opened by the router. */
export const READ_JSON: u16 = 8;
/** A route only where MQTT is (the large variant): elsewhere the path is unknown. */
export const LARGE_ONLY: u16 = 16;
/** A body read in pieces by its handler, whatever its size. */
export const STREAM: u16 = 32;
/** The handler writes the body of a 200 answer. */
export const DOCUMENT: u16 = 64;
/** The system must be on (409 system_off). */
export const POWERED: u16 = 128;
/** The `*` segment must be a library scene id (404). */
export const SCENE: u16 = 256;
/** The `*` segment is a palette name, passed percent-decoded (404 when it cannot be decoded). */
export const PALETTE: u16 = 512;
/** The row's pattern is the next name of PATTERNS (else the row before's). */
export const NEW: u16 = 1024;

/** The patterns after "api/", in the order of the rows that start them (NEW). */
export const PATTERNS = names(
  "state state/power appearance configuration mqtt setup panels panels/edges panels/*/on panels/*/color layout palettes palettes/* scenes scenes/play scenes/stop scenes/speed scenes/play/one-shot scenes/*/play scenes/* animations/play animations/trigger firmware/panels firmware/status",
);

/** The rows: pattern by pattern (a pattern's rows are adjacent), method, flags. */
// prettier-ignore
export const ROWS = memory.data<u16>([
  NEW | M_GET | DOCUMENT, // 0 state: getState
  NEW | M_POST | READ_JSON, // 1 state/power: postPower
  NEW | M_GET | DOCUMENT, // 2 appearance: getAppearance
  M_PATCH | READ_JSON, // 3 patchAppearance
  NEW | M_GET | DOCUMENT, // 4 configuration: getConfiguration
  M_PATCH | READ_JSON, // 5 patchConfiguration
  NEW | M_GET | LARGE_ONLY | DOCUMENT, // 6 mqtt: getMqtt
  M_PATCH | LARGE_ONLY | READ_JSON, // 7 patchMqtt
  NEW | M_POST | READ_JSON, // 8 setup: postSetup
  NEW | M_GET, // 9 panels: getPanels (answered when the panels have replied)
  NEW | M_GET | DOCUMENT, // 10 panels/edges: getEdges
  NEW | M_PUT | READ_JSON, // 11 panels/*/on: putPanelOn
  NEW | M_PUT | READ_JSON, // 12 panels/*/color: putPanelColor
  NEW | M_GET | DOCUMENT, // 13 layout: getLayout
  NEW | M_GET | DOCUMENT, // 14 palettes: listPalettes
  M_POST | READ_JSON, // 15 createPalette
  NEW | M_GET | PALETTE, // 16 palettes/*: getPalette
  M_PUT | PALETTE, // 17 updatePalette (reads its body after the stored palette)
  M_DELETE | PALETTE, // 18 deletePalette
  NEW | M_GET, // 19 scenes: listScenes
  M_POST, // 20 createScene (the scene pass)
  NEW | M_POST | POWERED, // 21 scenes/play: playLast
  NEW | M_POST, // 22 scenes/stop: stop
  NEW | M_POST | POWERED | READ_JSON, // 23 scenes/speed: speed
  NEW | M_POST | POWERED, // 24 scenes/play/one-shot: playOneShot (the scene pass)
  NEW | M_POST | POWERED | SCENE, // 25 scenes/*/play: playById
  NEW | M_GET | SCENE, // 26 scenes/*: getScene
  M_PATCH | SCENE, // 27 patchScene (the scene pass)
  M_DELETE | SCENE, // 28 deleteScene
  M_PUT, // 29 createSceneAt (its id need not exist: the handler checks it)
  NEW | M_POST | POWERED, // 30 animations/play: animationPlay (the scene pass's flat step)
  NEW | M_POST | POWERED | READ_JSON, // 31 animations/trigger: trigger
  NEW | M_POST | STREAM, // 32 firmware/panels: postFirmware
  NEW | M_GET | STREAM | DOCUMENT, // 33 firmware/status: getFirmwareStatus
]);
export const ROW_COUNT = 34;

/** Runs row `row`'s handler. Every handler takes the request, the `*` segment ("" when none), and
 * `arg`: a JSON row's root kind (json/reader.ts J_*), a STREAM row's body length (still unread); it
 * returns the answer's row (http/answers.ts), or ANSWERED. Direct calls, not a table of function
 * references: each reference was a static Function object (16 B) and a pointer (4 B) in the image,
 * a table element (24 B) and, as the handler stayed a function of its own, about 96 B of WAMR heap;
 * here Binaryen inlines every handler (one caller each). A `switch` (one br_table): WAMR's classic
 * interpreter looks up the end of every block it enters, scanning the code when its small cache
 * misses, and a switch enters all its nested blocks, the outer ones spanning every handler; a chain
 * of `if`s (row k entering k + 1 of them, each spanning one handler) spent 122 B more on the
 * comparisons, and GET /api/state measured about the same with either (277 k with this one; it
 * has swung 231 k to 280 k with the code's layout alone). */
export function handle(row: i32, req: u32, param: string, arg: u32): i32 {
  switch (row) {
    case 0:
      return getState(req, param, arg);
    case 1:
      return postPower(req, param, arg);
    case 2:
      return getAppearance(req, param, arg);
    case 3:
      return patchAppearance(req, param, arg);
    case 4:
      return getConfiguration(req, param, arg);
    case 5:
      return patchConfiguration(req, param, arg);
    case 6:
      return getMqtt(req, param, arg);
    case 7:
      return patchMqtt(req, param, arg);
    case 8:
      return postSetup(req, param, arg);
    case 9:
      return getPanels(req, param, arg);
    case 10:
      return getEdges(req, param, arg);
    case 11:
      return putPanelOn(req, param, arg);
    case 12:
      return putPanelColor(req, param, arg);
    case 13:
      return getLayout(req, param, arg);
    case 14:
      return listPalettes(req, param, arg);
    case 15:
      return createPalette(req, param, arg);
    case 16:
      return getPalette(req, param, arg);
    case 17:
      return updatePalette(req, param, arg);
    case 18:
      return deletePalette(req, param, arg);
    case 19:
      return listScenes(req, param, arg);
    case 20:
      return createScene(req, param, arg);
    case 21:
      return playLast(req, param, arg);
    case 22:
      return stop(req, param, arg);
    case 23:
      return speed(req, param, arg);
    case 24:
      return playOneShot(req, param, arg);
    case 25:
      return playById(req, param, arg);
    case 26:
      return getScene(req, param, arg);
    case 27:
      return patchScene(req, param, arg);
    case 28:
      return deleteScene(req, param, arg);
    case 29:
      return createSceneAt(req, param, arg);
    case 30:
      return animationPlay(req, param, arg);
    case 31:
      return trigger(req, param, arg);
    case 32:
      return postFirmware(req, param, arg);
    case 33:
      return getFirmwareStatus(req, param, arg);
  }
  return 0;
}
