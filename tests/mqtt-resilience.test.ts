// MQTT resilience against a real broker: the last will when the host dies, reconnection after the
// broker restarts, wrong and right credentials (the password write-only and kept when patched
// empty), a broker that is not there, and the settings surviving a restart. HTTP keeps working
// throughout.
import { test } from "node:test";
import assert from "node:assert/strict";
import { startHost, api, waitFor, tempDir, type Host } from "./helpers/host.js";
import { startBroker, freePort, Observer } from "./helpers/mqtt.js";

const mqttState = async (host: Host) => (await api(host, "GET", "/api/mqtt")).body;

async function stillServes(host: Host): Promise<void> {
  assert.equal((await api(host, "GET", "/api/state")).status, 200);
  assert.equal((await api(host, "POST", "/api/state/power", { isOn: true })).status, 202);
}

test("the last will publishes offline when the host is killed", async () => {
  const broker = await startBroker();
  const obs = await Observer.connect(broker.port);
  const host = await startHost({ panels: 2 });
  try {
    const status = `tessera/${host.hostname}/status`;
    await api(host, "PATCH", "/api/mqtt", { enabled: true, broker: "127.0.0.1", port: broker.port });
    await obs.waitFor(status, (p) => p === "online");
    const from = obs.messages.length;
    await host.kill();
    assert.equal(await obs.waitFor(status, () => true, from), "offline");
    // The will is retained: a later subscriber sees offline too.
    const late = await Observer.connect(broker.port, [status]);
    assert.equal(await late.waitFor(status), "offline");
    await late.close();
  } finally {
    await host.stop();
    await obs.close();
    await broker.close();
  }
});

test("a graceful stop publishes offline too (a clean disconnect sends no will)", async () => {
  const broker = await startBroker();
  const obs = await Observer.connect(broker.port);
  const host = await startHost({ panels: 1 });
  try {
    const status = `tessera/${host.hostname}/status`;
    await api(host, "PATCH", "/api/mqtt", { enabled: true, broker: "127.0.0.1", port: broker.port });
    await obs.waitFor(status, (p) => p === "online");
    const from = obs.messages.length;
    await host.stop();
    assert.equal(await obs.waitFor(status, () => true, from), "offline");
  } finally {
    await host.stop();
    await obs.close();
    await broker.close();
  }
});

test("the controller reconnects after the broker restarts, and republishes", async () => {
  let broker = await startBroker();
  const port = broker.port;
  const host = await startHost({ panels: 2 });
  try {
    await api(host, "PATCH", "/api/mqtt", { enabled: true, broker: "127.0.0.1", port });
    await waitFor(async () => (await mqttState(host)).connected, 5000);
    await broker.close();
    await waitFor(async () => !(await mqttState(host)).connected, 5000);
    const down = await mqttState(host);
    assert.equal(down.lastError, "lost");
    await stillServes(host);
    broker = await startBroker(port);
    await waitFor(async () => (await mqttState(host)).connected, 10000);
    // A new broker has no retained state: the controller published it again on connect.
    const obs = await Observer.connect(port);
    assert.equal(await obs.waitFor(`tessera/${host.hostname}/status`), "online");
    assert.equal(await obs.waitFor(`tessera/${host.hostname}/state/power`), "ON");
    await obs.close();
  } finally {
    await host.stop();
    await broker.close();
  }
});

