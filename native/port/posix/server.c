/*
 * server.c: HTTP and WebSocket (/ws) on one port with CivetWeb. Request bodies are read up to a
 * bounded cap and the full length is passed on (so the core answers 413); answers are collected
 * per request (bounded) and written by the request's own thread once the core ends them, which may
 * be later (a live panel query). Nothing here interprets a request.
 */
#include <civetweb.h>
#include <errno.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "posix.h"
#include "tessera_driver.h"
#include "tessera_host.h"
#include "tessera_port.h"
#include "tessera_requests.h"
#include "tessera_web.h"

#define BODY_CAP (64 * 1024)                /* read at most this much of a body; the core's limit is 32 KiB */
#define STREAM_AT (32 * 1024) /* a longer body goes to the core as it arrives (the firmware upload) */
#define STREAM_PIECE 4096
#define BODY_COUNT_LIMIT (16 * 1024 * 1024) /* past this the rest is not even counted */
#define URL_CAP 8192
#define ANSWER_CAP (1024 * 1024) /* the largest answer kept */
#define MAX_REQUESTS 64
#define MAX_SOCKETS 32
#define WS_FRAME_CAP 1024 /* no valid frame is larger; the core would drop it */
#define ANSWER_TIMEOUT_S 30
#define WORKER_THREADS "24"  /* connections served at once: 8 WebSockets and keep-alive HTTP clients */
#define REQUEST_HEAD_CAP "4096"

typedef struct {
  int used;
  uint32_t id;
  struct mg_connection *conn;
  int in_core; /* the core knows this connection */
} socket_t;

static struct mg_context *ctx;
static tessera_request_t requests[MAX_REQUESTS];
static socket_t sockets[MAX_SOCKETS];
static pthread_cond_t answered = PTHREAD_COND_INITIALIZER;
static uint32_t next_socket = 1;

static socket_t *find_socket(uint32_t id) {
  for (int i = 0; i < MAX_SOCKETS; i++)
    if (sockets[i].used && sockets[i].id == id) return &sockets[i];
  return NULL;
}

/* ---- The core's output side (called with the lock held); HTTP answers: native/src/requests.c. ---- */
static void wake_handlers(void) { pthread_cond_broadcast(&answered); }

static void ws_close_with(struct mg_connection *c, int code) {
  unsigned char payload[2] = {(unsigned char)(code >> 8), (unsigned char)code};
  mg_websocket_write(c, MG_WEBSOCKET_OPCODE_CONNECTION_CLOSE, (const char *)payload, 2);
}

void port_ws_send(uint32_t conn, const uint8_t *data, uint32_t len) {
  socket_t *s = find_socket(conn);
  if (s && s->in_core) mg_websocket_write(s->conn, MG_WEBSOCKET_OPCODE_BINARY, (const char *)data, len);
}

void port_ws_broadcast(const uint8_t *data, uint32_t len) {
  for (int i = 0; i < MAX_SOCKETS; i++)
    if (sockets[i].used && sockets[i].in_core)
      mg_websocket_write(sockets[i].conn, MG_WEBSOCKET_OPCODE_BINARY, (const char *)data, len);
}

void port_core_restarted(const char *reason) {
  (void)reason;
  tessera_requests_fail_all();
  for (int i = 0; i < MAX_SOCKETS; i++) {
    if (!sockets[i].used || !sockets[i].in_core) continue;
    sockets[i].in_core = 0;
    ws_close_with(sockets[i].conn, 1011);
  }
}

/* ---- HTTP ---------------------------------------------------------------------------------------- */
void server_core_swapped(void) {
  tessera_requests_fail_all();
  for (int i = 0; i < MAX_SOCKETS; i++) {
    if (!sockets[i].used || !sockets[i].in_core) continue;
    if (!tessera_ws_open(sockets[i].id)) {
      sockets[i].in_core = 0;
      ws_close_with(sockets[i].conn, 1013);
    }
  }
}

static uint32_t method_code(const char *m) {
  static const char *const names[] = {"GET", "HEAD", "POST", "PUT", "PATCH", "DELETE"};
  for (uint32_t i = 0; i < 6; i++)
    if (strcmp(m, names[i]) == 0) return i + 1;
  return TESSERA_METHOD_OTHER;
}

