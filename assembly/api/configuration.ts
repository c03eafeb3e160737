// GET /api/configuration, PATCH /api/configuration. powerStateOnBoot and allowedHosts are storage
// only (200); a patch that includes logicalRoot reaches the panels' playback and so is queued (202).
// Either way the whole patch is stored before the answer; a storage failure answers 507 or 500 and
// changes nothing.
import * as w from "../json/writer";
import { writeConfiguration, parseConfigPatch, applyConfigPatch, config } from "../state/config";
import { allowedHosts, setAllowedHosts } from "../state/config";
import { jsonBody, sendInvalid, queueOrBusy, queueHasRoom, sendStoreFailure } from "../http/request";
import { W_LOGICAL_ROOT } from "../core/queue";
import { persistConfiguration } from "../core/loop";

export function getConfiguration(req: u32, _param: string, _body: usize, _len: u32): void {
  w.begin(req, 200);
  writeConfiguration();
  w.finish();
}

export function patchConfiguration(req: u32, _param: string, _body: usize, _len: u32): void {
  const patch = parseConfigPatch(jsonBody(req));
  if (!patch) return sendInvalid(req);
  const root = patch.logicalRoot;
  if (root >= 0 && !queueHasRoom(req)) return;
  const power = config.powerStateOnBoot;
  const oldRoot = config.logicalRoot;
  const hosts = allowedHosts();
  applyConfigPatch(patch);
  const rc = persistConfiguration(); // with the new root, which the queued item applies
  config.logicalRoot = oldRoot;
  if (rc < 0) {
    config.powerStateOnBoot = power;
    setAllowedHosts(hosts);
    return sendStoreFailure(req, rc);
  }
  if (root >= 0 && !queueOrBusy(req, W_LOGICAL_ROOT, root, 0)) return;
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
