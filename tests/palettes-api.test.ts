// The palette endpoints through HTTP: listing, lookup by URL-encoded name in any casing, create,
// update, delete, the protected built-ins and Base colors, safe storage keys, the custom palette
// limit, and the appearance using (and losing) a custom palette, seen on the panel bus mirror.
import { test, after } from "node:test";
import assert from "node:assert/strict";
import fs from "node:fs";
import path from "node:path";
import { crc8 } from "crc";
import { startHost, api, waitFor, tempDir } from "./helpers/host.js";
import { Client, T, frame, type Frame } from "./helpers/frames.js";

const host = await startHost({ panels: 3 });
after(() => host.stop());

const BUILTINS = ["Rainbow", "Lava", "Ocean", "Forest", "Party", "Sunset", "Aurora", "Embers"];
const RED = "#FF0000";
const BLUE = "#0000FF";
const enc = encodeURIComponent;

function doc(
  name: string,
  stops: Array<[number, string]> = [
    [0, RED],
    [255, BLUE],
  ],
) {
  return { schemaVersion: 1, name, stops };
}

async function create(name: string, stops?: Array<[number, string]>): Promise<void> {
  const res = await api(host, "POST", "/api/palettes", doc(name, stops));
  assert.equal(res.status, 200, `create ${name}: ${res.text}`);
  assert.deepEqual(res.body, { name });
}

async function remove(name: string): Promise<void> {
  const res = await api(host, "DELETE", `/api/palettes/${enc(name)}`);
  assert.equal(res.status, 204, `delete ${name}: ${res.text}`);
}

async function customNames(): Promise<string[]> {
  const res = await api(host, "GET", "/api/palettes");
  assert.equal(res.status, 200);
  return (res.body as Array<{ name: string }>).slice(1 + BUILTINS.length).map((p) => p.name);
}

/** The store key of a palette name: hex of the UTF-8 bytes with ASCII letters folded. */
function keyOf(name: string): string {
  return (
    "palettes/" +
    Buffer.from(
      name.replace(/[A-Z]/g, (c) => c.toLowerCase()),
      "utf8",
    ).toString("hex")
  );
}

// ---- bus mirror -------------------------------------------------------------------------------

interface BusRecord {
  address: number;
  type: number;
  bytes: Buffer;
}

function records(f: Frame): BusRecord[] {
  const p = f.payload;
  const count = p.readUInt16LE(4);
  const out: BusRecord[] = [];
  let o = 6;
  for (let i = 0; i < count; i++) {
    const size = p[o + 2];
    out.push({ address: p[o], type: p[o + 1], bytes: p.subarray(o + 3, o + 3 + size) });
    o += 3 + size;
  }
  assert.equal(o, p.length, "records fill the batch");
  return out;
}

/** Stops of a set-palette packet (type 17, 70 bytes), checking its header, CRC and unused slots. */
function paletteStops(r: BusRecord): Array<[number, string]> {
  const b = r.bytes;
  assert.equal(b.length, 70);
  assert.deepEqual([b[0], b[1], b[2], b[3]], [0, 17, 70, 6]);
  assert.equal(b[4], crc8(Buffer.concat([b.subarray(0, 4), b.subarray(5)])), "CRC-8/SMBUS");
  assert.equal(b[5] >> 4, 0, "palette slot 0: the look's palette");
  const n = (b[5] & 0x0f) + 1; // count - 1 in the low nibble
  const stops: Array<[number, string]> = [];
  for (let i = 0; i < 16; i++) {
    const s = b.subarray(6 + i * 4, 10 + i * 4);
    if (i < n) stops.push([s[0], "#" + s.subarray(1).toString("hex").toUpperCase()]);
    else assert.deepEqual([...s], [0, 0, 0, 0], "unused stop slots are zero");
  }
  return stops;
}

/** Mirror batches up to and including the first one holding a packet of `type`; returns all records. */
async function until(c: Client, type: number): Promise<BusRecord[]> {
  const seen: BusRecord[] = [];
  for (;;) {
    const rs = records(await c.next(T.MIRROR_BATCH));
    seen.push(...rs);
    if (rs.some((r) => r.type === type)) return seen;
  }
}

