// GET /api/state, POST /api/state/power.
import { names } from "../util/names";
import * as w from "../json/writer";
import { app, AppState } from "../state/app";
import { fillFields, V_BOOL, V_STR, V_DECIMAL } from "../json/template";
import * as t from "../generated/text";
import { jsonBody, sendInvalid, queueOrBusy, queueHasRoom, sendStoreFailure } from "../http/request";
import { storePower } from "../core/look";
import { checkFields, F_BOOL, F_REQUIRED } from "../json/fields";
import { W_POWER } from "../core/queue";

// The answer's values: kind, field of AppState (json/template.ts fillFields), marker by marker.
// prettier-ignore
const FIELDS = memory.data<u8>([
  V_BOOL, <u8>offsetof<AppState>("isOn"),
  V_STR, <u8>offsetof<AppState>("lastPlayedSceneId"),
  V_BOOL, <u8>offsetof<AppState>("lastPlayedSceneIsStored"),
  V_BOOL, <u8>offsetof<AppState>("playing"),
  V_DECIMAL, <u8>offsetof<AppState>("speed"),
  V_STR, <u8>offsetof<AppState>("controllerFirmware"),
]);

export function getState(req: u32, _param: string, _body: usize, _len: u32): void {
  w.begin(req, 200);
  fillFields(t.STATE, t.STATE_LENGTH, FIELDS, changetype<usize>(app));
  w.finish();
}

const KEYS = names("isOn");
// prettier-ignore
const ROWS = memory.data<u16>([0, F_BOOL | F_REQUIRED, 0, 0, 0]); // isOn, into `on`
const on = memory.data(1);

export function postPower(req: u32, _param: string, _body: usize, _len: u32): void {
  if (!checkFields(jsonBody(req), KEYS, ROWS, 1, on)) return sendInvalid(req);
  const isOn = load<bool>(on);
  if (!queueHasRoom(req)) return;
  // stored before the answer (powerStateOnBoot 2 restores it); the tick stores it again on a change
  const rc = storePower(isOn);
  if (rc < 0) return sendStoreFailure(req, rc);
  if (!queueOrBusy(req, W_POWER, isOn ? 1 : 0, 0)) return;
  // two literal raw() calls rather than a chosen string: the messages transform moves them to UTF-8
  w.begin(req, 202);
  if (isOn) w.raw('{"isOn":true}');
  else w.raw('{"isOn":false}');
  w.finish();
}
