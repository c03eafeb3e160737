// The panel firmware image (docs/bus-protocol.md, "The panel firmware image") and its staging in the
// store. An image arrives in pieces, from an HTTP body or a serial frame, and never whole in memory:
// each piece is checked as it passes (header, CRC-32) and appended to a staging key; only a complete,
// checked image is renamed over the stored one, so a failed upload leaves the previous image whole.
// One upload at a time, whichever channel brings it.
import { host_store_append, host_store_rename, host_store_delete, host_store_read } from "../host/imports";
import { BUS_VERSION } from "../bus/protocol";
import { piece } from "../json/reader";

export const IMAGE_MAGIC: u32 = 0x46505354; // "TSPF", little-endian
export const IMAGE_HEADER: u32 = 16;
/** The largest payload accepted (a panel's flash is far smaller; the store's partition is 960 KiB). */
export const IMAGE_MAX: u32 = 256 * 1024;
/** stageBegin's size when the host does not know it (core_http_begin's HTTP_LENGTH_UNKNOWN, docs/host-abi.md). */
export const LENGTH_UNKNOWN: u32 = 0xffffffff;

// Outcomes: 0 fine, else an index into MESSAGES.
export const E_MAGIC = 1;
export const E_BUS = 2;
export const E_TOO_LARGE = 3;
export const E_LENGTH = 4;
export const E_CRC = 5;
export const E_FULL = 6;
export const E_WRITE = 7;
export const E_BUSY = 8;
export const E_FRAME_CRC = 9;
export const E_TIMEOUT = 10;
/** The text of an outcome ("" for 0). */
export function errorMessage(code: i32): string {
  return <u32>(code - 1) < <u32>E_TIMEOUT ? piece(outcomes(), code - 1) : "";
}

/** The outcomes' texts from E_MAGIC on, as one text (json/reader.ts piece). @message-returns: it goes
 * to the UTF-8 message table (scripts/messages-transform.mjs). */
function outcomes(): string {
  return "bad magic|bus version mismatch|image too large|length mismatch|CRC-32 mismatch|filesystem write failed|write failed|flash already in progress|CRC mismatch|timeout";
}

/** The stored image, and the key it is staged under while it arrives. */
// "firmware/panel.fw.part" as bytes: the staging key, and the stored image's key is its first 17
const stageKey = memory.data<u8>([
  102, 105, 114, 109, 119, 97, 114, 101, 47, 112, 97, 110, 101, 108, 46, 102, 119, 46, 112, 97, 114, 116,
]);
const STAGE_KEY_LENGTH: u32 = 22;
const imageKey = stageKey;
const IMAGE_KEY_LENGTH: u32 = 17;

// CRC-32 (IEEE 802.3, reflected 0xEDB88320, initial and final 0xFFFFFFFF), a bit at a time: no table
// in linear memory (an image is checked once, as it arrives).
export function crc32Update(crc: u32, ptr: usize, len: u32): u32 {
  for (let i: u32 = 0; i < len; i++) {
    crc ^= <u32>load<u8>(ptr + i);
    for (let k = 0; k < 8; k++) crc = (crc >>> 1) ^ (0xedb88320 & (0 - (crc & 1)));
  }
  return crc;
}

// The header, gathered as it arrives: magic, bus version (reserved, firmware version), payload
// length, CRC-32 of the payload.
const header = memory.data(IMAGE_HEADER + 4, 4);
/** The CRC-32 of the payload so far, after the header (static memory: no wasm global). */
const CRC: usize = IMAGE_HEADER;
let open = false;
let total: u32 = 0; // the declared size: header + payload
let seen: u32 = 0;

/** An upload is being staged (by either channel). */
export function staging(): bool {
  return open;
}

/** Bytes of the image being staged, or just stored (header included): what the flash sends. */
export function stagedSize(): u32 {
  return total;
}

/** Starts staging an image of `size` bytes (header included); false when one is being staged. */
export function stageBegin(size: u32): bool {
  if (open) return false;
  open = true;
  total = size;
  seen = 0;
  store<u32>(header, 0xffffffff, CRC);
  host_store_delete(stageKey, STAGE_KEY_LENGTH);
  return true;
}

/** The next `len` bytes: checked and appended. Returns 0 or an E_* outcome (then call stageAbort). */
export function stageWrite(ptr: usize, len: u32): i32 {
  let skip: u32 = 0;
  if (seen < IMAGE_HEADER) {
    skip = min(IMAGE_HEADER - seen, len);
    memory.copy(header + seen, ptr, skip);
    seen += skip;
  }
  if (seen == IMAGE_HEADER && skip > 0) {
    if (load<u32>(header) != IMAGE_MAGIC) return E_MAGIC;
    if (load<u8>(header, 4) != BUS_VERSION) return E_BUS;
    const payload = load<u32>(header, 8);
    if (payload > IMAGE_MAX) return E_TOO_LARGE;
    // a chunked upload's length is unknown: its header says it
    if (total == LENGTH_UNKNOWN) total = IMAGE_HEADER + payload;
    else if (total != IMAGE_HEADER + payload) return E_LENGTH;
  }
  seen += len - skip;
  if (seen > total) return E_LENGTH;
  store<u32>(header, crc32Update(load<u32>(header, CRC), ptr + skip, len - skip), CRC);
  return storeOutcome(host_store_append(stageKey, STAGE_KEY_LENGTH, ptr, len));
}

/** A store call's result as an outcome: 0, E_FULL (-3: no room) or E_WRITE. */
function storeOutcome(rc: i32): i32 {
  return rc == -3 ? E_FULL : rc < 0 ? E_WRITE : 0;
}

/** Every byte has arrived: checks length and CRC-32, then puts the image in place. 0 or E_*. */
export function stageFinish(): i32 {
  let rc = 0;
  if (seen < IMAGE_HEADER || seen != total) rc = E_LENGTH;
  else if (~load<u32>(header, CRC) != load<u32>(header, 12)) rc = E_CRC;
  else rc = storeOutcome(host_store_rename(stageKey, STAGE_KEY_LENGTH, imageKey, IMAGE_KEY_LENGTH));
  if (rc != 0) stageAbort();
  open = false;
  return rc;
}

/** Drops the partial image. */
export function stageAbort(): void {
  host_store_delete(stageKey, STAGE_KEY_LENGTH);
  open = false;
}

/** Reads up to `cap` bytes of the stored image at `offset`; the count, or below 0 (store error). */
export function readImage(offset: u32, buf: usize, cap: u32): i32 {
  return host_store_read(imageKey, IMAGE_KEY_LENGTH, offset, buf, cap);
}
