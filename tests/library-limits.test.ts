// The scene library at its limits (device fit): 100 stored scenes with 64-character names, emoji in
// names, a large body on requests that take none, and Home Assistant's scene select over the whole
// library. Every answer is right and the core never traps. Runs against every host.
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import http from "node:http";
import { startHost, api, waitFor, type Host } from "./helpers/host.js";
import { startBroker, connectToBroker, Observer, type Broker } from "./helpers/mqtt.js";
import WebSocket from "ws";
import { baseScene, maximalScene } from "./helpers/scenes.js";
import { checkResponse } from "./helpers/openapi.js";
import { frame, T } from "./helpers/frames.js";

let host: Host;
let broker: Broker;
let obs: Observer;
const names = new Map<string, string>(); // id -> name

/** 64 characters: a number to keep them apart, emoji (two UTF-16 units each) in every tenth. */
function nameOf(i: number): string {
  if (i % 10 === 3) {
    let s = `🎆 ${i} `;
    while (s.length + 2 <= 64) s += "🌈";
    return s.padEnd(64, "x");
  }
  return `scene ${String(i).padStart(3, "0")} `.padEnd(64, "abcdefghij");
}

/** A request with a body whatever the method (fetch refuses a body on GET). */
function request(method: string, path: string, body: string): Promise<{ status: number; text: string }> {
  return new Promise((resolve, reject) => {
    const req = http.request(host.url + path, { method, headers: { "content-length": Buffer.byteLength(body) } });
    req.on("response", (res) => {
      const chunks: Buffer[] = [];
      res.on("data", (c: Buffer) => chunks.push(c));
      res.on("end", () => {
        const text = Buffer.concat(chunks).toString("utf8");
        checkResponse(method, path, res.statusCode ?? 0, res.headers["content-type"] ?? null, text);
        resolve({ status: res.statusCode ?? 0, text });
      });
    });
    req.on("error", reject);
    req.end(body);
  });
}

const trapped = () => /core trapped/.test(host.output());

before(async () => {
  broker = await startBroker();
  obs = await Observer.connect(broker.port, ["homeassistant/select/+/config"]);
  host = await startHost({ panels: 4 });
  for (let i = 0; i < 100; i++) {
    const name = nameOf(i);
    const res = await api(host, "POST", "/api/scenes", { ...baseScene(), name });
    assert.equal(res.status, 200, res.text);
    names.set(res.body.id, name);
  }
});

after(async () => {
  await host?.stop();
  await obs?.close();
  await broker?.close();
});

function sorted(): string[] {
  return [...names.entries()].sort(([ia, a], [ib, b]) => (a < b ? -1 : a > b ? 1 : ia < ib ? -1 : 1)).map(([id]) => id);
}

test("100 scenes with 64-character names are listed in name order, emoji included", async () => {
  const res = await api(host, "GET", "/api/scenes");
  assert.equal(res.status, 200, res.text);
  assert.equal(res.body.length, 100);
  assert.deepEqual(
    res.body.map((s: { id: string }) => s.id),
    sorted(),
  );
  for (const s of res.body) assert.equal(s.name, names.get(s.id));
  assert.ok(!trapped(), host.output());
});

test("a library full at 100 scenes refuses the next with 507 and keeps listing", async () => {
  const res = await api(host, "POST", "/api/scenes", { ...baseScene(), name: "one too many" });
  assert.equal(res.status, 507);
  assert.match(res.body.error, /full/);
  assert.equal((await api(host, "GET", "/api/scenes")).body.length, 100);
});

test("a large body on requests that take none changes nothing about their answers", async () => {
  const body = "x".repeat(30000);
  const list = await request("GET", "/api/scenes", body);
  assert.equal(list.status, 200);
  assert.equal(JSON.parse(list.text).length, 100);
  for (const path of ["/api/state", "/api/appearance", "/api/palettes", "/api/panels/edges", "/api/layout"]) {
    const res = await request("GET", path, body);
    assert.equal(res.status, 200, `${path}: ${res.text}`);
    assert.deepEqual(JSON.parse(res.text), (await api(host, "GET", path)).body, path);
  }
  const [id] = names.keys();
  const one = await request("GET", `/api/scenes/${id}`, body);
  assert.equal(one.status, 200);
  assert.equal(JSON.parse(one.text).name, names.get(id));
  assert.ok(!trapped(), host.output());
});

test("Home Assistant's scene select carries all 100 scenes, names cut to 40 UTF-16 units", async () => {
  await connectToBroker(host, broker.port);
  const topic = `homeassistant/select/${host.hostname}_scene/config`;
  const select = JSON.parse(await obs.waitFor(topic, (p) => JSON.parse(p).options.length === 101, 0, 10000));
  const expected = [...names.keys()].sort().map((id) => {
    let label = names.get(id)!.slice(0, 40);
    if (/[\uD800-\uDBFF]$/.test(label)) label = label.slice(0, 39); // never half an emoji
    return `${label} (${id})`;
  });
  assert.deepEqual(select.options, ["Stopped", ...expected]);
  // the library is listed the same after the broker took the large document
  assert.equal((await api(host, "GET", "/api/scenes")).body.length, 100);
  assert.ok(!trapped(), host.output());
});

test("with the library full, MQTT connected and a mirror client, the maximal scene saves and plays", async () => {
  const ws = new WebSocket(host.wsUrl);
  await new Promise((resolve) => ws.on("open", resolve));
  ws.send(frame(T.SET_MIRROR, [1]));
  const [first] = names.keys();
  assert.equal((await api(host, "DELETE", `/api/scenes/${first}`)).status, 200);
  names.delete(first);
  const doc = maximalScene();
  const saved = await api(host, "POST", "/api/scenes", doc);
  assert.equal(saved.status, 200, saved.text);
  names.set(saved.body.id, doc.name);
  const list = await api(host, "GET", "/api/scenes");
  assert.equal(list.body.length, 100);
  assert.equal((await api(host, "POST", `/api/scenes/${saved.body.id}/play`)).status, 202);
  await waitFor(async () => (await api(host, "GET", "/api/state")).body.playing === true, 5000);
  ws.close();
  assert.ok(!trapped(), host.output());
});
