// A play refused with 503 busy changes nothing (issue 18, point 5): not the stored one-shot, not
// lastPlayedScene…, not what plays. The host's own ticks are held (POST /__test__/clock
// {"hold": true}, --manual-clock) so that requests fill the core's work queue: 16 items, or a text
// pool that six 120-byte palette names fill (docs/decisions.md, "503 busy"). In-process:
// tests/core-queue.test.ts.
import { test, after } from "node:test";
import assert from "node:assert/strict";
import { startHost, api } from "./helpers/host.js";
import { advance, colors, oneShot } from "./helpers/playback.js";

const host = await startHost({ panels: 5, extraArgs: ["--manual-clock"] });
after(() => host.stop());

const RED = "#FF0000";
const GREEN = "#00FF00";
const BLUE = "#0000FF";
const BUSY = { status: 503, body: { error: "busy" } };
const WIDE = "🎇".repeat(30); // a palette name of 120 bytes of UTF-8, the most a queued text takes

/** The one-shot kept before each refusal: red for 100 ms, then blue for ever. Played again from
 * its start, it shows red: the refused one-shot would show green. */
const KEPT = {
  name: "kept",
  layers: [
    {
      group: 1,
      sequence: [
        { type: "SOLID", color: RED, duration: 100 },
        { type: "SOLID", color: BLUE, duration: 0 },
      ],
    },
  ],
};
const REFUSED = { name: "refused", layers: [{ group: 1, sequence: [{ type: "SOLID", color: GREEN, duration: 0 }] }] };

const state = async () => (await api(host, "GET", "/api/state")).body;
const every = (c: Record<number, string>, color: string) => Object.values(c).every((x) => x === color);

async function hold(on: boolean): Promise<void> {
  const res = await api(host, "POST", "/__test__/clock", { hold: on });
  assert.equal(res.status, 200, res.text);
}

/** The panels show blue (KEPT after 100 ms), with the host's ticks held and an empty queue. */
async function keptPlaying(): Promise<void> {
  await oneShot(host, KEPT);
  await advance(host, 150);
  assert.ok(every(await colors(host), BLUE));
  await hold(true);
}

/** After the refusals: ticks back, KEPT still plays and is what a replay starts. */
async function nothingChanged(before: object): Promise<void> {
  await hold(false);
  await advance(host, 50);
  assert.ok(every(await colors(host), BLUE), "the refused one-shot plays");
  assert.deepEqual(await state(), before);
  assert.equal((await api(host, "POST", "/api/scenes/play")).status, 202);
  await advance(host, 0);
  assert.ok(every(await colors(host), RED), "the stored one-shot is not the one played before");
  await advance(host, 150);
}

test("the clock endpoint's hold stops the host's ticks: queued work waits for an advance", async () => {
  await hold(true);
  assert.equal((await api(host, "PUT", "/api/panels/2/color", { color: GREEN })).status, 202);
  await new Promise((r) => setTimeout(r, 300));
  assert.notEqual((await colors(host))[2], GREEN, "applied with the ticks held");
  await advance(host, 0);
  assert.equal((await colors(host))[2], GREEN);
  await hold(false);
  for (const body of [{ hold: 1 }, { hold: "true" }, { hold: null }]) {
    assert.equal((await api(host, "POST", "/__test__/clock", body)).status, 400, JSON.stringify(body));
  }
});

test("a one-shot refused because the queue is full (16 items) changes nothing", async () => {
  await keptPlaying();
  const before = await state();
  assert.equal(before.lastPlayedSceneId, "oneshot000");
  assert.equal(before.lastPlayedSceneIsStored, false);
  assert.equal(before.playing, true);
  for (let i = 0; i < 16; i++) {
    assert.equal((await api(host, "PUT", "/api/panels/1/on", { value: 1 })).status, 202, `PUT ${i + 1}`);
  }
  const r = await api(host, "POST", "/api/scenes/play/one-shot", REFUSED);
  assert.deepEqual({ status: r.status, body: r.body }, BUSY);
  assert.deepEqual(await state(), before);
  await nothingChanged(before);
});

test("a one-shot refused because the queue's text pool is full changes nothing; so do appearance and power", async () => {
  const palette = {
    schemaVersion: 1,
    name: WIDE,
    stops: [
      [0, "#FF0000"],
      [255, "#0000FF"],
    ],
  };
  assert.equal((await api(host, "POST", "/api/palettes", palette)).status, 200);
  const { brightness } = (await api(host, "GET", "/api/appearance")).body;
  await keptPlaying();
  const before = await state();
  for (let i = 0; i < 6; i++) {
    assert.equal((await api(host, "PATCH", "/api/appearance", { palette: WIDE })).status, 202, `PATCH ${i + 1}`);
  }
  let r = await api(host, "POST", "/api/scenes/play/one-shot", REFUSED);
  assert.deepEqual({ status: r.status, body: r.body }, BUSY);
  r = await api(host, "PATCH", "/api/appearance", { brightness: brightness === 7 ? 8 : 7 });
  assert.deepEqual({ status: r.status, body: r.body }, BUSY);
  r = await api(host, "POST", "/api/state/power", { isOn: false });
  assert.deepEqual({ status: r.status, body: r.body }, BUSY);
  assert.deepEqual(await state(), before);
  await nothingChanged(before);
  const now = (await api(host, "GET", "/api/appearance")).body;
  assert.deepEqual([now.brightness, now.palette], [brightness, WIDE]);
});

test("a stored scene played last stays the last played when a one-shot is refused", async () => {
  const saved = await api(host, "POST", "/api/scenes", {
    name: "stored",
    layers: [{ group: 1, sequence: [{ type: "SOLID", color: BLUE, duration: 0 }] }],
  });
  assert.equal(saved.status, 200, saved.text);
  assert.equal((await api(host, "POST", `/api/scenes/${saved.body.id}/play`)).status, 202);
  await advance(host, 10);
  const before = await state();
  assert.deepEqual([before.lastPlayedSceneId, before.lastPlayedSceneIsStored], [saved.body.id, true]);
  await hold(true);
  for (let i = 0; i < 16; i++) assert.equal((await api(host, "PUT", "/api/panels/1/on", { value: 1 })).status, 202);
  const r = await api(host, "POST", "/api/scenes/play/one-shot", REFUSED);
  assert.deepEqual({ status: r.status, body: r.body }, BUSY);
  await hold(false);
  await advance(host, 50);
  assert.deepEqual(await state(), before);
  assert.ok(every(await colors(host), BLUE));
});
