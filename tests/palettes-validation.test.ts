// The palette document's rules (scene-format spec, "Palette document"), each fed through HTTP with a
// violating document: 422, a message naming the JSON path and the rule, and nothing stored.
import { test, after } from "node:test";
import assert from "node:assert/strict";
import { startHost, api } from "./helpers/host.js";
import { assertSchema, componentSchema } from "./helpers/openapi.js";

const host = await startHost({ panels: 2 });
after(() => host.stop());

const RED = "#FF0000";
const BLUE = "#0000FF";
const valid = (over: Record<string, unknown> = {}) => ({
  name: "Valid",
  stops: [
    [0, RED],
    [255, BLUE],
  ],
  ...over,
});

async function listText(): Promise<string> {
  const res = await api(host, "GET", "/api/palettes");
  assert.equal(res.status, 200);
  return res.text;
}

const paletteBody = componentSchema("PaletteBody");
/** What docs/schema/palette.schema.json cannot see: an order between stops, and an integer written
 * with an exponent (a schema sees the parsed number). */
const BEYOND_SCHEMA = ["positions must be strictly increasing", "2.55e2"];

/** POST must answer 422 with exactly `message`, and the library must be unchanged. */
async function rejects(body: unknown, message: string): Promise<void> {
  // docs/schema/palette.schema.json rejects it too, unless the rule is beyond a schema
  const doc = typeof body === "string" ? JSON.parse(body) : body;
  if (!BEYOND_SCHEMA.some((b) => message.includes(b) || (typeof body === "string" && body.includes(b))))
    assertSchema(paletteBody, doc, false, message);
  const before = await listText();
  const res = await api(host, "POST", "/api/palettes", body);
  assert.equal(res.status, 422, `${JSON.stringify(body)} → ${res.status} ${res.text}`);
  assert.deepEqual(res.body, { error: message });
  assert.equal(await listText(), before, "nothing is stored");
}

/** POST must answer 200 with the name, GET must return the canonical document; then it is deleted. */
async function accepts(body: any, expectedStops?: unknown): Promise<void> {
  assertSchema(paletteBody, body, true);
  const res = await api(host, "POST", "/api/palettes", body);
  assert.equal(res.status, 200, `${JSON.stringify(body)} → ${res.status} ${res.text}`);
  assert.deepEqual(res.body, { name: body.name });
  const got = await api(host, "GET", `/api/palettes/${encodeURIComponent(body.name)}`);
  assert.equal(got.status, 200);
  assert.deepEqual(got.body, { schemaVersion: 1, name: body.name, stops: expectedStops ?? body.stops });
  const del = await api(host, "DELETE", `/api/palettes/${encodeURIComponent(body.name)}`);
  assert.equal(del.status, 204);
}

test("the document must be an object", async () => {
  await rejects([], "$: must be an object, not an array");
  await rejects(JSON.stringify("just text"), "$: must be an object, not a string");
  await rejects(null, "$: must be an object, not null");
});

test("only known fields", async () => {
  await rejects(valid({ colors: [] }), "colors: unknown field (accepted: schemaVersion, name, stops)");
  await rejects(valid({ id: "abc" }), "id: unknown field (accepted: schemaVersion, name, stops)");
});

test("schemaVersion is optional and must be 1", async () => {
  await rejects(valid({ schemaVersion: 2 }), "schemaVersion: must be 1");
  await rejects(valid({ schemaVersion: 0 }), "schemaVersion: must be 1");
  await rejects(valid({ schemaVersion: "1" }), "schemaVersion: must be 1");
  await rejects(valid({ schemaVersion: 1.5 }), "schemaVersion: must be 1");
  await accepts(valid({ name: "Explicit version", schemaVersion: 1 }), [
    [0, RED],
    [255, BLUE],
  ]);
});

test("name: required, a string", async () => {
  await rejects({ stops: [[0, RED]] }, "name: required");
  await rejects(valid({ name: 7 }), "name: must be a string, not a number");
  await rejects(valid({ name: null }), "name: must be a string, not null");
  // a container name is read past whole: the stops after it are still read, and the name's problem comes first
  await rejects({ name: ["Name"], stops: 5 }, "name: must be a string, not an array");
  await rejects({ stops: "x", name: { a: [1] } }, "name: must be a string, not an object");
});

