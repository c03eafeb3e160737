// Device configuration: power state at boot, the logical root and the extra names the controller
// answers to (http/origin.ts). Persisted under "configuration" in the API's JSON shape and read back
// through the API's validation.
import { member, sizeOf, element, stringValue, lengthOf, sourceOf } from "../json/reader";
import { expectArray, expectString, fail } from "../json/validate";
import { checkFields, F_INT } from "../json/fields";
import { fillFields, V_INT, V_STRS } from "../json/template";
import * as t from "../generated/text";

export const CONFIG_KEY = "configuration";
export const POWER_KEY = "power";

export const BOOT_ON: i32 = 0;
export const BOOT_OFF: i32 = 1;
export const BOOT_RESTORE: i32 = 2;

/** Names beyond its own the controller answers to (docs/decisions.md, "Host and Origin"). */
export const MAX_ALLOWED_HOSTS = 4;
const MAX_HOST_NAME: u32 = 253;

export class Configuration {
  powerStateOnBoot: i32 = BOOT_ON;
  logicalRoot: i32 = 0;
  allowedHosts: string[] = [];
}

export const config = new Configuration();

export class ConfigPatch {
  powerStateOnBoot: i32 = -1; // -1: absent
  logicalRoot: i32 = -1;
  allowedHosts: string[] | null = null; // null: absent
}

/** A DNS name: 1-253 of letters, digits, `-` and `.`, not starting or ending with a dot. */
function hostName(i: i32, path: string): bool {
  if (!expectString(i, path)) return false;
  const p = sourceOf(i);
  const n = lengthOf(i);
  let ok = n > 0 && n <= MAX_HOST_NAME && load<u8>(p) != 0x2e && load<u8>(p + n - 1) != 0x2e;
  for (let k: u32 = 0; ok && k < n; k++) {
    const c = (<u32>load<u8>(p + k)) | 0x20;
    ok = (c >= 0x61 && c <= 0x7a) || (c >= 0x30 && c <= 0x39) || c == 0x2d || c == 0x2e;
  }
  return ok || fail(path, "must be a host name");
}

const KEYS: StaticArray<string> = ["powerStateOnBoot", "logicalRoot", "allowedHosts"];
// The checks before allowedHosts': key (in KEYS), kind, range, field (json/fields.ts).
// prettier-ignore
const ROWS = memory.data<u16>([
  0, F_INT, 0, 2, <u16>offsetof<ConfigPatch>("powerStateOnBoot"),
  1, F_INT, 0, 254, <u16>offsetof<ConfigPatch>("logicalRoot"),
]);

export function parseConfigPatch(v: i32): ConfigPatch | null {
  const patch = new ConfigPatch();
  if (!checkFields(v, KEYS, KEYS, ROWS, 2, changetype<usize>(patch))) return null;
  const h = member(v, "allowedHosts");
  if (h >= 0) {
    if (!expectArray(h, "allowedHosts")) return null;
    const n = sizeOf(h);
    if (n > MAX_ALLOWED_HOSTS) {
      fail("allowedHosts", "must have at most 4 names");
      return null;
    }
    const names = new Array<string>();
    for (let k = 0; k < n; k++) {
      const e = element(h, k);
      if (!hostName(e, "allowedHosts[" + k.toString() + "]")) return null;
      names.push(stringValue(e)); // compared case-insensitively
    }
    patch.allowedHosts = names;
  }
  return patch;
}

export function applyConfigPatch(patch: ConfigPatch): void {
  if (patch.powerStateOnBoot >= 0) config.powerStateOnBoot = patch.powerStateOnBoot;
  if (patch.logicalRoot >= 0) config.logicalRoot = patch.logicalRoot;
  const hosts = patch.allowedHosts;
  if (hosts !== null) config.allowedHosts = hosts;
}

// The document's values: kind, field of Configuration (json/template.ts fillFields), marker by marker.
// prettier-ignore
const FIELDS = memory.data<u8>([
  V_INT, <u8>offsetof<Configuration>("powerStateOnBoot"),
  V_INT, <u8>offsetof<Configuration>("logicalRoot"),
  V_STRS, <u8>offsetof<Configuration>("allowedHosts"),
]);

export function writeConfiguration(): void {
  fillFields(t.CONFIGURATION, t.CONFIGURATION_LENGTH, FIELDS, changetype<usize>(config));
}
