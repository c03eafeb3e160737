/*
 * runtime.c: the wasm3 runtime adapter (tessera_runtime.h), measured beside WAMR (issue 12; WAMR stays
 * the device runtime). The core's bytes come from the port (port_core_image) and stay there: wasm3
 * points into them for function bodies and data segments and never writes into them, so a device
 * loads straight from flash, with no copy. Imports are linked with m3_LinkRawFunction under module
 * "t"; each export call runs with m3_Call, and an error it returns (a trap) is recorded.
 *
 * wasm3 compiles a function on its first call (exports when they are looked up), into code pages that
 * stay until the instance goes: what it holds grows with the paths the core has taken. Its interpreter
 * runs on the thread's C stack, one C frame per wasm call; the wasm values live on the one stack below.
 * Everything, linear memory included, comes from wasm3's m3_Malloc (calloc/realloc/free in m3_core.c),
 * which the bench counts through count_alloc.c (TESSERA_WASM3_COUNT_ALLOC).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "m3_env.h"
#include "tessera_core_exports.h"
#include "tessera_host.h"
#include "tessera_host_imports.h"
#include "tessera_md5.h"
#include "tessera_port.h"
#include "tessera_runtime.h"
#include "tessera_wasm3.h"
#include "wasm3.h"

/* The wasm stack: operand slots and frames of every active call. 16 KiB, as WAMR's on 32-bit; the
 * deepest use of the black-box suite (a body nested 1000 deep) fits. */
#ifndef TESSERA_WASM3_STACK_SIZE
#define TESSERA_WASM3_STACK_SIZE (16 * 1024)
#endif

static IM3Environment env;
static IM3Runtime rt; /* not `runtime`: m3ApiRawFunction names its parameter so */
static char trap[128];
static const char *trap_reason;
static uint32_t build_id; /* the image's MD5 prefix, passed to core_init (controllerFirmware) */
static tessera_wasm3_stats_t stats;

#ifdef TESSERA_WASM3_COUNT_ALLOC
/* The bench's allocator, which count_alloc.c gives m3_core.c: a size header, the bytes held and their peak. */
static uint32_t live, peak;
typedef union {
  uint32_t size;
  uint64_t align;
} header_t;
void *tessera_m3_calloc(size_t n, size_t size) {
  header_t *h = calloc(1, sizeof *h + n * size);
  if (!h) return NULL;
  h->size = (uint32_t)(n * size);
  live += h->size;
  if (live > peak) peak = live;
  return h + 1;
}
void tessera_m3_free(void *p) {
  if (!p) return;
  header_t *h = (header_t *)p - 1;
  live -= h->size;
  free(h);
}
void *tessera_m3_realloc(void *p, size_t size) {
  if (!p) return tessera_m3_calloc(1, size);
  header_t *h = (header_t *)p - 1;
  uint32_t old = h->size;
  header_t *n = realloc(h, sizeof *n + size);
  if (!n) return NULL;
  n->size = (uint32_t)size;
  live += n->size - old; /* while realloc moves it, old and new exist at once: not counted */
  if (live > peak) peak = live;
  return n + 1;
}
#endif

static uint32_t held(void) {
#ifdef TESSERA_WASM3_COUNT_ALLOC
  return live;
#else
  return 0;
#endif
}

/* The core's exports by name, in the order of their F_* index (tessera_core_exports.h). */
#define EXPORT_NAME(id, name, signature) #name,
static const char *const EXPORTS[F_COUNT] = {TESSERA_CORE_EXPORTS(EXPORT_NAME)};
#undef EXPORT_NAME
static IM3Function functions[F_COUNT];

/* ---- Imports: wasm3 raw functions, forwarded to abi.c, one a line of tessera_host_imports.h. Each
 * argument and result takes one 64-bit slot of the wasm stack (_sp); a result comes first. Pointers are
 * plain offsets (abi.c checks them). ---- */
