// Device configuration: power state at boot and the logical root. Persisted under "configuration"
// in the API's JSON shape and read back through the API's validation.
import { member, numberValue } from "../json/reader";
import { expectObject, onlyKeys, expectInt } from "../json/validate";
import * as w from "../json/writer";

export const CONFIG_KEY = "configuration";
export const POWER_KEY = "power";

export const BOOT_ON: i32 = 0;
export const BOOT_OFF: i32 = 1;
export const BOOT_RESTORE: i32 = 2;

export class Configuration {
  powerStateOnBoot: i32 = BOOT_ON;
  logicalRoot: i32 = 0;
}

export const config = new Configuration();

export class ConfigPatch {
  powerStateOnBoot: i32 = -1; // -1: absent
  logicalRoot: i32 = -1;
}

export function parseConfigPatch(v: i32): ConfigPatch | null {
  if (!expectObject(v, "") || !onlyKeys(v, "", ["powerStateOnBoot", "logicalRoot"])) return null;
  const patch = new ConfigPatch();
  const p = member(v, "powerStateOnBoot");
  if (p >= 0) {
    if (!expectInt(p, "powerStateOnBoot", 0, 2)) return null;
    patch.powerStateOnBoot = <i32>numberValue(p);
  }
  const r = member(v, "logicalRoot");
  if (r >= 0) {
    if (!expectInt(r, "logicalRoot", 0, 254)) return null;
    patch.logicalRoot = <i32>numberValue(r);
  }
  return patch;
}

export function applyConfigPatch(patch: ConfigPatch): void {
  if (patch.powerStateOnBoot >= 0) config.powerStateOnBoot = patch.powerStateOnBoot;
  if (patch.logicalRoot >= 0) config.logicalRoot = patch.logicalRoot;
}

export function writeConfiguration(): void {
  w.raw('{"powerStateOnBoot":');
  w.int(config.powerStateOnBoot);
  w.raw(',"logicalRoot":');
  w.int(config.logicalRoot);
  w.byte(0x7d);
}
