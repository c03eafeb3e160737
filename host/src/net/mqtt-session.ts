// The MQTT session the core drives through host_mqtt_*: one `mqtt` client at a time, never
// reconnecting on its own (the core owns resolution and backoff). Exactly one outcome is reported
// per connect (connected, or failed with a reason), then `lost` if an established session drops.
// A disconnect or a newer connect silences the old client; what the core published before goes
// out ahead of its DISCONNECT, and a newer client connects only once the old connection has closed
// (or after STOP_GRACE_MS): both use the same client id, and a broker that sees the new CONNECT
// first takes the session over, dropping what it had not read of the old one and publishing its will.
import mqtt, { type MqttClient } from "mqtt";
import { MQTT_EVENT, MQTT_REASON } from "../abi.js";

export interface MqttConnectParams {
  host: string;
  port: number;
  keepalive: number;
  clientId: string;
  username: string;
  password: string;
  willTopic: string;
  willPayload: Uint8Array;
  willRetain: boolean;
}

export interface MqttEvents {
  event(kind: number, reason: number): void;
  message(topic: Uint8Array, payload: Uint8Array): void;
  log(level: string, message: string): void;
}

/** Reads the packed record of host_mqtt_connect (docs/host-abi.md). */
export function unpackConnect(b: Uint8Array): MqttConnectParams | null {
  const view = new DataView(b.buffer, b.byteOffset, b.byteLength);
  if (b.length < 5) return null;
  let at = 5;
  const strings: Uint8Array[] = [];
  for (let i = 0; i < 6; i++) {
    if (at + 2 > b.length) return null;
    const n = view.getUint16(at, true);
    if (at + 2 + n > b.length) return null;
    strings.push(b.subarray(at + 2, at + 2 + n));
    at += 2 + n;
  }
  const text = (u: Uint8Array) => Buffer.from(u).toString("utf8");
  return {
    port: view.getUint16(0, true),
    keepalive: view.getUint16(2, true),
    willRetain: (b[4] & 1) !== 0,
    host: text(strings[0]),
    clientId: text(strings[1]),
    username: text(strings[2]),
    password: text(strings[3]),
    willTopic: text(strings[4]),
    willPayload: strings[5].slice(),
  };
}

/** CONNACK return codes 4 (bad user name or password) and 5 (not authorized), v5 134/135. */
const AUTH_CODES = new Set([4, 5, 134, 135]);
/** A dropped client gets this long to flush and see its connection closed. */
const STOP_GRACE_MS = 1000;

export class MqttSession {
  private client: MqttClient | null = null;
  private will: { topic: string; payload: Buffer; retain: boolean } | null = null;
  /** Bumped by every connect and disconnect: a connect waiting for `leaving` that is no longer the
   * latest gives up. */
  private generation = 0;
  /** Resolves once the last dropped client's connection has closed (or its grace is over). */
  private leaving: Promise<void> = Promise.resolve();

  constructor(private readonly events: MqttEvents) {}

  connect(p: MqttConnectParams): void {
    this.disconnect();
    const generation = this.generation;
    void this.leaving.then(() => {
      if (this.generation === generation) this.start(p);
    });
  }

  private start(p: MqttConnectParams): void {
    const client = mqtt.connect({
      host: p.host,
      port: p.port,
      protocol: "mqtt",
      protocolVersion: 4,
      clientId: p.clientId,
      username: p.username || undefined,
      password: p.password || undefined,
      keepalive: p.keepalive,
      clean: true,
      reconnectPeriod: 0,
      connectTimeout: 10000,
      will: p.willTopic
        ? { topic: p.willTopic, payload: Buffer.from(p.willPayload), retain: p.willRetain, qos: 0 }
        : undefined,
    });
    this.client = client;
    this.will = p.willTopic ? { topic: p.willTopic, payload: Buffer.from(p.willPayload), retain: p.willRetain } : null;
    let up = false;
    let reported = false;
    let reason: number = MQTT_REASON.unreachable;
    const current = () => this.client === client;
    client.on("connect", () => {
      if (!current() || reported) return;
      up = reported = true;
      this.events.event(MQTT_EVENT.connected, 0);
    });
    client.on("error", (e: Error & { code?: string | number }) => {
      if (typeof e.code === "number") reason = AUTH_CODES.has(e.code) ? MQTT_REASON.auth : MQTT_REASON.refused;
      this.events.log("debug", `mqtt: ${p.host}:${p.port}: ${e.message}`);
    });
    client.on("message", (topic, payload) => {
      if (current()) this.events.message(Buffer.from(topic, "utf8"), payload);
    });
    client.on("close", () => {
      if (!current()) return;
      this.client = null;
      client.end(true);
      if (up) this.events.event(MQTT_EVENT.lost, 0);
      else if (!reported) this.events.event(MQTT_EVENT.failed, reason);
      reported = true;
    });
  }

  /** The core publishes only while it holds the session up: one that cannot go out is said (the
   * connection dropped and its `lost` is on the way). */
  publish(topic: string, payload: Uint8Array, retain: boolean): void {
    const client = this.client;
    if (client?.connected) client.publish(topic, Buffer.from(payload), { qos: 0, retain });
    else if (client) this.events.log("warn", `mqtt: dropped a publish on ${topic}: not connected`);
  }

  subscribe(topic: string): void {
    if (this.client?.connected) this.client.subscribe(topic, { qos: 0 });
  }

  disconnect(): void {
    this.generation++;
    const client = this.client;
    this.client = null;
    if (!client) return;
    // QoS 0 publishes are written at once, so DISCONNECT follows them on the same stream
    this.leaving = new Promise<void>((resolve) => {
      const timer = setTimeout(resolve, STOP_GRACE_MS);
      timer.unref();
      client.end(false, () => {
        clearTimeout(timer);
        resolve();
      });
    });
  }

  /** The host stops (SIGTERM): a clean disconnect sends no last will, so publish it first. */
  async shutdown(): Promise<void> {
    const client = this.client;
    const will = this.will;
    if (client?.connected && will)
      await client.publishAsync(will.topic, will.payload, { qos: 0, retain: will.retain }).catch(() => {});
    this.disconnect();
    await this.leaving;
  }
}
