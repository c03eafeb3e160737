// The particle spawners RAIN, SPARKLE and MATRIX (docs/runners.md, "Spawners") against a host with
// --manual-clock and --seed on the 20-panel branching fixture. Everything is observed from outside:
// the mirror stream (every prepare and start the controller puts on the bus, in order, with the
// controller time of its batch; pulse tables expanded into the records each panel prepares,
// tests/helpers/pulse-table.ts) and the panels' colours (GET /api/panels).
//
// The fixture (tests/fixtures/topology-20.json) rooted at panel 1: depth 1: 2, 12; depth 2: 3, 7,
// 13; depth 3: 4, 5, 8, 9, 14, 17; depth 4: 6, 10, 11, 15, 16, 18; depth 5: 19, 20. Leaves: 4, 6,
// 8, 10, 11, 15, 16, 19, 20.
import { test, after } from "node:test";
import assert from "node:assert/strict";
import fs from "node:fs";
import path from "node:path";
import { startHost, api, ROOT, type Host } from "./helpers/host.js";
import { Client, T, frame, mirroredPackets } from "./helpers/frames.js";
import { clearPanels, colors, oneShot } from "./helpers/playback.js";
import { TableExpander } from "./helpers/pulse-table.js";
import { KIND } from "./helpers/panel.js";

const TOPOLOGY = path.join(ROOT, "tests/fixtures/topology-20.json");
const HOST = { topology: TOPOLOGY, extraArgs: ["--manual-clock", "--seed", "42"] };

const PARENT: Record<number, number> = {};
for (const [i, w] of (JSON.parse(fs.readFileSync(TOPOLOGY, "utf8")).panels as Array<{ parent: number }>).entries())
  PARENT[i + 1] = w.parent;
const DEPTH = (p: number): number => (PARENT[p] === 0 ? 0 : 1 + DEPTH(PARENT[p]));
const LEAVES = [4, 6, 8, 10, 11, 15, 16, 19, 20];

const host = await startHost(HOST);
after(() => host.stop());

const PREPARE = 12;
const START = 13;
const REAP_PULSE = KIND.RUNNER | 0x40; // a runner pulse, flag bit 6 reap on done

interface Packet {
  t: number; // controller time of the mirror batch: at or at most 34 ms after it was sent
  address: number;
  type: number;
  body: number[];
}

/** A mirroring WebSocket client: every packet the controller sends, in order. */
class Mirror {
  private readonly tables = new TableExpander();
  private constructor(private readonly c: Client) {}

  static async open(h: Host): Promise<Mirror> {
    const c = await Client.connect(h.wsUrl);
    await c.next(T.APP_STATE);
    c.send(frame(T.SET_MIRROR, [1]));
    await c.next(T.MIRROR_BATCH); // the snapshot of the current state
    return new Mirror(c);
  }

  /** The packets mirrored since the last call (a ping round trip first: every batch is in). */
  async take(): Promise<Packet[]> {
    await this.c.sync();
    const out: Packet[] = [];
    for (const f of this.c.frames.splice(0)) {
      if (f.type !== T.MIRROR_BATCH) continue;
      const t = f.payload.readUInt32LE(0);
      for (const m of mirroredPackets(f)) {
        const r = { address: m.address, type: m.type, body: [...m.body] };
        for (const x of this.tables.expand(r)) out.push({ t, ...x });
      }
    }
    return out;
  }

  close(): void {
    this.c.close();
  }
}

/** Stops the scene and lets the last mirror batch out (drops launched before the stop go in it). */
async function cleanup(h: Host, m: Mirror): Promise<void> {
  await api(h, "POST", "/api/state/power", { isOn: true });
  await api(h, "POST", "/api/scenes/stop");
  await clearPanels(h); // a stop holds the frame (and the drops' slots): the next test starts black
  await clock(h, 50);
  await m.take();
  m.close();
}

/** Advances the host's clock by `ms`; returns the new controller time. */
async function clock(h: Host, ms: number): Promise<number> {
  const res = await api(h, "POST", "/__test__/clock", { advance: ms });
  assert.equal(res.status, 200, res.text);
  return res.body.now as number;
}

