// GET /api/appearance, PATCH /api/appearance: the change is stored before the 202 (a storage failure
// answers 507 or 500 and changes nothing) and applied on the next tick (core/look.ts).
import { begin, finish } from "../json/writer";
import { writeAppearance, parseAppearancePatch } from "../state/appearance";
import { jsonBody, sendInvalid, queueOrBusy, sendAccepted, queueHasRoom, sendStoreFailure } from "../http/request";
import { W_APPEARANCE } from "../core/queue";
import { storeAppearanceAhead } from "../core/look";

export function getAppearance(req: u32, _param: string, _body: usize, _len: u32): void {
  begin(req, 200);
  writeAppearance();
  finish();
}

export function patchAppearance(req: u32, _param: string, _body: usize, _len: u32): void {
  const patch = parseAppearancePatch(jsonBody(req));
  if (!patch) return sendInvalid(req);
  if (!queueHasRoom(req)) return;
  const rc = storeAppearanceAhead(patch);
  if (rc < 0) return sendStoreFailure(req, rc);
  const w = queueOrBusy(req, W_APPEARANCE, 0, 2); // b = 2: stored already
  if (!w) return;
  w.setAppearance(patch);
  sendAccepted(req);
}
