// Per-type envelopes: pure functions of the envelope time τ (microseconds of local time) giving a
// Q16 fraction 0..ONE of the way from colorFrom (0) to colorTo (ONE). See docs/panel-engine.md.
import { ONE } from "./constants";

/** τ / span as Q16, floored: the phase of a duration-shaped envelope. span 0 (infinite) gives 0. */
export function phaseQ16(tau: i64, span: i64): u32 {
  if (span <= 0 || tau <= 0) return 0;
  if (tau >= span) return ONE;
  return <u32>((tau << 16) / span);
}

/** Smoothstep of a Q16 x: x² (3 - 2x), the easing of BREATHE. */
export function smoothstepQ16(x: u32): u32 {
  const x64 = <u64>x;
  const x2 = (x64 * x64) >> 16;
  return <u32>((x2 * (3 * <u64>ONE - 2 * x64)) >> 16);
}

/** BREATHE over one cycle (Q16 phase): colorFrom → colorTo at half cycle → colorFrom, smoothstep eased. */
export function breatheQ16(phase: u32): u32 {
  const x = phase < ONE / 2 ? phase * 2 : (ONE - phase) * 2;
  return smoothstepQ16(x);
}

/**
 * PULSE (and runner pulse): rise, hold, fall over the phase. Rise and fall are proportions of 255;
 * when rise + fall exceeds 255 the scale S is rise + fall instead of 255, so both shrink to fill it
 * and the hold vanishes. With q = phase · S: q < rise → q / rise; q > S - fall → (S - q) / fall;
 * otherwise ONE.
 */
export function pulseQ16(phase: u32, rise: u32, fall: u32): u32 {
  const S = <u64>max<u32>(255, rise + fall);
  const q = <u64>phase * S; // Q16 units of the rise/fall scale
  if (fall > 0 && q > (S - fall) << 16) return <u32>(((S << 16) - q) / fall);
  if (rise > 0 && q < (<u64>rise) << 16) return <u32>(q / rise);
  return ONE;
}

/** BLINK: on (ONE, colorTo) for the first half-period, off (0, colorFrom) for the next, and so on. */
export function blinkQ16(tau: i64, halfMs: u32): u32 {
  const half = <i64>max<u32>(halfMs, 1) * 1000;
  return (tau / half) & 1 ? 0 : ONE;
}

/** STROBE at `hz` flashes a second (0 counts as 1): on for the first half of each period. */
export function strobeQ16(tau: i64, hz: u32): u32 {
  return (tau * <i64>max<u32>(hz, 1)) % 1_000_000 < 500_000 ? ONE : 0;
}

/** HUE_CYCLE: `speed` turns (0 counts as 1) per `period` µs, as a Q16 fraction of a turn. */
export function hueCycleQ16(tau: i64, period: i64, speed: u32): u32 {
  return (<u32>(((tau * <i64>max<u32>(speed, 1)) << 16) / period)) & 0xffff;
}

/**
 * REACTIVE level in millionths of a unit, `dt` µs after it was `left`, decaying at `rate` units a
 * second: max(0, left - rate · dt).
 */
export function reactiveLeft(left: i64, rate: u32, dt: i64): i64 {
  const now = left - <i64>rate * dt;
  return now > 0 ? now : 0;
}

/** A REACTIVE level (millionths of a unit, 0..255e6) as a Q16 envelope: left · 65536 / 255e6. */
export function reactiveQ16(left: i64): u32 {
  return <u32>((left << 16) / 255_000_000);
}
