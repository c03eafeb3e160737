// mDNS against real multicast on this machine (the desktop host's bonjour-service, the POSIX host's
// libmdnsd; checked here with bonjour-service): the controller's `_tessera._tcp` advertisement, and
// a broker found by browsing `_mqtt._tcp` (advertised here), and `_arduino._tcp` on the self-update port;
// a browse after the start-up announcements finds both too (the answers carry SRV, TXT and A), and
// SRV, TXT and A queries are answered.
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import dgram from "node:dgram";
import os from "node:os";
import { Bonjour, type Service } from "bonjour-service";
import multicastDns from "multicast-dns";
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

/** The first service of this type named `name` a browse on `bonjour` finds; with `everyType`, a
 * browse of every service type (a `_services._dns-sd._udp` query first, as Home Assistant's does). */
function browse(bonjour: Bonjour, type: string, name: string, timeoutMs = 8000, everyType = false): Promise<Service> {
  return new Promise<Service>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`no _${type}._tcp service ${name}`)), timeoutMs);
    const browser = bonjour.find(everyType ? null : { type }, (s: Service) => {
      if (s.name !== name || s.type !== type) return;
      clearTimeout(timer);
      browser.stop();
      resolve(s);
    });
  });
}

/** Resolves once no mDNS response naming `hostname` has been on the multicast group for `quietMs`:
 * the host's start-up announcements are over, so what a browse finds then came in answer to it. */
