/*
 * server.c: HTTP/1.1 and WebSocket (/ws, RFC 6455) on one port, served by one thread that never
 * blocks on a socket: every socket is non-blocking and watched with poll(), so a slow or hostile
 * client holds nothing but its own connection slot (docs/porting.md, "The POSIX server"):
 *
 * - A request head must arrive within HEAD_MS of its first byte (IDLE_MS for a kept-alive connection
 *   to start one), its body within BODY_MS of the head, and the answer must go out within SEND_MS;
 *   past a deadline the request gets 408 (or the connection is closed). With every slot taken, a
 *   newcomer waits in the listen backlog until a slot frees (make_room): one being closed or kept
 *   alive idle at once, else the head (then body) that has taken longest, at least EVICT_MS, is
 *   answered 408 for it: slow requests never lock others out, and nobody is closed without an answer.
 * - Every request (and WebSocket upgrade) first goes through the core's Host/Origin policy
 *   (tessera_http_allow); the head is parsed by native/src/http_head.c. Errors of this layer (a malformed request line or header, a NUL, an
 *   oversized head, a bad Content-Length, a timeout) are answered with the documented JSON body.
 * - The core is called with the core lock held (posix_lock), never while writing a socket. What the
 *   core sends to a WebSocket goes into that connection's bounded send queue (native/src/ws_queue.c:
 *   mirror batches merged for a client that is behind); this thread writes the queues out as the
 *   sockets take them. A client whose queue overflows, or does not move for WS_STALL_MS, is closed
 *   (1008) and dropped WS_CLOSE_GRACE_MS later.
 * - WebSocket frames are checked as RFC 6455 asks: client frames must be masked, fragmented
 *   messages are reassembled (control frames may come between the fragments), a message above
 *   WS_MESSAGE_CAP closes the connection with 1009, protocol errors with 1002, a text message that is
 *   not UTF-8 with 1007 (the pure parts: native/src/ws_frame.c). Pings are answered;
 *   every ws_ping_ms the server pings each connection and drops one that answered nothing since the
 *   previous ping. With the core's eight slots taken, a newcomer takes the slot of the connection
 *   whose client has sent no message for the longest, if that is at least 2 x ws_ping_ms; else 1013.
 */
#include <arpa/inet.h>
#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <netdb.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <poll.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/socket.h>
#include <unistd.h>

#include "posix.h"
#include "tessera_driver.h"
#include "tessera_host.h"
#include "tessera_http_head.h"
#include "tessera_netio.h"
#include "tessera_port.h"
#include "tessera_requests.h"
#include "tessera_web.h"
#include "tessera_ws_frame.h"
#include "tessera_ws_queue.h"

#define MAX_CONNS 128         /* connection slots (HTTP and WebSocket) */
#define BACKLOG 1024          /* connections the kernel holds while every slot is taken */
#define EVICT_MS 2000         /* a head or body slower than this may be cut short (408) for a newcomer */
#define ACCEPT_PAUSE_MS 100   /* out of file descriptors: accept again after this */
#define HEAD_CAP 8192         /* request line + headers */
#define BODY_CAP (64 * 1024)  /* a longer declared body that does not stream is not read: the core answers 413 */
#define STREAM_AT (32 * 1024) /* a longer POST/PUT/PATCH body goes to the core as it arrives (the firmware upload) */
#define BODY_COUNT_LIMIT (16 * 1024 * 1024) /* a chunked body past this is not even counted */
#define ANSWER_CAP (1024 * 1024)            /* the largest answer kept */
#define MAX_REQUESTS 64
#define IDLE_MS 5000      /* a kept-alive connection with no request under way */
#define HEAD_MS 10000     /* a request head, from its first byte (and a new connection's first request) */
#define BODY_MS 30000     /* a request body, from the end of its head */
#define ANSWER_MS 30000   /* the core's answer (a live panel query takes a few ms) */
#define SEND_MS 15000     /* an answer going out */
#define LINGER_MS 2000    /* reading what is left after an answer that closes the connection */
#define WS_FRAME_MS 10000 /* a WebSocket frame, from its first byte */
#define WS_MESSAGE_CAP (64 * 1024)
#define WS_FRAME_CAP 1024 /* no valid frame is larger; the core would drop it */
/* A connection's send queue: above the largest frame the core sends (the 100-panel mirror snapshot,
 * 5,134 bytes) several times over. */
#define WS_QUEUE_CAP (32 * 1024)
#define WS_STALL_MS 10000
#define WS_CLOSE_GRACE_MS 2000
#define WS_CLOSE_BEHIND 1008
#define WS_CLOSE_TRY_LATER 1013
#define WS_CLOSE_RESTARTED 1011
#define WS_TEXT 0x1

int posix_ws_ping_ms = 10000;

typedef enum {
  C_FREE,
  C_HEAD,   /* reading a request head */
  C_BODY,   /* reading its body */
  C_CORE,   /* the core has it; waiting for the answer */
  C_SEND,   /* the answer is going out */
  C_WS,     /* a WebSocket */
  C_LINGER, /* answered and shut for writing: what the client still sends is read and dropped, so the
               close does not reset the connection before the client has read the answer */
} cstate_t;

typedef struct {
  cstate_t state;
  int fd;
  uint64_t since;    /* when the current state (or request head) began */
  uint64_t deadline; /* when the current state gives up */
  /* input: bytes received and not yet consumed */
  uint8_t *in;
  size_t in_len;
  /* the request */
  uint32_t method;
  int keep_alive, head_only, close_after;
  char *url;
  size_t url_len;
  tessera_http_head_t h; /* its head (native/src/http_head.c) */
  int idle;              /* kept alive, waiting for the next request */
  uint64_t body_total;
  uint8_t *body;
  size_t body_got;
  /* chunked decoding */
  int ch_state; /* 0 size line, 1 data, 2 CRLF after data, 3 trailers, 4 done */
  uint64_t ch_left;
  uint32_t req_id;    /* in the request table while C_CORE */
  uint32_t stream_id; /* a body handed to the core piece by piece (STREAM_AT), in the table while C_BODY */
  /* output: head + body */
  uint8_t *out;
  size_t out_len, out_sent;
  /* WebSocket (id, live and q under ws_lock) */
  uint32_t ws_id;
  int ws_live; /* the core may send to it */
  int in_core; /* the core knows it */
  tessera_wsq_t q;
  uint8_t *qbuf;
  int closing;       /* our close frame is queued; the slot is freed once it is out (or at the deadline) */
  int peer_closed;   /* the client's close frame arrived */
  int alive;         /* heard from since the last ping */
  uint64_t said_at;  /* the client's last message */
  uint64_t frame_at; /* a frame has started and not ended: its deadline */
  int f_active, f_op, f_fin;
  uint64_t f_left;
  uint8_t f_mask[4];
  uint32_t f_pos;
  int msg_op; /* 0 none, 1 text, 2 binary: the message being reassembled */
  uint8_t *msg;
  size_t msg_len, msg_cap;
  uint8_t ctrl[125];
  uint32_t ctrl_len;
} conn_t;

