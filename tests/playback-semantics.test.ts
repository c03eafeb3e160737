// Scene playback rules on emulated panels with the host's clock driven by the test
// (--manual-clock, POST /__test__/clock): barrier with mixed async modes, loop restart, startAfter
// on a group and on a step id, gaps, disabled layers, infinite last steps, speed change mid-scene
// (update params, no restart), logicalRoot restart, triggers by layer name, stop.
import { test, after } from "node:test";
import assert from "node:assert/strict";
import { startHost, api } from "./helpers/host.js";
import { sceneClock } from "./helpers/playback.js";

const host = await startHost({ panels: 6, extraArgs: ["--manual-clock"] });
after(() => host.stop());

const RED = "#FF0000";
const GREEN = "#00FF00";
const BLUE = "#0000FF";
const BLACK = "#000000";

const solid = (color: string, duration: number, extra: object = {}) => ({ type: "SOLID", color, duration, ...extra });

const { at, play, started } = sceneClock(host);
const state = async () => (await api(host, "GET", "/api/state")).body;

test("barrier with mixed async modes, whole-scene loop; free layers are not reset", async () => {
  await play({
    loop: true,
    layers: [
      { group: 1, panels: [1], sequence: [solid(RED, 100), solid(GREEN, 100)] },
      { group: 2, panels: [2], async: true, sequence: [solid(GREEN, 50), solid(BLUE, 50)] },
      { group: 3, panels: [3], async: "free", sequence: [solid(RED, 150), solid(GREEN, 0)] },
      { group: 4, panels: [4], async: "loop", sequence: [solid(BLUE, 30), solid(RED, 30)] },
    ],
  });
  let c = await at(30);
  assert.deepEqual([c[1], c[2], c[3], c[4]], [RED, GREEN, RED, RED]);
  c = await at(130);
  assert.deepEqual([c[1], c[2], c[3]], [GREEN, GREEN, RED]);
  c = await at(170);
  assert.deepEqual([c[1], c[2], c[3]], [GREEN, BLUE, GREEN]);
  // the barrier (layer 1 only) fired at 200: layer 1 restarts, the free layer keeps its state
  c = await at(230);
  assert.deepEqual([c[1], c[2], c[3]], [RED, GREEN, GREEN]);
  c = await at(330);
  assert.deepEqual([c[1], c[3]], [GREEN, GREEN]);
  assert.equal((await state()).playing, true);
});

test("non-looping scene: the barrier stops playback and panels hold the last frame", async () => {
  await play({
    layers: [
      { group: 1, panels: [1], sequence: [solid(RED, 100), solid(GREEN, 100)] },
      { group: 2, panels: [2], sequence: [solid(BLUE, 250)] },
      { group: 3, panels: [3], async: "free", sequence: [solid(RED, 20)] },
    ],
  });
  let c = await at(220);
  assert.deepEqual([c[1], c[2]], [GREEN, BLUE]);
  assert.equal((await state()).playing, true, "layer 2 is a barrier layer still running");
  c = await at(260);
  assert.deepEqual([c[1], c[2]], [GREEN, BLUE], "finished layers hold their last frame");
  // the free layer loops on its own and keeps the scene open
  assert.equal((await state()).playing, true);

  await play({ layers: [{ group: 1, panels: [1], sequence: [solid(RED, 100), solid(GREEN, 100)] }] });
  await at(190);
  assert.equal((await state()).playing, true);
  c = await at(210);
  assert.equal(c[1], GREEN);
  assert.equal((await state()).playing, false);
});

test("startAfter on a group and on group:stepId", async () => {
  await play({
    schemaVersion: 8,
    layers: [
      { group: "a", panels: [1], sequence: [solid(RED, 100, { id: "one" }), solid(GREEN, 200, { id: "two" })] },
      { group: "b", panels: [2], startAfter: "a:one", sequence: [solid(BLUE, 0)] },
      { group: "c", panels: [3], startAfter: "a", sequence: [solid(RED, 50), solid(GREEN, 50)] },
    ],
  });
  let c = await at(90);
  assert.deepEqual([c[1], c[2], c[3]], [RED, BLACK, BLACK]);
  c = await at(110);
  assert.deepEqual([c[1], c[2], c[3]], [GREEN, BLUE, BLACK], "b starts when step one of a ends");
  c = await at(290);
  assert.equal(c[3], BLACK);
  c = await at(320);
  assert.deepEqual([c[1], c[2], c[3]], [GREEN, BLUE, RED], "c starts when the whole of a ends");
  c = await at(380);
  assert.equal(c[3], GREEN);
  // c (startAfter: a barrier layer) has finished at 400; b holds forever (infinite step) but is
  // a barrier layer too, so the scene keeps playing
  await at(420);
  assert.equal((await state()).playing, true);
});

