// GET /api/state, POST /api/state/power.
import * as w from "../json/writer";
import { app, controllerFirmware } from "../state/app";
import { jsonBody, sendInvalid, queueOrBusy, queueHasRoom, sendStoreFailure } from "../http/request";
import { storeWrite } from "../store/kv";
import { POWER_KEY } from "../state/config";
import { expectObject, onlyKeys, expectBool, fail } from "../json/validate";
import { W_POWER } from "../core/queue";
import { member, kindOf, J_TRUE } from "../json/reader";

export function getState(req: u32, _param: string, _body: usize, _len: u32): void {
  w.begin(req, 200);
  w.raw('{"isOn":');
  w.boolean(app.isOn);
  w.raw(',"lastPlayedSceneId":');
  w.str(app.lastPlayedSceneId);
  w.raw(',"lastPlayedSceneIsStored":');
  w.boolean(app.lastPlayedSceneIsStored);
  w.raw(',"playing":');
  w.boolean(app.playing);
  w.raw(',"speed":');
  w.decimal(app.speed);
  w.raw(',"controllerFirmware":');
  w.str(controllerFirmware);
  w.byte(0x7d);
  w.finish();
}

export function postPower(req: u32, _param: string, body: usize, len: u32): void {
  const v = jsonBody(req, body, len);
  if (v < 0) return;
  if (!expectObject(v, "") || !onlyKeys(v, "", ["isOn"])) return sendInvalid(req);
  const isOn = member(v, "isOn");
  if (isOn < 0) {
    fail("isOn", "is required");
    return sendInvalid(req);
  }
  if (!expectBool(isOn, "isOn")) return sendInvalid(req);
  const on = kindOf(isOn) == J_TRUE;
  if (!queueHasRoom(req)) return;
  // stored before the answer (powerStateOnBoot 2 restores it); the tick stores it again on a change
  const bytes = new Array<u8>();
  bytes.push(on ? 0x31 : 0x30);
  const rc = storeWrite(POWER_KEY, bytes);
  if (rc < 0) return sendStoreFailure(req, rc);
  if (!queueOrBusy(req, W_POWER, on ? 1 : 0, 0)) return;
  // two literal raw() calls rather than a chosen string: the messages transform moves them to UTF-8
  w.begin(req, 202);
  if (on) w.raw('{"isOn":true}');
  else w.raw('{"isOn":false}');
  w.finish();
}
