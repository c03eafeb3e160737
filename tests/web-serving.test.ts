// The web app as every host serves it (black box, no browser): / and each asset it names are
// gzip-encoded with their content types, caching headers and ETags (304 on If-None-Match), HEAD
// gives the head only, the API and the setup form are unchanged beside them, and all the assets
// together stay within the 48 KB (gzipped) budget the device has for them.
import { test, after, before } from "node:test";
import assert from "node:assert/strict";
import http from "node:http";
import fs from "node:fs";
import path from "node:path";
import zlib from "node:zlib";
import { startHost, api, ROOT, type Host } from "./helpers/host.js";

const BUDGET = 48 * 1024;

interface Raw {
  status: number;
  headers: http.IncomingHttpHeaders;
  body: Buffer;
}

/** A request with node:http, which (unlike fetch) hands over the bytes as sent: gzip stays gzip. */
function raw(host: Host, p: string, method = "GET", headers: http.OutgoingHttpHeaders = {}): Promise<Raw> {
  return new Promise((resolve, reject) => {
    const req = http.request(
      `${host.url}${p}`,
      { method, headers: { "Accept-Encoding": "gzip", ...headers } },
      (res) => {
        const chunks: Buffer[] = [];
        res.on("data", (c: Buffer) => chunks.push(c));
        res.on("end", () => resolve({ status: res.statusCode!, headers: res.headers, body: Buffer.concat(chunks) }));
      },
    );
    req.on("error", reject);
    req.end();
  });
}

let host: Host;
before(async () => {
  host = await startHost({ panels: 3 });
});
after(() => host.stop());

/** The hashed assets index.html names: the stylesheet, the script, the panel engine and the icons
 * (its links to pages, /setup, are not assets; the manifest keeps its name, like /). */
function referenced(html: string): string[] {
  const refs = [...html.matchAll(/(?:href|src|data-panel-wasm)="(\/[^"]+)"/g)].map((m) => m[1]);
  return [...new Set(refs)].filter((r) => r !== "/setup" && r !== MANIFEST);
}
const MANIFEST = "/manifest.webmanifest";

test("GET / is the app's HTML, gzip-encoded, revalidated on every load (no-cache + ETag)", async () => {
  const r = await raw(host, "/");
  assert.equal(r.status, 200);
  assert.equal(r.headers["content-type"], "text/html; charset=utf-8");
  assert.equal(r.headers["content-encoding"], "gzip");
  assert.equal(r.headers["cache-control"], "no-cache");
  assert.match(r.headers.etag ?? "", /^"[0-9a-f]+"$/);
  assert.equal(Number(r.headers["content-length"]), r.body.length);
  const html = zlib.gunzipSync(r.body).toString("utf8");
  assert.match(html, /<div id="app"/);
  assert.ok(!/https?:\/\//.test(html), "no external (CDN, font) URL in the page");
  // A query string does not change what / is.
  assert.deepEqual((await raw(host, "/?from=qr")).body, r.body);
});

test("every asset / names is served gzip-encoded, with its type, a year's immutable caching and an ETag", async () => {
  const html = zlib.gunzipSync((await raw(host, "/")).body).toString("utf8");
  const refs = referenced(html);
  const types: Record<string, RegExp> = {
    js: /^text\/javascript/,
    css: /^text\/css/,
    wasm: /^application\/wasm$/,
    svg: /^image\/svg\+xml$/,
    png: /^image\/png$/,
  };
  assert.deepEqual(refs.map((r) => r.split(".").pop()).sort(), ["css", "js", "png", "svg", "wasm"]);
  for (const ref of refs) {
    assert.match(
      ref,
      /^\/[a-z0-9-]+\.[0-9a-f]{10}\.(js|css|wasm|svg|png)$/,
      "hashed names, so they can be cached for good",
    );
    const r = await raw(host, ref);
    assert.equal(r.status, 200, ref);
    assert.match(r.headers["content-type"] ?? "", types[ref.split(".").pop()!], ref);
    assert.equal(r.headers["content-encoding"], "gzip", ref);
    assert.equal(r.headers["cache-control"], "public, max-age=31536000, immutable", ref);
    assert.match(r.headers.etag ?? "", /^"[0-9a-f]+"$/);
    const plain = zlib.gunzipSync(r.body);
    assert.ok(plain.length > 0);
    if (ref.endsWith(".js"))
      assert.ok(!/https?:\/\/(?!www\.w3\.org)/.test(plain.toString()), "no external URL in the script");
    if (ref.endsWith(".wasm")) {
      assert.deepEqual(plain, fs.readFileSync(path.join(ROOT, "build/panel.wasm")), "the panels' own firmware");
      await WebAssembly.compile(plain);
    }
  }
});

test("If-None-Match with the ETag answers 304 without a body; another tag gets the asset", async () => {
  const first = await raw(host, "/");
  const etag = first.headers.etag!;
  const again = await raw(host, "/", "GET", { "If-None-Match": etag });
  assert.equal(again.status, 304);
  assert.equal(again.body.length, 0);
  assert.equal(again.headers.etag, etag);
  assert.equal(again.headers["cache-control"], "no-cache");
  const listed = await raw(host, "/", "GET", { "If-None-Match": `"0000", W/${etag}` });
  assert.equal(listed.status, 304, "a weak tag in a list matches too");
  const other = await raw(host, "/", "GET", { "If-None-Match": '"0123456789abcdef"' });
  assert.equal(other.status, 200);
  assert.deepEqual(other.body, first.body);
});

test("HEAD / sends the head (the GET's length) and no body", async () => {
  const get = await raw(host, "/");
  const head = await raw(host, "/", "HEAD");
  assert.equal(head.status, 200);
  assert.equal(head.body.length, 0);
  assert.equal(head.headers["content-encoding"], "gzip");
  assert.equal(head.headers["content-length"], String(get.body.length));
});

test("the API, the setup form (an asset of its own) and the core's 404 beside the app", async () => {
  const state = await api(host, "GET", "/api/state");
  assert.equal(state.status, 200);
  assert.equal(state.headers.get("content-type"), "application/json");
  const setup = await raw(host, "/setup");
  assert.equal(setup.status, 200);
  assert.match(setup.headers["content-type"] ?? "", /^text\/html/);
  assert.match(zlib.gunzipSync(setup.body).toString(), /<form/);
  const missing = await api(host, "GET", "/app.0000000000.js");
  assert.equal(missing.status, 404);
  assert.deepEqual(missing.body, { error: "not_found" });
  // Other methods on / are the core's business (it has no route there).
  assert.equal((await api(host, "POST", "/", "{}")).status, 404);
});

test(`all assets together are at most ${BUDGET} bytes gzipped (the device's budget), as served and as built`, async () => {
  const index = await raw(host, "/");
  const html = zlib.gunzipSync(index.body).toString("utf8");
  let served = index.body.length;
  const manifest = JSON.parse(zlib.gunzipSync((await raw(host, MANIFEST)).body).toString()) as {
    icons: { src: string }[];
  };
  const icons = manifest.icons.map((i) => i.src);
  for (const ref of new Set([...referenced(html), ...icons, MANIFEST, "/setup"]))
    served += (await raw(host, ref)).body.length;
  const built = JSON.parse(fs.readFileSync(path.join(ROOT, "build/web/assets.json"), "utf8")) as { gzipSize: number }[];
  const total = built.reduce((n, a) => n + a.gzipSize, 0);
  assert.equal(served, total, "the host serves exactly the built assets");
  assert.ok(total <= BUDGET, `the web app is ${total} B gzipped, over the ${BUDGET} B budget`);
});