static conn_t conns[MAX_CONNS];
static tessera_request_t requests[MAX_REQUESTS];
static int listen_fd = -1;
static int wake_pipe[2] = {-1, -1};
static pthread_t thread;
static volatile int stopping;
static pthread_mutex_t ws_lock = PTHREAD_MUTEX_INITIALIZER; /* the WebSocket slots and queues */
static uint32_t next_ws = 1;
static int answers_waiting; /* core lock: an answer ended since we last looked */
static uint64_t accept_paused_until;

static void wake(void) {
  char b = 1;
  if (wake_pipe[1] >= 0 && write(wake_pipe[1], &b, 1) < 0) { /* full: a wake-up is pending anyway */
  }
}

static uint64_t now_ms(void) { return posix_now_ms(); }

/* ---- The core's output side (core lock held); HTTP answers: native/src/requests.c ---------------- */
static void on_answered(void) {
  answers_waiting = 1;
  wake();
}

static conn_t *ws_by_id(uint32_t id) { /* ws_lock held */
  for (int i = 0; i < MAX_CONNS; i++)
    if (conns[i].ws_live && conns[i].ws_id == id) return &conns[i];
  return NULL;
}

static void ws_shut(conn_t *c, uint16_t code) { /* ws_lock held */
  if (c->closing) return;
  tessera_wsq_close(&c->q, code, (uint32_t)now_ms());
  c->closing = 1;
  c->ws_live = 0;
}

static void ws_push(conn_t *c, const uint8_t *data, uint32_t len) { /* ws_lock held */
  if (tessera_wsq_push(&c->q, TESSERA_WS_BINARY, data, len, (uint32_t)now_ms()) == TESSERA_WSQ_FULL) {
    tessera_logf(TESSERA_LOG_WARN, "ws: connection %u does not keep up (%u bytes waiting), closed", (unsigned)c->ws_id,
                 (unsigned)c->q.used);
    ws_shut(c, WS_CLOSE_BEHIND);
  }
}

void port_ws_send(uint32_t conn, const uint8_t *data, uint32_t len) {
  pthread_mutex_lock(&ws_lock);
  conn_t *c = ws_by_id(conn);
  if (c) ws_push(c, data, len);
  pthread_mutex_unlock(&ws_lock);
  wake();
}

void port_ws_broadcast(const uint8_t *data, uint32_t len) {
  pthread_mutex_lock(&ws_lock);
  for (int i = 0; i < MAX_CONNS; i++)
    if (conns[i].ws_live) ws_push(&conns[i], data, len);
  pthread_mutex_unlock(&ws_lock);
  wake();
}

/* ota.c swapped the core (the core lock held): requests in flight fail as after a restart, and every
 * open connection is opened again in the new core, which sends it APP_STATE (closed 1013 if refused). */
void server_core_swapped(void) {
  tessera_requests_fail_all();
  /* The ids first, under ws_lock; the opens without it: the new core answers each open at once with
   * APP_STATE through port_ws_send, which takes ws_lock. */
  uint32_t ids[MAX_CONNS];
  int n = 0;
  pthread_mutex_lock(&ws_lock);
  for (int i = 0; i < MAX_CONNS; i++)
    if (conns[i].state == C_WS && conns[i].in_core && !conns[i].closing) ids[n++] = conns[i].ws_id;
  pthread_mutex_unlock(&ws_lock);
  for (int k = 0; k < n; k++) {
    if (tessera_ws_open(ids[k])) continue;
    pthread_mutex_lock(&ws_lock);
    conn_t *c = ws_by_id(ids[k]);
    if (c) {
      c->in_core = 0;
      ws_shut(c, WS_CLOSE_TRY_LATER);
    }
    pthread_mutex_unlock(&ws_lock);
  }
  wake();
}

void port_core_restarted(const char *reason) {
  (void)reason;
  tessera_requests_fail_all();
  pthread_mutex_lock(&ws_lock);
  for (int i = 0; i < MAX_CONNS; i++)
    if (conns[i].state == C_WS && conns[i].in_core) {
      conns[i].in_core = 0;
      ws_shut(&conns[i], WS_CLOSE_RESTARTED);
    }
  pthread_mutex_unlock(&ws_lock);
  wake();
}

/* ---- Connections ------------------------------------------------------------------------------- */
static void reset_request(conn_t *c) {
  free(c->url);
  free(c->body);
  c->url = NULL;
  c->body = NULL;
  c->url_len = c->body_got = 0;
  c->method = 0;
  c->keep_alive = c->head_only = c->close_after = 0;
  memset(&c->h, 0, sizeof c->h);
  c->body_total = 0;
  c->ch_state = 0;
  c->ch_left = 0;
  c->req_id = 0;
  c->stream_id = 0;
}

/* A streamed body ends, complete or not: the core finishes or fails the upload (it answers then). */
static void stream_end(conn_t *c) {
  tessera_http_more(c->stream_id, NULL, 0, 0);
  posix_tick();
}

static void drop(conn_t *c) {
  if (c->state == C_FREE) return;
  if (c->stream_id) { /* the client went away mid-upload */
    tessera_answer_t a;
    posix_lock();
    stream_end(c);
    if (tessera_request_take(c->stream_id, &a)) free(a.body);
    posix_unlock();
    c->stream_id = 0;
  }
  if (c->state == C_CORE && c->req_id) {
    tessera_answer_t a;
    posix_lock();
    if (tessera_request_take(c->req_id, &a)) free(a.body);
    posix_unlock();
  }
  int in_core = 0;
  uint32_t id = 0;
  pthread_mutex_lock(&ws_lock);
  if (c->state == C_WS) {
    in_core = c->in_core;
    id = c->ws_id;
    c->ws_live = 0;
    c->in_core = 0;
  }
  uint8_t *qbuf = c->qbuf;
  c->qbuf = NULL;
  c->state = C_FREE;
  pthread_mutex_unlock(&ws_lock);
  if (in_core) {
    posix_lock();
    tessera_ws_close(id);
    posix_unlock();
    posix_kick();
  }
  free(qbuf);
  reset_request(c);
  free(c->in);
  free(c->out);
  free(c->msg);
  close(c->fd);
  memset(c, 0, sizeof *c);
  c->fd = -1;
}

static void enter(conn_t *c, cstate_t state, uint64_t timeout_ms) {
  uint64_t now = now_ms();
  c->state = state;
  c->since = now;
  c->deadline = now + timeout_ms;
}

