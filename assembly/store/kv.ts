// Whole-value access to the host's key-value store. Writes are atomic on every host (temp file,
// sync, rename), so a crash leaves either the old or the new value, never a torn one.
import { host_store_read, host_store_write, host_store_delete } from "../host/imports";
import { log, LOG_ERROR } from "../util/log";

export const STORE_MISSING: i32 = -1;
export const STORE_IO_ERROR: i32 = -2;
export const STORE_FULL: i32 = -3;

const CHUNK: u32 = 256;
const chunk = memory.data(CHUNK);

/** Status of the last read: 0, STORE_MISSING or STORE_IO_ERROR. */
export let lastReadStatus: i32 = 0;

function keyBytes(key: string): ArrayBuffer {
  return String.UTF8.encode(key);
}

/** Reads a whole value, or null (see lastReadStatus). At most `limit` bytes are accepted. */
export function storeRead(key: string, limit: u32): Uint8Array | null {
  const k = keyBytes(key);
  const out = new Array<u8>();
  let offset: u32 = 0;
  while (true) {
    const n = host_store_read(changetype<usize>(k), <u32>k.byteLength, offset, chunk, CHUNK);
    if (n < 0) {
      lastReadStatus = n == STORE_MISSING ? STORE_MISSING : STORE_IO_ERROR;
      return null;
    }
    for (let i: i32 = 0; i < n; i++) out.push(load<u8>(chunk + i));
    offset += <u32>n;
    if (offset > limit) {
      lastReadStatus = STORE_IO_ERROR;
      return null;
    }
    if (<u32>n < CHUNK) break;
  }
  lastReadStatus = 0;
  const bytes = new Uint8Array(out.length);
  for (let i = 0; i < out.length; i++) bytes[i] = out[i];
  return bytes;
}

/** Writes a whole value atomically; returns 0 or a negative STORE_* status. */
export function storeWrite(key: string, value: Array<u8>): i32 {
  const k = keyBytes(key);
  const v = new Uint8Array(value.length);
  for (let i = 0; i < value.length; i++) v[i] = value[i];
  const rc = host_store_write(changetype<usize>(k), <u32>k.byteLength, v.dataStart, <u32>v.length);
  if (rc < 0) log(LOG_ERROR, "store: writing " + key + " failed (" + rc.toString() + ")");
  return rc;
}

export function storeDelete(key: string): i32 {
  const k = keyBytes(key);
  return host_store_delete(changetype<usize>(k), <u32>k.byteLength);
}
