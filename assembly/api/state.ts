// GET /api/state, POST /api/state/power.
import { names } from "../util/names";
import { app, AppState } from "../state/app";
import { fillFields, fillValues, VALUES, V_BOOL, V_STR, V_DECIMAL } from "../json/template";
import * as w from "../json/writer";
import { live, P_NONE, P_DDP } from "../stream/live";
import * as t from "../generated/text";
import { queued } from "../http/request";
import { storeFailure, A_INVALID, A_BUSY, A_POWER_ON, A_POWER_OFF } from "../http/answers";
import { storePower } from "../core/look";
import { checkFields, skipOwn, F_BOOL, F_REQUIRED } from "../json/check-fields";
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
  fillFields(t.STATE, t.STATE_LENGTH, FIELDS, changetype<usize>(app)); // up to "stream":
  writeStream();
  w.byte(0x7d);
  return 0;
}

// The live stream's protocol and source: two strings in VALUES' slots 0 and 1.
const STREAM_ROWS = memory.data<u8>([V_STR, 0, V_STR, 8]);

/** The stream that owns the panels, {"protocol":"ddp","source":"a.b.c.d"}, or null. */
function writeStream(): void {
  if (live.protocol == P_NONE) {
    w.raw("null");
    return;
  }
  const a = live.source;
  const source =
    (a >>> 24).toString() +
    "." +
    ((a >> 16) & 255).toString() +
    "." +
    ((a >> 8) & 255).toString() +
    "." +
    (a & 255).toString();
  store<usize>(VALUES, changetype<usize>(live.protocol == P_DDP ? "ddp" : "e131"));
  store<usize>(VALUES + 8, changetype<usize>(source));
  fillValues(t.STREAM_STATE, t.STREAM_STATE_LENGTH, STREAM_ROWS);
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
