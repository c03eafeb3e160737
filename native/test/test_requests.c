/* sources: requests.c log.c
 * test_requests.c: the pending requests and the core's answers (native/src/requests.c), collected
 * whole (the POSIX port) and streamed through a small ring that a sender thread drains while the
 * core's thread writes (the ESP32 port's workers): byte for byte, bounded, cut when the sender stops
 * or does not keep up (the core's thread waits a bounded time in all per answer). */
#include <pthread.h>
#include <stdint.h>
#include <stdlib.h>
#include <time.h>

#include "check.h"
#include "tessera_port.h"
#include "tessera_requests.h"

void port_log(uint32_t level, const char *text, uint32_t len) {
  (void)level;
  fprintf(stderr, "log: %.*s\n", (int)len, text);
}

static uint64_t now_us(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (uint64_t)ts.tv_sec * 1000000u + (uint64_t)ts.tv_nsec / 1000u;
}

uint32_t port_clock_us(void) { return (uint32_t)now_us(); }

#define SLOTS 2
#define RING 2048
#define PIECE 1024         /* the core's JSON writer sends its answers in pieces of its 1 KiB buffer */
#define WAIT_LONG_MS 20000 /* a budget no sender here exhausts: it only keeps a broken build from hanging */
#define WAIT_MS 100        /* the budget of the tests of a stalled or slow sender */

static tessera_request_t slots[SLOTS];
static uint8_t rings[SLOTS * RING];

/* ---- the port's wake-ups: one lock and condition stand in for the ESP32 port's semaphores -------- */
static pthread_mutex_t mu = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t changed = PTHREAD_COND_INITIALIZER;
static int sender_stopped; /* the stand-in for a client that takes nothing more */
static int waits, wakes;

static void on_news(uint32_t slot) {
  (void)slot;
  pthread_mutex_lock(&mu);
  wakes++;
  pthread_cond_broadcast(&changed);
  pthread_mutex_unlock(&mu);
}

/* Waits while slot's ring is full, at most ms (the ESP32 port's semaphore remembers a take that came
 * first; the condition stands in for it). */
static int full(uint32_t slot) {
  tessera_request_t *r = &slots[slot];
  return __atomic_load_n(&r->put, __ATOMIC_ACQUIRE) - __atomic_load_n(&r->got, __ATOMIC_ACQUIRE) == RING;
}

static void on_full(uint32_t slot, uint32_t ms) {
  pthread_mutex_lock(&mu);
  waits++;
  pthread_cond_broadcast(&changed);
  struct timespec until;
  clock_gettime(CLOCK_REALTIME, &until);
  uint64_t ns = (uint64_t)until.tv_nsec + (uint64_t)ms * 1000000u;
  until.tv_sec += (time_t)(ns / 1000000000u);
  until.tv_nsec = (long)(ns % 1000000000u);
  while (full(slot) && pthread_cond_timedwait(&changed, &mu, &until) == 0) {}
  pthread_mutex_unlock(&mu);
}

static void signal_taken(void) {
  pthread_mutex_lock(&mu);
  pthread_cond_broadcast(&changed);
  pthread_mutex_unlock(&mu);
}

/* ---- a sender: drains slot `r` into out until DONE (as a worker sends to its socket) ------------- */
typedef struct {
  tessera_request_t *r;
  uint8_t out[64 * 1024];
  uint32_t len, max_ready, stop_after; /* stop_after: take this many bytes, then stop taking (0: all) */
  int gate;                            /* take nothing until the core's thread found the ring full */
  uint32_t pace_us;                    /* a slow client: take at most 256 bytes, then sleep this long */
  uint32_t flags;
} sender_t;

