// The scene library: POST /api/scenes, GET /api/scenes, GET|PATCH|DELETE /api/scenes/{id}.
// A document is read as it streams from the request (the scene pass, scene/validate.ts: validated,
// its canonical form staged under a key of its own, compiled into a small buffer), and stored only
// once it is valid. GET /api/scenes/{id} streams the stored file in chunks; the list reads one
// file at a time.
import { sendInvalid, sendSyntaxError } from "../http/request";
import { sendError, sendLiteral } from "../http/response";
import * as w from "../json/writer";
import { resetErrors } from "../json/validate";
import { openRequest } from "../json/stream";
import {
  readSummary,
  restoreName,
  summaryName,
  summaryNameLength,
  summarySchema,
  summaryLayers,
  summaryDuration,
} from "../scene/summary";
import { STORE_MISSING, STORE_FULL } from "../store/kv";
import { SCRATCH, FORM, FORM_CAP } from "../rt/scratch";
import { arenaTop, arenaBack } from "../rt/arena";
import { log, LOG_WARN, LOG_ERROR } from "../util/log";
import {
  readScene,
  REQUIRE_NAME,
  ALLOW_ID,
  SCENE_OK,
  SCENE_TOO_NEW,
  SCENE_SYNTAX,
  tooNewVersion,
} from "../scene/validate";
import * as canonical from "../scene/canonical";
import { sealCompiled, PREFIX } from "../playback/compile";
import { writeInto, outLength } from "../playback/bytes";
import { sceneDuration } from "../scene/startafter";
import { schema, layerCount, nameBytes, nameLength, FIRMWARE_SCHEMA } from "../scene/state";
import { openIds, firstId, nextId, idAt, idOrder, sceneCount } from "../store/scene-ids";
import {
  MAX_SCENES,
  libraryId,
  sceneStatus,
  sceneKey,
  newSceneId,
  deleteSceneFile,
  checkSceneFile,
  readSceneChunk,
  writeCompiledFile,
  commitScene,
  discardStages,
  fileHash,
  stageJson,
  STAGE_JSON_LENGTH,
  ONE_SHOT_ID,
  lastLength,
  chunk,
  CHUNK,
  openScene,
  HEADER_FIXED,
  HEADER_ROOM,
} from "../scene/store";

/** Answers a refused document: 400 invalid_json, 409 schema_too_new or 422 with the path and rule. */
export function sendRejected(req: u32, result: i32): void {
  if (result == SCENE_SYNTAX) return sendSyntaxError(req);
  if (result != SCENE_TOO_NEW) return sendInvalid(req);
  w.begin(req, 409);
  w.raw('{"error":"schema_too_new","scene":');
  w.int(tooNewVersion);
  w.raw(',"firmware":');
  w.int(FIRMWARE_SCHEMA);
  w.byte(0x7d);
  w.finish();
}

/** The compiled form's buffer (rt/scratch.ts F: from readBody to storeScene). */
const form = SCRATCH + FORM;
let formLength: u32 = 0;

/**
 * Reads the scene document of request `req` as it streams (the scene pass), staging its canonical
 * form and compiling it. SCENE_OK, or the refusal (sendRejected answers it); a refused document
 * leaves nothing behind. Then storeScene, or discardStages.
 */
export function readBody(req: u32, options: u32): i32 {
  resetErrors();
  openRequest(req);
  const mark = arenaTop();
  writeInto(form, FORM_CAP, 0);
  canonical.begin(stageJson, STAGE_JSON_LENGTH);
  const result = readScene(options);
  const rc = canonical.end();
  formLength = outLength;
  writeInto(0, 0, 0);
  if (result != SCENE_OK) {
    discardStages(); // the refusal's message is in the arena: the answer reads it
    return result;
  }
  // what the pass allocated is not read after it (its results are in static memory and kept slots):
  // the library walk and the store that follow start from where it began
  arenaBack(mark);
  return rc < 0 ? rc : SCENE_OK;
}

/**
 * Stores the scene readBody has read and staged as scene `id`: its file (header and canonical
 * JSON, scene/store.ts commitScene), then its compiled form under `compiled/<id>`. Returns 0 or a
 * negative STORE_* status; on failure the old files, if any, are intact. For playback (the one-shot
 * scene) as well as the library endpoints.
 */