/** Runs the clock for `ms` in steps of `step`, collecting the mirror. */
async function run(h: Host, m: Mirror, ms: number, step = 200): Promise<Packet[]> {
  const out: Packet[] = [];
  for (let done = 0; done < ms; done += step) {
    await clock(h, Math.min(step, ms - done));
    out.push(...(await m.take()));
  }
  return out;
}

/** Plays a one-layer one-shot scene with `step` and applies it at once; returns the play time. */
async function play(h: Host, step: object, layer: object = {}, schemaVersion = 7): Promise<number> {
  await oneShot(h, { schemaVersion, layers: [{ group: 1, ...layer, sequence: [step] }] });
  return clock(h, 0);
}

interface Pulse {
  panel: number;
  group: number;
  layer: number;
  kind: number;
  animBlend: number;
  from: number[];
  to: number[];
  duration: number;
  delay: number;
  p0: number;
  p1: number;
}
interface Drop {
  t: number;
  pulses: Pulse[];
}

/** Drops of group `group`: runs of its runner-pulse prepares closed by its start (one a tick). */
function drops(packets: Packet[], group = 1): Drop[] {
  const out: Drop[] = [];
  let run: Pulse[] = [];
  for (const p of packets) {
    if (p.type === PREPARE && p.body[2] === REAP_PULSE && p.body[0] === group) {
      const b = p.body;
      run.push({
        panel: p.address,
        group: b[0],
        layer: b[1],
        kind: b[2],
        animBlend: b[3],
        from: b.slice(4, 8),
        to: b.slice(8, 12),
        duration: b[12] | (b[13] << 8),
        delay: b[14] | (b[15] << 8),
        p0: b[16],
        p1: b[17],
      });
    } else if (p.type === START && p.body[0] === group && run.length > 0) {
      assert.deepEqual(p.body, [run[0].group, 1], "the drops' own start");
      out.push({ t: p.t, pulses: run });
      run = [];
    }
  }
  assert.equal(run.length, 0, "every prepared drop is started");
  return out;
}

const startsOf = (packets: Packet[], group: number) =>
  packets.filter((p) => p.type === START && p.body[0] === group && p.body[1] === 1).length;

/**
 * The most animations any panel could hold, replaying the prepares with the engine's rules
 * (docs/panel-engine.md): a prepare takes a slot; a reap-on-done slot is free once its start delay
 * plus duration has passed since the start; stop-and-clear frees the group's slots. A batch time is
 * up to 34 ms after the packet was sent, so a slot counts as possibly held while its estimated end
 * is within 34 ms of the new prepare: an upper bound. `lower` counts only slots surely held.
 */
function occupancy(packets: Packet[]): { upper: number; lower: number } {
  const held = new Map<number, Array<{ group: number; end: number }>>();
  let upper = 0;
  let lower = 0;
  for (const p of packets) {
    if (p.type === START && p.body[1] === 0) {
      for (const [q, list] of held)
        held.set(
          q,
          list.filter((s) => p.body[0] !== 0 && s.group !== p.body[0]),
        );
    }
    if (p.type !== PREPARE) continue;
    const targets = p.address === 0 ? Object.keys(PARENT).map(Number) : [p.address];
    const b = p.body;
    const reap = (b[2] & 0x40) !== 0;
    const end = reap ? p.t + (b[14] | (b[15] << 8)) + (b[12] | (b[13] << 8)) : Infinity;
    for (const q of targets) {
      const list = (held.get(q) ?? []).filter((s) => s.end > p.t - 34);
      list.push({ group: b[0], end });
      held.set(q, list);
      upper = Math.max(upper, list.length);
      lower = Math.max(lower, list.filter((s) => s.end - 34 > p.t).length);
    }
  }
  return { upper, lower };
}