#define ARG(name) uint32_t name = (uint32_t)*_sp++;
#define TAKE_0
#define TAKE_1 ARG(a0)
#define TAKE_2 TAKE_1 ARG(a1)
#define TAKE_3 TAKE_2 ARG(a2)
#define TAKE_4 TAKE_3 ARG(a3)
#define TAKE_5 TAKE_4 ARG(a4)
#define RESULT_v
#define RESULT_i uint64_t *result = _sp++;
#define STORE_v
#define STORE_i *result = (uint32_t)
#define RAW(name, result, arity)                                                          \
  static m3ApiRawFunction(n_##name) {                                                     \
    RESULT_##result TAKE_##arity STORE_##result host_##name(TESSERA_IMPORT_ARGS_##arity); \
    m3ApiSuccess();                                                                       \
  }
TESSERA_HOST_IMPORTS(RAW)
#undef RAW

/* wasm3 checks each signature against the import's type when linking ('v' none, 'i' an i32). */
static const struct {
  const char *name, *signature;
  M3RawCall function;
} IMPORTS[] = {
#define LINK(name, result, arity) {#name, #result TESSERA_IMPORT_SIG_##arity, n_##name},
    TESSERA_HOST_IMPORTS(LINK)
#undef LINK
};

/* The runtime owns the module once loaded; the environment caches released code pages, so it goes too. */
static void unload(void) {
  if (rt) m3_FreeRuntime(rt);
  if (env) m3_FreeEnvironment(env);
  rt = NULL;
  env = NULL;
}

static int fail(const char *what, const char *error) {
  snprintf(trap, sizeof trap, "%s%s", what, error ? error : "");
  port_log(TESSERA_LOG_ERROR, trap, (uint32_t)strlen(trap));
  unload();
  return -1;
}

int tessera_wasm3_stats(tessera_wasm3_stats_t *out) {
  *out = stats;
#ifdef TESSERA_WASM3_COUNT_ALLOC
  out->counted = 1;
  out->live = live;
  out->peak = peak;
#endif
  return rt != NULL;
}

int tessera_rt_load(void) {
  unload();
  uint32_t len = 0;
  const uint8_t *bytes = port_core_image(&len);
  if (!bytes || !len) return fail("wasm3: no core image", "");
  build_id = tessera_build_id(bytes, len);
  uint32_t at = held();
  env = m3_NewEnvironment();
  rt = env ? m3_NewRuntime(env, TESSERA_WASM3_STACK_SIZE, NULL) : NULL;
  if (!rt) return fail("wasm3: out of memory", "");
  stats.runtime = held() - at;
  at = held();
  IM3Module module;
  M3Result r = m3_ParseModule(env, &module, bytes, len);
  if (r) return fail("wasm3: parse: ", r);
  stats.module = held() - at;
  at = held();
  r = m3_LoadModule(rt, module);
  if (r) {
    m3_FreeModule(module);
    return fail("wasm3: load: ", r);
  }
  stats.linear = m3_GetMemorySize(rt);
  stats.instance = held() - at - stats.linear;
  at = held();
  /* functionLookupFailed: the core does not import that one; every import it has must be linked */
  for (size_t i = 0; i < sizeof IMPORTS / sizeof IMPORTS[0]; i++) {
    r = m3_LinkRawFunction(module, TESSERA_IMPORT_MODULE, IMPORTS[i].name, IMPORTS[i].signature, IMPORTS[i].function);
    if (r && r != m3Err_functionLookupFailed) return fail("wasm3: link: ", r);
  }
  for (uint32_t i = 0; i < module->numFunctions; i++)
    if (module->functions[i].import.fieldUtf8 && !module->functions[i].compiled)
      return fail("wasm3: import not linked: ", module->functions[i].import.fieldUtf8);
  /* looking an export up compiles it; the first lookup runs the start function */
  for (int i = 0; i < F_COUNT; i++) {
    r = m3_FindFunction(&functions[i], rt, EXPORTS[i]);
    if (r) return fail("wasm3: export ", EXPORTS[i]);
  }
#ifdef TESSERA_WASM3_COMPILE_ALL
  r = m3_CompileModule(module);
  if (r) return fail("wasm3: compile: ", r);
#endif
  stats.code = held() - at;
  return 0;
}

