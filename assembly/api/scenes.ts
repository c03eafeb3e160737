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

// The list is sorted by name, then id, in bounded memory: per scene a sort key of 72 bytes (a window
// of NAME_BYTES bytes of its name, as they are, zero-padded; its id's offset in the id list,
// store/scene-ids.ts; where the window starts; 8-byte aligned, as windows are compared in words). A
// name's window starts where it leaves the first name listed (the reference): two names leaving it at
// different places are ordered by that byte against the reference's, at the same place by their
// windows. The keys are placed by binary insertion, reading no file, so names sharing however long a
// prefix cost nothing more. Only a run of keys alike in a full window (names alike in 64 bytes past
// where they leave the reference) reads its scenes again, with the run's first name as its reference.
const LIST_CAP: u32 = MAX_SCENES + 1; // files added by hand past the limit are not listed
const NAME_BYTES: u32 = 64;
const KEY_SIZE: u32 = NAME_BYTES + 8;
const AT: u32 = NAME_BYTES; // u16: the id's offset
const FROM: u32 = NAME_BYTES + 2; // u16: where the window starts in the name

/** A name byte for ordering: UTF-8 sorts as code points, the API as UTF-16 code units (as JavaScript
 * compares strings), which put U+E000-U+FFFF after the supplementary planes; their lead bytes EE and
 * EF, which no other byte of UTF-8 has, are moved past F4. */
function rank(c: u32): u32 {
  return c == 0xee || c == 0xef ? c + 0x10 : c;
}

/** The order of two windows' bytes (NAME_BYTES each, zero-padded: a shorter name first): past their
 * common start, compared eight bytes at a time (names alike in a long prefix are the usual case), the
 * first bytes that differ, ranked. */
function orderWindows(a: usize, b: usize): i32 {
  let i: usize = 0;
  while (i < NAME_BYTES && load<u64>(a + i) == load<u64>(b + i)) i += 8;
  if (i == NAME_BYTES) return 0;
  while (load<u8>(a + i) == load<u8>(b + i)) i++; // rank is one-to-one on UTF-8's bytes
  return <i32>rank(load<u8>(a + i)) - <i32>rank(load<u8>(b + i));
}

/** The order of keys `a` and `b` of one run, whose windows start where each name leaves the reference
 * name `ref`: at the same place, by their windows; else the one that leaves it first, by its byte
 * there against the reference's, which the other shares (a name that ends there goes first). */
function orderKeys(a: usize, b: usize, ref: usize): i32 {
  const ca = <usize>load<u16>(a + FROM);
  const cb = <usize>load<u16>(b + FROM);
  if (ca == cb) return orderWindows(a, b);
  if (ca < cb) return <i32>rank(load<u8>(a)) - <i32>rank(load<u8>(ref + ca));
  return <i32>rank(load<u8>(ref + cb)) - <i32>rank(load<u8>(b));
}

/** Whether keys `a` and `b` are alike in a full window at the same place: their names may differ
 * past it. */
function alikeFull(a: usize, b: usize): bool {
  return load<u8>(a + NAME_BYTES - 1) != 0 && load<u16>(a + FROM) == load<u16>(b + FROM) && orderWindows(a, b) == 0;
}

/** Sets key `k`'s window to its name's bytes [from, from + NAME_BYTES) (`name`, `n` bytes). */
function setWindow(k: usize, name: usize, n: u32, from: u32): void {
  store<u16>(k + FROM, <u16>from);
  memory.fill(k, 0, NAME_BYTES);
  if (n > from) memory.copy(k, name + from, min<u32>(n - from, NAME_BYTES));
}

/** Places key `at` (index `k`) among the sorted keys [from, k) by binary insertion; of two alike, it
 * goes after (stable: the scenes come in the id list's order, which is the ids', as the host lists keys
 * sorted by their bytes, docs/host-abi.md host_store_list). `held` has room for one key. */
function place(keys: usize, from: i32, k: i32, held: usize, ref: usize): void {
  const key = keys + <usize>k * KEY_SIZE;
  let lo = from;
  let hi = k;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (orderKeys(key, keys + <usize>mid * KEY_SIZE, ref) < 0) hi = mid;
    else lo = mid + 1;
  }
  if (lo == k) return;
  const to = keys + <usize>lo * KEY_SIZE;
  memory.copy(held, key, KEY_SIZE);
  memory.copy(to + KEY_SIZE, to, <usize>(k - lo) * KEY_SIZE);
  memory.copy(to, held, KEY_SIZE);
}

