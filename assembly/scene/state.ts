// What validation learns about the scene being checked, in small fixed arrays (no tree, no
// allocation): per layer its group, startAfter, async mode and steps; per step its duration and id.
// Valid until the next validation. Token indices refer to the open JSON document.

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
/** Token of the name string, or -1. */
export let nameToken: i32 = -1;
export let layerCount: i32 = 0;
export let groupKind: i32 = GROUPS_UNKNOWN;

/** Per layer: the token of its group value, its group number (names: 1-8 in order). */
export const groupToken = new StaticArray<i32>(MAX_LAYERS);
export const groupNumber = new StaticArray<i32>(MAX_LAYERS);
/** Per layer: the token of its startAfter value, or -1. */
export const startToken = new StaticArray<i32>(MAX_LAYERS);
/** Per layer, after resolution: the awaited layer (-1 none) and step (-1: its whole sequence). */
export const afterLayer = new StaticArray<i32>(MAX_LAYERS);
export const afterStep = new StaticArray<i32>(MAX_LAYERS);
export const asyncMode = new StaticArray<u8>(MAX_LAYERS);
export const disabled = new StaticArray<bool>(MAX_LAYERS);
export const stepCount = new StaticArray<i32>(MAX_LAYERS);
/** Per step (layer * MAX_STEPS + step): duration in ms (0 = infinite) and the token of its id (-1). */
export const stepDuration = new StaticArray<u32>(MAX_LAYERS * MAX_STEPS);
export const stepIdToken = new StaticArray<i32>(MAX_LAYERS * MAX_STEPS);

export function setSchema(v: i32): void {
  schema = v;
}

export function setSpeed(v: f64): void {
  speed = v;
}

export function setNameToken(t: i32): void {
  nameToken = t;
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
  nameToken = -1;
  layerCount = 0;
  groupKind = GROUPS_UNKNOWN;
  for (let i = 0; i < MAX_LAYERS; i++) {
    groupToken[i] = -1;
    groupNumber[i] = 0;
    startToken[i] = -1;
    afterLayer[i] = -1;
    afterStep[i] = -1;
    asyncMode[i] = ASYNC_NO;
    disabled[i] = false;
    stepCount[i] = 0;
  }
  resetRewrites();
}

// ---- rewrites for the canonical form -----------------------------------------------------------
// Legacy forms and a clamped speed are rewritten when the document is stored; everything else is
// copied as written. Each rewrite names the token it applies to, in document order.

/** The value token of the top-level speed: written as 0.1. */
export const RW_SPEED_MIN: u8 = 1;
/** The value token of the top-level speed: written as 10. */
export const RW_SPEED_MAX: u8 = 2;
/** The key token of `originPanel: N`: written as `"source":"panel:N"`. */
export const RW_ORIGIN: u8 = 3;
/** The key token of `source: "geometric"`: written as `"source":"root","directionality":"geometric"`. */
export const RW_GEOMETRIC: u8 = 4;
/** As RW_GEOMETRIC when the step already says `directionality: "geometric"`: `"source":"root"`. */
export const RW_GEOMETRIC_SOURCE_ONLY: u8 = 5;

export const MAX_REWRITES = 1 + MAX_LAYERS * MAX_STEPS;
export const rewriteToken = new StaticArray<i32>(MAX_REWRITES);
export const rewriteKind = new StaticArray<u8>(MAX_REWRITES);
export let rewriteCount = 0;
/** Bytes the rewrites add beyond what they replace, in total (sizes the canonical writer's spill). */
export let rewriteGrowth: u32 = 0;

function resetRewrites(): void {
  rewriteCount = 0;
  rewriteGrowth = 0;
}

/** Records a rewrite of `token` that may write up to `growth` bytes more than it replaces. */
export function addRewrite(token: i32, kind: u8, growth: u32): void {
  if (rewriteCount >= MAX_REWRITES) return;
  // keep document order (insertion sort; the list is short and nearly always in order already)
  let i = rewriteCount++;
  while (i > 0 && rewriteToken[i - 1] > token) {
    rewriteToken[i] = rewriteToken[i - 1];
    rewriteKind[i] = rewriteKind[i - 1];
    i--;
  }
  rewriteToken[i] = token;
  rewriteKind[i] = kind;
  rewriteGrowth += growth;
}
