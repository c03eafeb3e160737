/* sources: mqtt_outbox.c
 * test_mqtt_outbox.c: the MQTT outbox (native/src/mqtt_outbox.c): publishes written piece by piece come
 * out whole and in order; one that does not fit is dropped whole, and the next fits once room is
 * free; entries wrap to the start, moving an entry caught at the end; an abandoned one leaves
 * nothing; and a long random run against a plain model of the queue. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#include "check.h"
#include "tessera_mqtt_outbox.h"

static uint8_t bytes[4096];

static void fill_bytes(void) {
  for (size_t i = 0; i < sizeof bytes; i++) bytes[i] = (uint8_t)(i * 7 + 3);
}

/* Writes a publish of `len` payload bytes from bytes[from] in pieces of `piece`. */
static int write_one(tessera_outbox_t *o, const char *topic, uint32_t from, uint32_t len, uint32_t piece,
                     uint32_t tag) {
  uint32_t at = 0;
  while (len - at > piece) {
    tessera_outbox_append(o, bytes + from + at, piece);
    at += piece;
  }
  return tessera_outbox_end(o, topic, bytes + from + at, len - at, 1, tag);
}

static int is_one(const tessera_outbox_entry_t *e, const char *topic, uint32_t from, uint32_t len, uint32_t tag) {
  return strcmp(e->topic, topic) == 0 && e->len == len && memcmp(e->payload, bytes + from, len) == 0 && e->tag == tag &&
         e->retain == 1;
}

static void test_order_and_pieces(void) {
  static uint8_t buf[2048];
  tessera_outbox_t o;
  tessera_outbox_init(&o, buf, sizeof buf);
  tessera_outbox_entry_t e;
  CHECK_EQ(tessera_outbox_peek(&o, &e), 0);
  CHECK_EQ(write_one(&o, "a/config", 0, 700, 256, 1), 0);
  CHECK_EQ(write_one(&o, "b", 100, 0, 256, 2), 0); /* an empty payload (a retained config cleared) */
  CHECK_EQ(write_one(&o, "c/state", 5, 9, 256, 3), 0);
  CHECK(tessera_outbox_peek(&o, &e) && is_one(&e, "a/config", 0, 700, 1));
  tessera_outbox_pop(&o);
  CHECK(tessera_outbox_peek(&o, &e) && is_one(&e, "b", 100, 0, 2));
  tessera_outbox_pop(&o);
  CHECK(tessera_outbox_peek(&o, &e) && is_one(&e, "c/state", 5, 9, 3));
  tessera_outbox_pop(&o);
  CHECK_EQ(tessera_outbox_peek(&o, &e), 0);
  CHECK_EQ(o.used, 0);
  CHECK_EQ(o.peak, 728 + 20 + 36); /* header, payload, topic and NUL, rounded to 4 */
}

static void test_drop_whole(void) {
  static uint8_t buf[1024];
  tessera_outbox_t o;
  tessera_outbox_init(&o, buf, sizeof buf);
  CHECK_EQ(write_one(&o, "first", 0, 600, 200, 1), 0);
  CHECK_EQ(write_one(&o, "second", 0, 600, 200, 2), -1); /* does not fit beside the first */
  CHECK_EQ(o.used, 624);
  CHECK_EQ(write_one(&o, "third", 0, 2000, 200, 3), -1); /* more than the buffer: never */
  CHECK_EQ(write_one(&o, "small", 10, 50, 200, 4), 0);   /* the dropped ones left no trace */
  tessera_outbox_entry_t e;
  CHECK(tessera_outbox_peek(&o, &e) && is_one(&e, "first", 0, 600, 1));
  tessera_outbox_pop(&o);
  CHECK(tessera_outbox_peek(&o, &e) && is_one(&e, "small", 10, 50, 4));
  tessera_outbox_pop(&o);
  CHECK_EQ(write_one(&o, "second", 0, 900, 200, 5), 0); /* empty again: the whole buffer */
  CHECK(tessera_outbox_peek(&o, &e) && is_one(&e, "second", 0, 900, 5));
  CHECK_EQ(tessera_outbox_end(&o, NULL, bytes, 0, 0, 0), -1); /* nothing open: nothing happens */
  tessera_outbox_append(&o, bytes, 200);                      /* (no room: dropped) */
  CHECK_EQ(tessera_outbox_end(&o, "x", bytes, 1, 0, 0), -1);
}

