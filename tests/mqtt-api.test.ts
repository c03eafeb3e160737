// GET/PATCH /api/mqtt without a broker, and the Wi-Fi setup form: defaults, validation (nothing
// changes on a 422), broker_required, the small variant's 404, persistence, a discovery that finds
// nothing (HTTP keeps working), GET /setup and POST /api/setup. Runs against every host.
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import fs from "node:fs";
import { startHost, api, waitFor, tempDir, type Host } from "./helpers/host.js";

let host: Host;
const dataDir = tempDir();

before(async () => {
  host = await startHost({ panels: 2, dataDir });
});

after(async () => {
  await host?.stop();
});

const get = async () => (await api(host, "GET", "/api/mqtt")).body;

test("defaults: disabled, auto discovery, port 1883, the Tessera topic prefix", async () => {
  assert.deepEqual(await get(), {
    enabled: false,
    brokerDiscovery: 1,
    broker: "",
    port: 1883,
    username: "",
    topicPrefix: `tessera/${host.hostname}`,
    discoveryPrefix: "homeassistant",
    connected: false,
    brokerDiscoveryState: "idle",
    resolvedBroker: "",
    resolvedPort: 0,
    discoverySource: "none",
    lastError: "none",
  });
});

test("invalid patches answer 422 with path and rule, and change nothing", async () => {
  const before = await get();
  const cases: Array<[unknown, string]> = [
    [{ enabled: "yes" }, "enabled: must be a boolean, not a string"],
    [{ brokerDiscovery: 4 }, "brokerDiscovery: must be an integer 0-3"],
    [{ port: 0 }, "port: must be an integer 1-65535"],
    [{ port: 70000 }, "port: must be an integer 1-65535"],
    [{ broker: 5 }, "broker: must be a string, not a number"],
    [{ broker: "b".repeat(65) }, "broker: must be at most 64 characters"],
    [{ topicPrefix: "a/#" }, "topicPrefix: must be a topic without wildcards or outer slashes"],
    [{ discoveryPrefix: "ha/" }, "discoveryPrefix: must be a topic without wildcards or outer slashes"],
    [
      { colour: 1 },
      "colour: unknown field (accepted: enabled, brokerDiscovery, broker, port, username, password, topicPrefix, discoveryPrefix)",
    ],
    [[], "$: must be an object, not an array"],
    [{ enabled: true, brokerDiscovery: 0 }, "broker_required"],
    [{ enabled: true, brokerDiscovery: 0, broker: "" }, "broker_required"],
  ];
  for (const [body, error] of cases) {
    const res = await api(host, "PATCH", "/api/mqtt", body);
    assert.equal(res.status, 422, JSON.stringify(body));
    assert.deepEqual(res.body, { error }, JSON.stringify(body));
  }
  assert.equal((await api(host, "PATCH", "/api/mqtt", "{nope")).status, 400);
  assert.deepEqual(await get(), before);
});

test("PATCH answers like GET, never with the password; settings persist across a restart", async () => {
  const res = await api(host, "PATCH", "/api/mqtt", {
    brokerDiscovery: 2,
    port: 1884,
    username: "user",
    password: "hunter2",
    topicPrefix: "house/tessera",
    discoveryPrefix: "ha",
  });
  assert.equal(res.status, 200);
  assert.ok(!res.text.includes("hunter2") && !("password" in res.body));
  assert.deepEqual(res.body, await get());
  assert.equal(res.body.topicPrefix, "house/tessera");
  await host.stop();
  host = await startHost({ panels: 2, dataDir });
  const after = await get();
  assert.equal(after.brokerDiscovery, 2);
  assert.equal(after.port, 1884);
  assert.equal(after.username, "user");
  assert.equal(after.discoveryPrefix, "ha");
  assert.ok(!("password" in after));
  // Empty prefixes go back to the defaults.
  const reset = await api(host, "PATCH", "/api/mqtt", { topicPrefix: "", discoveryPrefix: "", port: 1883 });
  assert.equal(reset.body.topicPrefix, `tessera/${host.hostname}`);
  assert.equal(reset.body.discoveryPrefix, "homeassistant");
});