async function announcementsOver(hostname: string, quietMs: number, limitMs: number): Promise<void> {
  const sock = dgram.createSocket({ type: "udp4", reuseAddr: true });
  await new Promise<void>((resolve) => sock.bind(5353, () => resolve()));
  sock.addMembership("224.0.0.251");
  const label = Buffer.from(hostname);
  const start = Date.now();
  let last = start;
  sock.on("message", (msg) => {
    if (msg.length > 12 && msg[2] & 0x80 && msg.includes(label)) last = Date.now(); // QR: a response
  });
  try {
    while (Date.now() - last < quietMs) {
      if (Date.now() - start > limitMs) throw new Error(`${hostname} still announcing after ${limitMs} ms`);
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  } finally {
    sock.close();
  }
}

after(async () => {
  await host?.stop();
  await new Promise<void>((resolve) => bonjour.unpublishAll(() => resolve()));
  bonjour.destroy();
  await broker?.close();
});

test("the controller advertises <hostname>.local, _tessera._tcp, its port and TXT records", async () => {
  const firmware = (await api(host, "GET", "/api/state")).body.controllerFirmware;
  const found = await browse(bonjour, "tessera", host.hostname);
  assert.equal(found.port, host.port);
  assert.equal(found.host, `${host.hostname}.local`);
  assert.equal(found.protocol, "tcp");
  assert.deepEqual(found.txt, { version: firmware, variant: "large", panels: "3" });
});

test("the self-update port is advertised as _arduino._tcp with Arduino's TXT keys (no password)", async () => {
  const found = await browse(bonjour, "arduino", host.hostname);
  assert.equal(found.port, otaPort);
  assert.equal(found.host, `${host.hostname}.local`);
  assert.equal(found.txt.auth_upload, "no");
  assert.equal(found.txt.tcp_check, "no");
  assert.equal(found.txt.ssh_upload, "no");
  assert.ok(found.txt.board);
});

test("mode 2 finds the broker by browsing _mqtt._tcp and connects", async (t) => {
  const name = `test-broker-${process.pid}`;
  // Another test run on this machine (two worktrees at once) may advertise its own broker, and the
  // host takes whichever answers first: every _mqtt._tcp service seen meanwhile is recorded.
  const watcher = bonjour.find({ type: "mqtt" });
  const seen = new Map<number, string>();
  watcher.on("up", (s: Service) => seen.set(s.port, s.name));
  const ad = bonjour.publish({ name, type: "mqtt", port: broker.port });
  const obs = await Observer.connect(broker.port);
  try {
    for (let attempt = 1; ; attempt++) {
      const res = await api(host, "PATCH", "/api/mqtt", { enabled: true, brokerDiscovery: 2, broker: "" });
      assert.equal(res.status, 200);
      await waitFor(async () => (await api(host, "GET", "/api/mqtt")).body.connected === true, 10000).catch((e) => {
        throw new Error(`${e.message}\n${host.output()}`);
      });
      const s = (await api(host, "GET", "/api/mqtt")).body;
      assert.equal(s.discoverySource, "mdns");
      assert.equal(s.brokerDiscoveryState, "done");
      assert.match(s.resolvedBroker, /^\d+\.\d+\.\d+\.\d+$/);
      if (s.resolvedPort === broker.port) break;
      // Not ours: then it must be another one advertised here; once that has gone, browse again.
      const other = seen.get(s.resolvedPort);
      assert.ok(other && other !== name, `port ${s.resolvedPort} was not advertised: ${JSON.stringify([...seen])}`);
      assert.ok(attempt < 3, `another run's broker (${other}) answered first ${attempt} times`);
      t.diagnostic(`${other} answered first: browsing again once it has gone`);
      await waitFor(async () => watcher.services.every((o) => o.name === name), 60000);
    }
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
    watcher.stop();
    await new Promise<void>((resolve) => (ad.stop ? ad.stop(() => resolve()) : resolve()));
    await obs.close();
  }
});

test("a browse after the start-up announcements finds the controller and its self-update port, with address", async () => {
  // RFC 6763 section 12.1: the PTR answer carries the SRV, the TXT and the host's A as additional
  // records; a browser such as bonjour-service (or Home Assistant's zeroconf) asks nothing more.
  await announcementsOver(host.hostname, 3000, 60000);
  const own = Object.values(os.networkInterfaces())
    .flat()
    .filter((i) => i && i.family === "IPv4" && !i.internal)
    .map((i) => i!.address);
  const late = new Bonjour(); // a browser that saw none of the announcements
  try {
    const [tessera, arduino] = await Promise.all([
      browse(late, "tessera", host.hostname, 5000),
      browse(late, "arduino", host.hostname, 5000),
    ]);
    assert.equal(tessera.port, host.port);
    assert.equal(tessera.host, `${host.hostname}.local`);
    assert.equal(tessera.txt.variant, "large");
    assert.equal(arduino.port, otaPort);
    assert.equal(arduino.txt.auth_upload, "no");
    // then a browse of every type finds it as well (the type enumeration leaves the answers on)
    const any = await browse(late, "tessera", host.hostname, 5000, true);
    assert.equal(any.port, host.port);
    for (const s of [tessera, arduino, any])
      assert.ok(
        s.addresses?.some((a) => (own.length ? own : ["127.0.0.1"]).includes(a)),
        `${s.type} addresses ${JSON.stringify(s.addresses)}, this machine's ${JSON.stringify(own)}`,
      );
  } finally {
    late.destroy();
  }
});

test("SRV, TXT and A queries for the controller are answered", async () => {
  const mdns = multicastDns();
  /** The first answer of this type and name on the group after the query. */
  const ask = (name: string, type: "SRV" | "TXT" | "A") =>
    new Promise<multicastDns.ResponsePacket["answers"][number]>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`no answer to ${type} ${name}`)), 5000);
      const onResponse = (res: multicastDns.ResponsePacket) => {
        const a = res.answers.find((r) => r.type === type && r.name.toLowerCase() === name.toLowerCase());
        if (!a) return;
        clearTimeout(timer);
        mdns.removeListener("response", onResponse);
        resolve(a);
      };
      mdns.on("response", onResponse);
      mdns.query(name, type);
    });
  try {
    const instance = `${host.hostname}._tessera._tcp.local`;
    const srv = await ask(instance, "SRV");
    assert.deepEqual(srv.type === "SRV" && { port: srv.data.port, target: srv.data.target }, {
      port: host.port,
      target: `${host.hostname}.local`,
    });
    const txt = await ask(instance, "TXT");
    const entries = txt.type === "TXT" ? [txt.data].flat().map(String) : [];
    assert.ok(entries.includes("variant=large"), JSON.stringify(entries));
    const a = await ask(`${host.hostname}.local`, "A");
    assert.match(a.type === "A" ? a.data : "", /^\d+\.\d+\.\d+\.\d+$/);
  } finally {
    mdns.destroy();
  }
});
