// A runner's source as a list of panels, and topology distance coordinates: per panel the hop
// distance from the nearest of them over the physical links, honouring the logical root (call
// rootAt() first). Fixed arrays (rt/scratch.ts: valid during a runner step's start only), no
// allocation.
// See docs/runners.md.
import { tree } from "../topology/tree";
import { root, count, children } from "../topology/rooted";
import { SCRATCH, START_HOPS, START_SOURCES } from "../rt/scratch";

export const SRC_ROOT: i32 = 0;
export const SRC_LEAVES: i32 = 1;
export const SRC_PANEL: i32 = 2;
export const SRC_ALL: i32 = 3;

/** The coordinate of panel i (1-based) after computeHops: load<u8>(hops + i). */
export const hops = SCRATCH + START_HOPS;
const UNSEEN: u8 = 255;

/** The panels a source starts from after findSources, in index order: load<u8>(sources + k). Then
 * computeHops' queue: the panels it reaches follow them. */
export const sources = SCRATCH + START_SOURCES;

/**
 * Lists the panels source `kind` starts from into `sources`, their `hops` 0 and the others' unseen;
 * returns how many (at least one when there are panels): `SRC_ROOT` the effective root, `SRC_PANEL`
 * panel `panel` (unknown: the root), `SRC_LEAVES` the leaves seen from the effective root (no
 * children; a single panel is its own leaf), `SRC_ALL` every panel.
 */
export function findSources(kind: i32, panel: i32): i32 {
  const ch = changetype<usize>(children);
  const solo = count > 1 ? root : 0; // the root of more than one panel is no leaf
  const one = kind == SRC_PANEL && tree.exists(panel) ? panel : root;
  memory.fill(hops + 1, UNSEEN, count);
  let n = 0;
  for (let i = 1; i <= count; i++) {
    const leaf = load<u8>(ch + i) == 0 && i != solo;
    if (kind == SRC_ALL || (kind == SRC_LEAVES ? leaf : i == one)) {
      store<u8>(sources + n++, <u8>i);
      store<u8>(hops + i, 0);
    }
  }
  return n;
}

/**
 * Fills `hops` with each panel's distance from the nearest of the `n` panels of findSources (every
 * panel 0 for `SRC_ALL`): breadth first over the physical links (multi-source), read raw, 3 bytes a
 * panel. (`reverse` flips the sweep's intervals instead, runner/compile.ts.)
 */
export function computeHops(n: i32): void {
  let head = 0;
  let tail = n;
  const links = changetype<usize>(tree.linkPanel);
  while (head < tail) {
    const p = <usize>load<u8>(sources + head++);
    const d = load<u8>(hops + p) + 1;
    for (let s: usize = 0; s < 3; s++) {
      const q = <usize>load<u8>(links + p * 3 + s);
      if (q == 0 || load<u8>(hops + q) != UNSEEN) continue;
      store<u8>(hops + q, d);
      store<u8>(sources + tail++, <u8>q);
    }
  }
}
