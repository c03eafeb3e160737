/*
 * count_alloc.c: wasm3's m3_core.c (its allocator, m3_Malloc and friends, among the rest) built with
 * calloc, realloc and free replaced by runtime.c's counting ones: the bench's allocator
 * (TESSERA_WASM3_COUNT_ALLOC), exact bytes and peak of everything wasm3 holds, linear memory included.
 * CMake compiles this instead of m3_core.c; the libc headers come first, so only m3_core.c's calls change.
 */
#include <assert.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void *tessera_m3_calloc(size_t n, size_t size);
void *tessera_m3_realloc(void *p, size_t size);
void tessera_m3_free(void *p);

#define calloc tessera_m3_calloc
#define realloc tessera_m3_realloc
#define free tessera_m3_free
#include "m3_core.c"
