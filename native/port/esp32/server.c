/*
 * server.c: HTTP and WebSocket (/ws) of the ESP32 port with esp_http_server on port 80. The server's
 * one task (httpd) never waits for the core thread (it never takes the core lock), a worker or a slow
 * client:
 *
 * - Every socket read and write of the server goes through a session override (on_open) built on
 *   native/src/netio.c: select() with a deadline, then a non-blocking recv/send. A request head or a
 *   WebSocket frame must arrive within REQUEST_READ_MS of its first byte; a body within BODY_READ_MS;
 *   an answer must go out within ANSWER_SEND_MS; other writes wait at most SEND_WAIT_MS per call. A
 *   timeout is never retried: the request gets 408 or the connection is closed.
 * - HTTP requests are handed to HTTP_WORKERS worker tasks with httpd_req_async_handler_begin (ESP-IDF
 *   5.x's async handlers): a worker reads a body up to the core's 32 KiB whole and streams a longer one
 *   to the core in BODY_PIECE pieces (the firmware upload), hands the request to the core thread
 *   (esp32_start_on_core) and sends the answer as the core writes it, through a fixed ANSWER_RING
 *   per request (native/src/requests.c, streamed; see "The workers" below). WORK_QUEUE requests wait
 *   for a worker; beyond that: 503 at once.
 * - WebSocket frames received are copied into a bounded queue for the core thread (never waiting for
 *   it); opens and closes are slot states the core thread picks up (esp32_server_pump). The slots and
 *   their send queues have their own short lock (ws_lock), taken by the core thread inside the core
 *   lock and by the server task alone, never the other way round. What the core
 *   sends goes into the connection's own send queue (native/src/ws_queue.c: a buffer per connection,
 *   no allocation per frame, mirror batches merged for a slow client) and the core thread writes it
 *   without waiting (esp32_server_flush). A client whose queue overflows or does not move for
 *   WS_STALL_MS is closed (1008), and dropped if its close frame cannot go out either. The server
 *   takes the control frames itself (handle_ws_control_frames), so only the core thread ever writes to
 *   a WebSocket.
 * - While the setup network is up, requests that came in over it for any other host than the portal
 *   are redirected to http://192.168.4.1/setup; clients on the home network are never redirected.
 * Checked against ESP-IDF v5.3.4's declarations by scripts/esp32-check.mjs; never built with the ESP
 * toolchain here. The queue, the bounded waits and the redirect rule run in native/test/ on Linux.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include "esp_http_server.h"
#include "freertos/FreeRTOS.h"
#include "freertos/queue.h"
#include "freertos/semphr.h"
#include "freertos/task.h"
#include "sdkconfig.h"
#include "tessera_driver.h"
#include "tessera_esp32.h"
#include "tessera_host.h"
#include "tessera_netio.h"
#include "tessera_port.h"
#include "tessera_requests.h"
#include "tessera_web.h"
#include "tessera_wifi_policy.h"
#include "tessera_ws_queue.h"

#define BODY_WHOLE (32 * 1024) /* the core's document limit: a body up to it is read whole, a longer one streams */
#define BODY_PIECE 1024        /* a streamed body's piece (the firmware upload), read outside the core lock */
#if CONFIG_TESSERA_VARIANT_SMALL
/* The small variant (ESP32-C6, no PSRAM) serves one request at a time, so at most one document body of up to
 * BODY_WHOLE is held: with two, every buffer in flight at once would leave its internal RAM less than its
 * target (npm run bench:ram); the others wait their turn in the queue. */
#define HTTP_WORKERS 1
#define WORK_QUEUE 4 /* the web app asks for five things at once when it loads */
#else
#define HTTP_WORKERS 2 /* tasks that serve requests: the request table has a slot for each */
#define WORK_QUEUE 4   /* requests waiting for a worker (the web app asks for five things at once) */
#endif
#define WORKER_STACK 4096
#define ANSWER_RING 2048       /* per request: the core thread writes the answer here as the worker sends it */
#define ANSWER_STALL_MS 250    /* per answer, the longest the core thread waits for room in its ring, in all */
#define ANSWER_TIMEOUT_MS 5000 /* the core answers a live query within 50 ms; this bounds a lost one */
#define REQUEST_READ_MS 3000   /* a request head or a WebSocket frame, from its first byte */
#define BODY_READ_MS 10000     /* a request body up to BODY_WHOLE; each BODY_PIECE of a longer one */
#define LINGER_MS 2000         /* reading the rest of a body after its answer, before closing */
#define ANSWER_SEND_MS 15000   /* an answer, from its head */
#define SEND_WAIT_MS 2000      /* any other write of the server's (handshake, 302, 408, 503) */
#define STALE_MS 1000          /* a read deadline passed this long ago was an earlier request's */
#define HOST_CAP 128           /* Host and Origin kept for the core's policy; longer ones get 431 */
#define ORIGIN_CAP 160

#define WS_SLOTS (ESP32_WS_CLIENTS + 1) /* the core's connections, and one to refuse a ninth with 1013 */
#define WS_FRAME_CAP 1024               /* no valid frame is larger (the core's receive buffer) */
#if CONFIG_TESSERA_VARIANT_SMALL
#define WS_READ_CAP 2048 /* larger frames close the connection; up to it they are dropped */
#else
#define WS_READ_CAP 4096
#endif
#define WS_INBOUND 4      /* received frames waiting for the core thread */
#define WS_STALL_MS 10000 /* a send queue that does not move for this long: the client is gone */
/* A connection's send queue: above the largest frame the core sends, so one always fits: the mirror snapshot
 * (5,134 bytes for 100 panels, under 2 KB for the small variant's 32) or a mirror batch (at most 2 KiB and
 * its header). 3 KiB on the small variant keeps its worst case within its RAM target (npm run bench:ram). */
