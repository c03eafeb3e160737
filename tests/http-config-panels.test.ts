// GET/PATCH /api/configuration, the panel endpoints (live GET /api/panels, GET /api/panels/edges,
// PUT /api/panels/{n}/on and /color) and the router's general rules (404, 405, query strings, HEAD,
// trailing slash) against spawned hosts: a generated tree of 5 panels, a hand-written topology of 7
// and a small-variant host wired with 40 panels.
import { test, after } from "node:test";
import assert from "node:assert/strict";
import fs from "node:fs";
import path from "node:path";
import { startHost, api, tempDir, type Host, errorKeys } from "./helpers/host.js";

const N = 5;

// Seven panels, listed out of discovery order, with branches and root-facing slots other than 0.
// Positions (1-based in this list) → discovery index, probing slots 0, 1, 2 depth first:
//   p1 → 1 (plugged into the controller with its slot 1)
//   p3 → 2 (in slot 0 of 1), p6 → 3 (in slot 0 of 2), p7 → 4 (in slot 2 of 3),
//   p5 → 5 (in slot 1 of 2), p2 → 6 (in slot 2 of 1), p4 → 7 (in slot 1 of 6)
const TOPOLOGY = {
  panels: [
    { parent: 0, inEdge: 1 },
    { parent: 1, edge: 2, inEdge: 0 },
    { parent: 1, edge: 0, inEdge: 2 },
    { parent: 2, edge: 1, inEdge: 0 },
    { parent: 3, edge: 1, inEdge: 0 },
    { parent: 3, edge: 0, inEdge: 1 },
    { parent: 6, edge: 2, inEdge: 0 },
  ],
};

// [panel, edge, connectedPanel, connectedEdge], written out by hand from the wiring above.
const EXPECTED_EDGES: Array<[number, number, number, number]> = [
  [1, 0, 2, 2],
  [1, 1, 0, 0], // faces the controller
  [1, 2, 6, 0],
  [2, 0, 3, 1],
  [2, 1, 5, 0],
  [2, 2, 1, 0],
  [3, 0, 0, 0],
  [3, 1, 2, 0],
  [3, 2, 4, 0],
  [4, 0, 3, 2],
  [4, 1, 0, 0],
  [4, 2, 0, 0],
  [5, 0, 2, 1],
  [5, 1, 0, 0],
  [5, 2, 0, 0],
  [6, 0, 1, 2],
  [6, 1, 7, 0],
  [6, 2, 0, 0],
  [7, 0, 6, 1],
  [7, 1, 0, 0],
  [7, 2, 0, 0],
];

const topologyFile = path.join(tempDir(), "topology.json");
fs.writeFileSync(topologyFile, JSON.stringify(TOPOLOGY));

const [host, treeHost, smallHost] = await Promise.all([
  startHost({ panels: N }),
  startHost({ topology: topologyFile }),
  startHost({ panels: 40, variant: "small" }),
]);
after(() => Promise.all([host.stop(), treeHost.stop(), smallHost.stop()]));

type Panel = { address: number; on: boolean; color: string };

async function panels(h: Host = host): Promise<Panel[]> {
  const res = await api(h, "GET", "/api/panels");
  assert.equal(res.status, 200, res.text);
  return res.body;
}

async function configuration(h: Host = host) {
  const res = await api(h, "GET", "/api/configuration");
  assert.equal(res.status, 200, res.text);
  return res.body;
}

const range = (n: number) => Array.from({ length: n }, (_, i) => i + 1);

// ---- configuration ---------------------------------------------------------------------------

test("GET /api/configuration answers the defaults", async () => {
  const res = await api(host, "GET", "/api/configuration");
  assert.equal(res.status, 200);
  assert.equal(res.text, '{"powerStateOnBoot":0,"logicalRoot":0,"allowedHosts":[]}');
});

test("PATCH powerStateOnBoot 0-2: 200 {} and GET shows it", async () => {
  for (const mode of [1, 2, 0, 2]) {
    const res = await api(host, "PATCH", "/api/configuration", { powerStateOnBoot: mode });
    assert.equal(res.status, 200, res.text);
    assert.equal(res.text, "{}");
    assert.deepEqual(await configuration(), { powerStateOnBoot: mode, logicalRoot: 0, allowedHosts: [] });
  }
  const empty = await api(host, "PATCH", "/api/configuration", {});
  assert.equal(empty.status, 200, empty.text);
  assert.equal(empty.text, "{}");
  assert.deepEqual(await configuration(), { powerStateOnBoot: 2, logicalRoot: 0, allowedHosts: [] });
});

