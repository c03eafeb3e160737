// The serial firmware frame (docs/bus-protocol.md, "The serial firmware frame"): `TSFW`, the payload
// length (u32 LE), the payload (a panel firmware image), the CRC-16 of the payload (u16 LE). The
// payload is staged as it arrives, like an HTTP upload. Answers are lines: `READY` after a valid
// header, `OK` once the image is checked and stored, `ERR:<message>` otherwise. Bytes outside a frame
// are skipped up to the next magic; a frame that stalls for TIMEOUT_MS ends with ERR:timeout.
import { wakeUp, WAKE_FIRMWARE } from "../core/wake";
import { host_serial_write } from "../host/imports";
import { crc16Update } from "../util/crc16";
import { stageBegin, stageWrite, stageFinish, stageAbort, stagedSize, errorMessage } from "./image";
import { IMAGE_HEADER, IMAGE_MAX, E_TOO_LARGE, E_LENGTH, E_BUSY, E_FRAME_CRC, E_TIMEOUT } from "./image";
import { flashBusy, flashStart } from "./flash";
import { body } from "../bus/send";
import { names, nameEntry } from "../util/names";
import { utf8Encode } from "../util/utf8";

const MAGIC: u32 = 0x57465354; // "TSFW" as a little-endian u32
const TIMEOUT_MS: u32 = 3000;

const S_SEEK = 0; // matching the magic (`have` bytes so far)
const S_SIZE = 1; // the length (`have` bytes so far)
const S_PAYLOAD = 2;
const S_CRC = 3;
let phase = 0; // S_SEEK (a literal is the global's own initial value, not start-up code)
if (S_SEEK != 0) ERROR("firmware/serial.ts: phase's initial value");
let have: u32 = 0;
let field: u32 = 0; // the length, then the CRC, gathered (`have` bytes so far)
let left: u32 = 0; // payload bytes still to come
let failed = 0; // an E_* outcome met inside the payload: the rest of the frame is skipped, then reported
/** The frame's CRC so far and when its last byte came, in static memory (a wasm global costs WAMR
 * about 52 B of heap). */
@unmanaged
class Frame {
  crc: u32;
  lastByte: u32;
}
const frame = changetype<Frame>(memory.data(offsetof<Frame>(), 4));

/** The answers: OK, READY, and ERR: before an outcome's text. */
const ANSWERS = names("OK READY ERR:");
const A_OK = 0;
const A_READY = 1;
const A_ERROR = 2;

/** Answers the line ANSWERS `a`, then for an error the text of outcome `code`. */
function answer(a: i32, code: i32 = 0): void {
  const line = body(); // the bus packet's room: free between sends (bus/send.ts)
  const e = nameEntry(ANSWERS, a);
  let n = <usize>load<u8>(e);
  memory.copy(line, e + 1, n);
  if (code != 0) {
    const text = errorMessage(code);
    n += utf8Encode(changetype<usize>(text), text.length, line + n);
  }
  store<u8>(line + n, 0x0a);
  host_serial_write(line, <u32>n + 1);
}

function answerError(code: i32): void {
  answer(A_ERROR, code);
}

function finishFrame(code: i32, now: u32): void {
  phase = S_SEEK;
  have = 0;
  if (code == 0) code = stageFinish();
  else stageAbort();
  if (code != 0) {
    answerError(code);
    return;
  }
  answer(A_OK);
  flashStart(stagedSize(), now);
}

/** Nothing to do on a tick: no frame half received (core/wake.ts). */
export function serialIdle(): bool {
  return phase == S_SEEK;
}

/** `len` bytes from the serial port at `ptr`. */
export function serialReceive(ptr: usize, len: u32, now: u32): void {
  wakeUp(WAKE_FIRMWARE); // a frame may have begun: its timeout runs on ticks
  frame.lastByte = now;
  let i: u32 = 0;
  while (i < len) {
    if (phase == S_PAYLOAD) {
      const n = min(left, len - i);
      frame.crc = crc16Update(frame.crc, ptr + i, n);
      if (failed == 0) failed = stageWrite(ptr + i, n);
      left -= n;
      i += n;
      if (left == 0) phase = S_CRC;
      continue;
    }
    const c = <u32>load<u8>(ptr + i++);
    if (phase == S_SEEK) {
      if (c == ((MAGIC >> (have * 8)) & 0xff)) have++;
      else have = c == (MAGIC & 0xff) ? 1 : 0;
      if (have == 4) {
        phase = S_SIZE;
        have = field = 0;
      }
      continue;
    }
    field |= c << (have++ * 8);
    if (phase == S_SIZE) {
      if (have < 4) continue;
      const size = field;
      have = field = 0;
      if (size < IMAGE_HEADER || size > IMAGE_HEADER + IMAGE_MAX) {
        phase = S_SEEK;
        answerError(size < IMAGE_HEADER ? E_LENGTH : E_TOO_LARGE);
      } else if (flashBusy() || !stageBegin(size)) {
        phase = S_SEEK;
        answerError(E_BUSY);
      } else {
        phase = S_PAYLOAD;
        left = size;
        frame.crc = 0xffff;
        failed = 0;
        answer(A_READY);
      }
    } else if (have == 2) finishFrame(failed != 0 ? failed : field != frame.crc ? E_FRAME_CRC : 0, now);
  }
}

/** A frame that stalls is dropped. */
export function serialTick(now: u32): void {
  if (phase == S_SEEK || now - frame.lastByte < TIMEOUT_MS) return;
  if (phase == S_SIZE) {
    phase = S_SEEK; // nothing staged yet
    have = 0;
    answerError(E_TIMEOUT);
  } else finishFrame(E_TIMEOUT, now);
}
