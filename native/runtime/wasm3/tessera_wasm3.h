/*
 * tessera_wasm3.h: what the wasm3 runtime adapter (runtime.c) can tell about its memory, for the bench
 * (native/port/bench). Not part of tessera_runtime.h: only the wasm3 adapter has it.
 */
#ifndef TESSERA_WASM3_H
#define TESSERA_WASM3_H

#include <stdint.h>

typedef struct {
  /* What the last tessera_rt_load took from wasm3's allocator, step by step (counted builds). */
  uint32_t runtime;  /* m3_NewEnvironment + m3_NewRuntime: mostly the one wasm stack */
  uint32_t module;   /* m3_ParseModule: functions, types, names, segment descriptors (no copy of the code) */
  uint32_t instance; /* m3_LoadModule without linear memory: globals, the table */
  uint32_t linear;   /* linear memory at load (m3_LoadModule allocates it with the rest) */
  uint32_t code;     /* the imports linked and the exports compiled, the start function run: code pages */
  /* The counting allocator (counted != 0, TESSERA_WASM3_COUNT_ALLOC): bytes wasm3 holds now and at most,
   * linear memory included. */
  int counted;
  uint32_t live, peak;
} tessera_wasm3_stats_t;

/* Fills *out; 0 when no core is loaded. */
int tessera_wasm3_stats(tessera_wasm3_stats_t *out);

#endif /* TESSERA_WASM3_H */