test("PATCH logicalRoot: 202 {ok:true, logicalRoot:N} and GET shows it; a missing panel is accepted", async () => {
  for (const root of [3, 0, 99, 1]) {
    const res = await api(host, "PATCH", "/api/configuration", { logicalRoot: root });
    assert.equal(res.status, 202, res.text);
    assert.equal(res.text, `{"ok":true,"logicalRoot":${root}}`);
    assert.deepEqual(await configuration(), { powerStateOnBoot: 2, logicalRoot: root, allowedHosts: [] });
  }
  const both = await api(host, "PATCH", "/api/configuration", {
    powerStateOnBoot: 1,
    logicalRoot: 4,
    allowedHosts: [],
  });
  assert.equal(both.status, 202, both.text);
  assert.equal(both.text, '{"ok":true,"logicalRoot":4}');
  assert.deepEqual(await configuration(), { powerStateOnBoot: 1, logicalRoot: 4, allowedHosts: [] });
});

test("bad configuration patches: 422 naming the path (400 for malformed JSON), nothing changes", async () => {
  const before = await configuration();
  const cases: Array<{ body: string; status: number; error: RegExp }> = [
    { body: '{"powerStateOnBoot":3}', status: 422, error: /^powerStateOnBoot: / },
    { body: '{"powerStateOnBoot":-1}', status: 422, error: /^powerStateOnBoot: / },
    { body: '{"powerStateOnBoot":"1"}', status: 422, error: /^powerStateOnBoot: / },
    { body: '{"powerStateOnBoot":1.5}', status: 422, error: /^powerStateOnBoot: / },
    { body: '{"powerStateOnBoot":null}', status: 422, error: /^powerStateOnBoot: / },
    { body: '{"powerStateOnBoot":true}', status: 422, error: /^powerStateOnBoot: / },
    { body: '{"logicalRoot":-1}', status: 422, error: /^logicalRoot: / },
    { body: '{"logicalRoot":"2"}', status: 422, error: /^logicalRoot: / },
    { body: '{"logicalRoot":2.5}', status: 422, error: /^logicalRoot: / },
    // A valid field beside an invalid one changes nothing either.
    { body: '{"powerStateOnBoot":0,"logicalRoot":"x"}', status: 422, error: /^logicalRoot: / },
    { body: '{"logicalRoot":2,"powerStateOnBoot":7}', status: 422, error: /^powerStateOnBoot: / },
    // allowedHosts is checked after the other fields, whatever the body's order
    { body: '{"allowedHosts":[1],"logicalRoot":-1}', status: 422, error: /^logicalRoot: / },
    {
      body: '{"allowedHosts":[1],"logicalRoot":1}',
      status: 422,
      error: /^allowedHosts\[0\]: must be a string, not a number$/,
    },
    {
      body: '{"powerStateOnBoot":0,"mqtt":true}',
      status: 422,
      error: /^mqtt: unknown field \(accepted: powerStateOnBoot, logicalRoot, allowedHosts\)$/,
    },
    { body: "[]", status: 422, error: /^\$: / },
    { body: "", status: 400, error: /^invalid_json$/ },
    { body: "{powerStateOnBoot:0}", status: 400, error: /^invalid_json$/ },
  ];
  for (const c of cases) {
    const res = await api(host, "PATCH", "/api/configuration", c.body);
    assert.equal(res.status, c.status, `${c.body}: ${res.status} ${res.text}`);
    assert.deepEqual(Object.keys(res.body ?? {}), errorKeys(c.status), `${c.body}: ${res.text}`);
    assert.match(res.body.error, c.error, `${c.body}: ${res.text}`);
    assert.deepEqual(await configuration(), before, `${c.body} changed the configuration`);
  }
});

