/*
 * core_module.h: one wasm2c translation of a core image behind a table of functions, so the wasm2c
 * host can run another image than the one compiled into it: the build's controller.wasm, translated
 * at build time (core_builtin), or a self-update's image, translated and compiled into a shared object
 * at run time (port/posix/core_loader.c). Both are core_module.c compiled against their own translation;
 * runtime.c runs the one selected.
 */
#ifndef TESSERA_CORE_MODULE_H
#define TESSERA_CORE_MODULE_H

#include <stddef.h>
#include <stdint.h>

/* Bumped whenever this table changes: a shared object built for another is not loaded. */
#define CORE_MODULE_ABI 1
/* The one symbol a shared object exports: const core_module_t *tessera_core_module(void). */
#define CORE_MODULE_SYMBOL "tessera_core_module"

typedef struct {
  uint32_t abi;
  uint32_t build_id; /* the image's build identifier (tessera_rt_build_id) */
  /* A fresh instance, or NULL with *trap saying why (its start trapped, or no memory). */
  void *(*create)(const char **trap);
  void (*destroy)(void *instance);
  /* Its linear memory and that memory's size. */
  uint8_t *(*memory)(void *instance, size_t *size);
  /* Runs export f (tessera_core_exports.h: F_INIT ... F_MDNS_DONE) with its i32 arguments: its result
   * (0 when it has none), or 0 with *trap saying why when it trapped (the instance is then unusable). */
  uint32_t (*call)(void *instance, int f, const uint32_t *args, const char **trap);
} core_module_t;

/* The build's core, compiled in. */
const core_module_t *core_builtin(void);

/* runtime.c: the module tessera_rt_load instantiates from now on (NULL: the built-in one); returns the
 * one selected before. */
const core_module_t *tessera_rt_select(const core_module_t *module);

#endif
