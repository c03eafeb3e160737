// GET /api/configuration, PATCH /api/configuration. powerStateOnBoot is storage only (200); a
// patch that includes logicalRoot reaches the panels' playback and so is queued (202).
import * as w from "../json/writer";
import { writeConfiguration, parseConfigPatch, applyConfigPatch } from "../state/config";
import { jsonBody, sendInvalid, queueOrBusy } from "../http/request";
import { W_LOGICAL_ROOT } from "../core/queue";
import { persistConfiguration } from "../core/loop";

export function getConfiguration(req: u32, _param: string, _body: usize, _len: u32): void {
  w.begin(req, 200);
  writeConfiguration();
  w.finish();
}

export function patchConfiguration(req: u32, _param: string, body: usize, len: u32): void {
  const v = jsonBody(req, body, len);
  if (v < 0) return;
  const patch = parseConfigPatch(v);
  if (!patch) return sendInvalid(req);
  const root = patch.logicalRoot;
  if (root >= 0 && !queueOrBusy(req, W_LOGICAL_ROOT, root, 0)) return;
  patch.logicalRoot = -1; // the queued item applies it
  if (patch.powerStateOnBoot >= 0) {
    applyConfigPatch(patch);
    persistConfiguration();
  }
  if (root < 0) {
    w.begin(req, 200);
    w.raw("{}");
    w.finish();
    return;
  }
  w.begin(req, 202);
  w.raw('{"ok":true,"logicalRoot":');
  w.int(root);
  w.byte(0x7d);
  w.finish();
}