static void *sender(void *arg) {
  sender_t *s = arg;
  pthread_mutex_lock(&mu);
  while (s->gate && waits == 0) pthread_cond_wait(&changed, &mu);
  pthread_mutex_unlock(&mu);
  for (;;) {
    pthread_mutex_lock(&mu);
    const uint8_t *data;
    uint32_t flags, n;
    while (flags = tessera_answer_flags(s->r),
           (n = tessera_answer_peek(s->r, &data)) == 0 && !(flags & TESSERA_ANSWER_DONE) && !sender_stopped)
      pthread_cond_wait(&changed, &mu);
    pthread_mutex_unlock(&mu);
    if (n == 0 && (flags & TESSERA_ANSWER_DONE)) {
      s->flags = flags;
      return NULL;
    }
    if (sender_stopped) {
      s->flags = flags;
      return NULL;
    }
    if (n > s->max_ready) s->max_ready = n;
    if (s->pace_us && n > 256) n = 256;
    if (s->stop_after && s->len + n >= s->stop_after) {
      n = s->stop_after - s->len;
      pthread_mutex_lock(&mu);
      sender_stopped = 1;
      pthread_mutex_unlock(&mu);
    }
    memcpy(s->out + s->len, data, n);
    s->len += n;
    tessera_answer_taken(s->r, n);
    signal_taken();
    if (s->pace_us) nanosleep(&(struct timespec){0, (long)s->pace_us * 1000}, NULL);
  }
}

static void pattern(uint8_t *p, uint32_t len, uint32_t seed) {
  for (uint32_t i = 0; i < len; i++) p[i] = (uint8_t)(i * 7 + seed + (i >> 8));
}

static void streamed_within(uint32_t wait_ms) {
  tessera_requests_init_streamed(slots, SLOTS, rings, RING, on_news, on_full, wait_ms);
  sender_stopped = 0;
  waits = wakes = 0;
}

static void streamed(void) { streamed_within(WAIT_LONG_MS); }

/* ---- collected (the POSIX port) ----------------------------------------------------------------- */
static void collected_answer_is_whole(void) {
  tessera_requests_init(slots, SLOTS, 8192, NULL);
  uint32_t id = tessera_request_open(NULL);
  CHECK(id != 0);
  uint8_t body[3000];
  pattern(body, sizeof body, 1);
  port_http_head(id, 200, -1);
  port_http_body(id, body, 1000);
  port_http_body(id, body + 1000, 2000);
  CHECK_EQ(tessera_request_done(id), 0);
  port_http_end(id);
  CHECK_EQ(tessera_request_done(id), 1);
  tessera_answer_t a;
  CHECK(tessera_request_take(id, &a));
  CHECK_EQ(a.status, 200);
  CHECK_EQ(a.length, -1);
  CHECK_EQ(a.len, sizeof body);
  CHECK(a.body && memcmp(a.body, body, sizeof body) == 0);
  free(a.body);
}

/* ---- streamed (the ESP32 port) ------------------------------------------------------------------ */
/* A 48 KiB chunked answer in 1 KiB pieces through a 2 KiB ring: every byte arrives in order, the
 * ring never holds more than its size, and the core's thread waited for the sender. */
static void streamed_answer_arrives_through_a_small_ring(void) {
  streamed();
  static sender_t s;
  memset(&s, 0, sizeof s);
  pthread_mutex_lock(&mu); /* the core lock, as the ESP32 port holds it around the core call */
  uint32_t id = tessera_request_open(&s.r);
  pthread_mutex_unlock(&mu);
  CHECK(id != 0);
  CHECK(s.r == &slots[0]);
  s.gate = 1;
  pthread_t t;
  pthread_create(&t, NULL, sender, &s);
  static uint8_t body[48 * 1024];
  pattern(body, sizeof body, 3);
  port_http_head(id, 200, -1);
  for (uint32_t at = 0; at < sizeof body; at += PIECE) port_http_body(id, body + at, PIECE);
  port_http_end(id);
  pthread_join(t, NULL);
  CHECK_EQ(s.len, sizeof body);
  CHECK(memcmp(s.out, body, sizeof body) == 0);
  CHECK(s.max_ready <= RING);
  CHECK_EQ(s.flags, TESSERA_ANSWER_HEAD | TESSERA_ANSWER_DONE);
  CHECK(waits > 0); /* the sender took nothing before: the core's thread waited for room */
  CHECK_EQ(s.r->status, 200);
  CHECK_EQ(s.r->length, -1);
  tessera_answer_t a;
  CHECK(tessera_request_take(id, &a));
  CHECK(a.body == NULL);
  CHECK_EQ(a.status, 200);
}