#if CONFIG_TESSERA_VARIANT_SMALL
#define WS_QUEUE_CAP (3 * 1024)
#else
#define WS_QUEUE_CAP (6 * 1024)
#endif
#define WS_CLOSE_BEHIND 1008 /* policy violation: the client does not keep up */
#define WS_CLOSE_TRY_LATER 1013
#define WS_CLOSE_POLICY 1008 /* Host or Origin not this controller's */
#define WS_CLOSE_RESTARTED 1011

/* ---- Sessions: bounded reads and writes (the overrides every session gets in on_open) ----------- */
typedef struct {
  uint32_t read_by;  /* deadline of the current read (ms clock) */
  uint32_t write_by; /* deadline of the current answer */
  int reading, writing;
} session_t;

static httpd_handle_t server;

static uint32_t now_ms(void) { return (uint32_t)esp32_now_ms(); }

static int sock_result(int n) {
  if (n == TESSERA_NET_TIMEOUT) return HTTPD_SOCK_ERR_TIMEOUT;
  return n < 0 ? HTTPD_SOCK_ERR_FAIL : n;
}

/* The first read of a request head or frame starts its deadline; the handler (or worker) ends it. A
 * deadline that passed well before (a request that ended in the server's own error answer, which no
 * handler sees) belongs to an earlier request: it starts again. */
static int bounded_recv(httpd_handle_t hd, int fd, char *buf, size_t len, int flags) {
  (void)flags;
  session_t *s = httpd_sess_get_transport_ctx(hd, fd);
  uint32_t now = now_ms();
  if (s && (!s->reading || (!tessera_ms_left(now, s->read_by) && now - s->read_by > STALE_MS))) {
    s->reading = 1;
    s->read_by = now + REQUEST_READ_MS;
  }
  uint32_t left = s ? tessera_ms_left(now, s->read_by) : REQUEST_READ_MS;
  if (!left) return HTTPD_SOCK_ERR_TIMEOUT;
  return sock_result(tessera_recv_within(fd, buf, len, left));
}

static int bounded_send(httpd_handle_t hd, int fd, const char *buf, size_t len, int flags) {
  (void)flags;
  session_t *s = httpd_sess_get_transport_ctx(hd, fd);
  uint32_t left = s && s->writing ? tessera_ms_left(now_ms(), s->write_by) : SEND_WAIT_MS;
  if (!left) return HTTPD_SOCK_ERR_TIMEOUT;
  return sock_result(tessera_send_within(fd, buf, len, left));
}

/* The reads of req's body from now on must all be done within ms (a timeout ends the body:
 * httpd_req_recv never retries); read_done ends the deadline. */
static void read_within(httpd_req_t *req, uint32_t ms) {
  session_t *s = httpd_sess_get_transport_ctx(server, httpd_req_to_sockfd(req));
  if (s) {
    s->reading = 1;
    s->read_by = now_ms() + ms;
  }
}

static void read_done(httpd_req_t *req) {
  session_t *s = httpd_sess_get_transport_ctx(server, httpd_req_to_sockfd(req));
  if (s) s->reading = 0;
}

static esp_err_t on_open(httpd_handle_t hd, int fd) {
  session_t *s = calloc(1, sizeof *s);
  if (!s) return ESP_ERR_NO_MEM; /* the server closes the socket */
  httpd_sess_set_transport_ctx(hd, fd, s, free);
  httpd_sess_set_recv_override(hd, fd, bounded_recv);
  httpd_sess_set_send_override(hd, fd, bounded_send);
  return ESP_OK;
}

/* ---- WebSocket slots ------------------------------------------------------------------------------ */
typedef enum {
  WS_FREE,    /* unused */
  WS_OPENING, /* handshake done; the core thread has not told the core yet */
  WS_OPEN,    /* the core knows it (or refused it: in_core 0 and closing) */
  WS_GONE,    /* the socket is closed; the core thread tells the core and frees the slot */
} ws_state_t;

typedef struct {
  ws_state_t state;
  int fd;
  uint32_t id;
  int in_core;     /* the core has this connection open */
  int close_asked; /* httpd_sess_trigger_close is queued */
  tessera_wsq_t q; /* what goes out, in q.buf (WS_QUEUE_CAP bytes, allocated at the handshake) */
} ws_t;

typedef struct {
  uint32_t id;
  uint32_t len;
  uint8_t data[WS_FRAME_CAP];
} inbound_t;

static tessera_request_t requests[HTTP_WORKERS];
static tessera_request_t *open_request(uint32_t *id, uint32_t *slot);
static ws_t ws[WS_SLOTS];
static uint32_t next_id = 1;
static QueueHandle_t inbound;     /* inbound_t, the httpd task to the core thread */
static SemaphoreHandle_t ws_lock; /* the slots and their queues; never held while waiting for anything */

static void ws_enter(void) { xSemaphoreTake(ws_lock, portMAX_DELAY); }
static void ws_leave(void) { xSemaphoreGive(ws_lock); }

