// The compiled form of a stored scene (docs/playback.md, "The compiled form"), black box on emulated
// panels with the manual clock: saving writes `compiled/<id>` beside `scenes/<id>`, and a scene
// plays the same, frame for frame, from its compiled form as from its JSON: when the compiled form
// is missing, of another version, truncated, garbled, made for another file, or crafted with valid
// hashes around values out of range; a scene file rewritten by hand plays what it now says; a plain
// JSON file plays; nothing traps, and DELETE removes both files.
import { test, after } from "node:test";
import assert from "node:assert/strict";
import fs from "node:fs";
import path from "node:path";
import { startHost, api } from "./helpers/host.js";
import { advance, colors } from "./helpers/playback.js";
import { baseScene } from "./helpers/scenes.js";

const host = await startHost({ panels: 12, extraArgs: ["--manual-clock"] });
after(() => host.stop());

const scenesDir = path.join(host.dataDir, "scenes");
const compiledDir = path.join(host.dataDir, "compiled");
const trapped = () => /core trapped/.test(host.output());

/** Every layer and selector form, palettes by name and casing, runners, startAfter, async. */
const rich = {
  schemaVersion: 8,
  name: "rich",
  loop: true,
  speed: 1.25,
  colors: { primary: "#FF0000", secondary: "#00FF00" },
  background: "#000010",
  palette: "Ocean",
  layers: [
    {
      group: "wash",
      panels: { any: ["root", "depth:2-3", [7]] },
      palette: "Sunset",
      blend: "max",
      sequence: [
        { id: "one", type: "FADE", colorFrom: "#000000", colorTo: { palette: 200 }, duration: 300 },
        { type: "BLINK", color: { useColor: 1 }, params: [40, 60], duration: 400 },
      ],
    },
    {
      group: "sweep",
      panels: { all: ["odd", { not: "leaves" }] },
      fallback: "fraction:0.25-0.75",
      startAfter: "wash:one",
      palette: "sunset",
      sequence: [
        { runner: "WAVE", color: { palette: 30 }, duration: 500, count: 2, source: "panel:3" },
        { duration: 100 },
        { type: "SOLID", color: { r: 10, g: 200 }, duration: 200 },
      ],
    },
    {
      group: "edge",
      panels: { exclude: [1, 2, 3] },
      async: "loop",
      palette: "Lava",
      sequence: [
        { runner: "RIPPLE", color: "#FFFFFF", duration: 400, source: "leaves", directionality: "geometric" },
        { type: "BREATHE", colorFrom: "#101010", color: "#8080FF", duration: 350, loop: true },
      ],
    },
    {
      group: "ends",
      panels: "last:3",
      fallback: "neighbors:2",
      blend: "add",
      sequence: [{ type: "PULSE", color: { palette: 90 }, animates: "dim", from: 20, to: 200, duration: 600 }],
    },
    { group: "off", panels: "subtree:2", disabled: true, sequence: [{ type: "SOLID", color: "#FFFFFF", duration: 0 }] },
    { group: "none", panels: [99], fallback: "even", sequence: [{ type: "STROBE", color: "#0000FF", duration: 250 }] },
  ],
};

/** The panels' colours sampled over 2.4 s of a play of scene `id` (then stopped). */
async function trace(id: string): Promise<string[]> {
  const res = await api(host, "POST", `/api/scenes/${id}/play`);
  assert.equal(res.status, 202, res.text);
  await advance(host, 0);
  const out: string[] = [];
  for (let t = 0; t < 2400; t += 60) {
    await advance(host, 60);
    out.push(JSON.stringify(await colors(host)));
  }
  assert.equal((await api(host, "POST", "/api/scenes/stop")).status, 202);
  await advance(host, 0);
  return out;
}

async function save(doc: object): Promise<string> {
  const res = await api(host, "POST", "/api/scenes", doc);
  assert.equal(res.status, 200, res.text);
  return res.body.id;
}

/** playback/form-io.ts hashBytes, 8 bytes at a time: rotl64((h ^ w) * K, 29), continuing `h`. */
function hashBytes(h: bigint, b: Buffer): bigint {
  const M = (1n << 64n) - 1n;
  const step = (w: bigint) => {
    const x = ((h ^ w) * 0x9e3779b97f4a7c15n) & M;
    h = ((x << 29n) | (x >> 35n)) & M;
  };
  let i = 0;
  for (; i + 8 <= b.length; i += 8) step(b.readBigUInt64LE(i));
  for (; i < b.length; i++) step(BigInt(b[i]));
  return h;
}

/** A compiled form with its prefix made valid for `file`: the hash of the file and the rest of the
 * form, folded to 32 bits. */
function sealed(form: Buffer, file: Buffer): Buffer {
  const out = Buffer.from(form);
  const h = hashBytes(hashBytes(0x811c9dc5n, file), out.subarray(5));
  out.writeUInt32LE(Number((h ^ (h >> 32n)) & 0xffffffffn), 1);
  return out;
}

