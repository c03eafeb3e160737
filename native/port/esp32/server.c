/*
 * server.c: HTTP and WebSocket (/ws) of the ESP32 port with esp_http_server (port 80). Same shape as
 * the POSIX port: bodies read up to a cap (above the core's 32 KiB, so it answers 413), answers
 * collected per request and sent by the handler; frames sent from other tasks go through
 * httpd_queue_work so only the server task writes to a socket.
 * Calls into the core are handed to the core thread (host.c core_call); while the setup portal is up,
 * requests for other hosts are redirected to http://192.168.4.1/setup. Checked against ESP-IDF 5.3's
 * declarations by scripts/esp32-check.mjs; never built with the ESP toolchain here.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include "esp_http_server.h"
#include "freertos/FreeRTOS.h"
#include "freertos/task.h"
#include "posix.h"
#include "sdkconfig.h"
#include "tessera_driver.h"
#include "tessera_esp32.h"
#include "tessera_host.h"
#include "tessera_port.h"
#include "tessera_requests.h"
#include "tessera_web.h"

#define BODY_CAP (33 * 1024) /* one byte past any body the core accepts */
#define MAX_REQUESTS 4
#define MAX_SOCKETS 8
#define WS_FRAME_CAP 1024
#define WS_READ_CAP 4096 /* larger frames close the connection */
#define ANSWER_CAP (48 * 1024)
#define ANSWER_TIMEOUT_MS 5000

typedef struct {
  int used, fd, in_core;
  uint32_t id;
} socket_t;

static httpd_handle_t server;
static tessera_request_t requests[MAX_REQUESTS];
static socket_t sockets[MAX_SOCKETS];
static uint32_t next_socket = 1;

/* HTTP answers are collected by native/src/requests.c (port_http_head/body/end). */

/* ---- WebSocket output: queued to the server task. ----------------------------------------------- */
typedef struct {
  int fd;
  httpd_ws_type_t type;
  size_t len;
  uint8_t payload[];
} ws_work_t;

static void ws_send_work(void *arg) {
  ws_work_t *w = arg;
  httpd_ws_frame_t frame = {.final = true, .type = w->type, .payload = w->payload, .len = w->len};
  httpd_ws_send_frame_async(server, w->fd, &frame);
  free(w);
}

static void ws_queue(int fd, httpd_ws_type_t type, const uint8_t *data, size_t len) {
  ws_work_t *w = malloc(sizeof *w + len);
  if (!w) return;
  w->fd = fd;
  w->type = type;
  w->len = len;
  memcpy(w->payload, data, len);
  if (httpd_queue_work(server, ws_send_work, w) != ESP_OK) free(w);
}

static void ws_close_with(int fd, int code) {
  uint8_t payload[2] = {(uint8_t)(code >> 8), (uint8_t)code};
  ws_queue(fd, HTTPD_WS_TYPE_CLOSE, payload, 2);
}

void port_ws_send(uint32_t conn, const uint8_t *data, uint32_t len) {
  for (int i = 0; i < MAX_SOCKETS; i++)
    if (sockets[i].used && sockets[i].in_core && sockets[i].id == conn) ws_queue(sockets[i].fd, HTTPD_WS_TYPE_BINARY, data, len);
}

void port_ws_broadcast(const uint8_t *data, uint32_t len) {
  for (int i = 0; i < MAX_SOCKETS; i++)
    if (sockets[i].used && sockets[i].in_core) ws_queue(sockets[i].fd, HTTPD_WS_TYPE_BINARY, data, len);
}

