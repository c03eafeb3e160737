/*
 * server.c: HTTP and WebSocket (/ws) of the ESP32 port with esp_http_server (port 80). Same shape as
 * the POSIX port: bodies read up to a cap (above the core's 32 KiB, so it answers 413), answers
 * collected per request and sent by the handler; frames sent from other tasks go through
 * httpd_queue_work so only the server task writes to a socket.
 * NOT COMPILED YET (no ESP toolchain on the development machine).
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
#include "tessera_driver.h"
#include "tessera_host.h"
#include "tessera_port.h"

#define BODY_CAP (33 * 1024) /* one byte past any body the core accepts */
#define MAX_REQUESTS 4
#define MAX_SOCKETS 8
#define WS_FRAME_CAP 1024
#define WS_READ_CAP 4096 /* larger frames close the connection */
#define ANSWER_CAP (48 * 1024)
#define ANSWER_TIMEOUT_MS 5000

typedef struct {
  int used, has_head, done;
  uint32_t id, status;
  int32_t length;
  uint8_t *buf;
  size_t len, cap;
} request_t;

typedef struct {
  int used, fd, in_core;
  uint32_t id;
} socket_t;

static httpd_handle_t server;
static request_t requests[MAX_REQUESTS];
static socket_t sockets[MAX_SOCKETS];
static uint32_t next_request = 1, next_socket = 1;

static request_t *find_request(uint32_t id) {
  for (int i = 0; i < MAX_REQUESTS; i++)
    if (requests[i].used && requests[i].id == id) return &requests[i];
  return NULL;
}

void port_http_head(uint32_t req, uint32_t status, int32_t length) {
  request_t *r = find_request(req);
  if (!r || r->has_head) return;
  r->has_head = 1;
  r->status = status;
  r->length = length;
}

void port_http_body(uint32_t req, const uint8_t *data, uint32_t len) {
  request_t *r = find_request(req);
  if (!r || r->done || r->len + len > ANSWER_CAP) return;
  if (r->len + len > r->cap) {
    size_t cap = r->cap ? r->cap : 512;
    while (cap < r->len + len) cap *= 2;
    uint8_t *b = realloc(r->buf, cap);
    if (!b) return;
    r->buf = b;
    r->cap = cap;
  }
  memcpy(r->buf + r->len, data, len);
  r->len += len;
}

void port_http_end(uint32_t req) {
  request_t *r = find_request(req);
  if (r) r->done = 1;
}

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
  static const char body[] = "{\"error\":\"internal_error\"}";
  (void)reason;
  for (int i = 0; i < MAX_REQUESTS; i++) {
    request_t *r = &requests[i];
    if (!r->used || r->done) continue;
    r->has_head = 1;
    r->status = 500;
    r->length = sizeof body - 1;
    r->len = 0;
    port_http_body(r->id, (const uint8_t *)body, sizeof body - 1);
    r->done = 1;
  }
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

static esp_err_t send_answer(httpd_req_t *req, uint32_t status, int32_t length, const uint8_t *body, size_t len) {
  char line[48];
  snprintf(line, sizeof line, "%u %s", (unsigned)status, status < 300 ? "OK" : "Error");
  httpd_resp_set_status(req, line);
  httpd_resp_set_type(req, "application/json");
  if (length >= 0) return httpd_resp_send(req, (const char *)body, len);
  if (len) httpd_resp_send_chunk(req, (const char *)body, len);
  return httpd_resp_send_chunk(req, NULL, 0);
}

static esp_err_t on_request(httpd_req_t *req) {
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
  request_t *r = NULL;
  for (int i = 0; i < MAX_REQUESTS && !r; i++)
    if (!requests[i].used) r = &requests[i];
  if (!r) {
    posix_unlock();
    free(body);
    static const char busy[] = "{\"error\":\"busy\"}";
    return send_answer(req, 503, sizeof busy - 1, (const uint8_t *)busy, sizeof busy - 1);
  }
  memset(r, 0, sizeof *r);
  r->used = 1;
  r->id = next_request++;
  uint32_t id = r->id;
  tessera_http(id, method, (const uint8_t *)req->uri, strlen(req->uri), body, got, total);
  tessera_tick();
  free(body);
  for (int waited = 0; !r->done && waited < ANSWER_TIMEOUT_MS; waited += 10) {
    posix_unlock();
    vTaskDelay(pdMS_TO_TICKS(10)); /* a live query is answered from the main loop */
    posix_lock();
  }
  uint32_t status = r->done && r->has_head ? r->status : 500;
  int32_t length = r->length;
  uint8_t *answer = r->buf;
  size_t len = r->len;
  r->used = 0;
  posix_unlock();
  esp_err_t err = send_answer(req, status, length, answer, len);
  free(answer);
  return err;
}

/* ---- WebSocket /ws ------------------------------------------------------------------------------ */
static esp_err_t on_ws(httpd_req_t *req) {
  int fd = httpd_req_to_sockfd(req);
  if (req->method == HTTP_GET) { /* the handshake is done */
    posix_lock();
    socket_t *s = NULL;
    for (int i = 0; i < MAX_SOCKETS && !s; i++)
      if (!sockets[i].used) s = &sockets[i];
    if (s) {
      *s = (socket_t){.used = 1, .fd = fd, .in_core = 1, .id = next_socket++};
      if (!tessera_ws_open(s->id)) s->in_core = 0;
    }
    int refused = !s || !s->in_core;
    posix_unlock();
    if (refused) ws_close_with(fd, 1013);
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
    posix_lock();
    for (int i = 0; i < MAX_SOCKETS; i++)
      if (sockets[i].used && sockets[i].fd == fd && sockets[i].in_core) {
        tessera_ws_frame(sockets[i].id, data, frame.len);
        tessera_tick();
      }
    posix_unlock();
  }
  free(data);
  return ESP_OK;
}

static void on_close(httpd_handle_t hd, int fd) {
  (void)hd;
  posix_lock();
  for (int i = 0; i < MAX_SOCKETS; i++)
    if (sockets[i].used && sockets[i].fd == fd) {
      if (sockets[i].in_core) tessera_ws_close(sockets[i].id);
      memset(&sockets[i], 0, sizeof sockets[i]);
    }
  posix_unlock();
  close(fd);
}

int server_start(const char *host, int port) {
  (void)host;
  httpd_config_t config = HTTPD_DEFAULT_CONFIG();
  config.server_port = (uint16_t)port;
  config.max_uri_handlers = 8;
  config.max_open_sockets = MAX_SOCKETS + 2;
  config.uri_match_fn = httpd_uri_match_wildcard;
  config.close_fn = on_close;
  config.lru_purge_enable = true;
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
