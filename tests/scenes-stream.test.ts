// A scene document is read as it streams (json/stream.ts, scene/validate.ts): a body far larger than
// the core's read window, with strings and escapes across the window's edges, is stored as written;
// a document refused at its very end leaves nothing behind (no scene, no staged file); schemaVersion
// may come after what it gates. Both hosts run it (scripts/native-test.mjs).
import { test, after } from "node:test";
import assert from "node:assert/strict";
import fs from "node:fs";
import path from "node:path";
import { startHost, api } from "./helpers/host.js";
import { baseScene, maximalScene, type Scene } from "./helpers/scenes.js";

const host = await startHost({ panels: 3 });
after(() => host.stop());

/** The files staged while a scene is saved (scene/store.ts): none once a request is answered. */
function staged(): string[] {
  const dir = path.join(host.dataDir, "stage");
  return fs.existsSync(dir) ? fs.readdirSync(dir) : [];
}

async function list(): Promise<string> {
  return (await api(host, "GET", "/api/scenes")).text;
}

test("a body much larger than the read window, strings across its edges, is stored as written", async () => {
  const doc = maximalScene();
  doc.name = 'caf\u00e9 \u{1f600} "q" \\ end';
  // spaces around every member push each string across a window edge somewhere; the escapes stay
  const spaced = JSON.stringify(doc)
    .replace(/,"/g, ', "')
    .replace(/":/g, '" : ')
    .replace(/\u00e9/g, "\\u00e9");
  assert.ok(spaced.length > 28000 && spaced.length < 32768, `${spaced.length} bytes`);
  const res = await api(host, "POST", "/api/scenes", spaced);
  assert.equal(res.status, 200, res.text);
  const got = await api(host, "GET", `/api/scenes/${res.body.id}`);
  const canonical = JSON.stringify(doc).replace(/\u00e9/g, "\\u00e9");
  assert.equal(got.text, `{"id":"${res.body.id}",` + canonical.slice(1));
  assert.deepEqual(staged(), []);
  assert.equal((await api(host, "DELETE", `/api/scenes/${res.body.id}`)).status, 200);
});

test("a document refused at its very end changes nothing and leaves no staged file", async () => {
  const id = (await api(host, "POST", "/api/scenes", baseScene())).body.id;
  const before = await list();
  const stored = (await api(host, "GET", `/api/scenes/${id}`)).text;
  const late = maximalScene();
  late.layers[7].sequence[11].duration = 70000; // the last value of the document
  const text = JSON.stringify(late);
  const cases: Array<[string, string, number, string]> = [
    ["the last value out of range", text, 422, "layers[7].sequence[11].duration: must be an integer 0-65535"],
    ["trailing garbage", JSON.stringify(maximalScene()) + "x", 400, "invalid_json"],
    ["cut one byte short", JSON.stringify(maximalScene()).slice(0, -1), 400, "invalid_json"],
    ["a duplicate key last", JSON.stringify(maximalScene()).slice(0, -1) + ',"name":"again"}', 400, "invalid_json"],
    ["a startAfter to nowhere", JSON.stringify(withStartAfter("nowhere")), 422, "layers[1].startAfter: no layer"],
  ];
  for (const [what, body, status, error] of cases) {
    for (const [method, url] of [
      ["PATCH", `/api/scenes/${id}`],
      ["POST", "/api/scenes"],
      ["POST", "/api/scenes/play/one-shot"],
    ]) {
      const res = await api(host, method, url, body);
      assert.equal(res.status, status, `${what}, ${method} ${url}: ${res.text}`);
      assert.ok(res.body.error.startsWith(error), `${what}, ${method} ${url}: ${res.text}`);
      assert.deepEqual(staged(), [], `${what}, ${method} ${url}`);
    }
  }
  assert.equal(await list(), before);
  assert.equal((await api(host, "GET", `/api/scenes/${id}`)).text, stored);
  assert.equal((await api(host, "GET", "/api/state")).body.playing, false);
  assert.equal((await api(host, "DELETE", `/api/scenes/${id}`)).status, 200);
});

function withStartAfter(target: string): Scene {
  const doc = baseScene();
  doc.schemaVersion = 8;
  doc.layers[1].startAfter = target;
  return doc;
}

test("schemaVersion may come after what it gates: its verdict still decides", async () => {
  const doc = (version: number): string => {
    const d: Scene = { name: "late", layers: [{ group: "front", sequence: [{ type: "SOLID", duration: 5 }] }] };
    return JSON.stringify({ ...d, schemaVersion: version });
  };
  const old = await api(host, "POST", "/api/scenes", doc(1));
  assert.equal(old.status, 422, old.text);
  assert.equal(old.body.error, "layers[0].group: named groups need schemaVersion 2 or later");
  const newer = await api(host, "POST", "/api/scenes", doc(99));
  assert.equal(newer.status, 409, newer.text);
  assert.equal(newer.text, '{"error":"schema_too_new","scene":99,"firmware":8}');
  const bad = await api(host, "POST", "/api/scenes", doc(0));
  assert.equal(bad.status, 422, bad.text);
  assert.equal(bad.body.error, "schemaVersion: must be an integer 1-8");
  const ok = await api(host, "POST", "/api/scenes", doc(2));
  assert.equal(ok.status, 200, ok.text);
  assert.equal((await api(host, "GET", `/api/scenes/${ok.body.id}`)).text, `{"id":"${ok.body.id}",` + doc(2).slice(1));
  assert.equal((await api(host, "DELETE", `/api/scenes/${ok.body.id}`)).status, 200);
  assert.deepEqual(staged(), []);
});
