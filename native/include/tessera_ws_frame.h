/*
 * tessera_ws_frame.h: the pure parts of the POSIX server's WebSocket (RFC 6455; native/src/ws_frame.c):
 * the handshake's key and accept value, a client frame's head and the rules it must keep, a close
 * frame's answer, and UTF-8 for text. The connection's state (reassembly, queues, deadlines) is the
 * server's (native/port/posix/server.c).
 */
#ifndef TESSERA_WS_FRAME_H
#define TESSERA_WS_FRAME_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#define TESSERA_WS_CLOSE_PROTOCOL 1002
#define TESSERA_WS_CLOSE_NOT_UTF8 1007
#define TESSERA_WS_CLOSE_TOO_BIG 1009

/* A Sec-WebSocket-Key: 16 bytes in base64 (RFC 6455 4.1). */
int tessera_ws_key_valid(const char *key);

/* Sec-WebSocket-Accept for `key` (RFC 6455 4.2.2): 28 characters and a NUL. */
void tessera_ws_accept(const char *key, char out[29]);

typedef struct {
  int fin, rsv, opcode, masked;
  uint64_t len;    /* the payload's */
  uint8_t mask[4]; /* as sent (meaningless when not masked) */
  size_t head_len; /* bytes of the head, mask included */
} tessera_ws_head_t;

/* A client frame's head at the start of p[0..n): its length once its bytes (and four for a mask, sent
 * or not) have arrived, else 0. */
size_t tessera_ws_read_head(const uint8_t *p, size_t n, tessera_ws_head_t *f);

/* The close code a frame with head `f` earns (0: none), with the message being reassembled of opcode
 * msg_op (0: none) and msg_len bytes so far: 1002 for a reserved bit, an unknown opcode, no mask, a
 * length past 2^63, a fragmented or long control frame, or a continuation that continues nothing or a
 * new message inside one; 1009 for a message past `cap`. */
uint16_t tessera_ws_check_head(const tessera_ws_head_t *f, int msg_op, size_t msg_len, size_t cap);

/* The code a client's close frame (its payload) is answered with: 1000 for none, the client's own when
 * valid, 1002 for an invalid one (or one byte), 1007 for a reason that is not UTF-8. */
uint16_t tessera_ws_close_answer(const uint8_t *payload, size_t len);

/* 1 when s[0..n) is UTF-8 (RFC 3629: shortest forms, no surrogates, at most U+10FFFF). */
int tessera_utf8_valid(const uint8_t *s, size_t n);

#ifdef __cplusplus
}
#endif

#endif /* TESSERA_WS_FRAME_H */