test("gaps keep the current colour; a leading gap delays the layer; disabled layers count as finished", async () => {
  await play({
    schemaVersion: 2,
    layers: [
      { group: 1, panels: [1], sequence: [solid(RED, 100), { duration: 100 }, solid(GREEN, 50)] },
      { group: 2, panels: [2], sequence: [{ duration: 100 }, solid(BLUE, 150)] },
      { group: 3, panels: [3], disabled: true, sequence: [solid(RED, 0)] },
    ],
  });
  let c = await at(50);
  assert.deepEqual([c[1], c[2], c[3]], [RED, BLACK, BLACK]);
  c = await at(150);
  assert.deepEqual([c[1], c[2], c[3]], [RED, BLUE, BLACK], "the gap holds red; the leading gap is over");
  c = await at(210);
  assert.deepEqual([c[1], c[3]], [GREEN, BLACK]);
  await at(260);
  // the disabled layer with an infinite step does not hold the barrier
  assert.equal((await state()).playing, false);
});

test("the scene background is pushed at scene start; panels without a layer show it", async () => {
  await play({ background: "#000020", layers: [{ group: 1, panels: [1], sequence: [solid(RED, 0)] }] });
  const c = await at(10);
  assert.deepEqual([c[1], c[2], c[6]], [RED, "#000020", "#000020"]);
});

test("speed change mid-scene: running animations speed up without restarting", async () => {
  await play({
    layers: [
      { group: 1, panels: [1], sequence: [solid(RED, 1000), solid(GREEN, 0)] },
      { group: 2, panels: [2], sequence: [{ type: "FADE", colorFrom: "#000000", color: "#ff0000", duration: 1000 }] },
    ],
  });
  let c = await at(500);
  assert.equal(c[1], RED);
  const res = await api(host, "POST", "/api/scenes/speed", { speed: 2 });
  assert.equal(res.status, 202, res.text);
  assert.deepEqual(res.body, { ok: true, speed: 2 });
  assert.equal((await state()).speed, 2);
  // FADE at local time 500 + 2 x 100 = 700 of 1000: red (255 x 0.7) = 178 (0xB2); not 0x99 (600)
  c = await at(600);
  assert.deepEqual([c[1], c[2]], [RED, "#B20000"]);
  c = await at(740);
  assert.equal(c[1], RED);
  c = await at(760);
  assert.deepEqual([c[1], c[2]], [GREEN, RED], "the 500 ms left took 250 ms at speed 2");
  for (const bad of [0.05, 10.5, "2", null]) {
    const r = await api(host, "POST", "/api/scenes/speed", { speed: bad });
    assert.equal(r.status, 422, JSON.stringify(bad));
  }
  assert.equal((await api(host, "POST", "/api/scenes/speed", { speed: 1 })).status, 202);
});

test("a scene's own speed divides every step duration", async () => {
  await play({ speed: 4, layers: [{ group: 1, panels: [1], sequence: [solid(RED, 400), solid(GREEN, 0)] }] });
  assert.equal((await state()).speed, 4);
  let c = await at(90);
  assert.equal(c[1], RED);
  c = await at(110);
  assert.equal(c[1], GREEN);
  assert.equal((await api(host, "POST", "/api/scenes/speed", { speed: 1 })).status, 202);
});

test("PATCH logicalRoot restarts a playing scene with the new rooting", async () => {
  await play({ layers: [{ group: 1, panels: "root", sequence: [solid(RED, 0)] }] });
  let c = await at(10);
  assert.equal(c[1], RED);
  assert.equal((await api(host, "PATCH", "/api/configuration", { logicalRoot: 4 })).status, 202);
  c = await at(20);
  assert.deepEqual([c[1], c[4]], [BLACK, RED]);
  assert.equal((await api(host, "PATCH", "/api/configuration", { logicalRoot: 0 })).status, 202);
  c = await at(30);
  assert.deepEqual([c[1], c[4]], [RED, BLACK]);
});

