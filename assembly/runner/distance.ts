// Topology distance coordinates: per panel the hop distance from a runner's source over the
// physical links, honouring the logical root (call rootAt() first). Fixed arrays (rt/scratch.ts:
// valid during a runner step's start only), no allocation.
// See docs/runners.md.
import { tree, MAX_PANELS } from "../topology/tree";
import { root, count, children } from "../topology/rooted";
import { SCRATCH, START_HOPS, START_LEAVES, START_QUEUE } from "../rt/scratch";

export const SRC_ROOT: i32 = 0;
export const SRC_LEAVES: i32 = 1;
export const SRC_PANEL: i32 = 2;
export const SRC_ALL: i32 = 3;

/** The coordinate of panel i (1-based) after computeHops: load<u8>(hops + i). */
export const hops = SCRATCH + START_HOPS;
const queue = SCRATCH + START_QUEUE;
const UNSEEN: u8 = 255;

/** The panel a source names: the effective root for `root`, an unknown `panel:N` and (as the
 * centre of the geometric fallback) anything else; N itself when it exists. */
export function sourcePanel(kind: i32, panel: i32): i32 {
  return kind == SRC_PANEL && tree.exists(panel) ? panel : root;
}

/** The leaves seen from the effective root (no children; a single panel is its own leaf), in index
 * order, after findLeaves: load<u8>(leaves + k). */
export const leaves = SCRATCH + START_LEAVES;

/** Lists the leaves into `leaves`; returns how many. */
export function findLeaves(): i32 {
  const ch = changetype<usize>(children);
  const solo = count > 1 ? root : 0; // the root of more than one panel is no leaf
  let n = 0;
  for (let i = 1; i <= count; i++) if (load<u8>(ch + i) == 0 && i != solo) store<u8>(leaves + n++, <u8>i);
  return n;
}

/**
 * Fills `hops` for a source: `SRC_ROOT` distance from the effective root, `SRC_LEAVES` from the
 * nearest leaf (the `leafCount` of findLeaves), `SRC_PANEL` from `panel` (unknown: the root),
 * `SRC_ALL` every panel 0. (`reverse` flips the sweep's intervals instead, runner/compile.ts.)
 */
export function computeHops(kind: i32, panel: i32, leafCount: i32): void {
  let head = 0;
  let tail = 0;
  memory.fill(hops + 1, kind == SRC_ALL ? 0 : UNSEEN, count);
  if (kind == SRC_LEAVES) {
    memory.copy(queue, leaves, (tail = leafCount));
    for (let k = 0; k < tail; k++) store<u8>(hops + load<u8>(queue + k), 0);
  }
  if (kind == SRC_ROOT || kind == SRC_PANEL) {
    const s = sourcePanel(kind, panel);
    store<u8>(hops + s, 0);
    store<u8>(queue + tail++, <u8>s);
  }
  // breadth first over the physical links (multi-source for leaves), read raw: 3 bytes a panel
  const links = changetype<usize>(tree.linkPanel);
  while (head < tail) {
    const p = <usize>load<u8>(queue + head++);
    const d = load<u8>(hops + p) + 1;
    for (let s: usize = 0; s < 3; s++) {
      const q = <usize>load<u8>(links + p * 3 + s);
      if (q == 0 || load<u8>(hops + q) != UNSEEN) continue;
      store<u8>(hops + q, d);
      store<u8>(queue + tail++, <u8>q);
    }
  }
}