async function mirror(): Promise<Client> {
  const c = await Client.connect(host.wsUrl);
  c.send(frame(T.SET_MIRROR, [1]));
  await c.next(T.MIRROR_BATCH); // the snapshot
  return c;
}

// ---- tests ------------------------------------------------------------------------------------

test("GET /api/palettes: Base colors from the appearance, then the built-ins", async () => {
  const res = await api(host, "GET", "/api/palettes");
  assert.equal(res.status, 200);
  assert.match(res.headers.get("content-type") ?? "", /application\/json/);
  const list = res.body as Array<{ schemaVersion: number; name: string; stops: Array<[number, string]> }>;
  assert.deepEqual(
    list.map((p) => p.name),
    ["Base colors", ...BUILTINS, ...(await customNames())],
  );
  assert.deepEqual(list[0], {
    schemaVersion: 1,
    name: "Base colors",
    stops: [
      [0, "#FFFFFF"],
      [128, "#000000"],
      [255, "#000000"],
    ],
  });
  for (const p of list) {
    assert.deepEqual(Object.keys(p), ["schemaVersion", "name", "stops"]);
    assert.equal(p.schemaVersion, 1);
    assert.equal(p.stops[0][0], 0);
    assert.equal(p.stops[p.stops.length - 1][0], 255);
    for (let i = 1; i < p.stops.length; i++) assert.ok(p.stops[i][0] > p.stops[i - 1][0]);
    for (const [, c] of p.stops) assert.match(c, /^#[0-9A-F]{6}$/);
  }
});

test("Base colors follows the appearance base colours", async () => {
  const colors = ["#102030", "#405060", "#708090"];
  assert.equal((await api(host, "PATCH", "/api/appearance", { baseColors: colors })).status, 202);
  const expected = { schemaVersion: 1, name: "Base colors", stops: [0, 128, 255].map((p, i) => [p, colors[i]]) };
  await waitFor(async () => (await api(host, "GET", "/api/palettes")).body[0].stops[0][1] === colors[0]);
  assert.deepEqual((await api(host, "GET", "/api/palettes")).body[0], expected);
  assert.deepEqual((await api(host, "GET", "/api/palettes/Base%20colors")).body, expected);
  assert.deepEqual((await api(host, "GET", "/api/palettes/BASE%20COLORS")).body, expected);
  assert.equal(
    (await api(host, "PATCH", "/api/appearance", { baseColors: ["#FFFFFF", "#000000", "#000000"] })).status,
    202,
  );
});

test("GET /api/palettes/{name}: built-ins in any casing, 404 for unknown names", async () => {
  const all = (await api(host, "GET", "/api/palettes")).body as Array<{ name: string }>;
  for (const name of BUILTINS) {
    for (const asked of [name, name.toLowerCase(), name.toUpperCase()]) {
      const res = await api(host, "GET", `/api/palettes/${asked}`);
      assert.equal(res.status, 200);
      assert.deepEqual(
        res.body,
        all.find((p) => p.name === name),
      );
    }
  }
  for (const missing of ["Nope", "Rainbow2", "Base", "Base%20colors%20", "x".repeat(40), "%F0%9F%98%80".repeat(31)]) {
    const res = await api(host, "GET", `/api/palettes/${missing}`);
    assert.deepEqual([res.status, res.body], [404, { error: "not_found" }], missing);
  }
});

test("POST creates; names are unique case-insensitively and keep their casing", async () => {
  await create("MyPal");
  for (const taken of ["MyPal", "mypal", "MYPAL", "rainbow", "LAVA", "Embers", "Base colors", "base COLORS"]) {
    const res = await api(host, "POST", "/api/palettes", doc(taken));
    assert.deepEqual([res.status, res.body], [409, { error: "name_exists" }], taken);
  }
  for (const asked of ["MyPal", "mypal", "MYPAL", "myPAL"]) {
    const res = await api(host, "GET", `/api/palettes/${asked}`);
    assert.equal(res.status, 200);
    assert.deepEqual(res.body, doc("MyPal"));
  }
  // One file, under the key of the folded name, holding the canonical document.
  const file = path.join(host.dataDir, keyOf("MyPal"));
  assert.equal(keyOf("MyPal"), "palettes/6d7970616c");
  assert.equal(
    fs.readFileSync(file, "utf8"),
    '{"schemaVersion":1,"name":"MyPal","stops":[[0,"#FF0000"],[255,"#0000FF"]]}',
  );
  await remove("mypal");
  assert.equal(fs.existsSync(file), false);
});

test("custom palettes are listed after the built-ins, sorted by case-folded name", async () => {
  const names = ["zeta", "Alpha", "Émile", "beta", "Beta2", "10 dots", "_under"];
  for (const n of names) await create(n);
  // Folded: "_" (0x5F) sorts before every letter, as "a" (0x61) does not before "_" unfolded ("A" is 0x41).
  assert.deepEqual(await customNames(), ["10 dots", "_under", "Alpha", "beta", "Beta2", "zeta", "Émile"]);
  for (const n of names) await remove(n);
  assert.deepEqual(await customNames(), []);
});

test("PUT updates only the stops; the name must match the path", async () => {
  await create("MyPal");
  const newStops: Array<[number, string]> = [
    [0, "#000000"],
    [100, "#123456"],
    [255, "#FFFFFF"],
  ];
  let res = await api(host, "PUT", "/api/palettes/mypal", doc("MYPAL", newStops));
  assert.deepEqual([res.status, res.body], [200, {}]);
  assert.deepEqual((await api(host, "GET", "/api/palettes/MyPal")).body, doc("MyPal", newStops), "casing kept");

  res = await api(host, "PUT", "/api/palettes/MyPal", doc("Other", newStops));
  assert.deepEqual([res.status, res.body], [422, { error: 'name: must equal the palette name in the path ("MyPal")' }]);
  res = await api(host, "PUT", "/api/palettes/MyPal", "{not json");
  assert.deepEqual(
    [res.status, res.body],
    [400, { error: "invalid_json", offset: 1, reason: "expected a member name in double quotes" }],
  );
  res = await api(host, "PUT", "/api/palettes/Unknown", doc("Unknown"));
  assert.deepEqual([res.status, res.body], [404, { error: "not_found" }]);
  res = await api(host, "PUT", "/api/palettes/Unknown", "{not json");
  assert.deepEqual([res.status, res.body], [404, { error: "not_found" }], "the target is checked first");
  assert.deepEqual((await api(host, "GET", "/api/palettes/MyPal")).body, doc("MyPal", newStops), "unchanged");
  await remove("MyPal");
});

test("built-ins and Base colors cannot be overwritten or deleted (403)", async () => {
  for (const name of BUILTINS) {
    for (const asked of [name, name.toLowerCase()]) {
      let res = await api(host, "PUT", `/api/palettes/${asked}`, doc(name));
      assert.equal(res.status, 403);
      assert.deepEqual(res.body, { error: `palette "${name}" is built in and cannot be changed` });
      res = await api(host, "DELETE", `/api/palettes/${asked}`);
      assert.equal(res.status, 403);
      assert.deepEqual(res.body, { error: `palette "${name}" is built in and cannot be deleted` });
    }
  }
  for (const asked of ["Base%20colors", "base%20COLORS"]) {
    let res = await api(host, "PUT", `/api/palettes/${asked}`, doc("Base colors"));
    assert.equal(res.status, 403);
    assert.deepEqual(res.body, {
      error: `palette "Base colors" is synthesized from the appearance base colours and cannot be changed`,
    });
    res = await api(host, "DELETE", `/api/palettes/${asked}`);
    assert.equal(res.status, 403);
    assert.deepEqual(res.body, {
      error: `palette "Base colors" is synthesized from the appearance base colours and cannot be deleted`,
    });
  }
  const list = (await api(host, "GET", "/api/palettes")).body as Array<{ name: string }>;
  assert.deepEqual(
    list.slice(0, 9).map((p) => p.name),
    ["Base colors", ...BUILTINS],
  );
});

test("DELETE answers 204 with an empty body, then 404", async () => {
  await create("Gone soon");
  const res = await api(host, "DELETE", "/api/palettes/Gone%20soon");
  assert.equal(res.status, 204);
  assert.equal(res.text, "");
  const again = await api(host, "DELETE", "/api/palettes/Gone%20soon");
  assert.deepEqual([again.status, again.body], [404, { error: "not_found" }]);
  assert.equal((await api(host, "GET", "/api/palettes/Gone%20soon")).status, 404);
  assert.equal((await api(host, "DELETE", "/api/palettes/Never")).status, 404);
});

test("methods and shapes outside the library: 405 and 404", async () => {
  for (const [method, p] of [
    ["PATCH", "/api/palettes"],
    ["DELETE", "/api/palettes"],
    ["PUT", "/api/palettes"],
    ["POST", "/api/palettes/Rainbow"],
    ["PATCH", "/api/palettes/Rainbow"],
  ]) {
    const res = await api(host, method, p, {});
    assert.deepEqual([res.status, res.body], [405, { error: "method_not_allowed" }], `${method} ${p}`);
  }
  for (const p of ["/api/palettes/Rainbow/stops", "/api/palettes/a/b/c", "/api/palettes//"]) {
    const res = await api(host, "GET", p);
    assert.deepEqual([res.status, res.body], [404, { error: "not_found" }], p);
  }
  const head = await api(host, "HEAD", "/api/palettes/Rainbow");
  assert.equal(head.status, 200);
  assert.equal((await api(host, "GET", "/api/palettes/Ocean?x=1")).body.name, "Ocean", "query ignored");
  assert.equal((await api(host, "GET", "/api/palettes/")).status, 200, "trailing slash");
});

test("URL-encoded names: spaces, non-ASCII, reserved characters; bad encodings are 404", async () => {
  const names = ["Cœur ❤", "a+b", "a/b", "50% off", "x?y#z", "😀 smile", "dots..and..more"];
  for (const n of names) await create(n);
  for (const n of names) {
    const res = await api(host, "GET", `/api/palettes/${enc(n)}`);
    assert.deepEqual([res.status, res.body], [200, doc(n)], n);
  }
  // Lower-case hex digits decode too; "+" is a plus sign in a path, not a space.
  assert.equal((await api(host, "GET", "/api/palettes/C%c5%93ur%20%e2%9d%a4")).body.name, "Cœur ❤");
  assert.equal((await api(host, "GET", "/api/palettes/a+b")).body.name, "a+b");
  assert.equal((await api(host, "GET", "/api/palettes/a%2Bb")).body.name, "a+b");
  const put = await api(host, "PUT", `/api/palettes/${enc("Cœur ❤")}`, doc("Cœur ❤", [[0, "#00FF00"]]));
  assert.deepEqual([put.status, put.body], [200, {}]);
  assert.deepEqual((await api(host, "GET", `/api/palettes/${enc("Cœur ❤")}`)).body, doc("Cœur ❤", [[0, "#00FF00"]]));
  // Case folds beyond ASCII (Latin, Greek, Cyrillic...: docs/decisions.md): Œ and œ are one letter.
  assert.equal((await api(host, "GET", `/api/palettes/${enc("CŒUR ❤")}`)).body.name, "Cœur ❤");
  assert.equal((await api(host, "GET", `/api/palettes/${enc("cœur ❤")}`)).status, 200);
  for (const bad of ["%", "%2", "a%zz", "%C5", "%C0%80", "%ED%A0%80", "%F4%90%80%80", "%FF"]) {
    for (const method of ["GET", "PUT", "DELETE"]) {
      const res = await api(host, method, `/api/palettes/${bad}`, method === "PUT" ? doc("x") : undefined);
      assert.deepEqual([res.status, res.body], [404, { error: "not_found" }], `${method} ${bad}`);
    }
  }
  for (const n of names) await remove(n);
});

test("names are unique under Unicode simple case folding (Latin, Greek, Cyrillic, Armenian); other scripts compare exactly", async () => {
  const pairs: [string, string][] = [
    ["Äpfel", "äpfel"],
    ["ΣΑΣ", "σας"], // final sigma folds to σ
    ["ПРИВЕТ", "привет"],
    ["ŁÓDŹ", "łódź"],
    ["ẞtraße", "ßtraße"],
    ["ԱՐԵՎ", "արեվ"],
    ["ＡＢＣ", "ａｂｃ"],
    ["KELVIN", "kelvin"], // the Kelvin sign
  ];
  for (const [a, b] of pairs) {
    assert.equal((await api(host, "POST", "/api/palettes", doc(a))).status, 200, a);
    const clash = await api(host, "POST", "/api/palettes", doc(b));
    assert.deepEqual([clash.status, clash.body], [409, { error: "name_exists" }], `${a} / ${b}`);
    const got = await api(host, "GET", `/api/palettes/${enc(b)}`);
    assert.equal(got.body.name, a, "found by the other casing, kept as created");
    const put = await api(host, "PUT", `/api/palettes/${enc(b)}`, doc(b, [[0, "#123456"]]));
    assert.equal(put.status, 200);
    assert.equal((await api(host, "GET", `/api/palettes/${enc(a)}`)).body.name, a, "the name keeps its casing");
  }
  // outside the folded blocks (Latin Extended-B, Georgian): different names
  for (const n of ["Ǆ x", "ǆ x", "Ⴀ", "ⴀ"])
    assert.equal((await api(host, "POST", "/api/palettes", doc(n))).status, 200, n);
  for (const n of [...pairs.map(([, b]) => b), "Ǆ x", "ǆ x", "Ⴀ", "ⴀ"])
    assert.equal((await api(host, "DELETE", `/api/palettes/${enc(n)}`)).status, 204, n);
});

test("a palette stored before names folded beyond ASCII is moved to its key at boot", async () => {
  // files under the key of the ASCII-only fold: hex of the name with only its ASCII letters lowered
  const legacy = (name: string) =>
    "palettes/" + Buffer.from(name.replace(/[A-Z]/g, (c) => c.toLowerCase())).toString("hex");
  const dir = tempDir();
  fs.mkdirSync(path.join(dir, "palettes"));
  for (const name of ["ÄPFEL", "ΣΑΣ"])
    fs.writeFileSync(path.join(dir, legacy(name)), JSON.stringify({ schemaVersion: 1, name, stops: [[0, "#FF0000"]] }));
  const old = await startHost({ panels: 1, dataDir: dir });
  try {
    assert.equal((await api(old, "GET", `/api/palettes/${enc("äpfel")}`)).body.name, "ÄPFEL");
    assert.equal((await api(old, "GET", `/api/palettes/${enc("σας")}`)).body.name, "ΣΑΣ");
    assert.equal((await api(old, "POST", "/api/palettes", doc("äpfel"))).status, 409);
    assert.equal(fs.existsSync(path.join(dir, legacy("ÄPFEL"))), false, "moved");
    const list = (await api(old, "GET", "/api/palettes")).body as { name: string }[];
    assert.equal(list.filter((p) => p.name === "ÄPFEL").length, 1, "listed once");
    assert.equal((await api(old, "DELETE", `/api/palettes/${enc("äpfel")}`)).status, 204);
    assert.equal((await api(old, "GET", `/api/palettes/${enc("ÄPFEL")}`)).status, 404);
  } finally {
    await old.stop();
  }
});

test("names cannot reach outside the palette store", async () => {
  const appearanceBefore = fs.readFileSync(path.join(host.dataDir, "appearance"), "utf8");
  for (const p of ["..%2F..%2Fetc", "..%2F..%2Fetc%2Fpasswd", "..%2Fappearance", "%2E%2E", "..", "%2Fetc%2Fpasswd"]) {
    for (const method of ["GET", "DELETE", "PUT"]) {
      const res = await api(host, method, `/api/palettes/${p}`, method === "PUT" ? doc("x") : undefined);
      assert.equal(res.status, 404, `${method} ${p}`);
    }
  }
  // Such names are ordinary names: stored under a hex key inside palettes/.
  for (const n of ["../appearance", "../../etc/passwd", "..."]) await create(n);
  const files = fs.readdirSync(path.join(host.dataDir, "palettes")).sort();
  assert.deepEqual(files, ["../appearance", "../../etc/passwd", "..."].map((n) => keyOf(n).slice(9)).sort());
  for (const f of files) assert.match(f, /^[0-9a-f]+$/);
  assert.equal(fs.readFileSync(path.join(host.dataDir, "appearance"), "utf8"), appearanceBefore);
  assert.equal((await api(host, "GET", `/api/palettes/${enc("../appearance")}`)).body.name, "../appearance");
  for (const n of ["../appearance", "../../etc/passwd", "..."]) await remove(n);
  assert.equal((await api(host, "GET", "/api/appearance")).status, 200);
});

test("the appearance can use a custom palette; updates reach the panels; deleting it falls back", async () => {
  const c = await mirror();
  const stops: Array<[number, string]> = [
    [0, "#010203"],
    [64, "#A0B0C0"],
    [255, "#FEDCBA"],
  ];
  await create("Mood", stops);
  let res = await api(host, "PATCH", "/api/appearance", { palette: "mood" });
  assert.deepEqual([res.status, res.body], [202, {}]);
  let seen = await until(c, 17);
  assert.deepEqual(paletteStops(seen.filter((r) => r.type === 17).pop()!), stops);
  assert.equal((await api(host, "GET", "/api/appearance")).body.palette, "Mood", "stored casing");

  // PUT of the active palette: the panels get the new stops on the next tick.
  const newStops: Array<[number, string]> = [[0, "#00FF00"]];
  res = await api(host, "PUT", "/api/palettes/MOOD", doc("Mood", newStops));
  assert.deepEqual([res.status, res.body], [200, {}]);
  seen = await until(c, 17);
  assert.deepEqual(paletteStops(seen.filter((r) => r.type === 17).pop()!), newStops);

  // PUT of another palette sends nothing to the panels.
  await create("Idle");
  assert.equal((await api(host, "PUT", "/api/palettes/Idle", doc("Idle", [[0, "#111111"]]))).status, 200);
  assert.equal((await api(host, "PATCH", "/api/appearance", { brightness: 200 })).status, 202);
  seen = await until(c, 19);
  assert.deepEqual(
    seen.filter((r) => r.type === 17),
    [],
    "no palette packet for an inactive palette",
  );

  // DELETE of the active palette: appearance falls back to Base colors, re-broadcast.
  res = await api(host, "DELETE", "/api/palettes/mood");
  assert.equal(res.status, 204);
  const appearance = (await api(host, "GET", "/api/appearance")).body;
  assert.equal(appearance.palette, "Base colors");
  seen = await until(c, 17);
  assert.deepEqual(paletteStops(seen.filter((r) => r.type === 17).pop()!), [
    [0, appearance.baseColors[0]],
    [128, appearance.baseColors[1]],
    [255, appearance.baseColors[2]],
  ]);
  const stored = JSON.parse(fs.readFileSync(path.join(host.dataDir, "appearance"), "utf8"));
  assert.equal(stored.palette, "Base colors", "the fallback is persisted");
  res = await api(host, "PATCH", "/api/appearance", { palette: "Mood" });
  assert.deepEqual([res.status, res.body], [422, { error: 'palette: no palette named "Mood"' }]);
  await remove("Idle");
  assert.equal((await api(host, "PATCH", "/api/appearance", { brightness: 255 })).status, 202);
  c.close();
});

test("at most 64 custom palettes (507 too_many_palettes); the full list is served", async () => {
  assert.deepEqual(await customNames(), []);
  // Longest possible names (30 four-byte code points) make the longest keys and listing.
  const names = Array.from({ length: 64 }, (_, i) => String.fromCodePoint(0x1f600 + i).repeat(30));
  for (const n of names) await create(n);
  const res = await api(host, "POST", "/api/palettes", doc("One too many"));
  assert.deepEqual([res.status, res.body], [507, { error: "too_many_palettes" }]);
  assert.equal((await api(host, "GET", "/api/palettes/One%20too%20many")).status, 404);
  const list = await api(host, "GET", "/api/palettes");
  assert.equal(list.status, 200);
  assert.equal(list.body.length, 1 + BUILTINS.length + 64);
  assert.deepEqual(
    (list.body as Array<{ name: string }>).slice(9).map((p) => p.name),
    names,
  );
  await remove(names[5]);
  await create("One too many");
  assert.equal((await api(host, "POST", "/api/palettes", doc("Another"))).status, 507);
  for (const n of [...names.filter((_, i) => i !== 5), "One too many"]) await remove(n);
  assert.deepEqual(await customNames(), []);
});
