// The scene library in the host's store: one file per scene, key `scenes/<id>`, holding a summary
// header then the scene's canonical JSON without its id (the key is the id). Writes are atomic (the
// host writes a temporary file and renames it), so a failed write leaves the old file as it was.
//
// The header lets the library be listed from a few hundred bytes per scene instead of reading and
// validating every file (docs/scenes.md):
//   [0] 0x00 (no JSON text starts with it)  [1] HEADER_VERSION  [2..3] header length (u16 LE)
//   [4] schemaVersion  [5] layer count  [6..9] duration in ms (u32 LE)  [10..] the name in UTF-8
// A file without it (older firmware, written by hand) is plain JSON; its summary is computed by
// validating it (scene/summary.ts).
import { host_store_read, host_store_write, host_store_delete, host_random } from "../host/imports";
import { storeList, STORE_MISSING, STORE_IO_ERROR } from "../store/kv";
import { syntaxBegin, syntaxFeed, syntaxEnd } from "./syntax";

export const SCENE_PREFIX = "scenes/";
/** The hidden scene of one-shot playback: 10 characters, where assigned ids have 8, so no created
 * scene can take it. Never listed, and not reachable through /api/scenes/{id}. */
export const ONE_SHOT_ID = "oneshot000";
/** Scenes in the library (the one-shot scene not counted). */
export const MAX_SCENES = 100;
/** A stored scene file is at most this long: the 32 KiB body limit plus what legacy rewrites add. */
export const MAX_SCENE_FILE: u32 = 35840;
/** Bumped by every library write or delete (the MQTT scene select follows it). */
export let libraryVersion: u32 = 0;
/** The header's fixed part, and room for the largest: a name of 64 characters is at most 256 UTF-8 bytes. */
export const HEADER_FIXED: u32 = 10;
export const HEADER_ROOM: u32 = HEADER_FIXED + 256;
const HEADER_VERSION: u8 = 1;
/** An id the service assigns: 8 characters [a-z0-9]. */
export const NEW_ID_LENGTH = 8;

/** A character of a scene id: [a-z0-9]. */
function idChar(c: u32): bool {
  return (c >= 0x30 && c <= 0x39) || (c >= 0x61 && c <= 0x7a);
}

/** A scene id in the API: 8-10 characters [a-z0-9]. */
export function validSceneId(id: string): bool {
  if (id.length < 8 || id.length > 10) return false;
  for (let i = 0; i < id.length; i++) if (!idChar(<u32>id.charCodeAt(i))) return false;
  return true;
}

/** An id of a library scene: valid, and not the hidden one-shot scene's. */
export function libraryId(id: string): bool {
  return validSceneId(id) && id != ONE_SHOT_ID;
}

// The key of the scene being read or written, built in place: listing the library reads hundreds of
// files, and a string per key would be garbage.
const KEY_CAP = 19; // "compiled/" and an id of at most 10 characters
const keyBuf = memory.data(KEY_CAP);
const compiledBuf = memory.data(KEY_CAP);

/** `prefix` (UTF-8, `n` bytes) and `id` into `buf`; returns the key's length. A character no id has
 * makes a key every host refuses (a second `/`). */
function buildKey(buf: usize, prefix: usize, n: u32, id: string): u32 {
  const k = min(<u32>id.length, KEY_CAP - n);
  memory.copy(buf, prefix, n);
  for (let i: u32 = 0; i < k; i++) {
    const c = <u32>id.charCodeAt(i);
    store<u8>(buf + n + i, idChar(c) ? <u8>c : 0x2f);
  }
  return n + k;
}

const SCENES_BYTES = memory.data<u8>([0x73, 0x63, 0x65, 0x6e, 0x65, 0x73, 0x2f]); // "scenes/"
const COMPILED_BYTES = memory.data<u8>([0x63, 0x6f, 0x6d, 0x70, 0x69, 0x6c, 0x65, 0x64, 0x2f]); // "compiled/"

/** A scene's store key, in a fixed buffer: valid until the next call; the length is `keyLength`. */
export let keyLength: u32 = 0;
export function sceneKey(id: string): usize {
  keyLength = buildKey(keyBuf, SCENES_BYTES, 7, id);
  return keyBuf;
}

