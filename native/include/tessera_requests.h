/*
 * tessera_requests.h: the table of pending HTTP requests, shared by every port (native/src/requests.c).
 * It implements port_http_head/body/end of tessera_port.h, in one of two ways the port chooses:
 * - collected (tessera_requests_init: the POSIX port): the answer is kept here whole (up to a cap) until
 *   the port's request handler takes it and writes it out, which may be later than the tessera_http call
 *   (a live panel query is answered from the main loop);
 * - streamed (tessera_requests_init_streamed: the ESP32 port): each slot has a small fixed ring that the
 *   port's sender (another thread) drains while the core writes, so no answer is ever held whole. When
 *   the ring is full the core's thread waits for room, a bounded time in all per answer (the port's
 *   budget); past it the answer is cut and the sender closes the connection.
 * Every function is called with the host's core lock held, except the sender's side of a streamed
 * answer (tessera_answer_*), which never takes it: the core's thread may hold the lock while it waits
 * for the sender.
 */
#ifndef TESSERA_REQUESTS_H
#define TESSERA_REQUESTS_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* One slot; the port owns the array (its size is the port's limit of requests in flight). */
typedef struct {
  int used, has_head, done;
  uint32_t id, status;
  int32_t length;  /* -1: chunked */
  uint8_t *buf;    /* collected: the body so far (malloc'd, grown by doubling up to the answer cap);
                     streamed: the slot's ring (the port's, cap bytes) */
  size_t len, cap; /* len: collected only (a streamed answer counts in put) */
  /* Streamed: bytes written into the ring and taken out of it (both only grow), and TESSERA_ANSWER_*
   * flags, shared with the sender without the lock (GCC's __atomic builtins: no header, any target;
   * on the ESP32-C3, which has no atomic instructions, ESP-IDF's newlib/stdatomic.c supplies the
   * read-modify-write ones). */
  uint32_t put, got, flags;
  uint32_t wait_left_us; /* streamed: what is left of the answer's budget for waiting on the sender */
} tessera_request_t;

/* A streamed answer's state (tessera_answer_flags): HEAD, status and length are set; DONE, the core
 * ended the answer (put is final); CUT, bytes were dropped (the sender did not keep up, or the core
 * restarted after the head): the answer is incomplete, close the connection; GAVE_UP, the sender
 * stopped taking: the core's thread no longer waits. */
#define TESSERA_ANSWER_HEAD 1u
#define TESSERA_ANSWER_DONE 2u
#define TESSERA_ANSWER_CUT 4u
#define TESSERA_ANSWER_GAVE_UP 8u

/* What the core answered. body is malloc'd (or NULL): the caller frees it. */
typedef struct {
  uint32_t status;
  int32_t length;
  uint8_t *body;
  size_t len;
} tessera_answer_t;

/* Uses slots[0..count) for requests in flight; answers are cut at answer_cap bytes. `answered` (may
 * be NULL) is called, lock held, when a request is ended, so that a waiting handler wakes up. */
void tessera_requests_init(tessera_request_t *slots, uint32_t count, size_t answer_cap, void (*answered)(void));

/* Streamed answers: slot i's ring is rings + i * ring_cap. wake(i) is called (lock held) when slot i
 * has something new for its sender (a head, bytes, the end); wait_room(i, ms) when the core's thread needs
 * room in slot i's ring: it waits until the sender took something, at most ms. The core's thread waits
 * at most wait_ms in all per answer (measured with port_clock_us); past that the rest of the answer is
 * dropped (CUT), so a slow client holds up the core, and everyone else, for wait_ms at most. */
void tessera_requests_init_streamed(tessera_request_t *slots, uint32_t count, uint8_t *rings, uint32_t ring_cap,
                                    void (*wake)(uint32_t slot), void (*wait_room)(uint32_t slot, uint32_t ms),
                                    uint32_t wait_ms);

/* A new request id (never 0), or 0 when every slot is in use (answer 503 busy). With slot not NULL,
 * *slot is the request's slot (one of the port's array: its index is *slot - slots), the caller's until
 * tessera_request_take: a streamed answer's sender reads it. */
uint32_t tessera_request_open(tessera_request_t **slot);

/* 1 once the core has ended the request (or it is unknown), 0 while it is pending. */
int tessera_request_done(uint32_t id);

/* Frees the slot. Returns 1 with the answer in *out when the core answered (head and end seen);
 * 0 otherwise (answer 500 internal_error), with nothing to free. */
int tessera_request_take(uint32_t id, tessera_answer_t *out);

/* The core restarted: every pending request is answered 500 internal_error (a streamed answer whose
 * head has gone out is CUT instead). */
void tessera_requests_fail_all(void);

/* ---- The sender's side of a streamed answer (any thread, lock not needed) ------------------------- */
/* TESSERA_ANSWER_* flags; once HEAD is seen, r->status and r->length are valid. */
uint32_t tessera_answer_flags(const tessera_request_t *r);
/* The next bytes of the answer, contiguous in the ring: a pointer through *data and their count (0:
 * nothing yet, or the end when DONE). */
uint32_t tessera_answer_peek(const tessera_request_t *r, const uint8_t **data);
/* n bytes of the peek went out: their room is free (the port then wakes the core's thread). */
void tessera_answer_taken(tessera_request_t *r, uint32_t n);
/* The sender stops taking (its client is gone or too slow): the core's thread drops the rest. */
void tessera_answer_give_up(tessera_request_t *r);

/* The port's way out for a streamed answer (its sockets or server library), for tessera_answer_send.
 * Each returns 0 when the bytes went out, -1 when they did not (the answer is given up). */
typedef struct {
  void *ctx;
  int head_only; /* HEAD: the head alone, the core's body is dropped */
  /* The status line and headers with Content-Length: len, then the body (a short answer, whole). */
  int (*whole)(void *ctx, uint32_t status, const uint8_t *body, uint32_t len);
  /* One chunk of a chunked answer (the first sends the head); len 0: the last chunk. */
  int (*chunk)(void *ctx, uint32_t status, const uint8_t *data, uint32_t len);
  /* HEAD: the head alone (length -1: chunked). */
  int (*head)(void *ctx, uint32_t status, int32_t length);
  /* Bytes were taken out of the ring: wake the core's thread if it waits for room. */
  void (*took)(void *ctx);
  int started, finished, failed; /* the head went out; the whole answer did; it will not (close) */
} tessera_sender_t;

/* Sends what the core has written so far, as far as it can go now: a short answer with its length
 * (up to the ring's size) whole once the core ended it; any other answer chunked as it comes; for
 * HEAD the head alone. Returns 1 once the answer is finished or failed (then s->failed says which),
 * 0 while more is to come. */
int tessera_answer_send(tessera_request_t *r, tessera_sender_t *s);

#ifdef __cplusplus
}
#endif

#endif /* TESSERA_REQUESTS_H */
