/*
 * tessera_host.h: the controller core's host ABI in C.
 *
 * The mirror of assembly/host/imports.ts (imports, core -> host) and assembly/main.ts (exports,
 * host -> core); host/src/abi.ts is the TypeScript copy. tests/abi.test.ts compares all three with
 * the real build/controller.wasm. Prose: docs/host-abi.md.
 *
 * Naming tells the direction:
 *   host_*  imports of the core, module "t": IMPLEMENTED BY THE C HOST, called by the core.
 *   core_*  exports of the core: implemented by the core, CALLED BY THE C HOST through its runtime
 *           (WAMR, wasm2c); the prototypes below give their wasm signatures.
 *
 * Only numbers cross the line. The core is wasm32: a pointer into its linear memory is a uint32_t
 * offset (translate it with the runtime's memory base), lengths are uint32_t, signed results int32_t.
 *
 * Rules: one thread (or one lock), one export at a time. A host must never call a core export from
 * inside an import: queue what an import causes and deliver it after the import returns.
 * A pointer handed to an import is valid only during that call: copy what you keep.
 */
#ifndef TESSERA_HOST_H
#define TESSERA_HOST_H

#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* The wasm module name of every import. */
#define TESSERA_IMPORT_MODULE "t"

/* HTTP method codes of core_http_begin. For HEAD the host sends the head and drops the body. */
#define TESSERA_METHOD_OTHER 0
#define TESSERA_METHOD_GET 1
#define TESSERA_METHOD_HEAD 2
#define TESSERA_METHOD_POST 3
#define TESSERA_METHOD_PUT 4
#define TESSERA_METHOD_PATCH 5
#define TESSERA_METHOD_DELETE 6

/* host_store_* results below zero. */
#define TESSERA_STORE_OK 0
#define TESSERA_STORE_MISSING (-1)  /* no such key */
#define TESSERA_STORE_IO_ERROR (-2) /* I/O error */
#define TESSERA_STORE_FULL (-3)     /* no space */

/* host_http_read: a streamed body has no more bytes yet. */
#define TESSERA_HTTP_READ_LATER (-2)

/* host_log levels. */
#define TESSERA_LOG_ERROR 0
#define TESSERA_LOG_WARN 1
#define TESSERA_LOG_INFO 2
#define TESSERA_LOG_DEBUG 3

/* core_http_begin body length: not known in advance (a chunked body above 32 KiB, streamed); a streaming
 * route learns it from the body itself, any other answers 413. A known length is at most one below. */
#define TESSERA_HTTP_LENGTH_UNKNOWN 0xffffffffu
/* host_http_head length for a chunked body. */
#define TESSERA_HTTP_CHUNKED (-1)
/* host_http_head status flag: the body is text/html (the setup page) instead of JSON. */
#define TESSERA_HTTP_HTML 0x10000

/* core_mqtt_event kinds, and the reasons of TESSERA_MQTT_FAILED. */
#define TESSERA_MQTT_CONNECTED 1
#define TESSERA_MQTT_LOST 2
#define TESSERA_MQTT_FAILED 3
#define TESSERA_MQTT_UNREACHABLE 0 /* DNS, TCP, timeout */
#define TESSERA_MQTT_AUTH 1        /* bad user name or password, not authorized */
#define TESSERA_MQTT_REFUSED 2     /* any other CONNACK refusal */
#define TESSERA_MQTT_UNAVAILABLE 3 /* this host has no MQTT client */

/* ---- Imports: core -> host, module "t". The C host implements these. ------------------- */

/* Panel bus: send one complete packet (header included) to the wire. */
void host_bus_send(uint32_t ptr, uint32_t len);

/* HTTP responses: head (length -1 means chunked), body bytes (one chunk when chunked), end.
 * Requests are answered once: every request gets exactly one head and one end. */
void host_http_head(uint32_t req, uint32_t status, int32_t length);
void host_http_body(uint32_t req, uint32_t ptr, uint32_t len);
void host_http_end(uint32_t req);
/* The next bytes (at most cap) of the body of `req`, the request being dispatched, read in order:
 * the count, 0 at the end, -1 when `req` is not being dispatched, -2 when a streamed body has no more
 * bytes yet (the host dispatches the request again when it has). Implemented by driver.c, which
 * holds the body (or the piece of it that arrived) while core_http_dispatch runs. */
