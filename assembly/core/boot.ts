// Boot: stored settings are read back through the API's own validation; a missing, unreadable or
// invalid document leaves the defaults in place (and says so in the log), never stops the boot.
import { openMemory, value, broken } from "../json/stream";
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
import { sendBackground } from "../bus/commands";
import { pushAppearance, pushPower, showAmbient } from "./look";
import { advertise, mqttAvailable } from "../mqtt/service";
import { parseMqttPatch, commitMqtt, MQTT_KEY } from "../mqtt/config";
import { restartSession } from "../mqtt/session";
import { flashRediscovered } from "../firmware/flash";

const SETTINGS_LIMIT: u32 = 4096;

/** Opens a stored JSON document to be read as it streams from memory (json/stream.ts) and returns
 * the kind of its root value, or -1 when it is missing or unreadable. Its bytes stay referenced by
 * the export's memory while it is read. */
function openDocument(key: string): i32 {
  const bytes = storeRead(key, SETTINGS_LIMIT);
  if (!bytes) {
    if (lastReadStatus != STORE_MISSING) log(LOG_WARN, "boot: " + key + " is unreadable; using defaults");
    return -1;
  }
  openMemory(bytes.dataStart, <u32>bytes.length);
  return <i32>value();
}

/** Logs why a stored document was refused. */
function refused(key: string): void {
  if (broken) log(LOG_WARN, "boot: " + key + " is not valid JSON; using defaults");
  else log(LOG_WARN, "boot: stored " + key + " rejected (" + validationError() + "); using defaults");
}

/** The appearance, the configuration, the MQTT settings (large variant: after mqtt/service.ts
 * networkInit) and the power state. */
export function loadSettings(): void {
  migrateLegacyKeys();
  resetErrors();
  const appearanceRoot = openDocument(APPEARANCE_KEY);
  if (appearanceRoot >= 0) {
    const patch = parseAppearancePatch(<u32>appearanceRoot, true);
    if (patch) applyAppearancePatch(patch);
    else refused(APPEARANCE_KEY);
  }
  resetErrors();
  const configRoot = openDocument(CONFIG_KEY);
  if (configRoot >= 0) {
    const patch = parseConfigPatch(<u32>configRoot);
    if (patch) applyConfigPatch(patch);
    else refused(CONFIG_KEY);
  }
  if (mqttAvailable()) {
    resetErrors();
    const mqttRoot = openDocument(MQTT_KEY);
    if (mqttRoot >= 0) {
      const c = parseMqttPatch(<u32>mqttRoot);
      if (c) commitMqtt(c);
      else refused(MQTT_KEY);
    }
    restartSession();
  }
  loadLastPlayed();
  app.isOn = config.powerStateOnBoot != BOOT_OFF;
  if (config.powerStateOnBoot == BOOT_RESTORE) {
    const p = storeRead(POWER_KEY, 16);
    app.isOn = !(p && p.length > 0 && load<u8>(p.dataStart) == 0x30);
  }
}

/** Discovery ended (at boot, and after a panel flash restarted the panels): the panels get the
 * background, the appearance and the power state; the advertisement gets their count. */
export function panelsDiscovered(): void {
  sendBackground(0);
  if (!app.isOn) pushAppearance();
  pushPower(app.isOn);
  showAmbient();
  advertise();
  flashRediscovered();
}
