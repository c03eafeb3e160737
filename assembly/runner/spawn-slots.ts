// The spawners' share of each panel's 18 animation slots. The engine drops a prepare silently when
// a panel is full, so the controller keeps its own count: per panel the end times of the drops it
// sent there, and a budget of slots drops may use. An end time is the wall time the drop's pulse
// ends plus a margin for bus latency (the panel reaps it at the first frame or prepare after its
// end, counted from when the start reached it). Times are kept in 16 ms units as u16, rounded up
// so the count never under-estimates; they compare modulo 2^16 (±8.7 minutes) and a drop lives at
// most about 2 minutes, so a sweep prunes one panel every tick and everything is forgotten once the
// last drop sent has ended. See docs/runners.md, "Spawners".
import { MAX_PANELS } from "../topology/tree";

export const PANEL_SLOTS = 18;
/** Bus latency allowance: a start reaches a deep panel of a long chain tens of ms after it is sent. */
export const MARGIN_MS: u32 = 100;
const UNIT_SHIFT = 4; // 16 ms

/** Drops a panel can hold: one slot is always kept for a notification. */
const DROPS_MAX = PANEL_SLOTS - 1;
// Static tables (no allocation, nothing for the collector): per panel p its drops' end times
// (u16 each, from (p - 1) x DROPS_MAX), how many, and its budget.
const ends = memory.data(MAX_PANELS * DROPS_MAX * 2, 2);
const used = memory.data(MAX_PANELS + 1);
const budgets = memory.data(MAX_PANELS + 1);

/** Slots panel `p` lets drops use (18 minus what the scene's layers and a notification may hold:
 * at most DROPS_MAX). */
export function setBudget(p: i32, n: i32): void {
  store<u8>(budgets + p, <u8>n);
}

function endAt(p: i32, i: i32): usize {
  return ends + ((<usize>((p - 1) * DROPS_MAX + i)) << 1);
}

function unit(ms: u32): u16 {
  return <u16>((ms + (1 << UNIT_SHIFT) - 1) >> UNIT_SHIFT);
}

let latest: u32 = 0; // wall ms the last drop sent ends (margin included)
let cursor = 0;
let clean = true; // no drop taken since the last reset: an idle tick has nothing to sweep

/** True when no drop holds a slot: nothing to sweep. */
export function slotsClean(): bool {
  return clean;
}

/** Forgets every drop (the panels were cleared). */
export function slotsReset(): void {
  memory.fill(used, 0, MAX_PANELS + 1);
  clean = true;
}

/** Once a tick: forget everything when the last drop has ended, else prune one panel. */
export function slotsSweep(now: u32): void {
  if (clean) return;
  if (<i32>(now - latest) >= 0) {
    slotsReset();
    latest = now;
    return;
  }
  cursor = cursor >= MAX_PANELS ? 1 : cursor + 1;
  slotsInUse(cursor, now);
}

/** Drops still holding a slot on panel `p` at wall time `now` (ended ones are forgotten). */
export function slotsInUse(p: i32, now: u32): i32 {
  const n = <i32>load<u8>(used + p);
  const t = <u16>(now >> UNIT_SHIFT);
  let k = 0;
  for (let i = 0; i < n; i++) {
    const e = load<u16>(endAt(p, i));
    if (<i16>(e - t) > 0) store<u16>(endAt(p, k++), e); // still in flight
  }
  store<u8>(used + p, <u8>k);
  return k;
}

/** True when a drop may take a slot on panel `p` at `now`. */
export function slotFree(p: i32, now: u32): bool {
  return slotsInUse(p, now) < <i32>load<u8>(budgets + p);
}

/** Panel `p` holds a drop from `now` until `endMs` (wall ms, the margin is added here); right after
 * slotFree(p) said it may, so it holds fewer than its budget (at most DROPS_MAX). */
export function slotTake(p: i32, endMs: u32): void {
  const n = <i32>load<u8>(used + p);
  store<u16>(endAt(p, n), unit(endMs + MARGIN_MS));
  if (clean || <i32>(endMs + MARGIN_MS - latest) > 0) latest = endMs + MARGIN_MS;
  clean = false;
  store<u8>(used + p, <u8>(n + 1));
}
