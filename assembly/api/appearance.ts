// GET /api/appearance, PATCH /api/appearance (202, applied on the next tick).
import { begin, finish } from "../json/writer";
import { writeAppearance, parseAppearancePatch } from "../state/appearance";
import { jsonBody, sendInvalid, queueOrBusy, sendAccepted } from "../http/request";
import { W_APPEARANCE } from "../core/queue";

export function getAppearance(req: u32, _param: string, _body: usize, _len: u32): void {
  begin(req, 200);
  writeAppearance();
  finish();
}

export function patchAppearance(req: u32, _param: string, body: usize, len: u32): void {
  const v = jsonBody(req, body, len);
  if (v < 0) return;
  const patch = parseAppearancePatch(v);
  if (!patch) return sendInvalid(req);
  const w = queueOrBusy(req, W_APPEARANCE, 0, 0);
  if (!w) return;
  w.appearance = patch;
  sendAccepted(req);
}