int32_t host_http_read(uint32_t req, uint32_t buf, uint32_t cap);

/* WebSocket: one binary frame to one connection, or to every open connection. append: the next piece of
 * a frame's tail (a frame larger than the core's buffer: the mirror snapshot); the send or broadcast
 * that follows carries the frame's start (its header, written last: it holds the payload's CRC and
 * size), which goes before the pieces. abi.c joins them (at most a whole frame, 14 + 65,535 B). */
void host_ws_send(uint32_t conn, uint32_t ptr, uint32_t len);
void host_ws_broadcast(uint32_t ptr, uint32_t len);
void host_ws_append(uint32_t ptr, uint32_t len);

/* Key-value store (files on the host). Keys are at most 255 bytes of [a-z0-9._-] with at most one
 * '/'. Results below 0 are errors: -1 no such key, -2 I/O error, -3 no space.
 * read: copies up to cap bytes of the value from offset; returns the count (less than cap at the end).
 * write: replaces the whole value atomically (temp file, sync, rename, sync dir); returns 0.
 * delete: returns 0.
 * list: keys starting with prefix, sorted, '\n'-separated; copies at most cap bytes of that list from
 * offset and returns its full length (a list longer than the core's buffer is read in windows). */
int32_t host_store_read(uint32_t key, uint32_t key_len, uint32_t offset, uint32_t buf, uint32_t cap);
int32_t host_store_write(uint32_t key, uint32_t key_len, uint32_t ptr, uint32_t len);
int32_t host_store_delete(uint32_t key, uint32_t key_len);
int32_t host_store_list(uint32_t prefix, uint32_t prefix_len, uint32_t offset, uint32_t buf, uint32_t cap);
/* A value written in pieces. append: adds len bytes to the value (created when missing; not atomic);
 * returns 0. rename: replaces the value `to` with `from` atomically (from synced first, then renamed
 * over, the directory synced), `from` is gone after; returns 0 (-1 when `from` is missing). */
int32_t host_store_append(uint32_t key, uint32_t key_len, uint32_t ptr, uint32_t len);
int32_t host_store_rename(uint32_t from, uint32_t from_len, uint32_t to, uint32_t to_len);

/* The serial port (57600 8N1 on a device): send these bytes. Bytes in: core_serial_receive. */
void host_serial_write(uint32_t ptr, uint32_t len);

/* Clocks (wrapping u32: the core only subtracts them), entropy, diagnostics. */
uint32_t host_clock_ms(void);
uint32_t host_clock_us(void);
uint32_t host_random(void);
void host_log(uint32_t level, uint32_t ptr, uint32_t len); /* UTF-8 line, level TESSERA_LOG_* */
void host_panic(uint32_t ptr, uint32_t len);               /* UTF-8 message; the core traps right after */

/* Network identity: the mDNS hostname ("tessera-<chipid>", without ".local") copied into buf (at most
 * cap bytes; returns its full length), and the port the HTTP server listens on (80 on a device). */
uint32_t host_mdns_hostname(uint32_t buf, uint32_t cap);
uint32_t host_http_port(void);

/* mDNS. advertise: a packed record (u16 LE port, then u16 LE length + UTF-8 strings: hostname,
 * service type such as "_tessera._tcp", then TXT entries "key=value" to the end); replaces any
 * earlier advertisement. browse: look for a service type for timeout_ms; each answer comes back
 * through core_mdns_result, then core_mdns_done once (always, also when nothing was found). */
void host_mdns_advertise(uint32_t ptr, uint32_t len);
void host_mdns_browse(uint32_t service, uint32_t service_len, uint32_t timeout_ms);

/* MQTT session (one at a time). connect: a packed record (u16 LE port, u16 LE keepalive seconds,
 * u8 flags (bit 0: retain the will), then u16 LE length + UTF-8 strings: host, client id, user name
 * (empty: none), password (empty: none), will topic, will payload); resolving the host name (DNS or
 * mDNS ".local") is the host's job. It drops any previous session and reports the outcome later
 * through core_mqtt_event (connected, or failed with a reason); a session that then drops is
 * reported as lost. The host never reconnects on its own. publish: QoS 0, retain 0 or 1; ignored
 * while not connected. subscribe: QoS 0; messages arrive through core_mqtt_message. disconnect:
 * close cleanly (no last will) and report nothing more for that session. */
