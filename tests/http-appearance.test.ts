// GET/PATCH /api/appearance through a real HTTP client against a spawned host: defaults, every
// field and subset, canonical palette casing and upper-case colours, every kind of bad input
// (right status, a JSON error naming the path, nothing changed), and persistence across a graceful
// stop, a SIGKILL and a corrupt stored document.
import { test, describe, after } from "node:test";
import assert from "node:assert/strict";
import fs from "node:fs";
import path from "node:path";
import { startHost, api, waitFor, tempDir, type Host, errorKeys } from "./helpers/host.js";

const DEFAULTS = { brightness: 255, baseColors: ["#FFFFFF", "#000000", "#000000"], palette: "Base colors" };

const host = await startHost({ panels: 3 });
after(() => host.stop());

/** A request with a raw body (string or bytes), as no JSON encoder would send it. */
function rawRequest(h: Host, method: string, p: string, body: string | Uint8Array) {
  return api(h, method, p, typeof body === "string" ? body : Buffer.from(body));
}

async function getAppearance(h: Host = host) {
  const res = await api(h, "GET", "/api/appearance");
  assert.equal(res.status, 200);
  assert.match(res.headers.get("content-type") ?? "", /application\/json/);
  return res.body;
}

async function patch(body: unknown, h: Host = host) {
  const res = await api(h, "PATCH", "/api/appearance", body);
  assert.equal(res.status, 202, `PATCH ${JSON.stringify(body)} → ${res.status} ${res.text}`);
  assert.equal(res.text, "{}");
}

test("GET /api/appearance answers the defaults on a fresh data directory", async () => {
  const res = await api(host, "GET", "/api/appearance");
  assert.equal(res.status, 200);
  assert.deepEqual(res.body, DEFAULTS);
  assert.deepEqual(Object.keys(res.body), ["brightness", "baseColors", "palette"]);
});

test("PATCH each field alone: 202 {} and GET shows it, the other fields untouched", async () => {
  await patch({ brightness: 0 });
  assert.deepEqual(await getAppearance(), { ...DEFAULTS, brightness: 0 });
  await patch({ brightness: 128 });
  assert.deepEqual(await getAppearance(), { ...DEFAULTS, brightness: 128 });
  await patch({ baseColors: ["#102030", "#405060", "#708090"] });
  assert.deepEqual(await getAppearance(), {
    ...DEFAULTS,
    brightness: 128,
    baseColors: ["#102030", "#405060", "#708090"],
  });
  await patch({ palette: "Lava" });
  assert.deepEqual(await getAppearance(), {
    brightness: 128,
    baseColors: ["#102030", "#405060", "#708090"],
    palette: "Lava",
  });
  await patch({ brightness: 255 });
  assert.equal((await getAppearance()).brightness, 255);
});

test("PATCH subsets and the empty patch", async () => {
  await patch({ brightness: 42, palette: "Ocean" });
  assert.deepEqual(await getAppearance(), {
    brightness: 42,
    baseColors: ["#102030", "#405060", "#708090"],
    palette: "Ocean",
  });
  await patch({ baseColors: ["#FF0000", "#00FF00", "#0000FF"], brightness: 7 });
  assert.deepEqual(await getAppearance(), {
    brightness: 7,
    baseColors: ["#FF0000", "#00FF00", "#0000FF"],
    palette: "Ocean",
  });
  await patch({ brightness: 200, baseColors: ["#010203", "#040506", "#070809"], palette: "Base colors" });
  const all = { brightness: 200, baseColors: ["#010203", "#040506", "#070809"], palette: "Base colors" };
  assert.deepEqual(await getAppearance(), all);
  await patch({});
  assert.deepEqual(await getAppearance(), all);
});

test("palette names are matched case-insensitively and stored with their canonical casing", async () => {
  const cases: Array<[string, string]> = [
    ["rainbow", "Rainbow"],
    ["LAVA", "Lava"],
    ["oCeAn", "Ocean"],
    ["forest", "Forest"],
    ["PARTY", "Party"],
    ["sunset", "Sunset"],
    ["aurora", "Aurora"],
    ["eMBERS", "Embers"],
    ["base COLORS", "Base colors"],
  ];
  for (const [sent, stored] of cases) {
    await patch({ palette: sent });
    assert.equal((await getAppearance()).palette, stored, `palette ${sent}`);
  }
});

