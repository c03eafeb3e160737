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
// one of the six odd multiples of 30°), so they are stored exactly as small integers. Raw tables
// (i16 per panel index), read with load<i16>(IX + (i << 1)).
const IX = memory.data(2 * (MAX_PANELS + 1));
const IY = memory.data(2 * (MAX_PANELS + 1));
/** Per panel: the direction of its slot 0's outward normal, in steps of 30° (0-11, always odd). */
const turn = memory.data(MAX_PANELS + 1);
/** The overlap check's hash of lattice points: a panel index per bucket (0 empty). */
const BUCKETS = 256;
const bucket = memory.data(BUCKETS);
let valid = false;
let panels = 0;
// What the layout was computed from: every runner start asks for it, and it only changes with the
// tree or the root.
let forVersion: u32 = 0;
let forRoot = -1;

/** A unit move in direction 30°·k (k odd), in lattice steps (x: √3/2, y: 1/2). */
const DX = memory.data<i8>([0, 1, 0, 0, 0, -1, 0, -1, 0, 0, 0, 1]);
const DY = memory.data<i8>([0, 1, 0, 2, 0, 1, 0, -1, 0, -2, 0, -1]);
const HALF_SQRT3: f64 = 0.8660254037844386;

/** Side of a panel in layout units. */
export const SIDE: f64 = 1.7320508075688772;

/** Panel i's lattice coordinates (IX, IY). */
function latticeX(i: i32): i32 {
  return load<i16>(IX + ((<usize>i) << 1));
}

function latticeY(i: i32): i32 {
  return load<i16>(IY + ((<usize>i) << 1));
}

/** Brings the layout up to date with the discovered tree and root (call after rootAt()): one pass
 * over the panels plus the overlap check, when either changed since the last call. */
export function updateLayout(): void {
  if (forVersion == tree.version && forRoot == root && panels == count) return;
  forVersion = tree.version;
  forRoot = root;
  panels = count;
  valid = count > 0;
  if (count == 0) return;
  store<i16>(IX + 2, 0);
  store<i16>(IY + 2, 0);
  store<u8>(turn + 1, 9); // slot 0 faces down, towards the controller
  // discovery order is depth first: a parent always has a smaller index than its children
  // the tree's arrays read in place (no call per panel)
  const parents = changetype<usize>(tree.parent);
  const inEdges = changetype<usize>(tree.inEdge);
  const linkEdges = changetype<usize>(tree.linkEdge);
  for (let i = 2; i <= count; i++) {
    const p = <i32>load<u8>(parents + i);
    const inEdge = <i32>load<u8>(inEdges + i);
    const k = <i32>load<u8>(linkEdges + <usize>(i * 3 + inEdge)); // tree.connectedEdge(i, inEdge)
    const out = (<i32>load<u8>(turn + p) + 4 * k) % 12; // the parent's slot k normal
    store<i16>(IX + ((<usize>i) << 1), <i16>(latticeX(p) + load<i8>(DX + out)));
    store<i16>(IY + ((<usize>i) << 1), <i16>(latticeY(p) + load<i8>(DY + out)));
    store<u8>(turn + i, <u8>((out + 6 - 4 * inEdge + 12) % 12));
  }
  const ox = latticeX(root);
  const oy = latticeY(root);
  memory.fill(bucket, 0, BUCKETS);
  for (let i = 1; i <= count; i++) {
    const px = latticeX(i) - ox;
    const py = latticeY(i) - oy;
    store<i16>(IX + ((<usize>i) << 1), <i16>px);
    store<i16>(IY + ((<usize>i) << 1), <i16>py);
    // distinct triangles of the tiling have distinct centres (at least 1 apart, twice the
    // inradius): two panels on the same lattice point overlap. One hash probe sequence per panel
    // instead of every pair (100 panels: 5,000 comparisons).
    let h = (px * 37 + py) & (BUCKETS - 1);
    for (;;) {
      const q = <i32>load<u8>(bucket + h);
      if (q == 0) {
        store<u8>(bucket + h, <u8>i);
        break;
      }
      if (latticeX(q) == px && latticeY(q) == py) valid = false;
      h = (h + 1) & (BUCKETS - 1);
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

/** Centre of panel i, in layout units (adjacent centres 1 apart). Read from IX and IY in place
 * rather than through latticeX: a function too long to be inlined at its 7 callers (-98 B). */
export function layoutX(i: i32): f64 {
  return <f64>load<i16>(IX + ((<usize>i) << 1)) * HALF_SQRT3;
}

export function layoutY(i: i32): f64 {
  return <f64>load<i16>(IY + ((<usize>i) << 1)) * 0.5;
}

/** The direction (degrees, counterclockwise from +x) of panel i's slot 0 outward normal; its
 * vertices are at the centre + circumradius · dir(rotation + 60° + 120°·m). */
export function layoutRotation(i: i32): i32 {
  return <i32>load<u8>(turn + i) * 30;
}
