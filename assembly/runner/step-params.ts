// A runner step's fields, parsed once (at save into the compiled scene form, playback/compile.ts;
// for POST /api/animations/play when it is requested) into fixed arrays indexed by compact step
// number (layer · 12 + step; the flat animation uses FLAT_STEP). Defaults follow the scene format.
import { slot } from "../scene/step";
import {
  KEY_RUNNER,
  KEY_SOURCE,
  KEY_ORIGIN_PANEL,
  KEY_DIRECTIONALITY,
  KEY_REVERSE,
  KEY_REPEAT,
  KEY_ANGLE,
  KEY_WAVE_WIDTH,
  KEY_RIPPLE_WIDTH,
  KEY_WIDTH,
  KEY_PARAMS,
  KEY_COUNT,
  KEY_REPEAT_COUNT,
  KEY_LINES,
  KEY_THICKNESS,
  KEY_WAVES,
  KEY_SPEED,
  KEY_ANIMATES,
  KEY_AMOUNT,
  SOURCE_GEOMETRIC,
} from "../scene/step-keys";
import { put, next } from "../playback/form-io";
import { SRC_ROOT, SRC_LEAVES, SRC_PANEL, SRC_ALL } from "./distance";

export const R_WAVE: u8 = 0;
export const R_RIPPLE: u8 = 1;
export const R_CHASE: u8 = 2;
export const R_WHEEL: u8 = 3;
export const R_BOUNCE: u8 = 4;
export const R_RAIN: u8 = 5; // RAIN, SPARKLE, MATRIX: spawners (assembly/runner/spawn.ts)

export const FLAT_STEP = 96;
/** Compiling a scene parses its runner steps here: never into a step that may be playing. */
export const SCRATCH_STEP = FLAT_STEP + 1;
const N = FLAT_STEP + 2;
/** A runner step's fields, parsed once (parseRunner, or nextRunner from the compiled form); in the
 * compiled form's order (FIELD_AT). In static memory: no allocation, no global a table. */
@unmanaged
export class RunnerStep {
  kind: u8; // R_WAVE-MATRIX
  source: u8; // SRC_ROOT-SRC_ALL
  panel: u8;
  geometric: bool;
  reverse: bool;
  repeat: bool;
  angle: u16; // 0-359
  width: u8;
  count: u8; // 1-30
  repeatCount: u8;
  lines: u8; // 1-6
  thickness: u16; // 0-359
  amount: u8;
  waves: u8;
  speed: u16;
}
const STEP_SIZE = offsetof<RunnerStep>();
const STEPS = memory.data(<i32>STEP_SIZE * N, 2);

/** Step `s`'s fields. */
export function runnerAt(s: i32): RunnerStep {
  return changetype<RunnerStep>(STEPS + <usize>s * STEP_SIZE);
}

/** Default width in rings: WAVE 3, RIPPLE 2, CHASE 1 (a single ring), WHEEL 0, BOUNCE 3, spawners 0. */
const WIDTH_DEFAULT = memory.data<u8>([3, 2, 1, 0, 3, 0, 0, 0]);
/** Identity value of each animates target (color: unused); 8 entries, read masked to 3 bits, as a
 * record from a file may hold any value. */
const IDENTITY = memory.data<u8>([0, 255, 255, 0, 0, 0, 0, 0]);
/** The default amount of each animates target (scene/names.ts ANIMATES, 7 of them): 255 minus its
 * identity, hue half a turn. */
const AMOUNT_DEFAULT = memory.data<u8>([255, 0, 0, 128, 255, 255, 255, 255]);
/** The fields taken as given or defaulted: offset in RunnerStep, scene/step.ts key, default; in
 * offset order, each stored as a u16 whose high byte the next field's store covers (speed, last,
 * is a u16). Booleans are given as 0 or 1. */
// prettier-ignore
const PLAIN = memory.data<u8>([
  4, <u8>KEY_REVERSE, 0, 5, <u8>KEY_REPEAT, 0, 6, <u8>KEY_ANGLE, 0, 9, <u8>KEY_COUNT, 1, 10, <u8>KEY_REPEAT_COUNT, 1,
  11, <u8>KEY_LINES, 1, 12, <u8>KEY_THICKNESS, 0, 15, <u8>KEY_WAVES, 1, 16, <u8>KEY_SPEED, 0,
]);

/** Field k's value (validated, so within its range), or `fallback` when absent. */
function num(k: i32, fallback: i32): i32 {
  const v = unchecked(slot[k]);
  return v >= 0 ? v : fallback;
}

/** The identity value of animates index `a` (0 colour). */
export function identityOf(a: i32): u8 {
  return load<u8>(IDENTITY + (a & 7));
}

/**
 * Parses the runner step whose fields scene/step.ts has read (its `slot` values) into step number `s`;
 * writes into its compact record `rec` (playback/compile.ts REC bytes): param0/param1 (rise, fall:
 * uniform over the step's pulses, so update params keeps them) and from/to (identity and amount for
 * modifier sweeps).
 */
