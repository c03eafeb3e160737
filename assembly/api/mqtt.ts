// GET /api/mqtt, PATCH /api/mqtt (large variant only; the router answers 404 on the small one).
// A PATCH is storage plus a session restart: the cached broker is dropped and the next tick
// resolves and connects again.
import * as w from "../json/writer";
import {
  parseMqttPatch,
  brokerMissing,
  commitMqtt,
  writeMqttSettings,
  MqttConfig,
  mqtt,
  topicPrefix,
  discoveryPrefix,
} from "../mqtt/config";
import { clearRetained } from "../mqtt/topics";
import { writeRuntime, restartSession, stopSession, connected } from "../mqtt/session";
import { persistMqtt } from "../mqtt/service";
import { sameText } from "../util/names";
import { storeFailure, ANSWERED, A_INVALID, A_BROKER_REQUIRED } from "../http/answers";

export function getMqtt(_req: u32, _param: string, _arg: u32): i32 {
  writeMqttSettings(false);
  writeRuntime();
  return ANSWERED;
}

/** Commits the settings read (json/check-fields.ts: null when they were refused), persists them and restarts
 * the session: 0, or the answer's row when they are refused (400, 422) or cannot be stored. */
export function applyMqtt(c: MqttConfig | null): i32 {
  if (!c) return A_INVALID;
  if (brokerMissing(c)) return A_BROKER_REQUIRED;
  const rc = persistMqtt(c); // stored before the answer; on a failure nothing changes
  if (rc < 0) return storeFailure(rc);
  // new prefixes: nothing retained is left under the old ones (before the session ends)
  const moved =
    connected() && (!sameText(topicPrefix(c), topicPrefix()) || !sameText(discoveryPrefix(c), discoveryPrefix()));
  if (moved) clearRetained();
  stopSession(!moved);
  commitMqtt(c);
  restartSession();
  return 0;
}

/** Answers with the settings, as GET does. */
export function patchMqtt(req: u32, _param: string, root: u32): i32 {
  const a = applyMqtt(parseMqttPatch(root));
  if (a != 0) return a;
  w.begin(req, 200);
  getMqtt(req, "", 0);
  w.finish();
  return ANSWERED;
}