/* ---- Answers ----------------------------------------------------------------------------------- */
static const char *reason_of(uint32_t status) {
  switch (status) {
    case 100: return "Continue";
    case 101: return "Switching Protocols";
    case 200: return "OK";
    case 201: return "Created";
    case 202: return "Accepted";
    case 204: return "No Content";
    case 302: return "Found";
    case 304: return "Not Modified";
    case 400: return "Bad Request";
    case 403: return "Forbidden";
    case 404: return "Not Found";
    case 405: return "Method Not Allowed";
    case 408: return "Request Timeout";
    case 409: return "Conflict";
    case 411: return "Length Required";
    case 413: return "Payload Too Large";
    case 414: return "URI Too Long";
    case 421: return "Misdirected Request";
    case 422: return "Unprocessable Entity";
    case 431: return "Request Header Fields Too Large";
    case 500: return "Internal Server Error";
    case 501: return "Not Implemented";
    case 503: return "Service Unavailable";
    case 505: return "HTTP Version Not Supported";
    case 507: return "Insufficient Storage";
    default: return "Status";
  }
}

/* Puts an answer in c->out and starts sending it. length < 0: chunked. extra: more header lines. */
static void respond(conn_t *c, uint32_t status, int32_t length, const uint8_t *body, size_t len, const char *type,
                    const char *extra) {
  uint32_t code = status & 0xffff;
  if (!type) type = (status & TESSERA_HTTP_HTML) ? "text/html; charset=utf-8" : "application/json";
  int bodyless = code == 204 || code == 304;
  int send_body = !c->head_only && !bodyless;
  char head[1024];
  int n = snprintf(head, sizeof head, "HTTP/1.1 %u %s\r\n", (unsigned)code, reason_of(code));
  if (!bodyless) n += snprintf(head + n, sizeof head - (size_t)n, "Content-Type: %s\r\n", type);
  if (!bodyless && length >= 0) n += snprintf(head + n, sizeof head - (size_t)n, "Content-Length: %zu\r\n", len);
  else if (!bodyless) n += snprintf(head + n, sizeof head - (size_t)n, "Transfer-Encoding: chunked\r\n");
  if (c->close_after || !c->keep_alive) n += snprintf(head + n, sizeof head - (size_t)n, "Connection: close\r\n");
  if (extra) n += snprintf(head + n, sizeof head - (size_t)n, "%s", extra);
  n += snprintf(head + n, sizeof head - (size_t)n, "\r\n");
  if (n >= (int)sizeof head) n = (int)sizeof head - 1;
  char frame[32];
  int fl = 0;
  size_t total = (size_t)n;
  if (send_body) {
    if (length >= 0) total += len;
    else {
      fl = len ? snprintf(frame, sizeof frame, "%zx\r\n", len) : 0;
      total += (size_t)fl + len + (len ? 2 : 0) + 5;
    }
  }
  free(c->out);
  c->out = malloc(total);
  if (!c->out) {
    c->close_after = 1;
    c->out_len = c->out_sent = 0;
    enter(c, C_SEND, SEND_MS);
    return;
  }
  size_t at = 0;
  memcpy(c->out, head, (size_t)n);
  at = (size_t)n;
  if (send_body) {
    if (length >= 0) {
      if (len) memcpy(c->out + at, body, len);
      at += len;
    } else {
      if (len) {
        memcpy(c->out + at, frame, (size_t)fl);
        at += (size_t)fl;
        memcpy(c->out + at, body, len);
        at += len;
        memcpy(c->out + at, "\r\n", 2);
        at += 2;
      }
      memcpy(c->out + at, "0\r\n\r\n", 5);
      at += 5;
    }
  }
  c->out_len = at;
  c->out_sent = 0;
  enter(c, C_SEND, SEND_MS);
}

static void respond_error(conn_t *c, uint32_t status, const char *error, int close_after) {
  char body[96];
  int n = snprintf(body, sizeof body, "{\"error\":\"%s\"}", error);
  if (close_after) c->close_after = 1;
  respond(c, status, n, (const uint8_t *)body, (size_t)n, NULL, NULL);
}

/* The core's answer to request id, taken from the table (core lock held by the caller). */
static int take_answer(conn_t *c, uint32_t id) {
  tessera_answer_t a;
  if (!tessera_request_take(id, &a)) return 0;
  respond(c, a.status, a.length, a.body, a.len, NULL, NULL);
  free(a.body);
  return 1;
}

/* ---- Handling a request ------------------------------------------------------------------------ */
/* POST /__test__/clock with --manual-clock (test_hooks.c). */
static void test_clock(conn_t *c) {
  char answer[64];
  int n = posix_test_clock(c->method, c->body, c->body_got, answer, sizeof answer);
  if (n < 0) respond_error(c, 400, "invalid_json", 0);
  else respond(c, 200, n, (const uint8_t *)answer, (size_t)n, NULL, NULL);
}

/* GET or HEAD of a web app asset (tessera_web.h): the gzip bytes with their headers, or 304. */
static int serve_asset(conn_t *c) {
  if (c->method != TESSERA_METHOD_GET && c->method != TESSERA_METHOD_HEAD) return 0;
  const tessera_web_asset_t *a = tessera_web_find(c->url);
  if (!a) return 0;
  int fresh = tessera_web_not_modified(a, c->h.inm[0] ? c->h.inm : NULL);
  char extra[512];
  snprintf(extra, sizeof extra, "Cache-Control: %s\r\nETag: %s\r\n%s", a->cache_control, a->etag,
           fresh ? "" : "Content-Encoding: gzip\r\n");
  if (fresh) respond(c, 304, 0, NULL, 0, NULL, extra);
  else respond(c, 200, (int32_t)a->gzip_len, a->gzip, a->gzip_len, a->content_type, extra);
  return 1;
}

/* A method whose body the core reads (the others' bodies are only counted). */
static int takes_body(uint32_t method) {
  return method == TESSERA_METHOD_POST || method == TESSERA_METHOD_PUT || method == TESSERA_METHOD_PATCH;
}

/* The body is in (or was too large to keep): hand the request to the core. */
static void dispatch(conn_t *c) {
  if (posix_manual_clock && strncmp(c->url, "/__test__/clock", 15) == 0 && (c->url[15] == 0 || c->url[15] == '?')) {
    test_clock(c);
    return;
  }
  posix_lock();
  uint32_t id = c->stream_id;
  if (id) {
    stream_end(c);
    c->stream_id = 0;
  } else {
    id = tessera_request_open(NULL);
    if (!id) {
      posix_unlock();
      respond_error(c, 503, "busy", 0);
      return;
    }
    uint64_t total = c->h.chunked ? c->body_total : c->h.content_length;
    tessera_http(id, c->method, (const uint8_t *)c->url, (uint32_t)c->url_len, c->body, (uint32_t)c->body_got,
                 total >= TESSERA_HTTP_LENGTH_UNKNOWN ? TESSERA_HTTP_LENGTH_UNKNOWN - 1 : (uint32_t)total);
    posix_tick(); /* applies what the request queued (a 202), as the desktop host's kick does */
  }
  int done = tessera_request_done(id) && take_answer(c, id);
  posix_unlock();
  posix_kick();
  free(c->body);
  c->body = NULL;
  if (!done) {
    c->req_id = id;
    enter(c, C_CORE, ANSWER_MS); /* a live panel query: answered from the main loop */
  }
}

