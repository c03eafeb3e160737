// The core in-process, with no main loop: build/controller.wasm through the Core class, services
// that record every response and never tick, and a VirtualBus of emulated panels pumped by hand.
// Checks the bounded work queue (16 items, then 503 busy until a tick drains it), the limit of two
// requests between core_http_begin and core_http_dispatch, and that no byte string sent as a body or
// a URL traps the core or leaves a request unanswered or answered twice.
import { test, after } from "node:test";
import assert from "node:assert/strict";
import fs from "node:fs";
import path from "node:path";
import fc from "fast-check";
import { Core } from "../host/src/core.js";
import { FileStore } from "../host/src/store.js";
import { VirtualBus } from "../host/src/bus/virtual-bus.js";
import { generateTopology } from "../host/src/bus/topology.js";
import { METHOD_CODES, type CoreExports } from "../host/src/abi.js";
import { ROOT, tempDir } from "./helpers/host.js";

const PANELS = 4;
const QUEUE_SIZE = 16;

interface Response {
  heads: number;
  status: number;
  length: number;
  body: Buffer[];
  ends: number;
}

const responses = new Map<number, Response>();
const restarts: string[] = [];
const errors: string[] = [];
let now = 1000;
const dataDir = tempDir();
after(() => fs.rmSync(dataDir, { recursive: true, force: true }));

function record(req: number): Response {
  let r = responses.get(req);
  if (!r) {
    r = { heads: 0, status: 0, length: 0, body: [], ends: 0 };
    responses.set(req, r);
  }
  return r;
}

let core!: Core;
const bus = new VirtualBus(
  path.join(ROOT, "build/panel.wasm"),
  generateTopology(PANELS),
  (bytes) => core.busReceive(bytes),
  { clock: () => now },
);
core = new Core(path.join(ROOT, "build/controller.wasm"), 100, {
  busSend: (bytes) => bus.sendFromController(bytes),
  httpHead(req, status, length) {
    const r = record(req);
    r.heads++;
    r.status = status;
    r.length = length;
  },
  httpBody: (req, bytes) => void record(req).body.push(Buffer.from(bytes)),
  httpEnd: (req) => void record(req).ends++,
  wsSend: () => {},
  wsBroadcast: () => {},
  store: new FileStore(dataDir),
  clockMs: () => now,
  log(level, message) {
    if (level === "error") errors.push(message);
  },
  restarted: (reason) => void restarts.push(reason),
});
// Discovery runs on the panels' replies alone: one pump delivers everything it causes.
bus.pump();

/** The core's exports, for driving core_http_begin and core_http_dispatch separately. */
const exports = (core as unknown as { exports: CoreExports }).exports;

let nextReq = 1;

/** Sends a request the way the host does; returns its id. The bus is pumped, the core not ticked. */
function send(method: string | number, url: string | Uint8Array, body: string | Uint8Array = ""): number {
  const req = nextReq++;
  const u = typeof url === "string" ? Buffer.from(url) : url;
  const b = typeof body === "string" ? Buffer.from(body) : body;
  core.http(req, typeof method === "number" ? method : METHOD_CODES[method], u, b, b.length);
  bus.pump();
  return req;
}

/** The one complete answer to `req`: status, and body text (checked against the announced length). */
function answer(req: number): { status: number; text: string } {
  const r = responses.get(req);
  assert.ok(r, `request ${req} was not answered`);
  assert.equal(r.heads, 1, `request ${req}: ${r.heads} response heads`);
  assert.equal(r.ends, 1, `request ${req}: ended ${r.ends} times`);
  const body = Buffer.concat(r.body);
  if (r.length >= 0) assert.equal(body.length, r.length, `request ${req}: body length`);
  return { status: r.status, text: body.toString("utf8") };
}

function call(method: string, url: string, body?: unknown) {
  const req = send(method, url, body === undefined ? "" : JSON.stringify(body));
  return answer(req);
}

function noRestart() {
  assert.deepEqual(restarts, [], "the core trapped and was restarted");
}

test("discovery completed with no tick", () => {
  const edges = call("GET", "/api/panels/edges");
  assert.equal(edges.status, 200);
  assert.equal(JSON.parse(edges.text).length, PANELS * 3);
  const panels = call("GET", "/api/panels");
  assert.equal(panels.status, 200);
  assert.equal(JSON.parse(panels.text).length, PANELS);
  noRestart();
});

