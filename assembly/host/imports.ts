// The core's whole host contract, core → host: every import, one `@external` a line.
// Mirrored by native/include/tessera_host.h and host/src/abi.ts; tests/abi.test.ts compares all
// three with the real build/controller.wasm. Only numbers and pointer+length into linear memory
// cross this line. A host must never call a core export from inside one of these imports.
// Documented in docs/host-abi.md.

// Panel bus: send one complete packet (header included) to the wire.
@external("t", "bus_send") export declare function host_bus_send(ptr: usize, len: u32): void;

// HTTP responses: head (length -1 means chunked), body bytes, end. Requests are answered once.
@external("t", "http_head") export declare function host_http_head(req: u32, status: u32, length: i32): void;
@external("t", "http_body") export declare function host_http_body(req: u32, ptr: usize, len: u32): void;
@external("t", "http_end") export declare function host_http_end(req: u32): void;
// HTTP request body: the next bytes (at most cap) of the request being dispatched; 0 at its end, -2 none yet
// (a streamed body: the host dispatches the request again when more has arrived). Read in order.
@external("t", "http_read") export declare function host_http_read(req: u32, buf: usize, cap: u32): i32;

// WebSocket: one binary frame to one connection, or to every open connection. A frame larger than the
// core's buffer arrives in pieces: its tail as appends, then the send (or broadcast) carrying its start
// (the header, written last: it holds the payload's CRC and size), which the host puts before them.
@external("t", "ws_send") export declare function host_ws_send(conn: u32, ptr: usize, len: u32): void;
@external("t", "ws_broadcast") export declare function host_ws_broadcast(ptr: usize, len: u32): void;
@external("t", "ws_append") export declare function host_ws_append(ptr: usize, len: u32): void;

// Key-value store (files on the host). Keys are [a-z0-9._-] with at most one '/'. Results below 0 are errors:
// -1 no such key, -2 I/O error, -3 no space.
@external("t", "store_read") export declare function host_store_read(key: usize, keyLen: u32, offset: u32, buf: usize, cap: u32): i32;
@external("t", "store_write") export declare function host_store_write(key: usize, keyLen: u32, ptr: usize, len: u32): i32;
@external("t", "store_delete") export declare function host_store_delete(key: usize, keyLen: u32): i32;
@external("t", "store_list") export declare function host_store_list(prefix: usize, prefixLen: u32, offset: u32, buf: usize, cap: u32): i32;
// A value written in pieces: append to it (created when missing; not atomic), then rename it over the
// value it replaces (atomic: the old value stays whole until the new one is). A firmware image is staged so.
@external("t", "store_append") export declare function host_store_append(key: usize, keyLen: u32, ptr: usize, len: u32): i32;
@external("t", "store_rename") export declare function host_store_rename(from: usize, fromLen: u32, to: usize, toLen: u32): i32;

// The serial port (57600 8N1): bytes out; bytes in arrive through core_serial_receive.
@external("t", "serial_write") export declare function host_serial_write(ptr: usize, len: u32): void;

// Clocks (wrapping u32), entropy, diagnostics.
@external("t", "clock_ms") export declare function host_clock_ms(): u32;
@external("t", "clock_us") export declare function host_clock_us(): u32;
@external("t", "random") export declare function host_random(): u32;
@external("t", "log") export declare function host_log(level: u32, ptr: usize, len: u32): void;
@external("t", "panic") export declare function host_panic(ptr: usize, len: u32): void;

// Network identity: the mDNS hostname (`tessera-<chipid>`, without `.local`) copied into buf (returns its
// full length), and the port the HTTP server listens on.
@external("t", "mdns_hostname") export declare function host_mdns_hostname(buf: usize, cap: u32): u32;
@external("t", "http_port") export declare function host_http_port(): u32;

// mDNS: advertise this controller (packed record, docs/host-abi.md), browse a service type; results come back
// through core_mdns_result and core_mdns_done.
@external("t", "mdns_advertise") export declare function host_mdns_advertise(ptr: usize, len: u32): void;
@external("t", "mdns_browse") export declare function host_mdns_browse(service: usize, serviceLen: u32, timeoutMs: u32): void;

// MQTT session: connect (packed parameters, docs/host-abi.md; the outcome arrives through core_mqtt_event),
// publish, subscribe, disconnect. The core owns reconnection: hosts never reconnect on their own.
// A payload larger than the core's buffer arrives in pieces: appends, then the publish with the last one.
@external("t", "mqtt_connect") export declare function host_mqtt_connect(ptr: usize, len: u32): void;
@external("t", "mqtt_publish") export declare function host_mqtt_publish(topic: usize, topicLen: u32, payload: usize, payloadLen: u32, retain: u32): void;
@external("t", "mqtt_append") export declare function host_mqtt_append(payload: usize, payloadLen: u32): void;
@external("t", "mqtt_subscribe") export declare function host_mqtt_subscribe(topic: usize, topicLen: u32): void;
@external("t", "mqtt_disconnect") export declare function host_mqtt_disconnect(): void;

// Wi-Fi setup: store the station credentials and (re)connect, leaving setup mode.
@external("t", "wifi_configure") export declare function host_wifi_configure(ssid: usize, ssidLen: u32, pass: usize, passLen: u32): void;
