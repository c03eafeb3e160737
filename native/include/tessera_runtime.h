/*
 * tessera_runtime.h: the runtime interface of the portable C host.
 *
 * A runtime adapter (native/runtime/wasm2c, later WAMR) loads build/controller.wasm, calls its
 * exports and reaches its linear memory. It implements:
 *   - the core_* prototypes of tessera_host.h (each call runs the export; a trap inside it is caught,
 *     recorded and the call returns 0), and
 *   - the four functions below.
 * It forwards the core's imports to the host_* functions of tessera_host.h (native/src/abi.c).
 * Only one thread calls into the runtime at a time (the host holds its one lock).
 */
#ifndef TESSERA_RUNTIME_H
#define TESSERA_RUNTIME_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Instantiates the core afresh (dropping any previous instance). 0 on success, -1 on failure.
 * Does not call core_init: the host does. */
int tessera_rt_load(void);

/* The loaded image's build identifier for core_init: the first four bytes of its MD5, big-endian
 * (the WAMR adapter hashes the bytes it loaded; wasm2c's is computed from the .wasm at build time). */
uint32_t tessera_rt_build_id(void);

/* The host address of [ptr, ptr+len) in the core's linear memory, or NULL when out of bounds. */
uint8_t *tessera_rt_mem(uint32_t ptr, uint32_t len);

/* The current size of the core's linear memory in bytes (0 when not loaded). A pure query: like
 * tessera_rt_mem it never raises a trap in the instance. */
size_t tessera_rt_mem_size(void);

/* The reason of the trap that ended the last core_* call, or NULL when it returned normally.
 * Reading it clears it. After a trap the instance must be reloaded (tessera_rt_load). */
const char *tessera_rt_take_trap(void);

/* Not an import (abi.c): forgets the pieces of a frame or payload whose ending call never came (the
 * core trapped between them). driver.c calls it before the core is loaded again. */
void tessera_abi_drop_pieces(void);

#ifdef __cplusplus
}
#endif

#endif /* TESSERA_RUNTIME_H */