/* A piece larger than the ring (the ABI allows any) goes through in several. */
static void piece_larger_than_the_ring(void) {
  streamed();
  static sender_t s;
  memset(&s, 0, sizeof s);
  uint32_t id = tessera_request_open(&s.r);
  pthread_t t;
  pthread_create(&t, NULL, sender, &s);
  static uint8_t body[5 * RING + 17];
  pattern(body, sizeof body, 5);
  port_http_head(id, 201, -1);
  port_http_body(id, body, sizeof body);
  port_http_end(id);
  pthread_join(t, NULL);
  CHECK_EQ(s.len, sizeof body);
  CHECK(memcmp(s.out, body, sizeof body) == 0);
  tessera_answer_t a;
  tessera_request_take(id, &a);
}

/* A small answer with its length: head, bytes and end are there before the sender looks (no waiting). */
static void small_answer_with_a_length(void) {
  streamed();
  tessera_request_t *r;
  uint32_t id = tessera_request_open(&r);
  static const char json[] = "{\"error\":\"not_found\"}";
  CHECK_EQ(tessera_answer_flags(r), 0);
  port_http_body(id, (const uint8_t *)"x", 1); /* before the head: dropped, as the ABI has it */
  port_http_head(id, 404, (int32_t)(sizeof json - 1));
  port_http_body(id, (const uint8_t *)json, sizeof json - 1);
  port_http_end(id);
  CHECK_EQ(tessera_answer_flags(r), TESSERA_ANSWER_HEAD | TESSERA_ANSWER_DONE);
  CHECK_EQ(r->status, 404);
  CHECK_EQ(r->length, (int32_t)(sizeof json - 1));
  const uint8_t *data;
  uint32_t n = tessera_answer_peek(r, &data);
  CHECK_EQ(n, sizeof json - 1);
  CHECK(memcmp(data, json, n) == 0);
  tessera_answer_taken(r, n);
  CHECK_EQ(tessera_answer_peek(r, &data), 0);
  CHECK_EQ(waits, 0);
  CHECK(wakes >= 3); /* head, bytes, end: the sender was woken for each */
  tessera_answer_t a;
  CHECK(tessera_request_take(id, &a));
  CHECK_EQ(a.status, 404);
}

/* The core's thread writes a chunked answer of len bytes (body) in PIECEs to s, with a WAIT_MS budget,
 * while s's thread takes it as it was told to; returns how long the core's thread was held, in ms. */
static uint64_t answer_within_budget(sender_t *s, const uint8_t *body, uint32_t len) {
  streamed_within(WAIT_MS);
  uint32_t id = tessera_request_open(&s->r);
  pthread_t t;
  pthread_create(&t, NULL, sender, s);
  uint64_t since = now_us();
  port_http_head(id, 200, -1);
  for (uint32_t at = 0; at < len; at += PIECE) port_http_body(id, body + at, PIECE);
  port_http_end(id); /* reached: the core's thread did not wait forever */
  uint64_t held_ms = (now_us() - since) / 1000;
  pthread_join(t, NULL);
  CHECK(tessera_answer_flags(s->r) & TESSERA_ANSWER_CUT);
  CHECK(tessera_answer_flags(s->r) & TESSERA_ANSWER_DONE);
  CHECK(s->len > 0 && s->len < len);
  CHECK(memcmp(s->out, body, s->len) == 0); /* what was taken is the answer's start */
  CHECK(held_ms < 10 * WAIT_MS);            /* the budget, not WAIT_LONG_MS: slack for a loaded machine only */
  tessera_answer_t a;
  tessera_request_take(id, &a);
  return held_ms;
}

/* A sender that stops taking (a client that reads nothing): the core's thread gives up once it has
 * waited its budget instead of waiting on, and the answer is CUT. */
static void stalled_sender_cuts_the_answer(void) {
  static sender_t s;
  memset(&s, 0, sizeof s);
  s.stop_after = 3000;
  static uint8_t body[16 * 1024];
  pattern(body, sizeof body, 7);
  uint64_t held_ms = answer_within_budget(&s, body, sizeof body);
  printf("  stalled sender: the core's thread was held %u ms (budget %u ms)\n", (unsigned)held_ms, WAIT_MS);
  CHECK(held_ms >= WAIT_MS - 1);
  CHECK_EQ(s.len, 3000);
  CHECK(s.r->put <= 3000 + RING); /* the rest was dropped, not held */
}

/* A sender that keeps taking, but slowly (256 bytes every 5 ms: a 48 KiB answer would take about a
 * second): the core's thread is held its budget in all, not for as long as the client keeps moving,
 * and the answer is CUT. */
