// docs/scene-reference.md, the user's reference of the scene and palette documents: every JSON example
// in it is posted to a running controller and accepted (palettes stored, scenes stored and played),
// so the reference cannot drift from what the controller takes.
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import fs from "node:fs";
import path from "node:path";
import { startHost, api, waitFor, ROOT, type Host } from "./helpers/host.js";
import { assertSchema, componentSchema } from "./helpers/openapi.js";

const DOC = fs.readFileSync(path.join(ROOT, "docs/scene-reference.md"), "utf8");
const examples = [...DOC.matchAll(/```json\n([\s\S]*?)```/g)].map((m) => JSON.parse(m[1]));

let host: Host;
before(async () => {
  host = await startHost({ panels: 20 });
});
after(async () => host?.stop());

test("the reference has examples of both documents", () => {
  assert.ok(examples.filter((e) => "stops" in e).length >= 1, "a palette example");
  assert.ok(examples.filter((e) => "layers" in e).length >= 6, "scene examples");
});

test("every example validates against its JSON Schema (docs/schema)", () => {
  for (const e of examples) assertSchema(componentSchema("stops" in e ? "PaletteBody" : "SceneBody"), e, true, e.name);
});

test("every palette example is stored", async () => {
  for (const palette of examples.filter((e) => "stops" in e)) {
    const res = await api(host, "POST", "/api/palettes", palette);
    assert.equal(res.status, 200, `${palette.name}: ${res.text}`);
  }
});

test("every scene example is stored and plays", async () => {
  for (const scene of examples.filter((e) => "layers" in e)) {
    const res = await api(host, "POST", "/api/scenes", scene);
    assert.equal(res.status, 200, `${scene.name}: ${res.text}`);
    const id = res.body.id as string;
    assert.equal((await api(host, "POST", `/api/scenes/${id}/play`)).status, 202, scene.name);
    await waitFor(async () => (await api(host, "GET", "/api/state")).body.lastPlayedSceneId === id);
    assert.equal((await api(host, "GET", "/api/state")).body.playing, true, `${scene.name} plays`);
  }
});