/* ws_lock held. */
static ws_t *ws_by_fd(int fd) {
  for (int i = 0; i < WS_SLOTS; i++)
    if (ws[i].state != WS_FREE && ws[i].state != WS_GONE && ws[i].fd == fd) return &ws[i];
  return NULL;
}

static ws_t *ws_by_id(uint32_t id) {
  for (int i = 0; i < WS_SLOTS; i++)
    if ((ws[i].state == WS_OPENING || ws[i].state == WS_OPEN) && ws[i].in_core && ws[i].id == id) return &ws[i];
  return NULL;
}

/* ws_lock held: the connection is closed with this code once what has started going out is out. */
static void ws_close_with(ws_t *w, uint16_t code) { tessera_wsq_close(&w->q, code, now_ms()); }

static void ws_push(ws_t *w, const uint8_t *data, uint32_t len) {
  int r = tessera_wsq_push(&w->q, TESSERA_WS_BINARY, data, len, now_ms());
  if (r == TESSERA_WSQ_FULL) {
    tessera_logf(TESSERA_LOG_WARN, "ws: connection %u does not keep up (%u bytes waiting), closed", (unsigned)w->id,
                 (unsigned)w->q.used);
    ws_close_with(w, WS_CLOSE_BEHIND);
  }
}

/* The core's output side (core thread, core lock held); HTTP answers: native/src/requests.c. */
void port_ws_send(uint32_t conn, const uint8_t *data, uint32_t len) {
  ws_enter();
  ws_t *w = ws_by_id(conn);
  if (w) ws_push(w, data, len);
  ws_leave();
}

void port_ws_broadcast(const uint8_t *data, uint32_t len) {
  ws_enter();
  for (int i = 0; i < WS_SLOTS; i++)
    if (ws[i].state == WS_OPEN && ws[i].in_core) ws_push(&ws[i], data, len);
  ws_leave();
}

void port_core_restarted(const char *reason) {
  (void)reason;
  tessera_requests_fail_all();
  ws_enter();
  for (int i = 0; i < WS_SLOTS; i++)
    if ((ws[i].state == WS_OPENING || ws[i].state == WS_OPEN) && ws[i].in_core) {
      ws[i].in_core = 0;
      ws_close_with(&ws[i], WS_CLOSE_RESTARTED);
    }
  ws_leave();
  esp32_boot_core_trapped(); /* a new image whose core traps before its first answer rolls back */
}

/* Core thread, core lock held; ws_lock is taken around the slots, never across a core call (the core
 * calls port_ws_send, which takes it). */
int esp32_server_pump(void) {
  int delivered = 0;
  for (int i = 0; i < WS_SLOTS; i++) {
    ws_enter();
    ws_t *w = &ws[i];
    ws_state_t state = w->state;
    uint32_t id = w->id;
    int in_core = w->in_core;
    uint8_t *buf = w->q.buf;
    if (state == WS_OPENING) {
      w->state = WS_OPEN;
      w->in_core = 1; /* so the APP_STATE the core sends on open reaches it */
    } else if (state == WS_GONE) {
      memset(w, 0, sizeof *w); /* free: the server task may reuse it at once */
    }
    ws_leave();
    if (state == WS_OPENING) {
      /* the Host/Origin policy (a refusal's answer has nowhere to go after the handshake: 1008) */
      const char *host = (const char *)buf + WS_QUEUE_CAP, *origin = host + HOST_CAP;
      uint32_t rid = 0, slot;
      tessera_request_t *r = open_request(&rid, &slot);
      if (r) tessera_answer_give_up(r); /* a refusal's answer is not sent: the core thread drops it */
      int allowed = r && tessera_http_allow(rid, host, strlen(host), origin[ORIGIN_CAP] ? origin : NULL,
                                            origin[ORIGIN_CAP] ? strlen(origin) : 0);
      tessera_answer_t refused;
      if (r) tessera_request_take(rid, &refused);
      if (!allowed) {
        ws_enter();
        if (w->id == id && w->state == WS_OPEN) {
          w->in_core = 0;
          ws_close_with(w, r ? WS_CLOSE_POLICY : WS_CLOSE_TRY_LATER);
        }
        ws_leave();
      } else if (!tessera_ws_open(id)) {
        ws_enter();
        if (w->id == id && (w->state == WS_OPEN || w->state == WS_GONE)) { /* it may have closed meanwhile */
          w->in_core = 0;
          if (w->state == WS_OPEN) ws_close_with(w, WS_CLOSE_TRY_LATER);
        }
        ws_leave();
      }
      delivered = 1;
    } else if (state == WS_GONE) {
      if (in_core) tessera_ws_close(id);
      free(buf);
      delivered = 1;
    }
  }
  static inbound_t frame;
  while (xQueueReceive(inbound, &frame, 0) == pdTRUE) {
    ws_enter();
    ws_t *w = ws_by_id(frame.id);
    int open = w && w->state == WS_OPEN && !w->q.closing;
    ws_leave();
    if (open) {
      tessera_ws_frame(frame.id, frame.data, frame.len);
      delivered = 1;
    }
  }
  return delivered;
}

static int write_fd(void *ctx, const uint8_t *data, uint32_t len) { return tessera_send_now(*(int *)ctx, data, len); }