test("triggers: by layer name of the playing scene, by number; unknown name 404", async () => {
  await play({
    schemaVersion: 2,
    layers: [
      {
        group: "beat",
        panels: [1],
        sequence: [{ type: "REACTIVE", colorFrom: "#000000", color: "#00ff00", duration: 0 }],
      },
      {
        group: "other",
        panels: [2],
        sequence: [{ type: "REACTIVE", colorFrom: "#000000", color: "#0000ff", duration: 0 }],
      },
    ],
  });
  let c = await at(10);
  assert.deepEqual([c[1], c[2]], [BLACK, BLACK]);
  let r = await api(host, "POST", "/api/animations/trigger", { group: "beat", value: 255 });
  assert.equal(r.status, 202, r.text);
  c = await at(20);
  assert.deepEqual([c[1], c[2]], [GREEN, BLACK]);
  r = await api(host, "POST", "/api/animations/trigger", { group: 2, value: 255 });
  assert.equal(r.status, 202, r.text);
  c = await at(30);
  assert.equal(c[2], BLUE);
  r = await api(host, "POST", "/api/animations/trigger", { group: "nope", value: 255 });
  assert.deepEqual(
    [r.status, r.body],
    [404, { error: "group_not_found", message: "the playing scene's groups: beat, other" }],
  );
  r = await api(host, "POST", "/api/animations/trigger", { group: 1, value: 256 });
  assert.equal(r.status, 422);
  r = await api(host, "POST", "/api/animations/trigger", { group: 0, value: 1 });
  assert.equal(r.status, 422);
});

test("stop: playing false, the panels hold the current frame (issue 18; tests/playback-stop.test.ts)", async () => {
  await play({ layers: [{ group: 1, sequence: [solid(RED, 0)] }] });
  let c = await at(10);
  assert.equal(c[3], RED);
  const r = await api(host, "POST", "/api/scenes/stop");
  assert.deepEqual([r.status, r.body], [202, {}]);
  c = await at(20);
  assert.deepEqual(Object.values(c), Array(6).fill(RED));
  assert.equal((await state()).playing, false);
});

test("play by id: 202, lastPlayedSceneIsStored; unknown ids 404; replay the last played", async () => {
  const saved = await api(host, "POST", "/api/scenes", {
    name: "stored",
    layers: [{ group: 1, panels: [2], sequence: [solid(BLUE, 0)] }],
  });
  assert.equal(saved.status, 200, saved.text);
  const id = saved.body.id;
  let r = await api(host, "POST", `/api/scenes/${id}/play`);
  assert.deepEqual([r.status, r.body], [202, {}]);
  await started();
  let c = await at(10);
  assert.equal(c[2], BLUE);
  let s = await state();
  assert.deepEqual([s.playing, s.lastPlayedSceneId, s.lastPlayedSceneIsStored], [true, id, true]);
  assert.equal((await api(host, "POST", "/api/scenes/zzzzzzzz/play")).status, 404);
  assert.equal((await api(host, "POST", "/api/scenes/oneshot000/play")).status, 404);
  assert.equal((await api(host, "GET", `/api/scenes/${id}/play`)).status, 405);
  await api(host, "POST", "/api/scenes/stop");
  r = await api(host, "POST", "/api/scenes/play");
  assert.deepEqual([r.status, r.body], [202, {}]);
  await started();
  c = await at(10);
  assert.equal(c[2], BLUE);
  s = await state();
  assert.deepEqual([s.playing, s.lastPlayedSceneId], [true, id]);
});

test("one-shot bodies are validated like a save (422, 409 schema_too_new) and never listed", async () => {
  let r = await api(host, "POST", "/api/scenes/play/one-shot", { layers: [] });
  assert.equal(r.status, 422);
  r = await api(host, "POST", "/api/scenes/play/one-shot", { schemaVersion: 9, layers: [] });
  assert.equal(r.status, 409);
  r = await api(host, "POST", "/api/scenes/play/one-shot", "{");
  assert.equal(r.status, 400);
  await play({ layers: [{ group: 1, sequence: [solid(RED, 0)] }] });
  const list = await api(host, "GET", "/api/scenes");
  assert.ok(!list.text.includes("oneshot000"));
  assert.equal((await api(host, "GET", "/api/scenes/oneshot000")).status, 404);
});