test("name: 1-30 characters, counted in code points", async () => {
  await rejects(valid({ name: "" }), "name: must be 1-30 characters");
  await rejects(valid({ name: "x".repeat(31) }), "name: must be 1-30 characters");
  await rejects(valid({ name: "😀".repeat(31) }), "name: must be 1-30 characters");
  await accepts(valid({ name: "x".repeat(30) }));
  // 30 code points, 60 UTF-16 code units, 120 UTF-8 bytes: the longest name.
  await accepts(valid({ name: "😀".repeat(30) }));
  await accepts(valid({ name: "Cœur ❤" }));
  await accepts(valid({ name: "a" }));
});

test("name: no control characters", async () => {
  const message = "name: must not contain control characters";
  await rejects(valid({ name: "tab\there" }), message); // escaped in JSON (\t)
  await rejects(valid({ name: "nul\u0000" }), message); // \u0000
  await rejects(valid({ name: "line\n" }), message);
  await rejects(valid({ name: "del\u007f" }), message); // sent raw by JSON.stringify
  await rejects(valid({ name: "c1\u0085" }), message); // C1 control, raw UTF-8 C2 85
  await rejects('{"name":"esc\\u0085aped","stops":[[0,"#000000"]]}', message); // C1 as an escape
  // Escapes of ordinary characters are fine and the name comes back decoded.
  await accepts({ name: 'quote " and \\ backslash', stops: [[0, RED]] });
  const res = await api(
    host,
    "POST",
    "/api/palettes",
    '{"name":"\\u0041\\u00e9\\ud83d\\ude00","stops":[[0,"#000000"]]}',
  );
  assert.equal(res.status, 200);
  assert.deepEqual(res.body, { name: "Aé😀" });
  assert.equal((await api(host, "DELETE", "/api/palettes/" + encodeURIComponent("Aé😀"))).status, 204);
});

test('name: not "." or ".." (URL clients resolve such a segment away)', async () => {
  const message = 'name: must not be "." or ".." (it could not be used in a URL)';
  await rejects(valid({ name: "." }), message);
  await rejects(valid({ name: ".." }), message);
  await rejects('{"name":"\\u002e\\u002E","stops":[[0,"#000000"]]}', message);
  await accepts(valid({ name: "..." }));
  await accepts(valid({ name: ".a" }));
});

test("stops: required, an array of 1-16 entries", async () => {
  await rejects({ name: "NoStops" }, "stops: required");
  await rejects(valid({ stops: {} }), "stops: must be an array, not an object");
  await rejects(valid({ stops: "#FF0000" }), "stops: must be an array, not a string");
  await rejects(valid({ stops: [] }), "stops: must have 1-16 entries");
  const seventeen = Array.from({ length: 17 }, (_, i) => [i == 16 ? 255 : i * 15, RED]);
  await rejects(valid({ stops: seventeen }), "stops: must have 1-16 entries");
  const sixteen = Array.from({ length: 16 }, (_, i) => [i == 15 ? 255 : i * 16, "#0A0B0C"]);
  await accepts(valid({ name: "Sixteen", stops: sixteen }));
});

test("stops[i]: a 2-element array", async () => {
  const message = (i: number) => `stops[${i}]: must be an array [position, "#RRGGBB"]`;
  await rejects(valid({ stops: [[0, RED], "x"] }), message(1));
  await rejects(valid({ stops: [[0, RED], [255]] }), message(1));
  await rejects(
    valid({
      stops: [
        [0, RED, 1],
        [255, BLUE],
      ],
    }),
    message(0),
  );
  await rejects(valid({ stops: [{ position: 0, color: RED }] }), message(0));
  await rejects(valid({ stops: [[0, RED], [128, BLUE], []] }), message(2));
});