export function storeScene(id: string): i32 {
  const produced = formLength;
  const rc = commitScene(id, schema, layerCount, sceneDuration(), nameBytes, nameLength);
  if (rc < 0) {
    log(LOG_ERROR, "scenes: writing scene " + id + " failed (" + rc.toString() + ")");
    return rc;
  }
  // the compiled form goes with this file (its hash): written after it, it matches no other
  if (produced > FORM_CAP || writeCompiledFile(id, form, sealCompiled(form, produced, fileHash)) < 0)
    log(LOG_WARN, "scenes: scene " + id + " plays from its JSON (no compiled form)");
  return 0;
}

function sendStoreFailure(req: u32, id: string, rc: i32): void {
  const what = id.length > 0 ? "scene " + id : "the scene";
  if (rc == STORE_FULL) return sendError(req, 507, "storage full: " + what + " was not saved");
  sendError(req, 500, what + " could not be saved");
}

function sendId(req: u32, id: string): void {
  w.begin(req, 200);
  w.raw('{"id":');
  w.str(id);
  w.byte(0x7d);
  w.finish();
}

export function createScene(req: u32, _id: string, _body: usize, _len: u32): void {
  const result = readBody(req, REQUIRE_NAME);
  if (result < 0) return sendStoreFailure(req, "", result);
  if (result != SCENE_OK) return sendRejected(req, result);
  const count = sceneCount();
  let refusal = "";
  if (count < 0) refusal = "the scene library is unreadable";
  else if (count >= MAX_SCENES) refusal = "the scene library is full (" + MAX_SCENES.toString() + " scenes)";
  const id = refusal.length == 0 ? newSceneId() : null;
  if (id === null) {
    discardStages();
    if (refusal.length == 0) return sendError(req, 500, "no free scene id");
    return sendError(req, count < 0 ? 500 : 507, refusal);
  }
  const rc = storeScene(id);
  if (rc < 0) return sendStoreFailure(req, id, rc);
  sendId(req, id);
}

export function patchScene(req: u32, id: string, _body: usize, _len: u32): void {
  if (!libraryId(id)) return sendError(req, 404, "not_found");
  const status = sceneStatus(id);
  if (status == STORE_MISSING) return sendError(req, 404, "not_found");
  if (status < 0) return sendError(req, 500, "scene " + id + " is unreadable");
  const result = readBody(req, REQUIRE_NAME);
  if (result < 0) return sendStoreFailure(req, id, result);
  if (result != SCENE_OK) return sendRejected(req, result);
  const rc = storeScene(id);
  if (rc < 0) return sendStoreFailure(req, id, rc);
  sendId(req, id);
}

export function deleteScene(req: u32, id: string, _body: usize, _len: u32): void {
  if (!libraryId(id)) return sendError(req, 404, "not_found");
  const rc = deleteSceneFile(id);
  if (rc == STORE_MISSING) return sendError(req, 404, "not_found");
  if (rc < 0) {
    log(LOG_ERROR, "scenes: deleting scene " + id + " failed (" + rc.toString() + ")");
    return sendError(req, 500, "scene " + id + " could not be deleted");
  }
  sendLiteral(req, 200, "{}");
}

