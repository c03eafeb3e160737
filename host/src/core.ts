// Loads build/controller.wasm and implements its imports (host/src/abi.ts) on top of the services
// a host provides. The core is restarted from the stored settings if it ever traps, as a device's
// watchdog would reboot it; the services are told so they can drop per-core state.
import fs from "node:fs";
import { randomInt } from "node:crypto";
import {
  CORE_IMPORTS,
  LOG_LEVELS,
  HTTP_READ_LATER,
  wasmImports,
  coreExports,
  type CoreExports,
  type CoreImports,
} from "./abi.js";
import type { FileStore } from "./store.js";
import { buildId, buildIdHex, checkCoreImage } from "./image.js";

export interface CoreServices {
  busSend(bytes: Uint8Array): void;
  httpHead(req: number, status: number, length: number): void;
  httpBody(req: number, bytes: Uint8Array): void;
  httpEnd(req: number): void;
  wsSend(conn: number, bytes: Uint8Array): void;
  wsBroadcast(bytes: Uint8Array): void;
  store: FileStore;
  /** host_serial_write: bytes out of the serial port (none without --serial). */
  serialWrite?(bytes: Uint8Array): void;
  clockMs(): number;
  /** host_random(): 32 random bits; crypto entropy unless given (see seededRandom). */
  random?(): number;
  log(level: string, message: string): void;
  /** The core trapped and was restarted: everything it held (requests, connections) is gone. */
  restarted(reason: string): void;
  /** mDNS, MQTT and Wi-Fi setup; without it (benches, in-process tests) they do nothing. */
  net?: NetServices;
}

export interface NetServices {
  hostname: string;
  httpPort(): number;
  /** host_mdns_* and host_mqtt_* with their packed records still packed (host/src/net reads them). */
  mdnsAdvertise(record: Uint8Array): void;
  mdnsBrowse(service: string, timeoutMs: number): void;
  mqttConnect(record: Uint8Array): void;
  mqttPublish(topic: string, payload: Uint8Array, retain: boolean): void;
  mqttSubscribe(topic: string): void;
  mqttDisconnect(): void;
  wifiConfigure(ssid: string, password: string): void;
}

/** The `--seed N` test hook: host_random() as xorshift32 (13/17/5) from `seed` (0 counts as
 * 0x9e3779b9), so a core that draws its randomness from host_random() replays exactly. The POSIX
 * host's port_random() gives the same sequence for the same seed. */
export function seededRandom(seed: number): () => number {
  let x = seed >>> 0 || 0x9e3779b9;
  return () => {
    x ^= x << 13;
    x >>>= 0;
    x ^= x >>> 17;
    x ^= x << 5;
    x >>>= 0;
    return x;
  };
}

const utf8 = new TextDecoder("utf-8", { fatal: false });

export class Core {
  private exports!: CoreExports;
  /** The body of the request being dispatched, read in order by host_http_read. */
  private body: { req: number; bytes: Uint8Array; read: number; more: boolean } | null = null;
  /** The pieces of an MQTT payload so far (host_mqtt_append), put before the publish that ends it. */
  private mqttPending: Uint8Array[] = [];
  /** The pieces of a WebSocket frame's tail so far (host_ws_append), put after the send or broadcast
   * that ends it (it carries the frame's start). */
  private wsPending: Uint8Array[] = [];
  private module: WebAssembly.Module;
  /** The running image's build identifier (host/src/image.ts), passed to core_init. */
  private build: number;

  constructor(
    wasmFile: string,
    private readonly maxPanels: number,
    private readonly services: CoreServices,
  ) {
    const image = fs.readFileSync(wasmFile);
    this.module = new WebAssembly.Module(image);
    this.build = buildId(image);
    this.boot();
  }

  private boot(): void {
    this.exports = coreExports(new WebAssembly.Instance(this.module, wasmImports(this.imports())));
    this.mqttPending = [];
    this.wsPending = [];
    this.exports.core_init(this.maxPanels, this.build);
  }

