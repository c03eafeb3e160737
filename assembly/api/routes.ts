// Every endpoint of the HTTP API in one static table (http/router.ts finds the row): the path
// patterns in one text, then a row per pattern and method, whose number is its handler's index in
// HANDLERS. No object is built for it at start. A `*` segment is the path parameter: a scene id, a
// panel address, a palette name (still percent-encoded). A more specific pattern comes before a `*`
// one that would also match it (scenes/play before scenes/*). A STREAM row's body is not read first:
// the firmware upload reads it in pieces (api/firmware.ts). Any other handler reads its JSON document
// as it streams (json/stream.ts), within the body limit.
import { M_GET, M_POST, M_PUT, M_PATCH, M_DELETE } from "../http/request";
import { getAppearance, patchAppearance } from "./appearance";
import { getState, postPower } from "./state";
import { getConfiguration, patchConfiguration } from "./configuration";
import { getPanels, getEdges, putPanelOn, putPanelColor } from "./panels";
import { listScenes, createScene, getScene, patchScene, deleteScene } from "./scenes";
import { playById, playLast, playOneShot, stop, speed, animationPlay, trigger } from "./playback";
import { listPalettes, createPalette, getPalette, updatePalette, deletePalette } from "./palettes";
import { getMqtt, patchMqtt } from "./mqtt";
import { postSetup } from "./setup";
import { getLayout } from "./layout";
import { postFirmware, getFirmwareStatus } from "./firmware";

/** A route only where MQTT is (the large variant): elsewhere the path is unknown. */
export const LARGE_ONLY: u8 = 2;
/** A route whose body is not read before its handler runs (it streams it). */
export const STREAM: u8 = 4;

/** The patterns after "api/", one per line: pattern k is line k. One literal: a concatenation is
 * made at start-up, its pieces and partial results kept in memory for good (1.5 KB). */
export const PATTERNS =
  "state\nstate/power\nappearance\nconfiguration\nmqtt\nsetup\npanels\npanels/edges\npanels/*/on\npanels/*/color\nlayout\npalettes\npalettes/*\nscenes\nscenes/play\nscenes/stop\nscenes/speed\nscenes/play/one-shot\nscenes/*/play\nscenes/*\nanimations/play\nanimations/trigger\nfirmware/panels\nfirmware/status";

/** The rows, three bytes each: pattern line, method, flags. A pattern's rows are adjacent. */
// prettier-ignore
export const ROWS = memory.data<u8>([
  0, M_GET, 0, // 0 state: getState
  1, M_POST, 0, // 1 state/power: postPower
  2, M_GET, 0, // 2 appearance: getAppearance
  2, M_PATCH, 0, // 3 patchAppearance
  3, M_GET, 0, // 4 configuration: getConfiguration
  3, M_PATCH, 0, // 5 patchConfiguration
  4, M_GET, LARGE_ONLY, // 6 mqtt: getMqtt
  4, M_PATCH, LARGE_ONLY, // 7 patchMqtt
  5, M_POST, 0, // 8 setup: postSetup
  6, M_GET, 0, // 9 panels: getPanels
  7, M_GET, 0, // 10 panels/edges: getEdges
  8, M_PUT, 0, // 11 panels/*/on: putPanelOn
  9, M_PUT, 0, // 12 panels/*/color: putPanelColor
  10, M_GET, 0, // 13 layout: getLayout
  11, M_GET, 0, // 14 palettes: listPalettes
  11, M_POST, 0, // 15 createPalette
  12, M_GET, 0, // 16 palettes/*: getPalette
  12, M_PUT, 0, // 17 updatePalette
  12, M_DELETE, 0, // 18 deletePalette
  13, M_GET, 0, // 19 scenes: listScenes
  13, M_POST, 0, // 20 createScene
  14, M_POST, 0, // 21 scenes/play: playLast
  15, M_POST, 0, // 22 scenes/stop: stop
  16, M_POST, 0, // 23 scenes/speed: speed
  17, M_POST, 0, // 24 scenes/play/one-shot: playOneShot
  18, M_POST, 0, // 25 scenes/*/play: playById
  19, M_GET, 0, // 26 scenes/*: getScene
  19, M_PATCH, 0, // 27 patchScene
  19, M_DELETE, 0, // 28 deleteScene
  20, M_POST, 0, // 29 animations/play: animationPlay
  21, M_POST, 0, // 30 animations/trigger: trigger
  22, M_POST, STREAM, // 31 firmware/panels: postFirmware
  23, M_GET, STREAM, // 32 firmware/status: getFirmwareStatus
]);
export const ROW_COUNT = 33;

/** Every handler's signature: the request, the `*` segment ("" when none), the body (0: it stays
 * with the host, unread) and its length (for a row not STREAM, at most the body limit). */
export type Handler = (req: u32, param: string, body: usize, len: u32) => void;

/** The handler of each row, in ROWS' order (static data, built at compile time). Called through the
 * function table rather than a switch: a switch would get every handler inlined into one function,
 * and WAMR's classic interpreter looks up the end of each of its nested blocks on entry, scanning the
 * code when its small cache misses (about 50 k instructions more on GET /api/state). */
export const HANDLERS: StaticArray<Handler> = [
  getState,
  postPower,
  getAppearance,
  patchAppearance,
  getConfiguration,
  patchConfiguration,
  getMqtt,
  patchMqtt,
  postSetup,
  getPanels,
  getEdges,
  putPanelOn,
  putPanelColor,
  getLayout,
  listPalettes,
  createPalette,
  getPalette,
  updatePalette,
  deletePalette,
  listScenes,
  createScene,
  playLast,
  stop,
  speed,
  playOneShot,
  playById,
  getScene,
  patchScene,
  deleteScene,
  animationPlay,
  trigger,
  postFirmware,
  getFirmwareStatus,
];
