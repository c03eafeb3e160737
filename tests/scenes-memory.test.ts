// The core's memory around the scene library, with the core in this process (InProcessCore) so its
// linear memory can be read: a maximal scene is validated, stored and read within 128 KiB, and
// rejected requests leave nothing behind; the arena's high-water mark of the heaviest scene requests,
// as the debug image reports it, stays within ARENA_PEAK_MAX and does not grow with a body's size.
// Also the store failures a spawned host cannot provoke.
import { test } from "node:test";
import assert from "node:assert/strict";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { FileStore } from "../host/src/store.js";
import { STORE_FULL } from "../host/src/abi.js";
import { InProcessCore, baseScene, maximalScene, readStoredScene, tokenCount } from "./helpers/scenes.js";

const BUDGET = 128 * 1024;
/** The arena's room for one export above what start-up keeps. The worst is GET /api/scenes of a full
 * library (8,560 B): its sort keys hold a 64-byte window of each of the 100 names (api/scenes.ts), so
 * it is bounded by the library's limit; a scene request needs at most about 3.6 KB. */
const ARENA_PEAK_MAX = 9 * 1024;
/** One page: static memory, start-up's blocks and the arena's peak all fit in it. */
const PAGE = 65536;

/** The maximal scene with its runners' sources in the legacy form (originPanel). */
function legacyMaximalScene() {
  const legacy = maximalScene();
  for (const layer of legacy.layers)
    for (const step of layer.sequence)
      if (step.runner) {
        delete step.source;
        step.originPanel = 9;
      }
  return legacy;
}

function scenesOnDisk(core: InProcessCore, folder = "scenes"): string[] {
  const dir = path.join(core.store.dir, folder);
  return fs.existsSync(dir) ? fs.readdirSync(dir).sort() : [];
}

test("a maximal scene is validated, stored, listed and read within 128 KiB of linear memory", () => {
  const core = new InProcessCore();
  const doc = maximalScene();
  const text = JSON.stringify(doc);
  assert.ok(tokenCount(doc) > 3500, "the maximal scene should be near the 4096-token limit");
  const post = core.request("POST", "/api/scenes", text);
  assert.equal(post.status, 200, post.text);
  assert.ok(core.memoryBytes <= BUDGET, `${core.memoryBytes} bytes after POST`);
  const id = post.body.id;
  const list = core.request("GET", "/api/scenes");
  assert.equal(list.body[0].layerCount, 8);
  const get = core.request("GET", `/api/scenes/${id}`);
  assert.equal(get.length, -1, "sent chunked");
  assert.equal(get.text, `{"id":"${id}",` + text.slice(1));
  assert.equal(core.request("PATCH", `/api/scenes/${id}`, text).status, 200);
  assert.ok(core.memoryBytes <= BUDGET, `${core.memoryBytes} bytes after GET and PATCH`);
});

test("a maximal scene padded to the 32 KiB body limit, and one in legacy forms, stay within 128 KiB", () => {
  const compact = JSON.stringify(maximalScene());
  const legacy = legacyMaximalScene();
  for (const body of [compact + " ".repeat(32768 - compact.length), JSON.stringify(legacy)]) {
    const core = new InProcessCore();
    const post = core.request("POST", "/api/scenes", body);
    assert.equal(post.status, 200, post.text);
    assert.equal(core.request("GET", "/api/scenes").status, 200);
    assert.ok(core.memoryBytes <= BUDGET, `${core.memoryBytes} bytes`);
  }
});

test("1000 rounds of rejected requests leave the core's memory where it was and store nothing", () => {
  const core = new InProcessCore();
  const valid = JSON.stringify(baseScene());
  const maximal = JSON.stringify(maximalScene());
  let deep = "1";
  for (let i = 0; i < 30; i++) deep = `[${deep}]`;
  const invalid = maximalScene();
  invalid.layers[7].sequence[11].duration = 70000; // the last field checked
  const bad: [string, string, string | Buffer, number][] = [
    ["POST", "/api/scenes", valid.slice(0, 100), 400],
    ["POST", "/api/scenes", maximal.slice(0, -2), 400],
    ["POST", "/api/scenes", deep, 400],
    ["POST", "/api/scenes", valid.replace('"loop":true', '"loop":true,"loop":false'), 400],
    ["POST", "/api/scenes", Buffer.from([0x7b, 0x22, 0xff, 0x22, 0x3a, 0x31, 0x7d]), 400],
    ["POST", "/api/scenes", JSON.stringify({ pad: new Array(6000).fill(1) }), 422],
    ["POST", "/api/scenes", " ".repeat(40000), 413],
    ["POST", "/api/scenes", JSON.stringify(invalid), 422],
    ["POST", "/api/scenes", JSON.stringify({ ...baseScene(), name: "\u0001" }), 422],
    ["POST", "/api/scenes", JSON.stringify({ ...baseScene(), id: "abcdefgh" }), 422],
    ["POST", "/api/scenes", JSON.stringify({ ...baseScene(), schemaVersion: 99 }), 409],
    ["PATCH", "/api/scenes/abcdefgh", valid, 404],
    ["GET", "/api/scenes/zzzzzzzz", "", 404],
    ["DELETE", "/api/scenes/zzzzzzzz", "", 404],
    ["PUT", "/api/scenes", valid, 405],
  ];
  // warm-up: every kind once, and the largest valid document (the high-water mark)
  for (const [method, url, body, status] of bad) assert.equal(core.request(method, url, body).status, status, url);
  const warm = core.request("POST", "/api/scenes", maximal);
  assert.equal(warm.status, 200);
  assert.equal(core.request("DELETE", `/api/scenes/${warm.body.id}`).status, 200);
  const before = core.memoryBytes;
  assert.ok(before <= BUDGET, `${before} bytes after the warm-up`);
  // 1000 rounds of every kind: a leak of even one smallest block (16 bytes) in one kind of request
  // would not fit in the pages' free space
  for (let i = 0; i < 1000; i++) {
    for (const [method, url, body, status] of bad) assert.equal(core.request(method, url, body).status, status);
  }
  assert.equal(core.memoryBytes, before);
  assert.deepEqual(scenesOnDisk(core), []);
  assert.deepEqual(scenesOnDisk(core, "stage"), [], "a refused document leaves no staged file behind");
  // nothing leaked inside the pages either: the maximal scene still fits as before
  assert.equal(core.request("POST", "/api/scenes", maximal).status, 200);
  assert.equal(core.memoryBytes, before);
});

