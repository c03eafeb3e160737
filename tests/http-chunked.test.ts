// Bodies sent without a Content-Length (`Transfer-Encoding: chunked`), black box on every host: a
// chunked scene or setting is taken like one of known length; a chunked firmware upload (above the
// core's 32 KiB document limit, so streamed with its length unknown: docs/host-abi.md) flashes the
// panels, its length checked against the image's header; a chunked body too long for its route gets
// the same 413 as one with a Content-Length, and changes nothing.
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import fs from "node:fs";
import path from "node:path";
import http from "node:http";
import { startHost, api, type Host } from "./helpers/host.js";
import { panelImage } from "./helpers/panel-image.js";
import { advance } from "./helpers/playback.js";
import { checkResponse } from "./helpers/openapi.js";
import { baseScene } from "./helpers/scenes.js";

const PANELS = 3;
let host: Host;
before(async () => {
  host = await startHost({ panels: PANELS, extraArgs: ["--manual-clock"] });
});
after(async () => {
  await host.stop();
});

/** A request whose body goes in `piece`-byte writes; chunked unless `length` says to send Content-Length. */
function send(
  method: string,
  p: string,
  body: Uint8Array,
  opts: { piece?: number; length?: boolean } = {},
): Promise<{ status: number; body: any; headers: http.IncomingHttpHeaders }> {
  return new Promise((resolve, reject) => {
    const headers: http.OutgoingHttpHeaders = { "Content-Type": "application/octet-stream" };
    if (opts.length) headers["Content-Length"] = body.length;
    const req = http.request(`${host.url}${p}`, { method, headers, agent: false }, (res) => {
      let text = "";
      res.on("data", (d) => (text += d));
      res.on("end", () => {
        checkResponse(method, p, res.statusCode!, res.headers["content-type"] ?? null, text);
        resolve({ status: res.statusCode!, body: JSON.parse(text), headers: res.headers });
      });
    });
    req.on("error", reject);
    const piece = opts.piece ?? 4096;
    for (let at = 0; at < body.length; at += piece) req.write(body.subarray(at, at + piece));
    req.end();
  });
}

async function flashDone(): Promise<any> {
  for (let i = 0; i < 20000; i++) {
    const s = (await api(host, "GET", "/api/firmware/status")).body;
    if (s.state === "done" || s.state === "error") return s;
    await advance(host, 10);
  }
  throw new Error("the flash did not end");
}

test("a chunked scene and a chunked setting are taken as with a Content-Length", async () => {
  const scene = { ...baseScene(), name: "Chunked" };
  const res = await send("POST", "/api/scenes", Buffer.from(JSON.stringify(scene)), { piece: 7 });
  assert.ok(res.status === 200 || res.status === 201, JSON.stringify(res.body));
  const list = (await api(host, "GET", "/api/scenes")).body as { id: string; name: string }[];
  const created = list.find((s) => s.name === "Chunked");
  assert.ok(created, JSON.stringify(list));
  assert.equal((await api(host, "GET", `/api/scenes/${created.id}`)).body.name, "Chunked");
  const patch = await send("PATCH", "/api/appearance", Buffer.from('{"brightness": 33}'), { piece: 3 });
  assert.equal(patch.status, 202);
  await advance(host, 50);
  assert.equal((await api(host, "GET", "/api/appearance")).body.brightness, 33);
});

test("a chunked body too long for its route gets the same 413 as one with a Content-Length", async () => {
  const before = (await api(host, "GET", "/api/scenes")).body;
  for (const size of [40_000, 70_000, 3_000_000]) {
    const body = Buffer.from(JSON.stringify({ ...baseScene(), name: "x".repeat(size) }));
    const chunked = await send("POST", "/api/scenes", body, { piece: 16384 });
    const known = await send("POST", "/api/scenes", body, { length: true, piece: 16384 });
    assert.equal(chunked.status, 413, `${size} B chunked`);
    assert.deepEqual([chunked.status, chunked.body], [known.status, known.body], `${size} B`);
    const put = await send("PATCH", "/api/appearance", body, { piece: 16384 });
    assert.equal(put.status, 413, `${size} B PATCH`);
  }
  assert.deepEqual((await api(host, "GET", "/api/scenes")).body, before, "nothing was created");
  assert.equal((await api(host, "GET", "/api/appearance")).status, 200);
});

test("a chunked firmware upload streams: the panels are flashed; a length that disagrees with the image is 422", async () => {
  const image = panelImage(6, 40_000); // ~49 KB: above 32 KiB, streamed with its length unknown
  // one byte short, and one too many: the image's header decides, as a Content-Length would
  for (const bad of [image.subarray(0, image.length - 1), Buffer.concat([image, Buffer.from([0])])]) {
    const res = await send("POST", "/api/firmware/panels", bad);
    assert.equal(res.status, 422, JSON.stringify(res.body));
    assert.deepEqual(res.body, { error: "length mismatch" });
  }
  assert.equal((await api(host, "GET", "/api/firmware/status")).body.state, "idle");
  const res = await send("POST", "/api/firmware/panels", image, { piece: 1000 });
  assert.deepEqual([res.status, res.body], [200, { status: "flashing", panels: PANELS }]);
  const end = await flashDone();
  assert.equal(end.state, "done", JSON.stringify(end));
  assert.ok(fs.readFileSync(path.join(host.dataDir, "firmware/panel.fw")).equals(image));
});