test("the work queue holds 16 items: the 17th PATCH gets 503 busy until a tick drains it", () => {
  const before = call("GET", "/api/appearance").text;
  for (let i = 0; i < QUEUE_SIZE; i++) {
    const res = call("PATCH", "/api/appearance", { brightness: i });
    assert.deepEqual(res, { status: 202, text: "{}" }, `PATCH ${i + 1}`);
  }
  // Nothing is applied before the tick.
  assert.equal(call("GET", "/api/appearance").text, before);
  assert.deepEqual(call("PATCH", "/api/appearance", { brightness: 200 }), {
    status: 503,
    text: '{"error":"busy"}',
  });
  // Every queued endpoint shares the queue; reads and storage-only writes do not need it.
  assert.deepEqual(call("POST", "/api/state/power", { isOn: false }), { status: 503, text: '{"error":"busy"}' });
  assert.deepEqual(call("PUT", "/api/panels/1/color", { color: "#FFFFFF" }), {
    status: 503,
    text: '{"error":"busy"}',
  });
  assert.deepEqual(call("PUT", "/api/panels/1/on", { value: 0 }), { status: 503, text: '{"error":"busy"}' });
  assert.deepEqual(call("PATCH", "/api/configuration", { logicalRoot: 2 }), {
    status: 503,
    text: '{"error":"busy"}',
  });
  assert.deepEqual(call("PATCH", "/api/configuration", { powerStateOnBoot: 0 }), { status: 200, text: "{}" });
  assert.equal(call("GET", "/api/state").status, 200);
  assert.equal(JSON.parse(call("GET", "/api/configuration").text).logicalRoot, 0);

  core.tick();
  bus.pump();
  // Applied in order: the last queued brightness wins; the refused ones left no trace.
  assert.equal(JSON.parse(call("GET", "/api/appearance").text).brightness, QUEUE_SIZE - 1);
  assert.equal(JSON.parse(call("GET", "/api/state").text).isOn, true);
  assert.deepEqual(call("PATCH", "/api/appearance", { brightness: 200 }), { status: 202, text: "{}" });
  core.tick();
  assert.equal(JSON.parse(call("GET", "/api/appearance").text).brightness, 200);
  noRestart();
});

test("a one-shot refused with 503 changes nothing: the stored one-shot stays the previous one", () => {
  const oneShot = (name: string) => ({
    name,
    layers: [{ group: 1, sequence: [{ type: "SOLID", color: "#102030", duration: 100 }] }],
  });
  const file = path.join(dataDir, "scenes", "oneshot000");
  assert.equal(call("POST", "/api/scenes/play/one-shot", oneShot("first")).status, 202);
  core.tick();
  bus.pump();
  const stored = fs.readFileSync(file);
  for (let i = 0; i < QUEUE_SIZE; i++) assert.equal(call("PUT", "/api/panels/1/on", { value: 1 }).status, 202);
  assert.deepEqual(call("POST", "/api/scenes/play/one-shot", oneShot("second")), {
    status: 503,
    text: '{"error":"busy"}',
  });
  assert.deepEqual(fs.readFileSync(file), stored, "the refused one-shot replaced the stored one");
  core.tick();
  bus.pump();
  noRestart();
});

test("a full text pool refuses like a full queue, before anything is stored (one-shot, appearance, power, root)", () => {
  const wide = "🎇".repeat(30); // 120 bytes of UTF-8: six queued fill the queue's text pool
  const palette = {
    schemaVersion: 1,
    name: wide,
    stops: [
      [0, "#FF0000"],
      [255, "#0000FF"],
    ],
  };
  assert.equal(call("POST", "/api/palettes", palette).status, 200);
  const scene = (color: string) => ({ layers: [{ group: 1, sequence: [{ type: "SOLID", color, duration: 100 }] }] });
  assert.equal(call("POST", "/api/scenes/play/one-shot", scene("#102030")).status, 202);
  core.tick();
  bus.pump();
  for (let i = 0; i < 6; i++) assert.equal(call("PATCH", "/api/appearance", { palette: wide }).status, 202, `${i}`);
  const files = ["scenes/oneshot000", "compiled/oneshot000", "appearance", "power", "configuration", "playback"];
  const snapshot = () =>
    files.map((f) => (fs.existsSync(path.join(dataDir, f)) ? fs.readFileSync(path.join(dataDir, f)) : null));
  const stored = snapshot();
  const read = () => ["/api/state", "/api/appearance", "/api/configuration"].map((u) => call("GET", u).text);
  const seen = read();
  const busy = { status: 503, text: '{"error":"busy"}' };
  assert.deepEqual(call("POST", "/api/scenes/play/one-shot", scene("#302010")), busy);
  assert.deepEqual(call("PATCH", "/api/appearance", { brightness: 7 }), busy);
  assert.deepEqual(call("POST", "/api/state/power", { isOn: false }), busy);
  assert.deepEqual(call("PATCH", "/api/configuration", { logicalRoot: 2 }), busy);
  assert.deepEqual(snapshot(), stored, "a refused request changed the store");
  assert.deepEqual(read(), seen);
  core.tick();
  bus.pump();
  const [state, appearance] = read().map((t) => JSON.parse(t));
  assert.equal(state.isOn, true);
  assert.equal(appearance.palette, wide);
  assert.equal(appearance.brightness, JSON.parse(seen[1]).brightness);
  assert.equal(JSON.parse(read()[2]).logicalRoot, JSON.parse(seen[2]).logicalRoot);
  noRestart();
});

