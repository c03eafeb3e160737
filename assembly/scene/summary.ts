// What the library shows of a scene without reading it whole: schemaVersion, name, layer count and
// duration, from the file's header (scene/store.ts). A plain JSON file (older firmware, written by
// hand) is read and validated instead, one at a time, as before headers existed.
import { sceneKey, keyLength, openScene, chunk, HEADER_FIXED } from "./store";
import { resetErrors, validationError } from "../json/validate";
import { openStored } from "../json/stream";
import { writeInto } from "../playback/form-io";
import { readScene, REQUIRE_NAME, SCENE_OK, SCENE_SYNTAX } from "./validate";
import * as canonical from "./canonical";
import { setSchema, setLayerCount, setName } from "./state";
import { sceneDuration } from "./startafter";
import { log, LOG_WARN } from "../util/log";

/** The summary last read, valid until the next readSummary or scene pass: the scene state's
 * (state.ts), which the header sets as the pass would; the duration here. */
export {
  nameBytes as summaryName,
  nameLength as summaryNameLength,
  schema as summarySchema,
  layerCount as summaryLayers,
} from "./state";
export let summaryDuration: u32 = 0;

/** Reads scene `id`'s summary; false (and logged) when the file is unreadable, corrupt or no longer
 * valid: such a scene is not listed. */
export function readSummary(id: string): bool {
  const key = sceneKey(id);
  const header = openScene(key);
  if (header > 0) {
    setSchema(<i32>load<u8>(chunk, 4));
    setLayerCount(<i32>load<u8>(chunk, 5));
    summaryDuration = load<u32>(chunk, 6);
    setName(chunk + HEADER_FIXED, <u32>header - HEADER_FIXED);
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
  summaryDuration = sceneDuration();
  return true;
}
