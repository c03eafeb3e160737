// A write is acknowledged only once it is stored, black box: when the store cannot write (here a
// directory stands where the write's temporary file goes, which fails like a full disk on every host
// and whatever the user), PATCH /api/configuration, /api/mqtt, /api/appearance and POST
// /api/state/power answer the documented storage error, change nothing and damage nothing stored;
// an acknowledged change survives a hard kill right after its answer; temporary files a kill left
// behind are removed at boot.
import { test } from "node:test";
import assert from "node:assert/strict";
import fs from "node:fs";
import path from "node:path";
import { startHost, api, tempDir } from "./helpers/host.js";

const BLOCKED = ["appearance", "configuration", "mqtt", "power"];

test("a write that fails is answered 500/507 JSON, changes nothing, and the stored values survive", async () => {
  const dir = tempDir();
  let host = await startHost({ panels: 2, dataDir: dir });
  try {
    assert.equal((await api(host, "PATCH", "/api/appearance", { brightness: 40 })).status, 202);
    assert.equal((await api(host, "PATCH", "/api/configuration", { powerStateOnBoot: 2 })).status, 200);
    assert.equal((await api(host, "PATCH", "/api/mqtt", { broker: "broker.one", enabled: false })).status, 200);
    assert.equal((await api(host, "POST", "/api/state/power", { isOn: true })).status, 202);
    const before = Object.fromEntries(BLOCKED.map((k) => [k, fs.readFileSync(path.join(dir, k), "utf8")]));
    for (const k of BLOCKED) fs.mkdirSync(path.join(dir, `${k}.tmp`)); // no temporary file can be made

    const failed = [
      await api(host, "PATCH", "/api/appearance", { brightness: 200, palette: "Ocean" }),
      await api(host, "PATCH", "/api/configuration", { powerStateOnBoot: 1 }),
      await api(host, "PATCH", "/api/configuration", { logicalRoot: 1 }),
      await api(host, "PATCH", "/api/configuration", { allowedHosts: ["lights.home.arpa"], powerStateOnBoot: 0 }),
      await api(host, "PATCH", "/api/mqtt", { broker: "broker.two" }),
      await api(host, "POST", "/api/state/power", { isOn: false }),
    ];
    for (const res of failed) {
      assert.ok([500, 507].includes(res.status), `${res.status} ${res.text}`);
      assert.equal(typeof res.body.error, "string");
    }
    // nothing changed, in memory or on disk
    const look = (await api(host, "GET", "/api/appearance")).body;
    assert.equal(look.brightness, 40);
    assert.notEqual(look.palette, "Ocean");
    assert.deepEqual((await api(host, "GET", "/api/configuration")).body, {
      powerStateOnBoot: 2,
      logicalRoot: 0,
      allowedHosts: [],
    });
    assert.equal((await api(host, "GET", "/api/mqtt")).body.broker, "broker.one");
    assert.equal((await api(host, "GET", "/api/state")).body.isOn, true);
    for (const k of BLOCKED) assert.equal(fs.readFileSync(path.join(dir, k), "utf8"), before[k], k);

    await host.kill();
    host = await startHost({ panels: 2, dataDir: dir });
    assert.equal((await api(host, "GET", "/api/appearance")).body.brightness, 40);
    assert.equal((await api(host, "GET", "/api/configuration")).body.powerStateOnBoot, 2);
    assert.equal((await api(host, "GET", "/api/mqtt")).body.broker, "broker.one");
    assert.equal((await api(host, "GET", "/api/state")).body.isOn, true);

    // once the store writes again, so do the endpoints
    for (const k of BLOCKED) fs.rmdirSync(path.join(dir, `${k}.tmp`));
    assert.equal((await api(host, "PATCH", "/api/appearance", { brightness: 200 })).status, 202);
  } finally {
    await host.stop();
  }
});

test(
  "a full disk (ENOSPC on write) is answered 507 storage_full and changes nothing",
  { skip: !fs.existsSync("/dev/full") },
  async () => {
    // <key>.tmp as a link to /dev/full: the temporary file opens, and every write to it fails with ENOSPC,
    // as on a full filesystem; the host removes the link like any temporary file of a failed write
    const dir = tempDir();
    const host = await startHost({ panels: 2, dataDir: dir });
    try {
      assert.equal((await api(host, "PATCH", "/api/appearance", { brightness: 40 })).status, 202);
      assert.equal((await api(host, "PATCH", "/api/mqtt", { broker: "broker.one", enabled: false })).status, 200);
      assert.equal((await api(host, "PATCH", "/api/configuration", { powerStateOnBoot: 2 })).status, 200);
      assert.equal((await api(host, "POST", "/api/state/power", { isOn: true })).status, 202);
      assert.equal(
        (
          await api(host, "POST", "/api/palettes", {
            name: "keep",
            stops: [
              [0, "#000000"],
              [255, "#FFFFFF"],
            ],
          })
        ).status,
        200,
      );
      const full = (key: string) => fs.symlinkSync("/dev/full", path.join(dir, `${key}.tmp`));
      const keep = Buffer.from("keep").toString("hex");
      const cases: [string, string, string, unknown][] = [
        ["appearance", "PATCH", "/api/appearance", { brightness: 200 }],
        ["configuration", "PATCH", "/api/configuration", { powerStateOnBoot: 1 }],
        ["mqtt", "PATCH", "/api/mqtt", { broker: "broker.two" }],
        ["power", "POST", "/api/state/power", { isOn: false }],
        [
          `palettes/${keep}`,
          "PUT",
          "/api/palettes/keep",
          {
            name: "keep",
            stops: [
              [0, "#FF0000"],
              [255, "#00FF00"],
            ],
          },
        ],
      ];
      for (const [key, method, url, body] of cases) {
        const stored = fs.readFileSync(path.join(dir, key), "utf8");
        full(key);
        const res = await api(host, method, url, body);
        assert.equal(res.status, 507, `${method} ${url}: ${res.status} ${res.text}`);
        assert.deepEqual(res.body, { error: "storage_full" });
        assert.equal(fs.readFileSync(path.join(dir, key), "utf8"), stored, `${key} unchanged`);
        assert.equal(fs.existsSync(path.join(dir, `${key}.tmp`)), false, `${key}.tmp removed`);
      }
      assert.equal((await api(host, "GET", "/api/appearance")).body.brightness, 40);
      assert.equal((await api(host, "GET", "/api/configuration")).body.powerStateOnBoot, 2);
      assert.equal((await api(host, "GET", "/api/mqtt")).body.broker, "broker.one");
      assert.equal((await api(host, "GET", "/api/state")).body.isOn, true);
      assert.deepEqual((await api(host, "GET", "/api/palettes/keep")).body.stops, [
        [0, "#000000"],
        [255, "#FFFFFF"],
      ]);
    } finally {
      await host.stop();
    }
  },
);

