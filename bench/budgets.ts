// The standing budgets of the core, in one place: the bench prints against them, and
// tests/image-budget.test.ts holds the release image to IMAGE_CEILING.
//
// The device-fit work (docs/device-memory.md) brought the image down to 64 KiB (issue 12, round 7b: 65,357 B).
// Issue 32 moved the budget to 72 KiB, one page of linear memory still: the room above 64 KiB is for
// clarity and the features to come, not for new tricks. The ceiling is the budget itself: a change that
// would take the image past 72 KiB fails, and has to win its bytes elsewhere in the same change.

/** build/controller.wasm on the device: at most 72 KiB (73,728 B). */
export const IMAGE_BUDGET = 72 * 1024;
/** What the release image may not exceed today (bytes). Raised from 88 KiB by issue 14, the panel
 * firmware path (streamed upload and staging with a CRC-32, the bootloader exchange's state machine,
 * the serial frame parser, GET /api/firmware/status: 4,293 B), by issue 17 (hostile clients), which put
 * behaviour into the core that no host can own: the Host/Origin policy and its `allowedHosts` setting
 * (about 1.4 KB), storing a change before answering it (0.4 KB), palette names folded beyond ASCII and
 * the move of palettes stored under the old keys (1.3 KB); and by issue 18 (Home Assistant's light and
 * select, JSON errors that say where and why, the panel 404 that says which panels there are). Issue
 * 12's compiled scenes paid for themselves (the messages transform folds integer constants). */