test("lower-case hex colours are accepted and returned upper-case", async () => {
  await patch({ baseColors: ["#abcdef", "#0a0b0c", "#FfEeDd"] });
  assert.deepEqual((await getAppearance()).baseColors, ["#ABCDEF", "#0A0B0C", "#FFEEDD"]);
});

test("every bad input gets the right status, a JSON error naming the path, and changes nothing", async () => {
  await patch({ brightness: 99, baseColors: ["#111111", "#222222", "#333333"], palette: "Forest" });
  const before = await getAppearance();
  const big = 32769;
  const padded = (n: number) => {
    const head = '{"brightness":1';
    return head + " ".repeat(n - head.length - 1) + "}";
  };
  const cases: Array<{ name: string; body: string | Uint8Array; status: number; error: RegExp }> = [
    { name: "malformed JSON", body: '{"brightness":', status: 400, error: /^invalid_json$/ },
    { name: "trailing garbage", body: '{"brightness":1}x', status: 400, error: /^invalid_json$/ },
    { name: "single quotes", body: "{'brightness':1}", status: 400, error: /^invalid_json$/ },
    { name: "trailing comma", body: '{"brightness":1,}', status: 400, error: /^invalid_json$/ },
    { name: "empty body", body: "", status: 400, error: /^invalid_json$/ },
    { name: "whitespace body", body: "  \n ", status: 400, error: /^invalid_json$/ },
    { name: "array", body: "[]", status: 422, error: /^\$: / },
    { name: "number", body: "5", status: 422, error: /^\$: / },
    { name: "string", body: '"x"', status: 422, error: /^\$: / },
    { name: "null", body: "null", status: 422, error: /^\$: / },
    { name: "brightness 256", body: '{"brightness":256}', status: 422, error: /^brightness: / },
    { name: "brightness -1", body: '{"brightness":-1}', status: 422, error: /^brightness: / },
    { name: "brightness 1.5", body: '{"brightness":1.5}', status: 422, error: /^brightness: / },
    { name: 'brightness "5"', body: '{"brightness":"5"}', status: 422, error: /^brightness: / },
    { name: "brightness null", body: '{"brightness":null}', status: 422, error: /^brightness: / },
    { name: "brightness true", body: '{"brightness":true}', status: 422, error: /^brightness: / },
    { name: "brightness 1e300", body: '{"brightness":1e300}', status: 422, error: /^brightness: / },
    {
      name: "baseColors of 2",
      body: '{"baseColors":["#FFFFFF","#000000"]}',
      status: 422,
      error: /^baseColors: /,
    },
    {
      name: "baseColors of 4",
      body: '{"baseColors":["#FFFFFF","#000000","#000000","#000000"]}',
      status: 422,
      error: /^baseColors: /,
    },
    { name: "baseColors empty", body: '{"baseColors":[]}', status: 422, error: /^baseColors: / },
    { name: "baseColors string", body: '{"baseColors":"#FFFFFF"}', status: 422, error: /^baseColors: / },
    { name: "baseColors object", body: '{"baseColors":{"0":"#FFFFFF"}}', status: 422, error: /^baseColors: / },
    {
      name: "baseColors bad hex digit",
      body: '{"baseColors":["#FFFFFF","#GG0000","#000000"]}',
      status: 422,
      error: /^baseColors\[1\]: /,
    },
    {
      name: "baseColors short form",
      body: '{"baseColors":["#FFFFFF","#000000","#FFF"]}',
      status: 422,
      error: /^baseColors\[2\]: /,
    },
    {
      name: "baseColors without #",
      body: '{"baseColors":["FFFFFF","#000000","#000000"]}',
      status: 422,
      error: /^baseColors\[0\]: /,
    },
    {
      name: "baseColors number",
      body: '{"baseColors":["#FFFFFF",16777215,"#000000"]}',
      status: 422,
      error: /^baseColors\[1\]: /,
    },
    {
      name: "baseColors with alpha",
      body: '{"baseColors":["#FFFFFFFF","#000000","#000000"]}',
      status: 422,
      error: /^baseColors\[0\]: /,
    },
    { name: "unknown palette", body: '{"palette":"Nope"}', status: 422, error: /^palette: / },
    { name: "empty palette name", body: '{"palette":""}', status: 422, error: /^palette: / },
    { name: "palette number", body: '{"palette":3}', status: 422, error: /^palette: must be a string, not a number$/ },
    {
      // the fields' checks in the documented order, whatever the body's order
      name: "a palette number before bad colours",
      body: '{"palette":3,"baseColors":["#FFFFFF"]}',
      status: 422,
      error: /^baseColors: must be an array of 3 colours "#RRGGBB"$/,
    },
    {
      name: "unknown field",
      body: '{"brightnes":3}',
      status: 422,
      error: /^brightnes: unknown field \(accepted: brightness, baseColors, palette\)$/,
    },
    {
      name: "unknown field beside valid ones",
      body: '{"brightness":3,"extra":true}',
      status: 422,
      error: /^extra: unknown field \(accepted: brightness, baseColors, palette\)$/,
    },
    {
      name: "valid brightness with an invalid palette",
      body: '{"brightness":3,"palette":"Nope"}',
      status: 422,
      error: /^palette: /,
    },
    {
      name: "valid colours with an invalid brightness",
      body: '{"baseColors":["#000001","#000002","#000003"],"brightness":300}',
      status: 422,
      error: /^brightness: /,
    },
    { name: "duplicate keys", body: '{"brightness":1,"brightness":2}', status: 400, error: /^invalid_json$/ },
    {
      name: "deeply nested JSON",
      body: '{"brightness":' + "[".repeat(1000) + "]".repeat(1000) + "}",
      status: 400,
      error: /^invalid_json$/,
    },
    {
      name: "invalid UTF-8 in a string",
      body: Buffer.concat([Buffer.from('{"palette":"Lav'), Buffer.from([0xc3, 0x28]), Buffer.from('"}')]),
      status: 400,
      error: /^invalid_json$/,
    },
    {
      name: "overlong UTF-8 encoding",
      body: Buffer.concat([Buffer.from('{"palette":"'), Buffer.from([0xc0, 0xaf]), Buffer.from('"}')]),
      status: 400,
      error: /^invalid_json$/,
    },
    {
      name: "lone surrogate escape",
      body: '{"palette":"\\ud800"}',
      status: 400,
      error: /^invalid_json$/,
    },
    { name: "control character in a string", body: '{"palette":"La\u0001va"}', status: 400, error: /^invalid_json$/ },
    { name: `body of ${big} bytes`, body: padded(big), status: 413, error: /^payload_too_large$/ },
  ];
  for (const c of cases) {
    const res = await rawRequest(host, "PATCH", "/api/appearance", c.body);
    assert.equal(res.status, c.status, `${c.name}: status ${res.status} ${res.text}`);
    assert.ok(res.body && typeof res.body.error === "string", `${c.name}: JSON error body, got ${res.text}`);
    assert.deepEqual(Object.keys(res.body), errorKeys(c.status), `${c.name}: ${res.text}`);
    assert.match(res.body.error, c.error, `${c.name}: ${res.text}`);
    assert.deepEqual(await getAppearance(), before, `${c.name} changed the appearance`);
  }
});

