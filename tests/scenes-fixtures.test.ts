// Valid scenes are accepted: every fixture (one per part of the scene format, tests/fixtures/scenes)
// and the edges of every limit. Each comes back from GET in canonical form.
import { test, after } from "node:test";
import assert from "node:assert/strict";
import fs from "node:fs";
import path from "node:path";
import { startHost, api, ROOT } from "./helpers/host.js";
import { maximalScene, type Scene } from "./helpers/scenes.js";
import { assertSchema, sceneBodySchema } from "./helpers/openapi.js";

const host = await startHost({ panels: 3 });
after(() => host.stop());

const FIXTURES = path.join(ROOT, "tests/fixtures/scenes");
const files = fs.readdirSync(FIXTURES).filter((f) => f.endsWith(".json"));

/** Posts `body`, checks GET answers `canonical` (the stored form) with the id first, deletes it. */
async function roundTrip(body: string, canonical: string): Promise<Scene> {
  const post = await api(host, "POST", "/api/scenes", body);
  assert.equal(post.status, 200, post.text);
  const id = post.body.id;
  const got = await api(host, "GET", `/api/scenes/${id}`);
  assert.equal(got.text, `{"id":"${id}",` + canonical.slice(1));
  const item = (await api(host, "GET", "/api/scenes")).body.find((s: { id: string }) => s.id === id);
  assert.equal((await api(host, "DELETE", `/api/scenes/${id}`)).status, 200);
  return item;
}

test("there are fixtures for every schemaVersion", () => {
  for (let v = 1; v <= 8; v++)
    assert.ok(
      files.some((f) => f.startsWith(`v${v}-`)),
      `v${v}`,
    );
});

const durations: Record<string, number> = {
  "v1-minimal.json": 1000,
  "v1-types.json": 0, // ends with an infinite REACTIVE step
  "v2-groups-gaps.json": 6750, // intro 1000, sweep 4750 after it, outro 1000 after that
  "v8-step-ids.json": 4000, // base 4000; spark after base:rise (1000 + 1500); tail after spark:go (+ 1000)
  "async-disabled.json": 5000, // main 5000; after_off waits for a disabled layer: 0 + 1000
  "infinite-hold.json": 0,
};

for (const file of files) {
  test(`fixture ${file} is accepted`, async () => {
    const body = fs.readFileSync(path.join(FIXTURES, file), "utf8");
    const doc = JSON.parse(body);
    assertSchema(sceneBodySchema, doc, true, file); // docs/schema/scene.schema.json takes it too
    const canonical =
      file === "legacy-forms.json"
        ? JSON.stringify(doc)
            .replace('"originPanel":4', '"source":"panel:4"')
            .replace('"source":"geometric","angle":30', '"source":"root","angle":30,"directionality":"geometric"')
        : JSON.stringify(doc);
    const item = await roundTrip(body, canonical);
    assert.equal(item.name, doc.name);
    assert.equal(item.layerCount, doc.layers.length);
    assert.equal(item.schemaVersion, doc.schemaVersion ?? 1);
    if (file in durations) assert.equal(item.duration, durations[file]);
  });
}

const range = (n: number, from = 1) => Array.from({ length: n }, (_, i) => i + from);
const solid = (extra: Scene = {}) => ({ type: "SOLID", color: "#FF0000", duration: 100, ...extra });
const one = (step: Scene, layer: Scene = {}, top: Scene = {}): Scene => ({
  schemaVersion: 8,
  name: "edge",
  ...top,
  layers: [{ group: "g", ...layer, sequence: [step] }],
});

