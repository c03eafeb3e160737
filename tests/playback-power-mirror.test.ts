// Playback with power, reboot and the WebSocket: power off mid-scene stops everything and play
// endpoints answer 409 system_off; the one-shot scene replays after a reboot; APP_STATE follows
// playing/speed/lastPlayed; the mirror stream shows a scene's prepare and start packets byte for byte.
import { test, after } from "node:test";
import assert from "node:assert/strict";
import { startHost, api, tempDir, type Host } from "./helpers/host.js";
import { Client, T, frame, mirroredPackets, type Frame } from "./helpers/frames.js";
import { advance, colors, oneShot } from "./helpers/playback.js";

const dataDir = tempDir();
let host: Host = await startHost({ panels: 4, dataDir, extraArgs: ["--manual-clock"] });
after(() => host.stop());

const SCENE = {
  layers: [
    {
      group: 1,
      panels: [2, 3],
      sequence: [
        { type: "SOLID", color: "#ff0000", duration: 100 },
        { type: "SOLID", color: "#00ff00", duration: 0 },
      ],
    },
  ],
};

/** MIRROR_BATCH records: [address, type, payload bytes]. */
const records = (f: Frame): Array<[number, number, number[]]> =>
  mirroredPackets(f).map((m) => [m.address, m.type, [...m.body]]);

test("APP_STATE and the mirror stream follow a playing scene", async () => {
  const c = await Client.connect(host.wsUrl);
  try {
    await c.next(T.APP_STATE); // on connect
    c.send(frame(T.SET_MIRROR, [1]));
    await c.next(T.MIRROR_BATCH); // the snapshot
    await oneShot(host, SCENE);
    await advance(host, 50); // the play, then a mirror flush (34 ms)
    const app = (await c.next(T.APP_STATE)).payload;
    assert.equal(app[2], 1, "playing");
    assert.equal(app.readFloatLE(4), 1);
    assert.equal(app.subarray(8, 19).toString("latin1"), "oneshot000\0");
    assert.equal(app[1], 0, "the one-shot scene is not stored");
    const recs = records(await c.next(T.MIRROR_BATCH));
    const prepare = (address: number, rgb: number[], duration: number): [number, number, number[]] => [
      address,
      12,
      [1, 0, 0, 0, 0, 0, 0, 0, 0, ...rgb, duration & 255, duration >> 8, 0, 0, 0, 0, 0, 255],
    ];
    // scene start: stop and clear all, black, background; then the prepare (2 of 4 panels: a
    // broadcast plus a clear to each of the 2 others, 39 bytes, beats 2 unicasts, 50) and one start
    assert.deepEqual(recs, [
      [0, 13, [0, 0]],
      [0, 5, [0, 0, 0]],
      [0, 20, [0, 0, 0]],
      prepare(0, [255, 0, 0], 100),
      [1, 13, [1, 0]],
      [4, 13, [1, 0]],
      [0, 13, [1, 1]],
    ]);
    await advance(host, 60); // the second step at 100
    const next = records(await c.next(T.MIRROR_BATCH));
    assert.deepEqual(next, [
      [0, 13, [1, 0]],
      prepare(0, [0, 255, 0], 0),
      [1, 13, [1, 0]],
      [4, 13, [1, 0]],
      [0, 13, [1, 1]],
    ]);
    // speed: update params to the group (timeScale per mille, the step's params)
    assert.equal((await api(host, "POST", "/api/scenes/speed", { speed: 2.5 })).status, 202);
    await advance(host, 40);
    assert.deepEqual(records(await c.next(T.MIRROR_BATCH)), [[0, 16, [1, 2500 & 255, 2500 >> 8, 0, 0]]]);
    assert.equal((await c.next(T.APP_STATE)).payload.readFloatLE(4), 2.5);
    // stop: one broadcast animation start(0, 2), every group stops holding its frame (issue 18);
    // APP_STATE says not playing
    assert.equal((await api(host, "POST", "/api/scenes/stop")).status, 202);
    await advance(host, 40);
    assert.deepEqual(records(await c.next(T.MIRROR_BATCH)), [[0, 13, [0, 2]]]);
    assert.equal((await c.next(T.APP_STATE)).payload[2], 0);
  } finally {
    c.close();
  }
});

