// A play while a panel firmware flash holds the bus (issue 36, docs/decisions.md "A play during a
// panel flash"): every play route answers 409 with a message naming the flash and changes nothing
// (no state, no stored one-shot, no last played scene), and a play over MQTT (Home Assistant's scene
// select) is dropped; once the flash is over, play works again.
// The flash keeps to the manual clock, so it is held at its first step while the test plays.
import { test, after } from "node:test";
import assert from "node:assert/strict";
import fs from "node:fs";
import path from "node:path";
import { startHost, api, tempDir, waitForDiscovery } from "./helpers/host.js";
import { panelImage } from "./helpers/panel-image.js";
import { advance } from "./helpers/playback.js";
import { startBroker, connectToBroker, Observer } from "./helpers/mqtt.js";

const PANELS = 3;
const dataDir = tempDir();
const host = await startHost({ panels: PANELS, dataDir, extraArgs: ["--manual-clock"] });
const broker = await startBroker();
const obs = await Observer.connect(broker.port);
after(async () => {
  await host.stop();
  await obs.close();
  await broker.close();
});

const scene = { name: "steady", layers: [{ group: 1, sequence: [{ type: "SOLID", color: "#FF0000", duration: 0 }] }] };
const state = async () => (await api(host, "GET", "/api/state")).body;

test("play during a panel flash: 409 naming the flash, nothing changes; after it, play works", async () => {
  const saved = await api(host, "POST", "/api/scenes", scene);
  assert.equal(saved.status, 200, saved.text);
  const id = saved.body.id as string;
  await connectToBroker(host, broker.port);
  const before = await state();
  assert.equal(before.playing, false);

  const up = await api(host, "POST", "/api/firmware/panels", panelImage(5));
  assert.equal(up.status, 200, up.text);
  assert.equal((await api(host, "GET", "/api/firmware/status")).body.state, "connecting");

  const plays: [string, unknown][] = [
    [`/api/scenes/${id}/play`, undefined],
    ["/api/scenes/play", undefined],
    ["/api/scenes/play/one-shot", scene],
    ["/api/animations/play", { group: 200, type: "SOLID", color: "#00FF00", duration: 0 }],
  ];
  for (const [url, body] of plays) {
    const res = await api(host, "POST", url, body);
    assert.equal(res.status, 409, `${url}: ${res.text}`);
    assert.deepEqual(Object.keys(res.body), ["error"]);
    assert.match(res.body.error, /panel firmware flash is in progress/, url);
  }
  await advance(host, 0); // a tick: had anything been queued, it would play now
  assert.deepEqual(await state(), before, "nothing changed");
  // the scene select over MQTT, then a brightness command as a marker (the queue keeps their order)
  const prefix = `tessera/${host.hostname}`;
  const from = obs.messages.length;
  await obs.publish(`${prefix}/command/scene`, id);
  await obs.publish(`${prefix}/command/brightness`, "77");
  await obs.waitFor(`${prefix}/state/brightness`, (p) => p === "77", from);
  await advance(host, 0);
  assert.deepEqual(await state(), before, "the MQTT play changed nothing");
  assert.equal(fs.existsSync(path.join(dataDir, "scenes", "oneshot000")), false, "no one-shot stored");
  assert.notEqual((await api(host, "GET", "/api/firmware/status")).body.state, "idle", "the flash goes on");

  // the flash runs to its end, the panels restart and are discovered again
  for (let i = 0; i < 5000; i++) {
    const s = (await api(host, "GET", "/api/firmware/status")).body.state;
    if (s === "done" || s === "error") break;
    await advance(host, 10);
  }
  assert.equal((await api(host, "GET", "/api/firmware/status")).body.state, "done");
  await advance(host, 400);
  await waitForDiscovery(host, PANELS);
  const res = await api(host, "POST", `/api/scenes/${id}/play`);
  assert.equal(res.status, 202, res.text);
  await advance(host, 10);
  const after = await state();
  assert.equal(after.playing, true);
  assert.equal(after.lastPlayedSceneId, id);
});
