// GET /api/state and POST /api/state/power against a spawned host: the read model's fields and
// types, power off and on as the panels report it live, bad bodies, and powerStateOnBoot across
// restarts on the same data directory (0 always on, 1 always off, 2 restore the last isOn).
import { test, describe, after } from "node:test";
import assert from "node:assert/strict";
import fs from "node:fs";
import path from "node:path";
import { startHost, api, waitFor, tempDir, ROOT, firmwareOf, type Host, errorKeys } from "./helpers/host.js";

const VERSION = firmwareOf(); // the package version + the build identifier of build/controller.wasm
const PANELS = 5;

const host = await startHost({ panels: PANELS });
after(() => host.stop());

async function state(h: Host = host) {
  const res = await api(h, "GET", "/api/state");
  assert.equal(res.status, 200);
  return res.body;
}

async function panels(h: Host = host): Promise<Array<{ address: number; on: boolean; color: string }>> {
  const res = await api(h, "GET", "/api/panels");
  assert.equal(res.status, 200);
  return res.body;
}

async function power(isOn: boolean, h: Host = host) {
  const res = await api(h, "POST", "/api/state/power", { isOn });
  assert.equal(res.status, 202, res.text);
  assert.equal(res.text, isOn ? '{"isOn":true}' : '{"isOn":false}');
}

/** Every panel of `h` reports `on` (and all `n` of them answer). */
async function allPanels(on: boolean, n: number, h: Host = host) {
  const list = await panels(h);
  assert.deepEqual(
    list.map((p) => p.address),
    Array.from({ length: n }, (_, i) => i + 1),
  );
  for (const p of list) assert.equal(p.on, on, `panel ${p.address}: ${JSON.stringify(list)}`);
}

test("GET /api/state: every field with its type and boot value", async () => {
  const res = await api(host, "GET", "/api/state");
  assert.equal(res.status, 200);
  assert.match(res.headers.get("content-type") ?? "", /application\/json/);
  const s = res.body;
  assert.deepEqual(Object.keys(s).sort(), [
    "controllerFirmware",
    "isOn",
    "lastPlayedSceneId",
    "lastPlayedSceneIsStored",
    "playing",
    "speed",
    "stream",
  ]);
  assert.equal(s.isOn, true);
  assert.equal(s.lastPlayedSceneId, "");
  assert.equal(s.lastPlayedSceneIsStored, false);
  assert.equal(s.playing, false);
  assert.equal(typeof s.speed, "number");
  assert.equal(s.speed, 1);
  assert.equal(s.controllerFirmware, VERSION);
  assert.ok(s.controllerFirmware.length <= 31);
});

test("power off: 202 {isOn:false}, GET /api/state and every panel report off; power on restores them", async () => {
  await allPanels(true, PANELS);
  await power(false);
  assert.equal((await state()).isOn, false);
  await allPanels(false, PANELS);
  // Off again is accepted and changes nothing.
  await power(false);
  assert.equal((await state()).isOn, false);
  await allPanels(false, PANELS);
  await power(true);
  assert.equal((await state()).isOn, true);
  await allPanels(true, PANELS);
  const s = await state();
  assert.equal(s.playing, false);
  assert.equal(s.speed, 1);
});

test("power on re-lights a panel turned off on its own", async () => {
  const off = await api(host, "PUT", "/api/panels/2/on", { value: 0 });
  assert.equal(off.status, 202, off.text);
  assert.equal((await panels()).find((p) => p.address === 2)?.on, false);
  await power(true);
  await allPanels(true, PANELS);
});