test("power off mid-scene stops everything; play endpoints answer 409 system_off", async () => {
  await oneShot(host, SCENE);
  await advance(host, 20);
  assert.equal((await colors(host))[2], "#FF0000");
  assert.equal((await api(host, "POST", "/api/state/power", { isOn: false })).status, 202);
  await advance(host, 10);
  const s = (await api(host, "GET", "/api/state")).body;
  assert.deepEqual([s.isOn, s.playing], [false, false]);
  for (const [p, body] of [
    ["/api/scenes/play", undefined],
    ["/api/scenes/play/one-shot", SCENE],
    ["/api/scenes/abcdefgh/play", undefined],
    ["/api/scenes/speed", { speed: 1 }],
    ["/api/animations/trigger", { group: 1, value: 1 }],
  ] as const) {
    const r = await api(host, "POST", p, body);
    assert.deepEqual([r.status, r.body], [409, { error: "system_off" }], p);
  }
  // time passes: nothing resumes; power on shows the ambient look, the primary base colour (the
  // animations were cleared)
  await advance(host, 200);
  assert.equal((await api(host, "POST", "/api/state/power", { isOn: true })).status, 202);
  await advance(host, 10);
  const c = await colors(host);
  assert.deepEqual([c[1], c[2], c[3], c[4]], ["#FFFFFF", "#FFFFFF", "#FFFFFF", "#FFFFFF"]);
  assert.equal((await api(host, "GET", "/api/state")).body.playing, false);
});

test("the one-shot scene replays after a reboot; nothing to replay on a fresh device is 404", async () => {
  await oneShot(host, SCENE);
  await advance(host, 10);
  await host.stop();
  host = await startHost({ panels: 4, dataDir, extraArgs: ["--manual-clock"] });
  let s = (await api(host, "GET", "/api/state")).body;
  assert.deepEqual([s.lastPlayedSceneId, s.lastPlayedSceneIsStored, s.playing], ["oneshot000", false, false]);
  const r = await api(host, "POST", "/api/scenes/play");
  assert.deepEqual([r.status, r.body], [202, {}]);
  await advance(host, 150);
  const c = await colors(host);
  assert.deepEqual([c[1], c[2], c[3], c[4]], ["#000000", "#00FF00", "#00FF00", "#000000"]);
  s = (await api(host, "GET", "/api/state")).body;
  assert.equal(s.playing, true);

  const fresh = await startHost({ panels: 2, extraArgs: ["--manual-clock"] });
  try {
    const none = await api(fresh, "POST", "/api/scenes/play");
    assert.deepEqual([none.status, none.body], [404, { error: "no_last_played_scene" }]);
  } finally {
    await fresh.stop();
  }
});

test("a step's fields compile into the 20-byte animation record exactly (mirror)", async () => {
  const c = await Client.connect(host.wsUrl);
  try {
    c.send(frame(T.SET_MIRROR, [1]));
    await c.next(T.MIRROR_BATCH);
    await oneShot(host, {
      schemaVersion: 4,
      speed: 2,
      layers: [
        { group: 7, panels: [9, 10], sequence: [{ duration: 10 }] },
        {
          group: 9,
          blend: "add",
          sequence: [
            {
              type: "PULSE",
              loop: true,
              pingpong: true,
              animates: "dim",
              colorFrom: { palette: 77 },
              colorTo: { r: 1, b: 3 },
              params: [10, 20, 30],
              from: 5,
              to: 250,
              duration: 1001,
            },
          ],
        },
      ],
    });
    await advance(host, 40);
    const recs = records(await c.next(T.MIRROR_BATCH)).filter((r) => r[1] === 12 || r[1] === 13);
    // group 9, layer 1, kind PULSE (4) | loop | pingpong, dim (1) | add (2) << 4, palette ref 77,
    // rgb ref {1, 255, 3}, duration 1001 / 2 = 501 (rounded) LE, delay 0, params 10 20, from 5, to 250
    assert.deepEqual(recs, [
      [0, 13, [0, 0]],
      [0, 12, [9, 1, 0x34, 0x21, 1, 77, 0, 0, 0, 1, 255, 3, 501 & 255, 501 >> 8, 0, 0, 10, 20, 5, 250]],
      [0, 13, [9, 1]],
    ]);
  } finally {
    c.close();
  }
});