static void slow_sender_is_cut_within_the_budget(void) {
  static sender_t s;
  memset(&s, 0, sizeof s);
  s.pace_us = 5000;
  static uint8_t body[48 * 1024];
  pattern(body, sizeof body, 8);
  uint64_t held_ms = answer_within_budget(&s, body, sizeof body);
  printf("  slow sender: cut after %u of %u bytes, the core's thread held %u ms (budget %u ms)\n", (unsigned)s.len,
         (unsigned)sizeof body, (unsigned)held_ms, WAIT_MS);
}

/* A sender that gives up (its client went away): the core's thread drops the rest without waiting. */
static void sender_giving_up_drops_the_rest(void) {
  streamed();
  tessera_request_t *r;
  uint32_t id = tessera_request_open(&r);
  tessera_answer_give_up(r);
  static uint8_t body[8 * 1024];
  pattern(body, sizeof body, 9);
  port_http_head(id, 200, -1);
  port_http_body(id, body, sizeof body);
  port_http_end(id);
  CHECK_EQ(waits, 0);
  CHECK_EQ(r->put, 0);
  CHECK(tessera_answer_flags(r) & TESSERA_ANSWER_DONE);
  tessera_answer_t a;
  tessera_request_take(id, &a);
}

/* The core restarted: a request not yet answered gets 500 through its ring; one whose head may have
 * gone out is CUT (the sender closes the connection). */
static void restart_fails_pending_answers(void) {
  streamed();
  tessera_request_t *q, *s;
  uint32_t quiet = tessera_request_open(&q), started = tessera_request_open(&s);
  CHECK_EQ(tessera_request_open(NULL), 0); /* two slots */
  port_http_head(started, 200, -1);
  port_http_body(started, (const uint8_t *)"[1,", 3);
  tessera_requests_fail_all();
  static const char json[] = "{\"error\":\"internal_error\"}";
  CHECK_EQ(tessera_answer_flags(q), TESSERA_ANSWER_HEAD | TESSERA_ANSWER_DONE);
  CHECK_EQ(q->status, 500);
  CHECK_EQ(q->length, (int32_t)(sizeof json - 1));
  const uint8_t *data;
  uint32_t n = tessera_answer_peek(q, &data);
  CHECK_EQ(n, sizeof json - 1);
  CHECK(memcmp(data, json, n) == 0);
  CHECK_EQ(tessera_answer_flags(s), TESSERA_ANSWER_HEAD | TESSERA_ANSWER_DONE | TESSERA_ANSWER_CUT);
  CHECK_EQ(s->status, 200);
  tessera_answer_t a;
  CHECK(tessera_request_take(quiet, &a));
  CHECK(tessera_request_take(started, &a));
  /* the slots are free and their rings start afresh */
  tessera_request_t *r;
  uint32_t again = tessera_request_open(&r);
  CHECK_EQ(tessera_answer_flags(r), 0);
  CHECK_EQ(tessera_answer_peek(r, &data), 0);
  tessera_request_take(again, &a);
}

/* ---- tessera_answer_send: what goes out, in which form --------------------------------------------- */
typedef struct {
  char calls[64]; /* W whole, C chunk, E last chunk, H head */
  uint32_t ncalls;
  uint32_t status;
  int32_t length;
  uint8_t out[64 * 1024];
  uint32_t len;
  int fail_at; /* the call (1-based) that fails; 0: none */
  int took;
} wire_t;

static int wire_call(wire_t *w, char kind) {
  w->calls[w->ncalls++] = kind;
  return w->fail_at && (int)w->ncalls == w->fail_at ? -1 : 0;
}
static int wire_whole(void *ctx, uint32_t status, const uint8_t *body, uint32_t len) {
  wire_t *w = ctx;
  w->status = status;
  w->length = (int32_t)len;
  memcpy(w->out + w->len, body, len);
  w->len += len;
  return wire_call(w, 'W');
}
static int wire_chunk(void *ctx, uint32_t status, const uint8_t *data, uint32_t len) {
  wire_t *w = ctx;
  w->status = status;
  if (len) memcpy(w->out + w->len, data, len);
  w->len += len;
  return wire_call(w, len ? 'C' : 'E');
}
static int wire_head(void *ctx, uint32_t status, int32_t length) {
  wire_t *w = ctx;
  w->status = status;
  w->length = length;
  return wire_call(w, 'H');
}
static void wire_took(void *ctx) {
  ((wire_t *)ctx)->took++;
  signal_taken();
}

