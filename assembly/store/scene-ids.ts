// The library's scene ids read in place from the store's key list: an id is the offset of its line,
// and one at a time is made a string, in a fixed slot. A string and an array entry per id cost the
// export's arena about 5 KB for 100 scenes (GET /api/scenes, the MQTT select), which a one-page core
// cannot spare. The list is read into a block of its exact length and compacted in place to the
// library's ids alone, one per line ("scenes/" and stray keys dropped): about 0.9 KB for 100 scenes.
import { host_store_list } from "../host/imports";
import { SCENES_BYTES, MAX_SCENES, libraryKeyId } from "../scene/store";
import { keepSlot } from "../rt/arena";
import { OBJECT, OBJECT_OVERHEAD, BLOCK_OVERHEAD } from "~lib/rt/common";

/** "scenes/" */
const SKIP: u32 = 7;
/** The ids read by openIds (valid for the rest of the export). */
let list: usize = 0;
let size: i32 = 0;
/** The id made last by idAt: valid until its next call. */
const slot = keepSlot(10);

/** Reads the store's list of scene keys, keeping the library's ids; false on an I/O error (then the
 * list is empty). */
export function openIds(): bool {
  size = 0;
  const n = host_store_list(SCENES_BYTES, SKIP, 0, 0, 0);
  if (n < 0) return false;
  const buf = heap.alloc(max<usize>(<usize>n, 1));
  const got = host_store_list(SCENES_BYTES, SKIP, 0, buf, <u32>n);
  if (got < 0) return false;
  list = buf;
  size = min<i32>(got, n); // (lineEnd reads ahead of what the loop writes back)
  let to = 0;
  for (let at = 0; at < size;) {
    const e = lineEnd(at);
    const id = at + <i32>SKIP;
    if (e > id && libraryKeyId(buf + <usize>id, <u32>(e - id))) {
      memory.copy(buf + <usize>to, buf + <usize>id, e - id);
      to += e - id;
      store<u8>(buf + <usize>to, 0x0a);
      to++;
    }
    at = e + 1;
  }
  list = heap.realloc(buf, max<usize>(<usize>to, 1)); // the last block: shrinks in place
  size = to;
  return true;
}

function lineEnd(at: i32): i32 {
  while (at < size && load<u8>(list + <usize>at) != 0x0a) at++;
  return at;
}

/** The first id of the list (its offset), or -1 when there is none. */
export function firstId(): i32 {
  return size > 0 ? 0 : -1;
}

/** The id after the one at `at`, or -1. */
export function nextId(at: i32): i32 {
  const next = lineEnd(at) + 1;
  return next < size ? next : -1;
}

/** The id at `at` (firstId, nextId) as a string, valid until the next call. */
export function idAt(at: i32): string {
  const n = lineEnd(at) - at; // 8-10: libraryKeyId held
  const p = changetype<usize>(slot);
  for (let k = 0; k < n; k++) store<u16>(p + ((<usize>k) << 1), load<u8>(list + <usize>(at + k)));
  changetype<OBJECT>(p - OBJECT_OVERHEAD - BLOCK_OVERHEAD).rtSize = (<u32>n) << 1;
  return slot;
}

/** How many scenes the library holds (the one-shot scene and stray keys left out), or -1 on an I/O
 * error; a count below MAX_SCENES may be a bound. The list's length bounds the count (a library key
 * line is at least 16 bytes: the prefix, 8 characters and its newline), so the list itself is read
 * (openIds) only for a library near its limit. */
export function sceneCount(): i32 {
  const length = host_store_list(SCENES_BYTES, SKIP, 0, 0, 0);
  if (length < 0) return -1;
  if ((length + 1) >> 4 < MAX_SCENES) return (length + 1) >> 4;
  if (!openIds()) return -1;
  let n = 0;
  for (let at = firstId(); at >= 0; at = nextId(at)) n++;
  return n;
}