/** The runner pulse's envelope (docs/panel-engine.md, kind 4/9) and colour mix, as the engine. */
function pulseColor(from: number, to: number, durationMs: number, p0: number, p1: number, tMs: number): number {
  const D = durationMs * 1000;
  const tau = Math.min(tMs * 1000, D);
  const phase = tau >= D ? 65536 : Math.floor((tau * 65536) / D);
  const S = Math.max(255, p0 + p1);
  const q = phase * S;
  let e = 65536;
  if (p1 > 0 && q > (S - p1) * 65536) e = Math.floor((S * 65536 - q) / p1);
  else if (p0 > 0 && q < p0 * 65536) e = Math.floor(q / p0);
  let out = 0;
  for (const sh of [16, 8, 0]) {
    const a = (from >> sh) & 255;
    const b = (to >> sh) & 255;
    out |= ((a * (65536 - e) + b * e + 32768) >> 16) << sh;
  }
  return out;
}
const hexOf = (c: number) => "#" + c.toString(16).toUpperCase().padStart(6, "0");

const RAIN = { runner: "RAIN", color: "#FFFFFF", colorFrom: "#0000FF", width: 3, waves: 30, speed: 1000, duration: 0 };

test("the same seed replays the same rain, byte for byte; a second play draws new drops", async () => {
  const twin = await startHost(HOST);
  try {
    const traffic: Packet[][] = [];
    for (const h of [host, twin]) {
      const m = await Mirror.open(h);
      await play(h, RAIN);
      traffic.push([...(await m.take()), ...(await run(h, m, 3000, 100))]);
      await cleanup(h, m);
    }
    assert.ok(drops(traffic[0]).length >= 90, "three seconds of rain");
    assert.deepEqual(traffic[1], traffic[0]);
    // a new play seeds a new stream: other paths
    const m = await Mirror.open(host);
    await play(host, RAIN);
    const again = [...(await m.take()), ...(await run(host, m, 3000, 100))];
    await cleanup(host, m);
    const paths = (ps: Packet[]) => drops(ps).map((d) => d.pulses.map((p) => p.panel).join(","));
    assert.notDeepEqual(paths(again), paths(traffic[0]));
  } finally {
    await twin.stop();
  }
});

test("a seeded minute of RAIN at 30 drops a second: the rate, the paths, at most 18 animations a panel", async () => {
  const m = await Mirror.open(host);
  try {
    await play(host, RAIN);
    const packets = [...(await m.take()), ...(await run(host, m, 60000, 250))];
    const ds = drops(packets);
    // drop k leaves at k/30 s: 1801 in [0, 60 s] (the last may still wait for its mirror batch); a
    // drop every panel of which is full would send nothing
    const rate = ds.length / 60;
    assert.ok(Math.abs(rate - 30) <= 0.5, `rate ${rate} drops/s`);
    assert.ok(startsOf(packets, 1) === ds.length, "no start but the drops'");
    let full = 0;
    for (const d of ds) {
      const deepest = d.pulses.reduce((a, p) => (DEPTH(p.panel) > DEPTH(a) ? p.panel : a), d.pulses[0].panel);
      const rings = DEPTH(deepest) + 1;
      // one root-to-leaf path (full panels skipped), each panel reached after depth x fall time / rings
      assert.ok(LEAVES.includes(deepest) || d.pulses.length < rings, `drop ends at leaf ${deepest}`);
      for (const p of d.pulses) {
        let q = deepest;
        while (q !== 0 && q !== p.panel) q = PARENT[q];
        assert.equal(q, p.panel, `panel ${p.panel} is on the path to ${deepest}`);
        if (!LEAVES.includes(deepest)) continue;
        assert.deepEqual(
          [p.group, p.layer, p.animBlend, p.from, p.to, p.p0, p.p1],
          [1, 0, 0, [0, 0, 0, 255], [0, 255, 255, 255], 0, 191],
        );
        assert.equal(p.delay, Math.round((DEPTH(p.panel) * 1000) / rings), "head reaches depth k at k rings");
        assert.equal(p.duration, Math.round((4 * 1000) / rings), "head + 3 tail rings");
      }
      if (!d.pulses.some((p) => p.panel === 1)) full++;
    }
    const occ = occupancy(packets);
    assert.ok(occ.upper <= 18, `a panel could hold ${occ.upper} animations`);
    // the limit is reached: the root (on every path) is often full, and drops then skip it; it held
    // 17 drops (one slot stays free for a notification)
    assert.ok(full > 100, `${full} drops skipped the full root`);
    assert.equal(occ.lower, 17, "the busiest panel");
  } finally {
    await cleanup(host, m);
  }
});