/* Core thread, ws_lock held: asks the server task to close the session (retried next turn if its
 * work queue is full). */
static void ws_drop(ws_t *w) {
  if (!w->close_asked && httpd_sess_trigger_close(server, w->fd) == ESP_OK) w->close_asked = 1;
}

void esp32_server_flush(void) {
  uint32_t now = now_ms();
  ws_enter(); /* the writes never wait (MSG_DONTWAIT) */
  for (int i = 0; i < WS_SLOTS; i++) {
    ws_t *w = &ws[i];
    if (w->state != WS_OPEN || w->close_asked) continue;
    uint32_t before = w->q.bytes;
    int r = tessera_wsq_flush(&w->q, write_fd, &w->fd, now);
    if (r == TESSERA_WSQ_DONE || r == TESSERA_WSQ_ERROR) ws_drop(w);
    else if (tessera_wsq_stalled(&w->q, now, WS_STALL_MS)) {
      if (w->q.closing) ws_drop(w); /* not even its close frame goes out */
      else {
        tessera_logf(TESSERA_LOG_WARN, "ws: connection %u took nothing for %u ms, closed", (unsigned)w->id,
                     (unsigned)WS_STALL_MS);
        ws_close_with(w, WS_CLOSE_BEHIND);
      }
    }
    /* A connection that receives keeps its place: with every session taken, the server closes the
     * least recently used one for a newcomer (lru_purge_enable), and a mirroring client only reads.
     * The counter update races benignly with the server task (at worst two sessions tie). */
    if (w->q.bytes != before) httpd_sess_update_lru_counter(server, w->fd);
  }
  ws_leave();
}

/* ---- WebSocket /ws (the server task) ------------------------------------------------------------- */
static int read_host_origin(httpd_req_t *req, char host[HOST_CAP], char origin[ORIGIN_CAP], const char **origin_out);

/* The handshake's Host and Origin wait for the core's policy after the queue's bytes (WS_EXTRA). */
#define WS_EXTRA (HOST_CAP + ORIGIN_CAP + 1)

static esp_err_t ws_handshake(httpd_req_t *req, int fd) {
  uint8_t *buf = malloc(WS_QUEUE_CAP + WS_EXTRA);
  if (!buf) return ESP_FAIL;
  char *host = (char *)buf + WS_QUEUE_CAP, *origin = host + HOST_CAP;
  const char *op = NULL;
  if (read_host_origin(req, host, origin, &op) != 0) {
    free(buf);
    return ESP_FAIL; /* a Host or Origin too long to be one of ours: closed */
  }
  origin[ORIGIN_CAP] = op ? 1 : 0; /* whether there was an Origin */
  ws_enter();
  ws_t *w = NULL;
  for (int i = 0; i < WS_SLOTS && !w; i++)
    if (ws[i].state == WS_FREE) w = &ws[i];
  if (w) {
    memset(w, 0, sizeof *w);
    w->state = WS_OPENING;
    w->fd = fd;
    w->id = next_id++;
    tessera_wsq_init(&w->q, buf, WS_QUEUE_CAP, now_ms());
  }
  ws_leave();
  if (!w) free(buf);
  return w ? ESP_OK : ESP_FAIL; /* no slot: the server closes the connection */
}

static esp_err_t on_ws(httpd_req_t *req) {
  int fd = httpd_req_to_sockfd(req);
  if (req->method == HTTP_GET) { /* the handshake is done */
    read_done(req);
    return ws_handshake(req, fd);
  }
  static inbound_t frame; /* only the server task receives */
  httpd_ws_frame_t f = {0};
  esp_err_t err = httpd_ws_recv_frame(req, &f, 0);
  if (err != ESP_OK || f.len > WS_READ_CAP) {
    read_done(req);
    return ESP_FAIL;
  }
  uint8_t *data = f.len <= WS_FRAME_CAP ? frame.data : malloc(f.len); /* too long for the core: read, drop */
  f.payload = data;
  if (f.len && (!data || httpd_ws_recv_frame(req, &f, f.len) != ESP_OK)) err = ESP_FAIL;
  read_done(req);
  if (err == ESP_OK && f.len <= WS_FRAME_CAP) {
    ws_enter();
    ws_t *w = ws_by_fd(fd);
    if (!w) {
    } else if (f.type == HTTPD_WS_TYPE_BINARY && f.final && !f.fragmented) {
      frame.id = w->id;
      frame.len = (uint32_t)f.len;
      if (xQueueSend(inbound, &frame, 0) != pdTRUE)
        tessera_logf(TESSERA_LOG_WARN, "ws: frame from %u dropped (the core is behind)", (unsigned)w->id);
    } else if (f.type == HTTPD_WS_TYPE_PING) {
      tessera_wsq_push(&w->q, TESSERA_WS_PONG, frame.data, f.len <= 125 ? (uint32_t)f.len : 125, now_ms());
    } else if (f.type == HTTPD_WS_TYPE_CLOSE) { /* answer with the client's code, then close */
      uint16_t code = f.len >= 2 ? (uint16_t)(frame.data[0] << 8 | frame.data[1]) : 1000;
      ws_close_with(w, code);
    } /* text, continuation and pong frames are dropped, as the core drops text frames */
    ws_leave();
  }
  if (data && data != frame.data) free(data);
  return err;
}

