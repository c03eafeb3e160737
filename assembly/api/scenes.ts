// The scene library: POST /api/scenes, GET /api/scenes, GET|PUT|PATCH|DELETE /api/scenes/{id}.
// A document is read as it streams from the request (api/scene-body.ts) and stored only once it is
// valid. GET /api/scenes/{id} streams the stored file in chunks; the list reads one file at a time.
// The router has checked that an {id} is a library scene's (api/routes.ts SCENE), except PUT's.
import * as A from "../http/answers";
import * as w from "../json/writer";
import { fillValues, VALUES, STR_INTS } from "../json/template";
import * as t from "../generated/text";
import {
  readSummary,
  summaryName,
  summaryNameLength,
  summarySchema,
  summaryLayers,
  summaryDuration,
} from "../scene/summary";
import { STORE_MISSING, STORE_FULL } from "../store/kv";
import { arenaTop, arenaBack } from "../rt/arena";
import { log, LOG_WARN, LOG_ERROR } from "../util/log";
import { REQUIRE_NAME, SCENE_OK } from "../scene/validate";
import { fail } from "../json/validate";
import { readBody, storeScene, rejected } from "./scene-body";
import { openIds, firstId, nextId, idAt, sceneCount } from "../store/scene-ids";
import {
  MAX_SCENES,
  sceneStatus,
  sceneKey,
  libraryId,
  newSceneId,
  deleteSceneFile,
  checkSceneFile,
  readSceneChunk,
  discardStages,
  lastLength,
  chunk,
  CHUNK,
  HEADER_ROOM,
} from "../scene/store";
import { intText } from "../util/int-text";

/** The answer to a scene that could not be stored: 507 when the store is full, else 500, about
 * scene `id` (null: a new scene, not given an id yet). */
function notSaved(id: string | null, rc: i32): i32 {
  const a = rc == STORE_FULL ? A.A_SCENE_FULL : A.A_SCENE_NOT_SAVED;
  return changetype<usize>(id) == 0 ? a + 1 : A.about(id, a);
}

/** Reads the request's scene and stores it as scene `id`, or (null) as a new scene, which gets an id
 * once it is valid; a new scene (`fresh`, with its id or without) needs room in the library:
 * 200 {"id"}. */
function save(req: u32, id: string | null, fresh: bool): i32 {
  const result = readBody(req, REQUIRE_NAME);
  if (result < 0) return notSaved(id, result);
  if (result != SCENE_OK) return rejected(result);
  if (fresh) {
    const count = sceneCount();
    if (changetype<usize>(id) == 0) id = count < 0 || count >= MAX_SCENES ? null : newSceneId();
    if (changetype<usize>(id) == 0 || count < 0 || count >= MAX_SCENES) {
      discardStages();
      if (count < 0) return A.A_LIBRARY_UNREADABLE;
      return count >= MAX_SCENES ? A.counted(A.A_LIBRARY_FULL, MAX_SCENES) : A.A_NO_FREE_ID;
    }
  }
  const rc = storeScene(id!);
  return rc < 0 ? notSaved(id, rc) : A.about(id!, A.A_ID);
}

export function createScene(req: u32, _param: string, _arg: u32): i32 {
  return save(req, null, true);
}

/** PUT /api/scenes/{id}: a new scene under the id given (a backup restored keeps its ids, which
 * automations and `tessera play` use); 409 id_exists when a scene has it (PATCH replaces one). */
export function createSceneAt(req: u32, id: string, _arg: u32): i32 {
  if (!libraryId(id)) {
    fail("id", "must be 8-10 characters a-z and 0-9, not the one-shot scene's");
    return A.A_INVALID;
  }
  const status = sceneStatus(id);
  if (status == 0) return A.about("id_exists", A.A_CONFLICT);
  if (status != STORE_MISSING) return A.A_SCENE_UNREADABLE; // the subject is the id
  return save(req, id, true);
}

export function patchScene(req: u32, id: string, _arg: u32): i32 {
  const status = sceneStatus(id);
  if (status == STORE_MISSING) return A.A_NOT_FOUND;
  if (status < 0) return A.A_SCENE_UNREADABLE; // the subject is the id
  return save(req, id, false);
}

export function deleteScene(_req: u32, id: string, _arg: u32): i32 {
  const rc = deleteSceneFile(id);
  if (rc == STORE_MISSING) return A.A_NOT_FOUND;
  if (rc < 0) {
    log(LOG_ERROR, "scenes: deleting scene " + id + " failed (" + intText(rc) + ")");
    return A.A_SCENE_NOT_DELETED;
  }
  return A.A_OK;
}

