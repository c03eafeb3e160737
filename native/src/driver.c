/*
 * driver.c: drives the core's exports for a port (tessera_driver.h): copies event bytes into the
 * core's memory, calls the export, and restarts the core when it traps.
 */
#include <stdio.h>
#include <string.h>

#include "tessera_driver.h"
#include "tessera_host.h"
#include "tessera_port.h"
#include "tessera_runtime.h"

static uint32_t max_panels;
static int to_rx(const uint8_t *bytes, uint32_t len);

static void log_text(uint32_t level, const char *text) { port_log(level, text, (uint32_t)strlen(text)); }

/* After every export: a trap restarts the core from its stored settings. Returns 1 if it trapped. */
static int recovered(void) {
  const char *reason = tessera_rt_take_trap();
  if (!reason) return 0;
  char line[256];
  snprintf(line, sizeof line, "core trapped (%s); restarting it", reason);
  log_text(TESSERA_LOG_ERROR, line);
  tessera_abi_drop_pieces();
  for (int attempt = 0; attempt < 3; attempt++) {
    if (tessera_rt_load() != 0) break;
    core_init(max_panels, tessera_rt_build_id());
    if (!tessera_rt_take_trap()) {
      port_core_restarted(reason);
      return 1;
    }
  }
  log_text(TESSERA_LOG_ERROR, "core cannot boot; giving up");
  port_core_restarted(reason);
  return 1;
}

int tessera_start(uint32_t panels) {
  max_panels = panels;
  if (tessera_rt_load() != 0) return -1;
  core_init(max_panels, tessera_rt_build_id());
  const char *reason = tessera_rt_take_trap();
  if (reason) {
    char line[256];
    snprintf(line, sizeof line, "core trapped at boot (%s)", reason);
    log_text(TESSERA_LOG_ERROR, line);
    return -1;
  }
  return 0;
}

int tessera_reboot_core(void) {
  tessera_abi_drop_pieces();
  if (tessera_rt_load() != 0) return -1;
  core_init(max_panels, tessera_rt_build_id());
  const char *reason = tessera_rt_take_trap();
  if (!reason) return 0;
  char line[256];
  snprintf(line, sizeof line, "core trapped at boot (%s)", reason);
  log_text(TESSERA_LOG_ERROR, line);
  return -1;
}

uint32_t tessera_tick(void) {
  uint32_t next = core_tick();
  return recovered() ? 10 : next;
}

/* The body of the request being dispatched: the core reads it with host_http_read. */
static struct {
  uint32_t req;
  const uint8_t *bytes;
  uint32_t len, read;
  int more; /* a streamed body: more bytes come in a later dispatch */
} body_in;

int32_t host_http_read(uint32_t req, uint32_t buf, uint32_t cap) {
  if (!body_in.bytes || req != body_in.req) return -1;
  uint32_t n = body_in.len - body_in.read;
  if (n == 0 && body_in.more) return TESSERA_HTTP_READ_LATER;
  if (n > cap) n = cap;
  uint8_t *dst = tessera_rt_mem(buf, n);
  if (!dst) {
    log_text(TESSERA_LOG_ERROR, "host_http_read: out of bounds");
    return -1;
  }
  memcpy(dst, body_in.bytes + body_in.read, n);
  body_in.read += n;
  return (int32_t)n;
}

void tessera_http(uint32_t req, uint32_t method, const uint8_t *url, uint32_t url_len, const uint8_t *body,
                  uint32_t body_len, uint32_t total_len) {
  if (body_len > total_len) body_len = total_len;
  uint32_t ptr = core_http_begin(req, method, url_len, total_len);
  if (recovered() || ptr == 0) return;
  uint8_t *dst = tessera_rt_mem(ptr, url_len);
  if (!dst) {
    log_text(TESSERA_LOG_ERROR, "core_http_begin: buffer out of bounds");
    return;
  }
  memcpy(dst, url, url_len);
  static const uint8_t none[1];
  body_in.req = req;
  body_in.bytes = body ? body : none;
  body_in.len = body ? body_len : 0;
  body_in.read = 0;
  body_in.more = 0;
  core_http_dispatch(req);
  body_in.bytes = NULL;
  recovered();
}