static tessera_sender_t wire_sender(wire_t *w, int head_only) {
  memset(w, 0, sizeof *w);
  return (tessera_sender_t){
      .ctx = w, .head_only = head_only, .whole = wire_whole, .chunk = wire_chunk, .head = wire_head, .took = wire_took};
}

/* A short answer with its length goes out whole, and only once the core ended it. */
static void send_short_answer_whole(void) {
  streamed();
  tessera_request_t *r;
  uint32_t id = tessera_request_open(&r);
  static wire_t w;
  tessera_sender_t out = wire_sender(&w, 0);
  CHECK_EQ(tessera_answer_send(r, &out), 0); /* nothing yet */
  static const char json[] = "{\"status\":\"ok\"}";
  port_http_head(id, 201, (int32_t)(sizeof json - 1));
  port_http_body(id, (const uint8_t *)json, sizeof json - 1);
  CHECK_EQ(tessera_answer_send(r, &out), 0); /* not ended: it would go out without its end */
  CHECK_EQ(w.ncalls, 0);
  port_http_end(id);
  CHECK_EQ(tessera_answer_send(r, &out), 1);
  CHECK(out.finished && !out.failed && out.started);
  CHECK(strcmp(w.calls, "W") == 0);
  CHECK_EQ(w.status, 201);
  CHECK_EQ(w.len, sizeof json - 1);
  CHECK(memcmp(w.out, json, w.len) == 0);
  tessera_answer_t a;
  tessera_request_take(id, &a);
}

/* A chunked answer of 48 KiB through the 2 KiB ring, sent as it comes on another thread: every byte
 * in order, in chunks no larger than the ring, one last chunk. */
typedef struct {
  tessera_request_t *r;
  tessera_sender_t out;
  wire_t w;
} wire_thread_t;

static void *wire_sender_thread(void *arg) {
  wire_thread_t *t = arg;
  for (;;) {
    pthread_mutex_lock(&mu);
    const uint8_t *data;
    while (!(tessera_answer_flags(t->r) & TESSERA_ANSWER_DONE) && tessera_answer_peek(t->r, &data) == 0 &&
           !(t->out.started == 0 && (tessera_answer_flags(t->r) & TESSERA_ANSWER_HEAD)))
      pthread_cond_wait(&changed, &mu);
    pthread_mutex_unlock(&mu);
    if (tessera_answer_send(t->r, &t->out)) return NULL;
  }
}

static void send_long_answer_chunked(void) {
  streamed();
  static wire_thread_t t;
  uint32_t id = tessera_request_open(&t.r);
  t.out = wire_sender(&t.w, 0);
  pthread_t th;
  pthread_create(&th, NULL, wire_sender_thread, &t);
  static uint8_t body[48 * 1024];
  pattern(body, sizeof body, 11);
  port_http_head(id, 200, -1);
  for (uint32_t at = 0; at < sizeof body; at += PIECE) port_http_body(id, body + at, PIECE);
  port_http_end(id);
  pthread_join(th, NULL);
  CHECK(t.out.finished && !t.out.failed);
  CHECK_EQ(t.w.len, sizeof body);
  CHECK(memcmp(t.w.out, body, sizeof body) == 0);
  CHECK(t.w.ncalls >= 2 && t.w.ncalls <= 60);
  CHECK_EQ(t.w.calls[t.w.ncalls - 1], 'E');
  CHECK(strchr(t.w.calls, 'E') == &t.w.calls[t.w.ncalls - 1]); /* one last chunk */
  CHECK(strchr(t.w.calls, 'W') == NULL);
  tessera_answer_t a;
  tessera_request_take(id, &a);
}

/* An answer with a length larger than the ring cannot be held to send whole: it goes out chunked. */
static void send_long_answer_with_a_length_chunked(void) {
  streamed();
  static wire_thread_t t;
  uint32_t id = tessera_request_open(&t.r);
  t.out = wire_sender(&t.w, 0);
  pthread_t th;
  pthread_create(&th, NULL, wire_sender_thread, &t);
  static uint8_t body[3 * RING];
  pattern(body, sizeof body, 13);
  port_http_head(id, 200, (int32_t)sizeof body);
  port_http_body(id, body, sizeof body);
  port_http_end(id);
  pthread_join(th, NULL);
  CHECK(t.out.finished);
  CHECK_EQ(t.w.len, sizeof body);
  CHECK(memcmp(t.w.out, body, sizeof body) == 0);
  CHECK_EQ(t.w.calls[0], 'C');
  CHECK_EQ(t.w.calls[t.w.ncalls - 1], 'E');
  tessera_answer_t a;
  tessera_request_take(id, &a);
}

