/* sources: ws_queue.c netio.c
 * test_ws_clients.c: the ESP32 port's WebSocket sending as a POSIX stand-in: a queue per client,
 * flushed with non-blocking writes on real sockets, one client reading and one that never reads. The
 * writer never waits; the reader gets every record in order; the slow client's mirror batches are
 * merged, then it is found behind (queue full) and closed, and dropped once its close frame cannot go
 * out either; the reader never notices. */
#include <stdint.h>
#include <stdlib.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

#include "check.h"
#include "frame_crc.h"
#include "tessera_netio.h"
#include "tessera_ws_queue.h"

static uint32_t now_ms(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (uint32_t)((uint64_t)ts.tv_sec * 1000u + (uint64_t)ts.tv_nsec / 1000000u);
}

/* A MIRROR_BATCH of `count` records numbered from `first` (the record's last byte and the one before). */
static uint32_t batch(uint8_t *out, uint32_t first, uint32_t count) {
  uint8_t *p = out + 14;
  uint32_t millis = first;
  memcpy(p, &millis, 4);
  p[4] = (uint8_t)count;
  p[5] = (uint8_t)(count >> 8);
  uint32_t size = 6;
  for (uint32_t i = 0; i < count; i++) {
    uint32_t n = first + i;
    uint8_t rec[11] = {1, 5, 8, 1, 5, 8, 6, 0, 0, (uint8_t)(n >> 8), (uint8_t)n};
    memcpy(p + size, rec, 11);
    size += 11;
  }
  out[0] = 9;
  out[1] = 1;
  out[2] = 0;
  memset(out + 3, 0xab, 4);
  uint32_t h = crc16(out, 7), c = crc16(p, size);
  out[7] = (uint8_t)h;
  out[8] = (uint8_t)(h >> 8);
  out[9] = (uint8_t)c;
  out[10] = (uint8_t)(c >> 8);
  out[11] = (uint8_t)size;
  out[12] = (uint8_t)(size >> 8);
  out[13] = 0;
  return 14 + size;
}

static int write_fd(void *ctx, const uint8_t *data, uint32_t len) { return tessera_send_now(*(int *)ctx, data, len); }

/* Parses WebSocket frames out of bytes[0..len) and checks that their records run from *next on. */
static uint32_t parse(const uint8_t *bytes, uint32_t len, uint32_t *next, uint32_t *frames) {
  uint32_t p = 0;
  while (p + 2 <= len) {
    uint32_t l = bytes[p + 1] & 0x7f, h = 2;
    if (l == 126) {
      if (p + 4 > len) break;
      l = (uint32_t)bytes[p + 2] << 8 | bytes[p + 3];
      h = 4;
    }
    if (p + h + l > len) break;
    const uint8_t *f = bytes + p + h;
    uint32_t count = f[18] | (uint32_t)f[19] << 8;
    CHECK_EQ(f[9] | f[10] << 8, crc16(f + 14, l - 14));
    for (uint32_t i = 0; i < count; i++) {
      uint32_t n = (uint32_t)f[20 + i * 11 + 9] << 8 | f[20 + i * 11 + 10];
      if (n != *next) {
        CHECK_EQ(n, *next);
        return p;
      }
      (*next)++;
    }
    (*frames)++;
    p += h + l;
  }
  return p; /* bytes consumed */
}

static void test_a_slow_client_does_not_hold_up_a_fast_one(void) {
  int fast[2], slow[2];
  CHECK(socketpair(AF_UNIX, SOCK_STREAM, 0, fast) == 0);
  CHECK(socketpair(AF_UNIX, SOCK_STREAM, 0, slow) == 0);
  int small = 4096;
  setsockopt(slow[0], SOL_SOCKET, SO_SNDBUF, &small, sizeof small);
  setsockopt(slow[1], SOL_SOCKET, SO_RCVBUF, &small, sizeof small);
  static uint8_t store_fast[8192], store_slow[8192];
  tessera_wsq_t qf, qs;
  uint32_t t = now_ms();
  tessera_wsq_init(&qf, store_fast, sizeof store_fast, t);
  tessera_wsq_init(&qs, store_slow, sizeof store_slow, t);
  static uint8_t received[4 << 20];
  uint32_t got = 0, used = 0, next = 0, frames = 0, record = 0;
  int slow_open = 1, slow_full = 0, worst_ms = 0;
  for (int round = 0; round < 400; round++) {
    uint8_t f[2048];
    uint32_t len = batch(f, record, 40); /* a mirror batch every "34 ms" */
    record += 40;
    uint32_t now = now_ms();
    CHECK(tessera_wsq_push(&qf, TESSERA_WS_BINARY, f, len, now) >= 0);
    if (slow_open) {
      int r = tessera_wsq_push(&qs, TESSERA_WS_BINARY, f, len, now);
      if (r == TESSERA_WSQ_FULL || tessera_wsq_stalled(&qs, now, 5000)) {
        slow_full = r == TESSERA_WSQ_FULL;
        tessera_wsq_close(&qs, 1008, now); /* behind: the port closes it */
      }
    }
    uint32_t t0 = now_ms();
    CHECK_EQ(tessera_wsq_flush(&qf, write_fd, &fast[0], now), TESSERA_WSQ_IDLE);
    if (slow_open) {
      int r = tessera_wsq_flush(&qs, write_fd, &slow[0], now);
      if (r == TESSERA_WSQ_DONE || r == TESSERA_WSQ_ERROR) slow_open = 0;
    }
    int took = (int)(now_ms() - t0);
    if (took > worst_ms) worst_ms = took;
    int n; /* the fast client reads everything there is */
    while ((n = tessera_recv_within(fast[1], received + got, sizeof received - got, 0)) > 0) got += (uint32_t)n;
    used += parse(received + used, got - used, &next, &frames);
  }
  CHECK_EQ(next, record); /* every record, in order */
  CHECK_EQ(frames, 400);
  CHECK(slow_full);     /* the slow client's queue filled up... */
  CHECK(qs.merged > 5); /* ...after merging batches once it was half full... */
  CHECK(qs.closing);    /* ...and it is being closed: its close frame waits behind a full socket, */
  CHECK(slow_open && tessera_wsq_stalled(&qs, now_ms() + 5000, 5000)); /* so the port drops it after 5 s */
  CHECK(worst_ms < 50);                                                /* no flush ever waited for a socket */
  printf("  slow client: %u batches merged, closed after %u frames accepted; worst flush %d ms\n", qs.merged, qs.frames,
         worst_ms);
  close(fast[0]);
  close(fast[1]);
  close(slow[0]);
  close(slow[1]);
}

int main(void) {
  RUN(test_a_slow_client_does_not_hold_up_a_fast_one);
  return check_summary("test_ws_clients");
}