/** The key of a scene's compiled form (docs/playback.md, "The compiled form"), in a buffer of its
 * own (both keys may be in use at once); the length is `compiledKeyLength`. */
export let compiledKeyLength: u32 = 0;
export function compiledKey(id: string): usize {
  compiledKeyLength = buildKey(compiledBuf, COMPILED_BYTES, 9, id);
  return compiledBuf;
}

/** 0 when the scene exists, STORE_MISSING when not, STORE_IO_ERROR when the store fails. */
export function sceneStatus(id: string): i32 {
  const k = sceneKey(id);
  const n = host_store_read(k, keyLength, 0, 0, 0);
  return n >= 0 ? 0 : n;
}

/** Where the JSON starts in the file last opened by openScene (0: a plain JSON file). */
export let jsonOffset: u32 = 0;

/** Reads the start of a scene file: the header's length when it has one (its fields are then in
 * `chunk`), 0 for a plain JSON file, or a negative STORE_* status (STORE_IO_ERROR for a bad header). */
export function openScene(key: usize): i32 {
  jsonOffset = 0;
  const got = host_store_read(key, keyLength, 0, chunk, HEADER_ROOM);
  if (got < 0) return got == STORE_MISSING ? STORE_MISSING : STORE_IO_ERROR;
  if (got < 1 || load<u8>(chunk) != 0) return 0;
  if (got < <i32>HEADER_FIXED || load<u8>(chunk, 1) != HEADER_VERSION) return STORE_IO_ERROR;
  const n = <u32>load<u16>(chunk, 2);
  if (n < HEADER_FIXED || n > <u32>got) return STORE_IO_ERROR;
  jsonOffset = n;
  return <i32>n;
}

/** Reads up to `cap` bytes at `offset` of a scene's JSON (after openScene or checkSceneFile); the
 * count, or a negative STORE_* status. */
export function readSceneChunk(key: usize, offset: u32, buf: usize, cap: u32): i32 {
  return host_store_read(key, keyLength, jsonOffset + offset, buf, cap);
}

/** Writes the header of a scene whose JSON starts at `json`, into the bytes just before it; returns
 * where the file starts. The caller leaves HEADER_ROOM bytes free before `json`. */
export function putSceneHeader(json: usize, schema: i32, layers: i32, duration: u32, name: ArrayBuffer): usize {
  const n = HEADER_FIXED + <u32>name.byteLength;
  const at = json - n;
  store<u8>(at, 0);
  store<u8>(at, HEADER_VERSION, 1);
  store<u16>(at, <u16>n, 2);
  store<u8>(at, <u8>schema, 4);
  store<u8>(at, <u8>layers, 5);
  store<u32>(at, duration, 6);
  memory.copy(at + HEADER_FIXED, changetype<usize>(name), <usize>name.byteLength);
  return at;
}

/** Writes a scene file atomically; 0 or a negative STORE_* status. */
export function writeSceneFile(id: string, ptr: usize, len: u32): i32 {
  if (id != ONE_SHOT_ID) libraryVersion++;
  const k = sceneKey(id);
  return host_store_write(k, keyLength, ptr, len);
}

/** Writes a scene's compiled form; 0 or a negative STORE_* status. */
export function writeCompiledFile(id: string, ptr: usize, len: u32): i32 {
  const k = compiledKey(id);
  return host_store_write(k, compiledKeyLength, ptr, len);
}

export function deleteSceneFile(id: string): i32 {
  libraryVersion++;
  const c = compiledKey(id);
  host_store_delete(c, compiledKeyLength); // a compiled form left behind matches no other file
  const k = sceneKey(id);
  return host_store_delete(k, keyLength);
}

/** Ids of the library's scenes (sorted), the one-shot scene and stray keys left out; null on an
 * I/O error. Only the ids are made strings. */
export function listSceneIds(): string[] | null {
  const ids = new Array<string>();
  return walkLibrary(ids) < 0 ? null : ids;
}

