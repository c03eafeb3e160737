// Property tests (fast-check): generated valid scenes of every schemaVersion, written with random
// whitespace and sometimes in legacy forms or with an out-of-range speed, are stored and come back
// through GET in canonical form, and are listed with the right layerCount and duration; generated
// invalid scenes (a valid one with one violation) are rejected with 422 naming the path, and the
// library is unchanged.
import { test, after } from "node:test";
import assert from "node:assert/strict";
import fc from "fast-check";
import { startHost, api } from "./helpers/host.js";
import type { Scene } from "./helpers/scenes.js";

const host = await startHost({ panels: 3 });
after(() => host.stop());

const TYPES = ["SOLID", "FADE", "TRANSITION", "BREATHE", "PULSE", "BLINK", "STROBE", "HUE_CYCLE", "REACTIVE"];
const RUNNER_SCHEMA: Record<string, number> = {
  WAVE: 1,
  RIPPLE: 1,
  CHASE: 1,
  WHEEL: 5,
  BOUNCE: 7,
  RAIN: 7,
  SPARKLE: 7,
  MATRIX: 7,
};
const ANIMATES_SCHEMA: Record<string, number> = {
  color: 1,
  dim: 4,
  desaturate: 4,
  hue: 4,
  invert: 4,
  brighten: 6,
  saturate: 6,
};
const BLENDS = ["opaque", "add", "max", "multiply", "screen", "darken", "overlay", "difference", "subtract"];

const byte = fc.integer({ min: 0, max: 255 });
const opt = <T>(a: fc.Arbitrary<T>) => fc.option(a, { nil: undefined });
const hex = fc
  .tuple(fc.integer({ min: 0, max: 0xffffff }), fc.boolean())
  .map(([n, lower]) => "#" + (lower ? n.toString(16) : n.toString(16).toUpperCase()).padStart(6, "0"));
const colorRef = fc.oneof(
  hex,
  fc.record({ r: byte, g: byte, b: byte }, { requiredKeys: [] }),
  fc.record({ palette: byte }),
  fc.record({ useColor: fc.integer({ min: 0, max: 2 }) }),
);
const text = (chars: string[], min: number, max: number) =>
  fc.string({ unit: fc.constantFrom(...chars), minLength: min, maxLength: max });
const sceneName = text(["a", "Z", "0", " ", "_", "-", "é", "漢", "😀", '"', "\\", "/", "\u2028"], 1, 64);
const paletteName = text(["a", "B", " ", "é", "-"], 1, 30);
const panelIndex = fc.integer({ min: 1, max: 254 });
const indices = fc.uniqueArray(panelIndex, { maxLength: 2 });
const fraction = fc.tuple(fc.integer({ min: 0, max: 100 }), fc.integer({ min: 0, max: 100 })).map(([a, b]) => {
  const [lo, hi] = a <= b ? [a, b] : [b, a];
  return `fraction:${lo / 100}-${hi / 100}`;
});
const selectorString = fc.oneof(
  fc.constantFrom("all", "root", "leaves", "branches", "even", "odd"),
  fc.integer({ min: 0, max: 254 }).map((n) => `depth:${n}`),
  fc
    .tuple(fc.integer({ min: 0, max: 20 }), fc.integer({ min: 0, max: 20 }))
    .map(([a, b]) => `depth:${Math.min(a, b)}-${Math.max(a, b)}`),
  panelIndex.map((n) => `subtree:${n}`),
  panelIndex.map((n) => `neighbors:${n}`),
  panelIndex.map((n) => `first:${n}`),
  panelIndex.map((n) => `last:${n}`),
  fraction,
);
/** A selector with objects nested below `level` (at most 4 deep, at most 16 explicit indices). */
function selector(level: number): fc.Arbitrary<unknown> {
  const leaves = [selectorString, indices, fc.record({ exclude: indices })];
  if (level >= 3) return fc.oneof(...leaves);
  const inner = selector(level + 1);
  return fc.oneof(
    ...leaves,
    fc.record({ any: fc.array(inner, { minLength: 1, maxLength: 2 }) }),
    fc.record({ all: fc.array(inner, { minLength: 1, maxLength: 2 }) }),
    fc.record({ not: inner }),
  );
}
const anySelector = selector(0);

function without(o: Scene, keys: string[]): Scene {
  for (const k of keys) delete o[k];
  return o;
}
const clean = (o: Scene) => Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined));

