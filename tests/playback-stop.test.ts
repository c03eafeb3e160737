// Issue 18, point 1 ("stop stops"), on emulated panels with the host's clock driven by the test:
// a finished step holds its last frame whatever its type (the scene-format spec, playback
// semantics 3: "A finished layer holds its last frame"), unless `loop` asks otherwise; and
// POST /api/scenes/stop stops the scene and every overlay of POST /api/animations/play, holding the
// current frame. The README's `calm` scene and its WAVE `repeat: true` example are used as written.
import { test, after } from "node:test";
import assert from "node:assert/strict";
import { startHost, api } from "./helpers/host.js";
import { advance, sceneClock } from "./helpers/playback.js";

const host = await startHost({ panels: 6, extraArgs: ["--manual-clock"] });
after(() => host.stop());

const RED = "#FF0000";
const GREEN = "#00FF00";
const BLACK = "#000000";

const { at, play } = sceneClock(host);
const state = async () => (await api(host, "GET", "/api/state")).body;
const stop = async () => {
  const r = await api(host, "POST", "/api/scenes/stop");
  assert.deepEqual([r.status, r.body], [202, {}]);
};
const calm = {
  name: "calm",
  layers: [{ group: 1, sequence: [{ type: "BREATHE", colorFrom: "#000020", colorTo: "#4060FF", duration: 4000 }] }],
};

test("the README's calm scene breathes once and holds its last frame (colorFrom)", async () => {
  await play(calm);
  assert.equal((await at(2000))[1], "#4060FF", "half a breath: colorTo");
  const held = await at(4100);
  assert.deepEqual(Object.values(held), Array(6).fill("#000020"));
  assert.equal((await state()).playing, false);
  // a second breath would peak at 6000: the frame is held instead
  assert.deepEqual(await at(6000), held);
  assert.deepEqual(await at(9000), held);
});

test("loop: true keeps a cyclic step going after its layer has finished", async () => {
  const layer = calm.layers[0];
  await play({ layers: [{ ...layer, sequence: [{ ...layer.sequence[0], loop: true }] }] });
  assert.equal((await at(4100))[1] !== "#4060FF", true);
  assert.equal((await at(6000))[1], "#4060FF", "the second breath peaks");
});

test("BLINK, STROBE and HUE_CYCLE hold the frame shown just before their end", async () => {
  await play({
    layers: [
      // on 0-250, off 250-500, on 500-750, off 750-1000: ends off (colorFrom)
      {
        group: 1,
        panels: [1],
        sequence: [{ type: "BLINK", colorFrom: RED, colorTo: GREEN, params: [250], duration: 1000 }],
      },
      // 2 Hz: on for the first 250 ms of each 500 ms: ends off (black)
      { group: 2, panels: [2], sequence: [{ type: "STROBE", color: GREEN, params: [2], duration: 1000 }] },
      // one turn over the duration: ends back at red
      { group: 3, panels: [3], sequence: [{ type: "HUE_CYCLE", duration: 1000 }] },
      // REACTIVE at rest: holds colorFrom
      { group: 4, panels: [4], sequence: [{ type: "REACTIVE", colorFrom: RED, colorTo: GREEN, duration: 1000 }] },
    ],
  });
  let c = await at(100);
  assert.deepEqual([c[1], c[2]], [GREEN, GREEN]);
  c = await at(1100);
  assert.deepEqual([c[1], c[2], c[3], c[4]], [RED, BLACK, RED, RED]);
  c = await at(1350); // each would be in its next period (on, on, turning) if it went on
  assert.deepEqual([c[1], c[2], c[3], c[4]], [RED, BLACK, RED, RED]);
  const r = await api(host, "POST", "/api/animations/trigger", { group: 4, value: 255 });
  assert.equal(r.status, 202);
  assert.equal((await at(1400))[4], RED, "a finished REACTIVE step ignores triggers");
});

test("stop mid-scene holds the current frame; playing turns false; a new play clears it", async () => {
  await play({
    layers: [{ group: 1, sequence: [{ type: "BREATHE", colorFrom: BLACK, colorTo: GREEN, duration: 0 }] }],
  });
  const mid = await at(1000);
  assert.notEqual(mid[1], BLACK);
  assert.notEqual(mid[1], GREEN);
  await stop();
  assert.deepEqual(await at(1000), mid);
  assert.deepEqual(await at(2000), mid, "the breath would peak at 2000");
  assert.deepEqual(await at(5000), mid);
  assert.equal((await state()).playing, false);
  await play({ layers: [{ group: 1, panels: [2], sequence: [{ type: "SOLID", color: RED, duration: 0 }] }] });
  const c = await at(10);
  assert.deepEqual([c[1], c[2]], [BLACK, RED]);
});

test("stop holds an overlay of POST /api/animations/play (the README's repeating WAVE)", async () => {
  await play({ layers: [{ group: 1, sequence: [{ type: "SOLID", color: "#000000", duration: 0 }] }] });
  const r = await api(host, "POST", "/api/animations/play", {
    group: 9,
    runner: "WAVE",
    color: "#00C0FF",
    duration: 2000,
    repeat: true,
  });
  assert.equal(r.status, 202, r.text);
  await at(10);
  // the train goes on for ever: two laps later the frames still move
  const frames = [await at(500), await at(900), await at(4500), await at(4900)];
  assert.notDeepEqual(frames[0], frames[1]);
  assert.deepEqual(frames[0], frames[2], "one lap is 2000 ms");
  await stop();
  const held = await at(4900);
  assert.deepEqual(held, frames[3]);
  for (const t of [5300, 5700, 8000]) assert.deepEqual(await at(t), held, `held at ${t}`);
  // stop with nothing playing still stops a fresh overlay
  const b = await api(host, "POST", "/api/animations/play", {
    group: 9,
    type: "BLINK",
    color: GREEN,
    params: [100],
    duration: 0,
  });
  assert.equal(b.status, 202, b.text);
  await advance(host, 0);
  const blinking = [await at(8050), await at(8150)];
  assert.notDeepEqual(blinking[0], blinking[1]);
  await stop();
  for (const t of [8250, 8350]) assert.deepEqual(await at(t), blinking[1]);
});
