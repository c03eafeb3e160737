// Every endpoint of the HTTP API in one static table (http/router.ts finds the row): the path
// patterns in one text, then a row per pattern and method, whose number is its case in `dispatch`.
// No object is built for it at start. A `*` segment is the path parameter: a scene id, a panel
// address, a palette name (still percent-encoded). A more specific pattern comes before a `*` one
// that would also match it (scenes/play before scenes/*). A STREAM row's body is not read first: the
// firmware upload reads it in pieces (api/firmware.ts).
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

/** A route that leaves at most a few hundred bytes of garbage: the collector may wait (core/collect.ts). */
export const LIGHT: u8 = 1;
/** A route only where MQTT is (the large variant): elsewhere the path is unknown. */
export const LARGE_ONLY: u8 = 2;
/** A route whose body is not read before its handler runs (it streams it). */
export const STREAM: u8 = 4;

/** The patterns after "api/", one per line: pattern k is line k. */
export const PATTERNS =
  "state\nstate/power\nappearance\nconfiguration\nmqtt\nsetup\npanels\npanels/edges\npanels/*/on\n" +
  "panels/*/color\nlayout\npalettes\npalettes/*\nscenes\nscenes/play\nscenes/stop\nscenes/speed\n" +
  "scenes/play/one-shot\nscenes/*/play\nscenes/*\nanimations/play\nanimations/trigger\n" +
  "firmware/panels\nfirmware/status";

/** The rows, three bytes each: pattern line, method, flags. A pattern's rows are adjacent. */
// prettier-ignore
export const ROWS = memory.data<u8>([
  0, M_GET, LIGHT, // 0 state: getState
  1, M_POST, 0, // 1 state/power: postPower
  2, M_GET, LIGHT, // 2 appearance: getAppearance
  2, M_PATCH, 0, // 3 patchAppearance
  3, M_GET, LIGHT, // 4 configuration: getConfiguration
  3, M_PATCH, 0, // 5 patchConfiguration
  4, M_GET, LIGHT | LARGE_ONLY, // 6 mqtt: getMqtt
  4, M_PATCH, LARGE_ONLY, // 7 patchMqtt
  5, M_POST, 0, // 8 setup: postSetup
  6, M_GET, 0, // 9 panels: getPanels
  7, M_GET, LIGHT, // 10 panels/edges: getEdges
  8, M_PUT, 0, // 11 panels/*/on: putPanelOn
  9, M_PUT, 0, // 12 panels/*/color: putPanelColor
  10, M_GET, LIGHT, // 13 layout: getLayout
  11, M_GET, 0, // 14 palettes: listPalettes
  11, M_POST, 0, // 15 createPalette
  12, M_GET, LIGHT, // 16 palettes/*: getPalette
  12, M_PUT, 0, // 17 updatePalette
  12, M_DELETE, 0, // 18 deletePalette
  13, M_GET, 0, // 19 scenes: listScenes
  13, M_POST, 0, // 20 createScene
  14, M_POST, LIGHT, // 21 scenes/play: playLast (it only queues the play; the tick collects after itself)
  15, M_POST, 0, // 22 scenes/stop: stop
  16, M_POST, 0, // 23 scenes/speed: speed
  17, M_POST, 0, // 24 scenes/play/one-shot: playOneShot
  18, M_POST, LIGHT, // 25 scenes/*/play: playById
  19, M_GET, LIGHT, // 26 scenes/*: getScene
  19, M_PATCH, 0, // 27 patchScene
  19, M_DELETE, 0, // 28 deleteScene
  20, M_POST, 0, // 29 animations/play: animationPlay
  21, M_POST, 0, // 30 animations/trigger: trigger
  22, M_POST, LIGHT | STREAM, // 31 firmware/panels: postFirmware
  23, M_GET, LIGHT | STREAM, // 32 firmware/status: getFirmwareStatus
]);
export const ROW_COUNT = 33;

/** Runs row `row`'s handler: the request, the `*` segment ("" when none), the body (for a STREAM
 * row, `len` is the body's length, unread). */
export function dispatch(row: i32, req: u32, p: string, body: usize, len: u32): void {
  switch (row) {
    case 0:
      return getState(req, p, body, len);
    case 1:
      return postPower(req, p, body, len);
    case 2:
      return getAppearance(req, p, body, len);
    case 3:
      return patchAppearance(req, p, body, len);
    case 4:
      return getConfiguration(req, p, body, len);
    case 5:
      return patchConfiguration(req, p, body, len);
    case 6:
      return getMqtt(req, p, body, len);
    case 7:
      return patchMqtt(req, p, body, len);
    case 8:
      return postSetup(req, p, body, len);
    case 9:
      return getPanels(req, p, body, len);
    case 10:
      return getEdges(req, p, body, len);
    case 11:
      return putPanelOn(req, p, body, len);
    case 12:
      return putPanelColor(req, p, body, len);
    case 13:
      return getLayout(req, p, body, len);
    case 14:
      return listPalettes(req, p, body, len);
    case 15:
      return createPalette(req, p, body, len);
    case 16:
      return getPalette(req, p, body, len);
    case 17:
      return updatePalette(req, p, body, len);
    case 18:
      return deletePalette(req, p, body, len);
    case 19:
      return listScenes(req, p, body, len);
    case 20:
      return createScene(req, p, body, len);
    case 21:
      return playLast(req, p, body, len);
    case 22:
      return stop(req, p, body, len);
    case 23:
      return speed(req, p, body, len);
    case 24:
      return playOneShot(req, p, body, len);
    case 25:
      return playById(req, p, body, len);
    case 26:
      return getScene(req, p, body, len);
    case 27:
      return patchScene(req, p, body, len);
    case 28:
      return deleteScene(req, p, body, len);
    case 29:
      return animationPlay(req, p, body, len);
    case 30:
      return trigger(req, p, body, len);
    case 31:
      return postFirmware(req, p, body, len);
    case 32:
      return getFirmwareStatus(req, p, body, len);
  }
}