test("saving writes the compiled form; every damaged or foreign one plays exactly as the JSON", async () => {
  const id = await save(rich);
  const form = fs.readFileSync(path.join(compiledDir, id));
  const file = fs.readFileSync(path.join(scenesDir, id));
  assert.equal(form[0], 3, "compiled form version 3");
  assert.deepEqual(sealed(form, file), form, "bound to the scene file by a hash of it and the rest of the form");
  const reference = await trace(id);
  assert.ok(new Set(reference).size > 10, "the trace changes over time");

  const other = fs.readFileSync(path.join(compiledDir, await save(baseScene())));
  const damaged: Array<[string, Buffer | null]> = [
    ["missing (a file of an older firmware)", null],
    ["another version", Buffer.concat([Buffer.from([1]), form.subarray(1)])],
    ["one byte changed", Buffer.from(form.map((b, i) => (i === form.length - 20 ? b ^ 0x10 : b)))],
    ["truncated", form.subarray(0, form.length - 7)],
    ["only a prefix", form.subarray(0, 5)],
    ["empty", Buffer.alloc(0)],
    ["garbage", Buffer.from("garbage, not a compiled scene at all")],
    ["another scene's", other],
  ];
  for (const [what, bytes] of damaged) {
    if (bytes === null) fs.rmSync(path.join(compiledDir, id));
    else fs.writeFileSync(path.join(compiledDir, id), bytes);
    assert.deepEqual(await trace(id), reference, what);
    assert.ok(!trapped(), host.output());
  }
  // saving again writes it again
  assert.equal((await api(host, "PATCH", `/api/scenes/${id}`, rich)).status, 200);
  assert.deepEqual(fs.readFileSync(path.join(compiledDir, id)), form);
  assert.deepEqual(await trace(id), reference);
});

test("a scene file rewritten by hand plays what it says, not its old compiled form", async () => {
  const a = await save(rich);
  // (no spawner: their drops are random, so two plays differ)
  const b = await save({ ...rich, name: "other", background: "#100000", layers: rich.layers.slice(2).reverse() });
  const traceB = await trace(b);
  // scene a's file now holds scene b's (as copied from a backup); a's compiled form stays
  fs.copyFileSync(path.join(scenesDir, b), path.join(scenesDir, a));
  assert.deepEqual(await trace(a), traceB);
  // and a plain JSON file, as written before summary headers, plays like the same scene saved
  fs.writeFileSync(path.join(scenesDir, a), JSON.stringify(rich, null, 2));
  assert.deepEqual(await trace(a), await trace(await save(rich)));
  assert.ok(!trapped(), host.output());
});