/** A step without duration or id (added per position). */
function step(v: number): fc.Arbitrary<Scene> {
  const animates = fc.constantFrom(...Object.keys(ANIMATES_SCHEMA).filter((a) => ANIMATES_SCHEMA[a] <= v));
  const colorKey = fc.constantFrom("color", "colorTo", "");
  const local = fc
    .record({
      type: fc.constantFrom(...TYPES),
      ck: colorKey,
      c: colorRef,
      colorFrom: opt(colorRef),
      loop: opt(fc.boolean()),
      pingpong: opt(fc.boolean()),
      params: opt(fc.array(byte, { maxLength: 4 })),
      animates: opt(animates),
      from: opt(byte),
      to: opt(byte),
    })
    .map(({ ck, c, ...s }) => {
      if (s.type === "HUE_CYCLE" && s.animates !== undefined) s.animates = "color";
      return clean({ ...s, ...(ck ? { [ck]: c } : {}) });
    });
  const runners = Object.keys(RUNNER_SCHEMA).filter((r) => RUNNER_SCHEMA[r] <= v);
  const runner = fc
    .record({
      runner: fc.constantFrom(...runners),
      ck: colorKey,
      c: colorRef,
      colorFrom: opt(colorRef),
      params: opt(fc.array(byte, { maxLength: 4 })),
      animates: opt(animates),
      amount: opt(byte),
      source: opt(
        fc.oneof(
          fc.constantFrom("root", "leaves", "all"),
          panelIndex.map((n) => `panel:${n}`),
        ),
      ),
      directionality: opt(fc.constantFrom(...(v >= 3 ? ["topology", "geometric"] : ["topology"]))),
      angle: opt(fc.integer({ min: 0, max: 359 })),
      reverse: opt(fc.boolean()),
      waveWidth: opt(byte),
      rippleWidth: opt(byte),
      width: opt(byte),
      count: opt(fc.integer({ min: 1, max: 30 })),
      repeat: opt(fc.boolean()),
      repeatCount: opt(fc.integer({ min: 1, max: 255 })),
      waves: opt(fc.integer({ min: 1, max: 255 })),
      speed: opt(fc.integer({ min: 0, max: 65535 })),
      lines: opt(fc.integer({ min: 1, max: 6 })),
      thickness: opt(fc.integer({ min: 0, max: 359 })),
    })
    .map(({ ck, c, ...s }) => {
      const r = s.runner as string;
      if (!["WAVE", "RIPPLE", "CHASE"].includes(r)) delete s.count;
      if (v < 5 || !["WAVE", "RIPPLE", "CHASE", "BOUNCE"].includes(r)) without(s, ["repeat", "repeatCount"]);
      if (!["RAIN", "SPARKLE", "MATRIX"].includes(r)) without(s, ["waves", "speed"]);
      if (r !== "WHEEL") without(s, ["lines", "thickness"]);
      return clean({ ...s, ...(ck ? { [ck]: c } : {}) });
    });
  const kinds = [local, runner];
  if (v >= 2) kinds.push(fc.constant({}));
  return fc.oneof(...kinds);
}

interface Generated {
  doc: Scene;
  v: number;
}