static void on_close(httpd_handle_t hd, int fd) {
  (void)hd;
  ws_enter();
  ws_t *w = ws_by_fd(fd);
  if (w) { /* the core thread tells the core and frees the slot; nothing writes to fd from now on */
    w->state = WS_GONE;
    w->fd = -1;
  }
  ws_leave();
  close(fd);
}

/* ---- HTTP ---------------------------------------------------------------------------------------- */
static uint32_t method_code(int m) {
  switch (m) {
    case HTTP_GET: return TESSERA_METHOD_GET;
    case HTTP_HEAD: return TESSERA_METHOD_HEAD;
    case HTTP_POST: return TESSERA_METHOD_POST;
    case HTTP_PUT: return TESSERA_METHOD_PUT;
    case HTTP_PATCH: return TESSERA_METHOD_PATCH;
    case HTTP_DELETE: return TESSERA_METHOD_DELETE;
    default: return TESSERA_METHOD_OTHER;
  }
}

/* The Content-Type of an answer: status carries TESSERA_HTTP_HTML for an HTML page (the setup form). */
static const char *content_type(uint32_t status) {
  return (status & TESSERA_HTTP_HTML) ? "text/html; charset=utf-8" : "application/json";
}

/* The status line ("200 OK", kept in line until the head has gone out) and Content-Type of an answer. */
static void set_status(httpd_req_t *req, uint32_t status, char line[48]) {
  uint32_t code = status & 0xffff;
  snprintf(line, 48, "%u %s", (unsigned)code, code < 300 ? "OK" : "Error");
  httpd_resp_set_status(req, line);
  httpd_resp_set_type(req, content_type(status));
}

static esp_err_t send_error(httpd_req_t *req, uint32_t status, const char *json) {
  char line[48];
  set_status(req, status, line);
  return httpd_resp_send(req, json, (ssize_t)strlen(json));
}

/* Host and Origin of req for the core's policy (tessera_http_allow); *origin_out NULL when there is
 * none. 0, or -1 when one is longer than its buffer (answered 431). */
static int read_host_origin(httpd_req_t *req, char host[HOST_CAP], char origin[ORIGIN_CAP], const char **origin_out) {
  esp_err_t e = httpd_req_get_hdr_value_str(req, "Host", host, HOST_CAP);
  if (e != ESP_OK && e != ESP_ERR_NOT_FOUND) return -1; /* truncated */
  if (e != ESP_OK) host[0] = 0;
  *origin_out = NULL;
  e = httpd_req_get_hdr_value_str(req, "Origin", origin, ORIGIN_CAP);
  if (e != ESP_OK && e != ESP_ERR_NOT_FOUND) return -1;
  if (e == ESP_OK) *origin_out = origin;
  return 0;
}

/* Captive portal: a request for another host that came in over the setup network (a phone's
 * connectivity check) is sent to the setup page, which the core serves. */
static int redirect_to_setup(httpd_req_t *req) {
  static const uint8_t portal_ip[4] = {192, 168, 4, 1}; /* TESSERA_PORTAL_IP */
  if (!esp32_wifi_portal_up()) return 0;
  char host[64] = "";
  if (httpd_req_get_hdr_value_str(req, "Host", host, sizeof host) != ESP_OK) host[0] = 0;
  char *colon = strchr(host, ':');
  if (colon) *colon = 0;
  int on_setup_network = tessera_local_addr_is(httpd_req_to_sockfd(req), portal_ip);
  if (!tessera_portal_redirect(1, on_setup_network, host, TESSERA_PORTAL_IP)) return 0;
  httpd_resp_set_status(req, "302 Found");
  httpd_resp_set_hdr(req, "Location", "http://" TESSERA_PORTAL_IP "/setup");
  httpd_resp_send(req, NULL, 0);
  return 1;
}

/* GET or HEAD of a web app asset (tessera_web.h), straight from the app image's flash: the gzip bytes
 * with their headers, or 304. esp_http_server has no HEAD of its own (httpd_resp_send always sends
 * the body it is given), so a HEAD's head is written as it is. Runs on the server task; no core call. */
static int serve_asset(httpd_req_t *req) {
  if (req->method != HTTP_GET && req->method != HTTP_HEAD) return 0;
  const tessera_web_asset_t *a = tessera_web_find(req->uri);
  if (!a) return 0;
  char tags[128];
  int fresh = httpd_req_get_hdr_value_str(req, "If-None-Match", tags, sizeof tags) == ESP_OK &&
              tessera_web_not_modified(a, tags);
  if (req->method == HTTP_HEAD || fresh) {
    char head[320];
    int n = fresh ? snprintf(head, sizeof head, "HTTP/1.1 304 Not Modified\r\nCache-Control: %s\r\nETag: %s\r\n\r\n",
                             a->cache_control, a->etag)
                  : snprintf(head, sizeof head,
                             "HTTP/1.1 200 OK\r\nContent-Type: %s\r\nContent-Encoding: gzip\r\nContent-Length: %u\r\n"
                             "Cache-Control: %s\r\nETag: %s\r\n\r\n",
                             a->content_type, (unsigned)a->gzip_len, a->cache_control, a->etag);
    if (n > 0 && n < (int)sizeof head) httpd_send(req, head, (size_t)n);
    return 1;
  }
  httpd_resp_set_type(req, a->content_type);
  httpd_resp_set_hdr(req, "Content-Encoding", "gzip");
  httpd_resp_set_hdr(req, "Cache-Control", a->cache_control);
  httpd_resp_set_hdr(req, "ETag", a->etag);
  httpd_resp_send(req, (const char *)a->gzip, a->gzip_len);
  return 1;
}

