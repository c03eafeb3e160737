/*
 * tessera_driver.h: how a port drives the core (native/src/driver.c). Each function calls the
 * matching core_* export with the bytes copied into the core's memory, and restarts the core when
 * it traps (logging the reason, then port_core_restarted), as a watchdog reboot would.
 * Call them with the host's core lock held, never from inside a port_* function.
 */
#ifndef TESSERA_DRIVER_H
#define TESSERA_DRIVER_H

#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Loads the core and boots it with the variant's panel limit. 0 on success. */
int tessera_start(uint32_t max_panels);

/* Self-update on a runtime that loads the image (WAMR): boots the core afresh from port_core_image(),
 * which the port has just pointed at the new image, on the same store. 0 when it booted; -1 when it
 * could not load or trapped in core_init (the port points back at the old image and calls it again).
 * The port then reopens its connections in the new core (requests in flight are lost, as on a restart). */
int tessera_reboot_core(void);

/* The main loop; returns the ms until the next tick is due. */
uint32_t tessera_tick(void);

/* An HTTP request: url as sent (with query), the body bytes read (body_len, at most the port's cap)
 * and the full length seen (total_len >= body_len; above the core's limit it answers 413). */
/* The Host/Origin policy (core_http_allow) for request req, before tessera_http or a WebSocket upgrade:
 * origin NULL or origin_len 0 when the request has none. Returns 1 when the request may go on; 0 when
 * the core refused it and answered req (port_http_*). */
int tessera_http_allow(uint32_t req, const char *host, uint32_t host_len, const char *origin, uint32_t origin_len);

void tessera_http(uint32_t req, uint32_t method, const uint8_t *url, uint32_t url_len, const uint8_t *body,
                  uint32_t body_len, uint32_t total_len);

/* A body too long to hold (above the core's 32 KiB document limit), passed as it arrives: stream
 * begins the request (total_len its full length) with no bytes yet, then each tessera_http_more hands
 * the next piece (more 0: the body ended, or the client left) in a dispatch of its own. Both return
 * how many of the bytes the core took; once the request is answered the rest is unwanted (the port
 * drains or drops it). */
uint32_t tessera_http_stream(uint32_t req, uint32_t method, const uint8_t *url, uint32_t url_len, uint32_t total_len);
uint32_t tessera_http_more(uint32_t req, const uint8_t *bytes, uint32_t len, int more);

/* Bytes from the serial port (the firmware frame). */
void tessera_serial_receive(const uint8_t *bytes, uint32_t len);

/* WebSocket /ws: 1 accepted, 0 refused (close with 1013). */
int tessera_ws_open(uint32_t conn);
void tessera_ws_frame(uint32_t conn, const uint8_t *frame, uint32_t len);
void tessera_ws_close(uint32_t conn);

/* A packet from the panel bus. */
void tessera_bus_receive(const uint8_t *packet, uint32_t len);

/* MQTT: a session event (TESSERA_MQTT_*, reason for _FAILED), a message on a subscribed topic. */
void tessera_mqtt_event(uint32_t kind, uint32_t reason);
void tessera_mqtt_message(const char *topic, uint32_t topic_len, const uint8_t *payload, uint32_t payload_len);

/* A datagram on a live stream input (TESSERA_DATAGRAM_*) from IPv4 `source` (host order). */
void tessera_datagram(uint32_t kind, uint32_t source, const uint8_t *bytes, uint32_t len);

/* mDNS browse: one answer (port 0 when the record has none), then the end of the browse. */
void tessera_mdns_result(const char *host, uint32_t host_len, uint32_t port);
void tessera_mdns_done(void);

#ifdef __cplusplus
}
#endif

#endif /* TESSERA_DRIVER_H */
