/* sources: http_head.c
 * test_http_head.c: the POSIX server's request head parser: where a head ends, what it keeps, and each
 * malformed or refused head with the status and error the server answers it with. */
#include <stdlib.h>

#include "check.h"
#include "tessera_host.h"
#include "tessera_http_head.h"

static tessera_http_head_t h;

/* Parses `text` (its whole length must be the head); the status. */
static int parse(const char *text, const char **error) {
  size_t n = strlen(text);
  CHECK_EQ(tessera_http_head_end((const uint8_t *)text, n), n);
  return tessera_http_parse_head(text, n, &h, error);
}

static void test_where_a_head_ends(void) {
  const char *crlf = "GET / HTTP/1.1\r\nHost: a\r\n\r\nBODY";
  CHECK_EQ(tessera_http_head_end((const uint8_t *)crlf, strlen(crlf)), strlen(crlf) - 4);
  const char *lf = "GET / HTTP/1.1\nHost: a\n\nBODY";
  CHECK_EQ(tessera_http_head_end((const uint8_t *)lf, strlen(lf)), strlen(lf) - 4);
  const char *partial = "GET / HTTP/1.1\r\nHost: a\r\n\r";
  CHECK_EQ(tessera_http_head_end((const uint8_t *)partial, strlen(partial)), 0);
  CHECK_EQ(tessera_http_head_end((const uint8_t *)"", 0), 0);
}

static void test_what_it_keeps(void) {
  const char *error = NULL;
  const char *text =
      "POST /api/scenes?x=1 HTTP/1.1\r\nHost:  localhost:8080 \r\nOrigin: http://localhost:8080\r\n"
      "Content-Length: 12\r\nExpect: 100-continue\r\nIf-None-Match: \"abc\"\r\nX-Other: anything\r\n\r\n";
  CHECK_EQ(parse(text, &error), 0);
  CHECK_EQ(h.method, TESSERA_METHOD_POST);
  CHECK(h.target_len == 15 && memcmp(h.target, "/api/scenes?x=1", 15) == 0);
  CHECK(h.has_host && strcmp(h.host, "localhost:8080") == 0 && h.host_len == 14);
  CHECK(h.has_origin && strcmp(h.origin, "http://localhost:8080") == 0);
  CHECK_EQ(h.content_length, 12);
  CHECK(h.expect_continue && h.keep_alive && !h.chunked && !h.upgrade);
  CHECK(strcmp(h.inm, "\"abc\"") == 0);
  CHECK_EQ(parse("GET /ws HTTP/1.1\r\nHost: a\r\nConnection: keep-alive, Upgrade\r\nUpgrade: websocket\r\n"
                 "Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n\r\n",
                 &error),
           0);
  CHECK(h.upgrade && h.ws_version_ok && strcmp(h.ws_key, "dGhlIHNhbXBsZSBub25jZQ==") == 0);
  CHECK_EQ(parse("PATCH /x HTTP/1.1\r\nHost: a\r\nTransfer-Encoding: chunked\r\nConnection: close\r\n\r\n", &error), 0);
  CHECK(h.chunked && !h.keep_alive && h.method == TESSERA_METHOD_PATCH);
  CHECK_EQ(parse("GET / HTTP/1.0\r\nHost: a\r\n\r\n", &error), 0);
  CHECK(!h.keep_alive);
  CHECK_EQ(parse("GET / HTTP/1.0\r\nHost: a\r\nConnection: Keep-Alive\r\n\r\n", &error), 0);
  CHECK(h.keep_alive);
  CHECK_EQ(parse("FROB / HTTP/1.1\r\nHost: a\r\n\r\n", &error), 0);
  CHECK_EQ(h.method, TESSERA_METHOD_OTHER);
  CHECK_EQ(parse("POST / HTTP/1.1\r\nHost: a\r\nContent-Length: 5\r\ncontent-length: 5\r\n\r\n", &error), 0);
  CHECK_EQ(h.content_length, 5); /* the same length twice is one */
  CHECK_EQ(parse("GET / HTTP/1.1\r\n\r\n", &error), 0);
  CHECK(!h.has_host); /* the core answers that (400 host_required) */
}