test("an acknowledged change survives a hard kill right after its answer", async () => {
  const dir = tempDir();
  for (let round = 0; round < 4; round++) {
    const host = await startHost({ panels: 2, dataDir: dir });
    if (round > 0) {
      assert.equal((await api(host, "GET", "/api/appearance")).body.brightness, 100 + round - 1, `round ${round}`);
      assert.equal((await api(host, "GET", "/api/configuration")).body.logicalRoot, round - 1);
      assert.equal((await api(host, "GET", "/api/state")).body.isOn, round % 2 === 0);
    }
    assert.equal((await api(host, "PATCH", "/api/configuration", { powerStateOnBoot: 2 })).status, 200);
    assert.equal((await api(host, "POST", "/api/state/power", { isOn: round % 2 === 1 })).status, 202);
    assert.equal((await api(host, "PATCH", "/api/configuration", { logicalRoot: round })).status, 202);
    assert.equal((await api(host, "PATCH", "/api/appearance", { brightness: 100 + round })).status, 202);
    await host.kill(); // at once: no tick has to run for the change to be kept
  }
});

test("killed during a stream of writes, the host keeps the last acknowledged change (or the one in flight)", async () => {
  // one client writes brightness 1, 2, 3... one after another; the host is killed while a write is in
  // flight (its answer not awaited), after a varying number of acknowledged ones
  const dir = tempDir();
  let acked = 0;
  for (let round = 0; round < 6; round++) {
    const host = await startHost({ panels: 1, dataDir: dir });
    try {
      const stored = (await api(host, "GET", "/api/appearance")).body.brightness;
      if (round > 0) assert.ok(stored === acked || stored === acked + 1, `round ${round}: ${stored} after ${acked}`);
      acked = round > 0 ? stored : 0;
      const stopAt = acked + 3 + round * 4;
      for (;;) {
        const value = acked + 1;
        const answer = api(host, "PATCH", "/api/appearance", { brightness: value }).catch(() => null);
        if (value === stopAt) {
          await host.kill();
          await answer;
          break;
        }
        assert.equal((await answer)?.status, 202);
        acked = value;
      }
    } finally {
      await host.kill();
    }
  }
});

test("temporary files left by a kill are removed at boot", async () => {
  const dir = tempDir();
  fs.mkdirSync(path.join(dir, "palettes"), { recursive: true });
  fs.writeFileSync(path.join(dir, "appearance.tmp"), "{half a wri");
  fs.writeFileSync(path.join(dir, "palettes", "6f6365616e.tmp"), "{");
  const host = await startHost({ panels: 1, dataDir: dir });
  try {
    assert.equal(fs.existsSync(path.join(dir, "appearance.tmp")), false);
    assert.equal(fs.existsSync(path.join(dir, "palettes", "6f6365616e.tmp")), false);
    assert.equal((await api(host, "GET", "/api/appearance")).status, 200);
  } finally {
    await host.stop();
  }
});

test("a full store: the one-shot play answers 507 storage_full like every write route, and changes nothing", async () => {
  const dir = tempDir();
  const host = await startHost({ panels: 2, dataDir: dir, extraArgs: ["--store-limit", "6000"] });
  try {
    const small = { layers: [{ group: 1, sequence: [{ type: "SOLID", color: "#FF0000", duration: 0 }] }] };
    assert.equal((await api(host, "POST", "/api/scenes/play/one-shot", small)).status, 202);
    const file = path.join(dir, "scenes", "oneshot000");
    const stored = fs.readFileSync(file);
    const state = (await api(host, "GET", "/api/state")).body;
    // 8 layers of 12 steps: several KB, more than the store has left
    const step = { type: "FADE", colorFrom: "#102030", color: "#405060", duration: 1000, loop: true };
    const big = { layers: [...Array(8)].map((_, g) => ({ group: g + 1, sequence: Array(12).fill(step) })) };
    const res = await api(host, "POST", "/api/scenes/play/one-shot", big);
    assert.equal(res.status, 507, res.text);
    assert.deepEqual(res.body, { error: "storage_full" });
    assert.deepEqual(fs.readFileSync(file), stored, "the stored one-shot is unchanged");
    assert.deepEqual((await api(host, "GET", "/api/state")).body, state);
  } finally {
    await host.stop();
  }
});
