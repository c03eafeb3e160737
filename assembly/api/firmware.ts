// POST /api/firmware/panels (the image streamed to the store, then every panel flashed) and
// GET /api/firmware/status. The upload's body is never gathered: main.ts hands these paths over before
// it reads a body (firmwareRequest), with the body's length unread, and the image is read in WINDOW-byte pieces through host_http_read, each checked and
// appended to the store (firmware/image.ts). A host that streams the body answers -2 when it has
// nothing more yet and dispatches the request again when it has (docs/host-abi.md).
import { host_http_read, host_clock_ms } from "../host/imports";
import * as w from "../json/writer";
import { sendError } from "../http/response";
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
import { findPath, pathStart, pathLength } from "../http/router";
import { M_GET, M_HEAD, M_POST } from "../http/request";

// "api/firmware/panels", "status": the two paths, as bytes
const PATHS = memory.data<u8>([
  97, 112, 105, 47, 102, 105, 114, 109, 119, 97, 114, 101, 47, 112, 97, 110, 101, 108, 115, 115, 116, 97, 116, 117, 115,
]);
const PREFIX: u32 = 13;

function pathIs(at: u32, len: u32): bool {
  if (pathLength != PREFIX + len) return false;
  for (let i: u32 = 0; i < PREFIX; i++) if (load<u8>(pathStart + i) != load<u8>(PATHS + i)) return false;
  for (let i: u32 = 0; i < len; i++) if (load<u8>(pathStart + PREFIX + i) != load<u8>(PATHS + at + i)) return false;
  return true;
}

/** The firmware endpoints, before any body is read (core_http_dispatch): true when the request was
 * one of them (answered, or streaming its upload). `bodyLen` is the body's length, unread. */
export function firmwareRequest(req: u32, method: u32, url: usize, urlLen: u32, bodyLen: u32): bool {
  findPath(url, urlLen);
  if (pathIs(PREFIX, 6)) {
    if (method == M_POST) postFirmware(req, "", 0, bodyLen);
    else sendError(req, 405, "method_not_allowed");
  } else if (pathIs(PREFIX + 6, 6)) {
    if (method == M_GET || method == M_HEAD) getFirmwareStatus(req, "", 0, 0);
    else sendError(req, 405, "method_not_allowed");
  } else return false;
  return true;
}
import { rx } from "../core/rx";

const WINDOW: u32 = 512;
const window = rx; // free during a dispatch (core/rx.ts)
let upReq: u32 = 0;
let upActive = false;

function refuse(req: u32, code: i32): void {
  sendError(req, code == E_FULL ? 507 : code == E_BUSY ? 409 : 422, errorMessage(code));
}

/** The upload: `len` is the body's length, still unread. */
export function postFirmware(req: u32, _param: string, _body: usize, len: u32): void {
  if (flashBusy() || !stageBegin(len)) {
    refuse(req, E_BUSY);
    return;
  }
  upReq = req;
  upActive = true;
  pump();
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
      refuse(upReq, rc);
      return;
    }
    if (n <= 0) break;
  }
  upActive = false;
  flashStart(stagedSize(), host_clock_ms());
  w.begin(upReq, 200);
  w.raw('{"status":"flashing","panels":');
  w.int(total);
  w.byte(0x7d);
  w.finish();
}

export function getFirmwareStatus(req: u32, _param: string, _body: usize, _len: u32): void {
  w.begin(req, 200);
  w.raw('{"state":');
  w.str(stateName(state));
  w.raw(',"panel":');
  w.int(panel);
  w.raw(',"total":');
  w.int(total);
  w.raw(',"progress":');
  w.int(progress());
  if (state == F_ERROR) writeError();
  // the lowest and highest version the discovered panels reported (an extension: what they run)
  w.raw(',"firmware":[');
  w.int(firmwareLowest);
  w.byte(0x2c);
  w.int(firmwareHighest);
  w.raw("]}");
  w.finish();
}
