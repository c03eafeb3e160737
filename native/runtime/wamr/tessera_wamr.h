/*
 * tessera_wamr.h: what the WAMR runtime adapter (runtime.c) can tell about its memory, for the bench
 * (native/port/bench). Not part of tessera_runtime.h: only the WAMR adapter has it.
 */
#ifndef TESSERA_WAMR_H
#define TESSERA_WAMR_H

#include <stdint.h>

typedef struct {
  /* What the last tessera_rt_load took from WAMR's allocator, step by step (pool or counted builds). */
  uint32_t image_copy; /* the private copy of the image (classic interpreter; 0 under fast) */
  uint32_t module;     /* wasm_runtime_load_ex */
  uint32_t instance;   /* wasm_runtime_instantiate (globals, tables, functions; linear memory is os_mmap) */
  uint32_t exec_env;   /* wasm_runtime_create_exec_env: the one execution stack */
  /* The pool now (pool != 0 when WAMR runs with Alloc_With_Pool, TESSERA_WAMR_POOL_BYTES). */
  int pool;
  uint32_t pool_total, pool_used, pool_highmark;
  /* The counting allocator (counted != 0, TESSERA_WAMR_COUNT_ALLOC): bytes WAMR holds now and at most. */
  int counted;
  uint32_t live, peak;
  int fast_interp; /* built for the fast interpreter (TESSERA_WAMR_FAST_INTERP) */
} tessera_wamr_stats_t;

/* Fills *out; 0 when the runtime is not initialised. */
int tessera_wamr_stats(tessera_wamr_stats_t *out);

#endif /* TESSERA_WAMR_H */
