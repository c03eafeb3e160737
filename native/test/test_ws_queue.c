/* sources: ws_queue.c
 * test_ws_queue.c: the bounded WebSocket send queue (native/src/ws_queue.c): order, partial writes,
 * mirror batches merged for a slow client, a full queue, the close frame, stall detection. */
#include <stdint.h>
#include <stdlib.h>

#include "check.h"
#include "frame_crc.h"
#include "tessera_ws_queue.h"

/* ---- a sink standing in for the socket ---------------------------------------------------------- */
typedef struct {
  uint8_t data[70000];
  uint32_t len;
  int take; /* bytes it still takes (then it would block), or -1: every write fails */
  int calls;
} sink_t;

static int sink_write(void *ctx, const uint8_t *data, uint32_t len) {
  sink_t *s = ctx;
  s->calls++;
  if (s->take < 0) return -1;
  uint32_t n = len < (uint32_t)s->take ? len : (uint32_t)s->take;
  memcpy(s->data + s->len, data, n);
  s->len += n;
  s->take -= (int)n;
  return (int)n;
}

/* ---- the core's frames ---------------------------------------------------------------------------- */
static uint32_t get16(const uint8_t *p) { return (uint32_t)p[0] | (uint32_t)p[1] << 8; }
static void put16(uint8_t *p, uint32_t v) {
  p[0] = (uint8_t)v;
  p[1] = (uint8_t)(v >> 8);
}

/* A frame as assembly/ws/frame.ts writes it: type, payload. Returns its length. */
static uint32_t frame(uint8_t *out, uint8_t type, uint32_t nonce, const uint8_t *payload, uint32_t size) {
  out[0] = type;
  put16(out + 1, 1);
  memcpy(out + 3, &nonce, 4);
  put16(out + 7, crc16(out, 7));
  put16(out + 9, crc16(payload, size));
  put16(out + 11, size);
  out[13] = 0;
  memcpy(out + 14, payload, size);
  return 14 + size;
}

/* A MIRROR_BATCH with `count` records of 9 bytes (address, type 5, length 8, an 8-byte set-colour
 * packet whose last byte is `tag` + i). */
static uint32_t mirror(uint8_t *out, uint32_t millis, uint32_t count, uint8_t tag) {
  uint8_t payload[2048];
  memcpy(payload, &millis, 4);
  put16(payload + 4, count);
  uint32_t used = 6;
  for (uint32_t i = 0; i < count; i++) {
    uint8_t rec[11] = {1, 5, 8, 1, 5, 8, 6, 0, 10, 20, (uint8_t)(tag + i)};
    memcpy(payload + used, rec, sizeof rec);
    used += sizeof rec;
  }
  return frame(out, 9, 0x11223344, payload, used);
}

/* The frames in a sink: checks each wire header, returns how many, with offsets and lengths. */
static int frames_in(const sink_t *s, uint32_t *at, uint32_t *len, uint8_t *opcode, int max) {
  uint32_t p = 0;
  int n = 0;
  while (p < s->len && n < max) {
    uint8_t b0 = s->data[p], b1 = s->data[p + 1];
    CHECK(b0 & 0x80);        /* FIN */
    CHECK((b1 & 0x80) == 0); /* not masked */
    uint32_t l = b1 & 0x7f, h = 2;
    if (l == 126) {
      l = (uint32_t)s->data[p + 2] << 8 | s->data[p + 3];
      h = 4;
    }
    opcode[n] = b0 & 0x0f;
    at[n] = p + h;
    len[n] = l;
    p += h + l;
    n++;
  }
  CHECK_EQ(p, s->len);
  return n;
}

static uint8_t store[8192];
static sink_t sink;

static void test_order_and_wire_format(void) {
  tessera_wsq_t q;
  tessera_wsq_init(&q, store, sizeof store, 0);
  memset(&sink, 0, sizeof sink);
  sink.take = 100000;
  uint8_t a[5] = {1, 2, 3, 4, 5}, b[300];
  for (int i = 0; i < 300; i++) b[i] = (uint8_t)i;
  CHECK_EQ(tessera_wsq_push(&q, TESSERA_WS_BINARY, a, sizeof a, 0), TESSERA_WSQ_QUEUED);
  CHECK_EQ(tessera_wsq_push(&q, TESSERA_WS_BINARY, b, sizeof b, 0), TESSERA_WSQ_QUEUED);
  CHECK_EQ(tessera_wsq_flush(&q, sink_write, &sink, 1), TESSERA_WSQ_IDLE);
  uint32_t at[4], len[4];
  uint8_t op[4];
  CHECK_EQ(frames_in(&sink, at, len, op, 4), 2);
  CHECK_EQ(len[0], 5);
  CHECK_EQ(len[1], 300);
  CHECK_EQ(op[0], TESSERA_WS_BINARY);
  CHECK(memcmp(sink.data + at[0], a, 5) == 0);
  CHECK(memcmp(sink.data + at[1], b, 300) == 0);
  CHECK_EQ(q.used, 0);
  CHECK_EQ(q.bytes, 2 + 5 + 4 + 300);
}

