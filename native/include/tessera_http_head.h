/*
 * tessera_http_head.h: an HTTP/1.1 request head (request line and header fields) found and checked as
 * the POSIX server reads it (native/src/http_head.c): tokens, no NUL or control bytes, one Host, one
 * Content-Length (or the same twice), not both it and Transfer-Encoding, `chunked` the only coding.
 * What the server needs of the head is kept; any other field is only checked.
 */
#ifndef TESSERA_HTTP_HEAD_H
#define TESSERA_HTTP_HEAD_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Host and Origin are kept up to this for the core's policy (a longer one: its length says so, 431). */
#define TESSERA_HTTP_FIELD_CAP 1024

typedef struct {
  uint32_t method;    /* TESSERA_METHOD_* (tessera_host.h); 0 when the request line is malformed */
  const char *target; /* the request target, in the parsed buffer */
  size_t target_len;
  int keep_alive;               /* HTTP/1.1 unless "Connection: close"; HTTP/1.0 with "keep-alive" */
  int upgrade, ws_version_ok;   /* "Connection: upgrade" with "Upgrade: websocket"; version 13 (or 8) */
  int chunked, expect_continue; /* Transfer-Encoding: chunked; Expect: 100-continue */
  int has_host, has_origin;
  char host[TESSERA_HTTP_FIELD_CAP], origin[TESSERA_HTTP_FIELD_CAP], inm[256], ws_key[64]; /* NUL-ended */
  uint32_t host_len, origin_len; /* their whole lengths, also past the cap */
  uint64_t content_length;
} tessera_http_head_t;

/* The length of the head at the start of in[0..len) (its blank line included, LF or CRLF), 0 while it
 * has not all arrived. */
size_t tessera_http_head_end(const uint8_t *in, size_t len);

/* Parses the head buf[0..len) (len as tessera_http_head_end gives it) into *h: 0, or the status to
 * answer (400, 403 for two Origins, 501 for another transfer coding, 505 for another HTTP version) with
 * *error the JSON error's text. */
int tessera_http_parse_head(const char *buf, size_t len, tessera_http_head_t *h, const char **error);

#ifdef __cplusplus
}
#endif

#endif /* TESSERA_HTTP_HEAD_H */