/* ---- The workers ---------------------------------------------------------------------------------
 * A worker serves one request at a time. It reads a body up to BODY_WHOLE whole (the core parses it
 * whole), a longer one in BODY_PIECE pieces that go to the core as they arrive (the firmware upload:
 * tessera_http_stream/more); the core takes each in windows and appends it to the store. The answer
 * comes back through the request's ring (native/src/requests.c, streamed): the core thread writes it
 * there in pieces as the core produces them (its JSON writer's 1 KiB) while the worker sends them
 * (httpd_resp_send_chunk), so no answer is ever held whole. When the ring is full, the core thread
 * waits for the worker, at most ANSWER_STALL_MS in all per answer (requests.c counts the time); then
 * the rest is dropped and the connection closed: the core thread serves the bus and every other client,
 * so a client that does not keep up with its answer is cut rather than stall them.
 * A worker never waits for a job in esp32_run_on_core: it hands it over (esp32_start_on_core) and
 * sends what the core writes until the job says it has run. */
typedef struct {
  httpd_req_t *req; /* the async copy */
} work_t;

static QueueHandle_t work;
static SemaphoreHandle_t news[HTTP_WORKERS]; /* given when a request slot's answer has news */
static SemaphoreHandle_t room[HTTP_WORKERS]; /* given when a worker took bytes out of a slot's ring */
static uint8_t rings[HTTP_WORKERS][ANSWER_RING];

static void on_news(uint32_t slot) { xSemaphoreGive(news[slot]); } /* core thread, lock held */

static void on_full(uint32_t slot, uint32_t ms) { /* core thread, lock held: waits for the slot's worker */
  xSemaphoreTake(room[slot], pdMS_TO_TICKS(ms) + 1);
}

/* Lock held: a new request slot for a worker or the WebSocket policy, its wake-ups cleared. */
static tessera_request_t *open_request(uint32_t *id, uint32_t *slot) {
  tessera_request_t *r;
  *id = tessera_request_open(&r);
  if (!*id) return NULL;
  *slot = (uint32_t)(r - requests);
  xSemaphoreTake(news[*slot], 0);
  xSemaphoreTake(room[*slot], 0);
  return r;
}

typedef enum { JOB_WHOLE, JOB_STREAM, JOB_MORE } job_kind_t;

typedef struct {
  job_kind_t kind;
  uint32_t id, slot, method;
  const char *url;
  const uint8_t *bytes; /* the whole body, or the piece */
  size_t len, total;
  int more;
  const char *host, *origin; /* origin NULL: none */
  int ran;                   /* set (__atomic) by the core thread at the end: the worker may free what it lent */
} http_job_t;

static void http_job(void *arg) { /* core thread, lock held */
  http_job_t *j = arg;
  if (j->kind == JOB_MORE) tessera_http_more(j->id, j->bytes, (uint32_t)j->len, j->more);
  else if (tessera_http_allow(j->id, j->host, strlen(j->host), j->origin, j->origin ? strlen(j->origin) : 0)) {
    /* the Host/Origin policy first (the core answered a refusal) */
    const uint8_t *url = (const uint8_t *)j->url;
    if (j->kind == JOB_STREAM) tessera_http_stream(j->id, j->method, url, strlen(j->url), (uint32_t)j->total);
    else tessera_http(j->id, j->method, url, strlen(j->url), j->bytes, (uint32_t)j->len, (uint32_t)j->total);
  }
  tessera_tick();          /* applies what the request queued (a 202) */
  uint32_t slot = j->slot; /* the job lives on the worker's stack: read it before saying it ran */
  __atomic_store_n(&j->ran, 1, __ATOMIC_RELEASE);
  xSemaphoreGive(news[slot]);
}

/* A request's answer on its way out: tessera_answer_send (native/src/requests.c) decides, these send. */
typedef struct {
  httpd_req_t *req;
  tessera_request_t *r;
  uint32_t slot;
  tessera_sender_t out;
  char line[48]; /* the status line, kept until the head has gone out */
} answer_t;

/* The session's answer deadline starts with the head (bounded socket waits from then on). */
static void answer_starts(answer_t *a, uint32_t status) {
  session_t *s = httpd_sess_get_transport_ctx(server, httpd_req_to_sockfd(a->req));
  if (s && !s->writing) {
    s->writing = 1;
    s->write_by = now_ms() + ANSWER_SEND_MS;
  }
  if (status) set_status(a->req, status, a->line);
}

static int send_whole(void *ctx, uint32_t status, const uint8_t *body, uint32_t len) {
  answer_t *a = ctx;
  answer_starts(a, status);
  return httpd_resp_send(a->req, (const char *)body, (ssize_t)len) == ESP_OK ? 0 : -1;
}

static int send_chunk(void *ctx, uint32_t status, const uint8_t *data, uint32_t len) {
  answer_t *a = ctx;
  if (!a->line[0]) answer_starts(a, status); /* the first chunk carries the head */
  return httpd_resp_send_chunk(a->req, (const char *)data, (ssize_t)len) == ESP_OK ? 0 : -1;
}

