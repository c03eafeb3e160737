/*
 * host_stubs.c: the core's imports (tessera_host_imports.h) as functions that do nothing, for a C unit test
 * that loads the core without calling into it (test_wamr_heap.c): the adapter registers them, nothing calls
 * them. Every parameter is a wasm i32, so each is a uint32_t here; tessera_host.h, which types some of
 * them signed, is left out of this file for that.
 */
#include <stdint.h>

#include "tessera_host_imports.h"

#define STUB_PARAMS_0 void
#define STUB_PARAMS_1 uint32_t a0
#define STUB_PARAMS_2 STUB_PARAMS_1, uint32_t a1
#define STUB_PARAMS_3 STUB_PARAMS_2, uint32_t a2
#define STUB_PARAMS_4 STUB_PARAMS_3, uint32_t a3
#define STUB_PARAMS_5 STUB_PARAMS_4, uint32_t a4
#define STUB_v(name, arity)              \
  void host_##name(STUB_PARAMS_##arity); \
  void host_##name(STUB_PARAMS_##arity) {}
#define STUB_i(name, arity)                  \
  uint32_t host_##name(STUB_PARAMS_##arity); \
  uint32_t host_##name(STUB_PARAMS_##arity) { return 0; }
#define STUB(name, result, arity) STUB_##result(name, arity)
#pragma GCC diagnostic ignored "-Wunused-parameter"
TESSERA_HOST_IMPORTS(STUB)