static void ws_accept(conn_t *c);

/* The head is in: the policy, then the WebSocket upgrade, an asset, or the body. */
static void on_head(conn_t *c) {
  /* the Host/Origin policy first, for every request */
  posix_lock();
  uint32_t id = tessera_request_open(NULL);
  int allowed = 0;
  if (id) {
    allowed = tessera_http_allow(id, c->h.host, c->h.host_len, c->h.has_origin ? c->h.origin : NULL, c->h.origin_len);
    if (!allowed) {
      c->close_after = 1; /* a body, if any, is not read */
      if (!take_answer(c, id)) respond_error(c, 500, "internal_error", 1);
    } else {
      tessera_answer_t a;
      if (tessera_request_take(id, &a)) free(a.body);
    }
  }
  posix_unlock();
  if (!id) {
    respond_error(c, 503, "busy", 1);
    return;
  }
  if (!allowed) return;
  if (c->h.upgrade) {
    const char *path_end = c->url + strcspn(c->url, "?");
    if (path_end - c->url != 3 || memcmp(c->url, "/ws", 3) != 0) respond_error(c, 404, "not_found", 1);
    else if (!c->h.ws_version_ok || c->method != TESSERA_METHOD_GET || !tessera_ws_key_valid(c->h.ws_key))
      respond_error(c, 400, "bad_request", 1);
    else ws_accept(c);
    return;
  }
  if (c->h.content_length || c->h.chunked) c->close_after = 1; /* an asset's answer: a GET body is not read */
  if (serve_asset(c)) return;
  c->close_after = 0;
  if (!c->h.chunked && c->h.content_length > STREAM_AT && takes_body(c->method)) {
    /* handed over as it arrives, never held whole: only a route that streams takes it, others answer 413 */
    posix_lock();
    uint32_t id = tessera_request_open(NULL);
    c->close_after = 1; /* for an answer given at once (413): the body is not read */
    if (id)
      tessera_http_stream(id, c->method, (const uint8_t *)c->url, (uint32_t)c->url_len,
                          c->h.content_length >= TESSERA_HTTP_LENGTH_UNKNOWN ? TESSERA_HTTP_LENGTH_UNKNOWN - 1
                                                                             : (uint32_t)c->h.content_length);
    int answered = id && tessera_request_done(id) && take_answer(c, id); /* 413 for a route that does not stream */
    posix_unlock();
    if (!id) {
      respond_error(c, 503, "busy", 1);
      return;
    }
    if (answered) return;
    c->close_after = 0;
    c->stream_id = id;
    if (c->h.expect_continue) (void)tessera_send_now(c->fd, "HTTP/1.1 100 Continue\r\n\r\n", 25);
    enter(c, C_BODY, BODY_MS);
    return;
  }
  if (!c->h.chunked && c->h.content_length > BODY_CAP) {
    /* not read: the core answers 413 (or ignores a GET's body), and the connection closes after */
    c->close_after = 1;
    dispatch(c);
    return;
  }
  if (c->h.content_length || c->h.chunked) {
    size_t cap = c->h.chunked ? STREAM_AT : (size_t)c->h.content_length;
    c->body = malloc(cap ? cap : 1);
    if (!c->body) {
      respond_error(c, 503, "busy", 1);
      return;
    }
    if (c->h.expect_continue) (void)tessera_send_now(c->fd, "HTTP/1.1 100 Continue\r\n\r\n", 25);
    enter(c, C_BODY, BODY_MS);
    return;
  }
  dispatch(c);
}

/* A chunked body passes STREAM_AT: from now on it streams to the core, its length unknown, starting
 * with what was kept. 0 when the core has answered at once (the connection closes: the rest is not read). */
static int chunked_stream(conn_t *c) {
  posix_lock();
  uint32_t id = tessera_request_open(NULL);
  c->close_after = 1;
  if (id) {
    tessera_http_stream(id, c->method, (const uint8_t *)c->url, (uint32_t)c->url_len, TESSERA_HTTP_LENGTH_UNKNOWN);
    if (!tessera_request_done(id)) tessera_http_more(id, c->body, (uint32_t)c->body_got, 1);
  }
  int answered = id && tessera_request_done(id) && take_answer(c, id);
  posix_unlock();
  if (!id) respond_error(c, 503, "busy", 1);
  if (!id || answered) return 0;
  c->close_after = 0;
  c->stream_id = id;
  free(c->body);
  c->body = NULL;
  c->body_got = 0;
  return 1;
}

/* Consumes body bytes from c->in. Returns 1 when the body is complete, 0 for more, -1 malformed, 2 when it
 * was answered already. */