test("allowedHosts: which host names are taken (letters, digits, '-', '.' inside, 1-253 bytes, unescaped)", async () => {
  const good = ["a", "9", "-", "a-b.c", "Lights.Home.Arpa", "x.-.y", "x".repeat(253)];
  const bad = ["", ".", ".a", "a.", "a..b.", "a b", "a_b", "a/b", "a:80", "é", "x".repeat(254), "a\\u002eb"];
  for (const name of good) {
    const res = await api(host, "PATCH", "/api/configuration", `{"allowedHosts":["${name}"]}`);
    assert.equal(res.status, 200, `${name}: ${res.text}`);
    assert.deepEqual((await configuration()).allowedHosts, [name]);
  }
  await api(host, "PATCH", "/api/configuration", { allowedHosts: [] });
  for (const name of bad) {
    const res = await api(host, "PATCH", "/api/configuration", `{"allowedHosts":["ok","${name}"]}`);
    assert.equal(res.status, 422, `${name}: ${res.text}`);
    assert.equal(res.body.error, "allowedHosts[1]: must be a host name", name);
    assert.deepEqual((await configuration()).allowedHosts, []);
  }
});

// ---- panels ----------------------------------------------------------------------------------

test("GET /api/panels lists addresses 1..N with on and color", async () => {
  const list = await panels();
  assert.deepEqual(
    list.map((p) => p.address),
    range(N),
  );
  for (const p of list) {
    assert.deepEqual(Object.keys(p), ["address", "on", "color"]);
    assert.equal(p.on, true);
    assert.match(p.color, /^#[0-9A-F]{6}$/);
  }
});

test("PUT /api/panels/{n}/color changes exactly that panel", async () => {
  let expected = await panels();
  for (const [n, sent, shown] of [
    [3, "#12ab34", "#12AB34"],
    [1, "#FF0000", "#FF0000"],
    [N, "#0000fe", "#0000FE"],
    [3, "#000001", "#000001"],
  ] as const) {
    const res = await api(host, "PUT", `/api/panels/${n}/color`, { color: sent });
    assert.equal(res.status, 202, res.text);
    assert.equal(res.text, "{}");
    expected = expected.map((p) => (p.address === n ? { ...p, color: shown } : p));
    assert.deepEqual(await panels(), expected);
  }
});

test("PUT /api/panels/{n}/on changes exactly that panel", async () => {
  let expected = await panels();
  for (const [n, value] of [
    [2, 0],
    [4, 0],
    [2, 1],
    [4, 1],
  ] as const) {
    const res = await api(host, "PUT", `/api/panels/${n}/on`, { value });
    assert.equal(res.status, 202, res.text);
    assert.equal(res.text, "{}");
    expected = expected.map((p) => (p.address === n ? { ...p, on: value === 1 } : p));
    assert.deepEqual(await panels(), expected);
  }
});

test("GET /api/panels reports the colour before the global brightness", async () => {
  const dim = await api(host, "PATCH", "/api/appearance", { brightness: 10 });
  assert.equal(dim.status, 202, dim.text);
  const res = await api(host, "PUT", "/api/panels/2/color", { color: "#C86432" });
  assert.equal(res.status, 202, res.text);
  assert.equal((await panels()).find((p) => p.address === 2)?.color, "#C86432");
  const full = await api(host, "PATCH", "/api/appearance", { brightness: 255 });
  assert.equal(full.status, 202, full.text);
  assert.equal((await panels()).find((p) => p.address === 2)?.color, "#C86432");
});

test("addresses that are not panels: 404 not_found on /on and /color, saying which panels there are", async () => {
  const before = await panels();
  for (const address of ["0", String(N + 1), "abc", "1000", "-1", "99", "1.0", "%31"]) {
    for (const [what, body] of [
      ["on", { value: 1 }],
      ["color", { color: "#123456" }],
    ] as const) {
      const res = await api(host, "PUT", `/api/panels/${address}/${what}`, body);
      assert.equal(res.status, 404, `${address}/${what}: ${res.status} ${res.text}`);
      // the spec's code, and which panels there are
      const which = /^\d{1,3}$/.test(address) ? `no panel ${Number(address)}` : "not a panel number";
      assert.equal(res.text, `{"error":"not_found","message":"${which}: the panels are 1-${N}"}`);
    }
  }
  assert.deepEqual(await panels(), before);
});

test("bad panel bodies: 422 naming the path, 400 for malformed JSON, nothing changes", async () => {
  const before = await panels();
  const cases: Array<{ what: string; body: string; status: number; error: RegExp }> = [
    { what: "on", body: '{"value":2}', status: 422, error: /^value: / },
    { what: "on", body: '{"value":-1}', status: 422, error: /^value: / },
    { what: "on", body: '{"value":"1"}', status: 422, error: /^value: / },
    { what: "on", body: '{"value":true}', status: 422, error: /^value: / },
    { what: "on", body: '{"value":0.5}', status: 422, error: /^value: / },
    { what: "on", body: "{}", status: 422, error: /^value: / },
    { what: "on", body: '{"value":0,"x":1}', status: 422, error: /^x: unknown field \(accepted: value\)$/ },
    { what: "on", body: '{"on":false}', status: 422, error: /^on: unknown field \(accepted: value\)$/ },
    { what: "on", body: "0", status: 422, error: /^\$: / },
    { what: "on", body: "", status: 400, error: /^invalid_json$/ },
    { what: "on", body: '{"value":0', status: 400, error: /^invalid_json$/ },
    { what: "color", body: '{"color":"red"}', status: 422, error: /^color: / },
    { what: "color", body: '{"color":"#12345"}', status: 422, error: /^color: / },
    { what: "color", body: '{"color":"#1234567"}', status: 422, error: /^color: / },
    { what: "color", body: '{"color":"#12345G"}', status: 422, error: /^color: / },
    { what: "color", body: '{"color":1193046}', status: 422, error: /^color: / },
    { what: "color", body: '{"color":[18,52,86]}', status: 422, error: /^color: / },
    { what: "color", body: "{}", status: 422, error: /^color: / },
    {
      what: "color",
      body: '{"color":"#123456","value":1}',
      status: 422,
      error: /^value: unknown field \(accepted: color\)$/,
    },
    { what: "color", body: '["#123456"]', status: 422, error: /^\$: / },
    { what: "color", body: "#123456", status: 400, error: /^invalid_json$/ },
    { what: "color", body: '{"color":"#123456","color":"#123456"}', status: 400, error: /^invalid_json$/ },
  ];
  for (const c of cases) {
    const res = await api(host, "PUT", `/api/panels/1/${c.what}`, c.body);
    assert.equal(res.status, c.status, `${c.what} ${c.body}: ${res.status} ${res.text}`);
    assert.deepEqual(Object.keys(res.body ?? {}), errorKeys(c.status), `${c.what} ${c.body}: ${res.text}`);
    assert.match(res.body.error, c.error, `${c.what} ${c.body}: ${res.text}`);
  }
  assert.deepEqual(await panels(), before);
});

// ---- topology --------------------------------------------------------------------------------

test("GET /api/panels/edges on a hand-written topology: the exact depth-first array", async () => {
  const res = await api(treeHost, "GET", "/api/panels/edges");
  assert.equal(res.status, 200);
  assert.deepEqual(
    res.body,
    EXPECTED_EDGES.map(([panel, edge, connectedPanel, connectedEdge]) => ({
      panel,
      edge,
      connectedPanel,
      connectedEdge,
    })),
  );
  for (const e of res.body) assert.deepEqual(Object.keys(e), ["panel", "edge", "connectedPanel", "connectedEdge"]);
  assert.deepEqual(
    (await panels(treeHost)).map((p) => p.address),
    range(7),
  );
});

test("GET /api/panels/edges of a generated tree: 3 slots per panel, links agree both ways", async () => {
  const res = await api(host, "GET", "/api/panels/edges");
  assert.equal(res.status, 200);
  const edges = res.body as Array<{ panel: number; edge: number; connectedPanel: number; connectedEdge: number }>;
  assert.deepEqual(
    edges.map((e) => [e.panel, e.edge]),
    range(N).flatMap((p) => [
      [p, 0],
      [p, 1],
      [p, 2],
    ]),
  );
  for (const e of edges) {
    if (e.connectedPanel === 0) {
      assert.equal(e.connectedEdge, 0);
      continue;
    }
    const back = edges.find((o) => o.panel === e.connectedPanel && o.edge === e.connectedEdge);
    assert.deepEqual(back && [back.connectedPanel, back.connectedEdge], [e.panel, e.edge]);
  }
  // Depth first: every panel but the first hangs off a lower index.
  for (let p = 2; p <= N; p++) {
    assert.ok(edges.some((e) => e.panel === p && e.connectedPanel > 0 && e.connectedPanel < p));
  }
});

test("the small variant wired with 40 panels discovers only 32", async () => {
  const edges = await api(smallHost, "GET", "/api/panels/edges");
  assert.equal(edges.status, 200);
  assert.equal(edges.body.length, 32 * 3);
  assert.ok(edges.body.every((e: { panel: number }) => e.panel >= 1 && e.panel <= 32));
  assert.deepEqual(
    (await panels(smallHost)).map((p) => p.address),
    range(32),
  );
  const res = await api(smallHost, "PUT", "/api/panels/33/color", { color: "#FFFFFF" });
  assert.equal(res.status, 404, res.text);
});

// ---- routing ---------------------------------------------------------------------------------

test("unknown routes: 404 {error:not_found}", async () => {
  // GET / is the web app, served by the host (tests/web-serving.test.ts); other methods there reach the core.
  for (const [method, p] of [
    ["POST", "/"],
    ["GET", "/index.html"],
    ["GET", "/api"],
    ["GET", "/api/"],
    ["GET", "/api/nope"],
    ["GET", "/apix/state"],
    ["GET", "/API/state"],
    ["GET", "/api/state/power/x"],
    ["GET", "/api/appearance/brightness"],
    ["GET", "/api/panels/1"],
    ["PUT", "/api/panels/1/blink"],
    ["GET", "/api/configuration/x"],
    ["POST", "/nope"],
    ["DELETE", "/api/nope"],
  ]) {
    const res = await api(host, method, p);
    assert.equal(res.status, 404, `${method} ${p}: ${res.status} ${res.text}`);
    assert.equal(res.text, '{"error":"not_found"}', `${method} ${p}`);
    assert.match(res.headers.get("content-type") ?? "", /application\/json/);
  }
});

test("known routes with the wrong method: 405 {error:method_not_allowed}", async () => {
  for (const [method, p] of [
    ["DELETE", "/api/state"],
    ["POST", "/api/state"],
    ["GET", "/api/state/power"],
    ["PUT", "/api/state/power"],
    ["POST", "/api/appearance"],
    ["PUT", "/api/appearance"],
    ["DELETE", "/api/configuration"],
    ["POST", "/api/panels"],
    ["PUT", "/api/panels/edges"],
    ["GET", "/api/panels/1/color"],
    ["POST", "/api/panels/1/on"],
    ["OPTIONS", "/api/state"],
  ]) {
    const res = await api(host, method, p);
    assert.equal(res.status, 405, `${method} ${p}: ${res.status} ${res.text}`);
    assert.equal(res.text, '{"error":"method_not_allowed"}', `${method} ${p}`);
  }
});

test("query strings are ignored, HEAD answers like GET, a trailing slash works", async () => {
  const plain = await api(host, "GET", "/api/state");
  for (const p of ["/api/state?x=1", "/api/state?", "/api/state/", "/api/state/?a=b&c", "/api/state?x=/y/z"]) {
    const res = await api(host, "GET", p);
    assert.equal(res.status, 200, `${p}: ${res.status} ${res.text}`);
    assert.deepEqual(res.body, plain.body, p);
  }
  const head = await api(host, "HEAD", "/api/state");
  assert.equal(head.status, 200);
  assert.equal(head.text, "");
  assert.match(head.headers.get("content-type") ?? "", /application\/json/);
  const config = await api(host, "GET", "/api/configuration/?verbose=1");
  assert.equal(config.status, 200);
  assert.deepEqual(config.body, await configuration());
  const put = await api(host, "PUT", "/api/panels/1/color/?x=1", { color: "#010101" });
  assert.equal(put.status, 202, put.text);
  assert.equal((await panels()).find((p) => p.address === 1)?.color, "#010101");
  const patch = await api(host, "PATCH", "/api/appearance?z", { brightness: 254 });
  assert.equal(patch.status, 202, patch.text);
  assert.equal((await api(host, "GET", "/api/appearance/")).body.brightness, 254);
});

test("a URL longer than 512 bytes: 414 uri_too_long", async () => {
  const res = await api(host, "GET", "/api/state?" + "x".repeat(600));
  assert.equal(res.status, 414, res.text);
  assert.equal(res.text, '{"error":"uri_too_long"}');
  assert.equal((await api(host, "GET", "/api/state")).status, 200);
});