test("drops leave room for the scene's other layers: a 5-sweep WAVE and a SOLID share the 18 slots", async () => {
  const m = await Mirror.open(host);
  try {
    await oneShot(host, {
      schemaVersion: 7,
      layers: [
        { group: 1, sequence: [{ runner: "WAVE", count: 5, color: "#FF0000", duration: 0 }] },
        { group: 2, sequence: [{ type: "SOLID", color: "#000010", duration: 0 }] },
        { group: 3, sequence: [RAIN] },
      ],
    });
    await clock(host, 0);
    const packets = [...(await m.take()), ...(await run(host, m, 20000, 250))];
    const ds = drops(packets, 3);
    assert.ok(Math.abs(ds.length / 20 - 30) <= 0.5, `rate ${ds.length / 20}`);
    assert.ok(ds.every((d) => d.pulses.every((p) => p.group === 3 && p.layer === 2)));
    // the wave's pulse (its 5 sweeps are one series, issue 18) and the solid stay on every panel;
    // drops fill the rest (18 - 1 - 1 - 1 for a notification = 15 on a panel)
    const occ = occupancy(packets);
    assert.ok(occ.upper <= 18, `a panel could hold ${occ.upper} animations`);
    assert.equal(occ.lower, 17, "the busiest panel: 1 + 1 + 15");
  } finally {
    await cleanup(host, m);
  }
});

test("a RAIN tail fades from color toward colorFrom over width rings, then the panel is free", async () => {
  const m = await Mirror.open(host);
  try {
    // one drop a second falling in 400 ms: the first drop is alone on the panels for its whole life
    const t0 = await play(host, { ...RAIN, waves: 1, speed: 400 });
    // the mirror batch goes out 34 ms after the last: samples start at +40 ms
    let now = await clock(host, 40);
    const [first] = drops(await m.take());
    assert.ok(first, "the first drop leaves at the start");
    const rings = first.pulses.length;
    const ring = 400 / rings;
    const samples: Array<{ at: number; panel: number; want: string }> = [];
    for (const p of first.pulses) {
      assert.equal(p.delay, Math.round(DEPTH(p.panel) * ring));
      assert.equal(p.duration, Math.round(4 * ring));
      for (const f of [0.05, 0.3, 0.5, 0.75, 0.95]) {
        const dt = Math.round(p.duration * f);
        const want = hexOf(pulseColor(0x0000ff, 0xffffff, p.duration, 0, 191, dt));
        if (f === 0.05) assert.equal(want, "#FFFFFF", "the head holds color for its first ring");
        samples.push({ at: p.delay + dt, panel: p.panel, want });
      }
      samples.push({ at: p.delay + p.duration + 1, panel: p.panel, want: "#000000" }); // reaped
    }
    samples.sort((a, b) => a.at - b.at);
    const seen: Record<number, string[]> = {};
    for (const s of samples) {
      if (s.at < 40) continue;
      if (t0 + s.at > now) now = await clock(host, t0 + s.at - now);
      const c = (await colors(host))[s.panel];
      assert.equal(c, s.want, `panel ${s.panel} at +${s.at} ms`);
      (seen[s.panel] ??= []).push(c);
    }
    // head white, then red and green fall toward 0 while blue stays: toward colorFrom #0000FF
    for (const [panel, cs] of Object.entries(seen)) {
      const reds = cs.slice(0, -1).map((c) => parseInt(c.slice(1, 3), 16));
      for (let i = 1; i < reds.length; i++) assert.ok(reds[i] <= reds[i - 1], `panel ${panel} fades: ${cs}`);
      assert.ok(reds[reds.length - 1] < 40, `panel ${panel} ends near colorFrom: ${cs}`);
      assert.ok(cs.slice(0, -1).every((c) => c.endsWith("FF")));
    }
  } finally {
    await cleanup(host, m);
  }
});