static void send_answer(struct mg_connection *c, int head_only, uint32_t status, int32_t length, const uint8_t *body,
                        size_t len) {
  char number[32];
  /* TESSERA_HTTP_HTML in the status: the setup page */
  mg_response_header_start(c, (int)(status & 0xffff));
  mg_response_header_add(c, "Content-Type", (status & TESSERA_HTTP_HTML) ? "text/html; charset=utf-8" : "application/json",
                         -1);
  if (length >= 0) {
    snprintf(number, sizeof number, "%d", length);
    mg_response_header_add(c, "Content-Length", number, -1);
  } else {
    mg_response_header_add(c, "Transfer-Encoding", "chunked", -1);
  }
  mg_response_header_send(c);
  if (head_only) return;
  if (length >= 0) {
    if (len) mg_write(c, body, len);
  } else {
    if (len) mg_send_chunk(c, (const char *)body, (unsigned)len);
    mg_send_chunk(c, "", 0);
  }
}

/* POST /__test__/clock {"advance": ms} with --manual-clock: the clock moves in steps of at most 5 ms,
 * and at each step the core ticks and every bus packet is delivered (as the desktop host does). */
static int test_clock(struct mg_connection *c, uint32_t method, const uint8_t *body, size_t len) {
  double advance = 0;
  int ok = method == TESSERA_METHOD_POST;
  char text[256];
  size_t n = len < sizeof text - 1 ? len : sizeof text - 1;
  memcpy(text, body ? (const char *)body : "", n);
  text[n] = 0;
  const char *p = text;
  while (*p == ' ' || *p == '\n' || *p == '\r' || *p == '\t') p++;
  if (*p && *p != '{') ok = 0;
  const char *key = strstr(text, "\"advance\"");
  if (key) {
    p = strchr(key, ':');
    char *end = NULL;
    advance = p ? strtod(p + 1, &end) : -1;
    if (!p || end == p + 1) ok = 0;
  }
  if (!ok || !(advance >= 0) || advance > 1e9) {
    static const char bad[] = "{\"error\":\"invalid_json\"}";
    send_answer(c, 0, 400, sizeof bad - 1, (const uint8_t *)bad, sizeof bad - 1);
    return 400;
  }
  posix_lock();
  for (int first = 1; first || advance > 0; first = 0) {
    if (!first) {
      double step = advance < 5 ? advance : 5;
      posix_virtual_ms += step;
      advance -= step;
    }
    tessera_tick();
    bus_pump();
    tessera_tick();
    bus_pump();
  }
  char answer[64];
  int alen = snprintf(answer, sizeof answer, "{\"now\":%.15g}", posix_virtual_ms);
  posix_unlock();
  send_answer(c, 0, 200, alen, (const uint8_t *)answer, (size_t)alen);
  return 200;
}

/* GET or HEAD of a web app asset (tessera_web.h): the gzip bytes with their headers, or 304. */
static int serve_asset(struct mg_connection *c, const struct mg_request_info *ri, uint32_t method) {
  if (method != TESSERA_METHOD_GET && method != TESSERA_METHOD_HEAD) return 0;
  const tessera_web_asset_t *a = tessera_web_find(ri->request_uri);
  if (!a) return 0;
  char scratch[1024];
  while (mg_read(c, scratch, sizeof scratch) > 0) {
  } /* a GET body is not wanted */
  int fresh = tessera_web_not_modified(a, mg_get_header(c, "If-None-Match"));
  char number[32];
  mg_response_header_start(c, fresh ? 304 : 200);
  mg_response_header_add(c, "Cache-Control", a->cache_control, -1);
  mg_response_header_add(c, "ETag", a->etag, -1);
  if (!fresh) {
    snprintf(number, sizeof number, "%u", (unsigned)a->gzip_len);
    mg_response_header_add(c, "Content-Type", a->content_type, -1);
    mg_response_header_add(c, "Content-Encoding", "gzip", -1);
    mg_response_header_add(c, "Content-Length", number, -1);
  }
  mg_response_header_send(c);
  if (!fresh && method == TESSERA_METHOD_GET) mg_write(c, a->gzip, a->gzip_len);
  return fresh ? 304 : 200;
}

static int wait_answer(struct mg_connection *c, uint32_t id, uint32_t method);

/* A body longer than STREAM_AT with a Content-Length: handed to the core a piece at a time, outside
 * the lock while the piece is read, so the image is never whole here (only a route that streams takes
 * it: any other answers 413 at once). Once answered, the rest is drained unread. */