test("default hosts that do not answer: failed, HTTP fully working", async () => {
  const res = await api(host, "PATCH", "/api/mqtt", { enabled: true, brokerDiscovery: 3, broker: "" });
  assert.equal(res.status, 200);
  await waitFor(async () => (await get()).brokerDiscoveryState === "failed", 10000);
  const s = await get();
  assert.equal(s.connected, false);
  // The second default host was the last one tried.
  assert.equal(s.resolvedBroker, "homeassistant");
  assert.equal(s.resolvedPort, 1883);
  assert.equal(s.discoverySource, "homeassistant");
  assert.equal(s.lastError, "unreachable");
  assert.equal((await api(host, "GET", "/api/state")).status, 200);
  assert.equal((await api(host, "POST", "/api/state/power", { isOn: true })).status, 202);
  // Disabling clears the cached endpoint and the state.
  const off = await api(host, "PATCH", "/api/mqtt", { enabled: false });
  assert.equal(off.body.brokerDiscoveryState, "idle");
  assert.equal(off.body.resolvedBroker, "");
  assert.equal(off.body.discoverySource, "none");
});

test("the setup page is HTML with the Wi-Fi and MQTT fields", async () => {
  const res = await fetch(`${host.url}/setup`);
  assert.equal(res.status, 200);
  assert.match(res.headers.get("content-type") ?? "", /^text\/html/);
  const html = await res.text();
  for (const name of ["ssid", "password", "enabled", "brokerDiscovery", "broker", "port", "username", "mqttPassword"])
    assert.ok(html.includes(`name="${name}"`), name);
  assert.ok(html.includes("/api/setup"));
  // byte for byte the source page, served by the host with the web app's assets (gzip, revalidated)
  assert.equal(html, fs.readFileSync(new URL("../web/setup.html", import.meta.url), "utf8"));
  assert.equal(res.headers.get("cache-control"), "no-cache");
  assert.equal((await api(host, "POST", "/setup")).status, 404);
});

test("POST /api/setup validates everything first, then saves MQTT and hands over the station", async () => {
  const before = await get();
  for (const [body, error] of [
    [{ password: "x" }, "ssid: is required"],
    [{ ssid: "" }, "ssid: must be 1-32 bytes"],
    [{ ssid: "s".repeat(33) }, "ssid: must be 1-32 bytes"],
    [{ ssid: "home", password: 5 }, "password: must be a string, not a number"],
    [{ ssid: "home", mqtt: { enabled: true, brokerDiscovery: 0, broker: "" } }, "broker_required"],
    [
      { ssid: "home", mqtt: { topicPrefix: "x" } },
      "mqtt.topicPrefix: unknown field (accepted: enabled, brokerDiscovery, broker, port, username, password)",
    ],
    [{ ssid: "home", mqtt: { port: 0 } }, "mqtt.port: must be an integer 1-65535"],
    [{ ssid: "home", extra: 1 }, "extra: unknown field (accepted: ssid, password, mqtt)"],
  ] as Array<[unknown, string]>) {
    const res = await api(host, "POST", "/api/setup", body);
    assert.equal(res.status, 422, JSON.stringify(body));
    assert.deepEqual(res.body, { error }, JSON.stringify(body));
  }
  assert.deepEqual(await get(), before);
  const ok = await api(host, "POST", "/api/setup", {
    ssid: "home-net",
    password: "correct horse",
    mqtt: { enabled: false, brokerDiscovery: 0, broker: "10.0.0.5", port: 1885, username: "ha", password: "pw" },
  });
  assert.equal(ok.status, 200);
  assert.deepEqual(ok.body, { ok: true });
  const s = await get();
  assert.equal(s.broker, "10.0.0.5");
  assert.equal(s.port, 1885);
  assert.equal(s.username, "ha");
  await waitFor(() => /wifi: .*home-net/.test(host.output()), 2000);
});

test("the small variant has no MQTT: 404 not_found", async () => {
  const small = await startHost({ panels: 1, variant: "small" });
  try {
    for (const method of ["GET", "PATCH"]) {
      const res = await api(small, method, "/api/mqtt", method === "PATCH" ? { enabled: true } : undefined);
      assert.equal(res.status, 404, method);
      assert.deepEqual(res.body, { error: "not_found" });
    }
    // Its setup form takes the Wi-Fi credentials and refuses an MQTT part rather than drop it.
    const refused = await api(small, "POST", "/api/setup", { ssid: "home", mqtt: { enabled: true } });
    assert.equal(refused.status, 422);
    assert.deepEqual(refused.body, { error: "mqtt: this controller has no MQTT (small variant)" });
    assert.equal((await api(small, "POST", "/api/setup", { ssid: "home" })).status, 200);
  } finally {
    await small.stop();
  }
});