test("duration is the play window: launching stops at its end, drops in flight finish on their own", async () => {
  const m = await Mirror.open(host);
  try {
    const t0 = await play(host, { ...RAIN, width: 2, duration: 2000 });
    const packets = [...(await m.take()), ...(await run(host, m, 2000, 100))];
    const window = drops(packets);
    // drops at k x 33.3 ms, k = 0..59, plus at most one on the tick that ends the window
    assert.ok(window.length >= 60 && window.length <= 61, `${window.length} drops in 2 s`);
    const c = await colors(host);
    assert.ok(
      Object.values(c).some((x) => x !== "#000000"),
      "drops still falling",
    );
    const later = await run(host, m, 2000, 100);
    assert.deepEqual(
      later.filter((p) => p.type === PREPARE || p.type === START),
      [],
      "nothing launched, nothing cleared",
    );
    // the last drop left by t0 + 2000 and lasts at most the fall time plus its tail
    assert.ok((await clock(host, 0)) >= t0 + 2000 + 1000 + 2 * 500);
    assert.ok(
      Object.values(await colors(host)).every((x) => x === "#000000"),
      "every drop has ended",
    );
  } finally {
    await cleanup(host, m);
  }
});

test("scene stop and power off stop the spawners", async () => {
  const m = await Mirror.open(host);
  try {
    await play(host, RAIN);
    assert.ok(drops([...(await m.take()), ...(await run(host, m, 500, 100))]).length >= 15);
    assert.equal((await api(host, "POST", "/api/scenes/stop")).status, 202);
    let after = await run(host, m, 2000, 100);
    // drops launched before the stop may share its mirror batch; nothing is prepared after it
    // stop holds the frame (issue 18): animation start(0, 2), nothing else
    let stop = after.findIndex((p) => p.type === START && p.body[0] === 0 && p.body[1] === 2);
    assert.ok(stop >= 0, "stop everything holding the frame");
    assert.equal(after.slice(stop).filter((p) => p.type === 20).length, 0, "no colour set: the frame is held");
    assert.equal(after.slice(stop).filter((p) => p.type === PREPARE).length, 0, "no drop after the stop");

    await play(host, RAIN);
    assert.ok(drops([...(await m.take()), ...(await run(host, m, 500, 100))]).length >= 15);
    assert.equal((await api(host, "POST", "/api/state/power", { isOn: false })).status, 202);
    after = await run(host, m, 2000, 100);
    stop = after.findIndex((p) => p.type === START && p.body[0] === 0 && p.body[1] === 0);
    assert.ok(stop >= 0, "power off: stop and clear everything");
    assert.deepEqual(after[stop + 1], { t: after[stop].t, address: 0, type: 4, body: [0] }, "then off");
    assert.equal(after.slice(stop).filter((p) => p.type === PREPARE).length, 0, "no drop while off");
    assert.equal((await api(host, "POST", "/api/state/power", { isOn: true })).status, 202);
    after = await run(host, m, 1000, 100);
    assert.equal(after.filter((p) => p.type === PREPARE).length, 0, "power on does not resume the rain");
  } finally {
    await cleanup(host, m);
  }
});

test("SPARKLE flashes random targeted panels: instant on, fading over width x 10 ms after a 100 ms flash", async () => {
  const m = await Mirror.open(host);
  try {
    await play(host, { runner: "SPARKLE", color: "#FFD000", waves: 30, width: 20, duration: 0 }, { panels: "leaves" });
    const ds = drops([...(await m.take()), ...(await run(host, m, 10000, 250))]);
    assert.ok(Math.abs(ds.length / 10 - 30) <= 0.5, `rate ${ds.length / 10}`);
    const hit = new Set<number>();
    for (const d of ds) {
      assert.equal(d.pulses.length, 1, "one panel a flash");
      const p = d.pulses[0];
      assert.ok(LEAVES.includes(p.panel), `panel ${p.panel} is targeted`);
      hit.add(p.panel);
      // 100 ms flash + 200 ms fade; fall proportion 255 x 200 / 300
      assert.deepEqual(
        [p.delay, p.duration, p.p0, p.p1, p.from, p.to],
        [0, 300, 0, 170, [0, 0, 0, 0], [0, 255, 208, 0]],
      );
    }
    assert.equal(hit.size, LEAVES.length, "every leaf flashes");
  } finally {
    await cleanup(host, m);
  }
});

