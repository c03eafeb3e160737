// The Host and Origin policy (docs/decisions.md), black box: a request is served only when its Host
// names the controller (its mDNS name, an IP literal, localhost, a configured name); a request or
// WebSocket upgrade carrying an Origin must come from such a name; clients without Origin work as
// before; refusals are JSON; no response ever carries a CORS header.
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { startHost, api, type Host } from "./helpers/host.js";
import { request, rawRequest, RawWs } from "./helpers/raw.js";

let host: Host;
before(async () => {
  host = await startHost({ panels: 3 });
});
after(async () => {
  await host.stop();
});

const get = (headers: Record<string, string>, path = "/api/state") => request(host.port, "GET", path, headers);

test("Host must name the controller: its mDNS name, an IP literal or localhost, any port and case", async () => {
  const own = [
    `localhost:${host.port}`,
    "localhost",
    "LOCALHOST.",
    `127.0.0.1:${host.port}`,
    "192.168.1.20",
    "[::1]",
    `[fe80::1%25eth0]:${host.port}`,
    `${host.hostname}.local`,
    `${host.hostname.toUpperCase()}.LOCAL.:80`,
    host.hostname,
  ];
  for (const h of own) {
    const res = await get({ Host: h });
    assert.equal(res.status, 200, `Host: ${h}`);
    assert.equal(typeof res.json.isOn, "boolean");
  }
  const foreign = [
    "evil.example",
    `evil.example:${host.port}`,
    "tessera-000000.local.evil.example",
    `${host.hostname}.local.evil.example`,
    "localhost.evil.example",
    "1.2.3.4.evil.example",
    "256.1.1.1",
    "[zz::1]",
    "localhost:80x",
  ];
  for (const h of foreign) {
    const res = await get({ Host: h });
    assert.equal(res.status, 421, `Host: ${h}`);
    assert.deepEqual(res.json, { error: "misdirected_request" });
  }
  // the web app and the setup page too, not only the API
  assert.equal((await get({ Host: "evil.example" }, "/")).status, 421);
  assert.equal((await get({ Host: "evil.example" }, "/setup")).status, 421);
});

test("a request without Host is answered 400 JSON", async () => {
  const res = await rawRequest(host.port, "GET /api/state HTTP/1.0\r\n\r\n");
  assert.equal(res.status, 400);
  assert.deepEqual(res.json, { error: "host_required" });
});

test("a cross-site page cannot control the controller; its own page and clients without Origin can", async () => {
  const setup = JSON.stringify({ ssid: "attacker", password: "attacker-pass" });
  const cross = await request(
    host.port,
    "POST",
    "/api/setup",
    { Host: `192.168.1.20`, Origin: "http://evil.example", "Content-Type": "text/plain" },
    setup,
  );
  assert.equal(cross.status, 403);
  assert.deepEqual(cross.json, { error: "cross_origin" });
  const power = await request(
    host.port,
    "POST",
    "/api/state/power",
    { Host: `localhost:${host.port}`, Origin: "http://192.168.1.66", "Content-Type": "text/plain" },
    '{"isOn":false}',
  );
  assert.equal(power.status, 403);
  assert.equal((await api(host, "GET", "/api/state")).body.isOn, true, "nothing changed");

  // a page of the controller itself: Origin is its own Host, or one of its names
  const selfOrigins: [string, string][] = [
    [`localhost:${host.port}`, `http://localhost:${host.port}`],
    ["192.168.1.20", "http://192.168.1.20"],
    ["192.168.1.20:8080", "http://192.168.1.20:8080/"],
    ["192.168.1.20", `http://${host.hostname}.local`],
    [`${host.hostname}.local`, `https://${host.hostname}.local`],
  ];
  for (const [h, o] of selfOrigins) {
    const res = await get({ Host: h, Origin: o });
    assert.equal(res.status, 200, `Host ${h}, Origin ${o}`);
  }
  const badOrigins = [
    "null",
    "http://evil.example",
    "http://192.168.1.21", // another machine's address
    `http://${host.hostname}.local.evil.example`,
    "file://",
    "ftp://localhost",
    "localhost",
    "http://",
  ];
  for (const o of badOrigins) {
    const res = await get({ Host: "192.168.1.20", Origin: o });
    assert.equal(res.status, 403, `Origin ${o}`);
    assert.deepEqual(res.json, { error: "cross_origin" });
  }
  // no Origin: curl, scripts, Home Assistant
  const plain = await api(host, "PATCH", "/api/appearance", { brightness: 77 });
  assert.equal(plain.status, 202);
});