static int stream_request(struct mg_connection *c, uint32_t method, const char *url, int url_len, long long length) {
  posix_lock();
  uint32_t id = tessera_request_open();
  if (!id) {
    posix_unlock();
    static const char busy[] = "{\"error\":\"busy\"}";
    send_answer(c, 0, 503, sizeof busy - 1, (const uint8_t *)busy, sizeof busy - 1);
    return 503;
  }
  tessera_http_stream(id, method, (const uint8_t *)url, (uint32_t)url_len,
                      length > UINT32_MAX ? UINT32_MAX : (uint32_t)length);
  posix_unlock();
  uint8_t piece[STREAM_PIECE];
  int n, answered = 0;
  while ((n = mg_read(c, piece, sizeof piece)) > 0) {
    if (answered) continue; /* drained */
    posix_lock();
    answered = tessera_request_done(id);
    if (!answered) tessera_http_more(id, piece, (uint32_t)n, 1);
    posix_unlock();
  }
  posix_lock();
  tessera_http_more(id, NULL, 0, 0); /* the end (an upload that is still open finishes or fails) */
  tessera_tick();
  posix_kick();
  return wait_answer(c, id, method);
}

static int on_request(struct mg_connection *c, void *data) {
  (void)data;
  const struct mg_request_info *ri = mg_get_request_info(c);
  uint32_t method = method_code(ri->request_method);
  int served = serve_asset(c, ri, method);
  if (served) return served;

  char url[URL_CAP];
  int url_len = snprintf(url, sizeof url, "%s%s%s", ri->request_uri ? ri->request_uri : "/",
                         ri->query_string ? "?" : "", ri->query_string ? ri->query_string : "");
  if (url_len < 0) url_len = 0;
  if (url_len >= (int)sizeof url) url_len = sizeof url - 1; /* still far above the core's 414 limit */

  if (ri->content_length > STREAM_AT &&
      (method == TESSERA_METHOD_POST || method == TESSERA_METHOD_PUT || method == TESSERA_METHOD_PATCH) &&
      !(posix_manual_clock && strcmp(ri->local_uri ? ri->local_uri : "", "/__test__/clock") == 0))
    return stream_request(c, method, url, url_len, ri->content_length);

  /* The body: bounded buffer, then only counted. */
  size_t want = ri->content_length >= 0 && ri->content_length < BODY_CAP ? (size_t)ri->content_length : BODY_CAP;
  uint8_t *body = want ? malloc(want) : NULL;
  size_t got = 0;
  uint64_t total = 0;
  char scratch[4096];
  for (;;) {
    int n;
    if (body && got < want) {
      n = mg_read(c, body + got, want - got);
      if (n > 0) got += (size_t)n;
    } else {
      n = mg_read(c, scratch, sizeof scratch);
    }
    if (n <= 0) break;
    total += (uint64_t)n;
    if (total > BODY_COUNT_LIMIT) break;
  }

  if (posix_manual_clock && strcmp(ri->local_uri ? ri->local_uri : "", "/__test__/clock") == 0) {
    int status = test_clock(c, method, body, got);
    free(body);
    return status;
  }

  posix_lock();
  uint32_t id = tessera_request_open();
  if (!id) {
    posix_unlock();
    free(body);
    static const char busy[] = "{\"error\":\"busy\"}";
    send_answer(c, method == TESSERA_METHOD_HEAD, 503, sizeof busy - 1, (const uint8_t *)busy, sizeof busy - 1);
    return 503;
  }
  tessera_http(id, method, (const uint8_t *)url, (uint32_t)url_len, body, (uint32_t)got,
               total > UINT32_MAX ? UINT32_MAX : (uint32_t)total);
  tessera_tick(); /* applies what the request queued (a 202), as the desktop host's kick does */
  posix_kick();
  free(body);
  return wait_answer(c, id, method);
}

/* With the lock held: waits for the core's answer to `id` and writes it; unlocks. */
static int wait_answer(struct mg_connection *c, uint32_t id, uint32_t method) {
  struct timespec deadline;
  clock_gettime(CLOCK_REALTIME, &deadline);
  deadline.tv_sec += ANSWER_TIMEOUT_S;
  while (!tessera_request_done(id))
    if (pthread_cond_timedwait(&answered, posix_mutex(), &deadline) == ETIMEDOUT) break;
  tessera_answer_t a;
  int ok = tessera_request_take(id, &a);
  posix_unlock();

  if (!ok) {
    static const char err[] = "{\"error\":\"internal_error\"}";
    send_answer(c, method == TESSERA_METHOD_HEAD, 500, sizeof err - 1, (const uint8_t *)err, sizeof err - 1);
    return 500;
  }
  send_answer(c, method == TESSERA_METHOD_HEAD, a.status, a.length, a.body, a.len);
  free(a.body);
  return (int)(a.status & 0xffff);
}