static void test_wrap_moves_the_entry(void) {
  static uint8_t buf[1000];
  tessera_outbox_t o;
  tessera_outbox_init(&o, buf, sizeof buf);
  CHECK_EQ(write_one(&o, "a", 0, 400, 100, 1), 0);   /* [0, 420) */
  CHECK_EQ(write_one(&o, "b", 400, 400, 100, 2), 0); /* [420, 840) */
  tessera_outbox_entry_t e;
  tessera_outbox_pop(&o); /* a gone: 420 free at the start */
  /* c's pieces reach the end: what it has moves to the start, the rest follows there */
  CHECK_EQ(write_one(&o, "c", 800, 300, 100, 3), 0);
  CHECK(o.end != 0);
  CHECK(tessera_outbox_peek(&o, &e) && is_one(&e, "b", 400, 400, 2));
  CHECK_EQ(write_one(&o, "d", 0, 100, 100, 4), -1); /* would reach b */
  tessera_outbox_pop(&o);
  CHECK_EQ(o.end, 0);
  CHECK(tessera_outbox_peek(&o, &e) && is_one(&e, "c", 800, 300, 3));
  tessera_outbox_pop(&o);
  CHECK_EQ(tessera_outbox_peek(&o, &e), 0);
  CHECK_EQ(o.head, 0);
}

static void test_abandoned(void) {
  static uint8_t buf[512];
  tessera_outbox_t o;
  tessera_outbox_init(&o, buf, sizeof buf);
  tessera_outbox_append(&o, bytes, 100);
  CHECK_EQ(tessera_outbox_end(&o, NULL, NULL, 0, 0, 0), -1); /* the core restarted mid-payload */
  CHECK_EQ(o.used, 0);
  CHECK_EQ(write_one(&o, "t", 3, 30, 8, 9), 0);
  tessera_outbox_entry_t e;
  CHECK(tessera_outbox_peek(&o, &e) && is_one(&e, "t", 3, 30, 9));
}

/* Random publishes and pops against a model: every publish the outbox takes comes out whole and in
 * order, one it drops never does, and it drops one only when the bytes waiting leave no room. */
static void test_random_against_model(void) {
  static uint8_t buf[3000];
  tessera_outbox_t o;
  tessera_outbox_init(&o, buf, sizeof buf);
  enum { N = 64 };
  struct {
    uint32_t from, len, tag;
  } model[N];
  int first = 0, count = 0, bad = 0, taken = 0, dropped = 0;
  srand(12345);
  for (uint32_t tag = 1; tag <= 20000; tag++) {
    if (rand() % 2 && count > 0) {
      tessera_outbox_entry_t e;
      char topic[16];
      snprintf(topic, sizeof topic, "t%u", (unsigned)model[first].tag);
      bad += !(tessera_outbox_peek(&o, &e) && is_one(&e, topic, model[first].from, model[first].len, model[first].tag));
      tessera_outbox_pop(&o);
      first = (first + 1) % N;
      count--;
      continue;
    }
    uint32_t len = (uint32_t)(rand() % 1200), from = (uint32_t)(rand() % 2000), piece = 1 + (uint32_t)(rand() % 300);
    char topic[16];
    snprintf(topic, sizeof topic, "t%u", (unsigned)tag);
    uint32_t waiting = o.used;
    if (count < N && write_one(&o, topic, from, len, piece, tag) == 0) {
      int at = (first + count++) % N;
      model[at].from = from, model[at].len = len, model[at].tag = tag;
      taken++;
    } else if (count < N) {
      dropped++;
      bad += waiting + len + 16 + 8 <= sizeof buf / 2; /* dropped with half the buffer free */
    }
    bad += o.used > sizeof buf;
  }
  CHECK_EQ(bad, 0);
  CHECK(taken > 5000 && dropped > 100);
}

int main(void) {
  fill_bytes();
  RUN(test_order_and_pieces);
  RUN(test_drop_whole);
  RUN(test_wrap_moves_the_entry);
  RUN(test_abandoned);
  RUN(test_random_against_model);
  return check_summary("test_mqtt_outbox.c");
}
