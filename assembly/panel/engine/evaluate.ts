// One slot at one instant: its envelope, then its colour (colour layers) or its amount (modifiers).
import {
  K_SOLID,
  K_BREATHE,
  K_PULSE,
  K_BLINK,
  K_STROBE,
  K_HUE_CYCLE,
  K_REACTIVE,
  K_RUNNER,
  A_COLOR,
  A_INVERT,
  ONE,
  F_LOOP,
  F_PINGPONG,
  F_WINDOW,
  B_OPAQUE,
} from "./constants";
import { Slot } from "./slots";
import { spanUs, envelopeUs } from "./timeline";
import {
  phaseQ16,
  breatheQ16,
  pulseQ16,
  blinkQ16,
  strobeQ16,
  hueCycleQ16,
  reactiveLeft,
  reactiveQ16,
} from "./envelope";
import { mixRgbQ16, mixQ16, q16To255 } from "./fixed";
import { hueRgb, HUE_TURN } from "./hue";
import { Look, resolveColor } from "./color";

/** Envelope (Q16, 0 colorFrom .. ONE colorTo) of `s` at held elapsed time `t` (µs, >= 0). */
export function envelopeOf(s: Slot, t: i64): u32 {
  const tau = envelopeUs(s, t);
  switch (s.kind) {
    case K_SOLID:
      return ONE;
    case K_BREATHE:
      return breatheQ16(phaseQ16(tau, spanUs(s)));
    case K_PULSE:
      return pulseQ16(phaseQ16(tau, spanUs(s)), s.param0, s.param1);
    case K_RUNNER:
      return runnerQ16(s, tau);
    case K_BLINK:
      return blinkQ16(tau, s.param0);
    case K_STROBE:
      return strobeQ16(tau, s.param0);
    case K_HUE_CYCLE:
      return hueCycleQ16(tau, spanUs(s), s.param0);
    case K_REACTIVE:
      return reactiveQ16(reactiveLeft(s.triggerLeft, s.param0, t > s.triggerAt ? t - s.triggerAt : 0));
  }
  return phaseQ16(tau, spanUs(s)); // FADE, TRANSITION
}

/** Envelope value of a runner pulse outside its window: it shows nothing, like a pending one. */
export const DARK: u32 = 0xffffffff;

/**
 * Runner pulse: with a window (width > 0) the pulse envelope spans only [centre − width/2,
 * centre + width/2] of the envelope time and the pulse is DARK elsewhere; when it loops without
 * pingpong the window wraps around the cycle. Neither looping nor pingpong, it is a series (`count`
 * sweeps, issue 18): the window opens at the start of every period (`winCentre` is then the
 * period) until the pulse ends. Without a window, the PULSE envelope over the span.
 */
function runnerQ16(s: Slot, tau: i64): u32 {
  const w = <i64>s.winWidth * 1000;
  if (w == 0) return pulseQ16(phaseQ16(tau, spanUs(s)), s.param0, s.param1);
  const c = <i64>s.winCentre * 1000;
  const folding = s.flags & (F_LOOP | F_PINGPONG);
  let u = folding == 0 ? (c > 0 ? tau % c : tau) : tau - (c - w / 2);
  const span = spanUs(s);
  if (folding == F_LOOP && span > 0) u = ((u % span) + span) % span;
  if (u < 0 || u > w) return DARK;
  return pulseQ16(phaseQ16(u, w), s.param0, s.param1);
}

/** True when `s` paints a colour (HUE_CYCLE always does), false for a modifier. */
export function paintsColor(s: Slot): bool {
  return s.animates == A_COLOR || s.kind == K_HUE_CYCLE;
}

/** True when `s` is an opaque colour runner pulse: it hides what is below it in its dark phase too
 * (pending, or outside its window), not only where it is lit. */
export function hidesBelow(s: Slot): bool {
  return s.kind == K_RUNNER && s.blend <= B_OPAQUE && paintsColor(s);
}

/** True when `s` is an opaque compiled sweep (a windowed pulse; a spawner's drops have no window):
 * once its band has passed it is not reaped but stays, dark, hiding what is below it for the rest of
 * its step, until its group is cleared (the step's end: an opaque layer hides what is below for its
 * whole step). */
export function hidesAfterEnd(s: Slot): bool {
  return hidesBelow(s) && (s.flags & F_WINDOW) != 0;
}

/** The colour of a colour layer with envelope `e` (for HUE_CYCLE, the Q16 turn). */
export function colorOf(s: Slot, e: u32, look: Look): u32 {
  if (s.kind == K_HUE_CYCLE) return hueRgb((e * HUE_TURN) >> 16, 255, 0);
  const to = e == 0 ? 0 : resolveColor(s.colorTo, look);
  if (e >= ONE) return to;
  const from = s.kind == K_STROBE ? 0 : resolveColor(s.colorFrom, look); // a strobe's off is black
  return mixRgbQ16(from, to, e);
}

/** The amount 0-255 of a modifier with envelope `e`. */
export function amountOf(s: Slot, e: u32): u32 {
  if (s.animates == A_INVERT) return q16To255(e); // invert ignores from and to
  if (s.kind == K_SOLID) return s.from; // SOLID reads only `from`
  return mixQ16(s.from, s.to, e);
}
