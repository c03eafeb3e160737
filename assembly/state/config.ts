// Device configuration: power state at boot and the logical root. Persisted under "configuration"
// in the API's JSON shape and read back through the API's validation.
import { JValue } from "../json/value";
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

export function parseConfigPatch(v: JValue): ConfigPatch | null {
  if (!expectObject(v, "$") || !onlyKeys(v, "", ["powerStateOnBoot", "logicalRoot"])) return null;
  const patch = new ConfigPatch();
  const p = v.get("powerStateOnBoot");
  if (p) {
    if (!expectInt(p, "powerStateOnBoot", 0, 2)) return null;
    patch.powerStateOnBoot = <i32>p.num;
  }
  const r = v.get("logicalRoot");
  if (r) {
    if (!expectInt(r, "logicalRoot", 0, 254)) return null;
    patch.logicalRoot = <i32>r.num;
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
