// GET /api/state, POST /api/state/power.
import { names } from "../util/names";
import { app, AppState } from "../state/app";
import { fillFields, V_BOOL, V_STR, V_DECIMAL } from "../json/template";
import * as t from "../generated/text";
import { queued } from "../http/request";
import { storeFailure, A_INVALID, A_BUSY, A_POWER_ON, A_POWER_OFF } from "../http/answers";
import { storePower } from "../core/look";
import { checkFields, skipOwn, F_BOOL, F_REQUIRED } from "../json/fields";
import { W_POWER, queueFull } from "../core/queue";

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

export function getState(_req: u32, _param: string, _arg: u32): i32 {
  fillFields(t.STATE, t.STATE_LENGTH, FIELDS, changetype<usize>(app));
  return 0;
}

const KEYS = names("isOn");
// prettier-ignore
const ROWS = memory.data<u16>([0, F_BOOL | F_REQUIRED, 0, 0, 0]); // isOn, into `on`
const on = memory.data(1);

export function postPower(_req: u32, _param: string, root: u32): i32 {
  if (!checkFields(root, KEYS, ROWS, 1, on, skipOwn, 32)) return A_INVALID;
  const isOn = load<bool>(on);
  if (queueFull()) return A_BUSY;
  // stored before the answer (powerStateOnBoot 2 restores it); the tick stores it again on a change
  const rc = storePower(isOn);
  if (rc < 0) return storeFailure(rc);
  return queued(W_POWER, isOn ? 1 : 0, 0, isOn ? A_POWER_ON : A_POWER_OFF);
}
