// What the scene pass (scene/validate.ts) learns about the scene being read, in small fixed arrays
// (no tree, no copy of the document): per layer its group, startAfter, async mode and steps; per
// step its duration and id (a hash: ids are only compared). Valid until the next pass.

export const FIRMWARE_SCHEMA: i32 = 8;
export const MAX_LAYERS: i32 = 8;
export const MAX_STEPS: i32 = 12;

export const ASYNC_NO: u8 = 0;
export const ASYNC_LOOP: u8 = 1; // true or "loop"
export const ASYNC_FREE: u8 = 2;

export const GROUPS_UNKNOWN: i32 = -1;
export const GROUPS_NUMBERS: i32 = 0;
export const GROUPS_NAMES: i32 = 1;

/** The document's schemaVersion (1 when absent). */
export let schema: i32 = 1;
/** The scene speed after clamping. */
export let speed: f64 = 1;
/** The name's UTF-8 bytes (a name of 64 characters is at most 256), and whether it was given. */
export const NAME_CAP: u32 = 256;
export const nameBytes = memory.data(NAME_CAP);
export let nameLength: u32 = 0;
export let named = false;
export let layerCount: i32 = 0;
export let groupKind: i32 = GROUPS_UNKNOWN;

/** Per layer: the hash of its group name (scene/text.ts textHash), its group number (names: 1-8
 * in order). */
export const groupHash = new StaticArray<u64>(MAX_LAYERS);
export const groupNumber = new StaticArray<i32>(MAX_LAYERS);
/** Per layer: its startAfter, a number (startNumber) or a text (startText), or neither. */
export const startNumber = new StaticArray<i32>(MAX_LAYERS);
export const startText = new StaticArray<string | null>(MAX_LAYERS);
/** Per layer, after resolution: the awaited layer (-1 none) and step (-1: its whole sequence). */
export const afterLayer = new StaticArray<i32>(MAX_LAYERS);
export const afterStep = new StaticArray<i32>(MAX_LAYERS);
export const asyncMode = new StaticArray<u8>(MAX_LAYERS);
export const disabled = new StaticArray<bool>(MAX_LAYERS);
export const stepCount = new StaticArray<i32>(MAX_LAYERS);
/** Per step (layer * MAX_STEPS + step): duration in ms (0 = infinite) and the hash of its id (0: none). */
export const stepDuration = new StaticArray<u32>(MAX_LAYERS * MAX_STEPS);
export const stepIdHash = new StaticArray<u64>(MAX_LAYERS * MAX_STEPS);

/** The value of each row of the scene pass's tables (scene/fields.ts: 57 rows, the step's first),
 * or -1 where a level resets them (the step). */
export const slots = memory.data(57 * 4);

export function setSchema(v: i32): void {
  schema = v;
}

export function setSpeed(v: f64): void {
  speed = v;
}

/** Keeps the name just read ([p, p+n), at most NAME_CAP bytes). */
export function setName(p: usize, n: u32): void {
  nameLength = min(n, NAME_CAP);
  memory.copy(nameBytes, p, nameLength);
  named = true;
}

export function setLayerCount(n: i32): void {
  layerCount = n;
}

export function setGroupKind(k: i32): void {
  groupKind = k;
}

export function resetState(): void {
  schema = 1;
  speed = 1;
  nameLength = 0;
  named = false;
  layerCount = 0;
  groupKind = GROUPS_UNKNOWN;
  for (let i = 0; i < MAX_LAYERS; i++) {
    groupHash[i] = 0;
    groupNumber[i] = 0;
    startNumber[i] = -1;
    startText[i] = null;
    afterLayer[i] = -1;
    afterStep[i] = -1;
    asyncMode[i] = ASYNC_NO;
    disabled[i] = false;
    stepCount[i] = 0;
  }
}