function scene(v: number): fc.Arbitrary<Generated> {
  const layer = fc.record({
    panels: opt(anySelector),
    blend: opt(fc.constantFrom(...BLENDS)),
    async: opt(fc.constantFrom<boolean | string>(true, false, "loop", "free")),
    palette: opt(paletteName),
    disabled: opt(fc.boolean()),
    fallback: opt(anySelector),
    steps: fc.array(
      fc.record({
        s: step(v),
        duration: fc.integer({ min: 1, max: 65535 }),
        id: fc.boolean(),
      }),
      { minLength: 1, maxLength: 12 },
    ),
    lastInfinite: fc.nat(4).map((n) => n === 0),
    after: fc.integer({ min: -1, max: 7 }),
    afterStep: fc.boolean(),
  });
  return fc
    .record({
      withVersion: fc.boolean(),
      name: sceneName,
      loop: opt(fc.boolean()),
      speed: opt(fc.oneof(fc.double({ min: 0.1, max: 10, noNaN: true }), fc.integer({ min: 1, max: 10 }))),
      colors: opt(fc.record({ primary: hex, secondary: hex, tertiary: hex }, { requiredKeys: [] })),
      background: opt(hex),
      palette: opt(paletteName),
      named: fc.boolean(),
      groupNames: fc.uniqueArray(text(["a", "b", "x", "_", "-", "1", "é", " "], 1, 8), { minLength: 8, maxLength: 8 }),
      groupNumbers: fc.uniqueArray(fc.integer({ min: 1, max: 254 }), { minLength: 8, maxLength: 8 }),
      layers: fc.array(layer, { minLength: 1, maxLength: 8 }),
    })
    .map((g) => {
      const named = g.named && v >= 2;
      const groups = named ? g.groupNames : g.groupNumbers;
      const layers = g.layers.map((l, i) => {
        const sequence = l.steps.map(({ s, duration, id }, k) => {
          const last = k === l.steps.length - 1;
          return { ...(v >= 8 && id ? { id: `s${k}` } : {}), ...s, duration: last && l.lastInfinite ? 0 : duration };
        });
        const out: Scene = { group: groups[i] };
        if (l.panels !== undefined) out.panels = l.panels;
        if (l.blend !== undefined && v >= 4) out.blend = l.blend;
        if (l.async !== undefined) out.async = l.async;
        if (l.palette !== undefined) out.palette = l.palette;
        if (l.disabled !== undefined) out.disabled = l.disabled;
        if (l.fallback !== undefined) out.fallback = l.fallback;
        out.sequence = sequence;
        return out;
      });
      // startAfter only to earlier layers (no cycle), never to an infinite end
      g.layers.forEach((l, i) => {
        if (v < 2 || l.after < 0 || l.after >= i) return;
        const target = layers[l.after].sequence as Scene[];
        const withId = target.filter((st) => st.id !== undefined && st.duration > 0);
        if (v >= 8 && l.afterStep && withId.length > 0) {
          layers[i].startAfter = `${groups[l.after]}:${withId[0].id}`;
        } else if (target[target.length - 1].duration > 0) layers[i].startAfter = groups[l.after];
      });
      const doc: Scene = {};
      if (g.withVersion || v > 1) doc.schemaVersion = v;
      doc.name = g.name;
      if (g.loop !== undefined) doc.loop = g.loop;
      if (g.speed !== undefined) doc.speed = g.speed;
      if (g.colors !== undefined) doc.colors = g.colors;
      if (g.background !== undefined) doc.background = g.background;
      if (g.palette !== undefined) doc.palette = g.palette;
      doc.layers = layers;
      return { doc, v };
    });
}

const anyScene = fc.integer({ min: 1, max: 8 }).chain(scene);

/** JSON with random whitespace between tokens (strings and numbers as JSON.stringify writes them). */
function spaced(value: unknown, seed: number): string {
  let state = seed >>> 0 || 1;
  const ws = () => {
    state = (Math.imul(state, 1103515245) + 12345) >>> 0;
    return ["", "", "", " ", "\n", "\t", "\r\n  ", "  "][state >>> 29];
  };
  const out = (v: unknown): string => {
    if (Array.isArray(v)) return "[" + ws() + v.map((e) => out(e) + ws()).join("," + ws()) + "]";
    if (v !== null && typeof v === "object")
      return (
        "{" +
        ws() +
        Object.entries(v)
          .map(([k, e]) => JSON.stringify(k) + ws() + ":" + ws() + out(e) + ws())
          .join("," + ws()) +
        "}"
      );
    return JSON.stringify(v);
  };
  return ws() + out(value) + ws();
}

/** The scene's list duration by the documented definition (docs/scenes.md). */
function expectedDuration(doc: Scene): number {
  const layers = doc.layers as Scene[];
  const speed = Math.min(10, Math.max(0.1, doc.speed ?? 1));
  const index = (ref: string | number) => layers.findIndex((l) => String(l.group) === String(ref));
  const start = (l: Scene): number => {
    if (l.startAfter === undefined) return 0;
    const ref = String(l.startAfter);
    const colon = ref.indexOf(":");
    const target = layers[index(colon < 0 ? ref : ref.slice(0, colon))];
    if (target.disabled) return 0;
    const seq = target.sequence as Scene[];
    const last = colon < 0 ? seq.length - 1 : seq.findIndex((s) => s.id === ref.slice(colon + 1));
    return start(target) + seq.slice(0, last + 1).reduce((n, s) => n + s.duration, 0);
  };
  let longest = 0;
  let barriers = 0;
  for (const l of layers) {
    if (l.disabled) continue;
    if (l.startAfter === undefined && l.async !== undefined && l.async !== false) continue;
    barriers++;
    const seq = l.sequence as Scene[];
    if (seq[seq.length - 1].duration === 0) return 0;
    longest = Math.max(longest, start(l) + seq.reduce((n, s) => n + s.duration, 0));
  }
  return barriers === 0 ? 0 : Math.round(longest / speed);
}