test("MATRIX in topology mode falls at one constant speed: the tree's height in `speed` ms", async () => {
  const m = await Mirror.open(host);
  try {
    const step = { runner: "MATRIX", directionality: "topology", color: "#00FF00", waves: 30, width: 1, speed: 1200 };
    await play(host, { ...step, duration: 0 });
    const ds = drops([...(await m.take()), ...(await run(host, m, 5000, 250))]);
    assert.ok(Math.abs(ds.length / 5 - 30) <= 1, `rate ${ds.length / 5}`);
    const lengths = new Set<number>();
    for (const d of ds) {
      lengths.add(d.pulses.length);
      // height 6 rings (depths 0-5): 200 ms a ring whatever the path's length
      for (const p of d.pulses)
        assert.deepEqual([p.delay, p.duration, p.p1], [DEPTH(p.panel) * 200, 400, 128], `panel ${p.panel}`);
    }
    assert.ok(lengths.size > 1, "paths of different lengths");
  } finally {
    await cleanup(host, m);
  }
});

/** A host on a generated 20-panel tree (an embeddable layout), its layout and links. */
async function geometricHost() {
  const h = await startHost({ panels: 20, extraArgs: ["--manual-clock", "--seed", "7"] });
  const layout = (await api(h, "GET", "/api/layout")).body as {
    embedded: boolean;
    panels: Array<{ index: number; x: number; y: number }>;
  };
  assert.equal(layout.embedded, true);
  const edges = (await api(h, "GET", "/api/panels/edges")).body as Array<{ panel: number; connectedPanel: number }>;
  const linked = (a: number, b: number) => edges.some((e) => e.panel === a && e.connectedPanel === b);
  const neighbours = (a: number) =>
    edges.filter((e) => e.panel === a && e.connectedPanel > 0).map((e) => e.connectedPanel);
  const at = (p: number) => layout.panels[p - 1];
  return { h, at, linked, neighbours };
}

test("geometric RAIN follows panel connections downhill along angle, from a top to a bottom", async () => {
  const { h, at, linked, neighbours } = await geometricHost();
  const m = await Mirror.open(h);
  try {
    // angle 270: drops travel towards -y; "height" along the way u = x cos a + y sin a = -y
    const step = { runner: "RAIN", directionality: "geometric", angle: 270, waves: 5, speed: 600, width: 1 };
    await play(h, { ...step, color: "#FFFFFF", duration: 0 }, {}, 8);
    const ds = drops([...(await m.take()), ...(await run(h, m, 4000, 250))]);
    assert.ok(Math.abs(ds.length / 4 - 5) <= 0.5, `rate ${ds.length / 4}`);
    const u = (p: number) => -at(p).y;
    for (const d of ds) {
      const path = [...d.pulses].sort((a, b) => a.delay - b.delay);
      const L = path.length;
      assert.ok(
        neighbours(path[0].panel).every((q) => u(q) >= u(path[0].panel) - 1e-6),
        `drop starts at a top: ${path.map((p) => p.panel)}`,
      );
      assert.ok(
        neighbours(path[L - 1].panel).every((q) => u(q) <= u(path[L - 1].panel) + 1e-6),
        "ends at a bottom",
      );
      path.forEach((p, k) => {
        assert.deepEqual([p.delay, p.duration, p.p1], [Math.round((k * 600) / L), Math.round((2 * 600) / L), 128]);
        if (k > 0) {
          assert.ok(linked(path[k - 1].panel, p.panel), "one-wide streak along connections");
          assert.ok(u(p.panel) > u(path[k - 1].panel), "strictly downhill");
        }
      });
    }
  } finally {
    await cleanup(h, m);
    await h.stop();
  }
});