test("the queue refills after draining, again exactly 16 deep", () => {
  for (let round = 0; round < 3; round++) {
    for (let i = 0; i < QUEUE_SIZE; i++) {
      assert.equal(call("PUT", `/api/panels/${1 + (i % PANELS)}/on`, { value: 1 }).status, 202);
    }
    assert.equal(call("PUT", "/api/panels/1/on", { value: 1 }).status, 503);
    core.tick();
    bus.pump();
  }
  noRestart();
});

test("queued palette names share a text pool: 16 ASCII names always fit, long ones beyond ASCII are busy first", () => {
  const ascii = "A palette name of 30 character";
  const wide = "🎆".repeat(30); // 120 bytes of UTF-8, the most a name takes
  for (const name of [ascii, wide]) {
    const res = call("POST", "/api/palettes", {
      schemaVersion: 1,
      name,
      stops: [
        [0, "#FF0000"],
        [255, "#0000FF"],
      ],
    });
    assert.equal(res.status, 200, res.text);
  }
  for (let i = 0; i < QUEUE_SIZE; i++) {
    const name = i % 2 ? ascii : "Ocean";
    assert.deepEqual(
      call("PATCH", "/api/appearance", { palette: name }),
      { status: 202, text: "{}" },
      `PATCH ${i + 1}`,
    );
  }
  assert.equal(call("PATCH", "/api/appearance", { palette: "Lava" }).status, 503);
  core.tick();
  bus.pump();
  assert.equal(JSON.parse(call("GET", "/api/appearance").text).palette, ascii);
  // the pool holds six names of 120 bytes; the seventh waits for the tick, as a full queue does
  for (let i = 0; i < 6; i++) assert.equal(call("PATCH", "/api/appearance", { palette: wide }).status, 202, `${i}`);
  assert.deepEqual(call("PATCH", "/api/appearance", { palette: wide }), { status: 503, text: '{"error":"busy"}' });
  core.tick();
  bus.pump();
  assert.equal(JSON.parse(call("GET", "/api/appearance").text).palette, wide);
  assert.equal(call("PATCH", "/api/appearance", { palette: "Ocean" }).status, 202);
  core.tick();
  bus.pump();
  assert.equal(JSON.parse(call("GET", "/api/appearance").text).palette, "Ocean");
  noRestart();
});

test("at most two requests between begin and dispatch: the third gets 503 busy", () => {
  const url = Buffer.from("/api/appearance");
  const body = Buffer.from('{"brightness":9}');
  const reqs = [nextReq++, nextReq++, nextReq++];
  const ptrs = reqs.map((req) => exports.core_http_begin(req, METHOD_CODES.PATCH, url.length, body.length));
  assert.notEqual(ptrs[0], 0);
  assert.notEqual(ptrs[1], 0);
  assert.equal(ptrs[2], 0);
  assert.deepEqual(answer(reqs[2]), { status: 503, text: '{"error":"busy"}' });
  assert.equal(responses.get(reqs[0]), undefined);
  assert.equal(responses.get(reqs[1]), undefined);
  // The two pending ones are still served, out of order, and free their slots.
  for (const i of [1, 0]) {
    new Uint8Array(exports.memory.buffer, ptrs[i], url.length).set(url);
    core.dispatch(reqs[i], body); // the body stays here: the core reads it (host_http_read)
    assert.deepEqual(answer(reqs[i]), { status: 202, text: "{}" });
  }
  // Dispatching an unknown or already served request does nothing.
  exports.core_http_dispatch(reqs[0]);
  exports.core_http_dispatch(999999);
  assert.equal(responses.get(reqs[0])!.ends, 1);
  core.tick();
  assert.equal(JSON.parse(call("GET", "/api/appearance").text).brightness, 9);
  // Both slots are free again.
  const again = [nextReq++, nextReq++].map((req) => [req, exports.core_http_begin(req, METHOD_CODES.GET, 1, 0)]);
  for (const [req, ptr] of again) {
    assert.notEqual(ptr, 0);
    new Uint8Array(exports.memory.buffer, ptr, 1).set([0x2f]);
    exports.core_http_dispatch(req);
    assert.deepEqual(answer(req), { status: 404, text: '{"error":"not_found"}' });
  }
  noRestart();
});