/** Rewrites the canonical document into legacy forms where it can (same member positions). */
function legacy(doc: Scene, v: number): Scene {
  const copy = JSON.parse(JSON.stringify(doc));
  for (const layer of copy.layers)
    layer.sequence = layer.sequence.map((st: Scene) => {
      if (!st.runner) return st;
      if (typeof st.source === "string" && st.source.startsWith("panel:"))
        return Object.fromEntries(
          Object.entries(st).map(([k, e]) =>
            k === "source" ? ["originPanel", Number((e as string).slice(6))] : [k, e],
          ),
        );
      if (v >= 3 && st.source === "root" && st.directionality === "geometric") return { ...st, source: "geometric" };
      return st;
    });
  return copy;
}

test("generated valid scenes round-trip in canonical form and are listed", async () => {
  await fc.assert(
    fc.asyncProperty(
      anyScene,
      fc.integer(),
      fc.constantFrom("plain", "legacy", "fast", "slow"),
      async ({ doc, v }, seed, variant) => {
        let sent = doc;
        if (variant === "legacy") sent = legacy(doc, v);
        const expected: Scene = JSON.parse(JSON.stringify(doc));
        if (variant === "fast") sent = { ...doc, speed: 10.5 + (seed & 0xff) };
        if (variant === "slow") sent = { ...doc, speed: (seed & 7) / 100 };
        if (variant === "fast" || variant === "slow") expected.speed = variant === "fast" ? 10 : 0.1;
        const post = await api(host, "POST", "/api/scenes", spaced(sent, seed));
        assert.equal(post.status, 200, post.text);
        const id = post.body.id as string;
        assert.match(id, /^[a-z0-9]{8}$/);
        const got = await api(host, "GET", `/api/scenes/${id}`);
        assert.equal(got.status, 200);
        assert.equal(got.text, `{"id":"${id}",` + JSON.stringify(expected).slice(1));
        const list = await api(host, "GET", "/api/scenes");
        assert.deepEqual(list.body, [
          {
            schemaVersion: v,
            id,
            name: doc.name,
            layerCount: doc.layers.length,
            duration: expectedDuration(expected),
          },
        ]);
        assert.equal((await api(host, "DELETE", `/api/scenes/${id}`)).status, 200);
      },
    ),
    { numRuns: 150 },
  );
});

test("legacy geometric source without directionality gains it as the step's last member", async () => {
  const doc = {
    schemaVersion: 3,
    name: "g",
    layers: [{ group: 1, sequence: [{ runner: "WAVE", source: "geometric", duration: 5, angle: 10 }] }],
  };
  const post = await api(host, "POST", "/api/scenes", spaced(doc, 7));
  const got = await api(host, "GET", `/api/scenes/${post.body.id}`);
  assert.equal(
    got.text,
    `{"id":"${post.body.id}","schemaVersion":3,"name":"g","layers":[{"group":1,"sequence":[{"runner":"WAVE","source":"root","duration":5,"angle":10,"directionality":"geometric"}]}]}`,
  );
  await api(host, "DELETE", `/api/scenes/${post.body.id}`);
  // a colour object after the source is the step's member, not where the step ends (decisions.md:
  // round 7 of issue 12 moved the directionality from right after the source to the step's end)
  for (const [given, written] of [
    [', "directionality": "geometric"', ',"directionality":"geometric"'],
    ["", ""],
  ]) {
    const body = `{"schemaVersion":3,"name":"g","layers":[{"group":1,"sequence":[{"runner":"WAVE","source":"geometric","colorTo":{"useColor":2},"duration":5${given}}]}]}`;
    const saved = await api(host, "POST", "/api/scenes", body);
    const back = await api(host, "GET", `/api/scenes/${saved.body.id}`);
    const inserted = written ? "" : ',"directionality":"geometric"';
    assert.equal(
      back.text,
      `{"id":"${saved.body.id}","schemaVersion":3,"name":"g","layers":[{"group":1,"sequence":[{"runner":"WAVE","source":"root","colorTo":{"useColor":2},"duration":5${written}${inserted}}]}]}`,
    );
    await api(host, "DELETE", `/api/scenes/${saved.body.id}`);
  }
});

