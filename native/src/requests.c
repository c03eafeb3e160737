/*
 * requests.c: the pending HTTP requests of every port (tessera_requests.h) and the core's answers to
 * them (port_http_head/body/end). Bounded: a fixed table of slots and, per request, an answer cap
 * (collected) or a fixed ring that a sender drains as the core writes (streamed).
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
/* Streamed answers (rings set): the slots' rings, the port's wake-ups and how long, in all, the core's
 * thread may wait for room in one answer's ring. */
static uint8_t *rings;
static void (*wake)(uint32_t slot);
static void (*wait_room)(uint32_t slot, uint32_t ms);
static uint32_t wait_budget_us;

void tessera_requests_init(tessera_request_t *table, uint32_t count, size_t cap, void (*on_answered)(void)) {
  slots = table;
  slot_count = count;
  answer_cap = cap;
  answered = on_answered;
  rings = NULL;
  memset(slots, 0, count * sizeof *slots);
}

void tessera_requests_init_streamed(tessera_request_t *table, uint32_t count, uint8_t *ring_bytes, uint32_t ring_cap,
                                    void (*on_news)(uint32_t), void (*on_full)(uint32_t, uint32_t), uint32_t wait_ms) {
  tessera_requests_init(table, count, ring_cap, NULL);
  rings = ring_bytes;
  wake = on_news;
  wait_room = on_full;
  wait_budget_us = wait_ms * 1000u;
}

static uint32_t index_of(const tessera_request_t *r) { return (uint32_t)(r - slots); }

static void news(tessera_request_t *r, uint32_t flags) {
  if (flags) __atomic_fetch_or(&r->flags, flags, __ATOMIC_SEQ_CST);
  if (wake) wake(index_of(r));
}

static tessera_request_t *find(uint32_t id) {
  for (uint32_t i = 0; i < slot_count; i++)
    if (slots[i].used && slots[i].id == id) return &slots[i];
  return NULL;
}

