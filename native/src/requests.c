/*
 * requests.c: the pending HTTP requests of every port (tessera_requests.h) and the core's answers to
 * them (port_http_head/body/end). Bounded: a fixed table of slots and an answer cap per request.
 */
#include "tessera_requests.h"

#include <stdlib.h>
#include <string.h>

#include "tessera_host.h"
#include "tessera_port.h"

static tessera_request_t *slots;
static uint32_t slot_count;
static size_t answer_cap;
static void (*answered)(void);
static uint32_t next_id = 1;

void tessera_requests_init(tessera_request_t *table, uint32_t count, size_t cap, void (*on_answered)(void)) {
  slots = table;
  slot_count = count;
  answer_cap = cap;
  answered = on_answered;
  memset(slots, 0, count * sizeof *slots);
}

static tessera_request_t *find(uint32_t id) {
  for (uint32_t i = 0; i < slot_count; i++)
    if (slots[i].used && slots[i].id == id) return &slots[i];
  return NULL;
}

uint32_t tessera_request_open(void) {
  for (uint32_t i = 0; i < slot_count; i++) {
    tessera_request_t *r = &slots[i];
    if (r->used) continue;
    memset(r, 0, sizeof *r);
    r->used = 1;
    r->id = next_id++;
    if (next_id == 0) next_id = 1;
    return r->id;
  }
  return 0;
}

int tessera_request_done(uint32_t id) {
  tessera_request_t *r = find(id);
  return !r || r->done;
}

int tessera_request_take(uint32_t id, tessera_answer_t *out) {
  tessera_request_t *r = find(id);
  if (!r) return 0;
  int ok = r->done && r->has_head;
  if (ok) *out = (tessera_answer_t){r->status, r->length, r->buf, r->len};
  else free(r->buf);
  memset(r, 0, sizeof *r);
  return ok;
}

void port_http_head(uint32_t req, uint32_t status, int32_t length) {
  tessera_request_t *r = find(req);
  if (!r || r->has_head) return;
  r->has_head = 1;
  r->status = status;
  r->length = length;
}

void port_http_body(uint32_t req, const uint8_t *data, uint32_t len) {
  tessera_request_t *r = find(req);
  if (!r || r->done) return;
  if (r->len + len > answer_cap) {
    tessera_logf(TESSERA_LOG_ERROR, "http: answer to request %u larger than %u bytes, cut", req, (unsigned)answer_cap);
    return;
  }
  if (r->len + len > r->cap) {
    size_t cap = r->cap ? r->cap : 512;
    while (cap < r->len + len) cap *= 2;
    if (cap > answer_cap) cap = answer_cap;
    uint8_t *b = realloc(r->buf, cap);
    if (!b) return;
    r->buf = b;
    r->cap = cap;
  }
  memcpy(r->buf + r->len, data, len);
  r->len += len;
}

void port_http_end(uint32_t req) {
  tessera_request_t *r = find(req);
  if (!r) return;
  r->done = 1;
  if (answered) answered();
}

void tessera_requests_fail_all(void) {
  static const char body[] = "{\"error\":\"internal_error\"}";
  for (uint32_t i = 0; i < slot_count; i++) {
    tessera_request_t *r = &slots[i];
    if (!r->used || r->done) continue;
    r->has_head = 1;
    r->status = 500;
    r->length = (int32_t)(sizeof body - 1);
    r->len = 0;
    port_http_body(r->id, (const uint8_t *)body, sizeof body - 1);
    r->done = 1;
  }
  if (answered) answered();
}
