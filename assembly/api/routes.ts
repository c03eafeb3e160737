// Every endpoint of the HTTP API in one table: path pattern, method, handler (http/router.ts finds
// them). A `*` segment is the path parameter: a scene id, a panel address, a palette name (still
// percent-encoded). Rows of one pattern are adjacent; a more specific pattern comes before a `*` one
// that would also match it. The firmware endpoints are not rows: their upload streams its body, so
// core_http_dispatch hands them over before any body is read (api/firmware.ts firmwareRequest).
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

/** Every handler's signature: the request, the `*` segment ("" when none), the body. */
export type Handler = (req: u32, param: string, body: usize, len: u32) => void;

/** A route only where MQTT is (the large variant): elsewhere the path is unknown. */
export const LARGE_ONLY: u32 = 2;

export class Route {
  constructor(
    public path: string,
    public method: u32,
    public handler: Handler,
    public flags: u32 = 0,
  ) {}
}

export const ROUTES: Route[] = [
  new Route("api/state", M_GET, getState),
  new Route("api/state/power", M_POST, postPower),
  new Route("api/appearance", M_GET, getAppearance),
  new Route("api/appearance", M_PATCH, patchAppearance),
  new Route("api/configuration", M_GET, getConfiguration),
  new Route("api/configuration", M_PATCH, patchConfiguration),
  new Route("api/mqtt", M_GET, getMqtt, LARGE_ONLY),
  new Route("api/mqtt", M_PATCH, patchMqtt, LARGE_ONLY),
  new Route("api/setup", M_POST, postSetup),
  new Route("api/panels", M_GET, getPanels),
  new Route("api/panels/edges", M_GET, getEdges),
  new Route("api/panels/*/on", M_PUT, putPanelOn),
  new Route("api/panels/*/color", M_PUT, putPanelColor),
  new Route("api/layout", M_GET, getLayout),
  new Route("api/palettes", M_GET, listPalettes),
  new Route("api/palettes", M_POST, createPalette),
  new Route("api/palettes/*", M_GET, getPalette),
  new Route("api/palettes/*", M_PUT, updatePalette),
  new Route("api/palettes/*", M_DELETE, deletePalette),
  new Route("api/scenes", M_GET, listScenes),
  new Route("api/scenes", M_POST, createScene),
  new Route("api/scenes/play", M_POST, playLast),
  new Route("api/scenes/stop", M_POST, stop),
  new Route("api/scenes/speed", M_POST, speed),
  new Route("api/scenes/play/one-shot", M_POST, playOneShot),
  new Route("api/scenes/*/play", M_POST, playById),
  new Route("api/scenes/*", M_GET, getScene),
  new Route("api/scenes/*", M_PATCH, patchScene),
  new Route("api/scenes/*", M_DELETE, deleteScene),
  new Route("api/animations/play", M_POST, animationPlay),
  new Route("api/animations/trigger", M_POST, trigger),
];
