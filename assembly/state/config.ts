// Device configuration: power state at boot, the logical root and the extra names the controller
// answers to (http/origin.ts). Persisted under "configuration" in the API's JSON shape and read back
// through the API's validation.
import { names } from "../util/names";
import { J_ARRAY, J_STRING } from "../json/reader";
import * as S from "../json/stream";
import { expectKind, fail, nameOfKind } from "../json/validate";
import { checkFields, indexPath, F_INT, F_OWN } from "../json/check-fields";
import * as w from "../json/writer";
import { fillFields, V_INT } from "../json/template";
import * as t from "../generated/text";

export const CONFIG_KEY = "configuration";
export const POWER_KEY = "power";

export const BOOT_ON: i32 = 0;
export const BOOT_OFF: i32 = 1;
export const BOOT_RESTORE: i32 = 2;

/** Names beyond its own the controller answers to (docs/decisions.md, "Host and Origin"). */
export const MAX_ALLOWED_HOSTS = 4;
const MAX_HOST_NAME = 253;

/** The configuration in force, in static memory (no start-up object, no wasm global). */
@final
@unmanaged
export class Configuration {
  powerStateOnBoot: i32;
  logicalRoot: i32;
}

// The names outlive the export that set them, and an export's memory is given back when it returns
// (rt/arena.ts): they are kept as bytes in static memory (host names are ASCII), which http/origin.ts
// compares and writeConfiguration writes as they are. A
// name is a slot: its length (0: no name, and none after it), then its bytes. A patch holds its names
// the same way, in a block of the export's memory.
const SLOT = 1 + MAX_HOST_NAME;
const HOSTS_BYTES = MAX_ALLOWED_HOSTS * SLOT;
/** The configuration (BOOT_ON, root 0) and, after it, the names' slots: one block, which a patch
 * that cannot be stored puts back from a copy (api/configuration.ts). */
export const CONFIG_BYTES = offsetof<Configuration>() + HOSTS_BYTES;
export const CONFIG = memory.data(<i32>CONFIG_BYTES);
export const config = changetype<Configuration>(CONFIG);
const hostSlots = CONFIG + offsetof<Configuration>();

/** How many names allowedHosts holds; the bytes of name i (ASCII) and their length. */
export function allowedHostCount(): i32 {
  let n = 0;
  while (n < MAX_ALLOWED_HOSTS && allowedHostLength(n) > 0) n++;
  return n;
}
export function allowedHostAt(i: i32): usize {
  return hostSlots + i * SLOT + 1;
}
export function allowedHostLength(i: i32): u32 {
  return load<u8>(hostSlots + i * SLOT);
}

export class ConfigPatch {
  powerStateOnBoot: i32 = -1; // -1: absent
  logicalRoot: i32 = -1;
  hosts: usize = 0; // allowedHosts as slots (see above); 0: absent
}

/** Whether the value just read is a DNS name: a string of 1-253 letters, digits, `-` and `.`,
 * written without escapes, not starting or ending with a dot. */
function isHostName(): bool {
  const p = S.text;
  const n = S.textBytes;
  let ok = (S.kind == J_STRING) & !S.textEscaped & (n - 1 < <u32>MAX_HOST_NAME);
  for (let k: u32 = 0; ok && k < n; k++) {
    const c = (<u32>load<u8>(p + k)) | 0x20; // (no control character is written unescaped)
    ok = (c - 0x61 <= 25) | (c - 0x30 <= 9) | (c == 0x2d) | ((c == 0x2e) & (k > 0) & (k + 1 < n));
  }
  return ok;
}

const KEYS = names("powerStateOnBoot logicalRoot allowedHosts");
// The checks in order: key (in KEYS), kind, range, field (json/check-fields.ts); allowedHosts is read by
// readHosts.
// prettier-ignore
const ROWS = memory.data<u16>([
  0, F_INT, 0, 2, <u16>offsetof<ConfigPatch>("powerStateOnBoot"),
  1, F_INT, 0, 254, <u16>offsetof<ConfigPatch>("logicalRoot"),
  2, F_OWN, 0, 0, 0,
]);

/** allowedHosts, as it streams: an array of at most 4 host names (its length is checked first). */
function readHosts(_k: i32, kind: u32, target: usize): void {
  if (!expectKind(J_ARRAY, "allowedHosts", "an array")) return S.skipRest(kind);
  const slots = heap.alloc(HOSTS_BYTES);
  memory.fill(slots, 0, HOSTS_BYTES);
  let n = 0;
  let bad = -1; // the first name with a problem, `badKind` its kind
  let badKind: u32 = 0;
  while (S.element()) {
    const e = S.value();
    if (bad < 0 && n < MAX_ALLOWED_HOSTS) {
      if (isHostName()) {
        const at = slots + n * SLOT;
        store<u8>(at, <u8>S.textBytes);
        memory.copy(at + 1, S.text, S.textBytes);
      } else {
        bad = n;
        badKind = S.kind;
      }
    }
    S.skipRest(e);
    n++;
  }
  if (n > MAX_ALLOWED_HOSTS) fail("allowedHosts", "must have at most 4 names");
  else if (bad >= 0)
    fail(
      indexPath("allowedHosts", bad),
      badKind != J_STRING ? "must be a string, not " + nameOfKind(badKind) : "must be a host name",
    );
  changetype<ConfigPatch>(target).hosts = slots; // compared case-insensitively
}

/** Reads the configuration document whose root value() has just read (kind `kind`). */
export function parseConfigPatch(kind: u32): ConfigPatch | null {
  const patch = new ConfigPatch();
  if (!checkFields(kind, KEYS, ROWS, 3, changetype<usize>(patch), readHosts, 32)) return null;
  return patch;
}

export function applyConfigPatch(patch: ConfigPatch): void {
  if (patch.powerStateOnBoot >= 0) config.powerStateOnBoot = patch.powerStateOnBoot;
  if (patch.logicalRoot >= 0) config.logicalRoot = patch.logicalRoot;
  if (patch.hosts) memory.copy(hostSlots, patch.hosts, HOSTS_BYTES);
}

/** The rows of the configuration's template (assembly/text/configuration.txt; both never negative). */
// prettier-ignore
const FIELDS = memory.data<u8>([
  V_INT, <u8>offsetof<Configuration>("powerStateOnBoot"),
  V_INT, <u8>offsetof<Configuration>("logicalRoot"),
]);

export function writeConfiguration(): void {
  fillFields(t.CONFIGURATION, t.CONFIGURATION_LENGTH, FIELDS, CONFIG);
  for (let i = 0; i < MAX_ALLOWED_HOSTS && allowedHostLength(i) > 0; i++) {
    if (i > 0) w.byte(0x2c);
    w.strBytes(allowedHostAt(i), allowedHostLength(i));
  }
  w.raw("]}");
}
