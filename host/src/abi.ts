// The core's host ABI as TypeScript: the mirror of assembly/host/imports.ts (imports, core → host)
// and assembly/main.ts (exports, host → core). The signature tables are the declaration; the types
// below are derived from them. tests/abi.test.ts checks both against build/controller.wasm and
// native/include/tessera_host.h. Prose: docs/host-abi.md.

type WasmType = "i32" | "i64" | "f32" | "f64";
interface Signature {
  readonly params: readonly WasmType[];
  readonly results: readonly WasmType[];
}

const sig = <const P extends readonly WasmType[], const R extends readonly WasmType[]>(params: P, results: R) => ({
  params,
  results,
});
const I32 = "i32" as const;

export const IMPORT_MODULE = "t";

/** core → host, all in module "t" (one letter: the name is in the image once an import). */
export const CORE_IMPORTS = {
  host_bus_send: sig([I32, I32], []), // ptr, len
  host_http_head: sig([I32, I32, I32], []), // req, status, length (-1: chunked)
  host_http_body: sig([I32, I32, I32], []), // req, ptr, len
  host_http_end: sig([I32], []), // req
  host_http_read: sig([I32, I32, I32], [I32]), // req, buf, cap -> bytes read (0 at the end, -1 not dispatching, -2 none yet)
  host_ws_send: sig([I32, I32, I32], []), // conn, ptr, len
  host_ws_broadcast: sig([I32, I32], []), // ptr, len
  host_ws_append: sig([I32, I32], []), // ptr, len: a piece ahead of the send or broadcast ending the frame
  host_store_read: sig([I32, I32, I32, I32, I32], [I32]), // key, keyLen, offset, buf, cap → bytes | error
  host_store_write: sig([I32, I32, I32, I32], [I32]), // key, keyLen, ptr, len → 0 | error
  host_store_delete: sig([I32, I32], [I32]), // key, keyLen → 0 | error
  host_store_list: sig([I32, I32, I32, I32, I32], [I32]), // prefix, prefixLen, offset, buf, cap → full length | error
  host_store_append: sig([I32, I32, I32, I32], [I32]), // key, keyLen, ptr, len → 0 | error
  host_store_rename: sig([I32, I32, I32, I32], [I32]), // from, fromLen, to, toLen → 0 | error (atomic replace)
  host_serial_write: sig([I32, I32], []), // ptr, len
  host_clock_ms: sig([], [I32]),
  host_clock_us: sig([], [I32]),
  host_random: sig([], [I32]),
  host_log: sig([I32, I32, I32], []), // level, ptr, len
  host_panic: sig([I32, I32], []), // ptr, len
  host_mdns_hostname: sig([I32, I32], [I32]), // buf, cap → full length
  host_http_port: sig([], [I32]),
  host_mdns_advertise: sig([I32, I32], []), // ptr, len (packed record)
  host_mdns_browse: sig([I32, I32, I32], []), // service, serviceLen, timeoutMs
  host_mqtt_connect: sig([I32, I32], []), // ptr, len (packed parameters)
  host_mqtt_publish: sig([I32, I32, I32, I32, I32], []), // topic, topicLen, payload, payloadLen, retain
  host_mqtt_append: sig([I32, I32], []), // payload, payloadLen: a piece ahead of the publish
  host_mqtt_subscribe: sig([I32, I32], []), // topic, topicLen
  host_mqtt_disconnect: sig([], []),
  host_wifi_configure: sig([I32, I32, I32, I32], []), // ssid, ssidLen, pass, passLen
} as const satisfies Record<string, Signature>;

