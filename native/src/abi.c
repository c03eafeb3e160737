/*
 * abi.c: every import of the core (host_* of tessera_host.h) on top of the port interface.
 * Pointers into the core's memory are bounds-checked and turned into C pointers here; nothing
 * else happens: the port moves the bytes.
 */
#include <stdlib.h>
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

/* A WebSocket frame the core gives in pieces (host_ws_append), joined here for the send that carries
 * its start. Bounded: a frame past `cap` is dropped whole (logged once). */
typedef struct {
  uint8_t *bytes;
  uint32_t len;
  int dropped;
  uint32_t cap;
  const char *what;
} pieces_t;

static void pieces_add(pieces_t *m, const uint8_t *p, uint32_t len) {
  if (m->dropped) return;
  uint8_t *grown = m->len + len <= m->cap ? realloc(m->bytes, m->len + len) : NULL;
  if (!grown && m->len + len > 0) {
    tessera_logf(TESSERA_LOG_ERROR, "%s over %u bytes dropped", m->what, (unsigned)m->cap);
    m->dropped = 1;
    return;
  }
  if (len) memcpy(grown + m->len, p, len);
  m->bytes = grown;
  m->len += len;
}

/* The whole frame into *len: `p` (the call's own bytes, the frame's start), then the pieces; NULL when
 * dropped. */
static const uint8_t *pieces_whole(pieces_t *m, const uint8_t *p, uint32_t *len) {
  if (m->len == 0 && !m->dropped) return p;
  uint32_t before = m->len;
  pieces_add(m, p, *len);
  if (m->dropped) return NULL;
  memmove(m->bytes + *len, m->bytes, before);
  memcpy(m->bytes, p, *len);
  *len = m->len;
  return m->bytes;
}

/* After the call that ended the message. */
static void pieces_done(pieces_t *m) {
  free(m->bytes);
  m->bytes = NULL;
  m->len = 0;
  m->dropped = 0;
}

/* A WebSocket frame is at most its 14-byte header and a payload of 65,535 B (payloadSize is a u16). */
static pieces_t ws_pending = {.cap = 14 + 0xffff, .what = "host_ws_append: frame"};

void host_ws_append(uint32_t ptr, uint32_t len) {
  const uint8_t *p = in(ptr, len, "host_ws_append: out of bounds");
  if (p) pieces_add(&ws_pending, p, len);
}

void host_ws_send(uint32_t conn, uint32_t ptr, uint32_t len) {
  const uint8_t *p = in(ptr, len, "host_ws_send: out of bounds");
  if (p && (p = pieces_whole(&ws_pending, p, &len))) port_ws_send(conn, p, len);
  pieces_done(&ws_pending);
}