export function parseRunner(s: i32, rec: usize): void {
  const k = <u8>max(unchecked(slot[KEY_RUNNER]), 0);
  const r = runnerAt(s);
  const at = changetype<usize>(r);
  for (let i: usize = 0; i < 27; i += 3)
    store<u16>(at + load<u8>(PLAIN + i), <u16>num(load<u8>(PLAIN + i, 1), load<u8>(PLAIN + i, 2)));
  r.kind = k;
  // source (and the legacy forms originPanel: N and source: "geometric"; `panel:N` gives its N
  // under originPanel); validated
  let src = unchecked(slot[KEY_SOURCE]);
  const panel = num(KEY_ORIGIN_PANEL, 0);
  const geometric = src == SOURCE_GEOMETRIC;
  if (panel > 0) src = SRC_PANEL;
  else if (src < 0 || geometric || src == SRC_PANEL) src = SRC_ROOT;
  r.source = <u8>src;
  r.panel = <u8>min(panel, 255);
  const dir = unchecked(slot[KEY_DIRECTIONALITY]);
  // MATRIX is geometric unless told otherwise (scene format, "Spawner details")
  r.geometric = geometric || (dir >= 0 ? dir == 1 : k == R_RAIN + 2);
  // width: the runner's own key, else width, else params[0], else the default
  let w = num(k == R_WAVE ? KEY_WAVE_WIDTH : k == R_RIPPLE ? KEY_RIPPLE_WIDTH : KEY_WIDTH, -1);
  if (w < 0) w = num(KEY_WIDTH, -1);
  if (w < 0 && unchecked(slot[KEY_PARAMS]) > 0) w = load<u8>(rec + 10); // compileStep put params[0] there
  r.width = w < 0 ? load<u8>(WIDTH_DEFAULT + k) : <u8>w;
  r.amount = <u8>num(KEY_AMOUNT, load<u8>(AMOUNT_DEFAULT + max(unchecked(slot[KEY_ANIMATES]), 0)));
  recordTail(s, rec);
}

/** The pulse shape of each kind, rise and fall: WAVE and BOUNCE a triangle, RIPPLE a sharp front
 * fading over its width, CHASE and WHEEL hard-edged (the spawners set their own). */
const SHAPE = memory.data<u8>([128, 128, 0, 255, 0, 0, 0, 0, 128, 128, 0, 0, 0, 0, 0, 0]);

/** Bytes 10-13 of runner step `s`'s record (its animates target in byte 1) from its fields: the
 * compiled form leaves them out. */
export function recordTail(s: i32, rec: usize): void {
  const r = runnerAt(s);
  store<u16>(rec + 10, load<u16>(SHAPE + ((<usize>r.kind) << 1)));
  store<u8>(rec + 12, identityOf(load<u8>(rec, 1)));
  store<u8>(rec + 13, r.amount);
}

// The compiled scene form stores a runner step's fields packed to their bit widths (12 bytes), in
// the order of FIELD_AT. A value read from a file is whatever its bits hold: none traps (angles
// wrap, divisions are floating point). A new field array goes into FIELD_AT too.

// Each field of RunnerStep in the compiled form: its offset and its width in bits, in offset order
// (a field is written from, and read into, a u16 whose high byte the next field's covers: speed,
// the last, is a u16).
// prettier-ignore
const FIELD_AT = memory.data<u8>([0, 3, 1, 2, 2, 8, 3, 1, 4, 1, 5, 1, 6, 9, 8, 8, 9, 5, 10, 8, 11, 3, 12, 9, 14, 8, 15, 8, 16, 16]);

/** Step `s`'s fields put into the compiled form being written, or read from the one being read. */
function fields(s: i32, writing: bool): void {
  const at = changetype<usize>(runnerAt(s));
  let bits: u32 = 0; // pending bits, `count` of them
  let count: u32 = 0;
  for (let i: usize = 0; i < 30; i += 2) {
    const p = at + load<u8>(FIELD_AT + i);
    const width = <u32>load<u8>(FIELD_AT + i, 1);
    const mask = ((<u32>1) << width) - 1;
    if (writing) {
      bits |= ((<u32>load<u16>(p)) & mask) << count;
      for (count += width; count >= 8; count -= 8) {
        put(bits);
        bits >>= 8;
      }
    } else {
      for (; count < width; count += 8) bits |= next() << count;
      store<u16>(p, <u16>(bits & mask));
      bits >>= width;
      count -= width;
    }
  }
  if (writing && count > 0) put(bits);
}

/** Appends step `s`'s fields to the compiled form being written (playback/form-io.ts). */
export function putRunner(s: i32): void {
  fields(s, true);
}

/** Reads step `s`'s fields from the compiled form being read. */
export function nextRunner(s: i32): void {
  fields(s, false);
}
