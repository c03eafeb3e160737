// The backup file (tessera backup / restore): scenes, custom palettes, appearance, configuration and
// the MQTT settings (never the password), in one JSON document. Scenes keep their ids (version 2), and
// restore puts each back under its own (PUT /api/scenes/{id}), so automations and `tessera play <id>`
// still work after it, and a backup restored to a fresh data directory and backed up again is the
// same file. A version 1 file has no ids: its scenes are matched by name.
import { request, CliError } from "./cli.mjs";

export const FORMAT = "tessera-backup";
export const VERSION = 2;
/** The versions restore reads. */
export const VERSIONS = [1, 2];
export const BUILT_IN = ["Base colors", "Rainbow", "Lava", "Ocean", "Forest", "Party", "Sunset", "Aurora", "Embers"];
/** The MQTT settings a backup keeps (GET /api/mqtt also has runtime fields). */
export const MQTT_SETTINGS = [
  "enabled",
  "brokerDiscovery",
  "broker",
  "port",
  "username",
  "topicPrefix",
  "discoveryPrefix",
];

const byName = (a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0);
const pick = (obj, keys) => Object.fromEntries(keys.filter((k) => k in obj).map((k) => [k, obj[k]]));

/** MQTT settings, or null on a controller without MQTT (the small variant answers 404). */
export async function mqttSettings(url) {
  try {
    return pick(await request(url, "GET", "/api/mqtt"), MQTT_SETTINGS);
  } catch (e) {
    if (e instanceof CliError && e.detail?.status === 404) return null;
    throw e;
  }
}

/** Everything a backup holds, read from the controller. */
export async function read(url) {
  const builtIn = new Set(BUILT_IN.map((n) => n.toLowerCase()));
  const palettes = (await request(url, "GET", "/api/palettes")).filter((p) => !builtIn.has(p.name.toLowerCase()));
  const scenes = [];
  for (const s of await request(url, "GET", "/api/scenes"))
    scenes.push(await request(url, "GET", `/api/scenes/${s.id}`));
  scenes.sort((a, b) => byName(a, b) || (a.id < b.id ? -1 : 1));
  return {
    format: FORMAT,
    version: VERSION,
    appearance: await request(url, "GET", "/api/appearance"),
    configuration: await request(url, "GET", "/api/configuration"),
    mqtt: await mqttSettings(url),
    palettes: palettes.sort(byName),
    scenes,
  };
}
