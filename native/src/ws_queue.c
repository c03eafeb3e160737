/*
 * ws_queue.c: a WebSocket connection's bounded send queue (tessera_ws_queue.h). Entries sit back to
 * back from buf[0]: opcode u8, flags u8, payload length u16 (little-endian), then the payload. The head
 * entry may be partly written (sent); it is removed once its last byte is out. Nothing here allocates.
 *
 * The one thing the queue knows of the core's frames is the MIRROR_BATCH layout (assembly/ws/frame.ts,
 * assembly/ws/mirror.ts), so it can merge batches for a client that is behind (its queue more than half
 * full; a client that keeps up gets every batch with its own time): a 14-byte header (type 9, protocol version u16 = 1,
 * nonce u32, header CRC u16 over bytes 0-6, payload CRC u16, payload size u16, a reserved byte), then
 * the payload: controller millis u32, record count u16, records. Merging appends the new records,
 * adds the counts, takes the newer millis and recomputes the payload size and CRC (CRC-16/MODBUS,
 * assembly/util/crc16.ts); type, version and nonce, so the header CRC, are unchanged.
 */
#include "tessera_ws_queue.h"

#include <string.h>

#define FLAG_MIRROR 1
#define CLOSE_RESERVE (TESSERA_WSQ_ENTRY + 2) /* room always kept for the close frame */

#define MIRROR_TYPE 9
#define FRAME_HEADER 14
#define BATCH_HEADER 6

static uint32_t get16(const uint8_t *p) { return (uint32_t)p[0] | (uint32_t)p[1] << 8; }
static void put16(uint8_t *p, uint32_t v) {
  p[0] = (uint8_t)v;
  p[1] = (uint8_t)(v >> 8);
}

static uint32_t crc16(const uint8_t *p, uint32_t len) {
  uint32_t crc = 0xffff;
  for (uint32_t i = 0; i < len; i++) {
    crc ^= p[i];
    for (int b = 0; b < 8; b++) crc = (crc & 1) ? (crc >> 1) ^ 0xa001 : crc >> 1;
  }
  return crc & 0xffff;
}

/* 1 when data is a well-formed MIRROR_BATCH frame of the core. */
static int is_mirror(const uint8_t *data, uint32_t len) {
  return len >= FRAME_HEADER + BATCH_HEADER && data[0] == MIRROR_TYPE && get16(data + 1) == 1 &&
         get16(data + 11) == len - FRAME_HEADER;
}

/* The payload length of the entry at offset `at`. */
static uint32_t entry_len(const tessera_wsq_t *q, uint32_t at) { return get16(q->buf + at + 2); }

/* Offset of the last entry (q->used > 0). */
static uint32_t tail_of(const tessera_wsq_t *q) {
  uint32_t at = 0, last = 0;
  while (at < q->used) {
    last = at;
    at += TESSERA_WSQ_ENTRY + entry_len(q, at);
  }
  return last;
}

void tessera_wsq_init(tessera_wsq_t *q, uint8_t *buf, uint32_t cap, uint32_t now_ms) {
  memset(q, 0, sizeof *q);
  q->buf = buf;
  q->cap = cap > TESSERA_WSQ_MAX_CAP ? TESSERA_WSQ_MAX_CAP : cap;
  q->progress_ms = now_ms;
}

/* Appends the mirror batch `data` to the batch in the tail entry at `tail`. 1 when it did. */
static int merge(tessera_wsq_t *q, uint32_t tail, const uint8_t *data, uint32_t len) {
  uint8_t *frame = q->buf + tail + TESSERA_WSQ_ENTRY;
  uint32_t old_len = entry_len(q, tail);
  uint32_t add = len - FRAME_HEADER - BATCH_HEADER;
  uint32_t count = get16(frame + FRAME_HEADER + 4) + get16(data + FRAME_HEADER + 4);
  if (q->used + add + CLOSE_RESERVE > q->cap || old_len + add > 0xffff || count > 0xffff) return 0;
  memcpy(q->buf + q->used, data + FRAME_HEADER + BATCH_HEADER, add); /* the tail ends at q->used */
  q->used += add;
  uint32_t size = old_len + add - FRAME_HEADER;
  memcpy(frame + FRAME_HEADER, data + FRAME_HEADER, 4); /* the newer controller millis */
  put16(frame + FRAME_HEADER + 4, count);
  put16(frame + 11, size);
  put16(frame + 9, crc16(frame + FRAME_HEADER, size));
  put16(q->buf + tail + 2, old_len + add);
  return 1;
}

