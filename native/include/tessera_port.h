/*
 * tessera_port.h: the port interface of the portable C host, one per board or OS
 * (native/port/posix, native/port/esp32). native/src/abi.c turns every core import into one of
 * these calls with plain C pointers (already bounds-checked against the core's memory); the port
 * moves the bytes. All are called with the host's core lock held; none may call back into the core.
 * Pointers are borrowed for the duration of the call: copy what you keep.
 */
#ifndef TESSERA_PORT_H
#define TESSERA_PORT_H

#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* HTTP: the answer to request `req` (see host_http_* in tessera_host.h). length -1: chunked. */
void port_http_head(uint32_t req, uint32_t status, int32_t length);
void port_http_body(uint32_t req, const uint8_t *data, uint32_t len);
void port_http_end(uint32_t req);

/* WebSocket: one binary frame to one connection, or to every open /ws connection. */
void port_ws_send(uint32_t conn, const uint8_t *data, uint32_t len);
void port_ws_broadcast(const uint8_t *data, uint32_t len);

/* Panel bus: one whole packet onto the wire (queued; replies come back through core_bus_receive
 * outside this call). */
void port_bus_send(const uint8_t *data, uint32_t len);

/* Key-value store; keys are already checked to be [a-z0-9._-]{1,255} with at most one '/'.
 * Results as host_store_* (TESSERA_STORE_*). */
int32_t port_store_read(const char *key, uint32_t offset, uint8_t *buf, uint32_t cap);
int32_t port_store_write(const char *key, const uint8_t *data, uint32_t len);
int32_t port_store_delete(const char *key);
int32_t port_store_list(const char *prefix, uint8_t *buf, uint32_t cap);
int32_t port_store_append(const char *key, const uint8_t *data, uint32_t len);
int32_t port_store_rename(const char *from, const char *to);

/* Clocks (free-running, wrapping), entropy, log (level TESSERA_LOG_*; not NUL-terminated). */
uint32_t port_clock_ms(void);
uint32_t port_clock_us(void);
uint32_t port_random(void);
void port_log(uint32_t level, const char *msg, uint32_t len);
/* printf-style logging for ports, written once in native/src/log.c on top of port_log. */
void tessera_logf(uint32_t level, const char *fmt, ...);

/* Network identity: the hostname "tessera-<chipid>" (without ".local") as a C string in buf (cap
 * bytes); returns its length. The port the HTTP server listens on. */
uint32_t port_hostname(char *buf, uint32_t cap);
uint32_t port_http_port(void);

/* mDNS (abi.c has unpacked the core's records). advertise: <hostname>.local with `service` (such as
 * "_tessera._tcp") on `port`, TXT entries "key=value"; replaces any earlier advertisement.
 * browse: look for `service` for timeout_ms; report each answer with tessera_mdns_result and the end
 * with tessera_mdns_done (tessera_driver.h), later, from the main loop, never inside this call. */
void port_mdns_advertise(const char *hostname, const char *service, uint16_t port, const char *const *txt,
                         uint32_t txt_count);
void port_mdns_browse(const char *service, uint32_t timeout_ms);

/* MQTT session, one at a time (see host_mqtt_* in tessera_host.h). connect: drop any session, then
 * connect; report later with tessera_mqtt_event: TESSERA_MQTT_CONNECTED, or TESSERA_MQTT_FAILED with
 * a reason; a session that drops afterwards: TESSERA_MQTT_LOST. Never reconnect on your own.
 * Messages on subscribed topics: tessera_mqtt_message. Strings are NUL-terminated; empty user name
 * or password: none. */
typedef struct {
  const char *host;
  uint16_t port;
  uint16_t keepalive_s;
  const char *client_id;
  const char *username;
  const char *password;
  const char *will_topic;
  const uint8_t *will_payload;
  uint32_t will_payload_len;
  int will_retain;
} tessera_mqtt_connect_t;
void port_mqtt_connect(const tessera_mqtt_connect_t *params);
/* A publish (QoS 0): its payload is the pieces port_mqtt_append gave since the last publish, then
 * [payload, payload+len); topic NULL abandons it (the core restarted mid-payload: drop the pieces).
 * The pieces are at most the core's 1 KiB output buffer each: write them where the publish waits (the
 * ports' tessera_mqtt_outbox.h), never into a buffer grown to the payload. */
void port_mqtt_append(const uint8_t *piece, uint32_t len);
void port_mqtt_publish(const char *topic, const uint8_t *payload, uint32_t len, int retain);
void port_mqtt_subscribe(const char *topic);
void port_mqtt_disconnect(void);

/* Wi-Fi setup (host_wifi_configure, from the core's POST /api/setup): join this network from now
 * on. The port stores it (on a device: esp_wifi keeps it in NVS), leaves the setup access point once
 * connected and reconnects; the POSIX port only logs it. Not NUL-terminated. */
void port_wifi_configure(const char *ssid, uint32_t ssid_len, const char *pass, uint32_t pass_len);

/* The serial port (57600 baud on a device): the firmware frame (host_serial_write, core_serial_receive).
 * Write queues the bytes; read takes what has arrived, without waiting, and returns how many bytes it
 * copied (the port's main loop passes them to tessera_serial_receive). */
void port_serial_write(const uint8_t *data, uint32_t len);
int32_t port_serial_read(uint8_t *buf, uint32_t cap);

/* The bytes of build/controller.wasm, for runtimes that load it (WAMR): embedded in the app image on
 * a device, read from the build directory on POSIX. NULL when unavailable. */
const uint8_t *port_core_image(uint32_t *len);

/* The core trapped and was restarted: answer pending requests 500 and close the connections. */
void port_core_restarted(const char *reason);

#ifdef __cplusplus
}
#endif

#endif /* TESSERA_PORT_H */
