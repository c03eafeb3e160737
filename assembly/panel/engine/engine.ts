// The panel animation engine's packet-level interface: what main.ts calls for the animation
// packets. `now` is the panel clock (ms) at receipt.
import { MAX_SLOTS, S_FREE, S_PREPARED, S_RUNNING, K_REACTIVE, F_REAP, RATE_NORMAL } from "./constants";
import { Slot, slots, claimSlot, freeWhere, inGroup } from "./slots";
import { recordValid, loadRecord } from "./record";
import { elapsedUs, isDone, heldUs, rebase, startClock } from "./timeline";
import { reactiveLeft } from "./envelope";
import { hidesAfterEnd } from "./evaluate";

let clock: u32 = 0; // `now` for the predicates below

/** animation prepare: claims a slot for the record at `p`; dropped silently when all 18 are used. */
export function prepare(p: usize, now: u32): void {
  if (!recordValid(p)) return;
  clock = now;
  freeWhere(finishedReaped, 0); // reap-on-done animations that ended since the last frame
  const s = claimSlot(load<u8>(p, 1));
  if (s) loadRecord(s, p);
}

function finishedReaped(s: Slot, _: u32): bool {
  if (s.state != S_RUNNING || (s.flags & F_REAP) == 0 || hidesAfterEnd(s)) return false;
  const t = elapsedUs(s, clock);
  return t >= 0 && isDone(s, t);
}

/** animation start: mode 1 starts the group's prepared animations now, mode 0 stops and clears the group. */
export function start(group: u32, mode: u32, now: u32): void {
  if (mode == 0) {
    freeWhere(inGroup, group);
    return;
  }
  if (mode != 1) return;
  for (let i = 0; i < MAX_SLOTS; i++) {
    const s = slots[i];
    if (s.state == S_PREPARED && inGroup(s, group)) {
      s.state = S_RUNNING;
      startClock(s, now, RATE_NORMAL);
    }
  }
}

/** animation control: a trigger of `value` for the REACTIVE animations of `group` that are showing. */
export function trigger(group: u32, value: u32, now: u32): void {
  if (group == 0) return; // groups are 1-254
  for (let i = 0; i < MAX_SLOTS; i++) {
    const s = slots[i];
    if (s.state != S_RUNNING || s.kind != K_REACTIVE || <u32>s.group != group) continue;
    const t = elapsedUs(s, now);
    if (t < 0 || isDone(s, t)) continue;
    s.triggerLeft = <i64>value * 1_000_000;
    s.triggerAt = t;
  }
}

/** animation update params: the group's running animations play at `scale` per mille from now on; params 0 and 1 replaced. */
export function updateParams(group: u32, scale: u32, param0: u8, param1: u8, now: u32): void {
  for (let i = 0; i < MAX_SLOTS; i++) {
    const s = slots[i];
    if (s.state == S_FREE || !inGroup(s, group)) continue;
    if (s.state == S_RUNNING) {
      rebase(s, now);
      s.rate = scale;
      if (s.kind == K_REACTIVE) settleDecay(s, now); // a new decay rate applies from now on
    }
    s.param0 = param0;
    s.param1 = param1;
  }
}

/** Moves a REACTIVE trigger's reference point to `now`, decayed at the current rate. */
function settleDecay(s: Slot, now: u32): void {
  const t = heldUs(s, elapsedUs(s, now));
  if (t <= s.triggerAt) return;
  s.triggerLeft = reactiveLeft(s.triggerLeft, s.param0, t - s.triggerAt);
  s.triggerAt = t;
}

/** Stops and clears every animation (RESET). */
export function clearAll(): void {
  freeWhere(inGroup, 0);
}
