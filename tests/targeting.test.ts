// Every targeting selector of the scene format on a fixed 20-panel tree with branches
// (tests/fixtures/topology-20.json), resolved by the core while playing a one-shot scene with one
// SOLID red layer on the selector; the red panels (GET /api/panels) are the resolved set.
//
// The tree (index: children by slot), indices are discovery order = canonical order from 1:
//   1: 2, 12      2: 3, 7      3: 4, 5     5: 6      7: 8, 9     9: 10, 11
//   12: 13        13: 14, 17   14: 15, 16  17: 18    18: 19, 20
import { test, after } from "node:test";
import assert from "node:assert/strict";
import path from "node:path";
import { startHost, api, ROOT } from "./helpers/host.js";
import { advance, showing, oneShot } from "./helpers/playback.js";

const host = await startHost({
  topology: path.join(ROOT, "tests/fixtures/topology-20.json"),
  extraArgs: ["--manual-clock"],
});
after(() => host.stop());

const RED = "#FF0000";

async function resolve(panels: unknown, fallback?: unknown): Promise<number[]> {
  const layer: Record<string, unknown> = {
    group: 1,
    sequence: [{ type: "SOLID", color: "#ff0000", duration: 0 }],
  };
  if (panels !== undefined) layer.panels = panels;
  if (fallback !== undefined) layer.fallback = fallback;
  await oneShot(host, { layers: [layer] });
  await advance(host, 10);
  return showing(host, RED);
}

const ALL = Array.from({ length: 20 }, (_, i) => i + 1);
const range = (a: number, b: number) => Array.from({ length: b - a + 1 }, (_, i) => a + i);

const CASES: Array<[string, unknown, number[]]> = [
  ["absent (all)", undefined, ALL],
  ["all", "all", ALL],
  ["index array, missing skipped", [3, 17, 99, 200], [3, 17]],
  ["empty index array", [], []],
  ["exclude", { exclude: [1, 5, 20, 77] }, [2, 3, 4, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19]],
  ["root", "root", [1]],
  ["leaves", "leaves", [4, 6, 8, 10, 11, 15, 16, 19, 20]],
  ["branches", "branches", [1, 2, 3, 7, 9, 13, 14, 18]],
  ["depth:N", "depth:3", [4, 5, 8, 9, 14, 17]],
  ["depth:A-B", "depth:1-2", [2, 3, 7, 12, 13]],
  ["depth beyond the tree", "depth:9", []],
  ["subtree:N", "subtree:13", range(13, 20)],
  ["subtree of a leaf", "subtree:6", [6]],
  ["subtree of a missing panel", "subtree:40", []],
  ["neighbors:N", "neighbors:13", [12, 14, 17]],
  ["neighbors of the root", "neighbors:1", [2, 12]],
  ["neighbors of a missing panel", "neighbors:40", []],
  ["fraction:A-B", "fraction:0.25-0.5", range(6, 10)],
  ["fraction:0-1", "fraction:0-1", ALL],
  // 0.15 and 0.75 of 20 are 3 and 15 exactly; read as binary fractions they are a hair above
  ["fraction whose bounds land on whole positions", "fraction:0.15-0.75", range(4, 15)],
  ["fraction:0-0.3 (6 of 20)", "fraction:0-0.3", range(1, 6)],
  ["first:K", "first:4", [1, 2, 3, 4]],
  ["first:K beyond the count", "first:50", ALL],
  ["first:K of 5 digits", "first:00004", [1, 2, 3, 4]],
  ["fraction of 10 places (12 characters)", "fraction:0-0.1234567890", [1, 2, 3]],
  ["last:K", "last:3", [18, 19, 20]],
  ["even (0-based canonical positions)", "even", [1, 3, 5, 7, 9, 11, 13, 15, 17, 19]],
  ["odd", "odd", [2, 4, 6, 8, 10, 12, 14, 16, 18, 20]],
  ["any", { any: ["root", "last:2", [7]] }, [1, 7, 19, 20]],
  ["all (intersection)", { all: ["leaves", "subtree:13"] }, [15, 16, 19, 20]],
  ["not", { not: "subtree:2" }, [1, ...range(12, 20)]],
  ["nested", { not: { any: ["leaves", "branches"] } }, [5, 12, 17]],
];

for (const [name, selector, expected] of CASES) {
  test(`selector ${name}: ${JSON.stringify(selector)}`, async () => {
    assert.deepEqual(await resolve(selector), expected);
  });
}

test("fraction bounds are the exact decimals written: A·n <= k < B·n", async () => {
  // ceil(X·20) worked out in integers (thousandths): decimals that are not binary fractions, some
  // landing on whole positions
  const bounds = [
    "0.05",
    "0.1",
    "0.15",
    "0.35",
    "0.45",
    "0.55",
    "0.65",
    "0.7",
    "0.85",
    "0.95",
    "0.333",
    "0.049",
    "0.051",
  ];
  for (const x of bounds) {
    const k = Math.ceil((Math.round(Number(x) * 1000) * 20) / 1000);
    assert.deepEqual(await resolve(`fraction:0-${x}`), range(1, k), `fraction:0-${x}`);
    assert.deepEqual(await resolve(`fraction:${x}-1`), range(k + 1, 20), `fraction:${x}-1`);
  }
});

test("fallback is used when the selector matches nothing", async () => {
  assert.deepEqual(await resolve([55, 66], "leaves"), [4, 6, 8, 10, 11, 15, 16, 19, 20]);
  assert.deepEqual(await resolve("subtree:99", [3]), [3]);
});

test("fallback is ignored when the selector matches", async () => {
  assert.deepEqual(await resolve([2], "all"), [2]);
});

test("a selector matching nothing (and its fallback) contributes nothing, without error", async () => {
  assert.deepEqual(await resolve([99], "depth:12"), []);
  const state = await api(host, "GET", "/api/state");
  assert.equal(state.body.playing, true);
});

test("logicalRoot re-roots depth, subtree, root, branches and canonical order", async () => {
  const res = await api(host, "PATCH", "/api/configuration", { logicalRoot: 13 });
  assert.equal(res.status, 202, res.text);
  try {
    assert.deepEqual(await resolve("root"), [13]);
    assert.deepEqual(await resolve("depth:1"), [12, 14, 17]);
    assert.deepEqual(await resolve("depth:2"), [1, 15, 16, 18]);
    assert.deepEqual(await resolve("subtree:12"), range(1, 12));
    assert.deepEqual(await resolve("branches"), [2, 3, 7, 9, 13, 14, 18]);
    assert.deepEqual(await resolve("leaves"), [4, 6, 8, 10, 11, 15, 16, 19, 20]);
    // canonical order from 13: 13, 12, 1, 2, ..., 11, 14, ..., 20
    assert.deepEqual(await resolve("first:3"), [1, 12, 13]);
    assert.deepEqual(await resolve("last:2"), [19, 20]);
    // a logicalRoot that does not exist falls back to the physical root
    assert.equal((await api(host, "PATCH", "/api/configuration", { logicalRoot: 60 })).status, 202);
    assert.deepEqual(await resolve("root"), [1]);
  } finally {
    await api(host, "PATCH", "/api/configuration", { logicalRoot: 0 });
  }
});
