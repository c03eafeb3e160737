// The 18 fixed animation slots of a panel and their compositing order. Everything here is
// allocated once at start-up; claiming and freeing a slot only rewrites fields.
import { MAX_SLOTS, S_FREE, S_PREPARED, RATE_NORMAL } from "./constants";

export class Slot {
  state: u8 = S_FREE;
  // From the animation record.
  group: u8 = 0;
  layer: u8 = 0;
  kind: u8 = 0;
  flags: u8 = 0;
  animates: u8 = 0;
  blend: u8 = 0; // resolved: never B_DEFAULT
  param0: u8 = 0;
  param1: u8 = 0;
  from: u8 = 0;
  to: u8 = 0;
  colorFrom: u32 = 0; // colour reference: (kind << 24) | data bytes
  colorTo: u32 = 0;
  durationMs: u32 = 0;
  delayMs: u32 = 0;
  // Runner pulse (K_RUNNER) window, ms of envelope time: centre (a series' period) and width (0: the
  // whole span).
  winCentre: u32 = 0;
  winWidth: u32 = 0;
  // Timeline: local time (µs) = anchorLocal + (wall ms since anchorWall) · rate (per mille).
  anchorWall: u32 = 0;
  anchorLocal: i64 = 0;
  rate: u32 = RATE_NORMAL;
  // REACTIVE: the level left at `triggerAt` (elapsed µs) in millionths of a unit (255e6 full).
  triggerLeft: i64 = 0;
  triggerAt: i64 = 0;
}

function makeSlots(): StaticArray<Slot> {
  const all = new StaticArray<Slot>(MAX_SLOTS);
  for (let i = 0; i < MAX_SLOTS; i++) all[i] = new Slot();
  return all;
}

/** Every slot, free or not. */
export const slots = makeSlots();

/**
 * Compositing order: the indices of the claimed slots, bottom first, sorted by layer with ties in
 * arrival order. Only `orderCount()` leading entries are meaningful.
 */
export const order = new StaticArray<u8>(MAX_SLOTS);
let used: i32 = 0;

export function orderCount(): i32 {
  return used;
}

/** Sets the number of claimed slots after a caller compacted `order` in place. */
export function setOrderCount(n: i32): void {
  used = n;
}

/**
 * Claims a free slot (state PREPARED) placed above every claimed slot of the same or a lower layer,
 * or null when all 18 are in use.
 */
export function claimSlot(layer: u8): Slot | null {
  if (used >= MAX_SLOTS) return null;
  let free = 0;
  while (slots[free].state != S_FREE) free++;
  let at = used;
  while (at > 0 && slots[order[at - 1]].layer > layer) {
    order[at] = order[at - 1];
    at--;
  }
  order[at] = <u8>free;
  used++;
  const s = slots[free];
  s.state = S_PREPARED;
  s.layer = layer;
  return s;
}

/** Frees every slot for which `drop` is true, keeping the order of the others. */
export function freeWhere(drop: (s: Slot, arg: u32) => bool, arg: u32): void {
  let w = 0;
  for (let i = 0; i < used; i++) {
    const idx = order[i];
    const s = slots[idx];
    if (drop(s, arg)) s.state = S_FREE;
    else order[w++] = idx;
  }
  used = w;
}

/** True when a packet's `group` (0: every group) addresses slot `s`. */
export function inGroup(s: Slot, group: u32): bool {
  return group == 0 || <u32>s.group == group;
}
