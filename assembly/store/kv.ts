// Whole-value access to the host's key-value store. Writes are atomic on every host (temp file,
// sync, rename), so a crash leaves either the old or the new value, never a torn one.
import { host_store_read, host_store_write } from "../host/imports";
import { log, LOG_ERROR } from "../util/log";
import { utf8Bytes } from "../util/utf8";
import { intText } from "../util/int-text";

export const STORE_MISSING: i32 = -1;
export const STORE_IO_ERROR: i32 = -2;
export const STORE_FULL: i32 = -3;

/** A value is read a chunk at a time, straight into a block that grows by a chunk (in place: it is
 * the arena's last while the value is read). */
const CHUNK: u32 = 256;

/** The fields of the standard library's Array<u8>, in its order (~lib/array.ts): storeValue makes
 * and grows the store's values itself, without Array's constructor and length setter (their range
 * checks, error texts and geometric growth: ~190 B of the image). */
@final
@unmanaged
class Bytes {
  buffer: usize;
  dataStart: usize;
  byteLength: i32;
  length: i32;
}

/** A value of `n` bytes, not zeroed (its maker writes them all); with `value`, that one made `n` bytes
 * long, its bytes kept (in place while its buffer is the arena's last block, else moved). */
export function storeValue(value: Array<u8> | null, n: i32): Array<u8> {
  const a = changetype<Bytes>(value ? changetype<usize>(value) : __new(offsetof<Bytes>(), idof<Array<u8>>()));
  a.buffer = a.dataStart = value ? __renew(a.buffer, n) : __new(n, idof<ArrayBuffer>());
  a.byteLength = a.length = n;
  return changetype<Array<u8>>(a);
}

/** Status of the last read: 0, STORE_MISSING or STORE_IO_ERROR. */
export let lastReadStatus: i32 = 0;

/** Reads a whole value, or null (see lastReadStatus). At most `limit` bytes are accepted. */
export function storeRead(key: string, limit: u32): Array<u8> | null {
  const k = utf8Bytes(key);
  let buf = heap.alloc(CHUNK);
  let size: u32 = 0;
  for (;;) {
    const n = host_store_read(changetype<usize>(k), <u32>k.byteLength, size, buf + size, CHUNK);
    if (n < 0) {
      lastReadStatus = n == STORE_MISSING ? STORE_MISSING : STORE_IO_ERROR;
      return null;
    }
    size += <u32>n;
    if (size > limit) {
      lastReadStatus = STORE_IO_ERROR;
      return null;
    }
    if (<u32>n < CHUNK) break;
    buf = heap.realloc(buf, size + CHUNK);
  }
  lastReadStatus = 0;
  const bytes = storeValue(null, size);
  memory.copy(bytes.dataStart, buf, size);
  return bytes;
}

/** Writes a whole value atomically; returns 0 or a negative STORE_* status. */
export function storeWrite(key: string, value: Array<u8>): i32 {
  const k = utf8Bytes(key);
  const rc = host_store_write(changetype<usize>(k), <u32>k.byteLength, value.dataStart, <u32>value.length);
  if (rc < 0) log(LOG_ERROR, "store: writing " + key + " failed (" + intText(rc) + ")");
  return rc;
}
