// The geometric layout: every panel an equilateral triangle; a child on edge slot k of its parent
// is the parent's mirror across edge k (the adjacent triangle of the tiling), its own slot `inEdge`
// on the shared edge and its slots numbered in the same turning sense as every panel's.
// Units: the distance between the centres of two adjacent panels is 1 (one "ring"), so the
// inradius is 0.5, the circumradius 1 and the side √3. The y axis points up; the physical root is
// drawn with the outward normal of its slot 0 pointing down (270°), its slots counterclockwise;
// positions are then shifted so the effective (logical) root is at (0, 0). Directions are kept as
// multiples of 30° (an index 0-11) and centres as lattice points, so no trigonometry is needed and
// overlap is exact. See docs/runners.md.
import { tree, MAX_PANELS } from "../topology/tree";
import { root, count } from "../topology/rooted";

// Centres live on a lattice: x in steps of √3/2, y in steps of 1/2 (every move to a neighbour is
// one of the six odd multiples of 30°), so they are stored exactly as small integers.
const IX = new StaticArray<i16>(MAX_PANELS + 1);
const IY = new StaticArray<i16>(MAX_PANELS + 1);
/** Per panel: the direction of its slot 0's outward normal, in steps of 30° (0-11, always odd). */
const turn = new StaticArray<u8>(MAX_PANELS + 1);
let valid = false;
let panels = 0;
// What the layout was computed from: every runner start asks for it, and it only changes with the
// tree or the root (the overlap check is quadratic in the panels).
let forVersion: u32 = 0;
let forRoot = -1;

/** A unit move in direction 30°·k (k odd), in lattice steps (x: √3/2, y: 1/2). */
const DX: StaticArray<i8> = [0, 1, 0, 0, 0, -1, 0, -1, 0, 0, 0, 1];
const DY: StaticArray<i8> = [0, 1, 0, 2, 0, 1, 0, -1, 0, -2, 0, -1];
const HALF_SQRT3: f64 = 0.8660254037844386;

/** Side of a panel in layout units. */
export const SIDE: f64 = 1.7320508075688772;

/** Brings the layout up to date with the discovered tree and root (call after rootAt()): one pass
 * over the panels plus the pairwise overlap check, when either changed since the last call. */
export function updateLayout(): void {
  if (forVersion == tree.version && forRoot == root && panels == count) return;
  forVersion = tree.version;
  forRoot = root;
  panels = count;
  valid = count > 0;
  if (count == 0) return;
  IX[1] = 0;
  IY[1] = 0;
  turn[1] = 9; // slot 0 faces down, towards the controller
  // discovery order is depth first: a parent always has a smaller index than its children
  for (let i = 2; i <= count; i++) {
    const p = <i32>tree.parent[i];
    const inEdge = <i32>tree.inEdge[i];
    const k = tree.connectedEdge(i, inEdge);
    const out = (<i32>turn[p] + 4 * k) % 12; // the parent's slot k normal
    IX[i] = IX[p] + <i16>DX[out];
    IY[i] = IY[p] + <i16>DY[out];
    turn[i] = <u8>((out + 6 - 4 * inEdge + 12) % 12);
  }
  const ox = IX[root];
  const oy = IY[root];
  for (let i = 1; i <= count; i++) {
    IX[i] -= ox;
    IY[i] -= oy;
  }
  // distinct triangles of the tiling have distinct centres (at least 1 apart, twice the inradius):
  // two panels on the same lattice point overlap
  for (let i = 1; i <= count && valid; i++) {
    for (let j = i + 1; j <= count; j++) {
      if (IX[i] == IX[j] && IY[i] == IY[j]) {
        valid = false;
        break;
      }
    }
  }
}

/** True when the layout can be embedded (no two panels overlap) and there are panels. */
export function layoutValid(): bool {
  return valid;
}

export function layoutCount(): i32 {
  return panels;
}

/** Centre of panel i, in layout units (adjacent centres 1 apart). */
export function layoutX(i: i32): f64 {
  return <f64>IX[i] * HALF_SQRT3;
}

export function layoutY(i: i32): f64 {
  return <f64>IY[i] * 0.5;
}

/** The direction (degrees, counterclockwise from +x) of panel i's slot 0 outward normal; its
 * vertices are at the centre + circumradius · dir(rotation + 60° + 120°·m). */
export function layoutRotation(i: i32): i32 {
  return <i32>turn[i] * 30;
}