// Then lowered by issue 12's arena in place of the collector (-3.0 KB) and the routing, small documents and
// answers as tables (-2.1 KB), then dead state (-0.1 KB): 100,249 -> 95,393 B; then the runner step
// fields as one struct table and WebSocket frames sized to what they send (95,145 B), then the message
// table's dictionary with the byte codes 128-255 too (the messages are ASCII): 94,049 B; then functions
// of up to 4 instructions inlined everywhere (scripts/reoptimize.mjs): 93,844 B; module tables as Fixed
// views of static memory (rt/fixed.ts) and the work queue's slots static: 93,440 B; palette validation and
// the speed and trigger bodies on json/check-fields.ts's table check (93,116 B); the tree's and the pending
// requests' tables static: 93,059 B. Issue 18's ambient look (+45 B) and count sweeps as one pulse (the
// pulse table's sweeps gone, -484 B), merged: 92,629 B. Then raised by the streaming scene pass
// (json/stream.ts beside the tape reader, whose last users, the small documents, have yet to move): 94,683 B;
// then scene ids read in place from the store's list and MQTT's connect given back piece by piece
// (+173 B for about 14 KB less arena at the peak, issue 12 point 3): 94,856 B. One JSON reader: the
// small documents read as they stream by json/check-fields.ts's tables, the tape reader gone: 92,431 B; a
// table's accepted keys a prefix of its key list, the palette stops checked in one loop: 92,178 B.
// Then raised by issue 12's save speed (+628 B): the scene pass's common paths written for WAMR's classic
// interpreter, which pays for every call and scans for block ends its small cache has lost: plain strings
// and small integers read from the window at once, keys compared and written in place, a step's members
// through a function of their own whose switch returns (inlined, its cases would branch over the whole
// switch); saving the maximal scene 153 M -> 94 M instructions (budget 100 M). Merged with the runner
// start's do-while loops and one page's bounded scene list and save: 93,069 B; the mirror snapshot
// written in pieces (host_ws_append, +1 import) and MQTT topics written in place: 93,172 B.
// Issue 12's round of tables, merged: name lists (util/names.ts: key and enum names packed as UTF-8 at
// build time), the scene pass as tables (scene/object-reader.ts), HTTP answers as one table (http/answers.ts),
// MQTT, settings and palettes written from name lists and templates, runner records from one mode
// table, static objects back to back and the data segments merged (scripts/static-data-transform.mjs,
// pack-data.mjs), messages formatted from the table: 78,992 B.
// Round 3, merged: the routes' handlers called directly, router-checked row flags, fixed texts by index,
// one number scanner, smaller runner and selector paths (-2.4 KB), globals with few accesses moved into
// low memory and the data section packed into one stream unpacked at start (scripts/static-globals.mjs,
// pack-statics.mjs): 74,537 B. Then traded back for the device heap (now under its 192,000 B budget):
// the nearest-leaf scan's speed-up kept (+243 B), globals of up to 8 accesses moved and functions of up
// to 5 instructions inlined (scripts/reoptimize.mjs, +1.6 KB): 76,427 B. Round 4: failing sites pass
// their message's table id (@message-id), the core's own UTF-8 codec in place of String.UTF8
// (util/utf8.ts), the stop rules, gate phrases and step rules as pieces of one message: 75,683 B.
// Round 5, HTTP and API: list items and the firmware status from templates, a path's name checked by
// a UTF-8 round trip, the configuration's undo as one block copy, the Origin's scheme as a word; the
// scene pass's one list reader and selector loop; the flat animation as a layer of the compiled tables;
// core_init's closures gone, colours as words; own-check rows (json/check-fields.ts F_OWN): 73,857 B merged,
// then globals of up to 4 accesses moved (the heap's room spent on the image): 72,659 B; fraction
// selectors' bounds exact (+20 B): 72,679 B. Round 5b: a spawner's start panels worked out again, not
// stored, and which spawners are on as one mask; the configuration's and a palette's heads as
// templates, the appearance patch's present fields as one word: 72,485 B. Review: startStep without
// its result flag: 72,483 B. Round 6 (seven areas redesigned for size: answers as a text table, one
// source list and least-square distances for the runner start, selector forms as tables, one UTF-8
// encoder, required keys as a table, a flash step table, palette slots in the load's last loop):
// 69,434 B merged; then globals of up to 3 accesses moved and functions of up to 4 instructions
// inlined (the heap's room spent on the image again): 69,041 B. Review: a UTF-8 character flushes the
// writer only when it does not fit (an answer that fits keeps its Content-Length): 69,052 B. Round 6b:
// the array paths built once, the Host/Origin authority in one pass: 68,926 B. Round 7 (seven areas
// again: integers in messages by one formatter and constant texts folded at build, the ABI's names
// short in the image, compiled form version 3 with the play values as one block, the scene list's
// ties by id order and the routes as 16-bit rows, keyIndex as nameIndex, the MQTT records by the JSON
// writer, the pulse table's differences found in one place): 65,718 B merged; then globals of up to
// 2 accesses moved: 65,651 B. Round 7b, the library: strings compared by our sameText and null by
// address (no ~lib String.__eq), the selectors' lists by the scene pass's list reader, a palette's
// DELETE by its key's bytes, the scene's loop and base colours read from its image: 65,394 B, under
// the budget (the ceiling cannot go below it). Review: a number of more than 64 characters refused,
// so a stored number is its whole text: 65,357 B. Issue 32: the budget, and with it the ceiling, 72 KiB.
export const IMAGE_CEILING = IMAGE_BUDGET; // 73,728

/** Linear memory: one page, never grown. */
export const MEMORY_PAGES_BUDGET = 1;
/** The core's device heap on a 32-bit classic-interpreter WAMR build (bytes; bench/wamr.ts), and the goal. */
export const DEVICE_HEAP_BUDGET = 192 * 1000;
export const DEVICE_HEAP_GOAL = 160 * 1000;

/** Instructions of the 32-bit classic WAMR build under callgrind (bench/wamr.ts), per operation. */
export const INSTRUCTION_BUDGETS = {
  getState: 400_000,
  wsSetColor: 80_000,
  ddpFrame: 150_000, // issue 35: a DDP frame for 100 panels
  idleTick: 10_000,
  playMaximal: 20_000_000,
  saveMaximal: 100_000_000,
  runners8: 20_000_000,
  /** GET /api/scenes of 100 scenes, whatever their names. */
  getScenes: 30_000_000,
};