/** Streams the stored file with `"id"` as the first member, after checking it is well-formed. */
export function getScene(req: u32, id: string, _body: usize, _len: u32): void {
  if (!libraryId(id)) return sendError(req, 404, "not_found");
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

// The list is sorted by name, then id, in bounded memory: per scene a sort key of 20 bytes (its id's
// offset in the id list, store/scene-ids.ts, and the first NAME_BYTES bytes of its name), kept
// sorted as they are made. Two names alike that far are compared whole, the other's read again.
const LIST_CAP: u32 = MAX_SCENES + 1; // files added by hand past the limit are not listed
const NAME_BYTES: u32 = 18;
const KEY_SIZE = 2 + NAME_BYTES;
let keys: usize = 0;

/** A name byte for ordering: UTF-8 sorts as code points, the API as UTF-16 code units (as JavaScript
 * compares strings), which put U+E000-U+FFFF after the supplementary planes; their lead bytes EE and
 * EF, which no other byte of UTF-8 has, are moved past F4. */
function rank(c: u32): u32 {
  return c == 0xee || c == 0xef ? c + 0x10 : c;
}

function orderBytes(a: usize, na: u32, b: usize, nb: u32): i32 {
  const n = min(na, nb);
  for (let i: u32 = 0; i < n; i++) {
    const d = <i32>rank(load<u8>(a + i)) - <i32>rank(load<u8>(b + i));
    if (d != 0) return d;
  }
  return <i32>na - <i32>nb;
}

/** Orders the scene being placed (key `a`, its summary read last: summaryName) before or after the
 * listed one of key `b`: by name, then id. */
function compareKeys(a: usize, b: usize): i32 {
  const d = memory.compare(a + 2, b + 2, NAME_BYTES);
  if (d != 0 || load<u8>(b + KEY_SIZE - 1) == 0) return d != 0 ? d : idOrder(load<u16>(a), load<u16>(b));
  // alike in their keys: b's name from its header (read into `chunk`, leaving the summary as it is)
  let c = 0;
  const header = openScene(sceneKey(idAt(<i32>load<u16>(b))));
  if (header > 0) c = orderBytes(summaryName, summaryNameLength, chunk + HEADER_FIXED, <u32>header - HEADER_FIXED);
  else {
    // a plain JSON file: its summary is computed, over the one being placed, which is set aside
    const mark = arenaTop();
    const aside = heap.alloc(HEADER_ROOM);
    const n = summaryNameLength;
    memory.copy(aside, summaryName, n);
    if (readSummary(idAt(<i32>load<u16>(b)))) c = orderBytes(aside, n, summaryName, summaryNameLength);
    restoreName(aside, n);
    arenaBack(mark);
  }
  return c != 0 ? c : idOrder(load<u16>(a), load<u16>(b));
}

/** The library, sorted by name then id, from each file's summary header (scene/summary.ts); a file
 * that cannot be read or no longer validates is skipped and logged. Memory does not grow with the
 * library beyond the ids and keys: the answer streams out one scene at a time. */
export function listScenes(req: u32, _param: string, _body: usize, _len: u32): void {
  if (!openIds()) return sendError(req, 500, "the scene library is unreadable");
  keys = heap.alloc(LIST_CAP * KEY_SIZE + KEY_SIZE); // and one for the scene being placed
  const mark = arenaTop(); // what a summary's log line or a plain file's pass leaves is given back
  let count = 0;
  for (let at = firstId(); at >= 0; at = nextId(at)) {
    if (count == LIST_CAP) {
      log(LOG_WARN, "scenes: more than " + LIST_CAP.toString() + " scene files; the rest are not listed");
      break;
    }
    const listed = readSummary(idAt(at));
    arenaBack(mark);
    if (!listed) continue;
    const key = keys + <usize>LIST_CAP * KEY_SIZE;
    store<u16>(key, <u16>at);
    const n = min<u32>(summaryNameLength, NAME_BYTES);
    for (let i: u32 = 0; i < NAME_BYTES; i++) store<u8>(key + 2 + i, i < n ? <u8>rank(load<u8>(summaryName + i)) : 0);
    // binary insertion: few comparisons, as one alike in its key reads a file
    let lo = 0;
    let hi = count;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (compareKeys(key, keys + <usize>mid * KEY_SIZE) < 0) hi = mid;
      else lo = mid + 1;
    }
    const to = keys + <usize>lo * KEY_SIZE;
    memory.copy(to + KEY_SIZE, to, <usize>(count - lo) * KEY_SIZE);
    memory.copy(to, key, KEY_SIZE);
    count++;
  }
  w.begin(req, 200);
  w.byte(0x5b);
  let first = true;
  for (let k = 0; k < count; k++) {
    const id = idAt(<i32>load<u16>(keys + <usize>k * KEY_SIZE));
    const listed = readSummary(id);
    arenaBack(mark);
    if (!listed) continue;
    if (!first) w.byte(0x2c);
    first = false;
    w.raw('{"schemaVersion":');
    w.int(summarySchema);
    w.raw(',"id":');
    w.str(id);
    w.raw(',"name":');
    w.strBytes(summaryName, summaryNameLength);
    w.raw(',"layerCount":');
    w.int(summaryLayers);
    w.raw(',"duration":');
    w.int(summaryDuration);
    w.byte(0x7d);
  }
  w.byte(0x5d);
  w.finish();
}
