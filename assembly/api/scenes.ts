// The scene library: POST /api/scenes, GET /api/scenes, GET|PATCH|DELETE /api/scenes/{id}.
// Documents are validated on the JSON tape (scene/validate) and stored in canonical form
// (scene/canonical), written over the request body itself when it fits. GET /api/scenes/{id}
// streams the stored file in chunks; the list reads one file at a time.
import { M_GET, M_POST, M_PATCH, M_DELETE, jsonBody, sendInvalid, BODY_SLACK } from "../http/request";
import { sendError, sendLiteral } from "../http/response";
import * as w from "../json/writer";
import * as playback from "./playback";
import { parseJson, closeJson, stringValue, PARSE_OK } from "../json/reader";
import { resetErrors, validationError } from "../json/validate";
import { STORE_MISSING, STORE_FULL, STORE_IO_ERROR } from "../store/kv";
import { log, LOG_WARN, LOG_ERROR } from "../util/log";
import { validateScene, REQUIRE_NAME, SCENE_OK, SCENE_TOO_NEW, tooNewVersion } from "../scene/validate";
import { canonicalLength, writeCanonicalInPlace, spillLength, spillTo, releaseSpill } from "../scene/canonical";
import { sceneDuration } from "../scene/startafter";
import { schema, layerCount, nameToken, FIRMWARE_SCHEMA } from "../scene/state";
import {
  ONE_SHOT_ID,
  MAX_SCENES,
  validSceneId,
  sceneStatus,
  sceneKey,
  newSceneId,
  listSceneIds,
  writeSceneFile,
  deleteSceneFile,
  readSceneFile,
  checkSceneFile,
  readSceneChunk,
  lastLength,
  chunk,
  CHUNK,
} from "../scene/store";

export function routeScenes(req: u32, m: u32, seg: string[], body: usize, len: u32): void {
  const n = seg.length;
  // playback: /api/scenes/play, /play/one-shot, /stop, /speed, /{id}/play (POST only)
  const verb = n >= 3 ? seg[2] : "";
  const isPlay =
    (n == 3 && (verb == "play" || verb == "stop" || verb == "speed")) ||
    (n == 4 && ((verb == "play" && seg[3] == "one-shot") || seg[3] == "play"));
  if (isPlay) {
    if (m != M_POST) return sendError(req, 405, "method_not_allowed");
    if (n == 4 && seg[3] == "play") return playback.playById(req, verb);
    if (n == 4) return playback.playOneShot(req, body, len);
    if (verb == "play") return playback.playLast(req);
    if (verb == "stop") return playback.stop(req);
    return playback.speed(req, body, len);
  }
  if (n == 2) {
    if (m == M_GET) return listScenes(req);
    if (m == M_POST) return createScene(req, body, len);
    return sendError(req, 405, "method_not_allowed");
  }
  if (n == 3) {
    if (m != M_GET && m != M_PATCH && m != M_DELETE) return sendError(req, 405, "method_not_allowed");
    const id = seg[2];
    if (!validSceneId(id) || id == ONE_SHOT_ID) return sendError(req, 404, "not_found");
    if (m == M_GET) return getScene(req, id);
    if (m == M_PATCH) return patchScene(req, id, body, len);
    return deleteScene(req, id);
  }
  sendError(req, 404, "not_found");
}

/** Answers a failed validation: 409 schema_too_new or 422 with the path and rule. */
export function sendRejected(req: u32, result: i32): void {
  if (result != SCENE_TOO_NEW) return sendInvalid(req);
  w.begin(req, 409);
  w.raw('{"error":"schema_too_new","scene":');
  w.int(tooNewVersion);
  w.raw(',"firmware":');
  w.int(FIRMWARE_SCHEMA);
  w.byte(0x7d);
  w.finish();
}

/**
 * Stores the validated document at token `root` of the open JSON document, whose source bytes are
 * [src, src+len) followed by BODY_SLACK spare bytes (a request body), as scene `id` in canonical
 * form. The canonical form is written over the source bytes (scene/canonical); when legacy rewrites
 * make it longer than the source, the rest goes into the spare bytes, or (longer still) the JSON
 * document is closed and the scene is assembled in a block of its own. Either way the tokens are
 * unusable afterwards. Returns 0 or a negative STORE_* status; on failure the old file, if any, is intact.
 * For playback (the one-shot scene) as well as the library endpoints.
 */