/** How many scenes the library holds (without making their ids strings), or -1 on an I/O error. */
export function sceneCount(): i32 {
  return walkLibrary(null);
}

/** Walks the store's list of scene keys: counts the library's scenes, and pushes their ids to `ids`
 * when given; -1 on an I/O error. */
function walkLibrary(ids: string[] | null): i32 {
  const keys = storeList(SCENE_PREFIX);
  if (keys === null) return -1;
  const p = keys.dataStart;
  const skip = <u32>SCENE_PREFIX.length;
  let n = 0;
  let start: u32 = 0;
  for (let i: u32 = 0; i <= <u32>keys.length; i++) {
    if (i < <u32>keys.length && load<u8>(p + i) != 0x0a) continue; // keys end at a newline or the end
    const id = p + start + skip;
    if (i > start + skip && libraryKeyId(id, i - start - skip)) {
      n++;
      if (ids) ids.push(String.UTF8.decodeUnsafe(id, i - start - skip));
    }
    start = i + 1;
  }
  return n;
}

/** A library scene's id in a key's bytes: 8-10 characters [a-z0-9], not the one-shot scene's. */
function libraryKeyId(p: usize, n: u32): bool {
  if (n < 8 || n > 10) return false;
  let oneShot = n == <u32>ONE_SHOT_ID.length;
  for (let k: u32 = 0; k < n; k++) {
    const c = <u32>load<u8>(p + k);
    if (!idChar(c)) return false;
    if (oneShot && c != <u32>ONE_SHOT_ID.charCodeAt(k)) oneShot = false;
  }
  return !oneShot;
}

/** A fresh id of 8 characters [a-z0-9] from the host's entropy, or null after 16 collisions. */
export function newSceneId(): string | null {
  for (let attempt = 0; attempt < 16; attempt++) {
    let id = "";
    for (let i = 0; i < NEW_ID_LENGTH; i++) {
      const r = host_random() % 36;
      id += String.fromCharCode(<i32>(r < 10 ? 0x30 + r : 0x61 + r - 10));
    }
    if (sceneStatus(id) == STORE_MISSING) return id;
  }
  return null;
}

/** Length of the file last checked or read, and why the last read failed. */
export let lastLength: u32 = 0;
export let lastStatus: i32 = 0;

/** A whole scene file in a heap block of its exact size (the caller frees it), or 0 when it is
 * missing, unreadable, corrupt or too large (lastStatus says which). The file is streamed through
 * the well-formedness check first, which also measures it, so no more is allocated than it needs. */
export function readSceneFile(id: string): usize {
  lastStatus = checkSceneFile(id);
  if (lastStatus < 0) return 0;
  const k = sceneKey(id);
  const n = lastLength;
  const buf = heap.alloc(max<u32>(n, 1));
  let got: u32 = 0;
  while (got < n) {
    const r = readSceneChunk(k, got, buf + got, n - got);
    if (r <= 0) {
      heap.free(buf);
      lastStatus = r == STORE_MISSING ? STORE_MISSING : STORE_IO_ERROR;
      return 0;
    }
    got += <u32>r;
  }
  return buf;
}

// A chunk buffer for streaming files (check, then send), and for reading a header.
export const CHUNK: u32 = 512;
export const chunk = memory.data(CHUNK);

/** Streams a scene file through the well-formedness check: 0 when it is one well-formed JSON
 * object, STORE_MISSING, or STORE_IO_ERROR (unreadable, corrupt or too large). */
export function checkSceneFile(id: string): i32 {
  const k = sceneKey(id);
  const opened = openScene(k);
  if (opened < 0) return opened;
  syntaxBegin();
  let offset: u32 = 0;
  while (true) {
    const got = readSceneChunk(k, offset, chunk, CHUNK);
    if (got < 0) return got == STORE_MISSING ? STORE_MISSING : STORE_IO_ERROR;
    if (got == 0) break;
    offset += <u32>got;
    if (offset > MAX_SCENE_FILE || !syntaxFeed(chunk, <u32>got)) return STORE_IO_ERROR;
  }
  lastLength = offset;
  return syntaxEnd() ? 0 : STORE_IO_ERROR;
}
