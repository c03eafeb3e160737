// GET /api/appearance, PATCH /api/appearance: the change is stored before the 202 (a storage failure
// answers 507 or 500 and changes nothing) and applied on the next tick (core/look.ts).
import { writeAppearance, parseAppearancePatch } from "../state/appearance";
import { storeFailure, A_INVALID, A_BUSY, A_ACCEPTED } from "../http/answers";
import { W_APPEARANCE, enqueue, queueFull } from "../core/queue";
import { storeAppearanceAhead } from "../core/look";

export function getAppearance(_req: u32, _param: string, _arg: u32): i32 {
  writeAppearance();
  return 0;
}

export function patchAppearance(_req: u32, _param: string, root: u32): i32 {
  const patch = parseAppearancePatch(root);
  if (!patch) return A_INVALID;
  if (queueFull()) return A_BUSY;
  const rc = storeAppearanceAhead(patch);
  if (rc < 0) return storeFailure(rc);
  const w = enqueue(W_APPEARANCE, 0, 2); // b = 2: stored already
  if (!w) return A_BUSY;
  w.setAppearance(patch);
  return A_ACCEPTED;
}
