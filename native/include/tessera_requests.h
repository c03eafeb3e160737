/*
 * tessera_requests.h: the table of pending HTTP requests, shared by every port (native/src/requests.c).
 * It implements port_http_head/body/end of tessera_port.h: the core's answer to a request is collected
 * here (bounded) until the port's request handler takes it and writes it out, which may be later than
 * the tessera_http call (a live panel query is answered from the main loop).
 * Every function is called with the host's core lock held.
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
  int32_t length; /* -1: chunked */
  uint8_t *buf;   /* the body so far (malloc'd, grown by doubling up to the answer cap) */
  size_t len, cap;
} tessera_request_t;

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

/* A new request id (never 0), or 0 when every slot is in use (answer 503 busy). */
uint32_t tessera_request_open(void);

/* 1 once the core has ended the request (or it is unknown), 0 while it is pending. */
int tessera_request_done(uint32_t id);

/* Frees the slot. Returns 1 with the answer in *out when the core answered (head and end seen);
 * 0 otherwise (answer 500 internal_error), with nothing to free. */
int tessera_request_take(uint32_t id, tessera_answer_t *out);

/* The core restarted: every pending request is answered 500 internal_error. */
void tessera_requests_fail_all(void);

#ifdef __cplusplus
}
#endif

#endif /* TESSERA_REQUESTS_H */