  /** The running image's build identifier, 8 hex digits. */
  get buildId(): string {
    return buildIdHex(this.build);
  }

  /**
   * Self-update: replaces the running core with another image. The image must compile and have
   * exactly the host ABI's imports and exports; the new core boots on the same store (core_init).
   * Throws, with the old core still running, when the image is not a core or its boot traps. The
   * caller tells the connections (the old core's requests and WebSocket ids are unknown to the new).
   */
  swap(image: Uint8Array): void {
    const module = checkCoreImage(image);
    const old = { module: this.module, exports: this.exports, build: this.build };
    this.module = module;
    this.build = buildId(image);
    try {
      this.boot();
    } catch (e) {
      Object.assign(this, old);
      throw new Error(`the new core did not boot (${e instanceof Error ? e.message : String(e)})`);
    }
  }

  private bytes(ptr: number, len: number): Uint8Array {
    return new Uint8Array(this.exports.memory.buffer, ptr >>> 0, len >>> 0);
  }

  private text(ptr: number, len: number): string {
    return utf8.decode(this.bytes(ptr, len));
  }

  private imports(): CoreImports {
    const s = this.services;
    const n: NetServices = s.net ?? NO_NET;
    const copy = (ptr: number, len: number) => this.bytes(ptr, len).slice();
    const imports: CoreImports = {
      host_bus_send: (ptr, len) => s.busSend(copy(ptr, len)),
      host_http_head: (req, status, length) => s.httpHead(req >>> 0, status, length),
      host_http_body: (req, ptr, len) => s.httpBody(req >>> 0, copy(ptr, len)),
      host_http_end: (req) => s.httpEnd(req >>> 0),
      host_http_read: (req, ptr, cap) => {
        const b = this.body;
        if (!b || b.req !== req >>> 0) return -1;
        const piece = b.bytes.subarray(b.read, b.read + (cap >>> 0));
        if (piece.length === 0 && b.more) return HTTP_READ_LATER;
        this.bytes(ptr, piece.length).set(piece);
        b.read += piece.length;
        return piece.length;
      },
      host_ws_send: (conn, ptr, len) => s.wsSend(conn >>> 0, joined(this.wsPending, copy(ptr, len), true)),
      host_ws_broadcast: (ptr, len) => s.wsBroadcast(joined(this.wsPending, copy(ptr, len), true)),
      host_ws_append: (ptr, len) => {
        this.wsPending.push(copy(ptr, len));
      },
      host_store_read: (key, keyLen, offset, buf, cap) =>
        s.store.read(this.text(key, keyLen), offset >>> 0, this.bytes(buf, cap)),
      host_store_write: (key, keyLen, ptr, len) => s.store.write(this.text(key, keyLen), copy(ptr, len)),
      host_store_delete: (key, keyLen) => s.store.delete(this.text(key, keyLen)),
      host_store_append: (key, keyLen, ptr, len) => s.store.append(this.text(key, keyLen), copy(ptr, len)),
      host_store_rename: (from, fromLen, to, toLen) => s.store.rename(this.text(from, fromLen), this.text(to, toLen)),
      host_serial_write: (ptr, len) => s.serialWrite?.(copy(ptr, len)),
      host_store_list: (prefix, prefixLen, offset, buf, cap) => {
        const list = Buffer.from(s.store.list(this.text(prefix, prefixLen)));
        const from = Math.min(offset >>> 0, list.length);
        this.bytes(buf, cap).set(list.subarray(from, from + (cap >>> 0)));
        return list.length;
      },
      host_clock_ms: () => (s.clockMs() >>> 0) | 0,
      host_clock_us: () => (Math.floor(s.clockMs() * 1000) >>> 0) | 0,
      host_random: () => (s.random ? s.random() : randomInt(0, 2 ** 32)) | 0,
      host_log: (level, ptr, len) => s.log(LOG_LEVELS[level] ?? "info", this.text(ptr, len)),
      host_panic: (ptr, len) => {
        throw new CorePanic(this.text(ptr, len));
      },
      host_mdns_hostname: (buf, cap) => {
        const name = Buffer.from(n.hostname);
        this.bytes(buf, cap).set(name.subarray(0, cap >>> 0));
        return name.length;
      },
      host_http_port: () => n.httpPort(),
      host_mdns_advertise: (ptr, len) => n.mdnsAdvertise(copy(ptr, len)),
      host_mdns_browse: (service, serviceLen, timeoutMs) =>
        n.mdnsBrowse(this.text(service, serviceLen), timeoutMs >>> 0),
      host_mqtt_connect: (ptr, len) => n.mqttConnect(copy(ptr, len)),
      host_mqtt_append: (payload, payloadLen) => {
        this.mqttPending.push(copy(payload, payloadLen));
      },
      host_mqtt_publish: (topic, topicLen, payload, payloadLen, retain) =>
        n.mqttPublish(
          this.text(topic, topicLen),
          joined(this.mqttPending, copy(payload, payloadLen), false),
          retain !== 0,
        ),
      host_mqtt_subscribe: (topic, topicLen) => n.mqttSubscribe(this.text(topic, topicLen)),
      host_mqtt_disconnect: () => n.mqttDisconnect(),
      host_wifi_configure: (ssid, ssidLen, pass, passLen) =>
        n.wifiConfigure(this.text(ssid, ssidLen), this.text(pass, passLen)),
    };
    for (const name of Object.keys(CORE_IMPORTS)) if (!(name in imports)) throw new Error(`missing import ${name}`);
    return imports;
  }