int tessera_wsq_push(tessera_wsq_t *q, uint8_t opcode, const uint8_t *data, uint32_t len, uint32_t now_ms) {
  if (q->closing) return TESSERA_WSQ_SHUT;
  int mirror = opcode == TESSERA_WS_BINARY && is_mirror(data, len);
  /* only a client that is behind (its queue half full) gets merged batches: merging moves earlier
   * records to the newer batch's time, which a client that keeps up should never see */
  if (mirror && q->used > q->cap / 2) {
    uint32_t tail = tail_of(q);
    int in_flight = tail == 0 && q->sent > 0;
    if ((q->buf[tail + 1] & FLAG_MIRROR) && !in_flight && merge(q, tail, data, len)) {
      q->merged++;
      return TESSERA_WSQ_MERGED;
    }
  }
  if (len > 0xffff || q->used + TESSERA_WSQ_ENTRY + len + CLOSE_RESERVE > q->cap) return TESSERA_WSQ_FULL;
  uint8_t *e = q->buf + q->used;
  e[0] = opcode;
  e[1] = mirror ? FLAG_MIRROR : 0;
  put16(e + 2, len);
  if (len) memcpy(e + TESSERA_WSQ_ENTRY, data, len);
  if (q->used == 0) q->progress_ms = now_ms;
  q->used += TESSERA_WSQ_ENTRY + len;
  q->frames++;
  return TESSERA_WSQ_QUEUED;
}

void tessera_wsq_close(tessera_wsq_t *q, uint16_t code, uint32_t now_ms) {
  if (q->closing) return;
  /* keep a frame that is partly out (the stream would break), drop the rest */
  q->used = q->used > 0 && q->sent > 0 ? TESSERA_WSQ_ENTRY + entry_len(q, 0) : 0;
  if (q->used == 0) {
    q->sent = 0;
    q->progress_ms = now_ms;
  }
  uint8_t *e = q->buf + q->used; /* CLOSE_RESERVE bytes are always free */
  e[0] = TESSERA_WS_CLOSE;
  e[1] = 0;
  put16(e + 2, 2);
  e[4] = (uint8_t)(code >> 8);
  e[5] = (uint8_t)code;
  q->used += CLOSE_RESERVE;
  q->closing = 1;
}

uint32_t tessera_ws_header(uint8_t out[10], uint8_t opcode, uint32_t len) {
  out[0] = (uint8_t)(0x80 | (opcode & 0x0f)); /* FIN: the queue never fragments */
  if (len <= 125) {
    out[1] = (uint8_t)len;
    return 2;
  }
  if (len <= 0xffff) {
    out[1] = 126;
    out[2] = (uint8_t)(len >> 8);
    out[3] = (uint8_t)len;
    return 4;
  }
  out[1] = 127;
  for (int i = 0; i < 8; i++) out[2 + i] = i < 4 ? 0 : (uint8_t)(len >> (8 * (7 - i)));
  return 10;
}

int tessera_wsq_flush(tessera_wsq_t *q, tessera_wsq_write_fn write, void *ctx, uint32_t now_ms) {
  while (q->used > 0) {
    uint8_t opcode = q->buf[0];
    uint32_t len = entry_len(q, 0);
    const uint8_t *payload = q->buf + TESSERA_WSQ_ENTRY;
    uint8_t head[10];
    uint32_t head_len = tessera_ws_header(head, opcode, len);
    uint32_t total = head_len + len;
    while (q->sent < total) {
      int n = q->sent < head_len ? write(ctx, head + q->sent, head_len - q->sent)
                                 : write(ctx, payload + (q->sent - head_len), total - q->sent);
      if (n < 0) return TESSERA_WSQ_ERROR;
      if (n == 0) return TESSERA_WSQ_PENDING;
      q->sent += (uint32_t)n;
      q->bytes += (uint32_t)n;
      q->progress_ms = now_ms;
    }
    uint32_t entry = TESSERA_WSQ_ENTRY + len;
    memmove(q->buf, q->buf + entry, q->used - entry);
    q->used -= entry;
    q->sent = 0;
  }
  return q->closing ? TESSERA_WSQ_DONE : TESSERA_WSQ_IDLE;
}

int tessera_wsq_stalled(const tessera_wsq_t *q, uint32_t now_ms, uint32_t limit_ms) {
  return q->used > 0 && now_ms - q->progress_ms >= limit_ms;
}