test("a body of exactly 32768 bytes is accepted", async () => {
  const head = '{"brightness":77';
  const body = head + " ".repeat(32768 - head.length - 1) + "}";
  assert.equal(Buffer.byteLength(body), 32768);
  const res = await rawRequest(host, "PATCH", "/api/appearance", body);
  assert.equal(res.status, 202, res.text);
  assert.equal((await getAppearance()).brightness, 77);
});

test("a body is read as it streams: no limit on its values, a repeated field refused at its key", async () => {
  const before = await getAppearance();
  // 6,000 values under an unknown field (the token tape of the past held 4,096): what is wrong is said
  const many = '{"brightness":5,"pad":[' + "0,".repeat(5999) + "0]}";
  const res = await rawRequest(host, "PATCH", "/api/appearance", many);
  assert.equal(res.status, 422, res.text);
  assert.equal(res.text, '{"error":"pad: unknown field (accepted: brightness, baseColors, palette)"}');
  // a field given twice: 400 at the second key's opening quote, even after a problem
  const twice = '{"brightness":300,"palette":"Lava","brightness":4}';
  const dup = await rawRequest(host, "PATCH", "/api/appearance", twice);
  assert.equal(dup.status, 400, dup.text);
  assert.equal(dup.text, '{"error":"invalid_json","offset":35,"reason":"duplicate member name"}');
  // the first problem is the first check's, wherever its field is: the colours come after brightness
  const order = '{"baseColors":["#000000"],"palette":"Nope","brightness":-1}';
  const first = await rawRequest(host, "PATCH", "/api/appearance", order);
  assert.equal(first.text, '{"error":"brightness: must be an integer 0-255"}');
  assert.deepEqual(await getAppearance(), before);
});

