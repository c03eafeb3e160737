// The discovered tree seen from the effective root (configuration logicalRoot, else the physical
// root): depth, parent, children count, canonical depth-first order. Recomputed by `rootAt` into
// fixed arrays (no allocation); neighbours are the physical links (tree.linkPanel).
import { tree, MAX_PANELS, effectiveRoot } from "./tree";
import { Fixed } from "../rt/fixed";

/** Per panel index: hops from the root, children, the parent towards the root (0 for the root). The
 * first two are one block, children PER_PANEL bytes after depth (topology/targeting.ts reads either
 * by an offset). */
export const PER_PANEL = MAX_PANELS + 1;
const perPanel = memory.data(3 * PER_PANEL);
export const depth = changetype<Fixed<u8>>(perPanel);
export const children = changetype<Fixed<u8>>(perPanel + PER_PANEL);
export const rparent = changetype<Fixed<u8>>(perPanel + 2 * PER_PANEL);
/** order[k]: the panel at canonical position k (0-based). */
export const order = changetype<Fixed<u8>>(memory.data(MAX_PANELS));
export let root: i32 = 1;
export let count: i32 = 0;

const stack = changetype<Fixed<u8>>(memory.data(MAX_PANELS + 1));

/** Roots the tree at `logicalRoot` (a missing panel means the physical root). A stable walk: from
 * each panel, its neighbours in slot order 0, 1, 2, each subtree finished before the next. */
export function rootAt(logicalRoot: i32): void {
  count = tree.count;
  root = effectiveRoot(logicalRoot);
  if (count == 0) return;
  memory.fill(changetype<usize>(children), 0, count + 1);
  let top = 0;
  let k = 0;
  stack[top++] = <u8>root;
  rparent[root] = 0;
  depth[root] = 0;
  while (top > 0) {
    const p = <i32>stack[--top];
    order[k++] = <u8>p;
    // push in reverse slot order so slot 0 is walked first
    for (let s = 2; s >= 0; s--) {
      const q = tree.connectedPanel(p, s);
      if (q == 0 || q == <i32>rparent[p]) continue;
      rparent[q] = <u8>p;
      depth[q] = depth[p] + 1;
      children[p]++;
      stack[top++] = <u8>q;
    }
  }
}

/** True when `p` is `n` or a descendant of `n` (from the current root). */
export function inSubtree(p: i32, n: i32): bool {
  while (p != 0) {
    if (p == n) return true;
    p = rparent[p];
  }
  return false;
}
