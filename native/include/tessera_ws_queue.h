/*
 * tessera_ws_queue.h: a WebSocket connection's bounded send queue (native/src/ws_queue.c), for ports
 * whose sockets must never block the task that writes them (the ESP32 port: its core thread writes
 * with MSG_DONTWAIT). The port owns the storage (one buffer per connection, no allocation per frame)
 * and the lock; nothing here blocks or allocates.
 *
 * Frames wait in the buffer in order. A mirror batch (the core's MIRROR_BATCH frame, docs/bus-protocol.md)
 * queued behind another mirror batch that has not started going out is merged into it: one frame with
 * both batches' records, in order (records are idempotent state, so a slow client gets the same state in
 * fewer, larger frames). A frame that does not fit means the client stays behind: push answers
 * TESSERA_WSQ_FULL and the port closes the connection (tessera_wsq_close). The port also closes a client
 * whose queue has not moved for a while (tessera_wsq_stalled).
 */
#ifndef TESSERA_WS_QUEUE_H
#define TESSERA_WS_QUEUE_H

#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* WebSocket opcodes (RFC 6455 5.2) the queue sends. */
#define TESSERA_WS_BINARY 0x2
#define TESSERA_WS_CLOSE 0x8
#define TESSERA_WS_PING 0x9
#define TESSERA_WS_PONG 0xA

/* Bytes of bookkeeping per queued frame, on top of its payload. */
#define TESSERA_WSQ_ENTRY 4
/* The largest buffer a queue can use (frame lengths are kept in 16 bits). */
#define TESSERA_WSQ_MAX_CAP 65535u

enum {
  TESSERA_WSQ_QUEUED = 0, /* push: the frame waits in the queue */
  TESSERA_WSQ_MERGED = 1, /* push: the mirror batch joined the one waiting at the tail */
  TESSERA_WSQ_FULL = -1,  /* push: no room: the client stays behind, close it */
  TESSERA_WSQ_SHUT = -2,  /* push: the queue is closing, the frame is dropped */
};

enum {
  TESSERA_WSQ_IDLE = 0,    /* flush: nothing left to send */
  TESSERA_WSQ_PENDING = 1, /* flush: frames wait for the socket to take more */
  TESSERA_WSQ_DONE = 2,    /* flush: the close frame is out: close the socket */
  TESSERA_WSQ_ERROR = -1,  /* flush: the socket failed: close it */
};

typedef struct {
  uint8_t *buf;                   /* the port's storage, cap bytes */
  uint32_t cap;                   /* at most TESSERA_WSQ_MAX_CAP */
  uint32_t used;                  /* bytes of queued entries from buf[0] */
  uint32_t sent;                  /* bytes of the head frame (wire header + payload) already written */
  uint32_t progress_ms;           /* when the queue last moved (a byte written, or it became non-empty) */
  int closing;                    /* a close frame is queued: nothing more is accepted */
  uint32_t frames, merged, bytes; /* counters: frames accepted, mirror batches merged, bytes written */
} tessera_wsq_t;

/* Empties q and gives it buf (cap bytes, at most TESSERA_WSQ_MAX_CAP) to keep frames in. */
void tessera_wsq_init(tessera_wsq_t *q, uint8_t *buf, uint32_t cap, uint32_t now_ms);

/* Queues one frame with this opcode (TESSERA_WS_BINARY for the core's frames); see the results above. */
int tessera_wsq_push(tessera_wsq_t *q, uint8_t opcode, const uint8_t *data, uint32_t len, uint32_t now_ms);

/* Queues a close frame with this status code (RFC 6455 7.4) after what is already going out and drops
 * the frames that have not started, so the close always fits. Later pushes are dropped. */
void tessera_wsq_close(tessera_wsq_t *q, uint16_t code, uint32_t now_ms);

/* Writes bytes to the socket: returns how many it took (0 when it would block), or -1 on an error. */
typedef int (*tessera_wsq_write_fn)(void *ctx, const uint8_t *data, uint32_t len);

/* Writes as much of the queue as write takes now, each frame with its wire header (server frames are
 * unmasked). Returns TESSERA_WSQ_IDLE, _PENDING, _DONE or _ERROR (above). */
int tessera_wsq_flush(tessera_wsq_t *q, tessera_wsq_write_fn write, void *ctx, uint32_t now_ms);

/* 1 when frames have waited limit_ms or longer without a byte going out. */
int tessera_wsq_stalled(const tessera_wsq_t *q, uint32_t now_ms, uint32_t limit_ms);

/* The WebSocket wire header of an unmasked final frame (RFC 6455 5.2) into out; returns its length (2,
 * 4 or 10 bytes). */
uint32_t tessera_ws_header(uint8_t out[10], uint8_t opcode, uint32_t len);

#ifdef __cplusplus
}
#endif

#endif /* TESSERA_WS_QUEUE_H */