static void test_partial_writes_and_would_block(void) {
  tessera_wsq_t q;
  tessera_wsq_init(&q, store, sizeof store, 0);
  memset(&sink, 0, sizeof sink);
  uint8_t data[1000];
  for (int i = 0; i < 1000; i++) data[i] = (uint8_t)(i * 7);
  for (int i = 0; i < 3; i++)
    CHECK_EQ(tessera_wsq_push(&q, TESSERA_WS_BINARY, data, sizeof data, 0), TESSERA_WSQ_QUEUED);
  sink.take = 0; /* the socket takes nothing */
  CHECK_EQ(tessera_wsq_flush(&q, sink_write, &sink, 1), TESSERA_WSQ_PENDING);
  CHECK_EQ(sink.len, 0);
  int rounds = 0;
  do { /* 3 bytes per round, splitting wire headers too */
    sink.take = 3;
    rounds++;
  } while (tessera_wsq_flush(&q, sink_write, &sink, 2) == TESSERA_WSQ_PENDING && rounds < 10000);
  CHECK_EQ(rounds, (3 * 1004 + 2) / 3);
  CHECK_EQ(q.used, 0);
  uint32_t at[4], len[4];
  uint8_t op[4];
  CHECK_EQ(frames_in(&sink, at, len, op, 4), 3);
  for (int i = 0; i < 3; i++) CHECK(len[i] == 1000 && memcmp(sink.data + at[i], data, 1000) == 0);
}

/* Batches merge only for a client that is behind: its queue more than half full. */
static uint8_t backlog[sizeof store / 2];

static void test_mirror_batches_merge(void) {
  tessera_wsq_t q;
  tessera_wsq_init(&q, store, sizeof store, 0);
  memset(&sink, 0, sizeof sink);
  uint8_t f1[512], f2[512], f3[512];
  uint32_t l1 = mirror(f1, 1000, 2, 10), l2 = mirror(f2, 1034, 1, 20), l3 = mirror(f3, 1068, 3, 30);
  CHECK_EQ(tessera_wsq_push(&q, TESSERA_WS_BINARY, f1, l1, 0), TESSERA_WSQ_QUEUED);
  CHECK_EQ(tessera_wsq_push(&q, TESSERA_WS_BINARY, f2, l2, 0), TESSERA_WSQ_QUEUED); /* keeping up: no merge */
  tessera_wsq_init(&q, store, sizeof store, 0);
  CHECK_EQ(tessera_wsq_push(&q, TESSERA_WS_BINARY, backlog, sizeof backlog, 0), TESSERA_WSQ_QUEUED);
  CHECK_EQ(tessera_wsq_push(&q, TESSERA_WS_BINARY, f1, l1, 0), TESSERA_WSQ_QUEUED);
  CHECK_EQ(tessera_wsq_push(&q, TESSERA_WS_BINARY, f2, l2, 0), TESSERA_WSQ_MERGED);
  CHECK_EQ(tessera_wsq_push(&q, TESSERA_WS_BINARY, f3, l3, 0), TESSERA_WSQ_MERGED);
  CHECK_EQ(q.merged, 2);
  sink.take = 100000;
  CHECK_EQ(tessera_wsq_flush(&q, sink_write, &sink, 1), TESSERA_WSQ_IDLE);
  uint32_t at[4], len[4];
  uint8_t op[4];
  CHECK_EQ(frames_in(&sink, at, len, op, 4), 2); /* the backlog, then one merged batch */
  const uint8_t *m = sink.data + at[1];
  uint32_t size = get16(m + 11);
  CHECK_EQ(len[1], 14 + size);
  CHECK_EQ(size, 6 + 6 * 11);
  CHECK_EQ(m[0], 9);
  CHECK_EQ(get16(m + 7), crc16(m, 7));         /* header CRC still right */
  CHECK_EQ(get16(m + 9), crc16(m + 14, size)); /* payload CRC recomputed */
  uint32_t millis;
  memcpy(&millis, m + 14, 4);
  CHECK_EQ(millis, 1068);     /* the newest batch's time */
  CHECK_EQ(get16(m + 18), 6); /* 2 + 1 + 3 records */
  const uint8_t tags[6] = {10, 11, 20, 30, 31, 32};
  for (int i = 0; i < 6; i++) CHECK_EQ(m[20 + i * 11 + 10], tags[i]); /* in order */
}

