// PUT /api/scenes/{id}: a new scene stored under the id the client gives (docs/decisions.md, "Scenes
// under their own ids"; `tessera restore` uses it). Free ids only: a taken one is 409 id_exists and
// changes nothing; an id of the wrong form is 422 naming `id`; the document is validated as POST's.
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import fs from "node:fs";
import path from "node:path";
import { startHost, api, type Host } from "./helpers/host.js";

let host: Host;
before(async () => {
  host = await startHost({ panels: 3 });
});
after(async () => {
  await host?.stop();
});

const scene = (name: string, color = "#FF0000") => ({
  name,
  layers: [{ group: 1, sequence: [{ type: "SOLID", color, duration: 0 }] }],
});
const ids = async () => ((await api(host, "GET", "/api/scenes")).body as { id: string }[]).map((s) => s.id).sort();

test("a free id: stored under it, listed, read back and played by it", async () => {
  for (const id of ["abcdefgh", "0123456789", "z9z9z9z9z"]) {
    const res = await api(host, "PUT", `/api/scenes/${id}`, scene(`at ${id}`));
    assert.equal(res.status, 200, res.text);
    assert.deepEqual(res.body, { id });
    const stored = await api(host, "GET", `/api/scenes/${id}`);
    assert.equal(
      stored.text,
      `{"id":"${id}","name":"at ${id}","layers":[{"group":1,"sequence":[{"type":"SOLID","color":"#FF0000","duration":0}]}]}`,
    );
  }
  assert.deepEqual(await ids(), ["0123456789", "abcdefgh", "z9z9z9z9z"]);
  assert.equal((await api(host, "POST", "/api/scenes/abcdefgh/play")).status, 202);
  assert.equal((await api(host, "GET", "/api/state")).body.lastPlayedSceneId, "abcdefgh");
  for (const id of await ids()) assert.equal((await api(host, "DELETE", `/api/scenes/${id}`)).status, 200);
});

test("a taken id is 409 id_exists and the stored scene stays as it was", async () => {
  const taken = (await api(host, "POST", "/api/scenes", scene("first"))).body.id as string;
  const before = (await api(host, "GET", `/api/scenes/${taken}`)).text;
  const res = await api(host, "PUT", `/api/scenes/${taken}`, scene("second", "#00FF00"));
  assert.equal(res.status, 409);
  assert.deepEqual(res.body, { error: "id_exists" });
  assert.equal((await api(host, "GET", `/api/scenes/${taken}`)).text, before);
  assert.deepEqual(await ids(), [taken]);
  await api(host, "DELETE", `/api/scenes/${taken}`);
});

test("an id of the wrong form, or a document POST would refuse: refused, nothing stored", async () => {
  const rule = "id: must be 8-10 characters a-z and 0-9, not the one-shot scene's";
  for (const id of ["abcdefg", "abcdefghijk", "ABCDEFGH", "abcd-efg", "oneshot000", "abc%20defg"]) {
    const res = await api(host, "PUT", `/api/scenes/${id}`, scene("bad id"));
    assert.equal(res.status, 422, `${id}: ${res.text}`);
    assert.deepEqual(res.body, { error: rule }, id);
  }
  const invalid = await api(host, "PUT", "/api/scenes/abcdefgh", { name: "x", layers: [] });
  assert.equal(invalid.status, 422, invalid.text);
  assert.match(invalid.body.error, /^layers: /);
  const withId = await api(host, "PUT", "/api/scenes/abcdefgh", { ...scene("x"), id: "abcdefgh" });
  assert.equal(withId.status, 422, withId.text);
  const syntax = await api(host, "PUT", "/api/scenes/abcdefgh", '{"name": "x", "layers": [');
  assert.equal(syntax.status, 400);
  assert.equal(syntax.body.error, "invalid_json");
  assert.deepEqual(await ids(), []);
  const files = path.join(host.dataDir, "scenes");
  assert.deepEqual(fs.existsSync(files) ? fs.readdirSync(files) : [], [], "no file left behind");
});

test("a full library (100 scenes) is 507 for PUT too", async () => {
  for (let i = 0; i < 100; i++) {
    const res = await api(host, "PUT", `/api/scenes/full${String(i).padStart(4, "0")}`, scene(`s${i}`));
    assert.equal(res.status, 200, `${i}: ${res.text}`);
  }
  const res = await api(host, "PUT", "/api/scenes/onemore1", scene("one more"));
  assert.equal(res.status, 507);
  assert.deepEqual(res.body, { error: "the scene library is full (100 scenes)" });
  assert.equal((await api(host, "GET", "/api/scenes/onemore1")).status, 404);
  assert.equal((await ids()).length, 100);
});
