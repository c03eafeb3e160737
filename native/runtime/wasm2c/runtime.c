/*
 * runtime.c: the wasm2c runtime adapter (tessera_runtime.h). build/controller.wasm is translated
 * to C at build time (controller.c/.h in the build directory, module name "controller") and linked
 * with wabt's wasm-rt. Every export call runs under wasm_rt_impl_try so a trap returns here.
 */
#include <string.h>

#include "controller.h"
#include "controller_build_id.h" /* TESSERA_CORE_BUILD_ID, made from controller.wasm (CMakeLists.txt) */
#include "tessera_host.h"
#include "tessera_host_imports.h"
#include "tessera_runtime.h"
#include "wasm-rt-impl.h"

/* The import context wasm2c passes to every import: the host keeps its state elsewhere. */
struct Z_t_instance_t {
  int unused;
};

static struct Z_t_instance_t context;
static Z_controller_instance_t core;
static int loaded;
static int module_ready;
static int allocated;
static const char *trap_reason;

static void trapped(wasm_rt_trap_t code) {
  trap_reason = wasm_rt_strerror(code);
  loaded = 0; /* the instance is unusable until reloaded */
}

int tessera_rt_load(void) {
  if (!wasm_rt_is_initialized()) wasm_rt_init();
  if (!module_ready) {
    Z_controller_init_module();
    module_ready = 1;
  }
  if (allocated) Z_controller_free(&core);
  allocated = 0;
  loaded = 0;
  wasm_rt_trap_t code = wasm_rt_impl_try();
  if (code != WASM_RT_TRAP_NONE) {
    trapped(code);
    return -1;
  }
  Z_controller_instantiate(&core, &context);
  allocated = 1;
  loaded = 1;
  return 0;
}

uint8_t *tessera_rt_mem(uint32_t ptr, uint32_t len) {
  if (!allocated) return NULL;
  wasm_rt_memory_t *m = Z_controllerZ_memory(&core);
  if ((uint64_t)ptr + len > m->size) return NULL;
  return m->data + ptr;
}

size_t tessera_rt_mem_size(void) { return allocated ? Z_controllerZ_memory(&core)->size : 0; }

const char *tessera_rt_take_trap(void) {
  const char *r = trap_reason;
  trap_reason = NULL;
  return r;
}

/* Runs one export; on a trap records it and returns `fallback` from the enclosing function. */
#define GUARDED(fallback, call)                          \
  do {                                                   \
    if (!loaded) {                                       \
      if (!trap_reason) trap_reason = "core not loaded"; \
      return fallback;                                   \
    }                                                    \
    wasm_rt_trap_t code_ = wasm_rt_impl_try();           \
    if (code_ != WASM_RT_TRAP_NONE) {                    \
      trapped(code_);                                    \
      return fallback;                                   \
    }                                                    \
    call;                                                \
  } while (0)

void core_init(uint32_t max_panels, uint32_t build) { GUARDED(, Z_controllerZ_init(&core, max_panels, build)); }

uint32_t tessera_rt_build_id(void) { return TESSERA_CORE_BUILD_ID; }
uint32_t core_tick(void) { GUARDED(10, return Z_controllerZ_tick(&core)); }
uint32_t core_rx_buffer(uint32_t len) { GUARDED(0, return Z_controllerZ_rx_buffer(&core, len)); }
uint32_t core_http_begin(uint32_t req, uint32_t method, uint32_t url_len, uint32_t body_len) {
  GUARDED(0, return Z_controllerZ_http_begin(&core, req, method, url_len, body_len));
}
uint32_t core_http_allow(uint32_t req, uint32_t host_len, uint32_t origin_len) {
  GUARDED(0, return Z_controllerZ_http_allow(&core, req, host_len, origin_len));
}
void core_http_dispatch(uint32_t req) { GUARDED(, Z_controllerZ_http_dispatch(&core, req)); }
uint32_t core_ws_open(uint32_t conn) { GUARDED(0, return Z_controllerZ_ws_open(&core, conn)); }
void core_ws_frame(uint32_t conn, uint32_t len) { GUARDED(, Z_controllerZ_ws_frame(&core, conn, len)); }
void core_ws_close(uint32_t conn) { GUARDED(, Z_controllerZ_ws_close(&core, conn)); }
void core_bus_receive(uint32_t len) { GUARDED(, Z_controllerZ_bus_receive(&core, len)); }
void core_mqtt_event(uint32_t kind, uint32_t reason) { GUARDED(, Z_controllerZ_mqtt_event(&core, kind, reason)); }
void core_mqtt_message(uint32_t topic_len, uint32_t payload_len) {
  GUARDED(, Z_controllerZ_mqtt_message(&core, topic_len, payload_len));
}
void core_mdns_result(uint32_t host_len, uint32_t port) { GUARDED(, Z_controllerZ_mdns_result(&core, host_len, port)); }
void core_mdns_done(void) { GUARDED(, Z_controllerZ_mdns_done(&core)); }
void core_serial_receive(uint32_t len) { GUARDED(, Z_controllerZ_serial_receive(&core, len)); }
void core_datagram(uint32_t kind, uint32_t source, uint32_t len) {
  GUARDED(, Z_controllerZ_datagram(&core, kind, source, len));
}

/* ---- Imports: wasm2c's names for module "t", forwarded to native/src/abi.c, one a line of
 * tessera_host_imports.h. ---------------------------------------------------------------------------- */
typedef struct Z_t_instance_t ctx_t;

#define RESULT_v void
#define RESULT_i u32
#define RETURN_v
#define RETURN_i return (u32)
#define IMPORT(name, result, arity)                                          \
  RESULT_##result Z_tZ_##name(ctx_t *c TESSERA_IMPORT_PARAMS_##arity(u32)) { \
    (void)c;                                                                 \
    RETURN_##result host_##name(TESSERA_IMPORT_ARGS_##arity);                \
  }
TESSERA_HOST_IMPORTS(IMPORT)
#undef IMPORT
