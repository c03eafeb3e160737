// Where a drop goes: the panels it crosses, each with its position along the drop's way (in rings:
// the head reaches position k after k ring times) and a brightness level. Filled into one scratch
// path (no allocation); spawn.ts turns it into pulses. See docs/runners.md, "Spawners".
import { tree, MAX_PANELS } from "../topology/tree";
import { rparent, children, depth, count } from "../topology/rooted";
import { layoutX, layoutY } from "./layout";
import { rngBelow, rngUnit } from "./random";
import { SCRATCH, PATH_PANELS, PATH_POSITIONS, PATH_LEVELS } from "../rt/scratch";

// The path of the drop being launched, static (rt/scratch.ts: valid during its launch only): per entry i its panel (u8), its
// position (f64) and its level (u16, 0-256: 256 full brightness; MATRIX lines fade with the
// distance to the line).
const panels = SCRATCH + PATH_PANELS;
const positions = SCRATCH + PATH_POSITIONS;
const levels = SCRATCH + PATH_LEVELS;
export let pathLen = 0;

export function pathPanel(i: i32): i32 {
  return load<u8>(panels + i);
}

export function pathPos(i: i32): f64 {
  return load<f64>(positions + ((<usize>i) << 3));
}

export function pathLevel(i: i32): u16 {
  return load<u16>(levels + ((<usize>i) << 1));
}
/** Rings the head travels (the largest position + 1): RAIN spreads its fall time over them. */
export let pathRings: f64 = 0;

const FULL: u16 = 256;

function push(p: i32, pos: f64, level: u16): void {
  store<u8>(panels + pathLen, <u8>p);
  store<f64>(positions + ((<usize>pathLen) << 3), pos);
  store<u16>(levels + ((<usize>pathLen) << 1), level);
  pathLen++;
}

/** True when panel p is a leaf of the rooted tree (a single panel is its own leaf). */
export function isLeafPanel(p: i32): bool {
  return children[p] == 0;
}

/** Root-to-leaf (`reverse`: leaf-to-root) along the rooted tree: position = depth (or its flip). */
export function leafPath(leaf: i32, reverse: bool): void {
  pathLen = 0;
  const d = <i32>depth[leaf];
  let p = leaf;
  while (p != 0) {
    const k = <i32>depth[p];
    push(p, <f64>(reverse ? d - k : k), FULL);
    p = rparent[p];
  }
  pathRings = <f64>(d + 1);
}

/** How far downhill panel p is along the direction (dx, dy) of layout space. */
function height(p: i32, dx: f64, dy: f64): f64 {
  return layoutX(p) * dx + layoutY(p) * dy;
}

const EPS: f64 = 1e-6;
const down = memory.data(12, 4); // the downhill neighbours (i32 each)

/** A panel none of whose neighbours is uphill: where a geometric drop can start. */
export function isTop(p: i32, dx: f64, dy: f64): bool {
  const h = height(p, dx, dy);
  for (let s = 0; s < 3; s++) {
    const q = tree.connectedPanel(p, s);
    if (q != 0 && q <= count && height(q, dx, dy) < h - EPS) return false;
  }
  return true;
}

/** Geometric RAIN: from `start`, each step to a random neighbour strictly downhill along (dx, dy),
 * until there is none; one ring a step. */
export function downhillPath(start: i32, dx: f64, dy: f64, stream: i32): void {
  pathLen = 0;
  let p = start;
  while (p != 0 && pathLen < MAX_PANELS) {
    push(p, <f64>pathLen, FULL);
    const h = height(p, dx, dy);
    let n = 0;
    for (let s = 0; s < 3; s++) {
      const q = tree.connectedPanel(p, s);
      if (q != 0 && q <= count && height(q, dx, dy) > h + EPS) {
        store<i32>(down + ((<usize>n) << 2), q);
        n++;
      }
    }
    p = n == 0 ? 0 : load<i32>(down + ((<usize>(n == 1 ? 0 : rngBelow(stream, n))) << 2));
  }
  pathRings = <f64>pathLen;
}

/**
 * Geometric MATRIX: a straight line along (dx, dy) at a random perpendicular offset within
 * [vMin, vMax]; every panel within one ring of the line, its position its distance along the axis
 * from `uMin`, its level falling linearly from 256 on the line to 0 one ring away.
 */
export function linePath(dx: f64, dy: f64, uMin: f64, vMin: f64, vMax: f64, stream: i32): void {
  pathLen = 0;
  const v0 = vMin + rngUnit(stream) * (vMax - vMin);
  for (let p = 1; p <= count; p++) {
    const x = layoutX(p);
    const y = layoutY(p);
    const off = Math.abs(y * dx - x * dy - v0);
    if (off >= 1) continue;
    const level = <u16>Math.round((1 - off) * 256);
    if (level < 16) continue; // too dim to be worth a slot
    push(p, x * dx + y * dy - uMin, level);
  }
  pathRings = 0;
}

/** The perpendicular coordinate of panel p for the axis (dx, dy) (see linePath). */
export function across(p: i32, dx: f64, dy: f64): f64 {
  return layoutY(p) * dx - layoutX(p) * dy;
}

/** The coordinate of panel p along the axis (dx, dy). */
export function along(p: i32, dx: f64, dy: f64): f64 {
  return height(p, dx, dy);
}