static int take_body(conn_t *c) {
  size_t used = 0;
  int complete = 0;
  if (c->stream_id &&
      !c->h.chunked) { /* to the core at once; once it has answered (413, 409, 422) the rest is drained */
    size_t want = (size_t)c->h.content_length - c->body_got;
    size_t n = c->in_len < want ? c->in_len : want;
    posix_lock();
    if (n && !tessera_request_done(c->stream_id)) tessera_http_more(c->stream_id, c->in, (uint32_t)n, 1);
    posix_unlock();
    c->body_got += n;
    used = n;
    complete = c->body_got == c->h.content_length;
  } else if (!c->h.chunked) {
    size_t want = (size_t)c->h.content_length - c->body_got;
    size_t n = c->in_len < want ? c->in_len : want;
    memcpy(c->body + c->body_got, c->in, n);
    c->body_got += n;
    used = n;
    complete = c->body_got == c->h.content_length;
  } else {
    while (used < c->in_len && !complete) {
      uint8_t *p = c->in + used;
      size_t avail = c->in_len - used;
      if (c->ch_state == 0 || c->ch_state == 2 || c->ch_state == 3) {
        uint8_t *nl = memchr(p, '\n', avail);
        if (!nl) {
          if (avail > 1024) return -1; /* no line is that long */
          break;
        }
        size_t line = (size_t)(nl - p);
        if (line > 0 && p[line - 1] == '\r') line--;
        used += (size_t)(nl - p) + 1;
        if (c->ch_state == 2) {
          if (line != 0) return -1;
          c->ch_state = 0;
        } else if (c->ch_state == 3) {
          if (line == 0) complete = 1; /* the end of the trailers */
        } else {
          uint64_t size = 0;
          size_t i = 0;
          for (; i < line && isxdigit(p[i]); i++) {
            if (i >= 12) return -1;
            size = size * 16 + (uint64_t)(isdigit(p[i]) ? p[i] - '0' : (p[i] | 0x20) - 'a' + 10);
          }
          if (i == 0 || (i < line && p[i] != ';' && p[i] != ' ' && p[i] != '\t')) return -1;
          c->ch_left = size;
          c->ch_state = size ? 1 : 3;
        }
      } else {
        size_t n = avail < c->ch_left ? avail : (size_t)c->ch_left;
        if (!c->stream_id && c->body_total + n > STREAM_AT && takes_body(c->method) && !chunked_stream(c))
          return 2; /* answered at once (413 for a route that does not stream) */
        if (c->stream_id) {
          posix_lock();
          if (!tessera_request_done(c->stream_id)) tessera_http_more(c->stream_id, p, (uint32_t)n, 1);
          posix_unlock();
        } else if (c->body_total + n <= STREAM_AT) { /* a method without a body: the rest only counted */
          memcpy(c->body + c->body_got, p, n);
          c->body_got += n;
        }
        c->body_total += n;
        c->ch_left -= n;
        used += n;
        if (!c->ch_left) c->ch_state = 2;
        if (c->body_total > BODY_COUNT_LIMIT) {
          c->close_after = 1; /* the rest is not read: the core answers 413 */
          complete = 1;
        }
      }
    }
  }
  memmove(c->in, c->in + used, c->in_len - used);
  c->in_len -= used;
  return complete;
}

/* Parses whatever is in c->in for the current state; may change state. */
static void advance_http(conn_t *c) {
  while (c->state == C_HEAD && c->in_len > 0) {
    size_t n = tessera_http_head_end(c->in, c->in_len);
    if (!n) {
      if (c->in_len >= HEAD_CAP) {
        int line_done = memchr(c->in, '\n', c->in_len) != NULL;
        c->keep_alive = 0;
        respond_error(c, line_done ? 431 : 414, line_done ? "header_too_large" : "uri_too_long", 1);
      }
      return;
    }
    const char *error;
    int status = tessera_http_parse_head((const char *)c->in, n, &c->h, &error);
    c->method = c->h.method;
    c->head_only = c->method == TESSERA_METHOD_HEAD;
    if (c->h.target) {
      c->url_len = c->h.target_len;
      c->url = malloc(c->url_len + 1);
      if (!c->url && !status) status = 500;
      if (c->url) memcpy(c->url, c->h.target, c->url_len), c->url[c->url_len] = 0;
      c->h.target = NULL; /* in c->in, which moves on */
    }
    c->keep_alive = c->h.keep_alive;
    memmove(c->in, c->in + n, c->in_len - n);
    c->in_len -= n;
    if (status) {
      respond_error(c, (uint32_t)status, error, 1);
      return;
    }
    on_head(c);
  }
  if (c->state == C_BODY) {
    int r = take_body(c);
    if (r < 0) respond_error(c, 400, "bad_request", 1);
    else if (r == 1) dispatch(c);
  }
}

/* ---- WebSocket --------------------------------------------------------------------------------- */
static void ws_accept(conn_t *c) {
  char accept[29];
  tessera_ws_accept(c->h.ws_key, accept);
  uint8_t *qbuf = malloc(WS_QUEUE_CAP);
  char head[256];
  int hl = snprintf(head, sizeof head,
                    "HTTP/1.1 101 Switching Protocols\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
                    "Sec-WebSocket-Accept: %s\r\n\r\n",
                    accept);
  if (!qbuf || tessera_send_now(c->fd, head, (size_t)hl) != hl) { /* a fresh socket takes 130 bytes */
    free(qbuf);
    c->close_after = 1;
    c->keep_alive = 0;
    respond_error(c, 503, "busy", 1);
    return;
  }
  uint64_t now = now_ms();
  reset_request(c);
  pthread_mutex_lock(&ws_lock);
  c->qbuf = qbuf;
  tessera_wsq_init(&c->q, qbuf, WS_QUEUE_CAP, (uint32_t)now);
  c->ws_id = next_ws++;
  c->state = C_WS;
  c->ws_live = 1; /* so that what core_ws_open sends reaches it */
  c->in_core = 1;
  c->deadline = 0;
  c->said_at = now;
  c->alive = 1;
  pthread_mutex_unlock(&ws_lock);
  uint32_t id = c->ws_id;
  posix_lock();
  int ok = tessera_ws_open(id);
  if (!ok) {
    /* every slot in use: the connection silent longest makes room, if it has been for long enough */
    conn_t *victim = NULL;
    pthread_mutex_lock(&ws_lock);
    for (int i = 0; i < MAX_CONNS; i++) {
      conn_t *v = &conns[i];
      if (v == c || v->state != C_WS || !v->in_core || v->closing) continue;
      if (now - v->said_at < 2 * (uint64_t)posix_ws_ping_ms) continue;
      if (!victim || v->said_at < victim->said_at) victim = v;
    }
    uint32_t vid = victim ? victim->ws_id : 0;
    if (victim) {
      victim->in_core = 0;
      ws_shut(victim, WS_CLOSE_TRY_LATER);
      victim->deadline = now + WS_CLOSE_GRACE_MS;
    }
    pthread_mutex_unlock(&ws_lock);
    if (victim) {
      tessera_logf(TESSERA_LOG_INFO, "ws: every connection in use; closing %u, silent longest, for a newcomer",
                   (unsigned)vid);
      tessera_ws_close(vid);
      ok = tessera_ws_open(id);
    }
  }
  posix_tick();
  posix_unlock();
  posix_kick();
  if (!ok) {
    pthread_mutex_lock(&ws_lock);
    c->in_core = 0;
    ws_shut(c, WS_CLOSE_TRY_LATER);
    c->deadline = now + WS_CLOSE_GRACE_MS;
    pthread_mutex_unlock(&ws_lock);
  }
}

/* Our close frame is queued; the slot goes once it is out, or at the deadline. */
static void ws_close_now(conn_t *c, uint16_t code) {
  int in_core;
  uint32_t id;
  pthread_mutex_lock(&ws_lock);
  in_core = c->in_core;
  id = c->ws_id;
  c->in_core = 0;
  ws_shut(c, code);
  c->deadline = now_ms() + WS_CLOSE_GRACE_MS;
  pthread_mutex_unlock(&ws_lock);
  if (in_core) {
    posix_lock();
    tessera_ws_close(id);
    posix_unlock();
    posix_kick();
  }
}