static void test_a_long_host_says_so(void) {
  char text[3000];
  char host[2001];
  memset(host, 'h', 2000);
  host[2000] = 0;
  snprintf(text, sizeof text, "GET / HTTP/1.1\r\nHost: %s\r\n\r\n", host);
  const char *error = NULL;
  CHECK_EQ(parse(text, &error), 0);
  CHECK_EQ(h.host_len, 2000); /* the core answers 431 */
  CHECK_EQ(strlen(h.host), TESSERA_HTTP_FIELD_CAP - 1);
}

static void test_refusals(void) {
  static const struct {
    const char *head;
    int status;
    const char *error;
  } cases[] = {
      {"GET / HTTP/1.1\r\nHost: a\r\nHost: a\r\n\r\n", 400, "bad_request"},
      {"GET / HTTP/1.1\r\nHost: a\r\nOrigin: http://a\r\nOrigin: http://a\r\n\r\n", 403, "cross_origin"},
      {"POST / HTTP/1.1\r\nHost: a\r\nContent-Length: 2\r\nContent-Length: 3\r\n\r\n", 400, "bad_request"},
      {"POST / HTTP/1.1\r\nHost: a\r\nContent-Length: -5\r\n\r\n", 400, "bad_request"},
      {"POST / HTTP/1.1\r\nHost: a\r\nContent-Length: 1234567890123456\r\n\r\n", 400, "bad_request"},
      {"POST / HTTP/1.1\r\nHost: a\r\nContent-Length: 2\r\nTransfer-Encoding: chunked\r\n\r\n", 400, "bad_request"},
      {"POST / HTTP/1.1\r\nHost: a\r\nTransfer-Encoding: gzip\r\n\r\n", 501, "unsupported_transfer_encoding"},
      {"POST / HTTP/1.1\r\nHost: a\r\nTransfer-Encoding: chunked\r\nTransfer-Encoding: chunked\r\n\r\n", 501,
       "unsupported_transfer_encoding"},
      {"GET / HTTP/2.0\r\nHost: a\r\n\r\n", 505, "http_version_not_supported"},
      {"GET / HTTQ/1.1\r\nHost: a\r\n\r\n", 400, "bad_request"},
      {"GET /\x01 HTTP/1.1\r\nHost: a\r\n\r\n", 400, "bad_request"},
      {"G(T / HTTP/1.1\r\nHost: a\r\n\r\n", 400, "bad_request"},
      {" GET / HTTP/1.1\r\nHost: a\r\n\r\n", 400, "bad_request"},
      {"GET  HTTP/1.1\r\nHost: a\r\n\r\n", 400, "bad_request"},
      {"GET / HTTP/1.1\r\nHost: a\r\n folded\r\n\r\n", 400, "bad_request"},
      {"GET / HTTP/1.1\r\nHost: a\r\nNo colon\r\n\r\n", 400, "bad_request"},
      {"GET / HTTP/1.1\r\nHost: a\r\n: empty name\r\n\r\n", 400, "bad_request"},
      {"GET / HTTP/1.1\r\nHost: a\r\nX-A: b\x7f\r\n\r\n", 400, "bad_request"},
  };
  for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
    const char *error = NULL;
    int status = parse(cases[i].head, &error);
    if (status != cases[i].status) fprintf(stderr, "case %zu: %d\n", i, status);
    CHECK_EQ(status, cases[i].status);
    CHECK(error && strcmp(error, cases[i].error) == 0);
  }
  /* a NUL inside a header value (the head's length counts it) */
  const char nul[] = "GET / HTTP/1.1\r\nHost: a\r\nX-A: b\0c\r\n\r\n";
  const char *error = NULL;
  CHECK_EQ(tessera_http_parse_head(nul, sizeof nul - 1, &h, &error), 400);
}

int main(void) {
  RUN(test_where_a_head_ends);
  RUN(test_what_it_keeps);
  RUN(test_a_long_host_says_so);
  RUN(test_refusals);
  return check_summary("test_http_head");
}