test("credentials: wrong password fails with auth, right one connects, an empty one keeps it; persisted; no password without a user name", async () => {
  const broker = await startBroker(0, { username: "tess", password: "s3cret" });
  const dataDir = tempDir();
  let host = await startHost({ panels: 2, dataDir });
  try {
    const wrong = await api(host, "PATCH", "/api/mqtt", {
      enabled: true,
      brokerDiscovery: 0,
      broker: "127.0.0.1",
      port: broker.port,
      username: "tess",
      password: "nope",
      topicPrefix: "home/lights",
    });
    assert.equal(wrong.status, 200);
    assert.ok(!("password" in wrong.body), "PATCH never returns the password");
    await waitFor(async () => (await mqttState(host)).lastError === "auth", 5000);
    assert.equal((await mqttState(host)).connected, false);
    await stillServes(host);

    const right = await api(host, "PATCH", "/api/mqtt", { password: "s3cret" });
    assert.ok(!right.text.includes("s3cret"));
    await waitFor(async () => (await mqttState(host)).connected, 5000);

    // An empty password leaves the stored one: the session restarts and connects again.
    const obs = await Observer.connect(broker.port).catch(() => null);
    assert.equal(obs, null, "the broker refuses anonymous clients");
    await api(host, "PATCH", "/api/mqtt", { password: "" });
    await waitFor(async () => (await mqttState(host)).connected, 5000);

    // Across a restart: the same settings, password included (it connects), never shown.
    await host.stop();
    host = await startHost({ panels: 2, dataDir });
    await waitFor(async () => (await mqttState(host)).connected, 5000);
    const after = await api(host, "GET", "/api/mqtt");
    assert.ok(!after.text.includes("s3cret") && !("password" in after.body));
    assert.equal(after.body.username, "tess");
    assert.equal(after.body.topicPrefix, "home/lights");
    assert.equal(after.body.port, broker.port);

    // A password needs a user name (MQTT): clearing the user name drops the stored password, so the
    // broker's refusal of an anonymous client is reported as such, and a password alone is refused.
    const lone = await api(host, "PATCH", "/api/mqtt", { username: "", password: "x" });
    assert.equal(lone.status, 422);
    assert.deepEqual(lone.body, {
      error: "password: needs a username (MQTT sends a password only with a user name)",
    });
    assert.equal((await api(host, "GET", "/api/mqtt")).body.username, "tess");
    assert.equal((await api(host, "PATCH", "/api/mqtt", { username: "" })).status, 200);
    await waitFor(async () => (await mqttState(host)).lastError === "auth", 5000);
    assert.equal((await mqttState(host)).connected, false);
    const back = await api(host, "PATCH", "/api/mqtt", { username: "tess" });
    assert.equal(back.status, 200);
    await waitFor(async () => (await mqttState(host)).lastError === "auth", 5000); // the password is gone
    await api(host, "PATCH", "/api/mqtt", { password: "s3cret" });
    await waitFor(async () => (await mqttState(host)).connected, 5000);
  } finally {
    await host.stop();
    await broker.close();
  }
});

test("a broker that is not there: unreachable, retried with backoff, HTTP unaffected", async () => {
  const port = await freePort();
  const host = await startHost({ panels: 2 });
  try {
    await api(host, "PATCH", "/api/mqtt", { enabled: true, brokerDiscovery: 0, broker: "127.0.0.1", port });
    await waitFor(async () => (await mqttState(host)).lastError === "unreachable", 5000);
    const s = await mqttState(host);
    assert.equal(s.connected, false);
    assert.equal(s.discoverySource, "manual");
    assert.equal(s.resolvedBroker, "127.0.0.1");
    assert.equal(s.resolvedPort, port);
    await stillServes(host);
    // A broker appearing there later is found by the retries.
    const broker = await startBroker(port);
    try {
      await waitFor(async () => (await mqttState(host)).connected, 10000);
    } finally {
      await api(host, "PATCH", "/api/mqtt", { enabled: false });
      await broker.close();
    }
  } finally {
    await host.stop();
  }
});

/** The retained messages a fresh subscriber to `filter` gets: those the broker delivers before a
 * marker published after subscribing. */
async function retainedUnder(port: number, filter: string, markerTopic: string): Promise<Map<string, string>> {
  const o = await Observer.connect(port, [filter]);
  try {
    await o.publish(markerTopic, "marker");
    await o.waitFor(markerTopic);
    const seen = new Map<string, string>();
    for (const m of o.messages) if (m.retain) seen.set(m.topic, m.payload);
    return seen;
  } finally {
    await o.close();
  }
}

test("new prefixes leave nothing retained under the old ones", async () => {
  const broker = await startBroker();
  const host = await startHost({ panels: 2 });
  try {
    const set = (body: object) => api(host, "PATCH", "/api/mqtt", body);
    const configs = (prefix: string) => retainedUnder(broker.port, `${prefix}/#`, `${prefix}/zz-marker`);
    await set({
      enabled: true,
      brokerDiscovery: 0,
      broker: "127.0.0.1",
      port: broker.port,
      topicPrefix: "old/lights",
      discoveryPrefix: "oldha",
    });
    await waitFor(async () => (await mqttState(host)).connected, 5000);
    await waitFor(async () => (await retainedUnder(broker.port, "old/lights/#", "old/lights/zz")).size >= 7, 5000);
    // five retained configs; the broker may store them after the states
    await waitFor(async () => (await configs("oldha")).size === 5, 5000);

    assert.equal((await set({ topicPrefix: "new/lights", discoveryPrefix: "" })).status, 200);
    await waitFor(async () => (await mqttState(host)).connected, 5000);
    await waitFor(async () => (await configs("homeassistant")).size === 5, 5000);
    // the clears go out on the old session while the host reconnects, so they may reach the broker
    // after the new configs: wait for them (a clear that is lost still fails here)
    await waitFor(async () => (await retainedUnder(broker.port, "old/lights/#", "old/lights/zz")).size === 0, 5000);
    assert.deepEqual([...(await configs("oldha")).keys()], []);
    const now = await retainedUnder(broker.port, "new/lights/#", "new/lights/zz");
    assert.equal(now.get("new/lights/status"), "online");
    assert.equal(now.get("new/lights/state/power"), "ON");
  } finally {
    await host.stop();
    await broker.close();
  }
});