static void ws_message(conn_t *c) {
  c->said_at = now_ms();
  if (c->msg_op == WS_TEXT && !tessera_utf8_valid(c->msg, c->msg_len)) { /* RFC 6455 8.1 */
    c->peer_closed = 1;
    ws_close_now(c, TESSERA_WS_CLOSE_NOT_UTF8);
    return;
  }
  if (c->msg_op != TESSERA_WS_BINARY || !c->in_core || c->closing) return; /* text: dropped like a bad frame */
  if (c->msg_len > WS_FRAME_CAP) return;                                   /* larger than any valid frame */
  posix_lock();
  tessera_ws_frame(c->ws_id, c->msg, (uint32_t)c->msg_len);
  posix_tick();
  posix_unlock();
  posix_kick();
}

static void ws_control(conn_t *c) {
  if (c->f_op == TESSERA_WS_CLOSE) {
    c->peer_closed = 1;
    ws_close_now(c, tessera_ws_close_answer(c->ctrl, c->ctrl_len)); /* the client's code, then closed */
  } else if (c->f_op == TESSERA_WS_PING) {
    pthread_mutex_lock(&ws_lock);
    tessera_wsq_push(&c->q, TESSERA_WS_PONG, c->ctrl, c->ctrl_len, (uint32_t)now_ms());
    pthread_mutex_unlock(&ws_lock);
  } /* a pong: alive, nothing more */
}

/* Parses frames from c->in. */
static void advance_ws(conn_t *c) {
  size_t used = 0;
  while (c->state == C_WS && !c->peer_closed) {
    uint8_t *p = c->in + used;
    size_t avail = c->in_len - used;
    if (!c->f_active) {
      if (avail == 0) break;
      if (!c->frame_at) c->frame_at = now_ms() + WS_FRAME_MS;
      tessera_ws_head_t f;
      if (!tessera_ws_read_head(p, avail, &f)) break;
      uint16_t refused = tessera_ws_check_head(&f, c->msg_op, c->msg_len, WS_MESSAGE_CAP);
      if (refused) {
        c->peer_closed = 1; /* nothing after a broken frame can be read */
        ws_close_now(c, refused);
        break;
      }
      int op = f.opcode, control = op >= 8;
      uint64_t len = f.len;
      memcpy(c->f_mask, f.mask, 4);
      used += f.head_len;
      c->f_active = 1;
      c->f_op = op;
      c->f_fin = f.fin;
      c->f_left = len;
      c->f_pos = 0;
      c->ctrl_len = 0;
      if (!control) {
        if (op) c->msg_op = op;
        if (c->msg_len + len > c->msg_cap) {
          size_t cap = c->msg_len + (size_t)len;
          uint8_t *m = realloc(c->msg, cap ? cap : 1);
          if (!m) {
            c->peer_closed = 1;
            ws_close_now(c, TESSERA_WS_CLOSE_TOO_BIG);
            break;
          }
          c->msg = m;
          c->msg_cap = cap;
        }
      }
      continue;
    }
    size_t n = avail < c->f_left ? avail : (size_t)c->f_left;
    uint8_t *dst = c->f_op >= 8 ? c->ctrl + c->ctrl_len : c->msg + c->msg_len;
    for (size_t i = 0; i < n; i++) dst[i] = p[i] ^ c->f_mask[(c->f_pos + i) & 3];
    c->f_pos += (uint32_t)n;
    c->f_left -= n;
    if (c->f_op >= 8) c->ctrl_len += (uint32_t)n;
    else c->msg_len += n;
    used += n;
    if (c->f_left) break;
    /* the frame is complete */
    c->f_active = 0;
    c->frame_at = 0;
    c->alive = 1;
    if (c->f_op >= 8) ws_control(c);
    else if (c->f_fin) {
      ws_message(c);
      c->msg_op = 0;
      c->msg_len = 0;
      if (c->msg_cap > WS_FRAME_CAP * 4) { /* a large message's buffer is not kept */
        free(c->msg);
        c->msg = NULL;
        c->msg_cap = 0;
      }
    }
  }
  if (c->state != C_WS) return;
  memmove(c->in, c->in + used, c->in_len - used);
  c->in_len -= used;
  if (c->peer_closed) c->in_len = 0; /* nothing after a close frame counts */
}

static int write_fd(void *ctx, const uint8_t *data, uint32_t len) { return tessera_send_now(*(int *)ctx, data, len); }

/* Writes what the socket takes of the queue. 0 keep, 1 the connection is done. */
static int ws_flush(conn_t *c, uint64_t now) {
  pthread_mutex_lock(&ws_lock);
  int r = tessera_wsq_flush(&c->q, write_fd, &c->fd, (uint32_t)now);
  int stalled = r == TESSERA_WSQ_PENDING && tessera_wsq_stalled(&c->q, (uint32_t)now, WS_STALL_MS) && !c->closing;
  /* closed for being behind (by the core's thread) and not even the close frame goes out: dropped */
  int gone = r == TESSERA_WSQ_PENDING && c->closing && tessera_wsq_stalled(&c->q, (uint32_t)now, WS_CLOSE_GRACE_MS);
  pthread_mutex_unlock(&ws_lock);
  if (r == TESSERA_WSQ_ERROR || gone) return 1;
  if (r == TESSERA_WSQ_DONE) {
    if (c->peer_closed) return 1;
    shutdown(c->fd, SHUT_WR); /* our close is out: the client's close or the deadline ends it */
  }
  if (stalled) {
    tessera_logf(TESSERA_LOG_WARN, "ws: connection %u took nothing for %u ms, closed", (unsigned)c->ws_id,
                 (unsigned)WS_STALL_MS);
    ws_close_now(c, WS_CLOSE_BEHIND);
  }
  return 0;
}

static void ping_all(uint64_t now) {
  for (int i = 0; i < MAX_CONNS; i++) {
    conn_t *c = &conns[i];
    if (c->state != C_WS || c->closing) continue;
    if (!c->alive) {
      tessera_logf(TESSERA_LOG_INFO, "ws: connection %u answered no ping, dropped", (unsigned)c->ws_id);
      drop(c);
      continue;
    }
    c->alive = 0;
    pthread_mutex_lock(&ws_lock);
    tessera_wsq_push(&c->q, TESSERA_WS_PING, NULL, 0, (uint32_t)now);
    pthread_mutex_unlock(&ws_lock);
  }
}

/* ---- The loop ---------------------------------------------------------------------------------- */
/* How readily a connection gives its slot to a newcomer (0: not at all): one being closed, then a kept-alive
 * one with no request under way (both closed at once), then one whose head, then body, has taken EVICT_MS
 * and more (answered 408: its slot is free once that is out). */