test("oversized bodies and URLs are refused at begin, before any buffer is handed out", () => {
  const big = nextReq++;
  assert.equal(exports.core_http_begin(big, METHOD_CODES.PATCH, 15, 32769), 0);
  assert.deepEqual(answer(big), { status: 413, text: '{"error":"payload_too_large"}' });
  const long = nextReq++;
  assert.equal(exports.core_http_begin(long, METHOD_CODES.GET, 513, 0), 0);
  assert.deepEqual(answer(long), { status: 414, text: '{"error":"uri_too_long"}' });
  const huge = nextReq++;
  assert.equal(exports.core_http_begin(huge, METHOD_CODES.PATCH, 15, 0xffffffff), 0);
  assert.equal(answer(huge).status, 413);
  noRestart();
});

// ---- fuzzing ---------------------------------------------------------------------------------

const SEGMENTS = [
  "api",
  "appearance",
  "state",
  "power",
  "configuration",
  "panels",
  "edges",
  "on",
  "color",
  "palettes",
  "scenes",
  "play",
  "1",
  "0",
  "4",
  "999",
  "",
  "..",
  "%00",
  "?",
  "?x=1",
];

const bytes = (max: number) => fc.uint8Array({ maxLength: max });
const utf8 = (s: string) => new Uint8Array(Buffer.from(s));

const KEYS = ["brightness", "baseColors", "palette", "isOn", "value", "color", "powerStateOnBoot", "logicalRoot"];

const colorArb = fc.oneof(
  fc.integer({ min: 0, max: 0xffffff }).map((n) => "#" + n.toString(16).padStart(6, "0")),
  fc.string({ maxLength: 8 }).map((t) => "#" + t),
);

/** Values that are valid for some field, or nearly so. */
const nearValueArb: fc.Arbitrary<unknown> = fc.oneof(
  fc.integer({ min: -3, max: 260 }),
  fc.constantFrom(0, 1, 2, 3, 0.5, 1e2, true, false, null, "1", "#FFFFFF"),
  colorArb,
  fc.array(colorArb, { minLength: 2, maxLength: 4 }),
  fc.constantFrom("Rainbow", "lava", "OCEAN", "Base colors", "base colors ", "Nope", ""),
);

/** Bodies: raw bytes, any JSON, objects with the real keys (wild or nearly valid values), JSON with junk. */
const bodyArb: fc.Arbitrary<Uint8Array> = fc.oneof(
  bytes(64),
  bytes(600),
  fc.json({ maxDepth: 4 }).map(utf8),
  fc
    .dictionary(fc.constantFrom(...KEYS), fc.jsonValue({ maxDepth: 2 }), { maxKeys: 3 })
    .map((o) => utf8(JSON.stringify(o))),
  fc.dictionary(fc.constantFrom(...KEYS), nearValueArb, { minKeys: 1, maxKeys: 3 }).map((o) => utf8(JSON.stringify(o))),
  fc.tuple(fc.json({ maxDepth: 3 }), fc.integer({ min: 0, max: 40 }), bytes(4)).map(([json, at, junk]) => {
    const b = Buffer.from(json);
    const cut = Math.min(at, b.length);
    return new Uint8Array(Buffer.concat([b.subarray(0, cut), junk, b.subarray(cut)]));
  }),
);

const ROUTES = [
  "/api/appearance",
  "/api/state",
  "/api/state/power",
  "/api/configuration",
  "/api/panels",
  "/api/panels/edges",
  "/api/panels/1/on",
  "/api/panels/4/color",
  "/api/panels/5/on",
  "/api/palettes",
  "/api/scenes",
];

