// Look edits while a scene plays (scene-format: "a change to appearance or palette shows on the next
// frame without restarting anything"; the scene's own colours and palettes apply to that scene only):
// an appearance change leaves what the scene sets alone, and editing a palette the scene uses
// (its own, a layer's, or the appearance's it borrows) shows at once, without a restart.
import { test, after, beforeEach } from "node:test";
import assert from "node:assert/strict";
import { startHost, api } from "./helpers/host.js";
import { advance, colors, oneShot } from "./helpers/playback.js";

const host = await startHost({ panels: 4, extraArgs: ["--manual-clock"] });
after(() => host.stop());

/** Every panel's colour, in index order. */
async function all(): Promise<string[]> {
  const c = await colors(host);
  return [1, 2, 3, 4].map((i) => c[i]);
}
const four = (color: string) => [color, color, color, color];

async function ok(method: string, path: string, body?: unknown): Promise<void> {
  const res = await api(host, method, path, body);
  assert.ok(res.status >= 200 && res.status < 300, `${method} ${path}: ${res.status} ${res.text}`);
}

/** A one-step scene: every panel SOLID at `position` of the palette it resolves. */
function solid(position: number, look: Record<string, unknown> = {}, layer: Record<string, unknown> = {}) {
  return {
    ...look,
    layers: [{ group: 1, ...layer, sequence: [{ type: "SOLID", color: { palette: position }, duration: 0 }] }],
  };
}

beforeEach(async () => {
  await ok("POST", "/api/scenes/stop");
  await ok("PATCH", "/api/appearance", { palette: "Ocean", baseColors: ["#FFFFFF", "#000000", "#000000"] });
  for (const name of ["Dusk", "Mine"]) await api(host, "DELETE", `/api/palettes/${name}`);
  await advance(host, 10);
});

test("an appearance change keeps the playing scene's own palette and colours", async () => {
  // Lava at 255 is #FFFF80; the scene's tertiary colour is its own
  await oneShot(host, solid(255, { palette: "Lava", colors: { primary: "#102030" } }));
  await advance(host, 10);
  assert.deepEqual(await all(), four("#FFFF80"));
  await ok("PATCH", "/api/appearance", { palette: "Forest", baseColors: ["#FF0000", "#00FF00", "#0000FF"] });
  await advance(host, 10);
  assert.deepEqual(await all(), four("#FFFF80"));
  // the appearance itself did change; a stop holds the frame as it is (issue 18: a plain colour,
  // which the appearance coming back does not change)
  assert.equal((await api(host, "GET", "/api/appearance")).body.palette, "Forest");
  await ok("POST", "/api/scenes/stop");
  await advance(host, 10);
  assert.deepEqual(await all(), four("#FFFF80"));
});

test("editing a layer's palette shows on the playing scene at once", async () => {
  await ok("POST", "/api/palettes", {
    name: "Dusk",
    stops: [
      [0, "#200040"],
      [255, "#FFE080"],
    ],
  });
  await oneShot(host, solid(0, {}, { palette: "dusk" }));
  await advance(host, 10);
  assert.deepEqual(await all(), four("#200040"));
  await ok("PUT", "/api/palettes/Dusk", {
    name: "Dusk",
    stops: [
      [0, "#0A0B0C"],
      [255, "#FFFFFF"],
    ],
  });
  await advance(host, 10);
  assert.deepEqual(await all(), four("#0A0B0C"));
  // still the same scene: nothing restarted
  const state = (await api(host, "GET", "/api/state")).body;
  assert.equal(state.playing, true);
});

test("editing the appearance's palette that a scene without its own shows at once", async () => {
  await ok("POST", "/api/palettes", {
    name: "Mine",
    stops: [
      [0, "#123456"],
      [255, "#654321"],
    ],
  });
  await ok("PATCH", "/api/appearance", { palette: "Mine" });
  await oneShot(host, solid(255));
  await advance(host, 10);
  assert.deepEqual(await all(), four("#654321"));
  await ok("PUT", "/api/palettes/Mine", {
    name: "Mine",
    stops: [
      [0, "#123456"],
      [255, "#0F0E0D"],
    ],
  });
  await advance(host, 10);
  assert.deepEqual(await all(), four("#0F0E0D"));
});

test("deleting a palette a scene uses falls back to Base colors, from the scene's colours", async () => {
  await ok("POST", "/api/palettes", {
    name: "Dusk",
    stops: [
      [0, "#200040"],
      [255, "#FFE080"],
    ],
  });
  await oneShot(host, solid(0, { palette: "Dusk", colors: { primary: "#00FF00" } }));
  await advance(host, 10);
  assert.deepEqual(await all(), four("#200040"));
  const res = await api(host, "DELETE", "/api/palettes/Dusk");
  assert.equal(res.status, 204, res.text);
  await advance(host, 10);
  // Base colors at position 0 is the primary colour: the scene's, not the appearance's white
  assert.deepEqual(await all(), four("#00FF00"));
});