uint32_t tessera_http_stream(uint32_t req, uint32_t method, const uint8_t *url, uint32_t url_len, uint32_t total_len) {
  uint32_t ptr = core_http_begin(req, method, url_len, total_len);
  if (recovered() || ptr == 0) return 0;
  uint8_t *dst = tessera_rt_mem(ptr, url_len);
  if (!dst) return 0;
  memcpy(dst, url, url_len);
  return tessera_http_more(req, NULL, 0, 1);
}

uint32_t tessera_http_more(uint32_t req, const uint8_t *bytes, uint32_t len, int more) {
  static const uint8_t none[1];
  body_in.req = req;
  body_in.bytes = bytes ? bytes : none;
  body_in.len = bytes ? len : 0;
  body_in.read = 0;
  body_in.more = more;
  core_http_dispatch(req);
  body_in.bytes = NULL;
  uint32_t read = body_in.read;
  recovered();
  return read;
}

void tessera_serial_receive(const uint8_t *bytes, uint32_t len) {
  while (len > 0) {
    uint32_t n = len < 1024 ? len : 1024;
    if (!to_rx(bytes, n)) return;
    core_serial_receive(n);
    if (recovered()) return;
    bytes += n;
    len -= n;
  }
}

int tessera_http_allow(uint32_t req, const char *host, uint32_t host_len, const char *origin, uint32_t origin_len) {
  if (!origin) origin_len = 0;
  uint32_t total = host_len + origin_len;
  uint32_t ptr = total >= host_len ? core_rx_buffer(total) : 0;
  if (recovered()) return 0;
  uint8_t *dst = ptr ? tessera_rt_mem(ptr, total) : NULL;
  if (dst) { /* else the core answers 431: the lengths alone say they do not fit */
    if (host_len) memcpy(dst, host, host_len);
    if (origin_len) memcpy(dst + host_len, origin, origin_len);
  }
  uint32_t ok = core_http_allow(req, host_len, origin_len);
  if (recovered()) return 0;
  return ok == 1;
}

int tessera_ws_open(uint32_t conn) {
  uint32_t ok = core_ws_open(conn);
  if (recovered()) return 0;
  return ok == 1;
}

/* Copies a frame or packet into the core's rx buffer; 0 when the core does not want it. */
static int to_rx(const uint8_t *bytes, uint32_t len) {
  uint32_t ptr = core_rx_buffer(len);
  if (recovered() || ptr == 0) return 0;
  uint8_t *dst = tessera_rt_mem(ptr, len);
  if (!dst) return 0;
  if (len) memcpy(dst, bytes, len);
  return 1;
}

void tessera_ws_frame(uint32_t conn, const uint8_t *frame, uint32_t len) {
  if (!to_rx(frame, len)) return;
  core_ws_frame(conn, len);
  recovered();
}

void tessera_ws_close(uint32_t conn) {
  core_ws_close(conn);
  recovered();
}

void tessera_bus_receive(const uint8_t *packet, uint32_t len) {
  if (!to_rx(packet, len)) return;
  core_bus_receive(len);
  recovered();
}

void tessera_mqtt_event(uint32_t kind, uint32_t reason) {
  core_mqtt_event(kind, reason);
  recovered();
}

void tessera_mqtt_message(const char *topic, uint32_t topic_len, const uint8_t *payload, uint32_t payload_len) {
  uint32_t total = topic_len + payload_len;
  if (total < topic_len) return;
  uint32_t ptr = core_rx_buffer(total);
  if (recovered() || ptr == 0) return;
  uint8_t *dst = tessera_rt_mem(ptr, total);
  if (!dst) return;
  memcpy(dst, topic, topic_len);
  if (payload_len) memcpy(dst + topic_len, payload, payload_len);
  core_mqtt_message(topic_len, payload_len);
  recovered();
}

void tessera_mdns_result(const char *host, uint32_t host_len, uint32_t port) {
  if (!to_rx((const uint8_t *)host, host_len)) return;
  core_mdns_result(host_len, port);
  recovered();
}

void tessera_datagram(uint32_t kind, uint32_t source, const uint8_t *bytes, uint32_t len) {
  if (!to_rx(bytes, len)) return;
  core_datagram(kind, source, len);
  recovered();
}

void tessera_mdns_done(void) {
  core_mdns_done();
  recovered();
}