test("stops[i][0]: an integer 0-255", async () => {
  const message = (i: number) => `stops[${i}][0]: must be an integer 0-255`;
  await rejects(
    valid({
      stops: [
        [0, RED],
        [1.5, RED],
        [255, BLUE],
      ],
    }),
    message(1),
  );
  await rejects(
    valid({
      stops: [
        [0, RED],
        ["128", RED],
        [255, BLUE],
      ],
    }),
    message(1),
  );
  await rejects(
    valid({
      stops: [
        [-1, RED],
        [255, BLUE],
      ],
    }),
    message(0),
  );
  await rejects(
    valid({
      stops: [
        [0, RED],
        [256, BLUE],
      ],
    }),
    message(1),
  );
  await rejects(
    valid({
      stops: [
        [null, RED],
        [255, BLUE],
      ],
    }),
    message(0),
  );
  await rejects('{"name":"Exp","stops":[[0,"#000000"],[2.55e2,"#000000"]]}', message(1));
});

test("positions: first 0, strictly increasing, last 255", async () => {
  await rejects(
    valid({
      stops: [
        [1, RED],
        [255, BLUE],
      ],
    }),
    "stops[0][0]: the first position must be 0",
  );
  await rejects(valid({ stops: [[255, RED]] }), "stops[0][0]: the first position must be 0");
  await rejects(
    valid({
      stops: [
        [0, RED],
        [100, RED],
        [100, RED],
        [255, BLUE],
      ],
    }),
    "stops[2][0]: positions must be strictly increasing",
  );
  await rejects(
    valid({
      stops: [
        [0, RED],
        [100, RED],
        [50, RED],
        [255, BLUE],
      ],
    }),
    "stops[2][0]: positions must be strictly increasing",
  );
  await rejects(
    valid({
      stops: [
        [0, RED],
        [0, BLUE],
      ],
    }),
    "stops[1][0]: positions must be strictly increasing",
  );
  await rejects(
    valid({
      stops: [
        [0, RED],
        [254, BLUE],
      ],
    }),
    "stops[1][0]: the last position must be 255",
  );
  await rejects(
    valid({
      stops: [
        [0, RED],
        [128, RED],
        [200, BLUE],
      ],
    }),
    "stops[2][0]: the last position must be 255",
  );
  // One stop is a solid colour at position 0.
  await accepts(valid({ name: "Solid", stops: [[0, RED]] }));
});

test('stops[i][1]: a colour "#RRGGBB"', async () => {
  const message = (i: number) => `stops[${i}][1]: must be a colour "#RRGGBB"`;
  // the stops in order, each one's checks in order: the last position comes before the last colour,
  // a colour before any later stop's problem
  await rejects(
    valid({
      stops: [
        [0, RED],
        [200, "red"],
      ],
    }),
    "stops[1][0]: the last position must be 255",
  );
  await rejects(
    valid({
      stops: [
        [0, "red"],
        [200, BLUE],
      ],
    }),
    message(0),
  );
  await rejects(
    valid({
      stops: [
        [0, RED],
        [100, "red"],
        [50, BLUE],
      ],
    }),
    message(1),
  );
  await rejects(
    valid({
      stops: [
        [0, RED],
        [100, BLUE],
        [100, "red"],
      ],
    }),
    "stops[2][0]: positions must be strictly increasing",
  );
  await rejects(
    valid({ stops: [[0, RED], [100, BLUE], 7, [100, "red"]] }),
    'stops[2]: must be an array [position, "#RRGGBB"]',
  );
  await rejects(
    valid({
      stops: [
        [0, RED],
        [255, "red"],
        [255, BLUE],
      ],
    }),
    message(1),
  );
  await rejects(
    valid({
      stops: [
        [0, "#12345"],
        [255, BLUE],
      ],
    }),
    message(0),
  );
  await rejects(
    valid({
      stops: [
        [0, RED],
        [255, "red"],
      ],
    }),
    message(1),
  );
  await rejects(
    valid({
      stops: [
        [0, RED],
        [255, "#GGGGGG"],
      ],
    }),
    message(1),
  );
  await rejects(
    valid({
      stops: [
        [0, RED],
        [255, "FF0000"],
      ],
    }),
    message(1),
  );
  await rejects(
    valid({
      stops: [
        [0, RED],
        [255, "#FF00001"],
      ],
    }),
    message(1),
  );
  await rejects(
    valid({
      stops: [
        [0, 0xff0000],
        [255, BLUE],
      ],
    }),
    message(0),
  );
  // Either case in, upper case out.
  await accepts(
    valid({
      name: "Lower",
      stops: [
        [0, "#abcdef"],
        [255, "#0a0B0c"],
      ],
    }),
    [
      [0, "#ABCDEF"],
      [255, "#0A0B0C"],
    ],
  );
});

