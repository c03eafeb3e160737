/* image.c: the core's bytes for interpreter runtimes (WAMR), read once from TESSERA_CORE_WASM. */
#include <stdio.h>
#include <stdlib.h>

#include "tessera_port.h"

#ifndef TESSERA_CORE_WASM
#define TESSERA_CORE_WASM "build/controller.wasm"
#endif

const uint8_t *port_core_image(uint32_t *len) {
  static uint8_t *bytes;
  static uint32_t size;
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
