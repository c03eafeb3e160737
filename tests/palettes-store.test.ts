// Custom palettes on disk: they survive a restart with their casing (and so does an appearance using
// one); files damaged while the controller was off are reported (500 naming the palette), left out
// of the list and logged, never taking the service down, and can be replaced or deleted.
import { test, after } from "node:test";
import assert from "node:assert/strict";
import fs from "node:fs";
import path from "node:path";
import { startHost, api, tempDir, type Host } from "./helpers/host.js";
import { Client, T, frame } from "./helpers/frames.js";

const dataDir = tempDir();
let host: Host | null = null;
after(() => host?.stop());

async function restart(): Promise<Host> {
  if (host) await host.stop();
  host = await startHost({ panels: 2, dataDir });
  return host;
}

const enc = encodeURIComponent;
const keyOf = (name: string) =>
  "palettes/" +
  Buffer.from(
    name.replace(/[A-Z]/g, (c) => c.toLowerCase()),
    "utf8",
  ).toString("hex");
const fileOf = (name: string) => path.join(dataDir, keyOf(name));
const doc = (name: string, stops: Array<[number, string]>) => ({ schemaVersion: 1, name, stops });

const MYPAL = doc("MyPal", [
  [0, "#112233"],
  [77, "#445566"],
  [255, "#778899"],
]);
const HEART = doc("Cœur ❤", [[0, "#FF0000"]]);
const KEEP = doc("Keep me", [
  [0, "#000000"],
  [255, "#FFFFFF"],
]);

/** The stops of the set-palette packet in a fresh mirror snapshot (what the panels were last sent). */
async function panelPalette(h: Host): Promise<Array<[number, string]>> {
  const c = await Client.connect(h.wsUrl);
  c.send(frame(T.SET_MIRROR, [1]));
  const p = (await c.next(T.MIRROR_BATCH)).payload;
  c.close();
  let o = 6;
  let last: Buffer | null = null;
  for (let i = 0; i < p.readUInt16LE(4); i++) {
    const size = p[o + 2];
    if (p[o + 1] === 17) last = p.subarray(o + 3, o + 3 + size);
    o += 3 + size;
  }
  assert.ok(last, "the snapshot holds a palette packet");
  assert.equal(last[5] >> 4, 0, "palette slot 0: the look's palette");
  const stops: Array<[number, string]> = [];
  for (let i = 0; i < (last[5] & 0x0f) + 1; i++) {
    const s = last.subarray(6 + i * 4, 10 + i * 4);
    stops.push([s[0], "#" + s.subarray(1).toString("hex").toUpperCase()]);
  }
  return stops;
}

test("palettes and an appearance using one persist across a restart", async () => {
  let h = await restart();
  for (const d of [MYPAL, HEART, KEEP]) assert.equal((await api(h, "POST", "/api/palettes", d)).status, 200);
  assert.equal((await api(h, "PATCH", "/api/appearance", { palette: "mypal", brightness: 100 })).status, 202);
  assert.equal((await api(h, "GET", "/api/appearance")).body.palette, "MyPal");

  h = await restart();
  const list = (await api(h, "GET", "/api/palettes")).body as unknown[];
  assert.deepEqual(list.slice(9), [HEART, KEEP, MYPAL], "sorted by folded name: c < k < m");
  assert.deepEqual((await api(h, "GET", "/api/palettes/MYPAL")).body, MYPAL);
  assert.deepEqual((await api(h, "GET", `/api/palettes/${enc("Cœur ❤")}`)).body, HEART);
  const appearance = (await api(h, "GET", "/api/appearance")).body;
  assert.equal(appearance.palette, "MyPal");
  assert.equal(appearance.brightness, 100);
  assert.deepEqual(await panelPalette(h), MYPAL.stops, "the panels got the custom palette at boot");
  // Files are the canonical documents, one per palette, nothing else (no temp files).
  assert.deepEqual(
    fs.readdirSync(path.join(dataDir, "palettes")).sort(),
    [keyOf("Cœur ❤").slice(9), keyOf("Keep me").slice(9), keyOf("MyPal").slice(9)].sort(),
  );
  assert.equal(fs.readFileSync(fileOf("Cœur ❤"), "utf8"), JSON.stringify(HEART));
});

test("damaged files are reported, skipped and logged; the service keeps running", async () => {
  await host!.stop();
  host = null;
  fs.writeFileSync(fileOf("Cœur ❤"), "\x00\x01garbage{{{");
  fs.writeFileSync(
    fileOf("MyPal"),
    JSON.stringify(
      doc("MyPal", [
        [0, "#112233"],
        [0, "#445566"],
      ]),
    ),
  );
  // Valid documents under the wrong key, too large, or not a palette at all.
  fs.writeFileSync(fileOf("Renamed"), JSON.stringify(doc("Something else", [[0, "#000000"]])));
  fs.writeFileSync(fileOf("Huge"), " ".repeat(2000) + JSON.stringify(doc("Huge", [[0, "#000000"]])));
  fs.writeFileSync(fileOf("Scene"), JSON.stringify({ name: "Scene", layers: [] }));
  fs.writeFileSync(fileOf("Empty"), "");
  fs.mkdirSync(fileOf("Folder")); // unreadable: an I/O error
  fs.writeFileSync(path.join(dataDir, "palettes", "not-hex"), "{}");
  // A hand-written but valid file is accepted and served in canonical form.
  fs.writeFileSync(fileOf("Hand made"), '{ "stops": [ [0, "#abcdef"], [255, "#FEDCBA"] ],\n  "name": "Hand made" }\n');

  const h = await restart();
  const list = (await api(h, "GET", "/api/palettes")).body as Array<{ name: string }>;
  assert.deepEqual(list.slice(9), [
    doc("Hand made", [
      [0, "#ABCDEF"],
      [255, "#FEDCBA"],
    ]),
    KEEP,
  ]);
  for (const name of ["Cœur ❤", "MyPal", "Renamed", "Huge", "Scene", "Empty"]) {
    const res = await api(h, "GET", `/api/palettes/${enc(name)}`);
    assert.deepEqual([res.status, res.body], [500, { error: `stored palette "${name}" is corrupt` }], name);
  }
  const io = await api(h, "GET", "/api/palettes/folder");
  assert.deepEqual([io.status, io.body], [500, { error: 'stored palette "folder" could not be read' }]);
  assert.match(h.output(), /palettes: skipping palettes\/[0-9a-f]+: corrupt/);
  assert.match(h.output(), /palettes: skipping palettes\/not-hex: corrupt/);

  // The appearance's palette was damaged: it falls back to Base colors and keeps the rest.
  const appearance = (await api(h, "GET", "/api/appearance")).body;
  assert.equal(appearance.palette, "Base colors");
  assert.equal(appearance.brightness, 100);
  assert.deepEqual(await panelPalette(h), [
    [0, appearance.baseColors[0]],
    [128, appearance.baseColors[1]],
    [255, appearance.baseColors[2]],
  ]);
  assert.equal((await api(h, "GET", "/api/state")).status, 200);
});

