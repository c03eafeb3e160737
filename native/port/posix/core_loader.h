/* core_loader.h: a core image run by the wasm2c host (core_loader.c). */
#ifndef TESSERA_CORE_LOADER_H
#define TESSERA_CORE_LOADER_H

#include <stddef.h>
#include <stdint.h>

#include "core_module.h"

/* The module that runs the core image wasm[0..len) (checked against the host ABI by the caller): its
 * shared object, made with wasm2c and the C compiler and cached under <dir>/.core (prune_others: the
 * others there are removed once it loads). NULL with `why` when it cannot be made or loaded. Takes
 * seconds the first time: call it without the core lock. */
const core_module_t *core_load(const char *dir, const uint8_t *wasm, uint32_t len, int prune_others, char *why,
                               size_t cap);

#endif
