// The library's scene ids read in place from the store's key list: an id is the offset of its key
// line, and one at a time is made a string, in a fixed slot. A string and an array entry per id cost
// the export's arena about 5 KB for 100 scenes (GET /api/scenes, the MQTT select), which a one-page
// core cannot spare; this costs the list's bytes (about 1.7 KB) and nothing per id.
import { storeList } from "./kv";
import { SCENE_PREFIX, SCENES_BYTES, MAX_SCENES, libraryKeyId } from "../scene/store";
import { host_store_list } from "../host/imports";
import { keepSlot } from "../rt/arena";
import { OBJECT, OBJECT_OVERHEAD, BLOCK_OVERHEAD } from "~lib/rt/common";

const SKIP = SCENE_PREFIX.length;
/** The list read by openIds (valid for the rest of the export). */
let list: usize = 0;
let size: i32 = 0;
/** The id made last by idAt: valid until its next call. */
const slot = keepSlot(10);

/** Reads the store's list of scene keys; false on an I/O error. */
export function openIds(): bool {
  const keys = storeList(SCENE_PREFIX);
  if (keys === null) return false;
  list = keys.dataStart;
  size = keys.length;
  return true;
}

function lineEnd(at: i32): i32 {
  while (at < size && load<u8>(list + <usize>at) != 0x0a) at++;
  return at;
}

/** Whether the key line at `at` names a library scene (read in its bytes: no string made). */
function isLibraryId(at: i32): bool {
  return libraryKeyId(list + <usize>(at + SKIP), <u32>(lineEnd(at) - at - SKIP));
}

/** The first library id at or after line `at`, or -1; idAt() makes its string. */
function from(at: i32): i32 {
  while (at < size) {
    if (isLibraryId(at)) return at;
    at = lineEnd(at) + 1;
  }
  return -1;
}

/** The first id of the list (its offset), or -1 when there is none. */
export function firstId(): i32 {
  return from(0);
}

/** The id after the one at `at`, or -1. */
export function nextId(at: i32): i32 {
  return from(lineEnd(at) + 1);
}

/** The id at `at` (a library id: firstId, nextId) as a string, valid until the next call. */
export function idAt(at: i32): string {
  const n = lineEnd(at) - at - SKIP; // 8-10: isLibraryId held
  const p = changetype<usize>(slot);
  for (let k = 0; k < n; k++) store<u16>(p + ((<usize>k) << 1), load<u8>(list + <usize>(at + SKIP + k)));
  changetype<OBJECT>(p - OBJECT_OVERHEAD - BLOCK_OVERHEAD).rtSize = (<u32>n) << 1;
  return slot;
}

/** How many scenes the library holds (the one-shot scene and stray keys left out), or -1 on an I/O
 * error; a count below MAX_SCENES may be a bound. The list's length bounds the count (a library key
 * line is at least 16 bytes: the prefix, 8 characters and its newline), so the list itself is read
 * (openIds) only for a library near its limit. */
export function sceneCount(): i32 {
  const length = host_store_list(SCENES_BYTES, SKIP, 0, 0);
  if (length < 0) return -1;
  if ((length + 1) >> 4 < MAX_SCENES) return (length + 1) >> 4;
  if (!openIds()) return -1;
  let n = 0;
  for (let at = firstId(); at >= 0; at = nextId(at)) n++;
  return n;
}

/** The sign orders the ids at `a` and `b` as String's < and > do (they are ASCII). */
export function idOrder(a: i32, b: i32): i32 {
  const ea = lineEnd(a);
  const eb = lineEnd(b);
  for (; a < ea && b < eb; a++, b++) {
    const d = <i32>load<u8>(list + <usize>a) - <i32>load<u8>(list + <usize>b);
    if (d != 0) return d;
  }
  return ea - a - (eb - b);
}
