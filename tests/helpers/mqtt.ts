// An in-process MQTT broker (aedes) on a real TCP port, and a real `mqtt` client that records every
// message it sees, for the MQTT black-box tests.
import net from "node:net";
import { Aedes } from "aedes";
import mqtt, { type MqttClient } from "mqtt";
import assert from "node:assert/strict";
import { api, waitFor, type Host } from "./host.js";

export interface Broker {
  port: number;
  aedes: Aedes;
  close(): Promise<void>;
}

/** A free TCP port (bound and released). */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const s = net.createServer();
    s.once("error", reject);
    s.listen(0, "127.0.0.1", () => {
      const port = (s.address() as net.AddressInfo).port;
      s.close(() => resolve(port));
    });
  });
}

/** Starts a broker on `port` (0: a free one), on 127.0.0.1 unless `anyInterface` (an address found by
 * mDNS is the machine's own). With `auth`, only that user/password may connect. */
export async function startBroker(
  port = 0,
  auth?: { username: string; password: string },
  anyInterface = false,
): Promise<Broker> {
  const aedes = await Aedes.createBroker();
  if (auth) {
    aedes.authenticate = (_client, username, password, done) => {
      const ok = username === auth.username && password?.toString() === auth.password;
      if (ok) return done(null, true);
      const e = Object.assign(new Error("bad credentials"), { returnCode: 4 });
      done(e as never, false);
    };
  }
  const server = net.createServer(aedes.handle);
  const sockets = new Set<net.Socket>();
  server.on("connection", (s) => {
    sockets.add(s);
    s.on("close", () => sockets.delete(s));
  });
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(port, anyInterface ? undefined : "127.0.0.1", () => resolve());
  });
  return {
    port: (server.address() as net.AddressInfo).port,
    aedes,
    async close() {
      for (const s of sockets) s.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      await new Promise<void>((resolve) => aedes.close(() => resolve()));
    },
  };
}

export interface Message {
  topic: string;
  payload: string;
  retain: boolean;
}

/** A test client: subscribes to `#` and keeps every message. */
export class Observer {
  readonly messages: Message[] = [];
  private constructor(readonly client: MqttClient) {
    client.on("message", (topic, payload, packet) =>
      this.messages.push({ topic, payload: payload.toString("utf8"), retain: packet.retain }),
    );
  }

  static async connect(port: number, topics: string[] = ["#"]): Promise<Observer> {
    const client = await mqtt.connectAsync({ host: "127.0.0.1", port, reconnectPeriod: 0, protocolVersion: 4 });
    const o = new Observer(client);
    await client.subscribeAsync(topics);
    return o;
  }

  /** The latest payload on `topic`, or undefined. */
  last(topic: string): string | undefined {
    for (let i = this.messages.length - 1; i >= 0; i--)
      if (this.messages[i].topic === topic) return this.messages[i].payload;
    return undefined;
  }

  /** Waits until a message on `topic` (after index `from`) satisfies `ok`; returns its payload. */
  async waitFor(
    topic: string,
    ok: (payload: string) => boolean = () => true,
    from = 0,
    timeoutMs = 5000,
  ): Promise<string> {
    const end = Date.now() + timeoutMs;
    for (;;) {
      const m = this.messages.slice(from).find((x) => x.topic === topic && ok(x.payload));
      if (m) return m.payload;
      if (Date.now() > end)
        throw new Error(`no message on ${topic} matching within ${timeoutMs} ms (last: ${this.last(topic)})`);
      await new Promise((r) => setTimeout(r, 10));
    }
  }

  publish(topic: string, payload: string, retain = false): Promise<unknown> {
    return this.client.publishAsync(topic, payload, { qos: 0, retain });
  }

  close(): Promise<void> {
    return this.client.endAsync(true);
  }
}

/** Points `host` at the broker on 127.0.0.1:`port` (manual broker) and waits until it is connected. */
export async function connectToBroker(host: Host, port: number): Promise<void> {
  const res = await api(host, "PATCH", "/api/mqtt", { enabled: true, brokerDiscovery: 0, broker: "127.0.0.1", port });
  assert.equal(res.status, 200, res.text);
  await waitFor(async () => (await api(host, "GET", "/api/mqtt")).body.connected === true, 5000);
}