test("no response carries a CORS header, preflights included", async () => {
  const answers = [
    await request(host.port, "OPTIONS", "/api/state", {
      Host: `localhost:${host.port}`,
      Origin: `http://localhost:${host.port}`,
      "Access-Control-Request-Method": "POST",
    }),
    await request(host.port, "OPTIONS", "/api/setup", {
      Host: "192.168.1.20",
      Origin: "http://evil.example",
      "Access-Control-Request-Method": "POST",
    }),
    await get({ Host: `localhost:${host.port}`, Origin: `http://localhost:${host.port}` }),
    await get({ Host: "192.168.1.20", Origin: "http://evil.example" }),
    await get({ Host: `localhost:${host.port}` }, "/"),
  ];
  for (const a of answers) {
    for (const name of Object.keys(a.headers)) assert.ok(!name.startsWith("access-control-"), `${name} sent`);
    if (a.status >= 400) assert.equal(typeof a.json?.error, "string", `a ${a.status} with a JSON error`);
  }
  assert.equal(answers[0].status, 405);
});

test("a WebSocket upgrade from a foreign page or name is refused with a JSON answer, its own page is served", async () => {
  const refused: Record<string, string>[] = [
    { Origin: "http://evil.example" },
    { Host: "evil.example", Origin: "http://evil.example" },
    { Host: "rebound.example" },
  ];
  for (const headers of refused) {
    await assert.rejects(RawWs.open(host.port, headers), (e: any) => {
      assert.ok([403, 421].includes(e.answer.status), `status ${e.answer.status}`);
      assert.equal(typeof e.answer.json.error, "string");
      return true;
    });
  }
  const ws = await RawWs.open(host.port, { Origin: `http://localhost:${host.port}` });
  await ws.waitFor((f) => f.opcode === 2 && f.payload[0] === 13); // APP_STATE on open
  ws.destroy();
});

test("configuration allowedHosts adds names, validated, stored and applied at once", async () => {
  assert.equal((await get({ Host: "lights.home.arpa" })).status, 421);
  const bad = await api(host, "PATCH", "/api/configuration", { allowedHosts: ["bad name"] });
  assert.equal(bad.status, 422);
  assert.match(bad.body.error, /^allowedHosts\[0\]: /);
  assert.equal(
    (await api(host, "PATCH", "/api/configuration", { allowedHosts: ["a", "b", "c", "d", "e"] })).status,
    422,
  );
  const ok = await api(host, "PATCH", "/api/configuration", { allowedHosts: ["Lights.Home.Arpa"] });
  assert.equal(ok.status, 200);
  assert.deepEqual((await api(host, "GET", "/api/configuration")).body.allowedHosts, ["Lights.Home.Arpa"]);
  assert.equal((await get({ Host: "lights.home.arpa:8080" })).status, 200);
  assert.equal((await get({ Host: "192.168.1.20", Origin: "http://lights.home.arpa:8080" })).status, 200);
  assert.equal((await get({ Host: "other.home.arpa" })).status, 421);
  assert.equal((await api(host, "PATCH", "/api/configuration", { allowedHosts: [] })).status, 200);
  assert.equal((await get({ Host: "lights.home.arpa" })).status, 421);
});
