// What the scene pass (scene/validate.ts) learns about the scene being read, in small fixed arrays
// (no tree, no copy of the document): per layer its group, startAfter, async mode and steps; per
// step its duration and id (a hash: ids are only compared). Valid until the next pass.
import { Fixed } from "../rt/fixed";

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
/** The name's UTF-8 bytes (a name of 64 characters is at most 256). */
export const NAME_CAP: u32 = 256;
export const nameBytes = memory.data(NAME_CAP);
export let nameLength: u32 = 0;
export let layerCount: i32 = 0;
export let groupKind: i32 = GROUPS_UNKNOWN;

// The per-layer and per-step arrays, in static memory (rt/fixed.ts): no WAMR global, no start-up
// block, no bounds check (indices are a layer < MAX_LAYERS or a step < MAX_LAYERS * MAX_STEPS).
const L = MAX_LAYERS;
/** Per layer: its startAfter as a number (startNumber, -1 none), after resolution the awaited layer
 * (-1 none) and step (-1: its whole sequence); resetState sets them to -1 at once. */
export const startNumber = changetype<Fixed<i32>>(memory.data(L * 4 * 3, 8));
export const afterLayer = changetype<Fixed<i32>>(changetype<usize>(startNumber) + L * 4);
export const afterStep = changetype<Fixed<i32>>(changetype<usize>(startNumber) + L * 8);
/** Per layer (reset to 0): the hash of its group name (scene/path-errors.ts textHash), its group number
 * (names: 1-8 in order), its startAfter as a text (its length, u16, and UTF-8 bytes in an arena block, or 0), async mode, disabled, steps. */
const zeroed = memory.data(L * (8 + 4 + 4 + 1 + 1 + 4), 8);
export const groupHash = changetype<Fixed<u64>>(zeroed);
export const groupNumber = changetype<Fixed<i32>>(zeroed + L * 8);
export const startText = changetype<Fixed<usize>>(zeroed + L * 12);
export const stepCount = changetype<Fixed<i32>>(zeroed + L * 16);
export const asyncMode = changetype<Fixed<u8>>(zeroed + L * 20);
export const disabled = changetype<Fixed<bool>>(zeroed + L * 21);
/** Per step (layer * MAX_STEPS + step): duration in ms (0 = infinite) and the hash of its id (0: none). */
export const stepDuration = changetype<Fixed<u32>>(memory.data(L * MAX_STEPS * 4, 4));
export const stepIdHash = changetype<Fixed<u64>>(memory.data(L * MAX_STEPS * 8, 8));

/** The value of each row of the scene pass's tables (scene/object-reader.ts: 57 rows, the step's first),
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
}

export function setLayerCount(n: i32): void {
  layerCount = n;
}

/** The layer being read (object-reader.ts keep puts a layer's values in its column of the image). */
export let layer = 0;

export function setLayer(l: i32): void {
  layer = l;
}

export function setGroupKind(k: i32): void {
  groupKind = k;
}

export function resetState(): void {
  schema = 1;
  speed = 1;
  nameLength = 0;
  layerCount = 0;
  groupKind = GROUPS_UNKNOWN;
  // the per-layer arrays: startAfter and its resolution -1, the rest 0
  memory.fill(changetype<usize>(startNumber), 0xff, L * 4 * 3);
  memory.fill(zeroed, 0, L * (8 + 4 + 4 + 1 + 1 + 4));
}
