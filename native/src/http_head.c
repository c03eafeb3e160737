/* http_head.c: the request head parser of the POSIX server; tessera_http_head.h. */
#include <string.h>
#include <strings.h>

#include "tessera_host.h"
#include "tessera_http_head.h"

static int is_tchar(int ch) {
  return (ch >= 'a' && ch <= 'z') || (ch >= 'A' && ch <= 'Z') || (ch >= '0' && ch <= '9') ||
         strchr("!#$%&'*+-.^_`|~", ch);
}

static uint32_t method_code(const char *m, size_t n) {
  static const char *const names[] = {"GET", "HEAD", "POST", "PUT", "PATCH", "DELETE"};
  for (uint32_t i = 0; i < 6; i++)
    if (strlen(names[i]) == n && memcmp(m, names[i], n) == 0) return i + 1;
  return TESSERA_METHOD_OTHER;
}

static void copy_field(char *dst, size_t cap, uint32_t *len, const char *v, size_t n) {
  *len = (uint32_t)(n > 0xffffffu ? 0xffffffu : n);
  if (n >= cap) n = cap - 1; /* the length says it did not fit: the core answers 431 */
  memcpy(dst, v, n);
  dst[n] = 0;
}

/* 1 when the comma-separated list v contains token (case-insensitively). */
static int has_token(const char *v, size_t n, const char *token) {
  size_t t = strlen(token);
  size_t i = 0;
  while (i < n) {
    while (i < n && (v[i] == ' ' || v[i] == '\t' || v[i] == ',')) i++;
    size_t s = i;
    while (i < n && v[i] != ',') i++;
    size_t e = i;
    while (e > s && (v[e - 1] == ' ' || v[e - 1] == '\t')) e--;
    if (e - s == t && strncasecmp(v + s, token, t) == 0) return 1;
  }
  return 0;
}

int tessera_http_parse_head(const char *buf, size_t len, tessera_http_head_t *h, const char **error) {
  const char *p = buf, *end = buf + len;
  memset(h, 0, sizeof *h);
  *error = "bad_request";
  /* request line: method SP target SP version */
  const char *eol = memchr(p, '\n', len);
  if (!eol) return 400;
  const char *line_end = eol > p && eol[-1] == '\r' ? eol - 1 : eol;
  const char *sp1 = memchr(p, ' ', (size_t)(line_end - p));
  if (!sp1 || sp1 == p) return 400;
  for (const char *q = p; q < sp1; q++)
    if (!is_tchar((unsigned char)*q)) return 400;
  const char *target = sp1 + 1;
  const char *sp2 = memchr(target, ' ', (size_t)(line_end - target));
  if (!sp2 || sp2 == target) return 400;
  for (const char *q = target; q < sp2; q++)
    if ((unsigned char)*q <= 0x20 || (unsigned char)*q >= 0x7f) return 400; /* NUL, controls, spaces */
  const char *version = sp2 + 1;
  size_t vlen = (size_t)(line_end - version);
  int http10;
  if (vlen == 8 && memcmp(version, "HTTP/1.1", 8) == 0) http10 = 0;
  else if (vlen == 8 && memcmp(version, "HTTP/1.0", 8) == 0) http10 = 1;
  else if (vlen == 8 && memcmp(version, "HTTP/", 5) == 0 && version[6] == '.') {
    *error = "http_version_not_supported";
    return 505;
  } else return 400;
  h->method = method_code(p, (size_t)(sp1 - p));
  h->target = target;
  h->target_len = (size_t)(sp2 - target);
  int conn_close = 0, conn_keep = 0, conn_upgrade = 0, upgrade_ws = 0, has_length = 0, has_te = 0;
  /* header lines */
  for (p = eol + 1; p < end;) {
    eol = memchr(p, '\n', (size_t)(end - p));
    if (!eol) return 400;
    line_end = eol > p && eol[-1] == '\r' ? eol - 1 : eol;
    if (line_end == p) break;                /* the blank line */
    if (*p == ' ' || *p == '\t') return 400; /* obsolete line folding */
    const char *colon = memchr(p, ':', (size_t)(line_end - p));
    if (!colon || colon == p) return 400;
    for (const char *q = p; q < colon; q++)
      if (!is_tchar((unsigned char)*q)) return 400;
    const char *v = colon + 1;
    const char *ve = line_end;
    for (const char *q = v; q < ve; q++)
      if (((unsigned char)*q < 0x20 && *q != '\t') || *q == 0x7f) return 400; /* NUL, CR, controls */
    while (v < ve && (*v == ' ' || *v == '\t')) v++;
    while (ve > v && (ve[-1] == ' ' || ve[-1] == '\t')) ve--;
    size_t name_len = (size_t)(colon - p), vn = (size_t)(ve - v);
#define IS(name) (name_len == sizeof(name) - 1 && strncasecmp(p, name, name_len) == 0)
    if (IS("host")) {
      if (h->has_host) return 400; /* RFC 9112 3.2: exactly one */
      h->has_host = 1;
      copy_field(h->host, sizeof h->host, &h->host_len, v, vn);
    } else if (IS("origin")) {
      if (h->has_origin) {
        *error = "cross_origin";
        return 403;
      }
      h->has_origin = 1;
      copy_field(h->origin, sizeof h->origin, &h->origin_len, v, vn);
    } else if (IS("content-length")) {
      uint64_t value = 0;
      if (vn == 0 || vn > 15) return 400;
      for (size_t i = 0; i < vn; i++) {
        if (v[i] < '0' || v[i] > '9') return 400;
        value = value * 10 + (uint64_t)(v[i] - '0');
      }
      if (has_length && value != h->content_length) return 400;
      has_length = 1;
      h->content_length = value;
    } else if (IS("transfer-encoding")) {
      if (has_te || vn != 7 || strncasecmp(v, "chunked", 7) != 0) {
        *error = "unsupported_transfer_encoding";
        return 501;
      }
      has_te = 1;
    } else if (IS("connection")) {
      conn_close |= has_token(v, vn, "close");
      conn_keep |= has_token(v, vn, "keep-alive");
      conn_upgrade |= has_token(v, vn, "upgrade");
    } else if (IS("upgrade")) {
      upgrade_ws = has_token(v, vn, "websocket");
    } else if (IS("expect")) {
      if (vn == 12 && strncasecmp(v, "100-continue", 12) == 0) h->expect_continue = 1;
    } else if (IS("if-none-match")) {
      uint32_t ignored;
      copy_field(h->inm, sizeof h->inm, &ignored, v, vn);
    } else if (IS("sec-websocket-key")) {
      uint32_t ignored;
      copy_field(h->ws_key, sizeof h->ws_key, &ignored, v, vn);
    } else if (IS("sec-websocket-version")) {
      h->ws_version_ok = (vn == 2 && memcmp(v, "13", 2) == 0) || (vn == 1 && v[0] == '8');
    }
#undef IS
    p = eol + 1;
  }
  if (has_te && has_length) return 400; /* both: a request smuggling attempt */
  h->chunked = has_te;
  if (http10) h->keep_alive = conn_keep && !conn_close;
  else h->keep_alive = !conn_close;
  h->upgrade = conn_upgrade && upgrade_ws;
  return 0;
}

size_t tessera_http_head_end(const uint8_t *in, size_t len) {
  for (size_t i = 0; i + 1 < len; i++) {
    if (in[i] != '\n') continue;
    if (in[i + 1] == '\n') return i + 2;
    if (i + 2 < len && in[i + 1] == '\r' && in[i + 2] == '\n') return i + 3;
  }
  return 0;
}