test("a full store is 507 with a message, and the old file stays intact", () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "tessera-full-"));
  let full = false;
  // a scene is staged (appended under stage/) and then renamed into scenes/: either can find it full
  class FullStore extends FileStore {
    append(key: string, data: Uint8Array): number {
      return full && key.startsWith("stage/") ? STORE_FULL : super.append(key, data);
    }
  }
  const core = new InProcessCore(dir, new FullStore(dir));
  const doc = baseScene();
  const id = core.request("POST", "/api/scenes", doc).body.id;
  full = true;
  const patch = core.request("PATCH", `/api/scenes/${id}`, { ...doc, name: "changed" });
  assert.equal(patch.status, 507);
  assert.equal(patch.text, `{"error":"storage full: scene ${id} was not saved"}`);
  const post = core.request("POST", "/api/scenes", doc);
  assert.equal(post.status, 507);
  assert.equal(post.text, '{"error":"storage full: the scene was not saved"}');
  assert.equal(readStoredScene(path.join(dir, "scenes", id)).json, JSON.stringify(doc));
  assert.deepEqual(scenesOnDisk(core), [id]);
  assert.deepEqual(scenesOnDisk(core, "stage"), []);
  full = false;
  assert.equal(core.request("PATCH", `/api/scenes/${id}`, { ...doc, name: "changed" }).status, 200);
});

test("the library holds 100 scenes; the 101st is 507 and stores nothing", () => {
  const core = new InProcessCore();
  const doc = JSON.stringify({ name: "s", layers: [{ group: 1, sequence: [{ type: "SOLID", duration: 1 }] }] });
  for (let i = 0; i < 100; i++) assert.equal(core.request("POST", "/api/scenes", doc).status, 200);
  const res = core.request("POST", "/api/scenes", doc);
  assert.equal(res.status, 507);
  assert.equal(res.text, '{"error":"the scene library is full (100 scenes)"}');
  assert.equal(scenesOnDisk(core).length, 100);
  assert.equal(core.request("GET", "/api/scenes").body.length, 100);
  // the one-shot scene does not count
  fs.writeFileSync(path.join(core.store.dir, "scenes", "oneshot000"), doc);
  const id = scenesOnDisk(core)[0];
  assert.equal(core.request("DELETE", `/api/scenes/${id}`).status, 200);
  assert.equal(core.request("POST", "/api/scenes", doc).status, 200);
  assert.ok(core.memoryBytes <= BUDGET, `${core.memoryBytes} bytes with a full library listed`);
});

test("the arena's high-water mark: the heaviest scene requests stay within ARENA_PEAK_MAX, whatever the body's size", () => {
  // the debug image (asserts on) reports each new high-water mark (assembly/rt/arena.ts reportPeak)
  const core = new InProcessCore(undefined, undefined, "controller.debug.wasm");
  const compact = JSON.stringify(maximalScene());
  assert.equal(core.request("POST", "/api/scenes", compact).status, 200);
  const maximal = core.arenaPeak.peak;
  // a body padded to the 32 KiB limit, legacy forms, a refusal that lists the accepted fields, a late
  // schemaVersion: the scene pass reads each in windows, so none goes higher than the maximal scene
  assert.equal(core.request("POST", "/api/scenes", compact + " ".repeat(32768 - compact.length)).status, 200);
  assert.equal(core.arenaPeak.peak, maximal, "a padded body raised the high-water mark");
  const legacy = legacyMaximalScene();
  assert.equal(core.request("POST", "/api/scenes", JSON.stringify(legacy)).status, 200);
  const unknown = maximalScene();
  unknown.layers[7].sequence[11].colour = "#ff0000";
  assert.equal(core.request("POST", "/api/scenes", JSON.stringify(unknown)).status, 422);
  const { schemaVersion, ...rest } = maximalScene();
  assert.equal(core.request("POST", "/api/scenes", JSON.stringify({ ...rest, schemaVersion })).status, 200);
  // the library listed and read back (100 scenes)
  const doc = JSON.stringify({
    name: "s".repeat(64),
    layers: [{ group: 1, sequence: [{ type: "SOLID", duration: 1 }] }],
  });
  while (core.request("GET", "/api/scenes").body.length < 100)
    assert.equal(core.request("POST", "/api/scenes", doc).status, 200);
  const id = core.request("GET", "/api/scenes").body[0].id;
  assert.equal(core.request("GET", `/api/scenes/${id}`).status, 200);
  const { peak, startUp, static: staticEnd } = core.arenaPeak;
  assert.ok(peak <= ARENA_PEAK_MAX, `arena peak ${peak} B (start-up ${startUp} B, static ${staticEnd} B)`);
  assert.ok(staticEnd + startUp + peak <= PAGE, `${staticEnd + startUp + peak} B of one page`);
});
