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
import { jsonBody, sendInvalid, sendStoreFailure } from "../http/request";
import { sendError } from "../http/response";

export function getMqtt(req: u32, _param: string, _body: usize, _len: u32): void {
  w.begin(req, 200);
  writeMqttSettings(false);
  writeRuntime();
  w.finish();
}

/** Commits the settings read (json/fields.ts: null when they were refused), persists them and restarts
 * the session; false after answering 400 or 422. */
export function applyMqtt(req: u32, c: MqttConfig | null): bool {
  if (!c) {
    sendInvalid(req);
    return false;
  }
  if (brokerMissing(c)) {
    sendError(req, 422, "broker_required");
    return false;
  }
  const old = mqtt.copy();
  commitMqtt(c);
  const rc = persistMqtt(); // stored before the answer; on a failure nothing changes
  if (rc < 0) {
    commitMqtt(old);
    sendStoreFailure(req, rc);
    return false;
  }
  commitMqtt(old);
  // new prefixes: nothing retained is left under the old ones (before the session ends)
  const moved = connected() && (topicPrefix(c) != topicPrefix() || discoveryPrefix(c) != discoveryPrefix());
  if (moved) clearRetained();
  stopSession(!moved);
  commitMqtt(c);
  restartSession();
  return true;
}

export function patchMqtt(req: u32, _param: string, _body: usize, _len: u32): void {
  if (applyMqtt(req, parseMqttPatch(jsonBody(req)))) getMqtt(req, "", 0, 0);
}