/** Streams the stored file with `"id"` as the first member, after checking it is well-formed. */
export function getScene(req: u32, id: string, _arg: u32): i32 {
  const status = checkSceneFile(id);
  if (status == STORE_MISSING) return A.A_NOT_FOUND;
  if (status < 0) {
    log(LOG_WARN, "scenes: scene " + id + " is unreadable or corrupt");
    return A.A_SCENE_UNREADABLE;
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
      if (phase < 2) {
        // the file was checked to be an object: before its first member, only whitespace (the one
        // kind of byte up to a space there) and the '{'
        if (c <= 0x20 || phase++ == 0) continue;
        if (c != 0x7d) w.byte(0x2c);
      }
      w.byte(c);
    }
    offset += <u32>got;
  }
  w.finish();
  return A.ANSWERED;
}

// The list is sorted by name, then id, in bounded memory: per scene a sort key of 20 bytes (its id's
// offset in the id list, store/scene-ids.ts, and the first NAME_BYTES bytes of its name, as they are,
// zero-padded), kept sorted as they are made, both compared by orderBytes. Two names alike that far
// are compared whole, the other's read again.
const LIST_CAP: u32 = MAX_SCENES + 1; // files added by hand past the limit are not listed
const NAME_BYTES: u32 = 18;
const KEY_SIZE = 2 + NAME_BYTES;

/** A name byte for ordering: UTF-8 sorts as code points, the API as UTF-16 code units (as JavaScript
 * compares strings), which put U+E000-U+FFFF after the supplementary planes; their lead bytes EE and
 * EF, which no other byte of UTF-8 has, are moved past F4. */
function rank(c: u32): u32 {
  return c == 0xee || c == 0xef ? c + 0x10 : c;
}

/** The order of two names' bytes: past their common start (a plain loop: GET /api/scenes compares
 * keys about 700 times, and ranking every byte cost it 7 M instructions), the first bytes that differ,
 * ranked; else the shorter first. */
function orderBytes(a: usize, na: u32, b: usize, nb: u32): i32 {
  const n = min(na, nb);
  let i: u32 = 0;
  while (i < n && load<u8>(a + i) == load<u8>(b + i)) i++; // rank is one-to-one on UTF-8's bytes
  return i < n ? <i32>rank(load<u8>(a + i)) - <i32>rank(load<u8>(b + i)) : <i32>na - <i32>nb;
}

/** Whether the scene being placed (key `a`) goes before the listed one of key `b`: by name, then id. The scenes are placed in the id list's order, which is the
 * ids' (the host lists keys sorted by their bytes, docs/host-abi.md host_store_list; for ids,
 * [a-z0-9], that is the strings' order): of two alike in name, the one being placed goes after. */
function before(a: usize, b: usize, name: usize, n: u32, mark: usize): bool {
  const d = orderBytes(a + 2, NAME_BYTES, b + 2, NAME_BYTES);
  if (d != 0 || load<u8>(b + KEY_SIZE - 1) == 0) return d < 0;
  // alike in their keys: b's whole name from its summary (its header, or a plain JSON file's pass)
  // against the whole name of the one being placed (`n` bytes at `name`)
  const c = readSummary(idAt(<i32>load<u16>(b))) ? orderBytes(name, n, summaryName, summaryNameLength) : 0;
  arenaBack(mark);
  return c < 0;
}

/** The library, sorted by name then id, from each file's summary header (scene/summary.ts); a file
 * that cannot be read or no longer validates is skipped and logged. Memory does not grow with the
 * library beyond the ids and keys: the answer streams out one scene at a time. */
export function listScenes(req: u32, _param: string, _arg: u32): i32 {
  if (!openIds()) return A.A_LIBRARY_UNREADABLE;
  // the keys, then the key and the whole name of the scene being placed
  const keys = heap.alloc(LIST_CAP * KEY_SIZE + KEY_SIZE + HEADER_ROOM);
  const key = keys + <usize>LIST_CAP * KEY_SIZE;
  const name = key + KEY_SIZE;
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
    store<u16>(key, <u16>at);
    const n = summaryNameLength;
    memory.copy(name, summaryName, n);
    memory.fill(key + 2, 0, NAME_BYTES);
    memory.copy(key + 2, name, min<u32>(n, NAME_BYTES));
    // binary insertion: few comparisons, as one alike in its key reads a file
    let lo = 0;
    let hi = count;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (before(key, keys + <usize>mid * KEY_SIZE, name, n, mark)) hi = mid;
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
    // two templates (assembly/text/scene-head.txt, scene-tail.txt), the name's bytes between them
    store<usize>(VALUES, changetype<usize>(id));
    store<i32>(VALUES, summarySchema, 8);
    store<i32>(VALUES, summaryLayers, 16);
    store<i32>(VALUES, summaryDuration, 24);
    fillValues(t.SCENE_HEAD, t.SCENE_HEAD_LENGTH, STR_INTS);
    w.strBytes(summaryName, summaryNameLength);
    fillValues(t.SCENE_TAIL, t.SCENE_TAIL_LENGTH, STR_INTS);
  }
  w.byte(0x5d);
  w.finish();
  return A.ANSWERED;
}
