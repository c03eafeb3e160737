/*
 * tessera_wamr.h: the WAMR runtime adapter's own parts: what runtime.c can tell about its memory, for the
 * bench (native/port/bench), and the classic interpreter's RAM image (ram_image.c). Not part of
 * tessera_runtime.h: only the WAMR adapter has them.
 */
#ifndef TESSERA_WAMR_H
#define TESSERA_WAMR_H

#include <stddef.h>
#include <stdint.h>

typedef struct {
  /* What the last tessera_rt_load took from WAMR's allocator, step by step (pool or counted builds). */
  uint32_t image_copy; /* the classic interpreter's RAM image (ram_image.c; the whole image if not split) */
  int image_split;     /* 1: the RAM image left the data segments in flash (ram_image.c) */
  uint32_t module;     /* wasm_runtime_load_ex */
  uint32_t instance;   /* wasm_runtime_instantiate (globals, tables, functions; linear memory is os_mmap) */
  uint32_t exec_env;   /* wasm_runtime_create_exec_env: the one execution stack */
  /* The pool now (pool != 0 when WAMR runs with Alloc_With_Pool, TESSERA_WAMR_POOL_BYTES). */
  int pool;
  uint32_t pool_total, pool_used, pool_highmark;
  /* The counting allocator (counted != 0, TESSERA_WAMR_COUNT_ALLOC): bytes WAMR holds now and at most. */
  int counted;
  uint32_t live, peak;
  uint32_t blocks;     /* allocations WAMR holds now (each costs the device's allocator a header) */
  uint32_t stack_size; /* the exec env's wasm stack */
  uint32_t stack_used; /* the most of it written so far (counted builds: the stack is painted) */
  int fast_interp;     /* built for the fast interpreter (TESSERA_WAMR_FAST_INTERP) */
} tessera_wamr_stats_t;

/* Fills *out; 0 when the runtime is not initialised. */
int tessera_wamr_stats(tessera_wamr_stats_t *out);

/* ---- Where the core's blocks live (a build with TESSERA_WAMR_PORT_HEAP=1: the device) ----
 * WAMR takes every block through the adapter's allocator hooks (Alloc_With_Allocator), and linear
 * memory too when WAMR is built with WAMR_BUILD_ALLOC_WITH_USAGE=1 (its Alloc_For_LinearMemory usage;
 * without it, WAMR's os_mmap takes it from the heap wherever the heap likes); TESSERA_WAMR_PORT_HEAP
 * means both. The adapter knows which block each allocation is for and asks the port, whose table says
 * which memory (native/port/esp32/wamr_heap.c: PSRAM on the large variant, internal on the small one). */
typedef enum {
  TESSERA_WAMR_RUNTIME,       /* WAMR's own: its start-up, the imports' table, anything during a call */
  TESSERA_WAMR_IMAGE,         /* the classic interpreter's RAM image (or its whole copy) */
  TESSERA_WAMR_MODULE,        /* wasm_runtime_load_ex */
  TESSERA_WAMR_INSTANCE,      /* wasm_runtime_instantiate, but its linear memory */
  TESSERA_WAMR_LINEAR_MEMORY, /* one page, zeroed; never grown */
  TESSERA_WAMR_EXEC_ENV,      /* the exec env and its wasm stack */
  TESSERA_WAMR_BLOCKS
} tessera_wamr_block_t;
/* The port's side. port_wamr_heap_check: NULL when its memory can hold the core's blocks, else why not
 * (the adapter logs it and the core does not start). port_wamr_malloc: a block for `block`, 8-aligned,
 * zeroed for linear memory. port_wamr_realloc: grows or shrinks it in the same memory (NULL: refused). */
const char *port_wamr_heap_check(void);
void *port_wamr_malloc(tessera_wamr_block_t block, uint32_t size);
void *port_wamr_realloc(tessera_wamr_block_t block, void *p, uint32_t size);
void port_wamr_free(void *p);

/* The classic interpreter's RAM image (ram_image.c): the image without its data, start and custom
 * sections, the start function exported under this name instead. */
#define TESSERA_RAM_IMAGE_START "tessera.start"
typedef struct {
  uint32_t data_at, data_len; /* the data section's payload in the image (data_len 0: none) */
  int64_t start;              /* the start function's index, or -1 */
} tessera_ram_image_t;
/* The RAM image's size, or 0 when this image is not one to split (then load it whole). */
uint32_t tessera_ram_image_plan(const uint8_t *bytes, uint32_t len, tessera_ram_image_t *plan);
/* Writes the RAM image (tessera_ram_image_plan's size) into out. */
void tessera_ram_image_write(const uint8_t *bytes, uint32_t len, const tessera_ram_image_t *plan, uint8_t *out);
/* Copies the image's data segments into linear memory (memory, size bytes); -1 when one does not fit. */
int tessera_ram_image_init_memory(const uint8_t *bytes, const tessera_ram_image_t *plan, uint8_t *memory, size_t size);

#endif /* TESSERA_WAMR_H */