/* HEAD: the head as the answer's GET would have it (esp_http_server would send a body). */
static int send_head(void *ctx, uint32_t status, int32_t length) {
  answer_t *a = ctx;
  answer_starts(a, status);
  char head[160];
  int n = snprintf(head, sizeof head, "HTTP/1.1 %s\r\nContent-Type: %s\r\n", a->line, content_type(status));
  if (length >= 0) n += snprintf(head + n, sizeof head - n, "Content-Length: %d\r\n\r\n", (int)length);
  else n += snprintf(head + n, sizeof head - n, "Transfer-Encoding: chunked\r\n\r\n");
  return httpd_send(a->req, head, (size_t)n) == n ? 0 : -1;
}

static void took(void *ctx) { xSemaphoreGive(room[((answer_t *)ctx)->slot]); }

/* Sends what the core has written so far; the session's write deadline ends with the answer. */
static void send_some(answer_t *a) {
  if (!tessera_answer_send(a->r, &a->out)) return;
  session_t *s = httpd_sess_get_transport_ctx(server, httpd_req_to_sockfd(a->req));
  if (s) s->writing = 0;
}

/* The worker stops taking: the core thread drops the rest at once (woken if it waits for room). */
static void give_up(answer_t *a) {
  tessera_answer_give_up(a->r);
  took(a);
}

/* Hands job j to the core thread and sends what it writes until it has run. */
static void run_job(answer_t *a, http_job_t *j) {
  __atomic_store_n(&j->ran, 0, __ATOMIC_RELAXED);
  esp32_start_on_core(http_job, j);
  while (!__atomic_load_n(&j->ran, __ATOMIC_ACQUIRE)) {
    send_some(a);
    xSemaphoreTake(news[a->slot], pdMS_TO_TICKS(ANSWER_TIMEOUT_MS));
  }
  send_some(a);
}

/* A body longer than BODY_WHOLE, to the core piece by piece until the core has answered (413 for a
 * route that does not stream, 409, 422, 507) or the body ended. Returns the bytes read; *broken is
 * set when a read stalled or failed (the client is gone or stuck: nothing to linger for). */
static size_t stream_body(answer_t *a, http_job_t *j, uint8_t *piece, int *broken) {
  size_t got = 0;
  j->kind = JOB_STREAM;
  run_job(a, j);
  j->kind = JOB_MORE;
  j->more = 1;
  while (got < j->total && !(tessera_answer_flags(a->r) & TESSERA_ANSWER_HEAD)) {
    size_t want = j->total - got < BODY_PIECE ? j->total - got : BODY_PIECE;
    read_within(a->req, BODY_READ_MS); /* each piece */
    int n = httpd_req_recv(a->req, (char *)piece, want);
    read_done(a->req);
    if (n <= 0) { /* the client left or stalled: the core sees a short body */
      *broken = 1;
      break;
    }
    got += (size_t)n;
    j->bytes = piece;
    j->len = (size_t)n;
    run_job(a, j);
  }
  if (!(tessera_answer_flags(a->r) & TESSERA_ANSWER_HEAD)) {
    j->bytes = NULL;
    j->len = 0;
    j->more = 0;
    run_job(a, j);
  }
  return got;
}

/* After an answer that left `left` bytes of the body unread (413, 409, 422): read and drop them for
 * at most LINGER_MS, so that the close does not reset the connection before the client has read the
 * answer. Returns 1 when the body was read to its end (the connection can stay). */
static int linger(httpd_req_t *req, uint8_t *piece, size_t left) {
  read_within(req, LINGER_MS);
  int n = 1;
  while (left > 0 && (n = httpd_req_recv(req, (char *)piece, left < BODY_PIECE ? left : BODY_PIECE)) > 0)
    left -= (size_t)n;
  read_done(req);
  return left == 0;
}

static void release(uint32_t id) {
  tessera_answer_t a;
  esp32_lock();
  tessera_request_take(id, &a);
  esp32_unlock();
}

/* One request on a worker. Returns 1 when the connection must be closed afterwards. */
static int serve(httpd_req_t *req, uint8_t *piece) {
  uint32_t id = 0, slot = 0;
  esp32_lock();
  tessera_request_t *r = open_request(&id, &slot); /* a slot per worker: never NULL */
  esp32_unlock();
  if (!r) {
    send_error(req, 503, "{\"error\":\"busy\"}");
    return 1;
  }
  char host[HOST_CAP], origin[ORIGIN_CAP];
  const char *op = NULL;
  if (read_host_origin(req, host, origin, &op) != 0) {
    release(id);
    send_error(req, 431, "{\"error\":\"header_too_large\"}");
    return 1; /* the body was not read */
  }
  size_t total = req->content_len, got = 0;
  answer_t a = {.req = req, .r = r, .slot = slot};
  a.out = (tessera_sender_t){.ctx = &a,
                             .head_only = req->method == HTTP_HEAD,
                             .whole = send_whole,
                             .chunk = send_chunk,
                             .head = send_head,
                             .took = took};
  http_job_t job = {.kind = JOB_WHOLE,
                    .id = id,
                    .slot = slot,
                    .method = method_code(req->method),
                    .url = req->uri,
                    .total = total,
                    .host = host,
                    .origin = op};
  int broken = 0;
  if (total > BODY_WHOLE) got = stream_body(&a, &job, piece, &broken);
  else {
    uint8_t *body = total ? malloc(total) : NULL;
    if (total && !body) {
      release(id);
      send_error(req, 503, "{\"error\":\"busy\"}");
      return 1; /* the body was not read */
    }
    read_within(req, BODY_READ_MS); /* the whole body */
    int n = 0;
    while (got < total && (n = httpd_req_recv(req, (char *)body + got, total - got)) > 0) got += (size_t)n;
    read_done(req);
    if (got < total) {
      free(body);
      release(id);
      if (n == HTTPD_SOCK_ERR_TIMEOUT) send_error(req, 408, "{\"error\":\"timeout\"}");
      return 1;
    }
    job.bytes = body;
    job.len = got;
    run_job(&a, &job);
    free(body);
  }
  /* the answer: a live query is answered later by the core thread (at most ANSWER_TIMEOUT_MS) */
  uint32_t until = now_ms() + ANSWER_TIMEOUT_MS, left;
  while (!a.out.finished && !a.out.failed && (left = tessera_ms_left(now_ms(), until)) > 0) {
    xSemaphoreTake(news[slot], pdMS_TO_TICKS(left) + 1);
    send_some(&a);
  }
  if (!a.out.finished && !a.out.failed) give_up(&a);
  uint32_t status = r->status;
  release(id);
  if (!a.out.started) {
    send_error(req, 500, "{\"error\":\"internal_error\"}");
    return 1;
  }
  if (!a.out.finished) return 1; /* cut */
  esp32_boot_answered(status & 0xffff);
  return total > got && (broken || !linger(req, piece, total - got)); /* a body left unread */
}

