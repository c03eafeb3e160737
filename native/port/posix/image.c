/* image.c: the core's bytes for interpreter runtimes (WAMR, wasm3): read once from TESSERA_CORE_WASM, or
 * the image a self-update (or the data directory at start) put in their place (posix_core_image_set). */
#include <stdio.h>
#include <stdlib.h>

#include "posix.h"
#include "tessera_port.h"

#ifndef TESSERA_CORE_WASM
#define TESSERA_CORE_WASM "build/controller.wasm"
#endif

static uint8_t *bytes;
static uint32_t size;

const uint8_t *port_core_image(uint32_t *len) {
  if (!bytes) {
    FILE *f = fopen(TESSERA_CORE_WASM, "rb");
    if (!f) return NULL;
    fseek(f, 0, SEEK_END);
    long n = ftell(f);
    fseek(f, 0, SEEK_SET);
    if (n <= 0 || n > (1 << 24) || !(bytes = malloc((size_t)n))) {
      fclose(f);
      return NULL;
    }
    size = (uint32_t)fread(bytes, 1, (size_t)n, f);
    fclose(f);
  }
  *len = size;
  return bytes;
}

int posix_core_prepare(const char *dir, const uint8_t *image, uint32_t len, int at_start, char *why, size_t cap) {
  (void)dir, (void)image, (void)len, (void)at_start, (void)why, (void)cap;
  return 0; /* an interpreter loads the bytes as they are */
}

uint8_t *posix_core_image_set(uint8_t *image, uint32_t len, uint32_t *old_len) {
  uint8_t *old = bytes;
  *old_len = size;
  bytes = image;
  size = len;
  return old;
}
