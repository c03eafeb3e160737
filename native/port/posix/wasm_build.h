/* wasm_build.h: a WebAssembly module made into a shared object at run time with this build's wasm2c
 * and C compiler (the panel loader's flashed images, the core loader's self-updates). */
#ifndef TESSERA_WASM_BUILD_H
#define TESSERA_WASM_BUILD_H

#include <stdint.h>

/* Translates wasm[0..len) with wasm2c as module `name` and compiles the translation with `glue` (a C
 * file that includes "<name>.h") and wasm-rt into the shared object `so`, through a scratch folder
 * under `dir`; `flags` (NULL-ended) are added to the compiler's. NULL, or the step that failed. */
const char *wasm_build_so(const char *dir, const uint8_t *wasm, uint32_t len, const char *name, const char *glue,
                          const char *const *flags, const char *so);

/* Loads the shared object `so` and calls its entry `symbol` (a function without arguments returning a
 * pointer): that pointer, or NULL with *failed saying why (an object that does not load is removed, so
 * that the next attempt builds it afresh). */
const void *wasm_so_entry(const char *so, const char *symbol, const char **failed);

/* Writes file whole (created or replaced): 0, or -1. */
int posix_write_file(const char *file, const uint8_t *bytes, uint32_t len);

#endif