const edges: [string, Scene][] = [
  ["a name of 64 characters", one(solid(), {}, { name: "n".repeat(64) })],
  ["a name of 64 emoji", one(solid(), {}, { name: "😀".repeat(64) })],
  ["a name with non-ASCII letters and symbols", one(solid(), {}, { name: 'Café "Nord" / 北 \\ ✓' })],
  ["a name of one character", one(solid(), {}, { name: "x" })],
  ["schemaVersion 1 written out", { schemaVersion: 1, name: "v1", layers: [{ group: 254, sequence: [solid()] }] }],
  ["a palette name of 30 characters", one(solid(), { palette: "p".repeat(30) }, { palette: "q".repeat(30) })],
  ["an unknown palette name (falls back at playback)", one(solid(), {}, { palette: "No such palette" })],
  ["group 1 and group 254", { name: "g", layers: [1, 254].map((group) => ({ group, sequence: [solid()] })) }],
  ["a group name of 32 characters", one(solid(), { group: "g".repeat(32) })],
  ["eight layers", { name: "8", layers: range(8).map((group) => ({ group, sequence: [solid()] })) }],
  ["twelve steps", one(solid(), { sequence: range(12).map((i) => solid({ duration: i })) })],
  [
    "duration 65535, and 0 on the last step",
    one(solid(), { sequence: [solid({ duration: 65535 }), solid({ duration: 0 })] }),
  ],
  ["32 explicit panels, 1 and 254", one(solid(), { panels: [254, ...range(30, 2), 1] })],
  // the limit is per layer, panels and fallback together (issue 18)
  [
    "32 explicit panels: 16 in panels and 16 in fallback",
    one(solid(), { panels: range(16), fallback: range(16, 100) }),
  ],
  ["an empty panel list", one(solid(), { panels: [] })],
  ["selector objects nested four deep", one(solid(), { panels: { not: { any: [{ all: [{ exclude: [1] }] }] } } })],
  ["eight terms in any", one(solid(), { panels: { any: range(8).map((k) => `first:${k}`) } })],
  ["depth:0, depth:254, depth:3-3", one(solid(), { panels: { any: ["depth:0", "depth:254", "depth:3-3"] } })],
  ["fraction bounds", one(solid(), { panels: { all: ["fraction:0-1", "fraction:0.125-0.5", "fraction:1-1"] } })],
  ["colour channels in either case and partly omitted", one(solid({ colorFrom: { g: 0 }, color: "#abcDEF" }))],
  ["an empty channel object (white)", one(solid({ color: {} }))],
  ["palette positions 0 and 255", one(solid({ type: "FADE", colorFrom: { palette: 0 }, color: { palette: 255 } }))],
  ["params of 0 and 4 entries", one(solid(), { sequence: [solid({ params: [] }), solid({ params: [0, 255, 1, 2] })] })],
  [
    "every animates target",
    one(solid(), {
      sequence: ["color", "dim", "desaturate", "hue", "invert", "brighten", "saturate"].map((a) =>
        solid({ animates: a, from: 0, to: 255 }),
      ),
    }),
  ],
  ["HUE_CYCLE animating color", one({ type: "HUE_CYCLE", animates: "color", duration: 100 })],
  ["a step id of 32 characters", one(solid({ id: "A-z_0".repeat(6) + "xy" }))],
  [
    "the same step id in two layers",
    { schemaVersion: 8, name: "ids", layers: ["a", "b"].map((group) => ({ group, sequence: [solid({ id: "x" })] })) },
  ],
  [
    "SPARKLE with the fields it ignores",
    one({
      runner: "SPARKLE",
      color: "#FFFFFF",
      duration: 100,
      source: "all",
      reverse: true,
      angle: 10,
      directionality: "geometric",
      speed: 100,
      waves: 255,
      width: 255,
    }),
  ],
  [
    "BOUNCE with repeat and repeatCount (ignored)",
    one({ runner: "BOUNCE", duration: 100, repeat: true, repeatCount: 255, width: 3 }),
  ],
  [
    "WHEEL with angle and widths (ignored)",
    one({ runner: "WHEEL", duration: 100, lines: 6, thickness: 359, angle: 359, waveWidth: 1, rippleWidth: 2 }),
  ],
  [
    "WAVE with every runner field",
    one({
      runner: "WAVE",
      color: "#FFFFFF",
      colorFrom: "#000000",
      duration: 100,
      params: [1],
      animates: "invert",
      amount: 255,
      source: "panel:254",
      directionality: "geometric",
      angle: 0,
      reverse: false,
      waveWidth: 0,
      rippleWidth: 255,
      width: 9,
      count: 30,
      repeat: true,
      repeatCount: 1,
    }),
  ],
  [
    "RAIN and MATRIX speed 0 and 65535",
    one(solid(), {
      sequence: [
        { runner: "RAIN", duration: 5, speed: 0 },
        { runner: "MATRIX", duration: 5, speed: 65535 },
      ],
    }),
  ],
  ["a gap with an id", one({ id: "pause", duration: 300 })],
  [
    "startAfter a number and a numeric string",
    {
      schemaVersion: 8,
      name: "n",
      layers: [
        { group: 3, sequence: [solid({ id: "a" })] },
        { group: 4, startAfter: 3, sequence: [solid()] },
        { group: 5, startAfter: "3", sequence: [solid()] },
        { group: 6, startAfter: "3:a", sequence: [solid()] },
      ],
    },
  ],
  [
    "startAfter a later layer",
    {
      schemaVersion: 2,
      name: "l",
      layers: [
        { group: "x", startAfter: "y", sequence: [solid()] },
        { group: "y", sequence: [solid()] },
      ],
    },
  ],
  [
    "startAfter a named step before an infinite last step",
    {
      schemaVersion: 8,
      name: "s",
      layers: [
        { group: "a", sequence: [solid({ id: "one" }), solid({ duration: 0 })] },
        { group: "b", startAfter: "a:one", sequence: [solid()] },
      ],
    },
  ],
  ["the maximal scene", maximalScene()],
];

for (const [description, doc] of edges) {
  test(`accepts ${description}`, async () => {
    assertSchema(sceneBodySchema, doc, true, description);
    await roundTrip(JSON.stringify(doc), JSON.stringify(doc));
  });
}
