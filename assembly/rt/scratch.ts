// One static scratch region for work that is never in progress at once, so its bytes count once
// in the core's one page (docs/device-memory.md, "Static memory"). Four users, each within one call:
// - the runner's (R): a runner step's start (runner/compile.ts with runner/distance.ts) or one
//   spawner drop's launch (runner/spawn-paths.ts), and the pulse-table records they fill and send
//   (bus/pulse-table.ts). They run only from the player, inside a tick's playback work, and the two
//   never call each other: a step start's tables and a drop's path share their bytes too;
// - the JSON writer's buffer (W, json/writer.ts): one answer, MQTT payload or capture, written out
//   before its call returns (answers, publishes and captures never start a runner);
// - the palette store's file and key buffers (P, palette/store.ts): one store call; the writer may
//   be writing at the same time (GET /api/palettes), so P lies after W. A spawner resolves its
//   palette colours (P) in spawnerStart, before and apart from any launch.
// - a scene's compiled form (F): written by the scene pass of a save (api/scenes.ts, from readBody to
//   storeScene, which store it before any answer is written) or of a scene played from its JSON
//   (each window of it the reader compiles, playback/form-io.ts next, read back by loadScene): neither
//   writes an answer, reads a palette or starts a runner meanwhile.
// Nothing of any of them is read after its call returns.
import { MAX_PANELS } from "../topology/tree";

/** R: the pulse-table records, 20 bytes a panel (index 0 unused); before a step start writes them,
 * its source points and centre (runner/compile.ts centre, 16 B a point). */
export const RECORDS: usize = 0;
const R_TABLES: usize = (RECORDS + 20 * (MAX_PANELS + 1) + 7) & ~7;

/** R, a step start: the coordinate table (f64 a panel, index << 3), the source panels (then the
 * hops' queue), hops, the step's targets. */
export const START_COORDINATE: usize = R_TABLES;
export const START_SOURCES: usize = START_COORDINATE + 8 * (MAX_PANELS + 1);
export const START_HOPS: usize = START_SOURCES + MAX_PANELS;
export const START_TARGETS: usize = START_HOPS + MAX_PANELS + 1;
const START_END: usize = START_TARGETS + MAX_PANELS + 1;

/** R, a launch: the path's positions (f64), levels (u16) and panels (u8). */
export const PATH_POSITIONS: usize = R_TABLES;
export const PATH_LEVELS: usize = PATH_POSITIONS + 8 * MAX_PANELS;
export const PATH_PANELS: usize = PATH_LEVELS + 2 * MAX_PANELS;
const PATH_END: usize = PATH_PANELS + MAX_PANELS;

/** W: the JSON writer's buffer. */
export const WRITER: usize = 0;
export const WRITER_CAP: u32 = 1024;
/** P: a palette file (and one byte to tell a longer one), the key looked up, the key checked. */
export const PALETTE_FILE_CAP: u32 = 1024;
export const PALETTE_FILE: usize = WRITER + WRITER_CAP;
export const PALETTE_KEY: usize = PALETTE_FILE + PALETTE_FILE_CAP + 1;
export const PALETTE_CHECK: usize = PALETTE_KEY + 256;
const P_END: usize = PALETTE_CHECK + 256;

/** F: a compiled form; a maximal scene's takes about 2.6 KB, a longer one (selectors nested wide) is
 * not kept (it plays from its JSON, compiled again for each FORM_CAP-byte window it is read in). */
export const FORM: usize = 0;
export const FORM_CAP: u32 = 3072;

const R_END: usize = START_END > PATH_END ? START_END : PATH_END;
const WPR_END: usize = R_END > P_END ? R_END : P_END;
export const SCRATCH = memory.data(<i32>(WPR_END > FORM_CAP ? WPR_END : FORM_CAP), 8);