export function storeValidatedScene(id: string, root: i32, src: usize, len: u32): i32 {
  const length = canonicalLength(root);
  const inPlace = writeCanonicalInPlace(root, src, len);
  if (inPlace < 0) {
    log(LOG_ERROR, "scenes: canonical form of scene " + id + " overflowed its spill");
    return STORE_IO_ERROR;
  }
  let rc: i32 = 0;
  if (spillLength() == 0) rc = writeSceneFile(id, src, length);
  else if (length <= len + BODY_SLACK) {
    // the request body's spare bytes take the spill: no second copy
    spillTo(src + <usize>inPlace);
    rc = writeSceneFile(id, src, length);
  } else {
    closeJson();
    const dest = heap.alloc(length);
    memory.copy(dest, src, <usize>inPlace);
    spillTo(dest + <usize>inPlace);
    rc = writeSceneFile(id, dest, length);
    heap.free(dest);
  }
  releaseSpill();
  if (rc < 0) log(LOG_ERROR, "scenes: writing scene " + id + " failed (" + rc.toString() + ")");
  return rc;
}

function sendStoreFailure(req: u32, id: string, rc: i32): void {
  if (rc == STORE_FULL) return sendError(req, 507, "storage full: scene " + id + " was not saved");
  sendError(req, 500, "scene " + id + " could not be saved");
}

function sendId(req: u32, id: string): void {
  w.begin(req, 200);
  w.raw('{"id":');
  w.str(id);
  w.byte(0x7d);
  w.finish();
}

function createScene(req: u32, body: usize, len: u32): void {
  const root = jsonBody(req, body, len);
  if (root < 0) return;
  const result = validateScene(root, REQUIRE_NAME);
  if (result != SCENE_OK) return sendRejected(req, result);
  const ids = listSceneIds();
  if (ids === null) return sendError(req, 500, "the scene library is unreadable");
  if (ids.length >= MAX_SCENES) {
    return sendError(req, 507, "the scene library is full (" + MAX_SCENES.toString() + " scenes)");
  }
  const id = newSceneId();
  if (id === null) return sendError(req, 500, "no free scene id");
  const rc = storeValidatedScene(id, root, body, len);
  if (rc < 0) return sendStoreFailure(req, id, rc);
  sendId(req, id);
}

function patchScene(req: u32, id: string, body: usize, len: u32): void {
  const status = sceneStatus(id);
  if (status == STORE_MISSING) return sendError(req, 404, "not_found");
  if (status < 0) return sendError(req, 500, "scene " + id + " is unreadable");
  const root = jsonBody(req, body, len);
  if (root < 0) return;
  const result = validateScene(root, REQUIRE_NAME);
  if (result != SCENE_OK) return sendRejected(req, result);
  const rc = storeValidatedScene(id, root, body, len);
  if (rc < 0) return sendStoreFailure(req, id, rc);
  sendId(req, id);
}

function deleteScene(req: u32, id: string): void {
  const rc = deleteSceneFile(id);
  if (rc == STORE_MISSING) return sendError(req, 404, "not_found");
  if (rc < 0) {
    log(LOG_ERROR, "scenes: deleting scene " + id + " failed (" + rc.toString() + ")");
    return sendError(req, 500, "scene " + id + " could not be deleted");
  }
  sendLiteral(req, 200, "{}");
}