test("crafted compiled forms with valid hashes never trap: what would index a table is refused", async () => {
  // one layer of one step, as tagged items (playback/compile.ts): 5 prefix bytes; 5 T_LAYER; 6-8
  // L_GROUP 1, no name; 9-25 L_STEP: duration (10-11), the record (12-25: its head, animates and
  // blend at 13, colorFrom at 14); 26-27 L_PANELS all; 28 L_END; 29 T_END; then the image (30-149):
  // the scene's 40 bytes, then per layer blend (62), async mode (70), disabled (78), startAfter's
  // layer (i32, 86) and step (i32, 118)
  const simple = {
    name: "simple",
    layers: [{ group: 1, sequence: [{ type: "SOLID", color: "#00FF00", duration: 0 }] }],
  };
  const id = await save(simple);
  const reference = await trace(id);
  const form = fs.readFileSync(path.join(compiledDir, id));
  const file = fs.readFileSync(path.join(scenesDir, id));
  assert.equal(form.length, 150);
  assert.deepEqual([...form.subarray(5, 10)], [6, 7, 1, 0, 14]);
  assert.deepEqual([...form.subarray(26, 30)], [11, 0, 15, 0]);
  assert.equal(form.readDoubleLE(30), 1, "the speed");
  assert.deepEqual([form.readInt32LE(30 + 56), form.readInt32LE(30 + 88)], [-1, -1], "no startAfter");
  const crafted = (at: number, value: number, to = file) =>
    sealed(Buffer.from(form.map((b, i) => (i === at ? value : b))), to);
  const image = form.subarray(30);
  const items = (...parts: Array<Buffer | number[]>) =>
    sealed(Buffer.concat([form.subarray(0, 5), ...parts.map((p) => Buffer.from(p))]), file);
  const withAfter = (layer: number, step: number) => {
    const b = Buffer.from(image);
    b.writeInt32LE(layer, 56);
    b.writeInt32LE(step, 88);
    return b;
  };
  const layer = form.subarray(5, 9);
  const step = form.subarray(9, 26);
  const rest = form.subarray(26, 29);
  // what would index a table out of range is refused: the scene plays from its JSON
  const refused: Array<[string, Buffer]> = [
    ["9 layers", items(...new Array(9).fill([6, 11, 0, 15]), [0], image)],
    ["startAfter a layer that does not exist", items(layer, step, rest, [0], withAfter(4, -1))],
    ["startAfter a step that does not exist", items(layer, step, rest, [0], withAfter(0, 12))],
    ["13 steps", items(layer, ...new Array(13).fill(step), rest, [0], image)],
    ["an unknown selector", crafted(27, 40)],
    ["an unknown item", crafted(5, 40)],
    ["a step outside a layer", items(step, [0], image)],
    ["no end", items(layer, step, rest)],
    ["the image cut short", items(layer, step, rest, [0], image.subarray(0, 100))],
  ];
  for (const [what, bytes] of refused) {
    fs.writeFileSync(path.join(compiledDir, id), bytes);
    assert.deepEqual(await trace(id), reference, what);
    assert.ok(!trapped(), `${what}: ${host.output()}`);
  }
  // the image is what plays: the layer disabled there plays nothing
  fs.writeFileSync(path.join(compiledDir, id), crafted(30 + 48, 1));
  assert.notDeepEqual(await trace(id), reference, "disabled in the image");
  // a form of another version (2: saved before round 7 of issue 12), whole and bound to its file, is
  // not read: the scene plays from its JSON. Its image disables the layer, so a form read in spite of
  // its version would play nothing (the version byte is outside the hash: only the version refuses it)
  const v2 = crafted(30 + 48, 1);
  v2[0] = 2;
  fs.writeFileSync(path.join(compiledDir, id), v2);
  assert.deepEqual(await trace(id), reference, "version 2");
  // the same bytes as version 3 are read: the version byte alone refused them
  v2[0] = 3;
  fs.writeFileSync(path.join(compiledDir, id), v2);
  assert.notDeepEqual(await trace(id), reference, "the same form as version 3");
  assert.ok(!trapped(), host.output());
  // other odd values play as they are: nothing traps
  const odd: Array<[string, Buffer]> = [
    ["async mode 3", crafted(30 + 40, 3)],
    ["an animates target past the table", crafted(13, 0x0f)],
    ["a blend past the table", crafted(30 + 32, 15)],
    ["a colour reference of kind 7", crafted(14, 7)],
    ["a palette position", crafted(14, 1)],
  ];
  for (const [what, bytes] of odd) {
    fs.writeFileSync(path.join(compiledDir, id), bytes);
    assert.equal((await trace(id)).length, reference.length, what);
    assert.ok(!trapped(), `${what}: ${host.output()}`);
  }
  // with a scene file that no longer validates either, the play is refused as such a file always was
  const invalid = Buffer.from('{"layers":[]}');
  fs.writeFileSync(path.join(scenesDir, id), invalid);
  fs.writeFileSync(path.join(compiledDir, id), crafted(5, 40, invalid));
  const before = host.output().length;
  assert.equal((await api(host, "POST", `/api/scenes/${id}/play`)).status, 202);
  await advance(host, 0);
  assert.match(host.output().slice(before), new RegExp(`playback: scene ${id} cannot be played`));
  assert.equal((await api(host, "GET", "/api/state")).body.playing, false);
  assert.ok(!trapped(), host.output());
});

test("fraction bounds a few ulps off their decimal (forms saved before round 6 of issue 12) select the same panels", async () => {
  // 0.25 and 0.75 of 12 panels land on whole positions, where an ulp could tip the ceiling
  const id = await save({
    name: "fractions",
    layers: [{ group: 1, panels: "fraction:0.25-0.75", sequence: [{ type: "SOLID", color: "#00FF00", duration: 0 }] }],
  });
  const reference = await trace(id);
  assert.equal(Object.values(JSON.parse(reference[1])).filter((c) => c === "#00FF00").length, 6, reference[1]);
  const form = fs.readFileSync(path.join(compiledDir, id));
  const file = fs.readFileSync(path.join(scenesDir, id));
  const bounds = Buffer.alloc(16);
  bounds.writeDoubleLE(0.25, 0);
  bounds.writeDoubleLE(0.75, 8);
  const at = form.indexOf(bounds);
  assert.ok(at > 0, "the bounds are the nearest doubles");
  const off = (x: number, ulps: number) => {
    const b = Buffer.alloc(8);
    b.writeDoubleLE(x);
    b.writeBigUInt64LE(b.readBigUInt64LE() + BigInt(ulps));
    return b.readDoubleLE();
  };
  for (const ulps of [-3, -1, 1, 3]) {
    const bytes = Buffer.from(form);
    bytes.writeDoubleLE(off(0.25, ulps), at);
    bytes.writeDoubleLE(off(0.75, ulps), at + 8);
    fs.writeFileSync(path.join(compiledDir, id), sealed(bytes, file));
    assert.deepEqual(await trace(id), reference, `${ulps} ulps`);
  }
});

test("a one-shot play writes the hidden scene's compiled form; DELETE removes both files", async () => {
  assert.equal((await api(host, "POST", "/api/scenes/play/one-shot", rich)).status, 202);
  await advance(host, 0);
  assert.ok(fs.existsSync(path.join(compiledDir, "oneshot000")));
  const id = await save(rich);
  assert.ok(fs.existsSync(path.join(compiledDir, id)));
  assert.equal((await api(host, "DELETE", `/api/scenes/${id}`)).status, 200);
  assert.equal(fs.existsSync(path.join(scenesDir, id)), false);
  assert.equal(fs.existsSync(path.join(compiledDir, id)), false);
  assert.equal((await api(host, "POST", `/api/scenes/${id}/play`)).status, 404);
});
