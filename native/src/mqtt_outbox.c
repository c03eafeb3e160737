/*
 * mqtt_outbox.c: MQTT publishes waiting for a port's sender, written in place piece by piece
 * (tessera_mqtt_outbox.h). Entries lie in [tail, head) or, once wrapped, in [tail, end) then [0, head);
 * the entry being written follows head. One that reaches the buffer's end moves to its start when
 * that is free; in the wrapped state it must stay short of tail, so head == tail always means empty.
 * An entry: size (u32, a multiple of 4), payload length, tag (u32 each), topic length (u16), retain
 * (u8), one byte unused; then the payload, then the topic and its NUL.
 */
#include "tessera_mqtt_outbox.h"

#include <string.h>

static uint32_t get32(const uint8_t *p) {
  uint32_t v;
  memcpy(&v, p, sizeof v);
  return v;
}

static void set32(uint8_t *p, uint32_t v) { memcpy(p, &v, sizeof v); }

void tessera_outbox_init(tessera_outbox_t *o, uint8_t *buf, uint32_t cap) {
  memset(o, 0, sizeof *o);
  o->buf = buf;
  o->cap = cap;
}

/* Room for n more bytes of the entry being written, contiguous after what it has: 1, or 0. */
static int fits(tessera_outbox_t *o, uint32_t n) {
  uint32_t need = o->open + n;
  if (need < n) return 0;
  if (o->end) return o->head + need < o->tail;
  if (o->head + need <= o->cap) return 1;
  if (o->tail == o->head) { /* nothing whole waits: start over at the beginning */
    memmove(o->buf, o->buf + o->head, o->open);
    o->tail = o->head = 0;
    return need <= o->cap;
  }
  if (need >= o->tail) return 0;
  memmove(o->buf, o->buf + o->head, o->open); /* wrap: the entry moves to the start */
  o->end = o->head;
  o->head = 0;
  return 1;
}

static void put(tessera_outbox_t *o, const void *bytes, uint32_t n) {
  if (n) memcpy(o->buf + o->head + o->open, bytes, n);
  o->open += n;
  o->used += n;
  if (o->used > o->peak) o->peak = o->used;
}

/* Gives back the entry being written. */
static void discard(tessera_outbox_t *o) {
  o->used -= o->open;
  o->open = 0;
}

/* Makes room for n more bytes (the header first, for a new entry); 0 when the publish is dropped. */
static int grow(tessera_outbox_t *o, uint32_t n) {
  uint32_t header = o->open ? 0 : TESSERA_OUTBOX_ENTRY;
  if (!fits(o, header + n)) {
    discard(o);
    return 0;
  }
  if (header) {
    static const uint8_t zero[TESSERA_OUTBOX_ENTRY];
    put(o, zero, header);
  }
  return 1;
}

int tessera_outbox_append(tessera_outbox_t *o, const uint8_t *bytes, uint32_t len) {
  if (o->dropping) return -1;
  if (!grow(o, len)) {
    o->dropping = 1;
    return -1;
  }
  put(o, bytes, len);
  return 0;
}

int tessera_outbox_end(tessera_outbox_t *o, const char *topic, const uint8_t *bytes, uint32_t len, int retain,
                       uint32_t tag) {
  int dropped = o->dropping || !topic;
  o->dropping = 0;
  if (dropped) {
    discard(o);
    return -1;
  }
  uint32_t topic_len = (uint32_t)strlen(topic);
  uint32_t start = o->open ? o->open : TESSERA_OUTBOX_ENTRY;
  uint32_t size = (start + len + topic_len + 1 + 3) & ~3u;
  if (topic_len > 0xffff || size < start || !grow(o, size - start)) {
    discard(o);
    return -1;
  }
  uint32_t payload = o->open - TESSERA_OUTBOX_ENTRY + len;
  put(o, bytes, len);
  put(o, topic, topic_len + 1);
  static const uint8_t pad[4];
  put(o, pad, size - o->open);
  uint8_t *e = o->buf + o->head;
  set32(e, size);
  set32(e + 4, payload);
  set32(e + 8, tag);
  e[12] = (uint8_t)topic_len;
  e[13] = (uint8_t)(topic_len >> 8);
  e[14] = retain != 0;
  o->head += size;
  o->open = 0;
  return 0;
}

int tessera_outbox_peek(tessera_outbox_t *o, tessera_outbox_entry_t *e) {
  if (!o->end && o->tail == o->head) return 0;
  const uint8_t *p = o->buf + o->tail;
  e->len = get32(p + 4);
  e->tag = get32(p + 8);
  e->retain = p[14];
  e->payload = p + TESSERA_OUTBOX_ENTRY;
  e->topic = (const char *)p + TESSERA_OUTBOX_ENTRY + e->len;
  return 1;
}

void tessera_outbox_pop(tessera_outbox_t *o) {
  if (!o->end && o->tail == o->head) return;
  uint32_t size = get32(o->buf + o->tail);
  o->tail += size;
  o->used -= size;
  if (o->end && o->tail == o->end) o->tail = o->end = 0; /* on to the entries at the start */
  if (!o->end && o->tail == o->head && !o->open) o->tail = o->head = 0;
}