static void worker(void *arg) {
  (void)arg;
  uint8_t *piece = malloc(BODY_PIECE); /* a streamed body's piece, for this worker's life */
  for (;;) {
    work_t w;
    if (xQueueReceive(work, &w, portMAX_DELAY) != pdTRUE) continue;
    int fd = httpd_req_to_sockfd(w.req);
    int close_it = piece ? serve(w.req, piece) : (send_error(w.req, 503, "{\"error\":\"busy\"}"), 1);
    if (close_it) httpd_sess_trigger_close(server, fd); /* before complete: fd cannot be reused meanwhile */
    httpd_req_async_handler_complete(w.req);
  }
}

static esp_err_t on_request(httpd_req_t *req) {
  read_done(req); /* the head is in; the worker times the body */
  if (redirect_to_setup(req)) return req->content_len ? ESP_FAIL : ESP_OK; /* a body is not read: close */
  if (serve_asset(req)) return req->content_len ? ESP_FAIL : ESP_OK;       /* from flash, no core call */
  work_t w = {NULL};
  if (httpd_req_async_handler_begin(req, &w.req) == ESP_OK) {
    if (xQueueSend(work, &w, 0) == pdTRUE) return ESP_OK; /* a worker takes it from here */
    httpd_req_async_handler_complete(w.req);
  }
  send_error(req, 503, "{\"error\":\"busy\"}");
  return req->content_len ? ESP_FAIL : ESP_OK; /* a body left unread: close the connection */
}

int esp32_server_init(void) {
  for (int i = 0; i < HTTP_WORKERS; i++) {
    news[i] = xSemaphoreCreateBinary();
    room[i] = xSemaphoreCreateBinary();
    if (!news[i] || !room[i]) return -1;
  }
  tessera_requests_init_streamed(requests, HTTP_WORKERS, &rings[0][0], ANSWER_RING, on_news, on_full, ANSWER_STALL_MS);
  inbound = xQueueCreate(WS_INBOUND, sizeof(inbound_t));
  work = xQueueCreate(WORK_QUEUE, sizeof(work_t));
  ws_lock = xSemaphoreCreateMutex();
  return inbound && work && ws_lock ? 0 : -1;
}

int esp32_server_start(void) {
  for (int i = 0; i < HTTP_WORKERS; i++)
    if (xTaskCreate(worker, "tessera_http", WORKER_STACK, NULL, 5, NULL) != pdPASS) return -1;
  httpd_config_t config = HTTPD_DEFAULT_CONFIG();
  config.server_port = TESSERA_HTTP_PORT;
  config.max_uri_handlers = 8;
  config.max_open_sockets = ESP32_HTTPD_SESSIONS; /* counted with every other socket in tessera_esp32.h */
  config.uri_match_fn = httpd_uri_match_wildcard;
  config.open_fn = on_open;
  config.close_fn = on_close;
  config.lru_purge_enable = true;  /* a newcomer to a full server takes the least recently used session */
  config.keep_alive_enable = true; /* TCP keep-alive finds clients that vanished (a phone out of range) */
  config.stack_size = CONFIG_TESSERA_HTTPD_STACK_SIZE;
  if (httpd_start(&server, &config) != ESP_OK) return -1;
  httpd_uri_t ws_uri = {
      .uri = "/ws", .method = HTTP_GET, .handler = on_ws, .is_websocket = true, .handle_ws_control_frames = true};
  httpd_register_uri_handler(server, &ws_uri);
  const int methods[] = {HTTP_GET, HTTP_HEAD, HTTP_POST, HTTP_PUT, HTTP_PATCH, HTTP_DELETE};
  for (size_t i = 0; i < sizeof methods / sizeof methods[0]; i++) {
    httpd_uri_t any = {.uri = "/*", .method = methods[i], .handler = on_request};
    httpd_register_uri_handler(server, &any);
  }
  return 0;
}