uint32_t tessera_request_open(tessera_request_t **slot) {
  for (uint32_t i = 0; i < slot_count; i++) {
    tessera_request_t *r = &slots[i];
    if (r->used) continue;
    memset(r, 0, sizeof *r);
    r->used = 1;
    r->id = next_id++;
    if (rings) {
      r->buf = rings + (size_t)i * answer_cap;
      r->cap = answer_cap;
      r->wait_left_us = wait_budget_us;
    }
    if (next_id == 0) next_id = 1;
    if (slot) *slot = r;
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
  if (rings) *out = (tessera_answer_t){r->status, r->length, NULL, 0}; /* the sender sent the body */
  else if (ok) *out = (tessera_answer_t){r->status, r->length, r->buf, r->len};
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
  if (rings) news(r, TESSERA_ANSWER_HEAD);
}

/* Streamed: into the ring as room allows, waiting for the sender when it is full. The time waited is
 * counted (the port's clock, not its word) against the answer's budget: a sender that takes the
 * answer slowly, bit by bit, costs the core's thread no more than one that takes nothing. */
static void put_streamed(tessera_request_t *r, const uint8_t *data, uint32_t len) {
  while (len > 0) {
    uint32_t flags = __atomic_load_n(&r->flags, __ATOMIC_ACQUIRE);
    if (flags & (TESSERA_ANSWER_CUT | TESSERA_ANSWER_GAVE_UP)) return;
    uint32_t put = r->put; /* only this thread writes it */
    uint32_t room = (uint32_t)r->cap - (put - __atomic_load_n(&r->got, __ATOMIC_ACQUIRE));
    if (room == 0) {
      if (!r->wait_left_us) {
        tessera_logf(TESSERA_LOG_WARN, "http: the answer to request %u was not taken in time, cut", r->id);
        news(r, TESSERA_ANSWER_CUT);
        return;
      }
      uint32_t since = port_clock_us();
      wait_room(index_of(r), (r->wait_left_us + 999) / 1000);
      uint32_t spent = port_clock_us() - since;
      r->wait_left_us = spent < r->wait_left_us ? r->wait_left_us - spent : 0;
      continue;
    }
    uint32_t at = put % (uint32_t)r->cap, n = len < room ? len : room;
    if (n > (uint32_t)r->cap - at) n = (uint32_t)r->cap - at;
    memcpy(r->buf + at, data, n);
    __atomic_store_n(&r->put, put + n, __ATOMIC_RELEASE); /* the bytes before the count */
    data += n;
    len -= n;
    news(r, 0);
  }
}

void port_http_body(uint32_t req, const uint8_t *data, uint32_t len) {
  tessera_request_t *r = find(req);
  if (!r || r->done) return;
  if (rings) {
    if (r->has_head) put_streamed(r, data, len);
    return;
  }
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
  if (rings) news(r, TESSERA_ANSWER_DONE);
  if (answered) answered();
}

void tessera_requests_fail_all(void) {
  static const char body[] = "{\"error\":\"internal_error\"}";
  for (uint32_t i = 0; i < slot_count; i++) {
    tessera_request_t *r = &slots[i];
    if (!r->used || r->done) continue;
    if (rings && r->has_head) { /* its head may have gone out: what is missing cannot be told */
      r->done = 1;
      news(r, TESSERA_ANSWER_CUT | TESSERA_ANSWER_DONE);
      continue;
    }
    r->has_head = 1;
    r->status = 500;
    r->length = (int32_t)(sizeof body - 1);
    r->len = 0;
    if (rings) news(r, TESSERA_ANSWER_HEAD);
    port_http_body(r->id, (const uint8_t *)body, sizeof body - 1); /* fits any ring: it is empty */
    r->done = 1;
    if (rings) news(r, TESSERA_ANSWER_DONE);
  }
  if (answered) answered();
}

uint32_t tessera_answer_flags(const tessera_request_t *r) { return __atomic_load_n(&r->flags, __ATOMIC_ACQUIRE); }

uint32_t tessera_answer_peek(const tessera_request_t *r, const uint8_t **data) {
  uint32_t got = r->got; /* only the sender writes it */
  uint32_t ready = __atomic_load_n(&r->put, __ATOMIC_ACQUIRE) - got, at = got % (uint32_t)r->cap;
  if (ready > (uint32_t)r->cap - at) ready = (uint32_t)r->cap - at;
  *data = r->buf + at;
  return ready;
}

void tessera_answer_taken(tessera_request_t *r, uint32_t n) { __atomic_fetch_add(&r->got, n, __ATOMIC_RELEASE); }

void tessera_answer_give_up(tessera_request_t *r) {
  __atomic_fetch_or(&r->flags, TESSERA_ANSWER_GAVE_UP, __ATOMIC_SEQ_CST);
}

static void send_failed(tessera_request_t *r, tessera_sender_t *s) {
  s->failed = 1;
  tessera_answer_give_up(r); /* the core's thread drops the rest at once */
  s->took(s->ctx);
}

int tessera_answer_send(tessera_request_t *r, tessera_sender_t *s) {
  if (s->finished || s->failed) return 1;
  uint32_t flags = tessera_answer_flags(r);
  if (!(flags & TESSERA_ANSWER_HEAD)) return 0;
  int whole = r->length >= 0 && (size_t)r->length <= r->cap;
  if (!s->started && whole && !(flags & TESSERA_ANSWER_DONE)) return 0; /* it comes within one core call */
  const uint8_t *data;
  uint32_t n;
  int err = 0;
  if (s->head_only) {
    if (!s->started) err = s->head(s->ctx, r->status, r->length);
    s->started = 1;
    while ((n = tessera_answer_peek(r, &data)) > 0) tessera_answer_taken(r, n);
    s->took(s->ctx);
  } else if (!s->started && whole) {
    if (flags & TESSERA_ANSWER_CUT) { /* the core restarted within it: nothing went out (the port says 500) */
      send_failed(r, s);
      return 1;
    }
    n = tessera_answer_peek(r, &data); /* from the ring's start: contiguous */
    s->started = 1;
    err = s->whole(s->ctx, r->status, data, n);
    tessera_answer_taken(r, n);
    if (err) send_failed(r, s);
    else s->finished = 1;
    return 1;
  } else {
    s->started = 1;
    while (!err && (n = tessera_answer_peek(r, &data)) > 0) {
      err = s->chunk(s->ctx, r->status, data, n);
      tessera_answer_taken(r, n);
      s->took(s->ctx);
      flags = tessera_answer_flags(r); /* DONE seen after the last bytes taken: nothing more comes */
    }
  }
  if (err || (flags & TESSERA_ANSWER_CUT)) {
    send_failed(r, s);
    return 1;
  }
  if (!(flags & TESSERA_ANSWER_DONE) || tessera_answer_peek(r, &data)) return 0;
  if (!s->head_only && s->chunk(s->ctx, r->status, NULL, 0) != 0) {
    send_failed(r, s);
    return 1;
  }
  s->finished = 1;
  return 1;
}
