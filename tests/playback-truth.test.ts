// State that tells the truth (issue 36 points 6-8), black box on emulated panels with the manual
// clock: a scene whose last step keeps running on the panels (a looping step, a repeating runner)
// stays `playing` in GET /api/state and APP_STATE until something stops it; loops restart on the
// scene's own clock (no drift over 1,000 loops, at most one tick late); and after a scene ends by
// itself a change of the base colours, or a direct colour on one panel, shows as after a stop.
import { test, after } from "node:test";
import assert from "node:assert/strict";
import { startHost, api } from "./helpers/host.js";
import { advance, colors, sceneClock } from "./helpers/playback.js";
import { Client, T } from "./helpers/frames.js";
import { startBroker, connectToBroker, Observer } from "./helpers/mqtt.js";

const host = await startHost({ panels: 3, extraArgs: ["--manual-clock"] });
const ws = await Client.connect(host.wsUrl);
after(async () => {
  ws.ws.close();
  await host.stop();
});

const RED = "#FF0000";
const GREEN = "#00FF00";
const BLACK = "#000000";
const solid = (color: string, duration: number) => ({ type: "SOLID", color, duration });

const { at, play } = sceneClock(host);
const playing = async (): Promise<boolean> => (await api(host, "GET", "/api/state")).body.playing;
/** `playing` of the last APP_STATE broadcast since the last call (undefined: none came). */
function lastAppState(): boolean | undefined {
  const frames = ws.frames.filter((f) => f.type === T.APP_STATE);
  ws.frames.length = 0;
  return frames.length ? frames[frames.length - 1].payload[2] === 1 : undefined;
}
async function stop(): Promise<void> {
  assert.equal((await api(host, "POST", "/api/scenes/stop")).status, 202);
  await advance(host, 0);
}

test("a looping last step (the README's BREATHE with loop) keeps the scene playing while it runs", async () => {
  await ws.next(T.APP_STATE); // on connect
  await play({
    layers: [
      {
        group: 1,
        sequence: [{ type: "BREATHE", colorFrom: "#000020", colorTo: "#4060FF", duration: 300, loop: true }],
      },
    ],
  });
  const first = await at(1000);
  const second = await at(1150);
  assert.notDeepEqual(first, second, "the panels keep breathing");
  assert.equal(await playing(), true, "GET /api/state");
  assert.equal(lastAppState(), true, "APP_STATE");
  await at(5000);
  assert.equal(await playing(), true);
  assert.equal(lastAppState(), undefined, "no APP_STATE saying it stopped");
  await stop();
  assert.equal(await playing(), false);
  assert.equal(lastAppState(), false);
});

test("Home Assistant's playing sensor (MQTT state/playing) stays true while a looping last step runs", async () => {
  const broker = await startBroker();
  const obs = await Observer.connect(broker.port);
  try {
    await connectToBroker(host, broker.port);
    const topic = `tessera/${host.hostname}/state/playing`;
    const from = obs.messages.length;
    await play({ layers: [{ group: 1, sequence: [{ type: "BREATHE", color: RED, duration: 300, loop: true }] }] });
    await obs.waitFor(topic, (p) => p === "true", from);
    await at(2000);
    // a marker published after those ticks: the sensor's messages before it are all there
    assert.equal((await api(host, "PATCH", "/api/appearance", { brightness: 77 })).status, 202);
    await advance(host, 0);
    await obs.waitFor(`tessera/${host.hostname}/state/brightness`, (p) => p === "77", from);
    // (what connecting published comes first: the sensor from the play on)
    const sensor = obs.messages
      .slice(from)
      .filter((m) => m.topic === topic)
      .map((m) => m.payload);
    assert.deepEqual(sensor.slice(sensor.indexOf("true")), ["true"], "no false while it breathes");
    await stop();
    await obs.waitFor(topic, (p) => p === "false", from);
  } finally {
    await api(host, "PATCH", "/api/mqtt", { enabled: false });
    await api(host, "PATCH", "/api/appearance", { brightness: 255 });
    await advance(host, 0);
    await obs.close();
    await broker.close();
  }
  lastAppState();
});

