// Playback endpoints: POST /api/scenes/{id}/play, /api/scenes/play/one-shot, /api/scenes/play,
// /api/scenes/stop, /api/scenes/speed, /api/animations/play, /api/animations/trigger. Requests are
// checked at once and the playback itself runs on the next main-loop tick (W_PLAY and friends). All
// but stop need the system on: the router answers 409 system_off first (api/routes.ts POWERED).
import { names } from "../util/names";
import { queued } from "../http/request";
import * as A from "../http/answers";
import { J_NUMBER, J_STRING } from "../json/reader";
import { fail, resetErrors } from "../json/validate";
import { checkFields, skipOwn, present, kindAt, numberAt, intAt, stringAt } from "../json/check-fields";
import { W_PLAY, W_STOP, W_SPEED, W_TRIGGER, W_ANIMATION, enqueue, queueFull } from "../core/queue";
import { app } from "../state/app";
import { ALLOW_ID, SCENE_OK, SCENE_SYNTAX, readFlatStep } from "../scene/validate";
import { ONE_SHOT_ID, sceneStatus, discardStages } from "../scene/store";
import { STORE_MISSING, STORE_FULL } from "../store/kv";
import { groupOfName } from "../playback/player";
import { readBody, storeScene, rejected } from "./scene-body";
import { openRequest, broken } from "../json/stream";
import { loadFlat, groupList } from "../playback/compile";
import { writeInto, outLength } from "../playback/form-io";
import { rootAt } from "../topology/rooted";
import { config } from "../state/config";
import { flashBusy } from "../firmware/flash";

/** While a panel firmware flash holds the bus (flashBusy) a play is refused with 409 and changes
 * nothing: it could not reach the panels (docs/decisions.md, "A play during a panel flash"). */
function flashing(): i32 {
  return A.about("a panel firmware flash is in progress: play when it has ended", A.A_CONFLICT);
}

/** Queues scene `id` to play (the power is on): 202, or 503 busy. */
function play(id: string): i32 {
  const item = enqueue(W_PLAY, 0, 0);
  if (!item) return A.A_BUSY;
  item.setText(id);
  return A.A_ACCEPTED;
}

export function playById(_req: u32, id: string, _arg: u32): i32 {
  if (flashBusy()) return flashing();
  if (sceneStatus(id) == STORE_MISSING) return A.A_NOT_FOUND;
  return play(id);
}

export function playLast(_req: u32, _param: string, _arg: u32): i32 {
  if (flashBusy()) return flashing();
  const id = app.lastPlayedSceneId;
  if (id.length == 0 || sceneStatus(id) == STORE_MISSING) return A.A_NO_LAST_PLAYED;
  return play(id);
}

/** The answer to a one-shot scene that could not be stored: 507 storage_full when the store is full,
 * as every write route answers, else 500. */
function notStored(rc: i32): i32 {
  return rc == STORE_FULL ? A.A_STORAGE_FULL : A.A_ONE_SHOT_NOT_STORED;
}

export function playOneShot(req: u32, _param: string, _arg: u32): i32 {
  if (flashBusy()) return flashing();
  const result = readBody(req, ALLOW_ID);
  if (result < 0) return notStored(result);
  if (result != SCENE_OK) return rejected(result);
  // a refused one-shot changes nothing: the queue is checked before the stored one-shot is replaced
  if (queueFull()) {
    discardStages();
    return A.A_BUSY;
  }
  const rc = storeScene(ONE_SHOT_ID);
  if (rc < 0) return notStored(rc);
  return play(ONE_SHOT_ID);
}

export function stop(_req: u32, _param: string, _arg: u32): i32 {
  return queued(W_STOP, 0, 0, A.A_ACCEPTED);
}

// Accepted fields (json/check-fields.ts; each is checked below).
const SPEED_KEYS = names("speed");
const TRIGGER_KEYS = names("group value");

export function speed(_req: u32, _param: string, root: u32): i32 {
  if (!checkFields(root, SPEED_KEYS, 0, 0, 0, skipOwn, 32)) return A.A_INVALID;
  const x = present != 0 && kindAt(0) == J_NUMBER ? numberAt(0) : -1;
  if (!(x >= 0.1 && x <= 10.0)) {
    fail("speed", "must be a number 0.1-10.0");
    return A.A_INVALID;
  }
  const perMille = <i32>Math.round(x * 1000);
  return queued(W_SPEED, perMille, 0, A.A_SPEED);
}

/** {group: 1-254 or a layer name of the playing scene, value: 0-255}. */
export function trigger(_req: u32, _param: string, root: u32): i32 {
  if (!checkFields(root, TRIGGER_KEYS, 0, 0, 0, skipOwn, 32)) return A.A_INVALID;
  if ((present & 2) == 0 || !intAt(1, 0, 255)) {
    fail("value", "must be an integer 0-255");
    return A.A_INVALID;
  }
  let group = -1;
  if ((present & 1) != 0 && kindAt(0) == J_STRING) {
    group = groupOfName(stringAt(0));
    // the 404 says what the scene on the panels can be triggered by
    if (group < 0)
      return A.about(
        app.playing ? "the playing scene's groups: " + groupList() : "no scene is playing",
        A.A_GROUP_NOT_FOUND,
      );
  } else if ((present & 1) != 0 && intAt(0, 1, 254)) {
    group = <i32>numberAt(0);
  } else {
    fail("group", "must be a group number 1-254 or a layer name");
    return A.A_INVALID;
  }
  return queued(W_TRIGGER, group, <i32>numberAt(1), A.A_ACCEPTED);
}

/** One flat step with `group` (1-254) and `panels` beside the step fields; runners (issue 6) and
 * gaps are accepted and do nothing yet. Read as it streams (scene/validate.ts readFlatStep). */
const FLAT_CAP: u32 = 1024;

export function animationPlay(req: u32, _param: string, _arg: u32): i32 {
  if (flashBusy()) return flashing();
  resetErrors();
  openRequest(req);
  const form = heap.alloc(FLAT_CAP);
  writeInto(form, FLAT_CAP, 0);
  const group = readFlatStep();
  const n = outLength;
  writeInto(0, 0, 0);
  if (group < 0) return rejected(broken ? SCENE_SYNTAX : 422);
  if (n > FLAT_CAP) return A.A_TOO_LARGE;
  rootAt(config.logicalRoot);
  loadFlat(form, n, <u8>group);
  return queued(W_ANIMATION, 0, 0, A.A_ACCEPTED);
}
