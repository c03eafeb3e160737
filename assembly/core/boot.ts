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
import { whenDiscovered } from "../bus/discovery";

const SETTINGS_LIMIT: u32 = 4096;

/** The documents read at boot, in order: the appearance, the configuration, the MQTT settings (large
 * variant only: after mqtt/service.ts networkInit). */
const D_APPEARANCE = 0;
const D_CONFIG = 1;
const D_MQTT = 2;

/** Reads stored document `d` through the API's own validation and applies it; a missing document
 * leaves the defaults, an unreadable, broken or invalid one too, and says so in the log. Its bytes
 * stay referenced by the export's memory while it is read. */
function loadDocument(d: i32): void {
  const key = d == D_APPEARANCE ? APPEARANCE_KEY : d == D_CONFIG ? CONFIG_KEY : MQTT_KEY;
  resetErrors();
  const bytes = storeRead(key, SETTINGS_LIMIT);
  if (!bytes) {
    if (lastReadStatus != STORE_MISSING) log(LOG_WARN, "boot: " + key + " is unreadable; using defaults");
    return;
  }
  openMemory(bytes.dataStart, <u32>bytes.length);
  const root = <u32>value();
  let ok = false;
  if (d == D_APPEARANCE) {
    const patch = parseAppearancePatch(root, true);
    if ((ok = patch != null)) applyAppearancePatch(patch);
  } else if (d == D_CONFIG) {
    const patch = parseConfigPatch(root);
    if ((ok = patch != null)) applyConfigPatch(patch);
  } else {
    const c = parseMqttPatch(root);
    if ((ok = c != null)) commitMqtt(c);
  }
  if (ok) return;
  if (broken) log(LOG_WARN, "boot: " + key + " is not valid JSON; using defaults");
  else log(LOG_WARN, "boot: stored " + key + " rejected (" + validationError() + "); using defaults");
}

/** The appearance, the configuration, the MQTT settings and the power state. */
export function loadSettings(): void {
  migrateLegacyKeys();
  const large = mqttAvailable();
  for (let d = D_APPEARANCE; d <= (large ? D_MQTT : D_CONFIG); d++) loadDocument(d);
  if (large) restartSession();
  loadLastPlayed();
  app.isOn = config.powerStateOnBoot != BOOT_OFF;
  if (config.powerStateOnBoot == BOOT_RESTORE) {
    const p = storeRead(POWER_KEY, 16);
    app.isOn = !(p && p.length > 0 && load<u8>(p.dataStart) == 0x30);
  }
}

/** Discovery ended (at boot, and after a panel flash restarted the panels): the panels get the
 * background, the appearance and the power state; the advertisement gets their count. */
function panelsDiscovered(): void {
  sendBackground(0);
  if (!app.isOn) pushAppearance();
  pushPower(app.isOn);
  showAmbient();
  advertise();
  flashRediscovered();
}

whenDiscovered(panelsDiscovered);
