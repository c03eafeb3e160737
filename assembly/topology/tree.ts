// The discovered panel tree. Indices are 1-based in discovery (depth-first) order; index 1 is
// wired to the controller. Each panel has three edge slots 0-2; `inEdge` is the slot facing its
// parent. Arrays are fixed-size for the largest variant, so discovery never allocates.

import { Fixed } from "../rt/fixed";

export const MAX_PANELS: i32 = 100;
const SLOTS = (MAX_PANELS + 1) * 3;
// The tables, in static memory (rt/fixed.ts): the Tree's getters name them.
const PARENT = changetype<Fixed<u8>>(memory.data(MAX_PANELS + 1));
const IN_EDGE = changetype<Fixed<u8>>(memory.data(MAX_PANELS + 1));
const LINK_PANEL = changetype<Fixed<u8>>(memory.data(SLOTS));
const LINK_EDGE = changetype<Fixed<u8>>(memory.data(SLOTS));

/** The tree itself: in static memory (zeroed), a constant address, no start-up allocation. */
@final
@unmanaged
export class Tree {
  count: i32;
  /** Bumped by every change, so what is computed from the tree (the layout) knows when to redo it. */
  version: u32;
  @inline get parent(): Fixed<u8> {
    return PARENT;
  }
  @inline get inEdge(): Fixed<u8> {
    return IN_EDGE;
  }
  // Per (panel, slot): the panel and slot at the other end, 0/0 when unoccupied or the controller.
  @inline get linkPanel(): Fixed<u8> {
    return LINK_PANEL;
  }
  @inline get linkEdge(): Fixed<u8> {
    return LINK_EDGE;
  }

  clear(): void {
    this.count = 0;
    this.version++;
    memory.fill(changetype<usize>(LINK_PANEL), 0, SLOTS);
    memory.fill(changetype<usize>(LINK_EDGE), 0, SLOTS);
  }

  exists(index: i32): bool {
    return index >= 1 && index <= this.count;
  }

  /** Records panel `index`, plugged with its slot `inEdge` into slot `parentEdge` of `parent` (0: the controller). */
  add(index: i32, parent: i32, parentEdge: i32, inEdge: i32): void {
    this.count = index;
    this.version++;
    this.parent[index] = <u8>parent;
    this.inEdge[index] = <u8>inEdge;
    if (parent == 0) return;
    this.linkPanel[index * 3 + inEdge] = <u8>parent;
    this.linkEdge[index * 3 + inEdge] = <u8>parentEdge;
    this.linkPanel[parent * 3 + parentEdge] = <u8>index;
    this.linkEdge[parent * 3 + parentEdge] = <u8>inEdge;
  }

  @inline connectedPanel(index: i32, slot: i32): i32 {
    return this.linkPanel[index * 3 + slot];
  }

  @inline connectedEdge(index: i32, slot: i32): i32 {
    return this.linkEdge[index * 3 + slot];
  }
}

export const tree = changetype<Tree>(memory.data(8, 4));

/** The panel used as root: the configured logical root when it exists, else the physical root. */
export function effectiveRoot(logicalRoot: i32): i32 {
  return tree.exists(logicalRoot) ? logicalRoot : 1;
}
