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

/* Clocks (free-running, wrapping), entropy, log (level TESSERA_LOG_*; not NUL-terminated). */
uint32_t port_clock_ms(void);
uint32_t port_clock_us(void);
uint32_t port_random(void);
void port_log(uint32_t level, const char *msg, uint32_t len);
/* printf-style logging for ports, written once in native/src/log.c on top of port_log. */
void tessera_logf(uint32_t level, const char *fmt, ...);

/* Wi-Fi setup (host_wifi_configure, from the core's POST /api/setup): join this network from now
 * on. The port stores it (on a device: esp_wifi keeps it in NVS), leaves the setup access point once
 * connected and reconnects; the POSIX port only logs it. Not NUL-terminated. */
void port_wifi_configure(const char *ssid, uint32_t ssid_len, const char *pass, uint32_t pass_len);

/* The serial port (57600 baud on a device), reserved for the firmware channel: no core import uses it
 * yet (a later issue adds the frame protocol). Write queues the bytes; read takes what has arrived,
 * without waiting, and returns how many bytes it copied. Only the ESP32 port implements them. */
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