static void test_no_merge_into_a_frame_going_out_or_across_others(void) {
  tessera_wsq_t q;
  tessera_wsq_init(&q, store, sizeof store, 0);
  memset(&sink, 0, sizeof sink);
  uint8_t f1[512], f2[512], f3[512], state[100];
  uint32_t l1 = mirror(f1, 1, 2, 10), l2 = mirror(f2, 2, 1, 20), l3 = mirror(f3, 3, 1, 30);
  uint8_t app[51] = {0};
  uint32_t ls = frame(state, 13, 5, app, sizeof app);
  CHECK_EQ(tessera_wsq_push(&q, TESSERA_WS_BINARY, f1, l1, 0), TESSERA_WSQ_QUEUED);
  sink.take = 5; /* part of the first batch goes out */
  CHECK_EQ(tessera_wsq_flush(&q, sink_write, &sink, 1), TESSERA_WSQ_PENDING);
  CHECK_EQ(tessera_wsq_push(&q, TESSERA_WS_BINARY, f2, l2, 1), TESSERA_WSQ_QUEUED); /* not into f1 */
  CHECK_EQ(tessera_wsq_push(&q, TESSERA_WS_BINARY, state, ls, 1), TESSERA_WSQ_QUEUED);
  CHECK_EQ(tessera_wsq_push(&q, TESSERA_WS_BINARY, f3, l3, 1), TESSERA_WSQ_QUEUED); /* not across APP_STATE */
  sink.take = 100000;
  CHECK_EQ(tessera_wsq_flush(&q, sink_write, &sink, 2), TESSERA_WSQ_IDLE);
  uint32_t at[8], len[8];
  uint8_t op[8];
  CHECK_EQ(frames_in(&sink, at, len, op, 8), 4);
  CHECK(len[0] == l1 && memcmp(sink.data + at[0], f1, l1) == 0);
  CHECK(len[1] == l2 && memcmp(sink.data + at[1], f2, l2) == 0);
  CHECK(len[2] == ls && memcmp(sink.data + at[2], state, ls) == 0);
  CHECK(len[3] == l3 && memcmp(sink.data + at[3], f3, l3) == 0);
}

static void test_full_queue_means_the_client_is_behind(void) {
  static uint8_t small[1024];
  tessera_wsq_t q;
  tessera_wsq_init(&q, small, sizeof small, 0);
  uint8_t data[300] = {0};
  int queued = 0, result;
  while ((result = tessera_wsq_push(&q, TESSERA_WS_BINARY, data, sizeof data, 0)) == TESSERA_WSQ_QUEUED) queued++;
  CHECK_EQ(result, TESSERA_WSQ_FULL);
  CHECK_EQ(queued, 3); /* 3 x 304 bytes, and room kept for a close frame */
  /* mirror batches behind a backlog (more than half full): merged until the merged batch no longer fits */
  tessera_wsq_init(&q, small, sizeof small, 0);
  uint8_t f[512];
  uint32_t l = mirror(f, 1, 10, 0); /* 130 bytes, 110 of records */
  int merged = 0;
  CHECK_EQ(tessera_wsq_push(&q, TESSERA_WS_BINARY, backlog, 520, 0), TESSERA_WSQ_QUEUED);
  CHECK_EQ(tessera_wsq_push(&q, TESSERA_WS_BINARY, f, l, 0), TESSERA_WSQ_QUEUED);
  while ((result = tessera_wsq_push(&q, TESSERA_WS_BINARY, f, l, 0)) == TESSERA_WSQ_MERGED) merged++;
  CHECK_EQ(result, TESSERA_WSQ_FULL);
  CHECK_EQ(merged, 3); /* 524 + 134 + 3 x 110 = 988 bytes; a fourth would pass 1024 - 6 */
  uint8_t too_big[2000] = {0};
  tessera_wsq_init(&q, small, sizeof small, 0);
  CHECK_EQ(tessera_wsq_push(&q, TESSERA_WS_BINARY, too_big, sizeof too_big, 0), TESSERA_WSQ_FULL);
}