type Mutation = (doc: Scene, v: number, k: number, m: number) => string | null;

/** One violation each: mutates the document and returns the expected path and rule prefix, or
 * null when it does not apply to this document. k picks a layer, m a step. */
const mutations: Mutation[] = [
  (d) => ((d.name = ""), "name: must be 1-64 characters"),
  (d) => ((d.id = "abcdefgh"), "id: not allowed"),
  (d) => ((d.bogus = 1), "bogus: unknown field"),
  (d) => ((d.schemaVersion = 0), "schemaVersion: must be an integer 1-8"),
  (d) => ((d.speed = "1"), "speed: must be a number"),
  (d) => ((d.background = "#12345G"), "background: must be a colour"),
  (d) => (delete d.layers, "layers: required"),
  (d, v, k) => ((d.layers[k].bogus = true), `layers[${k}].bogus: unknown field`),
  (d, v, k) => ((d.layers[k].group = 0), `layers[${k}].group: group 0 is reserved`),
  (d, v, k) => ((d.layers[k].sequence = []), `layers[${k}].sequence: must be an array of 1-12 steps`),
  (d, v, k) => ((d.layers[k].panels = "nowhere"), `layers[${k}].panels: unknown selector "nowhere"`),
  (d, v, k) => ((d.layers[k].fallback = [0]), `layers[${k}].fallback[0]: must be a panel index`),
  (d, v, k) => ((d.layers[k].async = "never"), `layers[${k}].async: must be a boolean, "loop" or "free"`),
  (d, v, k) => {
    if (k === 0) return null;
    d.layers[k].group = d.layers[0].group;
    return `layers[${k}].group: group`;
  },
  (d, v, k) => {
    if (v < 2) return null;
    d.layers[k].startAfter = d.layers[k].group;
    return `layers[${k}].startAfter: a layer cannot start after itself`;
  },
  (d, v, k, m) => {
    const seq = d.layers[k].sequence;
    const i = m % seq.length;
    seq[i].duration = 65536;
    return `layers[${k}].sequence[${i}].duration: must be an integer 0-65535`;
  },
  (d, v, k, m) => {
    const seq = d.layers[k].sequence;
    if (seq.length < 2) return null;
    const i = m % (seq.length - 1);
    seq[i].duration = 0;
    return `layers[${k}].sequence[${i}].duration: 0 (infinite) is only allowed on the last step`;
  },
  (d, v, k, m) => {
    const seq = d.layers[k].sequence;
    const i = m % seq.length;
    seq[i].bogus = 1;
    return `layers[${k}].sequence[${i}].bogus: unknown field`;
  },
  (d, v, k, m) => {
    const seq = d.layers[k].sequence;
    const i = m % seq.length;
    if (!seq[i].type && !seq[i].runner) return null;
    seq[i].colorFrom = { r: 1, useColor: 1 };
    return `layers[${k}].sequence[${i}].colorFrom: must be a colour`;
  },
  (d, v, k, m) => {
    const seq = d.layers[k].sequence;
    const i = m % seq.length;
    if (!seq[i].type) return null;
    seq[i].runner = "WAVE";
    return `layers[${k}].sequence[${i}].runner: type and runner are mutually exclusive`;
  },
  (d, v, k, m) => {
    const seq = d.layers[k].sequence;
    const i = m % seq.length;
    if (!seq[i].runner) return null;
    seq[i].loop = true;
    return `layers[${k}].sequence[${i}].loop: applies only to panel-local steps`;
  },
];

test("generated invalid scenes are rejected with 422 and the path; the library is unchanged", async () => {
  const before = (await api(host, "GET", "/api/scenes")).text;
  await fc.assert(
    fc.asyncProperty(
      anyScene,
      fc.nat(mutations.length - 1),
      fc.nat(),
      fc.nat(),
      fc.integer(),
      async ({ doc, v }, which, k, m, seed) => {
        const expected = mutations[which](doc, v, k % doc.layers.length, m);
        fc.pre(expected !== null);
        const res = await api(host, "POST", "/api/scenes", spaced(doc, seed));
        assert.equal(res.status, 422, res.text);
        assert.ok(res.body.error.startsWith(expected!), `expected "${expected}...", got ${res.text}`);
        assert.equal((await api(host, "GET", "/api/scenes")).text, before);
      },
    ),
    { numRuns: 200 },
  );
});
