// The per-panel compositor: every started animation past its delay, bottom layer first, over the
// background. Finished reap-on-done animations are freed on the way (not an opaque sweep: it hides
// what is below until its group is cleared). No allocation.
import { S_RUNNING, S_FREE, F_REAP } from "./constants";
import { slots, order, orderCount, setOrderCount } from "./slots";
import { elapsedUs, isDone, heldUs, keepAnchorFresh } from "./timeline";
import { envelopeOf, paintsColor, colorOf, amountOf, hidesBelow, hidesAfterEnd, DARK } from "./evaluate";
import { blendRgb } from "./blend";
import { applyModifier } from "./modifiers";
import { Look } from "./color";

/**
 * The composited colour at wall time `now`: the accumulator starts at `background` and each
 * showing animation blends its colour onto it or modifies it. With no showing animation the panel
 * shows `idle` (its last set color or background).
 */
export function composite(now: u32, background: u32, idle: u32, look: Look): u32 {
  let acc = background;
  let showing = false;
  let w = 0;
  let hidLayer = -1; // the opaque runner layer that has replaced what is below it this frame
  look.background = background;
  const n = orderCount();
  for (let i = 0; i < n; i++) {
    const idx = order[i];
    const s = slots[idx];
    if (s.state == S_RUNNING) {
      keepAnchorFresh(s, now);
      const t = elapsedUs(s, now);
      // an opaque colour runner replaces what is below it in its dark phase too (pending or out of
      // its window): the layer rests at the background, its pulses (same layer, adjacent) on top
      if (hidesBelow(s) && <i32>s.layer != hidLayer) {
        hidLayer = s.layer;
        acc = background;
        showing = true;
      }
      if (t >= 0) {
        if ((s.flags & F_REAP) != 0 && isDone(s, t)) {
          if (hidesAfterEnd(s)) {
            order[w++] = idx; // an opaque sweep that has passed: dark, and still hiding
            continue;
          }
          s.state = S_FREE; // reap on done: the slot is free again
          continue;
        }
        const e = envelopeOf(s, heldUs(s, t));
        if (e == DARK) {
          order[w++] = idx; // a runner pulse outside its window shows nothing
          continue;
        }
        showing = true;
        acc = paintsColor(s)
          ? blendRgb(acc, colorOf(s, e, look), s.blend)
          : applyModifier(acc, s.animates, amountOf(s, e));
      }
    }
    order[w++] = idx;
  }
  setOrderCount(w);
  return showing ? acc : idle;
}