static int evict_rank(const conn_t *c, uint64_t now) {
  if (c->state == C_LINGER) return 4;
  if (c->state == C_HEAD && c->idle) return 3;
  if (now - c->since < EVICT_MS) return 0;
  return c->state == C_HEAD ? 2 : c->state == C_BODY ? 1 : 0;
}

/* A slot for a newcomer: a free one, else one made from the connection of the highest evict_rank (the
 * oldest of them). NULL: no slot now; the newcomer waits in the listen backlog until one frees. */
static conn_t *make_room(uint64_t now) {
  conn_t *victim = NULL;
  int rank = 0;
  for (int i = 0; i < MAX_CONNS; i++) {
    conn_t *c = &conns[i];
    if (c->state == C_FREE) return c;
    int r = evict_rank(c, now);
    if (r > rank || (r && r == rank && c->since < victim->since)) victim = c, rank = r;
  }
  if (!victim) return NULL;
  if (rank >= 3) {
    drop(victim);
    return victim;
  }
  free(victim->body);
  victim->body = NULL;
  victim->keep_alive = 0;
  respond_error(victim, 408, "timeout", 1);
  return NULL;
}

/* A slot free now or soon: the listening socket is watched (else newcomers wait in its backlog). */
static int room_possible(uint64_t now) {
  if (now < accept_paused_until) return 0;
  for (int i = 0; i < MAX_CONNS; i++)
    if (conns[i].state == C_FREE || evict_rank(&conns[i], now)) return 1;
  return 0;
}

static void on_accept(uint64_t now) {
  for (int k = 0; k < 16; k++) {
    conn_t *c = make_room(now);
    if (!c) return; /* the rest wait in the backlog */
    int fd = accept(listen_fd, NULL, NULL);
    if (fd < 0) {
      if (errno == EMFILE || errno == ENFILE || errno == ENOBUFS || errno == ENOMEM)
        accept_paused_until = now + ACCEPT_PAUSE_MS; /* out of descriptors: they wait in the backlog */
      return;
    }
    int flags = fcntl(fd, F_GETFL, 0);
    fcntl(fd, F_SETFL, flags | O_NONBLOCK);
    fcntl(fd, F_SETFD, FD_CLOEXEC);
    int one = 1;
    setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
    uint8_t *in = malloc(HEAD_CAP);
    if (!in) {
      static const char busy[] =
          "HTTP/1.1 503 Service Unavailable\r\nContent-Type: application/json\r\n"
          "Content-Length: 16\r\nConnection: close\r\n\r\n{\"error\":\"busy\"}";
      (void)tessera_send_now(fd, busy, sizeof busy - 1);
      close(fd);
      continue;
    }
    memset(c, 0, sizeof *c);
    c->fd = fd;
    c->in = in;
    enter(c, C_HEAD, HEAD_MS);
  }
}

/* The answer is out: the next request, or the end of the connection. 1 when it was dropped. */
static void advance_ws(conn_t *c);

static int answer_sent(conn_t *c) {
  free(c->out);
  c->out = NULL;
  c->out_len = c->out_sent = 0;
  if (c->close_after || !c->keep_alive) {
    shutdown(c->fd, SHUT_WR);
    enter(c, C_LINGER, LINGER_MS);
    return 1;
  }
  reset_request(c);
  enter(c, C_HEAD, IDLE_MS);
  c->idle = 1;
  advance_http(c); /* a pipelined request may be waiting */
  if (c->state == C_WS) advance_ws(c);
  return 0;
}

static void on_readable(conn_t *c) {
  if (c->state == C_LINGER) {
    char scratch[4096];
    ssize_t n;
    while ((n = recv(c->fd, scratch, sizeof scratch, MSG_DONTWAIT)) > 0) {}
    if (n == 0 || (errno != EAGAIN && errno != EWOULDBLOCK && errno != EINTR)) drop(c);
    return;
  }
  for (;;) {
    size_t room = HEAD_CAP - c->in_len;
    if (room == 0) break;
    ssize_t n = recv(c->fd, c->in + c->in_len, room, MSG_DONTWAIT);
    if (n == 0) {
      if (c->state == C_WS && c->closing) c->peer_closed = 1;
      drop(c);
      return;
    }
    if (n < 0) {
      if (errno == EAGAIN || errno == EWOULDBLOCK || errno == EINTR) break;
      drop(c);
      return;
    }
    if (c->state == C_HEAD && c->idle) {
      c->idle = 0; /* a kept-alive connection starts a request: the head's own deadline */
      c->since = now_ms();
      c->deadline = c->since + HEAD_MS;
    }
    c->in_len += (size_t)n;
    if (c->state != C_WS) advance_http(c);
    if (c->state == C_WS) advance_ws(c);
    if (c->state == C_FREE || c->state == C_CORE || c->state == C_SEND) return;
  }
}

static void on_writable(conn_t *c) {
  while (c->out_sent < c->out_len) {
    int n = tessera_send_now(c->fd, c->out + c->out_sent, c->out_len - c->out_sent);
    if (n < 0) {
      drop(c);
      return;
    }
    if (n == 0) return;
    c->out_sent += (size_t)n;
  }
  answer_sent(c);
}

static void collect_answers(void) {
  int any = 0;
  for (int i = 0; i < MAX_CONNS && !any; i++) any = conns[i].state == C_CORE;
  if (!any) return;
  posix_lock();
  if (answers_waiting) {
    answers_waiting = 0;
    for (int i = 0; i < MAX_CONNS; i++) {
      conn_t *c = &conns[i];
      if (c->state != C_CORE || !tessera_request_done(c->req_id)) continue;
      uint32_t id = c->req_id;
      c->req_id = 0;
      if (!take_answer(c, id)) respond_error(c, 500, "internal_error", 0);
    }
  }
  posix_unlock();
}

static void check_deadlines(uint64_t now) {
  for (int i = 0; i < MAX_CONNS; i++) {
    conn_t *c = &conns[i];
    switch (c->state) {
      case C_HEAD:
        if (now < c->deadline) break;
        if (c->in_len == 0) drop(c); /* idle: closed quietly */
        else {
          c->keep_alive = 0;
          respond_error(c, 408, "timeout", 1);
        }
        break;
      case C_BODY:
        if (now >= c->deadline) {
          free(c->body);
          c->body = NULL;
          respond_error(c, 408, "timeout", 1);
        }
        break;
      case C_CORE:
        if (now >= c->deadline) {
          posix_lock();
          tessera_answer_t a;
          if (tessera_request_take(c->req_id, &a)) free(a.body);
          posix_unlock();
          c->req_id = 0;
          respond_error(c, 500, "internal_error", 0);
        }
        break;
      case C_SEND:
      case C_LINGER:
        if (now >= c->deadline) drop(c);
        break;
      case C_WS:
        if (c->deadline && now >= c->deadline) drop(c); /* a close that did not finish */
        else if (c->frame_at && now >= c->frame_at && !c->closing) ws_close_now(c, WS_CLOSE_BEHIND);
        break;
      default: break;
    }
  }
}