test("bad power bodies: 422 naming the path (400 for malformed JSON), and nothing changes", async () => {
  const cases: Array<{ body: string; status: number; error: RegExp }> = [
    { body: "{}", status: 422, error: /^isOn: / },
    { body: '{"isOn":"yes"}', status: 422, error: /^isOn: / },
    { body: '{"isOn":"false"}', status: 422, error: /^isOn: / },
    { body: '{"isOn":0}', status: 422, error: /^isOn: / },
    { body: '{"isOn":null}', status: 422, error: /^isOn: / },
    { body: '{"isOn":false,"extra":1}', status: 422, error: /^extra: unknown field \(accepted: isOn\)$/ },
    { body: '{"ison":false}', status: 422, error: /^ison: unknown field \(accepted: isOn\)$/ },
    { body: "[false]", status: 422, error: /^\$: / },
    { body: "false", status: 422, error: /^\$: / },
    { body: "", status: 400, error: /^invalid_json$/ },
    { body: '{"isOn":false', status: 400, error: /^invalid_json$/ },
    { body: '{"isOn":fals}', status: 400, error: /^invalid_json$/ },
    { body: '{"isOn":false,"isOn":false}', status: 400, error: /^invalid_json$/ },
  ];
  for (const c of cases) {
    const res = await api(host, "POST", "/api/state/power", c.body);
    assert.equal(res.status, c.status, `${c.body}: ${res.status} ${res.text}`);
    assert.deepEqual(Object.keys(res.body ?? {}), errorKeys(c.status), `${c.body}: ${res.text}`);
    assert.match(res.body.error, c.error, `${c.body}: ${res.text}`);
    assert.equal((await state()).isOn, true, `${c.body} changed isOn`);
  }
  await allPanels(true, PANELS);
});

/** Sets powerStateOnBoot and power on a host, then restarts it on the same data directory. */
async function restartWith(mode: number, isOn: boolean, dataDir: string): Promise<Host> {
  const first = await startHost({ panels: 3, dataDir });
  try {
    const res = await api(first, "PATCH", "/api/configuration", { powerStateOnBoot: mode });
    assert.equal(res.status, 200, res.text);
    assert.equal(res.text, "{}");
    await power(isOn, first);
    await waitFor(async () => (await state(first)).isOn === isOn);
  } finally {
    await first.stop();
  }
  return startHost({ panels: 3, dataDir });
}

async function expectBootState(h: Host, isOn: boolean, mode: number) {
  try {
    assert.equal((await state(h)).isOn, isOn);
    const config = await api(h, "GET", "/api/configuration");
    assert.equal(config.body.powerStateOnBoot, mode);
    // The panels follow once discovery has pushed the boot power state.
    await waitFor(async () => (await panels(h)).every((p) => p.on === isOn));
    await allPanels(isOn, 3, h);
  } finally {
    await h.stop();
  }
}

// Restarts are slow-ish: these scenarios run side by side, each on its own data directory.
describe("restarts", { concurrency: true }, () => {
  test("powerStateOnBoot across restarts: 0 on, 1 off, 2 restores the last isOn (both values)", async () => {
    const cases: Array<{ mode: number; lastIsOn: boolean; bootIsOn: boolean }> = [
      { mode: 0, lastIsOn: false, bootIsOn: true },
      { mode: 1, lastIsOn: true, bootIsOn: false },
      { mode: 2, lastIsOn: false, bootIsOn: false },
      { mode: 2, lastIsOn: true, bootIsOn: true },
    ];
    // Each case on its own data directory, all at once.
    await Promise.all(
      cases.map(async ({ mode, lastIsOn, bootIsOn }) => {
        const h = await restartWith(mode, lastIsOn, tempDir());
        await expectBootState(h, bootIsOn, mode);
      }),
    );
  });

  test("powerStateOnBoot 2 follows the latest power change over several restarts", async () => {
    const dataDir = tempDir();
    let h = await restartWith(2, false, dataDir);
    try {
      assert.equal((await state(h)).isOn, false);
      await waitFor(async () => (await panels(h)).every((p) => !p.on));
      await power(true, h);
      assert.equal((await state(h)).isOn, true);
    } finally {
      await h.stop();
    }
    h = await startHost({ panels: 3, dataDir });
    await expectBootState(h, true, 2);
  });

  test("a host booted off turns its panels on with POST power", async () => {
    const h = await restartWith(1, true, tempDir());
    try {
      await waitFor(async () => (await panels(h)).every((p) => !p.on));
      await power(true, h);
      assert.equal((await state(h)).isOn, true);
      await allPanels(true, 3, h);
    } finally {
      await h.stop();
    }
  });
});
