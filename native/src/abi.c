/*
 * abi.c: every import of the core (host_* of tessera_host.h) on top of the port interface.
 * Pointers into the core's memory are bounds-checked and turned into C pointers here; nothing
 * else happens: the port moves the bytes.
 */
#include <string.h>

#include "tessera_host.h"
#include "tessera_port.h"
#include "tessera_runtime.h"

#define KEY_MAX 255

static void log_text(uint32_t level, const char *text) { port_log(level, text, (uint32_t)strlen(text)); }

static const uint8_t *in(uint32_t ptr, uint32_t len, const char *what) {
  const uint8_t *p = tessera_rt_mem(ptr, len);
  if (!p) log_text(TESSERA_LOG_ERROR, what);
  return p;
}

/* A store key as a C string in `out` (KEY_MAX + 1 bytes), or 0 when it is not a valid key:
 * 1-255 bytes of [a-z0-9._-], at most one '/', no segment starting with '.', not ending in ".tmp". */
static int store_key(uint32_t ptr, uint32_t len, char *out) {
  if (len == 0 || len > KEY_MAX) return 0;
  const uint8_t *p = in(ptr, len, "host_store: key out of bounds");
  if (!p) return 0;
  int slashes = 0;
  for (uint32_t i = 0; i < len; i++) {
    uint8_t c = p[i];
    int segment_start = i == 0 || p[i - 1] == '/';
    if (c == '/') {
      if (++slashes > 1 || segment_start || i == len - 1) return 0;
    } else if (c == '.') {
      if (segment_start) return 0;
    } else if (!((c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '_' || c == '-')) {
      return 0;
    }
    out[i] = (char)c;
  }
  out[len] = 0;
  if (len >= 4 && memcmp(out + len - 4, ".tmp", 4) == 0) return 0;
  return 1;
}

void host_bus_send(uint32_t ptr, uint32_t len) {
  const uint8_t *p = in(ptr, len, "host_bus_send: out of bounds");
  if (p) port_bus_send(p, len);
}

void host_http_head(uint32_t req, uint32_t status, int32_t length) { port_http_head(req, status, length); }

void host_http_body(uint32_t req, uint32_t ptr, uint32_t len) {
  const uint8_t *p = in(ptr, len, "host_http_body: out of bounds");
  if (p) port_http_body(req, p, len);
}

void host_http_end(uint32_t req) { port_http_end(req); }

void host_ws_send(uint32_t conn, uint32_t ptr, uint32_t len) {
  const uint8_t *p = in(ptr, len, "host_ws_send: out of bounds");
  if (p) port_ws_send(conn, p, len);
}

void host_ws_broadcast(uint32_t ptr, uint32_t len) {
  const uint8_t *p = in(ptr, len, "host_ws_broadcast: out of bounds");
  if (p) port_ws_broadcast(p, len);
}

int32_t host_store_read(uint32_t key, uint32_t key_len, uint32_t offset, uint32_t buf, uint32_t cap) {
  char k[KEY_MAX + 1];
  if (!store_key(key, key_len, k)) return TESSERA_STORE_MISSING;
  uint8_t *dst = tessera_rt_mem(buf, cap);
  if (!dst) return TESSERA_STORE_IO_ERROR;
  return port_store_read(k, offset, dst, cap);
}

int32_t host_store_write(uint32_t key, uint32_t key_len, uint32_t ptr, uint32_t len) {
  char k[KEY_MAX + 1];
  if (!store_key(key, key_len, k)) return TESSERA_STORE_IO_ERROR;
  const uint8_t *p = in(ptr, len, "host_store_write: out of bounds");
  if (!p) return TESSERA_STORE_IO_ERROR;
  return port_store_write(k, p, len);
}

int32_t host_store_delete(uint32_t key, uint32_t key_len) {
  char k[KEY_MAX + 1];
  if (!store_key(key, key_len, k)) return TESSERA_STORE_MISSING;
  return port_store_delete(k);
}

int32_t host_store_list(uint32_t prefix, uint32_t prefix_len, uint32_t buf, uint32_t cap) {
  char pre[KEY_MAX + 1];
  if (prefix_len > KEY_MAX) return 0;
  const uint8_t *p = in(prefix, prefix_len, "host_store_list: prefix out of bounds");
  uint8_t *dst = tessera_rt_mem(buf, cap);
  if (!p || !dst) return TESSERA_STORE_IO_ERROR;
  memcpy(pre, p, prefix_len);
  pre[prefix_len] = 0;
  if (strlen(pre) != prefix_len) return 0; /* a NUL inside: no key matches */
  return port_store_list(pre, dst, cap);
}

uint32_t host_clock_ms(void) { return port_clock_ms(); }
uint32_t host_clock_us(void) { return port_clock_us(); }
uint32_t host_random(void) { return port_random(); }

void host_log(uint32_t level, uint32_t ptr, uint32_t len) {
  const uint8_t *p = in(ptr, len, "host_log: out of bounds");
  if (p) port_log(level > TESSERA_LOG_DEBUG ? TESSERA_LOG_INFO : level, (const char *)p, len);
}

void host_panic(uint32_t ptr, uint32_t len) {
  /* The core traps right after this returns; the driver restarts it. */
  static const char prefix[] = "core panic: ";
  char line[512];
  const uint8_t *p = tessera_rt_mem(ptr, len);
  uint32_t n = sizeof(prefix) - 1;
  memcpy(line, prefix, n);
  if (p) {
    uint32_t take = len < sizeof(line) - n ? len : (uint32_t)(sizeof(line) - n);
    memcpy(line + n, p, take);
    n += take;
  }
  port_log(TESSERA_LOG_ERROR, line, n);
}
