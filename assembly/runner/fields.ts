// A runner step's fields, parsed once at play (the JSON document is released afterwards) into
// fixed arrays indexed by compact step number (playback/compile.ts: layer · 12 + step; the flat
// animation of POST /api/animations/play uses FLAT_STEP). Defaults follow the scene format.
import { member, sizeOf, intIn, kindOf, stringEquals, sourceOf, lengthOf, J_TRUE, J_STRING } from "../json/reader";
import { RUNNERS, ANIMATES } from "../scene/step";
import { parseDecimal } from "../scene/text";
import { SRC_ROOT, SRC_LEAVES, SRC_PANEL, SRC_ALL } from "./distance";

export const R_WAVE: u8 = 0;
export const R_RIPPLE: u8 = 1;
export const R_CHASE: u8 = 2;
export const R_WHEEL: u8 = 3;
export const R_BOUNCE: u8 = 4;
export const R_RAIN: u8 = 5; // RAIN, SPARKLE, MATRIX: spawners (assembly/runner/spawn.ts)

export const FLAT_STEP = 96;
const N = FLAT_STEP + 1;
export const rKind = new StaticArray<u8>(N);
export const rSource = new StaticArray<u8>(N);
export const rPanel = new StaticArray<u8>(N);
export const rGeometric = new StaticArray<bool>(N);
export const rReverse = new StaticArray<bool>(N);
export const rRepeat = new StaticArray<bool>(N);
export const rAngle = new StaticArray<u16>(N);
export const rWidth = new StaticArray<u8>(N);
export const rCount = new StaticArray<u8>(N);
export const rRepeatCount = new StaticArray<u8>(N);
export const rLines = new StaticArray<u8>(N);
export const rThickness = new StaticArray<u16>(N);
export const rAmount = new StaticArray<u8>(N);
export const rWaves = new StaticArray<u8>(N);
export const rSpeed = new StaticArray<u16>(N);

/** Default width in rings: WAVE 3, RIPPLE 2, CHASE 1 (a single ring), WHEEL 0, BOUNCE 3, spawners 0. */
const WIDTH_DEFAULT: StaticArray<u8> = [3, 2, 1, 0, 3, 0, 0, 0];
/** Identity value of each animates target (color: unused). */
const IDENTITY: StaticArray<u8> = [0, 255, 255, 0, 0, 0, 0];

function num(st: i32, key: string, lo: i32, hi: i32, fallback: i32): i32 {
  const t = member(st, key);
  return t >= 0 ? <i32>intIn(t, lo, hi, fallback) : fallback;
}

function yes(st: i32, key: string): bool {
  const t = member(st, key);
  return t >= 0 && kindOf(t) == J_TRUE;
}

function nameIndex(t: i32, list: StaticArray<string>): i32 {
  if (t < 0) return -1;
  for (let i = 0; i < list.length; i++) if (stringEquals(t, list[i])) return i;
  return -1;
}

/** The identity value of animates index `a` (0 colour). */
export function identityOf(a: i32): u8 {
  return IDENTITY[a];
}

/**
 * Parses runner step `st` into step number `s`; writes into its compact record `rec`
 * (playback/compile.ts REC bytes): param0/param1 (rise, fall: uniform over the step's pulses, so
 * update params keeps them) and from/to (identity and amount for modifier sweeps).
 */
export function parseRunner(st: i32, s: i32, rec: usize): void {
  const k = <u8>max(nameIndex(member(st, "runner"), RUNNERS), 0);
  rKind[s] = k;
  // source (and the legacy forms originPanel: N and source: "geometric")
  let src = SRC_ROOT;
  let panel = 0;
  let geometric = false;
  const t = member(st, "source");
  if (t >= 0 && kindOf(t) == J_STRING) {
    if (stringEquals(t, "leaves")) src = SRC_LEAVES;
    else if (stringEquals(t, "all")) src = SRC_ALL;
    else if (stringEquals(t, "geometric")) geometric = true;
    else if (!stringEquals(t, "root")) {
      // validated: panel:N
      const n = parseDecimal(sourceOf(t) + 6, lengthOf(t) - 6);
      if (n > 0) {
        src = SRC_PANEL;
        panel = n;
      }
    }
  }
  const origin = num(st, "originPanel", 1, 254, 0);
  if (origin > 0) {
    src = SRC_PANEL;
    panel = origin;
  }
  rSource[s] = <u8>src;
  rPanel[s] = <u8>min(panel, 255);
  const dir = member(st, "directionality");
  // MATRIX is geometric unless told otherwise (scene format, "Spawner details")
  rGeometric[s] = geometric || (dir >= 0 ? stringEquals(dir, "geometric") : k == R_RAIN + 2);
  rReverse[s] = yes(st, "reverse");
  rRepeat[s] = yes(st, "repeat");
  rAngle[s] = <u16>num(st, "angle", 0, 359, 0);
  // width: the runner's own key, else width, else params[0], else the default
  const key = k == R_WAVE ? "waveWidth" : k == R_RIPPLE ? "rippleWidth" : "width";
  let w = num(st, key, 0, 255, -1);
  if (w < 0) w = num(st, "width", 0, 255, -1);
  if (w < 0) {
    const p = member(st, "params");
    if (p >= 0 && sizeOf(p) > 0) w = load<u8>(rec + 10); // encodeStep put params[0] there
  }
  rWidth[s] = <u8>(w < 0 ? WIDTH_DEFAULT[k] : w);
  rCount[s] = <u8>num(st, "count", 1, 30, 1);
  rRepeatCount[s] = <u8>num(st, "repeatCount", 1, 255, 1);
  rLines[s] = <u8>num(st, "lines", 1, 6, 1);
  rThickness[s] = <u16>num(st, "thickness", 0, 359, 0);
  rWaves[s] = <u8>num(st, "waves", 1, 255, 1);
  rSpeed[s] = <u16>num(st, "speed", 0, 65535, 0);
  const a = max(nameIndex(member(st, "animates"), ANIMATES), 0);
  const amount = num(st, "amount", 0, 255, a == 3 ? 128 : 255 - IDENTITY[a]);
  rAmount[s] = <u8>amount;
  // the pulse shape: WAVE and BOUNCE a triangle, RIPPLE a sharp front fading over its width,
  // CHASE and WHEEL hard-edged
  const rise: u8 = k == R_WAVE || k == R_BOUNCE ? 128 : 0;
  const fall: u8 = k == R_WAVE || k == R_BOUNCE ? 128 : k == R_RIPPLE ? 255 : 0;
  store<u8>(rec + 10, rise);
  store<u8>(rec + 11, fall);
  store<u8>(rec + 12, IDENTITY[a]);
  store<u8>(rec + 13, <u8>amount);
}
