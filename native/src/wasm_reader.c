/* wasm_reader.c: reading a WebAssembly module's binary, bounded (tessera_wasm_reader.h). */
#include "tessera_wasm_reader.h"

#include <string.h>

int tessera_wasm_module(tessera_wasm_reader_t *r, const uint8_t *bytes, size_t len) {
  static const uint8_t header[8] = {0, 'a', 's', 'm', 1, 0, 0, 0};
  if (len < sizeof header || memcmp(bytes, header, sizeof header) != 0) return 0;
  *r = (tessera_wasm_reader_t){bytes + sizeof header, bytes + len, 0};
  return 1;
}

uint32_t tessera_wasm_byte(tessera_wasm_reader_t *r) {
  if (r->p >= r->end) {
    r->bad = 1;
    return 0;
  }
  return *r->p++;
}

uint32_t tessera_wasm_u32(tessera_wasm_reader_t *r) {
  uint32_t v = 0;
  for (int shift = 0; shift < 35; shift += 7) {
    uint32_t b = tessera_wasm_byte(r);
    if (r->bad) return 0;
    v |= (b & 0x7f) << shift;
    if (!(b & 0x80)) return v;
  }
  r->bad = 1;
  return 0;
}

int32_t tessera_wasm_s32(tessera_wasm_reader_t *r) {
  uint32_t v = 0;
  for (int shift = 0; shift < 35;) {
    uint32_t b = tessera_wasm_byte(r);
    if (r->bad) return 0;
    v |= (b & 0x7f) << shift;
    shift += 7;
    if (!(b & 0x80)) {
      if (shift < 32 && (b & 0x40)) v |= ~0u << shift;
      return (int32_t)v;
    }
  }
  r->bad = 1;
  return 0;
}

uint32_t tessera_wasm_name(tessera_wasm_reader_t *r, const char **s) {
  uint32_t n = tessera_wasm_u32(r);
  if (r->bad || n > (uint32_t)(r->end - r->p)) {
    r->bad = 1;
    return 0;
  }
  *s = (const char *)r->p;
  r->p += n;
  return n;
}

int tessera_wasm_section(tessera_wasm_reader_t *r, uint32_t *id, tessera_wasm_reader_t *payload) {
  if (r->bad || r->p >= r->end) return 0;
  *id = tessera_wasm_byte(r);
  uint32_t size = tessera_wasm_u32(r);
  if (r->bad || size > (uint32_t)(r->end - r->p)) {
    r->bad = 1;
    return 0;
  }
  *payload = (tessera_wasm_reader_t){r->p, r->p + size, 0};
  r->p += size;
  return 1;
}