  /** Runs a core call; a trap restarts the core and is reported instead of thrown. */
  private guard<T>(call: () => T, fallback: T): T {
    try {
      return call();
    } catch (e) {
      const reason = e instanceof Error ? e.message : String(e);
      this.services.log("error", `core trapped (${reason}); restarting it`);
      this.boot();
      this.services.restarted(reason);
      return fallback;
    }
  }

  tick(): number {
    return this.guard(() => this.exports.core_tick(), 10);
  }

  /** Hands an HTTP request to the core. The answer arrives through httpHead/httpBody/httpEnd.
   * `more`: the body streams (only its first bytes are here); the rest goes to httpMore. */
  http(req: number, method: number, url: Uint8Array, body: Uint8Array, bodyLength: number, more = false): number {
    return this.guard(() => {
      const ptr = this.exports.core_http_begin(req, method, url.length, bodyLength);
      if (ptr === 0) return 0;
      this.bytes(ptr, url.length).set(url);
      return this.dispatch(req, body, more);
    }, 0);
  }

  /** More of a streamed body (`more` false: its end): the core reads it in a dispatch of its own.
   * Returns how many of the bytes the core took. */
  httpMore(req: number, body: Uint8Array, more: boolean): number {
    return this.guard(() => this.dispatch(req, body, more), 0);
  }

  /** core_http_allow: Host then Origin through the rx buffer. False when the core refused the request
   * (and answered it through httpHead/httpBody/httpEnd). */
  allow(req: number, host: Uint8Array, origin: Uint8Array): boolean {
    return this.guard(() => {
      const ptr = this.exports.core_rx_buffer(host.length + origin.length);
      if (ptr !== 0) {
        this.bytes(ptr, host.length).set(host);
        this.bytes(ptr + host.length, origin.length).set(origin);
      }
      return this.exports.core_http_allow(req, host.length, origin.length) === 1;
    }, false);
  }

  /** core_http_dispatch of a request begun with core_http_begin; the core reads `body` meanwhile. */
  dispatch(req: number, body: Uint8Array, more = false): number {
    const b = { req: req >>> 0, bytes: body, read: 0, more };
    this.body = b;
    try {
      this.exports.core_http_dispatch(req);
    } finally {
      this.body = null;
    }
    return b.read;
  }

