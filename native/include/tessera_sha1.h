/*
 * tessera_sha1.h: SHA-1 (RFC 3174) for the WebSocket handshake's Sec-WebSocket-Accept (RFC 6455
 * 4.2.2; native/src/sha1.c), where the platform has none of its own (the POSIX port). Not a security
 * measure here: the handshake only proves the server read the key.
 */
#ifndef TESSERA_SHA1_H
#define TESSERA_SHA1_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

void tessera_sha1(const uint8_t *data, size_t len, uint8_t out[20]);

#ifdef __cplusplus
}
#endif

#endif /* TESSERA_SHA1_H */
