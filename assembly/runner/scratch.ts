// One static scratch region for the runner's two kinds of work that never run at once: a runner
// step's start (runner/compile.ts with runner/distance.ts: per panel a coordinate, the leaves, the
// hop distances and the search queue) and a spawner drop's launch (runner/spawn-paths.ts: the drop's
// path). Each is worked out and sent within one call (runnerStart, one launch), neither module calls
// the other, and nothing of either is read after its call returns: sharing the bytes spares one
// set (1.1 KB of the core's one page).
import { MAX_PANELS } from "../topology/tree";

/** runnerStart: the coordinate table (f64 a panel, index << 3), the leaves, hops and the queue. */
export const START_COORDINATE: usize = 0;
export const START_LEAVES: usize = START_COORDINATE + 8 * (MAX_PANELS + 1);
export const START_HOPS: usize = START_LEAVES + MAX_PANELS;
export const START_QUEUE: usize = START_HOPS + MAX_PANELS + 1;
const START_END: usize = START_QUEUE + MAX_PANELS + 1;

/** A launch: the path's positions (f64), levels (u16) and panels (u8). */
export const PATH_POSITIONS: usize = 0;
export const PATH_LEVELS: usize = PATH_POSITIONS + 8 * MAX_PANELS;
export const PATH_PANELS: usize = PATH_LEVELS + 2 * MAX_PANELS;
const PATH_END: usize = PATH_PANELS + MAX_PANELS;

export const SCRATCH = memory.data(<i32>(START_END > PATH_END ? START_END : PATH_END), 8);