/* ---- WebSocket /ws ------------------------------------------------------------------------------ */
static int ws_connect(const struct mg_connection *c, void *data) {
  (void)c;
  (void)data;
  return 0; /* accept the handshake */
}

static void ws_ready(struct mg_connection *c, void *data) {
  (void)data;
  posix_lock();
  socket_t *s = NULL;
  for (int i = 0; i < MAX_SOCKETS; i++)
    if (!sockets[i].used) {
      s = &sockets[i];
      break;
    }
  if (!s) {
    posix_unlock();
    ws_close_with(c, 1013);
    return;
  }
  s->used = 1;
  s->id = next_socket++;
  s->conn = c;
  s->in_core = 1; /* so that what core_ws_open sends reaches it */
  mg_set_user_connection_data(c, s);
  if (!tessera_ws_open(s->id)) {
    s->in_core = 0;
    ws_close_with(c, 1013);
  }
  posix_unlock();
  posix_kick();
}

static int ws_data(struct mg_connection *c, int flags, char *data, size_t len, void *cbdata) {
  (void)cbdata;
  int op = flags & 0x0f;
  if (op == MG_WEBSOCKET_OPCODE_CONNECTION_CLOSE) return 0;
  if (op != MG_WEBSOCKET_OPCODE_BINARY || !(flags & 0x80)) return 1; /* text, control, fragments: dropped */
  posix_lock();
  socket_t *s = mg_get_user_connection_data(c);
  int keep = 1;
  if (!s || !s->used || !s->in_core) keep = 0;
  else if (len <= WS_FRAME_CAP) {
    tessera_ws_frame(s->id, (const uint8_t *)data, (uint32_t)len);
    tessera_tick();
  }
  posix_unlock();
  posix_kick();
  return keep;
}

static void ws_closed(const struct mg_connection *c, void *data) {
  (void)data;
  posix_lock();
  socket_t *s = mg_get_user_connection_data(c);
  if (s && s->used && s->conn == c) {
    if (s->in_core) tessera_ws_close(s->id);
    memset(s, 0, sizeof *s);
  }
  posix_unlock();
}

static int quiet_log(const struct mg_connection *c, const char *message) {
  (void)c;
  tessera_logf(TESSERA_LOG_DEBUG, "civetweb: %s", message);
  return 1;
}

int server_start(const char *host, int port) {
  char ports[300];
  if (host) snprintf(ports, sizeof ports, strchr(host, ':') ? "[%s]:%d" : "%s:%d", host, port);
  else snprintf(ports, sizeof ports, "+%d", port); /* IPv4 and IPv6 */
  tessera_requests_init(requests, MAX_REQUESTS, ANSWER_CAP, wake_handlers);
  mg_init_library(MG_FEATURES_WEBSOCKET);
  struct mg_callbacks callbacks;
  memset(&callbacks, 0, sizeof callbacks);
  callbacks.log_message = quiet_log;
  /* Each worker thread serves one connection at a time (an open WebSocket keeps its thread) and owns a
   * request buffer of max_request_size: together most of the host's own heap (docs/porting.md). */
  const char *options[] = {"listening_ports", ports,
                           "num_threads", WORKER_THREADS,
                           "max_request_size", REQUEST_HEAD_CAP, /* request line + headers; URLs > 512 get 414 */
                           "enable_keep_alive", "yes",
                           "keep_alive_timeout_ms", "5000",
                           "websocket_timeout_ms", "86400000",
                           "request_timeout_ms", "30000",
                           "decode_url", "no",  /* the core gets the URL as sent */
                           "tcp_nodelay", "1",  /* small frames and answers go out at once */
                           NULL};
  ctx = mg_start(&callbacks, NULL, options);
  if (!ctx && !host && port == 0) {
    /* port 0 cannot be shared by two sockets: IPv4 only */
    snprintf(ports, sizeof ports, "%d", port);
    ctx = mg_start(&callbacks, NULL, options);
  }
  if (!ctx) return -1;
  mg_set_request_handler(ctx, "/", on_request, NULL);
  mg_set_websocket_handler(ctx, "/ws", ws_connect, ws_ready, ws_data, ws_closed, NULL);
  struct mg_server_port bound[4];
  int n = mg_get_server_ports(ctx, 4, bound);
  return n > 0 ? bound[0].port : -1;
}

void server_stop(void) {
  if (ctx) mg_stop(ctx);
  ctx = NULL;
}
