// GET /api/appearance, PATCH /api/appearance: the change is applied to the state and stored before
// the 202 (a storage failure answers 507 or 500 and changes nothing); the panels get it on the next
// tick.
import { begin, finish } from "../json/writer";
import { writeAppearance, parseAppearancePatch, appearance, applyAppearancePatch } from "../state/appearance";
import { jsonBody, sendInvalid, queueOrBusy, sendAccepted, queueHasRoom, sendStoreFailure } from "../http/request";
import { W_APPEARANCE } from "../core/queue";
import { persistAppearance } from "../core/look";

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
  if (!queueHasRoom(req)) return;
  const brightness = appearance.brightness;
  const c0 = appearance.baseColors[0];
  const c1 = appearance.baseColors[1];
  const c2 = appearance.baseColors[2];
  const palette = appearance.palette;
  applyAppearancePatch(patch);
  const rc = persistAppearance();
  if (rc < 0) {
    appearance.brightness = brightness;
    appearance.baseColors[0] = c0;
    appearance.baseColors[1] = c1;
    appearance.baseColors[2] = c2;
    appearance.palette = palette;
    return sendStoreFailure(req, rc, "the appearance");
  }
  const w = queueOrBusy(req, W_APPEARANCE, 0, 2); // b = 2: stored already
  if (!w) return;
  w.appearance = patch;
  sendAccepted(req);
}
