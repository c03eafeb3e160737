// Where a drop goes: the panels it crosses, each with its position along the drop's way (in rings:
// the head reaches position k after k ring times) and a brightness level. Filled into one scratch
// path (no allocation); spawn.ts turns it into pulses. See docs/runners.md, "Spawners".
import { tree, MAX_PANELS } from "../topology/tree";
import { rparent, depth, count } from "../topology/rooted";
import { layoutX, layoutY } from "./layout";
import { rngBelow, rngUnit } from "./random";
import { SCRATCH, PATH_PANELS, PATH_POSITIONS, PATH_LEVELS } from "../rt/scratch";

// The path of the drop being launched, static (rt/scratch.ts: valid during its launch only): per
// entry i its panel (u8), its position (f64) and its level (u16, 0-256: 256 full brightness;
// MATRIX lines fade with the distance to the line).
export const pathPanels = SCRATCH + PATH_PANELS;
export const pathPositions = SCRATCH + PATH_POSITIONS;
export const pathLevels = SCRATCH + PATH_LEVELS;
export const FULL: u16 = 256;

/** Entry `i` of the path. */
function put(i: i32, p: i32, pos: f64, level: u16): void {
  store<u8>(pathPanels + i, <u8>p);
  store<f64>(pathPositions + ((<usize>i) << 3), pos);
  store<u16>(pathLevels + ((<usize>i) << 1), level);
}

/** How far along the direction (dx, dy) of layout space panel p is (downhill: further). */
export function along(p: i32, dx: f64, dy: f64): f64 {
  return layoutX(p) * dx + layoutY(p) * dy;
}

/** The perpendicular coordinate of panel p for the axis (dx, dy) (see linePath). */
export function across(p: i32, dx: f64, dy: f64): f64 {
  return layoutY(p) * dx - layoutX(p) * dy;
}

const EPS: f64 = 1e-6;
const down = memory.data(12, 4); // the downhill neighbours (i32 each)

/** The neighbours of p (within the discovered panels) at least EPS further along (dx, dy) x `sign`
 * (1 downhill, -1 uphill), into `down`; how many. */
function neighbours(p: i32, dx: f64, dy: f64, sign: f64): i32 {
  const h = along(p, dx, dy) * sign + EPS;
  let n = 0;
  for (let s = 0; s < 3; s++) {
    const q = tree.connectedPanel(p, s);
    if (q == 0 || q > count || along(q, dx, dy) * sign <= h) continue;
    store<i32>(down + ((<usize>n) << 2), q);
    n++;
  }
  return n;
}

/** A panel none of whose neighbours is uphill: where a geometric drop can start. */
export function isTop(p: i32, dx: f64, dy: f64): bool {
  return neighbours(p, dx, dy, -1) == 0;
}

/** How a drop walks from where it starts: SPARKLE stays there, topology drops go root-ward (the
 * position its depth, or from the leaf with `reverse`), geometric RAIN goes to a random neighbour
 * strictly downhill along (dx, dy) until there is none, one ring a step. */
export const WALK_STAY = 0;
export const WALK_ROOTWARD = 1;
export const WALK_DOWNHILL = 2;

/** The drop from `start` (random stream `stream`); returns its length, the rings it crosses. */
export function walk(start: i32, how: i32, reverse: bool, dx: f64, dy: f64, stream: i32): i32 {
  const d = <i32>depth[start];
  const fromLeaf = how != WALK_ROOTWARD || reverse;
  let p = start;
  let j = 0;
  while (p != 0 && j < MAX_PANELS) {
    put(j, p, <f64>(fromLeaf ? j : d - j), FULL);
    j++;
    if (how == WALK_DOWNHILL) {
      const n = neighbours(p, dx, dy, 1);
      p = n == 0 ? 0 : load<i32>(down + ((<usize>(n == 1 ? 0 : rngBelow(stream, n))) << 2));
    } else p = how == WALK_ROOTWARD ? <i32>rparent[p] : 0;
  }
  return j;
}

/**
 * Geometric MATRIX: a straight line along (dx, dy) at a random perpendicular offset within
 * [vMin, vMax]; every panel within one ring of the line, its position its distance along the axis
 * from `uMin`, its level falling linearly from 256 on the line to 0 one ring away. Returns its
 * length.
 */
export function linePath(dx: f64, dy: f64, uMin: f64, vMin: f64, vMax: f64, stream: i32): i32 {
  let n = 0;
  const v0 = vMin + rngUnit(stream) * (vMax - vMin);
  for (let p = 1; p <= count; p++) {
    const x = layoutX(p);
    const y = layoutY(p);
    const off = Math.abs(y * dx - x * dy - v0);
    if (off >= 1) continue;
    const level = <u16>Math.round((1 - off) * 256);
    if (level < 16) continue; // too dim to be worth a slot
    put(n++, p, x * dx + y * dy - uMin, level);
  }
  return n;
}