test("a damaged palette's name stays taken; PUT replaces it, DELETE removes it", async () => {
  const h = host!;
  let res = await api(h, "POST", "/api/palettes", doc("mypal", [[0, "#000000"]]));
  assert.deepEqual([res.status, res.body], [409, { error: "name_exists" }]);
  res = await api(h, "PUT", "/api/palettes/mypal", doc("MYPAL", [[0, "#010101"]]));
  assert.deepEqual([res.status, res.body], [200, {}]);
  assert.deepEqual((await api(h, "GET", "/api/palettes/MyPal")).body, doc("MYPAL", [[0, "#010101"]]));
  for (const name of ["Cœur ❤", "Renamed", "Huge", "Scene", "Empty"]) {
    res = await api(h, "DELETE", `/api/palettes/${enc(name)}`);
    assert.equal(res.status, 204, name);
    assert.equal(fs.existsSync(fileOf(name)), false);
  }
  assert.equal((await api(h, "POST", "/api/palettes", HEART)).status, 200);
  const names = ((await api(h, "GET", "/api/palettes")).body as Array<{ name: string }>).slice(9).map((p) => p.name);
  assert.deepEqual(names, ["Cœur ❤", "Hand made", "Keep me", "MYPAL"]);
});

test("64 palettes of the longest names start up and are all listed, a legacy key moved among them", async () => {
  // The list of 64 keys of 249 bytes (16 KB) is read in windows and each file's check is given back
  // before the next: at boot (the legacy keys' move) and for GET /api/palettes, in one page of memory.
  const dir = tempDir();
  fs.mkdirSync(path.join(dir, "palettes"));
  const stops = Array.from({ length: 16 }, (_, i): [number, string] => [
    i * 17,
    `#${(0x102030 + i * 0x10101).toString(16).toUpperCase()}`,
  ]);
  const hex = (s: string) => Buffer.from(s, "utf8").toString("hex");
  const names = Array.from({ length: 63 }, (_, i) => String.fromCodePoint(0x1f600 + i).repeat(30));
  for (const n of names) fs.writeFileSync(path.join(dir, "palettes", hex(n)), JSON.stringify(doc(n, stops)));
  // Stored before names folded beyond ASCII: its key folds the ASCII letters only ("Éclat").
  fs.writeFileSync(path.join(dir, "palettes", hex("Éclat")), JSON.stringify(doc("ÉCLAT", stops)));
  const h = await startHost({ panels: 2, dataDir: dir });
  try {
    const list = (await api(h, "GET", "/api/palettes")).body as Array<{ name: string }>;
    assert.deepEqual(list.slice(9), [doc("ÉCLAT", stops), ...names.map((n) => doc(n, stops))]);
    assert.equal((await api(h, "GET", "/api/palettes/%C3%A9clat")).status, 200, "found in any casing: moved");
    assert.ok(fs.existsSync(path.join(dir, "palettes", hex("éclat"))));
    const res = await api(h, "POST", "/api/palettes", doc("One too many", stops));
    assert.deepEqual([res.status, res.body], [507, { error: "too_many_palettes" }]);
  } finally {
    await h.stop();
  }
});

test("a legacy key whose new key is taken stays where it is, with a warning", async () => {
  const dir = tempDir();
  fs.mkdirSync(path.join(dir, "palettes"));
  const hex = (s: string) => Buffer.from(s, "utf8").toString("hex");
  const legacy = JSON.stringify(doc("ÉCLAT", [[0, "#010203"]]));
  fs.writeFileSync(path.join(dir, "palettes", hex("Éclat")), legacy);
  fs.writeFileSync(path.join(dir, "palettes", hex("éclat")), JSON.stringify(doc("éclat", [[0, "#040506"]])));
  const h = await startHost({ panels: 2, dataDir: dir });
  try {
    await api(h, "GET", "/api/palettes");
    assert.match(h.output(), new RegExp(`palettes: kept palettes/${hex("Éclat")}`));
    assert.equal(fs.readFileSync(path.join(dir, "palettes", hex("Éclat")), "utf8"), legacy);
    assert.deepEqual((await api(h, "GET", "/api/palettes/%C3%89CLAT")).body, doc("éclat", [[0, "#040506"]]));
  } finally {
    await h.stop();
  }
});
