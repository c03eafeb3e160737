// Boot: stored settings are read back through the API's own validation; a missing, unreadable or
// invalid document leaves the defaults in place (and says so in the log), never stops the boot.
import { parseJson, closeJson, PARSE_OK } from "../json/reader";
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
import { app } from "../state/app";
import { log, LOG_WARN } from "../util/log";
import { loadLastPlayed } from "../playback/player";
import { migrateLegacyKeys } from "../palette/store";

const SETTINGS_LIMIT: u32 = 4096;

/** Opens a stored JSON document (root token 0). Returns its bytes, which must stay referenced while
 * its tokens are used, or null when it is missing, unreadable or not JSON. */
function openDocument(key: string): Uint8Array | null {
  const bytes = storeRead(key, SETTINGS_LIMIT);
  if (!bytes) {
    if (lastReadStatus != STORE_MISSING) log(LOG_WARN, "boot: " + key + " is unreadable; using defaults");
    return null;
  }
  if (parseJson(bytes.dataStart, <u32>bytes.length) != PARSE_OK) {
    log(LOG_WARN, "boot: " + key + " is not valid JSON; using defaults");
    return null;
  }
  return bytes;
}

export function loadSettings(): void {
  migrateLegacyKeys();
  resetErrors();
  const appearanceBytes = openDocument(APPEARANCE_KEY);
  if (appearanceBytes) {
    const patch = parseAppearancePatch(0, true);
    if (patch) applyAppearancePatch(patch);
    else log(LOG_WARN, "boot: stored appearance rejected (" + validationError() + "); using defaults");
  }
  resetErrors();
  const configBytes = openDocument(CONFIG_KEY);
  if (configBytes) {
    const patch = parseConfigPatch(0);
    if (patch) applyConfigPatch(patch);
    else log(LOG_WARN, "boot: stored configuration rejected (" + validationError() + "); using defaults");
  }
  closeJson();
  loadLastPlayed();
  app.isOn = config.powerStateOnBoot != BOOT_OFF;
  if (config.powerStateOnBoot == BOOT_RESTORE) {
    const p = storeRead(POWER_KEY, 16);
    app.isOn = !(p && p.length > 0 && p[0] == 0x30);
  }
}
