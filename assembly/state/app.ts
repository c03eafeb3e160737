// The app state read model (GET /api/state, the APP_STATE frame). Every change goes through
// `changed()`, so the APP_STATE broadcast follows every change without a client asking.
import { FIRMWARE_VERSION } from "../generated/version";
import { wakeUp, WAKE_STATE, WAKE_MQTT } from "../core/wake";
import { keepSlot, keepString } from "../rt/arena";

export class AppState {
  isOn: bool = true;
  lastPlayedSceneId: string = "";
  lastPlayedSceneIsStored: bool = false;
  playing: bool = false;
  speed: f64 = 1.0;
  /** The version, "+" and the host's build identifier of this image (setBuild, from core_init). */
  controllerFirmware: string = FIRMWARE_VERSION;
}

export const app = new AppState();
const firmwareKept = keepSlot(32); // core_init's memory is given back (rt/arena.ts)

/** core_init: `id` is the first four bytes of the image's MD5 (docs/host-abi.md), as 8 hex digits. */
export function setBuild(id: u32): void {
  let s = FIRMWARE_VERSION + "+";
  for (let shift = 28; shift >= 0; shift -= 4) {
    const d = (id >> shift) & 15;
    s += String.fromCharCode(<i32>(d < 10 ? 0x30 + d : 0x57 + d));
  }
  app.controllerFirmware = keepString(firmwareKept, s);
}

/** Set by every change until takeChanged (static memory: a wasm global costs WAMR about 52 B of heap). */
const dirty = memory.data(1);
export function changed(): void {
  store<bool>(dirty, true);
  wakeUp(WAKE_STATE | WAKE_MQTT); // the MQTT states follow the app state
}

/** True once after any change: the caller broadcasts APP_STATE. */
export function takeChanged(): bool {
  const was = load<bool>(dirty);
  store<bool>(dirty, false);
  return was;
}
