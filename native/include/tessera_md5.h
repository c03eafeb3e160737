/*
 * tessera_md5.h: MD5 (RFC 1321) for the self-update's digest check and the core image's build
 * identifier (native/src/md5.c), where the platform has none of its own (the POSIX port, the WAMR
 * adapter). MD5 here only detects damaged transfers and names builds; it is no security measure.
 */
#ifndef TESSERA_MD5_H
#define TESSERA_MD5_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef struct {
  uint32_t state[4];
  uint64_t length; /* bytes so far */
  uint8_t block[64];
} tessera_md5_t;

void tessera_md5_init(tessera_md5_t *m);
void tessera_md5_update(tessera_md5_t *m, const uint8_t *data, size_t len);
void tessera_md5_final(tessera_md5_t *m, uint8_t out[16]);

/* The build identifier of a core image: the first four bytes of its MD5, big-endian (docs/host-abi.md). */
uint32_t tessera_build_id(const uint8_t *image, size_t len);

#ifdef __cplusplus
}
#endif

#endif /* TESSERA_MD5_H */