void host_ws_broadcast(uint32_t ptr, uint32_t len) {
  const uint8_t *p = in(ptr, len, "host_ws_broadcast: out of bounds");
  if (p && (p = pieces_whole(&ws_pending, p, &len))) port_ws_broadcast(p, len);
  pieces_done(&ws_pending);
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

int32_t host_store_list(uint32_t prefix, uint32_t prefix_len, uint32_t offset, uint32_t buf, uint32_t cap) {
  char pre[KEY_MAX + 1];
  if (prefix_len > KEY_MAX) return 0;
  const uint8_t *p = in(prefix, prefix_len, "host_store_list: prefix out of bounds");
  uint8_t *dst = tessera_rt_mem(buf, cap);
  if (!p || !dst) return TESSERA_STORE_IO_ERROR;
  memcpy(pre, p, prefix_len);
  pre[prefix_len] = 0;
  if (strlen(pre) != prefix_len) return 0; /* a NUL inside: no key matches */
  if (offset == 0) return port_store_list(pre, dst, cap);
  /* A window further on: the port lists from the start, so list whole and copy the window. */
  int32_t total = port_store_list(pre, NULL, 0);
  if (total < 0 || offset >= (uint32_t)total) return total;
  uint8_t *all = malloc((size_t)total);
  if (!all) return TESSERA_STORE_IO_ERROR;
  int32_t again = port_store_list(pre, all, (uint32_t)total);
  if (again > 0 && offset < (uint32_t)again) {
    uint32_t n = (uint32_t)again - offset;
    if (n > (uint32_t)total - offset) n = (uint32_t)total - offset;
    memcpy(dst, all + offset, n < cap ? n : cap);
  }
  free(all);
  return again;
}

int32_t host_store_append(uint32_t key, uint32_t key_len, uint32_t ptr, uint32_t len) {
  char k[KEY_MAX + 1];
  if (!store_key(key, key_len, k)) return TESSERA_STORE_IO_ERROR;
  const uint8_t *p = in(ptr, len, "host_store_append: out of bounds");
  if (!p) return TESSERA_STORE_IO_ERROR;
  return port_store_append(k, p, len);
}

int32_t host_store_rename(uint32_t from, uint32_t from_len, uint32_t to, uint32_t to_len) {
  char f[KEY_MAX + 1], t[KEY_MAX + 1];
  if (!store_key(from, from_len, f) || !store_key(to, to_len, t)) return TESSERA_STORE_IO_ERROR;
  return port_store_rename(f, t);
}

void host_serial_write(uint32_t ptr, uint32_t len) {
  const uint8_t *p = in(ptr, len, "host_serial_write: out of bounds");
  if (p) port_serial_write(p, len);
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

/* ---- Network: identity, mDNS, MQTT, Wi-Fi setup. Packed records (tessera_host.h) are unpacked
 * into NUL-terminated strings here, so ports get plain C values. ---------------------------------- */

#define STRING_MAX 256
#define TXT_MAX 8

uint32_t host_mdns_hostname(uint32_t buf, uint32_t cap) {
  char name[64];
  uint32_t n = port_hostname(name, sizeof name);
  if (n >= sizeof name) n = sizeof name - 1;
  uint8_t *dst = tessera_rt_mem(buf, cap);
  if (dst) memcpy(dst, name, n < cap ? n : cap);
  return n;
}

uint32_t host_http_port(void) { return port_http_port(); }

/* Reads u16-length-prefixed strings from a packed record into `out` (each NUL-terminated). */
typedef struct {
  const uint8_t *p;
  uint32_t len, at;
  char text[STRING_MAX * 10];
  uint32_t used;
} unpack_t;

/* Starts reading the core's record at ptr+len (NULL p when out of bounds). One static reader: the
 * core calls imports one at a time and the port copies what it keeps. */
static unpack_t *unpack_begin(uint32_t ptr, uint32_t len, const char *what) {
  static unpack_t u;
  memset(&u, 0, sizeof u);
  u.p = in(ptr, len, what);
  u.len = len;
  return &u;
}

static int u16_at(unpack_t *u, uint16_t *v) {
  if (u->at + 2 > u->len) return 0;
  *v = (uint16_t)(u->p[u->at] | (u->p[u->at + 1] << 8));
  u->at += 2;
  return 1;
}

/* The next string (NUL-terminated copy), or NULL when the record ends or it does not fit. */
static const char *next_string(unpack_t *u, uint32_t *len_out) {
  uint16_t n;
  if (!u16_at(u, &n) || u->at + n > u->len || n >= STRING_MAX || u->used + n + 1 > sizeof u->text) return NULL;
  char *s = u->text + u->used;
  memcpy(s, u->p + u->at, n);
  s[n] = 0;
  u->at += n;
  u->used += n + 1;
  if (len_out) *len_out = n;
  return s;
}

void host_mdns_advertise(uint32_t ptr, uint32_t len) {
  unpack_t *u = unpack_begin(ptr, len, "host_mdns_advertise: out of bounds");
  uint16_t port;
  if (!u->p || !u16_at(u, &port)) return;
  const char *hostname = next_string(u, NULL), *service = next_string(u, NULL);
  if (!hostname || !service) return log_text(TESSERA_LOG_ERROR, "host_mdns_advertise: malformed record");
  const char *txt[TXT_MAX];
  uint32_t count = 0;
  while (u->at < u->len && count < TXT_MAX) {
    const char *t = next_string(u, NULL);
    if (!t) break;
    txt[count++] = t;
  }
  port_mdns_advertise(hostname, service, port, txt, count);
}

void host_mdns_browse(uint32_t service, uint32_t service_len, uint32_t timeout_ms) {
  char s[64];
  const uint8_t *p = in(service, service_len, "host_mdns_browse: out of bounds");
  if (!p || service_len >= sizeof s) return;
  memcpy(s, p, service_len);
  s[service_len] = 0;
  port_mdns_browse(s, timeout_ms);
}

void host_mqtt_connect(uint32_t ptr, uint32_t len) {
  unpack_t *u = unpack_begin(ptr, len, "host_mqtt_connect: out of bounds");
  tessera_mqtt_connect_t c;
  memset(&c, 0, sizeof c);
  if (!u->p || !u16_at(u, &c.port) || !u16_at(u, &c.keepalive_s) || u->at >= u->len) return;
  c.will_retain = u->p[u->at++] & 1;
  c.host = next_string(u, NULL);
  c.client_id = next_string(u, NULL);
  c.username = next_string(u, NULL);
  c.password = next_string(u, NULL);
  c.will_topic = next_string(u, NULL);
  c.will_payload = (const uint8_t *)next_string(u, &c.will_payload_len);
  if (!c.host || !c.client_id || !c.username || !c.password || !c.will_topic || !c.will_payload)
    return log_text(TESSERA_LOG_ERROR, "host_mqtt_connect: malformed record");
  port_mqtt_connect(&c);
}

/* A topic as a C string (topics are at most STRING_MAX - 1 bytes here). */
static int topic_string(uint32_t ptr, uint32_t len, char *out) {
  const uint8_t *p = in(ptr, len, "host_mqtt: topic out of bounds");
  if (!p || len >= STRING_MAX) return 0;
  memcpy(out, p, len);
  out[len] = 0;
  return strlen(out) == len;
}

/* A payload larger than the core's buffer comes in pieces (host_mqtt_append) ahead of the publish that
 * ends it: each goes to the port as it comes (port_mqtt_append), so this layer holds none of it. */
void host_mqtt_append(uint32_t payload, uint32_t payload_len) {
  const uint8_t *p = in(payload, payload_len, "host_mqtt_append: payload out of bounds");
  if (p) port_mqtt_append(p, payload_len);
}

void host_mqtt_publish(uint32_t topic, uint32_t topic_len, uint32_t payload, uint32_t payload_len, uint32_t retain) {
  char t[STRING_MAX];
  const uint8_t *p = in(payload, payload_len, "host_mqtt_publish: payload out of bounds");
  if (p && topic_string(topic, topic_len, t)) port_mqtt_publish(t, p, payload_len, retain != 0);
  else port_mqtt_publish(NULL, NULL, 0, 0); /* its pieces are dropped */
}

void tessera_abi_drop_pieces(void) {
  pieces_done(&ws_pending);
  port_mqtt_publish(NULL, NULL, 0, 0);
}

void host_mqtt_subscribe(uint32_t topic, uint32_t topic_len) {
  char t[STRING_MAX];
  if (topic_string(topic, topic_len, t)) port_mqtt_subscribe(t);
}

void host_mqtt_disconnect(void) { port_mqtt_disconnect(); }

void host_wifi_configure(uint32_t ssid, uint32_t ssid_len, uint32_t pass, uint32_t pass_len) {
  const uint8_t *s = in(ssid, ssid_len, "host_wifi_configure: out of bounds");
  const uint8_t *p = in(pass, pass_len, "host_wifi_configure: out of bounds");
  if (s && p && ssid_len <= 32 && pass_len <= 64)
    port_wifi_configure((const char *)s, ssid_len, (const char *)p, pass_len);
}