test("the first problem in document order is reported", async () => {
  await rejects(
    valid({
      stops: [
        [0, "bad"],
        [3, RED],
        [3, RED],
      ],
    }),
    'stops[0][1]: must be a colour "#RRGGBB"',
  );
  await rejects({ name: "", stops: [] }, "name: must be 1-30 characters");
});

test("malformed JSON is 400 invalid_json and stores nothing", async () => {
  const before = await listText();
  // where (a byte offset) and why
  for (const [text, offset, reason] of [
    ['{"name":"Trunc","stops":[[0,"#000000"]', 38, "unexpected end of the document"],
    ['{"name":"Dup","name":"Dup2","stops":[[0,"#000000"]]}', 14, "duplicate member name"],
    ["", 0, "unexpected end of the document"],
    ['{"name":"Bad\\x","stops":[[0,"#000000"]]}', 12, "invalid escape"],
    ['{"name":"x","stops":[[0,"#000000"] [1,"#FFFFFF"]]}', 35, "expected ',' or the closing bracket"],
    ['{"name":"x","stops":[[0,#000000]]}', 24, "expected a value"],
    ['{"name":"x","stops":[[01,"#000000"]]}', 23, "expected ',' or the closing bracket"],
  ] as const) {
    const res = await api(host, "POST", "/api/palettes", text);
    assert.equal(res.status, 400, text);
    assert.deepEqual(res.body, { error: "invalid_json", offset, reason }, text);
  }
  const bad = await api(
    host,
    "POST",
    "/api/palettes",
    Buffer.concat([Buffer.from('{"name":"'), Buffer.from([0xff, 0xfe]), Buffer.from('","stops":[[0,"#000000"]]}')]),
  );
  assert.equal(bad.status, 400, "non-UTF-8 body");
  assert.equal(await listText(), before);
});

test("PUT validates the same document with the same paths", async () => {
  assert.equal((await api(host, "POST", "/api/palettes", valid({ name: "Target" }))).status, 200);
  const put = (body: unknown) => api(host, "PUT", "/api/palettes/Target", body);
  let res = await put({
    name: "Target",
    stops: [
      [0, RED],
      [10, RED],
      [5, RED],
      [255, RED],
    ],
  });
  assert.equal(res.status, 422);
  assert.deepEqual(res.body, { error: "stops[2][0]: positions must be strictly increasing" });
  res = await put({ name: "Target", stops: [[0, RED]], extra: 1 });
  assert.deepEqual(
    [res.status, res.body],
    [422, { error: "extra: unknown field (accepted: schemaVersion, name, stops)" }],
  );
  res = await put({ stops: [[0, RED]] });
  assert.deepEqual([res.status, res.body], [422, { error: "name: required" }]);
  res = await put({
    name: "Target",
    stops: [
      [0, RED],
      [255, "#12"],
    ],
  });
  assert.deepEqual([res.status, res.body], [422, { error: 'stops[1][1]: must be a colour "#RRGGBB"' }]);
  const got = await api(host, "GET", "/api/palettes/Target");
  assert.deepEqual(got.body.stops, [
    [0, RED],
    [255, BLUE],
  ]);
  assert.equal((await api(host, "DELETE", "/api/palettes/Target")).status, 204);
});

test("documents shaped like the spec's palettes are accepted", async () => {
  // The Base colors shape (stops at 0, 128, 255), and each built-in's stops under a new name.
  await accepts({
    name: "Like base colors",
    stops: [
      [0, "#FFFFFF"],
      [128, "#000000"],
      [255, "#000000"],
    ],
  });
  const list = (await api(host, "GET", "/api/palettes")).body as Array<{ name: string; stops: unknown }>;
  for (const p of list) await accepts({ schemaVersion: 1, name: `Copy of ${p.name}`, stops: p.stops });
});
