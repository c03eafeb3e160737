// Playback endpoints: POST /api/scenes/{id}/play, /api/scenes/play/one-shot, /api/scenes/play,
// /api/scenes/stop, /api/scenes/speed, /api/animations/trigger. Requests are checked at once and
// the playback itself runs on the next main-loop tick (W_PLAY and friends).
import { names } from "../util/names";
import { jsonBody, sendInvalid, queueOrBusy, queueHasRoom, sendAccepted, M_POST } from "../http/request";
import { sendError } from "../http/response";
import * as w from "../json/writer";
import { J_NUMBER, J_STRING } from "../json/reader";
import { fail, resetErrors } from "../json/validate";
import { checkFields, present, kindAt, numberAt, intAt, stringAt } from "../json/fields";
import { W_PLAY, W_STOP, W_SPEED, W_TRIGGER, W_ANIMATION } from "../core/queue";
import { app } from "../state/app";
import { ALLOW_ID, SCENE_OK, SCENE_SYNTAX, readFlatStep } from "../scene/validate";
import { ONE_SHOT_ID, libraryId, sceneStatus, discardStages } from "../scene/store";
import { STORE_MISSING } from "../store/kv";
import { groupOfName } from "../playback/player";
import { readBody, storeScene, sendRejected } from "./scenes";
import { openRequest, broken } from "../json/stream";
import { loadFlat } from "../playback/compile";
import { writeInto, outLength } from "../playback/bytes";
import { rootAt } from "../topology/rooted";
import { config } from "../state/config";

/** Answers 409 system_off while power is off; true when the caller may go on. */
function powered(req: u32): bool {
  if (app.isOn) return true;
  sendError(req, 409, "system_off");
  return false;
}

function queuePlay(req: u32, id: string): void {
  const item = queueOrBusy(req, W_PLAY, 0, 0);
  if (!item) return;
  item.setText(id);
  sendAccepted(req);
}

export function playById(req: u32, id: string, _body: usize, _len: u32): void {
  if (!powered(req)) return;
  if (!libraryId(id) || sceneStatus(id) == STORE_MISSING) {
    return sendError(req, 404, "not_found");
  }
  queuePlay(req, id);
}

export function playLast(req: u32, _param: string, _body: usize, _len: u32): void {
  if (!powered(req)) return;
  if (app.lastPlayedSceneId.length == 0 || sceneStatus(app.lastPlayedSceneId) == STORE_MISSING) {
    return sendError(req, 404, "no_last_played_scene");
  }
  queuePlay(req, app.lastPlayedSceneId);
}

export function playOneShot(req: u32, _param: string, _body: usize, _len: u32): void {
  if (!powered(req)) return;
  const result = readBody(req, ALLOW_ID);
  if (result < 0) return sendError(req, 500, "the one-shot scene could not be stored");
  if (result != SCENE_OK) return sendRejected(req, result);
  // a refused one-shot changes nothing: the queue is checked before the stored one-shot is replaced
  if (!queueHasRoom(req)) return discardStages();
  const rc = storeScene(ONE_SHOT_ID);
  if (rc < 0) return sendError(req, 500, "the one-shot scene could not be stored");
  queuePlay(req, ONE_SHOT_ID);
}

export function stop(req: u32, _param: string, _body: usize, _len: u32): void {
  if (queueOrBusy(req, W_STOP, 0, 0)) sendAccepted(req);
}

// Accepted fields (json/fields.ts; each is checked below).
const SPEED_KEYS = names("speed");
const TRIGGER_KEYS = names("group value");

export function speed(req: u32, _param: string, _body: usize, _len: u32): void {
  if (!powered(req)) return;
  if (!checkFields(jsonBody(req), SPEED_KEYS, 0, 0, 0)) return sendInvalid(req);
  const x = present != 0 && kindAt(0) == J_NUMBER ? numberAt(0) : -1;
  if (!(x >= 0.1 && x <= 10.0)) {
    fail("speed", "must be a number 0.1-10.0");
    return sendInvalid(req);
  }
  const perMille = <i32>Math.round(x * 1000);
  if (!queueOrBusy(req, W_SPEED, perMille, 0)) return;
  w.begin(req, 202);
  w.raw('{"ok":true,"speed":');
  w.decimal(<f64>perMille / 1000);
  w.byte(0x7d);
  w.finish();
}

/** {group: 1-254 or a layer name of the playing scene, value: 0-255}. */
export function trigger(req: u32, _param: string, _body: usize, _len: u32): void {
  if (!powered(req)) return;
  if (!checkFields(jsonBody(req), TRIGGER_KEYS, 0, 0, 0)) return sendInvalid(req);
  if ((present & 2) == 0 || !intAt(1, 0, 255)) {
    fail("value", "must be an integer 0-255");
    return sendInvalid(req);
  }
  let group = -1;
  if ((present & 1) != 0 && kindAt(0) == J_STRING) {
    group = groupOfName(stringAt(0));
    if (group < 0) return sendError(req, 404, "group_not_found");
  } else if ((present & 1) != 0 && intAt(0, 1, 254)) {
    group = <i32>numberAt(0);
  } else {
    fail("group", "must be a group number 1-254 or a layer name");
    return sendInvalid(req);
  }
  if (queueOrBusy(req, W_TRIGGER, group, <i32>numberAt(1))) sendAccepted(req);
}

/** One flat step with `group` (1-254) and `panels` beside the step fields; runners (issue 6) and
 * gaps are accepted and do nothing yet. Read as it streams (scene/validate.ts readFlatStep). */
const FLAT_CAP: u32 = 1024;

export function animationPlay(req: u32, _param: string, _body: usize, _len: u32): void {
  if (!powered(req)) return;
  resetErrors();
  openRequest(req);
  const form = heap.alloc(FLAT_CAP);
  writeInto(form, FLAT_CAP, 0);
  const group = readFlatStep();
  const n = outLength;
  writeInto(0, 0, 0);
  if (group < 0) return sendRejected(req, broken ? SCENE_SYNTAX : 422);
  if (n > FLAT_CAP) return sendError(req, 413, "payload_too_large");
  rootAt(config.logicalRoot);
  loadFlat(form, n, <u8>group);
  if (queueOrBusy(req, W_ANIMATION, 0, 0)) sendAccepted(req);
}
