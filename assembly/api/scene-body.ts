// A scene document in a request body, for the library (api/scenes.ts) and the one-shot scene
// (api/playback.ts): read as it streams from the request (the scene pass, scene/validate.ts:
// validated, its canonical form staged under a key of its own, compiled into a small buffer), and
// stored only once it is valid.
import { counted, A_SYNTAX, A_TOO_NEW, A_INVALID } from "../http/answers";
import { resetErrors } from "../json/validate";
import { openRequest } from "../json/stream";
import { SCRATCH, FORM, FORM_CAP } from "../rt/scratch";
import { arenaTop, arenaBack } from "../rt/arena";
import { log, LOG_WARN, LOG_ERROR } from "../util/log";
import { readScene, SCENE_OK, SCENE_TOO_NEW, SCENE_SYNTAX, tooNewVersion } from "../scene/validate";
import * as canonical from "../scene/canonical";
import { sealCompiled } from "../playback/compile";
import { writeInto, outLength } from "../playback/form-io";
import { sceneDuration } from "../scene/startafter";
import { schema, layerCount, nameBytes, nameLength, FIRMWARE_SCHEMA } from "../scene/state";
import { writeCompiledFile, commitScene, discardStages, fileHash, stageJson, STAGE_JSON_LENGTH } from "../scene/store";
import { intText } from "../util/int-text";

/** The answer to a refused document: 400 invalid_json, 409 schema_too_new or 422 with the path and
 * rule. */
export function rejected(result: i32): i32 {
  if (result == SCENE_SYNTAX) return A_SYNTAX;
  return result == SCENE_TOO_NEW ? counted(A_TOO_NEW, tooNewVersion, FIRMWARE_SCHEMA) : A_INVALID;
}

/** The compiled form's buffer (rt/scratch.ts F: from readBody to storeScene). */
const form = SCRATCH + FORM;
let formLength: u32 = 0;

/**
 * Reads the scene document of request `req` as it streams (the scene pass), staging its canonical
 * form and compiling it. SCENE_OK, or the refusal (`rejected` answers it); a refused document
 * leaves nothing behind. Then storeScene, or discardStages.
 */
export function readBody(req: u32, options: u32): i32 {
  resetErrors();
  openRequest(req);
  const mark = arenaTop();
  writeInto(form, FORM_CAP, 0);
  canonical.begin(stageJson, STAGE_JSON_LENGTH);
  const result = readScene(options);
  const rc = canonical.end();
  formLength = outLength;
  writeInto(0, 0, 0);
  if (result != SCENE_OK) {
    discardStages(); // the refusal's message is in the arena: the answer reads it
    return result;
  }
  // what the pass allocated is not read after it (its results are in static memory and kept slots):
  // the library walk and the store that follow start from where it began
  arenaBack(mark);
  return rc < 0 ? rc : SCENE_OK;
}

/**
 * Stores the scene readBody has read and staged as scene `id`: its file (header and canonical
 * JSON, scene/store.ts commitScene), then its compiled form under `compiled/<id>`. Returns 0 or a
 * negative STORE_* status; on failure the old files, if any, are intact.
 */
export function storeScene(id: string): i32 {
  const produced = formLength;
  const rc = commitScene(id, schema, layerCount, sceneDuration(), nameBytes, nameLength);
  if (rc < 0) {
    log(LOG_ERROR, "scenes: writing scene " + id + " failed (" + intText(rc) + ")");
    return rc;
  }
  // the compiled form goes with this file (its hash): written after it, it matches no other
  if (produced > FORM_CAP || writeCompiledFile(id, form, sealCompiled(form, produced, fileHash)) < 0)
    log(LOG_WARN, "scenes: scene " + id + " plays from its JSON (no compiled form)");
  return 0;
}
