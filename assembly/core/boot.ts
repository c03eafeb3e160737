// Boot: stored settings are read back through the API's own validation; a missing, unreadable or
// invalid document leaves the defaults in place (and says so in the log), never stops the boot.
import { parseJson } from "../json/reader";
import { resetErrors, validationError } from "../json/validate";
import { storeRead, lastReadStatus, STORE_MISSING } from "../store/kv";
import { parseAppearancePatch, applyAppearancePatch, APPEARANCE_KEY } from "../state/appearance";
import {
  parseConfigPatch,
  applyConfigPatch,
  config,
  CONFIG_KEY,
  POWER_KEY,
  BOOT_OFF,
  BOOT_RESTORE,
} from "../state/config";
import { JValue } from "../json/value";
import { app } from "../state/app";
import { log, LOG_WARN } from "../util/log";

const SETTINGS_LIMIT: u32 = 4096;

function readDocument(key: string): JValue | null {
  const bytes = storeRead(key, SETTINGS_LIMIT);
  if (!bytes) {
    if (lastReadStatus != STORE_MISSING) log(LOG_WARN, "boot: " + key + " is unreadable; using defaults");
    return null;
  }
  const v = parseJson(bytes.dataStart, <u32>bytes.length);
  if (!v) log(LOG_WARN, "boot: " + key + " is not valid JSON; using defaults");
  return v;
}

export function loadSettings(): void {
  resetErrors();
  const a = readDocument(APPEARANCE_KEY);
  if (a) {
    const patch = parseAppearancePatch(a);
    if (patch) applyAppearancePatch(patch);
    else log(LOG_WARN, "boot: stored appearance rejected (" + validationError() + "); using defaults");
  }
  resetErrors();
  const c = readDocument(CONFIG_KEY);
  if (c) {
    const patch = parseConfigPatch(c);
    if (patch) applyConfigPatch(patch);
    else log(LOG_WARN, "boot: stored configuration rejected (" + validationError() + "); using defaults");
  }
  app.isOn = config.powerStateOnBoot != BOOT_OFF;
  if (config.powerStateOnBoot == BOOT_RESTORE) {
    const p = storeRead(POWER_KEY, 16);
    app.isOn = !(p && p.length > 0 && p[0] == 0x30);
  }
}