/** URLs: raw bytes, real routes with noise after them, and paths made of real segments. */
const urlArb: fc.Arbitrary<Uint8Array> = fc.oneof(
  bytes(80),
  fc.constantFrom(...ROUTES).map(utf8),
  fc
    .tuple(fc.constantFrom(...ROUTES), fc.constantFrom("/", "?", "?a=1&b", "//", "/x", "#f", "%2F"), bytes(3))
    .map(([route, tail, junk]) => new Uint8Array(Buffer.concat([Buffer.from(route + tail), junk]))),
  fc
    .array(fc.oneof(fc.constantFrom(...SEGMENTS), fc.string({ maxLength: 6 })), { maxLength: 6 })
    .map((parts) => utf8("/" + parts.join("/"))),
  fc
    .tuple(fc.array(fc.constantFrom(...SEGMENTS), { maxLength: 5 }), bytes(12))
    .map(([parts, tail]) => new Uint8Array(Buffer.concat([Buffer.from("/" + parts.join("/")), tail]))),
);

/** The mutating endpoints with the keys their bodies take. */
const PATCH_TARGETS: Array<[string, string, string[]]> = [
  ["PATCH", "/api/appearance", ["brightness", "baseColors", "palette"]],
  ["PATCH", "/api/configuration", ["powerStateOnBoot", "logicalRoot"]],
  ["POST", "/api/state/power", ["isOn"]],
  ["PUT", "/api/panels/1/color", ["color"]],
  ["PUT", "/api/panels/2/on", ["value"]],
];

/** A target and a body for it: random, or an object of its own keys with nearly valid values. */
const targetedArb = fc.constantFrom(...PATCH_TARGETS).chain(([method, url, keys]) =>
  fc.tuple(
    fc.constant(method),
    fc.constant(url),
    fc.oneof(
      bodyArb,
      fc
        .dictionary(fc.constantFrom(...keys), nearValueArb, { minKeys: 1, maxKeys: keys.length })
        .map((o) => utf8(JSON.stringify(o))),
    ),
  ),
);

/** Sends one request, then ticks and pumps until it is answered; checks it was answered once with JSON. */
function fuzzOne(method: number, url: Uint8Array, body: Uint8Array): void {
  const req = nextReq++;
  core.http(req, method, url, body, body.length);
  for (let i = 0; i < 10 && !responses.get(req)?.ends; i++) {
    bus.pump();
    now += 20; // lets a live query whose panels stay silent time out
    core.tick();
  }
  bus.pump();
  core.tick();
  noRestart();
  const { status, text } = answer(req);
  assert.ok(status >= 200 && status < 600, `status ${status}`);
  if (status === 204) assert.equal(text, "");
  else assert.doesNotThrow(() => JSON.parse(text), `not JSON (${status}): ${JSON.stringify(text)}`);
  if (status >= 400) assert.equal(typeof JSON.parse(text).error, "string", text);
}

test("2000 random bodies to the mutating endpoints: no trap, each answered once with JSON", () => {
  fc.assert(
    fc.property(targetedArb, ([method, url, body]) => {
      fuzzOne(METHOD_CODES[method], utf8(url), body);
    }),
    { numRuns: 2000 },
  );
  assert.deepEqual(errors, []);
});

test("2000 random URLs with random methods: no trap, each answered once with JSON", () => {
  fc.assert(
    fc.property(
      fc.oneof(fc.constantFrom(1, 2, 3, 4, 5, 6), fc.integer({ min: 0, max: 255 })),
      urlArb,
      fc.oneof(fc.constant(new Uint8Array(0)), bodyArb),
      (method, url, body) => {
        fuzzOne(method, url, body);
      },
    ),
    { numRuns: 2000 },
  );
  assert.deepEqual(errors, []);
});

test("after the fuzzing the core still serves, its queue is empty and no request is left over", () => {
  for (const [req, r] of responses) {
    assert.equal(r.heads, 1, `request ${req}`);
    assert.equal(r.ends, 1, `request ${req}`);
  }
  for (let i = 0; i < QUEUE_SIZE; i++) assert.equal(call("PATCH", "/api/appearance", { brightness: 1 }).status, 202);
  assert.equal(call("PATCH", "/api/appearance", { brightness: 1 }).status, 503);
  core.tick();
  assert.equal(call("GET", "/api/state").status, 200);
  assert.equal(JSON.parse(call("GET", "/api/panels").text).length, PANELS);
  noRestart();
});