/** Streams the stored file with `"id"` as the first member, after checking it is well-formed. */
function getScene(req: u32, id: string): void {
  const status = checkSceneFile(id);
  if (status == STORE_MISSING) return sendError(req, 404, "not_found");
  if (status < 0) {
    log(LOG_WARN, "scenes: scene " + id + " is unreadable or corrupt");
    return sendError(req, 500, "scene " + id + " is unreadable");
  }
  const total = lastLength;
  const key = sceneKey(id);
  w.beginChunked(req, 200);
  w.raw('{"id":');
  w.str(id);
  let phase = 0; // 0: before the opening brace, 1: before the first member, 2: copying
  let offset: u32 = 0;
  while (offset < total) {
    const got = readSceneChunk(key, offset, chunk, min(CHUNK, total - offset));
    if (got <= 0) {
      log(LOG_ERROR, "scenes: reading scene " + id + " failed while sending it");
      break;
    }
    for (let i: u32 = 0; i < <u32>got; i++) {
      const c = <u32>load<u8>(chunk + i);
      if (phase == 2) w.byte(c);
      else if (c == 0x20 || c == 0x0a || c == 0x0d || c == 0x09) continue;
      else if (phase == 0)
        phase = 1; // the '{' (the file was checked to be an object)
      else {
        if (c != 0x7d) w.byte(0x2c);
        w.byte(c);
        phase = 2;
      }
    }
    offset += <u32>got;
  }
  w.finish();
}

class Summary {
  constructor(
    public schemaVersion: i32,
    public id: string,
    public name: string,
    public layerCount: i32,
    public duration: u32,
  ) {}
}

/** In place; the library holds at most 100 scenes, and the library sort would add 1 KiB of code. */
function insertionSort(items: Summary[]): void {
  for (let i = 1; i < items.length; i++) {
    const item = items[i];
    let j = i - 1;
    while (j >= 0 && bySummary(items[j], item) > 0) {
      items[j + 1] = items[j];
      j--;
    }
    items[j + 1] = item;
  }
}

function bySummary(a: Summary, b: Summary): i32 {
  const c = codeUnitOrder(a.name, b.name);
  return c != 0 ? c : codeUnitOrder(a.id, b.id);
}

/** The sign orders a and b as String's < and > do (UTF-16 code units, a prefix first), in less code. */
function codeUnitOrder(a: string, b: string): i32 {
  const n = min(a.length, b.length);
  for (let i = 0; i < n; i++) {
    const d = a.charCodeAt(i) - b.charCodeAt(i);
    if (d != 0) return d;
  }
  return a.length - b.length;
}

/** The library, sorted by name then id. Each file is read and validated in turn (one in memory at a
 * time); one that cannot be read or no longer validates is skipped and logged. */
function listScenes(req: u32): void {
  const ids = listSceneIds();
  if (ids === null) return sendError(req, 500, "the scene library is unreadable");
  const items = new Array<Summary>();
  for (let i = 0; i < ids.length; i++) {
    const item = summarize(ids[i]);
    if (item) items.push(item);
  }
  insertionSort(items);
  w.begin(req, 200);
  w.byte(0x5b);
  for (let i = 0; i < items.length; i++) {
    const s = items[i];
    if (i > 0) w.byte(0x2c);
    w.raw('{"schemaVersion":');
    w.int(s.schemaVersion);
    w.raw(',"id":');
    w.str(s.id);
    w.raw(',"name":');
    w.str(s.name);
    w.raw(',"layerCount":');
    w.int(s.layerCount);
    w.raw(',"duration":');
    w.int(s.duration);
    w.byte(0x7d);
  }
  w.byte(0x5d);
  w.finish();
}

function summarize(id: string): Summary | null {
  const buf = readSceneFile(id);
  if (buf == 0) {
    log(LOG_WARN, "scenes: scene " + id + " is unreadable or corrupt; not listed");
    return null;
  }
  let item: Summary | null = null;
  resetErrors();
  if (parseJson(buf, lastLength) != PARSE_OK) {
    log(LOG_WARN, "scenes: scene " + id + " is not valid JSON; not listed");
  } else if (validateScene(0, REQUIRE_NAME) != SCENE_OK) {
    const why = validationError();
    log(
      LOG_WARN,
      "scenes: scene " +
        id +
        " no longer validates (" +
        (why.length > 0 ? why : "schemaVersion too new") +
        "); not listed",
    );
  } else {
    item = new Summary(schema, id, stringValue(nameToken), layerCount, sceneDuration());
  }
  closeJson();
  heap.free(buf);
  return item;
}
