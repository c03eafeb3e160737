// The ambient look (issue 18 point 2, docs/decisions.md): with no scene playing the panels show the
// primary base colour, at boot, at power on and after a change of base colours or palette; a playing
// scene, a stopped scene's held frame under a brightness change and a direct colour keep what they
// show until one of those. The Home Assistant light turned on through a real broker lights them too.
import { test, after } from "node:test";
import assert from "node:assert/strict";
import { startHost, api, tempDir, type Host } from "./helpers/host.js";
import { advance, colors, oneShot } from "./helpers/playback.js";
import { startBroker, connectToBroker, Observer } from "./helpers/mqtt.js";

const dataDir = tempDir();
let host: Host = await startHost({ panels: 4, dataDir, extraArgs: ["--manual-clock"] });
after(() => host.stop());

const ALL = [1, 2, 3, 4];
/** Every panel on, showing `color`. */
async function allShow(color: string): Promise<void> {
  const res = await api(host, "GET", "/api/panels");
  assert.deepEqual(
    (res.body as Array<{ address: number; on: boolean; color: string }>).map((p) => [p.address, p.on, p.color]),
    ALL.map((a) => [a, true, color]),
  );
}

async function patch(body: object): Promise<void> {
  assert.equal((await api(host, "PATCH", "/api/appearance", body)).status, 202);
  await advance(host, 0);
}

const RED = { layers: [{ group: 1, sequence: [{ type: "SOLID", color: "#FF0000", duration: 0 }] }] };

test("at boot the panels show the primary base colour", async () => {
  await advance(host, 0);
  await allShow("#FFFFFF");
});

test("a new primary base colour shows at once when nothing plays", async () => {
  await patch({ baseColors: ["#102030", "#000000", "#000000"] });
  await allShow("#102030");
});

test("a playing scene keeps its frame; after a stop brightness leaves the held frame, a new look replaces it", async () => {
  await oneShot(host, RED);
  await advance(host, 10);
  await patch({ baseColors: ["#405060", "#000000", "#000000"] });
  await allShow("#FF0000");
  assert.equal((await api(host, "POST", "/api/scenes/stop")).status, 202);
  await advance(host, 10);
  await patch({ brightness: 100 });
  await allShow("#FF0000");
  await patch({ palette: "Ocean" });
  await allShow("#405060");
});

test("a direct colour shows until power off and on, which brings the ambient look back", async () => {
  assert.equal((await api(host, "PUT", "/api/panels/2/color", { color: "#00FF00" })).status, 202);
  await advance(host, 0);
  assert.equal((await colors(host))[2], "#00FF00");
  // a power on while on changes nothing
  assert.equal((await api(host, "POST", "/api/state/power", { isOn: true })).status, 202);
  await advance(host, 0);
  assert.equal((await colors(host))[2], "#00FF00");
  assert.equal((await api(host, "POST", "/api/state/power", { isOn: false })).status, 202);
  await advance(host, 0);
  assert.equal((await api(host, "POST", "/api/state/power", { isOn: true })).status, 202);
  await advance(host, 0);
  await allShow("#405060");
});

test("after a restart the stored appearance's primary colour shows", async () => {
  await host.stop();
  host = await startHost({ panels: 4, dataDir, extraArgs: ["--manual-clock"] });
  await advance(host, 0);
  await allShow("#405060");
});

test("the Home Assistant light turned on lights the panels in the ambient look", async () => {
  const broker = await startBroker();
  const obs = await Observer.connect(broker.port);
  try {
    await connectToBroker(host, broker.port);
    const prefix = `tessera/${host.hostname}`;
    await oneShot(host, { layers: [{ group: 1, sequence: [{ type: "SOLID", color: "#000000", duration: 0 }] }] });
    await advance(host, 10);
    await allShow("#000000");
    let from = obs.messages.length;
    await obs.publish(`${prefix}/command/light`, "OFF");
    await obs.waitFor(`${prefix}/state/light`, (p) => p === "OFF", from);
    await advance(host, 0);
    assert.deepEqual(
      ((await api(host, "GET", "/api/panels")).body as Array<{ on: boolean }>).map((p) => p.on),
      [false, false, false, false],
    );
    from = obs.messages.length;
    await obs.publish(`${prefix}/command/light`, "ON");
    await obs.waitFor(`${prefix}/state/light`, (p) => p === "ON", from);
    await advance(host, 0);
    await allShow("#405060");
    assert.equal((await api(host, "GET", "/api/appearance")).body.brightness, 100);
  } finally {
    await api(host, "PATCH", "/api/mqtt", { enabled: false });
    await obs.close();
    await broker.close();
  }
});