test("geometric MATRIX draws straight lines along angle at constant speed, dimmer away from the line", async () => {
  const { h, at } = await geometricHost();
  const m = await Mirror.open(h);
  try {
    // angle 90 (the default directionality for MATRIX is geometric): along +y, across = -x
    const step = { runner: "MATRIX", angle: 90, waves: 5, speed: 1000, width: 0, color: "#00FF00" };
    await play(h, { ...step, duration: 0 }, {}, 8);
    const ds = drops([...(await m.take()), ...(await run(h, m, 4000, 250))]);
    assert.ok(Math.abs(ds.length / 4 - 5) <= 0.5, `rate ${ds.length / 4}`);
    const ys = Array.from({ length: 20 }, (_, i) => at(i + 1).y);
    const xs = Array.from({ length: 20 }, (_, i) => at(i + 1).x);
    const uMin = Math.min(...ys);
    const ring = 1000 / (Math.max(...ys) - uMin + 1); // the layout's extent along the axis, in rings
    let dimmed = 0;
    for (const d of ds) {
      for (const p of d.pulses) {
        assert.equal(p.delay, Math.round((at(p.panel).y - uMin) * ring), `panel ${p.panel}: constant speed`);
        assert.equal(p.duration, Math.round(ring));
      }
      // one line: some offset v0 explains every pulse's level, green = (255 x level) >> 8 with
      // level = round((1 - |v - v0|) x 256), v = -x; panels from level 16 on are lit, no others
      const level = (p: Pulse) => (p.to[0] === 0 && p.to[2] === 255 ? 256 : -1);
      const fits = (v0: number) => {
        for (let q = 1; q <= 20; q++) {
          const l = Math.round((1 - Math.abs(-xs[q - 1] - v0)) * 256);
          const pulse = d.pulses.find((p) => p.panel === q);
          const want = Math.abs(-xs[q - 1] - v0) < 1 && l >= 16;
          if (!pulse) {
            if (want) return false;
            continue;
          }
          if (!want) return false;
          const g = level(pulse) === 256 ? 256 : pulse.to[2];
          if (l >= 256 ? g !== 256 && g !== 255 : Math.abs(g - ((255 * l) >> 8)) > 1) return false;
        }
        return true;
      };
      let ok = false;
      for (let v0 = Math.min(...xs.map((x) => -x)) - 1; v0 <= Math.max(...xs.map((x) => -x)) + 1 && !ok; v0 += 0.0005)
        ok = fits(v0);
      assert.ok(ok, `one straight line explains ${JSON.stringify(d.pulses.map((p) => [p.panel, p.to]))}`);
      dimmed += d.pulses.filter((p) => p.to[2] < 255).length;
    }
    assert.ok(dimmed > 0, "panels off the line are dimmer");
  } finally {
    await cleanup(h, m);
    await h.stop();
  }
});

test("a spawner as a flat animation (POST /api/animations/play): drops over its window, above the scene layers", async () => {
  const m = await Mirror.open(host);
  try {
    const flat = async (step: object) => {
      const res = await api(host, "POST", "/api/animations/play", { group: 200, ...step });
      assert.equal(res.status, 202, res.text);
      return clock(host, 0);
    };
    // duration 0: until a stop; 10 drops a second, drop k at k x 100 ms
    await flat({ ...RAIN, waves: 10, width: 2 });
    let ds = drops([...(await m.take()), ...(await run(host, m, 2000, 100))], 200);
    assert.ok(ds.length >= 20 && ds.length <= 21, `${ds.length} drops in 2 s`);
    for (const d of ds) for (const p of d.pulses) assert.deepEqual([p.group, p.layer, p.kind], [200, 8, REAP_PULSE]);
    assert.equal((await api(host, "POST", "/api/scenes/stop")).status, 202);
    await clock(host, 10);
    await m.take();
    assert.equal(drops(await run(host, m, 1000, 100), 200).length, 0, "no drop after the stop");
    // duration 1000: drops at 0, 100, ..., 1000 ms at most, then none
    await flat({ ...RAIN, waves: 10, width: 2, duration: 1000 });
    ds = drops([...(await m.take()), ...(await run(host, m, 3000, 100))], 200);
    assert.ok(ds.length >= 10 && ds.length <= 11, `${ds.length} drops in the 1 s window`);
    // SPARKLE too, on its own panels
    await flat({ runner: "SPARKLE", color: "#FFD000", waves: 10, width: 20, duration: 1000, panels: [4, 6] });
    ds = drops([...(await m.take()), ...(await run(host, m, 1500, 100))], 200);
    assert.ok(ds.length >= 10 && ds.length <= 11, `${ds.length} flashes`);
    assert.ok(ds.every((d) => d.pulses.length === 1 && [4, 6].includes(d.pulses[0].panel)));
  } finally {
    await cleanup(host, m);
  }
});