  /** Bytes from the serial port. */
  serialReceive(bytes: Uint8Array): void {
    this.guard(() => {
      for (let at = 0; at < bytes.length; at += 1024) {
        const piece = bytes.subarray(at, at + 1024);
        const ptr = this.exports.core_rx_buffer(piece.length);
        if (ptr === 0) return;
        this.bytes(ptr, piece.length).set(piece);
        this.exports.core_serial_receive(piece.length);
      }
    }, undefined);
  }

  wsOpen(conn: number): boolean {
    return this.guard(() => this.exports.core_ws_open(conn) === 1, false);
  }

  wsFrame(conn: number, frame: Uint8Array): void {
    this.guard(() => {
      const ptr = this.exports.core_rx_buffer(frame.length);
      if (ptr === 0) return; // larger than any valid frame: dropped
      this.bytes(ptr, frame.length).set(frame);
      this.exports.core_ws_frame(conn, frame.length);
    }, undefined);
  }

  wsClose(conn: number): void {
    this.guard(() => this.exports.core_ws_close(conn), undefined);
  }

  busReceive(packet: Uint8Array): void {
    this.guard(() => {
      const ptr = this.exports.core_rx_buffer(packet.length);
      if (ptr === 0) return;
      this.bytes(ptr, packet.length).set(packet);
      this.exports.core_bus_receive(packet.length);
    }, undefined);
  }

  mqttEvent(kind: number, reason: number): void {
    this.guard(() => this.exports.core_mqtt_event(kind, reason), undefined);
  }

  /** A message: topic then payload through the rx buffer; dropped when larger than it. */
  mqttMessage(topic: Uint8Array, payload: Uint8Array): void {
    this.guard(() => {
      const ptr = this.exports.core_rx_buffer(topic.length + payload.length);
      if (ptr === 0) return;
      const dest = this.bytes(ptr, topic.length + payload.length);
      dest.set(topic, 0);
      dest.set(payload, topic.length);
      this.exports.core_mqtt_message(topic.length, payload.length);
    }, undefined);
  }

  mdnsResult(host: string, port: number): void {
    this.guard(() => {
      const bytes = Buffer.from(host);
      const ptr = this.exports.core_rx_buffer(bytes.length);
      if (ptr === 0) return;
      this.bytes(ptr, bytes.length).set(bytes);
      this.exports.core_mdns_result(bytes.length, port);
    }, undefined);
  }

  /** A UDP datagram of a stream input (DATAGRAM kind) from IPv4 `source`; dropped when larger than
   * the rx buffer. */
  datagram(kind: number, source: number, bytes: Uint8Array): void {
    this.guard(() => {
      const ptr = this.exports.core_rx_buffer(bytes.length);
      if (ptr === 0) return;
      this.bytes(ptr, bytes.length).set(bytes);
      this.exports.core_datagram(kind, source, bytes.length);
    }, undefined);
  }

  mdnsDone(): void {
    this.guard(() => this.exports.core_mdns_done(), undefined);
  }

  /** Bytes of linear memory the core has grown to. */
  get memoryBytes(): number {
    return this.exports.memory.buffer.byteLength;
  }
}

export class CorePanic extends Error {}

const NO_NET: NetServices = {
  hostname: "tessera-000000",
  httpPort: () => 0,
  mdnsAdvertise: () => {},
  mdnsBrowse: () => {},
  mqttConnect: () => {},
  mqttPublish: () => {},
  mqttSubscribe: () => {},
  mqttDisconnect: () => {},
  wifiConfigure: () => {},
};

/** A message given in pieces (host_ws_append, host_mqtt_append) joined with the bytes of the call that
 * ends it: before the pieces when that call carries the message's start (a WebSocket frame's header),
 * after them when it carries the end (an MQTT payload's last piece). Empties `pieces`. */
function joined(pieces: Uint8Array[], call: Uint8Array, callFirst: boolean): Uint8Array {
  if (pieces.length === 0) return call;
  const whole = Buffer.concat(callFirst ? [call, ...pieces] : [...pieces, call]);
  pieces.length = 0;
  return whole;
}
