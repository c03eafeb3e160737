// What the library shows of a scene without reading it whole: schemaVersion, name, layer count and
// duration, from the file's header (scene/store.ts). A plain JSON file (older firmware, written by
// hand) is read and validated instead, one at a time, as before headers existed.
import { sceneKey, keyLength, openScene, chunk, HEADER_FIXED } from "./store";
import { resetErrors, validationError } from "../json/validate";
import { openStored } from "../json/stream";
import { writeInto } from "../playback/bytes";
import { readScene, REQUIRE_NAME, SCENE_OK, SCENE_SYNTAX } from "./validate";
import * as canonical from "./canonical";
import { schema, layerCount, nameBytes, nameLength } from "./state";
import { sceneDuration } from "./startafter";
import { log, LOG_WARN } from "../util/log";

/** The name's largest UTF-8 form (64 characters). */
const NAME_CAP: u32 = 256;
/** The summary last read: valid until the next readSummary. The name is UTF-8 at `summaryName`. */
export const summaryName = memory.data(NAME_CAP);
export let summaryNameLength: u32 = 0;
export let summarySchema: i32 = 0;
export let summaryLayers: i32 = 0;
export let summaryDuration: u32 = 0;

/** Reads scene `id`'s summary; false (and logged) when the file is unreadable, corrupt or no longer
 * valid: such a scene is not listed. */
export function readSummary(id: string): bool {
  const key = sceneKey(id);
  const header = openScene(key);
  if (header > 0) {
    summarySchema = <i32>load<u8>(chunk, 4);
    summaryLayers = <i32>load<u8>(chunk, 5);
    summaryDuration = load<u32>(chunk, 6);
    summaryNameLength = min<u32>(<u32>header - HEADER_FIXED, NAME_CAP);
    memory.copy(summaryName, chunk + HEADER_FIXED, summaryNameLength);
    return true;
  }
  // a plain JSON file (header 0): read by the scene pass as it streams from the store (nothing kept
  // of it)
  let result = SCENE_SYNTAX;
  if (header == 0) {
    resetErrors();
    openStored(sceneKey(id), keyLength, 0);
    canonical.begin(0, 0);
    writeInto(0, 0, 0);
    result = readScene(REQUIRE_NAME);
  }
  if (result == SCENE_SYNTAX) {
    log(LOG_WARN, "scenes: scene " + id + " is unreadable or corrupt; not listed");
    return false;
  }
  if (result != SCENE_OK) {
    const why = validationError();
    log(
      LOG_WARN,
      "scenes: scene " +
        id +
        " no longer validates (" +
        (why.length > 0 ? why : "schemaVersion too new") +
        "); not listed",
    );
    return false;
  }
  summaryNameLength = min<u32>(nameLength, NAME_CAP);
  memory.copy(summaryName, nameBytes, summaryNameLength);
  summarySchema = schema;
  summaryLayers = layerCount;
  summaryDuration = sceneDuration();
  return true;
}
