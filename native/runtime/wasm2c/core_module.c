/*
 * core_module.c: a wasm2c translation of a core image ("controller.h", module name "controller")
 * behind the table of core_module.h. Compiled into the host against build/controller.wasm
 * (core_builtin), and by port/posix/core_loader.c into the shared object it makes of a self-update's
 * image (CORE_MODULE_SHARED: every symbol hidden but tessera_core_module, so the object keeps its own
 * translation and wasm-rt; its imports call the host_* functions the host executable exports). Every
 * export call runs under wasm_rt_impl_try, in the module that may trap, so a trap returns here.
 */
#include <stdlib.h>

#include "controller.h"
#include "core_module.h"
#include "tessera_core_exports.h"
#include "tessera_host.h"
#include "tessera_host_imports.h"
#include "wasm-rt-impl.h"

#ifndef TESSERA_CORE_BUILD_ID /* a shared object is given its image's on the compiler's command line */
#include "controller_build_id.h"
#endif

#ifdef CORE_MODULE_SHARED
#define ENTRY __attribute__((visibility("default"))) const core_module_t *tessera_core_module(void)
#else
#define ENTRY const core_module_t *core_builtin(void)
#endif

/* The import context wasm2c passes to every import: the host keeps its state elsewhere. */
struct Z_t_instance_t {
  int unused;
};
static struct Z_t_instance_t context;

static void *create(const char **trap) {
  Z_controller_instance_t *volatile core = calloc(1, sizeof *core); /* kept across a trap's longjmp */
  if (!core) {
    *trap = "no memory for the core";
    return NULL;
  }
  wasm_rt_trap_t code = wasm_rt_impl_try();
  if (code != WASM_RT_TRAP_NONE) {
    *trap = wasm_rt_strerror(code);
    free(core);
    return NULL;
  }
  Z_controller_instantiate(core, &context);
  return core;
}

static void destroy(void *instance) {
  if (!instance) return;
  Z_controller_free(instance);
  free(instance);
}

static uint8_t *memory(void *instance, size_t *size) {
  wasm_rt_memory_t *m = Z_controllerZ_memory(instance);
  *size = m->size;
  return m->data;
}

static uint32_t call(void *instance, int f, const uint32_t *a, const char **trap) {
  Z_controller_instance_t *c = instance;
  wasm_rt_trap_t code = wasm_rt_impl_try();
  if (code != WASM_RT_TRAP_NONE) {
    *trap = wasm_rt_strerror(code);
    return 0;
  }
  switch (f) {
    case F_INIT: Z_controllerZ_init(c, a[0], a[1]); return 0;
    case F_TICK: return Z_controllerZ_tick(c);
    case F_RX_BUFFER: return Z_controllerZ_rx_buffer(c, a[0]);
    case F_HTTP_ALLOW: return Z_controllerZ_http_allow(c, a[0], a[1], a[2]);
    case F_HTTP_BEGIN: return Z_controllerZ_http_begin(c, a[0], a[1], a[2], a[3]);
    case F_HTTP_DISPATCH: Z_controllerZ_http_dispatch(c, a[0]); return 0;
    case F_WS_OPEN: return Z_controllerZ_ws_open(c, a[0]);
    case F_WS_FRAME: Z_controllerZ_ws_frame(c, a[0], a[1]); return 0;
    case F_WS_CLOSE: Z_controllerZ_ws_close(c, a[0]); return 0;
    case F_BUS_RECEIVE: Z_controllerZ_bus_receive(c, a[0]); return 0;
    case F_SERIAL_RECEIVE: Z_controllerZ_serial_receive(c, a[0]); return 0;
    case F_MQTT_EVENT: Z_controllerZ_mqtt_event(c, a[0], a[1]); return 0;
    case F_MQTT_MESSAGE: Z_controllerZ_mqtt_message(c, a[0], a[1]); return 0;
    case F_MDNS_RESULT: Z_controllerZ_mdns_result(c, a[0], a[1]); return 0;
    case F_MDNS_DONE: Z_controllerZ_mdns_done(c); return 0;
    case F_DATAGRAM: Z_controllerZ_datagram(c, a[0], a[1], a[2]); return 0;
    default: return 0;
  }
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

static const core_module_t table = {CORE_MODULE_ABI, TESSERA_CORE_BUILD_ID, create, destroy, memory, call};

ENTRY {
  static int ready;
  if (!ready) {
    if (!wasm_rt_is_initialized()) wasm_rt_init();
    Z_controller_init_module();
    ready = 1;
  }
  return &table;
}