/** Sets key `k`'s window for the summary's name (`n` bytes; 0: unreadable) where it leaves the
 * reference name (`ref`, `refLength` bytes), at `offset` or past it (all are alike that far). */
function setKey(k: usize, n: u32, ref: usize, refLength: u32, offset: u32): void {
  const end = min<u32>(n, refLength);
  let c = min<u32>(offset, n);
  while (c + 8 <= end && load<u64>(summaryName + c) == load<u64>(ref + c)) c += 8;
  while (c < end && load<u8>(summaryName + c) == load<u8>(ref + c)) c++;
  setWindow(k, summaryName, n, c);
}

/** Orders the run of keys [from, to), alike up to `offset` bytes of their names: each name is read
 * again (a file no longer readable sorts first, and is skipped when listed), its window set where it
 * leaves the run's first name (kept at `ref`), the run sorted, and each run still alike ordered the same
 * way a window further on. */
function orderRun(keys: usize, from: i32, to: i32, offset: u32, ref: usize, mark: usize): void {
  let refLength: u32 = 0;
  for (let k = from; k < to; k++) {
    const key = keys + <usize>k * KEY_SIZE;
    const n = readSummary(idAt(<i32>load<u16>(key + AT))) ? summaryNameLength : 0;
    if (k == from) {
      memory.copy(ref, summaryName, n);
      refLength = n;
    }
    setKey(key, n, ref, refLength, offset);
    arenaBack(mark);
  }
  const held = keys + <usize>LIST_CAP * KEY_SIZE;
  for (let k = from + 1; k < to; k++) place(keys, from, k, held, ref);
  orderAlike(keys, from, to, ref, mark);
}

/** Orders every run of keys in [from, to) alike in a full window by orderRun. */
function orderAlike(keys: usize, from: i32, to: i32, ref: usize, mark: usize): void {
  for (let s = from; s < to;) {
    const first = keys + <usize>s * KEY_SIZE;
    let e = s + 1;
    while (e < to && alikeFull(first, keys + <usize>e * KEY_SIZE)) e++;
    if (e - s > 1) orderRun(keys, s, e, <u32>load<u16>(first + FROM) + NAME_BYTES, ref, mark);
    s = e;
  }
}

/** The library, sorted by name then id, from each file's summary header (scene/summary.ts); a file
 * that cannot be read or no longer validates is skipped and logged. Memory does not grow with the
 * library beyond the ids and keys: the answer streams out one scene at a time. */
export function listScenes(req: u32, _param: string, _arg: u32): i32 {
  if (!openIds()) return A.A_LIBRARY_UNREADABLE;
  // the keys, one more (a key being moved), and a run's reference name (orderRun)
  const keys = heap.alloc((LIST_CAP + 1) * KEY_SIZE + HEADER_ROOM);
  const ref = keys + <usize>(LIST_CAP + 1) * KEY_SIZE;
  const mark = arenaTop(); // what a summary's log line or a plain file's pass leaves is given back
  let count = 0;
  let refLength: u32 = 0; // the first name listed is the reference
  for (let at = firstId(); at >= 0; at = nextId(at)) {
    if (count == LIST_CAP) {
      log(LOG_WARN, "scenes: more than " + LIST_CAP.toString() + " scene files; the rest are not listed");
      break;
    }
    const key = keys + <usize>count * KEY_SIZE;
    const listed = readSummary(idAt(at));
    if (listed) {
      store<u16>(key + AT, <u16>at);
      if (count == 0) {
        refLength = summaryNameLength;
        memory.copy(ref, summaryName, refLength);
      }
      setKey(key, summaryNameLength, ref, refLength, 0);
    }
    arenaBack(mark);
    if (!listed) continue;
    place(keys, 0, count, keys + <usize>LIST_CAP * KEY_SIZE, ref);
    count++;
  }
  orderAlike(keys, 0, count, ref, mark);
  w.begin(req, 200);
  w.byte(0x5b);
  let first = true;
  for (let k = 0; k < count; k++) {
    const id = idAt(<i32>load<u16>(keys + <usize>k * KEY_SIZE + AT));
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
