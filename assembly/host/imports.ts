// The core's whole host contract, core → host: every import, one `@external` a line.
// Mirrored by native/include/tessera_host.h and host/src/abi.ts; tests/abi.test.ts compares all
// three with the real build/controller.wasm. Only numbers and pointer+length into linear memory
// cross this line. A host must never call a core export from inside one of these imports.
// Documented in docs/host-abi.md.

// Panel bus: send one complete packet (header included) to the wire.
@external("tessera", "host_bus_send") export declare function host_bus_send(ptr: usize, len: u32): void;

// HTTP responses: head (length -1 means chunked), body bytes, end. Requests are answered once.
@external("tessera", "host_http_head") export declare function host_http_head(req: u32, status: u32, length: i32): void;
@external("tessera", "host_http_body") export declare function host_http_body(req: u32, ptr: usize, len: u32): void;
@external("tessera", "host_http_end") export declare function host_http_end(req: u32): void;

// WebSocket: one binary frame to one connection, or to every open connection.
@external("tessera", "host_ws_send") export declare function host_ws_send(conn: u32, ptr: usize, len: u32): void;
@external("tessera", "host_ws_broadcast") export declare function host_ws_broadcast(ptr: usize, len: u32): void;

// Key-value store (files on the host). Keys are [a-z0-9._-] with at most one '/'. Results below 0 are errors:
// -1 no such key, -2 I/O error, -3 no space.
@external("tessera", "host_store_read") export declare function host_store_read(key: usize, keyLen: u32, offset: u32, buf: usize, cap: u32): i32;
@external("tessera", "host_store_write") export declare function host_store_write(key: usize, keyLen: u32, ptr: usize, len: u32): i32;
@external("tessera", "host_store_delete") export declare function host_store_delete(key: usize, keyLen: u32): i32;
@external("tessera", "host_store_list") export declare function host_store_list(prefix: usize, prefixLen: u32, buf: usize, cap: u32): i32;

// Clocks (wrapping u32), entropy, diagnostics.
@external("tessera", "host_clock_ms") export declare function host_clock_ms(): u32;
@external("tessera", "host_clock_us") export declare function host_clock_us(): u32;
@external("tessera", "host_random") export declare function host_random(): u32;
@external("tessera", "host_log") export declare function host_log(level: u32, ptr: usize, len: u32): void;
@external("tessera", "host_panic") export declare function host_panic(ptr: usize, len: u32): void;