test("a repeating runner or a looping step after a gap keeps it playing; a step that ends does not", async () => {
  await play({
    schemaVersion: 5,
    layers: [{ group: 1, sequence: [{ runner: "WAVE", color: RED, duration: 200, repeat: true }] }],
  });
  await at(1000);
  assert.equal(await playing(), true, "repeating WAVE");
  await play({
    schemaVersion: 2,
    layers: [{ group: 1, sequence: [{ type: "FADE", color: RED, duration: 100, loop: true }, { duration: 100 }] }],
  });
  await at(1000);
  assert.equal(await playing(), true, "a looping FADE, then a gap: the FADE goes on");
  await play({ layers: [{ group: 1, sequence: [{ type: "BREATHE", color: RED, duration: 300 }] }] });
  await at(400);
  assert.equal(await playing(), false, "one breath, then the frame is held");
  lastAppState();
});

test("loops restart on the scene's clock: no drift over 1,000 loops (at most a tick late)", async () => {
  // a 254 ms cycle (the manual clock ticks every 5 ms, so each end is noticed up to 4 ms late):
  // layer a lights panel 1 red for 127 ms; layer b waits for it, then lights panel 2 green for 127
  // ms; layer c loops on its own, panel 3 red then green, 127 ms each
  await play({
    schemaVersion: 2,
    loop: true,
    layers: [
      { group: "a", panels: [1], sequence: [solid(RED, 127)] },
      { group: "b", panels: [2], startAfter: "a", sequence: [solid(GREEN, 127)] },
      { group: "c", panels: [3], async: "loop", sequence: [solid(RED, 127), solid(GREEN, 127)] },
    ],
  });
  const cycle = 254;
  const expect = async (t: number, two: string, three: string) => {
    const c = await at(t);
    assert.deepEqual([c[2], c[3]], [two, three], `t = ${t} (cycle ${Math.floor(t / cycle)}, ${t % cycle} into it)`);
  };
  for (const loops of [1, 20, 1000]) {
    const t0 = loops * cycle;
    await expect(t0 + 10, BLACK, RED);
    await expect(t0 + 117, BLACK, RED);
    await expect(t0 + 137, GREEN, GREEN);
    await expect(t0 + 244, GREEN, GREEN);
  }
  assert.equal(await playing(), true);
  await stop();
  lastAppState();
});

test("after a scene ends by itself a new base colour shows, as after a stop", async () => {
  const look = async (primary: string) => {
    assert.equal((await api(host, "PATCH", "/api/appearance", { baseColors: [primary, BLACK, BLACK] })).status, 202);
    await advance(host, 0);
    return colors(host);
  };
  const all = (color: string) => ({ 1: color, 2: color, 3: color });
  const scenes = [
    { layers: [{ group: 1, sequence: [solid(RED, 100)] }] },
    // the scene's own colours and palette go with it
    {
      colors: { primary: "#0000FF" },
      palette: "Ocean",
      layers: [{ group: 1, sequence: [{ type: "SOLID", color: { useColor: 0 }, duration: 100 }] }],
    },
  ];
  for (const scene of scenes) {
    for (const ending of ["by itself", "stopped"]) {
      await play(scene);
      const shown = await at(150);
      assert.notDeepEqual(shown, all(BLACK));
      assert.equal(await playing(), false, ending);
      if (ending === "stopped") await stop();
      assert.deepEqual(await look("#102030"), all("#102030"), `${ending}: the new primary colour shows`);
      assert.deepEqual(await look("#203040"), all("#203040"), `${ending}: and the next one`);
    }
  }
  lastAppState();
});

test("after a scene ends by itself a direct panel colour shows there, as after a stop; the others hold", async () => {
  for (const ending of ["by itself", "stopped"]) {
    await play({ layers: [{ group: 1, sequence: [{ type: "FADE", color: RED, duration: 100 }] }] });
    assert.deepEqual(await at(150), { 1: RED, 2: RED, 3: RED });
    assert.equal(await playing(), false, ending);
    if (ending === "stopped") await stop();
    assert.equal((await api(host, "PUT", "/api/panels/2/color", { color: GREEN })).status, 202);
    await advance(host, 0);
    assert.deepEqual(await colors(host), { 1: RED, 2: GREEN, 3: RED }, ending);
  }
  lastAppState();
});