test("escapes in a palette name are decoded before the lookup", async () => {
  const res = await rawRequest(host, "PATCH", "/api/appearance", '{"palette":"\\u004cava \\ud83d\\ude00"}');
  assert.equal(res.status, 422, res.text);
  assert.match(res.body.error, /^palette: /);
  const ok = await rawRequest(host, "PATCH", "/api/appearance", '{"palette":"\\u004cava"}');
  assert.equal(ok.status, 202, ok.text);
  assert.equal((await getAppearance()).palette, "Lava");
});

const CHANGED = { brightness: 33, baseColors: ["#0000AA", "#00BB00", "#CC0000"], palette: "Sunset" };

// Restarts are slow-ish: these run side by side, each on its own data directory.
describe("persistence", { concurrency: true }, () => {
  test("the appearance persists across a graceful restart on the same data directory", async () => {
    const dataDir = tempDir();
    const first = await startHost({ panels: 2, dataDir });
    try {
      assert.deepEqual(await getAppearance(first), DEFAULTS);
      await patch({ brightness: 33, baseColors: ["#0000aa", "#00bb00", "#cc0000"], palette: "sunset" }, first);
      assert.deepEqual(await getAppearance(first), CHANGED);
    } finally {
      await first.stop();
    }
    const second = await startHost({ panels: 2, dataDir });
    try {
      assert.deepEqual(await getAppearance(second), CHANGED);
    } finally {
      await second.stop();
    }
  });

  test("the appearance survives a SIGKILL right after the change is applied", async () => {
    const dataDir = tempDir();
    const first = await startHost({ panels: 2, dataDir });
    await patch({ brightness: 33 }, first);
    await patch({ baseColors: CHANGED.baseColors, palette: "SUNSET" }, first);
    // The change is applied (and stored) on the tick after the 202.
    await waitFor(async () => JSON.stringify(await getAppearance(first)) === JSON.stringify(CHANGED));
    await first.kill();
    const second = await startHost({ panels: 2, dataDir });
    try {
      assert.deepEqual(await getAppearance(second), CHANGED);
    } finally {
      await second.stop();
    }
  });

  test("a corrupt or invalid stored appearance boots with the defaults and the host still serves", async () => {
    const contents: Array<string | Uint8Array> = [
      Buffer.from([0xff, 0xfe, 0x00, 0x13, 0x37, 0x7b, 0x22]),
      '{"brightness":',
      '{"brightness":999,"baseColors":["#FFFFFF","#000000","#000000"],"palette":"Base colors"}',
      '{"brightness":10,"unknown":1}',
      "",
    ];
    // Each on its own data directory, all at once.
    await Promise.all(
      contents.map(async (content) => {
        const dataDir = tempDir();
        fs.writeFileSync(path.join(dataDir, "appearance"), content);
        const h = await startHost({ panels: 2, dataDir });
        try {
          assert.deepEqual(await getAppearance(h), DEFAULTS, `stored ${JSON.stringify(String(content))}`);
          const state = await api(h, "GET", "/api/state");
          assert.equal(state.status, 200);
          await patch({ brightness: 1 }, h);
          assert.equal((await getAppearance(h)).brightness, 1);
        } finally {
          await h.stop();
        }
      }),
    );
  });
});
