// GET /api/configuration, PATCH /api/configuration. powerStateOnBoot and allowedHosts are storage
// only (200); a patch that includes logicalRoot reaches the panels' playback and so is queued (202).
// Either way the whole patch is stored before the answer; a storage failure answers 507 or 500 and
// changes nothing.
import {
  writeConfiguration,
  parseConfigPatch,
  applyConfigPatch,
  config,
  CONFIG,
  CONFIG_BYTES,
  Configuration,
} from "../state/config";
import { storeFailure, A_INVALID, A_BUSY, A_OK, A_ROOT } from "../http/answers";
import { queued } from "../http/request";
import { W_LOGICAL_ROOT, queueFull } from "../core/queue";
import { persistConfiguration } from "../core/loop";

export function getConfiguration(_req: u32, _param: string, _arg: u32): i32 {
  writeConfiguration();
  return 0;
}

export function patchConfiguration(_req: u32, _param: string, root: u32): i32 {
  const patch = parseConfigPatch(root);
  if (!patch) return A_INVALID;
  const logicalRoot = patch.logicalRoot;
  if (logicalRoot >= 0 && queueFull()) return A_BUSY;
  // what a failed store puts back: the settings as they are, the allowed names' slots with them
  // (state/config.ts keeps both in one block)
  const undo = heap.alloc(CONFIG_BYTES);
  memory.copy(undo, CONFIG, CONFIG_BYTES);
  applyConfigPatch(patch);
  const rc = persistConfiguration(); // with the new root, which the queued item applies
  config.logicalRoot = changetype<Configuration>(undo).logicalRoot;
  if (rc < 0) {
    memory.copy(CONFIG, undo, CONFIG_BYTES);
    return storeFailure(rc);
  }
  if (logicalRoot < 0) return A_OK;
  return queued(W_LOGICAL_ROOT, logicalRoot, 0, A_ROOT);
}