void port_core_restarted(const char *reason) {
  (void)reason;
  tessera_requests_fail_all();
  for (int i = 0; i < MAX_SOCKETS; i++)
    if (sockets[i].used && sockets[i].in_core) {
      sockets[i].in_core = 0;
      ws_close_with(sockets[i].fd, 1011);
    }
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

/* status: the HTTP status, with TESSERA_HTTP_HTML set for an HTML page (the setup form). */
static esp_err_t send_answer(httpd_req_t *req, uint32_t status, int32_t length, const uint8_t *body, size_t len) {
  char line[48];
  uint32_t code = status & 0xffff;
  snprintf(line, sizeof line, "%u %s", (unsigned)code, code < 300 ? "OK" : "Error");
  httpd_resp_set_status(req, line);
  httpd_resp_set_type(req, (status & TESSERA_HTTP_HTML) ? "text/html; charset=utf-8" : "application/json");
  if (length >= 0) return httpd_resp_send(req, (const char *)body, len);
  if (len) httpd_resp_send_chunk(req, (const char *)body, len);
  return httpd_resp_send_chunk(req, NULL, 0);
}

/* The host a request was sent to (its Host header without the port), or "" without one. */
static void request_host(httpd_req_t *req, char *out, size_t cap) {
  out[0] = 0;
  if (httpd_req_get_hdr_value_str(req, "Host", out, cap) != ESP_OK) out[0] = 0;
  char *colon = strchr(out, ':');
  if (colon) *colon = 0;
}

/* Captive portal: while the setup network is up, a request for any other host (a phone's
 * connectivity check) is sent to the setup page, which the core serves. */
static int redirect_to_setup(httpd_req_t *req) {
  if (!wifi_portal_active()) return 0;
  char host[64];
  request_host(req, host, sizeof host);
  if (strcmp(host, TESSERA_PORTAL_IP) == 0) return 0;
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

/* ---- Jobs run on the core thread (host.c core_call), lock held. -------------------------------- */
typedef struct {
  uint32_t id, method;
  const char *url;
  const uint8_t *body;
  size_t got, total;
} http_job_t;

static void http_job(void *arg) {
  http_job_t *j = arg;
  tessera_http(j->id, j->method, (const uint8_t *)j->url, strlen(j->url), j->body, j->got, j->total);
  tessera_tick(); /* applies what the request queued (a 202) */
}

typedef struct {
  socket_t *socket;
  const uint8_t *data;
  size_t len;
} ws_job_t;

static void ws_open_job(void *arg) {
  socket_t *s = ((ws_job_t *)arg)->socket;
  if (!tessera_ws_open(s->id)) s->in_core = 0;
}

static void ws_frame_job(void *arg) {
  ws_job_t *j = arg;
  if (j->socket->used && j->socket->in_core) {
    tessera_ws_frame(j->socket->id, j->data, j->len);
    tessera_tick();
  }
}

static void ws_close_job(void *arg) {
  socket_t *s = ((ws_job_t *)arg)->socket;
  if (s->in_core) tessera_ws_close(s->id);
  memset(s, 0, sizeof *s);
}

/* ---- HTTP ---------------------------------------------------------------------------------------- */
static esp_err_t on_request(httpd_req_t *req) {
  if (redirect_to_setup(req)) return ESP_OK;
  if (serve_asset(req)) return ESP_OK;
  uint32_t method = method_code(req->method);
  size_t total = req->content_len;
  size_t want = total < BODY_CAP ? total : BODY_CAP;
  uint8_t *body = want ? malloc(want) : NULL;
  size_t got = 0;
  while (body && got < want) {
    int n = httpd_req_recv(req, (char *)body + got, want - got);
    if (n == HTTPD_SOCK_ERR_TIMEOUT) continue;
    if (n <= 0) break;
    got += (size_t)n;
  }
  posix_lock();
  uint32_t id = tessera_request_open();
  posix_unlock();
  if (!id) {
    free(body);
    static const char busy[] = "{\"error\":\"busy\"}";
    return send_answer(req, 503, sizeof busy - 1, (const uint8_t *)busy, sizeof busy - 1);
  }
  http_job_t job = {id, method, req->uri, body, got, total};
  core_call(http_job, &job);
  free(body);
  posix_lock();
  for (int waited = 0; !tessera_request_done(id) && waited < ANSWER_TIMEOUT_MS; waited += 10) {
    posix_unlock();
    vTaskDelay(pdMS_TO_TICKS(10)); /* a live query is answered later by the core thread */
    posix_lock();
  }
  tessera_answer_t a;
  int ok = tessera_request_take(id, &a);
  posix_unlock();
  if (!ok) {
    static const char err[] = "{\"error\":\"internal_error\"}";
    return send_answer(req, 500, sizeof err - 1, (const uint8_t *)err, sizeof err - 1);
  }
  esp_err_t err = send_answer(req, a.status, a.length, a.body, a.len);
  free(a.body);
  return err;
}

/* ---- WebSocket /ws ------------------------------------------------------------------------------ */
/* The open WebSocket slot of socket `fd`, or NULL. */
static socket_t *socket_of(int fd) {
  socket_t *s = NULL;
  posix_lock();
  for (int i = 0; i < MAX_SOCKETS && !s; i++)
    if (sockets[i].used && sockets[i].fd == fd) s = &sockets[i];
  posix_unlock();
  return s;
}

static esp_err_t on_ws(httpd_req_t *req) {
  int fd = httpd_req_to_sockfd(req);
  if (req->method == HTTP_GET) { /* the handshake is done */
    posix_lock();
    socket_t *s = NULL;
    for (int i = 0; i < MAX_SOCKETS && !s; i++)
      if (!sockets[i].used) s = &sockets[i];
    if (s) *s = (socket_t){.used = 1, .fd = fd, .in_core = 1, .id = next_socket++};
    posix_unlock();
    if (s) {
      ws_job_t job = {.socket = s};
      core_call(ws_open_job, &job);
    }
    if (!s || !s->in_core) ws_close_with(fd, 1013);
    return ESP_OK;
  }
  httpd_ws_frame_t frame = {0};
  if (httpd_ws_recv_frame(req, &frame, 0) != ESP_OK || frame.len > WS_READ_CAP) return ESP_FAIL;
  uint8_t *data = frame.len ? malloc(frame.len) : NULL;
  frame.payload = data;
  if (frame.len && (!data || httpd_ws_recv_frame(req, &frame, frame.len) != ESP_OK)) {
    free(data);
    return ESP_FAIL;
  }
  if (frame.type == HTTPD_WS_TYPE_BINARY && frame.final && frame.len <= WS_FRAME_CAP) {
    socket_t *s = socket_of(fd);
    if (s) {
      ws_job_t job = {s, data, frame.len};
      core_call(ws_frame_job, &job);
    }
  }
  free(data);
  return ESP_OK;
}

static void on_close(httpd_handle_t hd, int fd) {
  (void)hd;
  socket_t *s = socket_of(fd);
  if (s) {
    ws_job_t job = {.socket = s};
    core_call(ws_close_job, &job);
  }
  close(fd);
}

int server_start(const char *host, int port) {
  (void)host;
  tessera_requests_init(requests, MAX_REQUESTS, ANSWER_CAP, NULL);
  httpd_config_t config = HTTPD_DEFAULT_CONFIG();
  config.server_port = (uint16_t)port;
  config.max_uri_handlers = 8;
  config.max_open_sockets = MAX_SOCKETS + 2;
  config.uri_match_fn = httpd_uri_match_wildcard;
  config.close_fn = on_close;
  config.lru_purge_enable = true;
  config.stack_size = CONFIG_TESSERA_HTTPD_STACK_SIZE; /* bodies are read on it; the core runs elsewhere */
  if (httpd_start(&server, &config) != ESP_OK) return -1;
  httpd_uri_t ws = {.uri = "/ws", .method = HTTP_GET, .handler = on_ws, .is_websocket = true};
  httpd_register_uri_handler(server, &ws);
  const int methods[] = {HTTP_GET, HTTP_HEAD, HTTP_POST, HTTP_PUT, HTTP_PATCH, HTTP_DELETE};
  for (size_t i = 0; i < sizeof methods / sizeof methods[0]; i++) {
    httpd_uri_t any = {.uri = "/*", .method = methods[i], .handler = on_request};
    httpd_register_uri_handler(server, &any);
  }
  return port;
}

void server_stop(void) {
  if (server) httpd_stop(server);
  server = NULL;
}