uint32_t tessera_rt_build_id(void) { return build_id; }

size_t tessera_rt_mem_size(void) { return rt ? m3_GetMemorySize(rt) : 0; }

uint8_t *tessera_rt_mem(uint32_t ptr, uint32_t len) {
  uint32_t size = 0;
  uint8_t *base = rt ? m3_GetMemory(rt, &size, 0) : NULL;
  if (!base || (uint64_t)ptr + len > size) return NULL;
  return base + ptr;
}

const char *tessera_rt_take_trap(void) {
  const char *r = trap_reason;
  trap_reason = NULL;
  return r;
}

/* Calls export f with argc arguments; its result (if any) comes back in *out. */
static int call(int f, uint32_t argc, const uint32_t *argv, uint32_t *out) {
  if (!rt) {
    trap_reason = "core not loaded";
    return 0;
  }
  const void *args[4];
  for (uint32_t i = 0; i < argc; i++) args[i] = &argv[i];
  M3Result r = m3_Call(functions[f], argc, args);
  if (!r && out) {
    const void *results[1] = {out};
    r = m3_GetResults(functions[f], 1, results);
  }
  if (!r) return 1;
  snprintf(trap, sizeof trap, "%s", r);
  trap_reason = trap;
  return 0;
}

void core_init(uint32_t max_panels, uint32_t build) {
  uint32_t a[2] = {max_panels, build};
  call(F_INIT, 2, a, NULL);
}
uint32_t core_tick(void) {
  uint32_t next;
  return call(F_TICK, 0, NULL, &next) ? next : 10;
}
uint32_t core_rx_buffer(uint32_t len) {
  uint32_t ptr;
  return call(F_RX_BUFFER, 1, &len, &ptr) ? ptr : 0;
}
uint32_t core_http_begin(uint32_t req, uint32_t method, uint32_t url_len, uint32_t body_len) {
  uint32_t a[4] = {req, method, url_len, body_len}, ptr;
  return call(F_HTTP_BEGIN, 4, a, &ptr) ? ptr : 0;
}
void core_http_dispatch(uint32_t req) { call(F_HTTP_DISPATCH, 1, &req, NULL); }
uint32_t core_ws_open(uint32_t conn) {
  uint32_t ok;
  return call(F_WS_OPEN, 1, &conn, &ok) ? ok : 0;
}
void core_ws_frame(uint32_t conn, uint32_t len) {
  uint32_t a[2] = {conn, len};
  call(F_WS_FRAME, 2, a, NULL);
}
void core_ws_close(uint32_t conn) { call(F_WS_CLOSE, 1, &conn, NULL); }
void core_bus_receive(uint32_t len) { call(F_BUS_RECEIVE, 1, &len, NULL); }
void core_mqtt_event(uint32_t kind, uint32_t reason) {
  uint32_t a[2] = {kind, reason};
  call(F_MQTT_EVENT, 2, a, NULL);
}
void core_mqtt_message(uint32_t topic_len, uint32_t payload_len) {
  uint32_t a[2] = {topic_len, payload_len};
  call(F_MQTT_MESSAGE, 2, a, NULL);
}
void core_mdns_result(uint32_t host_len, uint32_t port) {
  uint32_t a[2] = {host_len, port};
  call(F_MDNS_RESULT, 2, a, NULL);
}
void core_mdns_done(void) { call(F_MDNS_DONE, 0, NULL, NULL); }
void core_serial_receive(uint32_t len) { call(F_SERIAL_RECEIVE, 1, &len, NULL); }
void core_datagram(uint32_t kind, uint32_t source, uint32_t len) {
  uint32_t a[3] = {kind, source, len};
  call(F_DATAGRAM, 3, a, NULL);
}
uint32_t core_http_allow(uint32_t req, uint32_t host_len, uint32_t origin_len) {
  uint32_t a[3] = {req, host_len, origin_len}, ok;
  return call(F_HTTP_ALLOW, 3, a, &ok) ? ok : 0;
}