void host_mqtt_connect(uint32_t ptr, uint32_t len);
void host_mqtt_publish(uint32_t topic, uint32_t topic_len, uint32_t payload, uint32_t payload_len, uint32_t retain);
/* A piece of the next payload, ahead of the host_mqtt_publish that carries its last piece (abi.c hands
 * each to the port as it comes: port_mqtt_append). */
void host_mqtt_append(uint32_t payload, uint32_t payload_len);
void host_mqtt_subscribe(uint32_t topic, uint32_t topic_len);
void host_mqtt_disconnect(void);

/* Wi-Fi setup (the captive portal's form): store the station credentials and (re)connect, leaving
 * setup mode. UTF-8, ssid 1-32 bytes, pass 0-64 bytes. */
void host_wifi_configure(uint32_t ssid, uint32_t ssid_len, uint32_t pass, uint32_t pass_len);

/* ---- Exports: host -> core. The core implements these; the C host calls them. ------------------ */

/* Boot: read the stored settings, start panel discovery. max_panels: the variant's limit (32 or 100);
 * build: the image's build identifier, the first four bytes of its MD5 (big-endian), shown after the
 * version in controllerFirmware. */
void core_init(uint32_t max_panels, uint32_t build);

/* The main loop. Returns the milliseconds until the core next needs a tick. */
uint32_t core_tick(void);

/* A buffer of at least len bytes for the next frame or packet, or 0 if len is too large (drop it). */
uint32_t core_rx_buffer(uint32_t len);

/* An HTTP request starts: returns where the host writes the URL then the body, or 0 when the core
 * has already answered (413 payload_too_large, 414 uri_too_long, 503 busy) and the body is unwanted.
 * method: TESSERA_METHOD_*. */
uint32_t core_http_begin(uint32_t req, uint32_t method, uint32_t url_len, uint32_t body_len);

/* Before core_http_begin (and before accepting a WebSocket upgrade): the request's Host header then
 * its Origin header (origin_len 0: none) are in the rx buffer (core_rx_buffer(host_len + origin_len);
 * when that is 0, call it with the lengths alone). Returns 1 when the request is meant for this
 * controller, 0 when the core has answered it (400 host_required, 403 cross_origin, 421
 * misdirected_request, 431 header_too_large): send that answer and go no further. */
uint32_t core_http_allow(uint32_t req, uint32_t host_len, uint32_t origin_len);

/* The URL and body of req are in place: handle it. Every request is answered exactly once. */
void core_http_dispatch(uint32_t req);

/* A WebSocket connection opened; returns 1 accepted, 0 refused (all connection slots in use). */
uint32_t core_ws_open(uint32_t conn);

/* A binary frame of len bytes is in the rx buffer (core_rx_buffer). */
void core_ws_frame(uint32_t conn, uint32_t len);

/* The connection closed. */
void core_ws_close(uint32_t conn);

/* A packet of len bytes from the panel bus is in the rx buffer (core_rx_buffer). */
void core_bus_receive(uint32_t len);

/* MQTT: kind TESSERA_MQTT_CONNECTED / _LOST / _FAILED, reason TESSERA_MQTT_* for _FAILED (else 0). */
void core_mqtt_event(uint32_t kind, uint32_t reason);

/* A message on a subscribed topic: topic_len bytes of topic then payload_len bytes of payload in
 * the rx buffer (core_rx_buffer(topic_len + payload_len); 0 there: drop the message). */
void core_mqtt_message(uint32_t topic_len, uint32_t payload_len);

/* An mDNS browse answer: host_len bytes of host name or address in the rx buffer, and the port
 * (0 when the record has none). Then, once per browse: */
void core_mdns_result(uint32_t host_len, uint32_t port);
void core_mdns_done(void);

/* len bytes from the serial port are in the rx buffer (core_rx_buffer): the firmware frame. */
void core_serial_receive(uint32_t len);

/* A UDP datagram of len bytes is in the rx buffer (core_rx_buffer), from IPv4 source (a.b.c.d as
 * a << 24 | b << 16 | c << 8 | d), on the stream input of kind TESSERA_DATAGRAM_*. */
#define TESSERA_DATAGRAM_DDP 1u
#define TESSERA_DATAGRAM_E131 2u
void core_datagram(uint32_t kind, uint32_t source, uint32_t len);

#ifdef __cplusplus
}
#endif

#endif /* TESSERA_HOST_H */