/* HEAD: the head with the GET's length, the body dropped (and its room freed), no chunks. */
static void send_head_alone(void) {
  streamed();
  tessera_request_t *r;
  uint32_t id = tessera_request_open(&r);
  static wire_t w;
  tessera_sender_t out = wire_sender(&w, 1);
  port_http_head(id, 200, 12);
  port_http_body(id, (const uint8_t *)"{\"a\":[1,2]}\n", 12);
  port_http_end(id);
  CHECK_EQ(tessera_answer_send(r, &out), 1);
  CHECK(out.finished && !out.failed);
  CHECK(strcmp(w.calls, "H") == 0);
  CHECK_EQ(w.length, 12);
  CHECK_EQ(w.len, 0);
  const uint8_t *data;
  CHECK_EQ(tessera_answer_peek(r, &data), 0);
  tessera_answer_t a;
  tessera_request_take(id, &a);
}

/* A send that fails gives the answer up: the core's thread no longer waits for room, nothing more
 * is sent, and there is no last chunk. */
static void failed_send_gives_up(void) {
  streamed();
  tessera_request_t *r;
  uint32_t id = tessera_request_open(&r);
  static wire_t w;
  tessera_sender_t out = wire_sender(&w, 0);
  w.fail_at = 1;
  static uint8_t body[RING];
  pattern(body, sizeof body, 15);
  port_http_head(id, 200, -1);
  port_http_body(id, body, sizeof body); /* fills the ring */
  CHECK_EQ(tessera_answer_send(r, &out), 1);
  CHECK(out.failed && !out.finished);
  CHECK(tessera_answer_flags(r) & TESSERA_ANSWER_GAVE_UP);
  port_http_body(id, body, sizeof body); /* the ring is full, but nobody will take: not waited for */
  port_http_end(id);
  CHECK_EQ(waits, 0);
  CHECK(strcmp(w.calls, "C") == 0);
  tessera_answer_t a;
  tessera_request_take(id, &a);
}

/* The core restarted: a chunked answer under way fails (no last chunk: the client sees it cut); a
 * short one whose end never came fails before anything went out (the port answers 500). */
static void restart_fails_the_send(void) {
  streamed();
  tessera_request_t *c, *s;
  uint32_t chunked = tessera_request_open(&c), short_one = tessera_request_open(&s);
  static wire_t wc, ws;
  tessera_sender_t oc = wire_sender(&wc, 0), os = wire_sender(&ws, 0);
  port_http_head(chunked, 200, -1);
  port_http_body(chunked, (const uint8_t *)"[1,", 3);
  CHECK_EQ(tessera_answer_send(c, &oc), 0);
  port_http_head(short_one, 200, 2);
  tessera_requests_fail_all();
  CHECK_EQ(tessera_answer_send(c, &oc), 1);
  CHECK(oc.failed && oc.started);
  CHECK(strcmp(wc.calls, "C") == 0);
  CHECK_EQ(tessera_answer_send(s, &os), 1);
  CHECK(os.failed && !os.started);
  CHECK_EQ(ws.ncalls, 0);
  tessera_answer_t a;
  tessera_request_take(chunked, &a);
  tessera_request_take(short_one, &a);
}

int main(void) {
  RUN(collected_answer_is_whole);
  RUN(streamed_answer_arrives_through_a_small_ring);
  RUN(piece_larger_than_the_ring);
  RUN(small_answer_with_a_length);
  RUN(stalled_sender_cuts_the_answer);
  RUN(slow_sender_is_cut_within_the_budget);
  RUN(sender_giving_up_drops_the_rest);
  RUN(restart_fails_pending_answers);
  RUN(send_short_answer_whole);
  RUN(send_long_answer_chunked);
  RUN(send_long_answer_with_a_length_chunked);
  RUN(send_head_alone);
  RUN(failed_send_gives_up);
  RUN(restart_fails_the_send);
  return check_summary("test_requests");
}
