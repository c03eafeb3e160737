// The panel animation engine's vocabulary: the codes of the 20-byte animation record
// (docs/bus-protocol.md) and the fixed-point scales (docs/panel-engine.md).

/** Concurrent animations per panel (scene-format spec, Limits). */
export const MAX_SLOTS: i32 = 18;

// Slot states.
export const S_FREE: u8 = 0;
export const S_PREPARED: u8 = 1; // waiting for an animation start of its group
export const S_RUNNING: u8 = 2; // started; shows once its start delay has passed

// Record byte 2, low 4 bits: the animation kind (K_<TYPE>, K_RUNNER for one local pulse of a
// controller runner, KIND_MASK the valid ones), from the one table, assembly/animation-kinds.json.
export * from "../../generated/kinds";

// Record byte 2, high bits: flags.
export const F_LOOP: u8 = 0x10;
export const F_PINGPONG: u8 = 0x20;
export const F_REAP: u8 = 0x40;
export const F_WINDOW: u8 = 0x80; // runner pulse only: bytes 4-7 are its window, not colorFrom

// Record byte 3, low 4 bits: what the animation drives.
export const A_COLOR: u8 = 0;
export const A_DIM: u8 = 1;
export const A_DESATURATE: u8 = 2;
export const A_HUE: u8 = 3;
export const A_INVERT: u8 = 4;
export const A_BRIGHTEN: u8 = 5;
export const A_SATURATE: u8 = 6;
export const A_LAST: u8 = 6;

// Record byte 3, high 4 bits: the blend mode.
export const B_DEFAULT: u8 = 0;
export const B_OPAQUE: u8 = 1;
export const B_ADD: u8 = 2;
export const B_MAX: u8 = 3;
export const B_MULTIPLY: u8 = 4;
export const B_SCREEN: u8 = 5;
export const B_DARKEN: u8 = 6;
export const B_OVERLAY: u8 = 7;
export const B_DIFFERENCE: u8 = 8;
export const B_SUBTRACT: u8 = 9;
export const B_LAST: u8 = 9;

// Colour reference kinds (first byte of colorFrom / colorTo).
export const REF_RGB: u32 = 0;
export const REF_PALETTE: u32 = 1;
export const REF_BASE: u32 = 2;
/** Not on the bus: the colorFrom of a windowed runner pulse, the panel's background (its rest). */
export const REF_BACKGROUND: u32 = 3;

/** Unity of an envelope: envelopes are Q16 fractions 0..ONE from colorFrom to colorTo. */
export const ONE: u32 = 65536;
/** Cycle of BREATHE and HUE_CYCLE when the duration is 0 (infinite). */
export const DEFAULT_PERIOD_MS: u32 = 4000;
/** Local time is kept in microseconds: wall milliseconds times the rate per mille. */
export const US_PER_MS: i64 = 1000;
/** Normal speed, per mille. */
export const RATE_NORMAL: u32 = 1000;
