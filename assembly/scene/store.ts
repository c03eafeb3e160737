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
import {
  host_store_read,
  host_store_write,
  host_store_delete,
  host_store_append,
  host_store_rename,
  host_random,
} from "../host/imports";
import { hashBytes, HASH_SEED } from "../util/hash";
import { STORE_MISSING, STORE_IO_ERROR } from "../store/kv";
import { openStored, value, skipTo, finish, broken, offset } from "../json/stream";
import { J_OBJECT } from "../json/reader";
import { utf8Decode } from "../util/utf8";
import { idChars } from "./path-errors";
import { sameText } from "../util/names";

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

// A scene is written in two stages, each under a key of its own (never listed: not under
// "scenes/"): its canonical JSON as the scene pass reads the document (scene/canonical.ts), then,
// once it is valid, the file (the header, known only then, and that JSON) renamed over the scene's
// key. A refused or failed save deletes both: the library is as it was.
// "stage/scene" and "stage/file" as bytes
export const stageJson = memory.data<u8>([0x73, 0x74, 0x61, 0x67, 0x65, 0x2f, 0x73, 0x63, 0x65, 0x6e, 0x65]);
export const STAGE_JSON_LENGTH: u32 = 11;
const stageFile = memory.data<u8>([0x73, 0x74, 0x61, 0x67, 0x65, 0x2f, 0x66, 0x69, 0x6c, 0x65]);
const STAGE_FILE_LENGTH: u32 = 10;

/** The hash (util/hash.ts hashBytes) of the file commitScene last wrote. */
export let fileHash: u64 = 0;

/** Drops both stages. */
export function discardStages(): void {
  host_store_delete(stageJson, STAGE_JSON_LENGTH);
  host_store_delete(stageFile, STAGE_FILE_LENGTH);
}

/**
 * Writes scene `id`'s file: the summary header (schemaVersion, layer count, duration, the name's
 * UTF-8 [name, name+nameLength)), then the staged canonical JSON, a chunk at a time, into the
 * second stage, renamed over `scenes/<id>` (atomic: host_store_rename). 0 or a negative STORE_*
 * status; the stages are gone either way, and on failure the old file is intact.
 */
export function commitScene(id: string, schema: i32, layers: i32, duration: u32, name: usize, nameLength: u32): i32 {
  if (!sameText(id, ONE_SHOT_ID)) libraryVersion++;
  host_store_delete(stageFile, STAGE_FILE_LENGTH);
  const n = HEADER_FIXED + nameLength;
  store<u8>(chunk, 0);
  store<u8>(chunk, HEADER_VERSION, 1);
  store<u16>(chunk, <u16>n, 2);
  store<u8>(chunk, <u8>schema, 4);
  store<u8>(chunk, <u8>layers, 5);
  store<u32>(chunk, duration, 6);
  memory.copy(chunk + HEADER_FIXED, name, nameLength);
  // the file in CHUNK pieces (a multiple of 8 bytes: its hash is the whole file's)
  let fill = n;
  let from: u32 = 0;
  let rc = 0;
  let h = HASH_SEED;
  while (rc == 0) {
    while (fill < CHUNK) {
      const got = host_store_read(stageJson, STAGE_JSON_LENGTH, from, chunk + fill, CHUNK - fill);
      if (got < 0) rc = STORE_IO_ERROR;
      if (got <= 0) break;
      fill += <u32>got;
      from += <u32>got;
    }
    if (rc != 0 || fill == 0) break;
    h = hashBytes(h, chunk, fill);
    const w = host_store_append(stageFile, STAGE_FILE_LENGTH, chunk, fill);
    if (w < 0) rc = w;
    if (fill < CHUNK) break;
    fill = 0;
  }
  if (rc == 0) {
    const k = sceneKey(id);
    rc = host_store_rename(stageFile, STAGE_FILE_LENGTH, k, keyLength);
  }
  fileHash = h;
  discardStages();
  return rc;
}
const HEADER_VERSION: u8 = 1;
/** An id the service assigns: 8 characters [a-z0-9]. */
export const NEW_ID_LENGTH = 8;

/** A character of a scene id: [a-z0-9]. */
function idChar(c: u32): bool {
  return (c >= 0x30 && c <= 0x39) || (c >= 0x61 && c <= 0x7a);
}

/** An id of a library scene (8-10 characters [a-z0-9], not the hidden one-shot scene's), checked
 * on its key's bytes (sceneKey: a character no id has is a '/' there). */
export function libraryId(id: string): bool {
  sceneKey(id);
  return libraryKeyId(keyBuf + 7, keyLength - 7);
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

export const SCENES_BYTES = memory.data<u8>([0x73, 0x63, 0x65, 0x6e, 0x65, 0x73, 0x2f]); // "scenes/"
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

/** A library scene's id in a key's bytes: 8-10 characters [a-z0-9] (scene/path-errors.ts idChars, as a
 * scene's own `id`), not the one-shot scene's ("oneshot000"). */
export function libraryKeyId(p: usize, n: u32): bool {
  return (
    n - 8 <= 2 && idChars(p, n, false) && !(n == 10 && load<u64>(p) == 0x30746f6873656e6f && load<u16>(p, 8) == 0x3030)
  );
}

/** A fresh id of 8 characters [a-z0-9] from the host's entropy, or null after 16 collisions. Drawn
 * in the key buffer itself: one string is made, for the id chosen. */
export function newSceneId(): string | null {
  memory.copy(keyBuf, SCENES_BYTES, 7);
  for (let attempt = 0; attempt < 16; attempt++) {
    for (let i = 0; i < NEW_ID_LENGTH; i++) {
      const r = <u32>host_random() % 36;
      store<u8>(keyBuf + 7 + i, <u8>(r < 10 ? 0x30 + r : 0x61 + r - 10));
    }
    if (host_store_read(keyBuf, 7 + NEW_ID_LENGTH, 0, 0, 0) == STORE_MISSING) {
      return utf8Decode(keyBuf + 7, NEW_ID_LENGTH);
    }
  }
  return null;
}

/** Length of the file last checked. */
export let lastLength: u32 = 0;

// A chunk buffer for streaming files (check, then send), and for reading a header.
export const CHUNK: u32 = 512;
export const chunk = memory.data(CHUNK);

/** Reads a scene file through the streaming tokenizer (json/stream.ts: nothing of it kept), so that
 * GET /api/scenes/{id} can refuse a corrupt file (truncated, garbled, not UTF-8) with a 500 before it
 * starts streaming it: 0 when it is one well-formed JSON object, STORE_MISSING, or STORE_IO_ERROR
 * (unreadable, corrupt or too large). Its length is then `lastLength`. */
export function checkSceneFile(id: string): i32 {
  const k = sceneKey(id);
  const opened = openScene(k);
  if (opened < 0) return opened;
  openStored(k, keyLength, jsonOffset);
  const root = value();
  skipTo(0);
  finish();
  lastLength = offset();
  return root == J_OBJECT && !broken && lastLength <= MAX_SCENE_FILE ? 0 : STORE_IO_ERROR;
}