/** host → core. */
export const CORE_EXPORTS = {
  core_init: sig([I32, I32], []), // maxPanels, build (the image's build identifier: host/src/image.ts)
  core_tick: sig([], [I32]), // → ms until the next tick is due
  core_rx_buffer: sig([I32], [I32]), // len → ptr | 0
  core_http_begin: sig([I32, I32, I32, I32], [I32]), // req, method, urlLen, bodyLen → ptr | 0 (answered)
  core_http_dispatch: sig([I32], []), // req
  core_http_allow: sig([I32, I32, I32], [I32]), // req, hostLen, originLen (Host then Origin in the rx buffer) → 1 | 0 (answered)
  core_ws_open: sig([I32], [I32]), // conn → 1 accepted | 0 refused
  core_ws_frame: sig([I32, I32], []), // conn, len (frame in the rx buffer)
  core_ws_close: sig([I32], []), // conn
  core_bus_receive: sig([I32], []), // len (packet in the rx buffer)
  core_mqtt_event: sig([I32, I32], []), // kind (MQTT_EVENT), reason (MQTT_REASON)
  core_mqtt_message: sig([I32, I32], []), // topicLen, payloadLen (topic then payload in the rx buffer)
  core_mdns_result: sig([I32, I32], []), // hostLen (host in the rx buffer), port (0: none in the record)
  core_mdns_done: sig([], []),
  core_serial_receive: sig([I32], []), // len (bytes from the serial port in the rx buffer)
  core_datagram: sig([I32, I32, I32], []), // kind (DATAGRAM), source IPv4, len (datagram in the rx buffer)
} as const satisfies Record<string, Signature>;

type Args<P extends readonly WasmType[]> = { [K in keyof P]: number };
type Fn<S extends Signature> = (...args: Args<S["params"]>) => S["results"] extends readonly [] ? void : number;

export type CoreImports = { [K in keyof typeof CORE_IMPORTS]: Fn<(typeof CORE_IMPORTS)[K]> };
export type CoreExports = { [K in keyof typeof CORE_EXPORTS]: Fn<(typeof CORE_EXPORTS)[K]> } & {
  memory: WebAssembly.Memory;
};

/** A function's name in the image: its ABI name without `host_` or `core_` (the prefix would cost
 * the image 5 bytes a function; docs/host-abi.md). */
export const wasmName = (name: string): string => name.slice(5);

/** The imports object for WebAssembly.Instance: `imports` under their wasm names, in IMPORT_MODULE. */
export function wasmImports(imports: CoreImports): WebAssembly.Imports {
  return { [IMPORT_MODULE]: Object.fromEntries(Object.entries(imports).map(([n, f]) => [wasmName(n), f])) };
}

/** An instance's exports under their ABI names. */
export function coreExports(instance: WebAssembly.Instance): CoreExports {
  const e = instance.exports;
  const named = Object.keys(CORE_EXPORTS).map((n) => [n, e[wasmName(n)]]);
  return Object.fromEntries([...named, ["memory", e.memory]]) as CoreExports;
}

/** HTTP method codes of core_http_begin. */
export const METHOD_CODES: Record<string, number> = { GET: 1, HEAD: 2, POST: 3, PUT: 4, PATCH: 5, DELETE: 6 };

/** Store results below zero. */
export const STORE_MISSING = -1;
export const STORE_IO_ERROR = -2;
export const STORE_FULL = -3;

/** core_http_begin body length: not known in advance (a chunked body above 32 KiB, streamed); a streaming
 * route learns it from the body itself, any other answers 413. A known length is at most one below. */
export const HTTP_LENGTH_UNKNOWN = 0xffffffff;

/** host_http_read: the host has no more of a streamed body yet (it dispatches the request again). */
export const HTTP_READ_LATER = -2;

/** Log levels of host_log. */
export const LOG_LEVELS = ["error", "warn", "info", "debug"] as const;

/** host_http_head status flag: the body is text/html instead of JSON. */
export const HTTP_HTML = 0x10000;

/** core_datagram kinds: the UDP input a datagram came in on. */
export const DATAGRAM = { ddp: 1, e131: 2 } as const;

/** An IPv4 address "a.b.c.d" as core_datagram's source (a << 24 | b << 16 | c << 8 | d); 0 if not IPv4. */
export function ipv4Word(address: string): number {
  const m = /^(?:::ffff:)?(\d+)\.(\d+)\.(\d+)\.(\d+)$/.exec(address);
  return m ? ((+m[1] << 24) | (+m[2] << 16) | (+m[3] << 8) | +m[4]) >>> 0 : 0;
}

/** core_mqtt_event kinds and connect-failure reasons. */
export const MQTT_EVENT = { connected: 1, lost: 2, failed: 3 } as const;
export const MQTT_REASON = { unreachable: 0, auth: 1, refused: 2, unavailable: 3 } as const;
