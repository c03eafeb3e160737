// mDNS against real multicast on this machine (the desktop host's bonjour-service, the POSIX host's
// libmdnsd; checked here with bonjour-service): the controller's `_tessera._tcp` advertisement, and
// a broker found by browsing `_mqtt._tcp` (advertised here), and `_arduino._tcp` on the self-update port.
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import dgram from "node:dgram";
import { Bonjour, type Service } from "bonjour-service";
import { startHost, api, waitFor, type Host } from "./helpers/host.js";
import { startBroker, Observer, type Broker } from "./helpers/mqtt.js";

let bonjour: Bonjour;
let host: Host;
let broker: Broker;
let otaPort: number;

before(async () => {
  bonjour = new Bonjour();
  broker = await startBroker(0, undefined, true);
  const udp = dgram.createSocket("udp4"); // a free UDP port for the self-update
  await new Promise<void>((resolve) => udp.bind(0, () => resolve()));
  otaPort = udp.address().port;
  await new Promise<void>((resolve) => udp.close(() => resolve()));
  host = await startHost({ panels: 3, mdns: true, otaPort, extraArgs: ["--log-level", "info"] });
});

after(async () => {
  await host?.stop();
  await new Promise<void>((resolve) => bonjour.unpublishAll(() => resolve()));
  bonjour.destroy();
  await broker?.close();
});

test("the controller advertises <hostname>.local, _tessera._tcp, its port and TXT records", async () => {
  const firmware = (await api(host, "GET", "/api/state")).body.controllerFirmware;
  const found = await new Promise<Service>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error("no _tessera._tcp service")), 8000);
    const browser = bonjour.find({ type: "tessera" }, (s: Service) => {
      if (s.name !== host.hostname) return;
      clearTimeout(timer);
      browser.stop();
      resolve(s);
    });
  });
  assert.equal(found.port, host.port);
  assert.equal(found.host, `${host.hostname}.local`);
  assert.equal(found.protocol, "tcp");
  assert.deepEqual(found.txt, { version: firmware, variant: "large", panels: "3" });
});

test("the self-update port is advertised as _arduino._tcp with Arduino's TXT keys (no password)", async () => {
  const found = await new Promise<Service>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error("no _arduino._tcp service")), 8000);
    const browser = bonjour.find({ type: "arduino" }, (s: Service) => {
      if (s.name !== host.hostname) return;
      clearTimeout(timer);
      browser.stop();
      resolve(s);
    });
  });
  assert.equal(found.port, otaPort);
  assert.equal(found.host, `${host.hostname}.local`);
  assert.equal(found.txt.auth_upload, "no");
  assert.equal(found.txt.tcp_check, "no");
  assert.equal(found.txt.ssh_upload, "no");
  assert.ok(found.txt.board);
});

test("mode 2 finds the broker by browsing _mqtt._tcp and connects", async () => {
  bonjour.publish({ name: `test-broker-${process.pid}`, type: "mqtt", port: broker.port });
  const obs = await Observer.connect(broker.port);
  try {
    const res = await api(host, "PATCH", "/api/mqtt", { enabled: true, brokerDiscovery: 2, broker: "" });
    assert.equal(res.status, 200);
    await waitFor(async () => (await api(host, "GET", "/api/mqtt")).body.connected === true, 10000).catch((e) => {
      throw new Error(`${e.message}\n${host.output()}`);
    });
    const s = (await api(host, "GET", "/api/mqtt")).body;
    assert.equal(s.discoverySource, "mdns");
    assert.equal(s.brokerDiscoveryState, "done");
    assert.equal(s.resolvedPort, broker.port);
    assert.match(s.resolvedBroker, /^\d+\.\d+\.\d+\.\d+$/);
    assert.equal(await obs.waitFor(`tessera/${host.hostname}/status`), "online");
    // The manual setting wins over discovery whatever the mode.
    const manual = await api(host, "PATCH", "/api/mqtt", { broker: "127.0.0.1", port: broker.port });
    assert.equal(manual.body.discoverySource, "none"); // cleared, resolved on the next tick
    await waitFor(async () => (await api(host, "GET", "/api/mqtt")).body.connected === true, 5000);
    const m = (await api(host, "GET", "/api/mqtt")).body;
    assert.equal(m.discoverySource, "manual");
    assert.equal(m.brokerDiscoveryState, "idle");
    assert.equal(m.resolvedBroker, "127.0.0.1");
  } finally {
    await obs.close();
  }
});
