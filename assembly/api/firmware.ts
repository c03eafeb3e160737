// POST /api/firmware/panels (the image streamed to the store, then every panel flashed) and
// GET /api/firmware/status. The upload's body is never gathered: main.ts hands these STREAM routes
// (api/routes.ts) over before it reads a body, with the body's length unread, and the image is read in WINDOW-byte pieces through host_http_read, each checked and
// appended to the store (firmware/image.ts). A host that streams the body answers -2 when it has
// nothing more yet and dispatches the request again when it has (docs/host-abi.md).
import { host_http_read, host_clock_ms } from "../host/imports";
import { fillValues, VALUES, STR_INTS } from "../json/template";
import * as t from "../generated/text";
import { answer, about, counted, ANSWERED, A_FULL, A_CONFLICT, A_FAILED, A_FLASHING } from "../http/answers";
import { stageBegin, stageWrite, stageFinish, stageAbort, stagedSize, errorMessage } from "../firmware/image";
import { E_FULL, E_BUSY } from "../firmware/image";
import {
  flashBusy,
  flashStart,
  state,
  panel,
  total,
  progress,
  writeError,
  stateName,
  F_ERROR,
} from "../firmware/flash";
import { firmwareLowest, firmwareHighest } from "../bus/discovery";
import { rx } from "../core/rx";

const WINDOW: u32 = 512;
const window = rx; // free during a dispatch (core/rx.ts)
let upReq: u32 = 0;
let upActive = false;

/** The refusal's row: 507, 409 or 422 with the outcome's text. */
function refusal(code: i32): i32 {
  return about(errorMessage(code), code == E_FULL ? A_FULL : code == E_BUSY ? A_CONFLICT : A_FAILED);
}

/** The upload: `len` is the body's length, still unread. */
export function postFirmware(req: u32, _param: string, len: u32): i32 {
  if (flashBusy() || !stageBegin(len)) return refusal(E_BUSY);
  upReq = req;
  upActive = true;
  pump();
  return ANSWERED;
}

/** A streamed body has more for `req`: true when it was the upload's. */
export function uploadContinue(req: u32): bool {
  if (!upActive || req != upReq) return false;
  pump();
  return true;
}

function pump(): void {
  for (;;) {
    const n = host_http_read(upReq, window, WINDOW);
    if (n == -2) return; // more later
    let rc = 0;
    if (n > 0) rc = stageWrite(window, <u32>n);
    else rc = stageFinish(); // the end of the body (or of the connection)
    if (rc != 0) {
      if (n > 0) stageAbort();
      upActive = false;
      answer(upReq, refusal(rc));
      return;
    }
    if (n <= 0) break;
  }
  upActive = false;
  flashStart(stagedSize(), host_clock_ms());
  answer(upReq, counted(A_FLASHING, total));
}

/** The status from two templates (assembly/text/firmware-status.txt, firmware-versions.txt), the
 * error's text between them; "firmware" is the lowest and highest version the discovered panels
 * reported (an extension: what they run). */
export function getFirmwareStatus(_req: u32, _param: string, _arg: u32): i32 {
  store<usize>(VALUES, changetype<usize>(stateName(state)));
  store<i32>(VALUES, panel, 8);
  store<i32>(VALUES, total, 16);
  store<i32>(VALUES, progress(), 24);
  store<i32>(VALUES, firmwareLowest, 32);
  store<i32>(VALUES, firmwareHighest, 40);
  fillValues(t.FIRMWARE_STATUS, t.FIRMWARE_STATUS_LENGTH, STR_INTS);
  if (state == F_ERROR) writeError();
  fillValues(t.FIRMWARE_VERSIONS, t.FIRMWARE_VERSIONS_LENGTH, STR_INTS);
  return ANSWERED;
}
