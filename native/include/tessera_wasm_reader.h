/*
 * tessera_wasm_reader.h: reading a WebAssembly module's binary (native/src/wasm_reader.c), shared by the
 * check of a core image (native/src/image.c) and the WAMR adapter's RAM image (runtime/wamr/ram_image.c).
 * Every read is bounded by the reader's end; a read past it, or a malformed number, sets bad and returns 0,
 * so a caller checks bad once after a run of reads.
 */
#ifndef TESSERA_WASM_READER_H
#define TESSERA_WASM_READER_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef struct {
  const uint8_t *p, *end;
  int bad;
} tessera_wasm_reader_t;

/* 1 with *r just past the header when bytes[0..len) starts with the module header (version 1); 0 if not. */
int tessera_wasm_module(tessera_wasm_reader_t *r, const uint8_t *bytes, size_t len);
uint32_t tessera_wasm_byte(tessera_wasm_reader_t *r);
uint32_t tessera_wasm_u32(tessera_wasm_reader_t *r); /* unsigned LEB128, at most 5 bytes */
int32_t tessera_wasm_s32(tessera_wasm_reader_t *r);  /* signed LEB128, at most 5 bytes */
/* A name: *s (not NUL-terminated, inside the module) and its length. */
uint32_t tessera_wasm_name(tessera_wasm_reader_t *r, const char **s);
/* The next section: its id, and a reader over its payload (r moves past it). 0 at the end, or when the
 * section is cut short (then r->bad). */
int tessera_wasm_section(tessera_wasm_reader_t *r, uint32_t *id, tessera_wasm_reader_t *payload);

#ifdef __cplusplus
}
#endif

#endif /* TESSERA_WASM_READER_H */