static void *serve(void *arg) {
  (void)arg;
  static struct pollfd fds[MAX_CONNS + 2];
  static int slot_of[MAX_CONNS + 2];
  uint64_t next_ping = now_ms() + (uint64_t)posix_ws_ping_ms;
  while (!stopping) {
    uint64_t now = now_ms();
    int nfds = 0;
    int listening = room_possible(now);
    fds[nfds].fd = listening ? listen_fd : -1; /* negative: not watched */
    fds[nfds].events = POLLIN;
    slot_of[nfds++] = -1;
    fds[nfds].fd = wake_pipe[0];
    fds[nfds].events = POLLIN;
    slot_of[nfds++] = -1;
    int wants_flush = 0;
    for (int i = 0; i < MAX_CONNS; i++) {
      conn_t *c = &conns[i];
      if (c->state == C_FREE) continue;
      short ev = 0;
      if (c->state == C_HEAD || c->state == C_BODY || c->state == C_LINGER) ev = POLLIN;
      else if (c->state == C_SEND) ev = POLLOUT;
      else if (c->state == C_WS) {
        ev = c->peer_closed ? 0 : POLLIN;
        pthread_mutex_lock(&ws_lock);
        if (c->q.used) ev |= POLLOUT, wants_flush = 1;
        pthread_mutex_unlock(&ws_lock);
      }
      if (!ev) continue; /* waiting for the core (or a close): a hang-up is found when writing */
      fds[nfds].fd = c->fd;
      fds[nfds].events = ev;
      slot_of[nfds++] = i;
    }
    int timeout = wants_flush || !listening ? 200 : 1000; /* full: looks for room again soon */
    if (next_ping > now && next_ping - now < (uint64_t)timeout) timeout = (int)(next_ping - now);
    int r = poll(fds, (nfds_t)nfds, timeout);
    if (r < 0 && errno != EINTR) break;
    now = now_ms();
    if (fds[1].revents & POLLIN) {
      char drain[64];
      while (read(wake_pipe[0], drain, sizeof drain) > 0) {}
    }
    for (int k = 2; k < nfds; k++) {
      conn_t *c = &conns[slot_of[k]];
      short re = fds[k].revents;
      if (!re || c->fd != fds[k].fd || c->state == C_FREE) continue;
      if (re & POLLNVAL) {
        drop(c);
        continue;
      }
      if ((re & (POLLIN | POLLHUP | POLLERR)) &&
          (c->state == C_HEAD || c->state == C_BODY || c->state == C_WS || c->state == C_LINGER))
        on_readable(c);
      if (c->state == C_SEND && (re & (POLLOUT | POLLERR | POLLHUP))) on_writable(c);
    }
    if (listening && (fds[0].revents & POLLIN)) on_accept(now);
    collect_answers();
    if (now >= next_ping) {
      ping_all(now);
      next_ping = now + (uint64_t)posix_ws_ping_ms;
    }
    /* WebSocket queues, and answers that became ready */
    for (int i = 0; i < MAX_CONNS; i++) {
      conn_t *c = &conns[i];
      if (c->state == C_WS) {
        if (ws_flush(c, now)) drop(c);
      } else if (c->state == C_SEND && c->out_sent == 0) on_writable(c);
    }
    check_deadlines(now);
  }
  for (int i = 0; i < MAX_CONNS; i++) drop(&conns[i]);
  return NULL;
}

static int open_listener(const char *host, int port) {
  struct addrinfo hints, *res = NULL;
  memset(&hints, 0, sizeof hints);
  hints.ai_socktype = SOCK_STREAM;
  hints.ai_flags = AI_PASSIVE | AI_NUMERICSERV;
  char service[16];
  snprintf(service, sizeof service, "%d", port);
  int fd = -1;
  if (!host) { /* IPv4 and IPv6 on one socket, else IPv4 alone */
    fd = socket(AF_INET6, SOCK_STREAM | SOCK_CLOEXEC, 0);
    if (fd >= 0) {
      int zero = 0, one = 1;
      setsockopt(fd, IPPROTO_IPV6, IPV6_V6ONLY, &zero, sizeof zero);
      setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof one);
      struct sockaddr_in6 a;
      memset(&a, 0, sizeof a);
      a.sin6_family = AF_INET6;
      a.sin6_port = htons((uint16_t)port);
      a.sin6_addr = in6addr_any;
      if (bind(fd, (struct sockaddr *)&a, sizeof a) == 0 && listen(fd, BACKLOG) == 0) return fd;
      close(fd);
    }
    hints.ai_family = AF_INET;
  } else hints.ai_family = AF_UNSPEC;
  if (getaddrinfo(host, service, &hints, &res) != 0) return -1;
  for (struct addrinfo *ai = res; ai; ai = ai->ai_next) {
    fd = socket(ai->ai_family, ai->ai_socktype | SOCK_CLOEXEC, ai->ai_protocol);
    if (fd < 0) continue;
    int one = 1;
    setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof one);
    if (bind(fd, ai->ai_addr, ai->ai_addrlen) == 0 && listen(fd, BACKLOG) == 0) break;
    close(fd);
    fd = -1;
  }
  freeaddrinfo(res);
  return fd;
}

int server_start(const char *host, int port) {
  tessera_requests_init(requests, MAX_REQUESTS, ANSWER_CAP, on_answered);
  for (int i = 0; i < MAX_CONNS; i++) conns[i].fd = -1;
  listen_fd = open_listener(host, port);
  if (listen_fd < 0) return -1;
  fcntl(listen_fd, F_SETFL, fcntl(listen_fd, F_GETFL, 0) | O_NONBLOCK);
  if (pipe(wake_pipe) != 0) return -1;
  for (int k = 0; k < 2; k++) {
    fcntl(wake_pipe[k], F_SETFL, fcntl(wake_pipe[k], F_GETFL, 0) | O_NONBLOCK);
    fcntl(wake_pipe[k], F_SETFD, FD_CLOEXEC);
  }
  struct sockaddr_storage addr;
  socklen_t alen = sizeof addr;
  if (getsockname(listen_fd, (struct sockaddr *)&addr, &alen) != 0) return -1;
  int bound = addr.ss_family == AF_INET6 ? ntohs(((struct sockaddr_in6 *)&addr)->sin6_port)
                                         : ntohs(((struct sockaddr_in *)&addr)->sin_port);
  if (pthread_create(&thread, NULL, serve, NULL) != 0) return -1;
  return bound;
}

void server_stop(void) {
  if (listen_fd < 0) return;
  stopping = 1;
  wake();
  pthread_join(thread, NULL);
  close(listen_fd);
  listen_fd = -1;
}