static void test_close_frame(void) {
  tessera_wsq_t q;
  tessera_wsq_init(&q, store, sizeof store, 0);
  memset(&sink, 0, sizeof sink);
  uint8_t data[200];
  memset(data, 7, sizeof data);
  tessera_wsq_push(&q, TESSERA_WS_BINARY, data, sizeof data, 0);
  tessera_wsq_push(&q, TESSERA_WS_BINARY, data, sizeof data, 0);
  sink.take = 50; /* the first frame is partly out */
  CHECK_EQ(tessera_wsq_flush(&q, sink_write, &sink, 1), TESSERA_WSQ_PENDING);
  tessera_wsq_close(&q, 1008, 2);
  CHECK_EQ(tessera_wsq_push(&q, TESSERA_WS_BINARY, data, sizeof data, 2), TESSERA_WSQ_SHUT);
  sink.take = 100000;
  CHECK_EQ(tessera_wsq_flush(&q, sink_write, &sink, 3), TESSERA_WSQ_DONE);
  CHECK_EQ(tessera_wsq_flush(&q, sink_write, &sink, 3), TESSERA_WSQ_DONE);
  uint32_t at[4], len[4];
  uint8_t op[4];
  CHECK_EQ(frames_in(&sink, at, len, op, 4), 2); /* the frame that had started, then the close */
  CHECK_EQ(len[0], 200);
  CHECK_EQ(op[1], TESSERA_WS_CLOSE);
  CHECK_EQ(len[1], 2);
  CHECK_EQ((sink.data[at[1]] << 8) | sink.data[at[1] + 1], 1008);
  /* a close always fits, even in a full queue */
  static uint8_t small[512];
  tessera_wsq_init(&q, small, sizeof small, 0);
  while (tessera_wsq_push(&q, TESSERA_WS_BINARY, data, 100, 0) == TESSERA_WSQ_QUEUED) {}
  tessera_wsq_close(&q, 1011, 0);
  memset(&sink, 0, sizeof sink);
  sink.take = 100000;
  CHECK_EQ(tessera_wsq_flush(&q, sink_write, &sink, 0), TESSERA_WSQ_DONE);
  CHECK_EQ(sink.len, 4);
}

static void test_socket_error_and_stall(void) {
  tessera_wsq_t q;
  tessera_wsq_init(&q, store, sizeof store, 1000);
  memset(&sink, 0, sizeof sink);
  uint8_t data[10] = {0};
  CHECK(!tessera_wsq_stalled(&q, 900000, 5000)); /* empty: never stalled */
  tessera_wsq_push(&q, TESSERA_WS_BINARY, data, sizeof data, 2000);
  sink.take = 0;
  tessera_wsq_flush(&q, sink_write, &sink, 3000);
  CHECK(!tessera_wsq_stalled(&q, 6999, 5000));
  CHECK(tessera_wsq_stalled(&q, 7000, 5000)); /* nothing out since it was queued at 2000 */
  sink.take = 1;
  tessera_wsq_flush(&q, sink_write, &sink, 7000);
  CHECK(!tessera_wsq_stalled(&q, 7001, 5000)); /* it moved */
  /* the clock wraps */
  tessera_wsq_init(&q, store, sizeof store, 0xfffffff0u);
  tessera_wsq_push(&q, TESSERA_WS_BINARY, data, sizeof data, 0xfffffff0u);
  CHECK(!tessera_wsq_stalled(&q, 0x10, 5000));
  CHECK(tessera_wsq_stalled(&q, 0x2000, 5000));
  sink.take = -1;
  CHECK_EQ(tessera_wsq_flush(&q, sink_write, &sink, 0x2000), TESSERA_WSQ_ERROR);
}

static void test_wire_headers(void) {
  uint8_t h[10];
  CHECK_EQ(tessera_ws_header(h, TESSERA_WS_BINARY, 125), 2);
  CHECK(h[0] == 0x82 && h[1] == 125);
  CHECK_EQ(tessera_ws_header(h, TESSERA_WS_BINARY, 126), 4);
  CHECK(h[1] == 126 && h[2] == 0 && h[3] == 126);
  CHECK_EQ(tessera_ws_header(h, TESSERA_WS_PONG, 65535), 4);
  CHECK(h[0] == 0x8a && h[2] == 0xff && h[3] == 0xff);
  CHECK_EQ(tessera_ws_header(h, TESSERA_WS_BINARY, 65536), 10);
  CHECK(h[1] == 127 && h[7] == 1 && h[8] == 0 && h[9] == 0);
}

int main(void) {
  RUN(test_order_and_wire_format);
  RUN(test_partial_writes_and_would_block);
  RUN(test_mirror_batches_merge);
  RUN(test_no_merge_into_a_frame_going_out_or_across_others);
  RUN(test_full_queue_means_the_client_is_behind);
  RUN(test_close_frame);
  RUN(test_socket_error_and_stall);
  RUN(test_wire_headers);
  return check_summary("test_ws_queue");
}
