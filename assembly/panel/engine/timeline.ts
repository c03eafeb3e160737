// Time of one animation. Wall time is the panel clock in ms (u32, wrapping). Each started slot has
// a local clock in µs that advances at `rate` per mille of wall time, so a new timeScale changes
// the speed from now on without a jump. The animation's elapsed time is local time minus the start
// delay; before that it is pending and shows nothing.
import {
  K_BREATHE,
  K_HUE_CYCLE,
  K_REACTIVE,
  K_BLINK,
  K_STROBE,
  F_LOOP,
  F_PINGPONG,
  DEFAULT_PERIOD_MS,
  US_PER_MS,
} from "./constants";
import { Slot } from "./slots";

/** Wall time after which a slot's anchor is moved forward, so wall differences never overflow i32. */
const REBASE_MS: u32 = 1 << 30;

/** Local time (µs) of `s` at wall time `now`; a `now` before the anchor counts as the anchor. */
export function localUs(s: Slot, now: u32): i64 {
  const d = <i32>(now - s.anchorWall);
  return d > 0 ? s.anchorLocal + <i64>d * s.rate : s.anchorLocal;
}

/** Moves the anchor of `s` to `now` (same local time), e.g. before changing its rate. */
export function rebase(s: Slot, now: u32): void {
  s.anchorLocal = localUs(s, now);
  s.anchorWall = now;
}

/** Rebases when the anchor is more than 2^30 ms old. */
export function keepAnchorFresh(s: Slot, now: u32): void {
  const d = now - s.anchorWall;
  if (d >= REBASE_MS && d < REBASE_MS << 1) rebase(s, now);
}

/** Starts the local clock of `s` at wall time `now` at normal speed. */
export function startClock(s: Slot, now: u32, rate: u32): void {
  s.anchorWall = now;
  s.anchorLocal = 0;
  s.rate = rate;
}

/** Elapsed animation time (µs) of `s` at `now`; negative while the start delay runs. */
export function elapsedUs(s: Slot, now: u32): i64 {
  return localUs(s, now) - <i64>s.delayMs * US_PER_MS;
}

/** BREATHE and HUE_CYCLE repeat their cycle by nature: with duration 0 they cycle every 4 s for ever. */
export function isCyclic(kind: u8): bool {
  return kind == K_BREATHE || kind == K_HUE_CYCLE;
}

/** Length (µs) of one envelope: the cycle of a cyclic type (4 s when the duration is 0), else the duration. */
export function spanUs(s: Slot): i64 {
  const ms = s.durationMs == 0 && isCyclic(s.kind) ? DEFAULT_PERIOD_MS : s.durationMs;
  return <i64>ms * US_PER_MS;
}

/** True when `s` ends: a duration and no loop or pingpong (a finished layer holds its last frame,
 * cyclic types too: issue 18). */
export function ends(s: Slot): bool {
  return s.durationMs != 0 && (s.flags & (F_LOOP | F_PINGPONG)) == 0;
}

/** True when `s` has ended at elapsed time `t`. */
export function isDone(s: Slot, t: i64): bool {
  return ends(s) && t >= <i64>s.durationMs * US_PER_MS;
}

/** The elapsed time at which `s` is evaluated: `t`, or the end once it has ended (it holds its
 * final value). BLINK and STROBE switch at their period boundaries, so their last frame is 1 µs
 * before the end, not the next period's first. */
export function heldUs(s: Slot, t: i64): i64 {
  let d = <i64>s.durationMs * US_PER_MS;
  if (s.kind == K_BLINK || s.kind == K_STROBE) d--;
  return ends(s) && t > d ? d : t;
}

/** t folded into one cycle of `span` µs: restarting (loop) or reversing every other cycle (pingpong). */
export function foldUs(t: i64, span: i64, pingpong: bool): i64 {
  const n = t / span;
  const r = t - n * span;
  return pingpong && (n & 1) != 0 ? span - r : r;
}

/**
 * Envelope time τ of `s` at held elapsed time `t`: folded when it never ends and the type is cyclic
 * or loop/pingpong is set (REACTIVE never folds), else `t` itself.
 */
export function envelopeUs(s: Slot, t: i64): i64 {
  if (s.kind == K_REACTIVE || ends(s)) return t;
  const span = spanUs(s);
  if (span == 0) return t;
  const looping = isCyclic(s.kind) || (s.flags & (F_LOOP | F_PINGPONG)) != 0;
  return looping ? foldUs(t, span, (s.flags & F_PINGPONG) != 0) : t;
}