test("POST /api/animations/play overlays one flat step over an ambient scene", async () => {
  await play({ layers: [{ group: 1, sequence: [solid(BLUE, 0)] }] });
  let r = await api(host, "POST", "/api/animations/play", {
    group: 200,
    panels: [2, 5],
    type: "SOLID",
    color: "#ff0000",
    duration: 100,
  });
  assert.deepEqual([r.status, r.body], [202, {}]);
  let c = await at(50);
  assert.deepEqual([c[1], c[2], c[5]], [BLUE, RED, RED]);
  c = await at(150);
  assert.deepEqual([c[1], c[2]], [BLUE, RED], "a finished animation holds its last frame");
  // the same group again replaces it
  r = await api(host, "POST", "/api/animations/play", {
    group: 200,
    panels: "root",
    type: "SOLID",
    color: "#00ff00",
    duration: 0,
  });
  assert.equal(r.status, 202, r.text);
  c = await at(160);
  assert.deepEqual([c[1], c[2], c[5]], [GREEN, BLUE, BLUE]);
  for (const bad of [
    { panels: [1], type: "SOLID", duration: 0 },
    { group: 0, type: "SOLID", duration: 0 },
    { group: 3, type: "NOPE", duration: 0 },
    { group: 3, type: "SOLID", duration: 0, sequence: [] },
    { group: 3, panels: "nowhere", type: "SOLID", duration: 0 },
  ]) {
    r = await api(host, "POST", "/api/animations/play", bad);
    assert.equal(r.status, 422, JSON.stringify(bad));
  }
  assert.equal((await api(host, "GET", "/api/animations/play")).status, 405);
});

test("a playing scene keeps its steps while another document is read (a save, a flat animation)", async () => {
  // the scene pass of any request rewrites the validator's tables (scene/state.ts); the player
  // works from its own copy, taken at play
  await play({ layers: [{ group: 1, panels: [1], sequence: [solid(RED, 100), solid(GREEN, 100), solid(BLUE, 0)] }] });
  let c = await at(50);
  assert.equal(c[1], RED);
  const saved = await api(host, "POST", "/api/scenes", {
    name: "one step",
    layers: [{ group: 1, sequence: [solid(GREEN, 10)] }],
  });
  assert.equal(saved.status, 200, saved.text);
  const flat = await api(host, "POST", "/api/animations/play", { group: 200, panels: [6], ...solid(RED, 0) });
  assert.equal(flat.status, 202, flat.text);
  c = await at(150);
  assert.equal(c[1], GREEN);
  c = await at(250);
  assert.equal(c[1], BLUE);
  assert.equal((await api(host, "DELETE", `/api/scenes/${saved.body.id}`)).status, 200);
});

test("scene colours and per-layer palettes apply to the scene only; the appearance is untouched", async () => {
  const before = await api(host, "GET", "/api/appearance");
  await play({
    colors: { primary: "#102030" },
    layers: [
      // position 255 of Lava is #FFFF80; of Ocean #E0FFFF
      { group: 1, panels: [1], palette: "Lava", sequence: [{ type: "SOLID", color: { palette: 255 }, duration: 0 }] },
      {
        group: 2,
        panels: [2, 3],
        palette: "ocean",
        sequence: [{ type: "SOLID", color: { palette: 255 }, duration: 0 }],
      },
      // no override: the scene's Base colors from its own colours (primary at 0)
      { group: 3, panels: [4], sequence: [{ type: "SOLID", color: { palette: 0 }, duration: 0 }] },
      { group: 4, panels: [5], sequence: [{ type: "SOLID", color: { useColor: 0 }, duration: 0 }] },
    ],
  });
  const c = await at(10);
  assert.deepEqual([c[1], c[2], c[3], c[4], c[5]], ["#FFFF80", "#E0FFFF", "#E0FFFF", "#102030", "#102030"]);
  const during = await api(host, "GET", "/api/appearance");
  assert.deepEqual(during.body, before.body);
  // the next scene (without colours) shows the appearance's look: white primary again
  await play({
    layers: [{ group: 1, panels: [5], sequence: [{ type: "SOLID", color: { useColor: 0 }, duration: 0 }] }],
  });
  assert.equal((await at(10))[5], "#FFFFFF");
  // and so does stop
  await play({
    colors: { primary: "#102030" },
    layers: [{ group: 1, panels: [5], sequence: [{ type: "SOLID", color: { useColor: 0 }, duration: 0 }] }],
  });
  assert.equal((await at(10))[5], "#102030");
  await api(host, "POST", "/api/scenes/stop");
  await api(host, "POST", "/api/animations/play", {
    group: 9,
    panels: [5],
    type: "SOLID",
    color: { useColor: 0 },
    duration: 0,
  });
  assert.equal((await at(20))[5], "#FFFFFF");
});
