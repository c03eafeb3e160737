/*
 * runtime.c: the WAMR runtime adapter (tessera_runtime.h), the device default. The core's bytes come
 * from the port (port_core_image: embedded in the app image on a device, read from build/ on POSIX).
 * Imports are registered with wasm_runtime_register_natives under module "t"; each export call
 * runs with wasm_runtime_call_wasm, and an exception (a trap) is recorded for the driver.
 * Build WAMR with bulk memory (WAMR_BUILD_BULK_MEMORY=1): AssemblyScript emits memory.copy/fill.
 *
 * One copy of everything (docs/device-memory.md):
 *  - the image: WAMR's classic interpreter rewrites opcodes in the buffer it loads and runs the code
 *    from it, so it needs the code in writable RAM, and only the code: it loads a RAM image
 *    (ram_image.c) of the sections up to the code, without the data segments, which are copied from
 *    the port's bytes (flash) into linear memory after instantiation, before the start function runs
 *    (exported in the RAM image for that). The RAM image is kept while loaded (never freeable:
 *    wasm_runtime_is_underlying_binary_freeable is false in that mode), loaded with
 *    wasm_binary_freeable false so that WAMR points into it for names rather than copying them once
 *    more. An image of another shape is copied and loaded whole. The fast interpreter compiles the
 *    code into its own buffers; with wasm_binary_freeable true it copies the names and data segments
 *    it keeps and never writes into or reads the image after loading, so with
 *    TESSERA_WAMR_FAST_INTERP=1 it loads straight from the port's bytes (read-only flash on a device),
 *    no copy. (With freeable false it would write into the image: it NUL-terminates names in place,
 *    wasm_const_str_list_insert.)
 *  - the stack: one exec env, made once per instance; with a RAM image WAMR makes no other (the start
 *    function runs on it). Otherwise wasm_runtime_instantiate makes a temporary one (same size) only to
 *    run the start function and frees it before returning.
 * The RAM image comes from wasm_runtime_malloc, so the bench's allocators (WAMR's pool, TESSERA_WAMR_POOL_BYTES,
 * or a counting one, TESSERA_WAMR_COUNT_ALLOC) see it with everything else WAMR allocates; there linear
 * memory is WAMR's os_mmap, outside them. On the device (TESSERA_WAMR_PORT_HEAP=1) each block, linear
 * memory included, goes where the port's table puts it (tessera_wamr.h, native/port/esp32/wamr_heap.c).
 */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tessera_core_exports.h"
#include "tessera_host.h"
#include "tessera_host_imports.h"
#include "tessera_md5.h"
#include "tessera_port.h"
#include "tessera_runtime.h"
#include "tessera_wamr.h"
#include "wasm_export.h"

#ifndef TESSERA_WAMR_PORT_HEAP
#define TESSERA_WAMR_PORT_HEAP 0 /* WAMR's own allocator, or the bench's (below) */
#endif
#ifndef TESSERA_WAMR_FAST_INTERP
#define TESSERA_WAMR_FAST_INTERP 0 /* unknown: copy the image, which both interpreters accept */
#endif

/* The one execution stack (WAMR's operand stack and frames; C runs on the thread's own stack). On 32-bit
 * (the device, the bench) the deepest use measured is 5,448 B since every document is read by the
 * streaming tokenizer (11,832 B with the tape parser's recursion on a body nested 1000 deep, sent to each
 * endpoint that reads JSON; 7,720 B while the small documents still used it). 8 KiB leaves 2.7 KB, the
 * margin kept since the first measurement (WAMR also wants a frame's size twice free before pushing it). The bench prints the figure on every run
 * (stack_used). Frames hold native pointers, so a 64-bit host (the PC test suite) gets more.
 * docs/device-memory.md. */
#ifndef TESSERA_WAMR_STACK_SIZE
#define TESSERA_WAMR_STACK_SIZE (sizeof(void *) > 4 ? 32 * 1024 : 8 * 1024)
#endif
#define STACK_SIZE TESSERA_WAMR_STACK_SIZE

static int initialised;
static uint8_t *image; /* the classic interpreter's RAM image (or whole copy), kept while loaded; NULL under fast */
static wasm_module_t module;
static wasm_module_inst_t instance;
static wasm_exec_env_t exec_env;
static pthread_t exec_env_thread; /* WAMR checks the native stack of the thread that made the exec env */
static char trap[128];
static const char *trap_reason;
static uint32_t build_id;
static tessera_wamr_stats_t stats;

#ifdef TESSERA_WAMR_POOL_BYTES
static uint8_t pool[TESSERA_WAMR_POOL_BYTES] __attribute__((aligned(8)));
#endif

#ifdef TESSERA_WAMR_COUNT_ALLOC
/* The bench's allocator: malloc with a size header, counting the bytes WAMR holds and their peak
 * exactly (WAMR 2.4's pool statistics miss a realloc that grows in place, which its loader does). */
static uint32_t live, peak, blocks;
static uint8_t *stack; /* the exec env's stack, painted with STACK_PAINT when it is made */
#define STACK_PAINT 0xa5
typedef union {
  uint32_t size;
  uint64_t align;
} header_t;
static void *count_malloc(unsigned int size) {
  header_t *h = malloc(sizeof *h + size);
  if (!h) return NULL;
  h->size = size;
  live += size;
  blocks++;
  if (live > peak) peak = live;
  return h + 1;
}
static void count_free(void *p) {
  if (!p) return;
  header_t *h = (header_t *)p - 1;
  live -= h->size;
  blocks--;
  free(h);
}
static void *count_realloc(void *p, unsigned int size) {
  if (!p) return count_malloc(size);
  header_t *h = (header_t *)p - 1;
  uint32_t old = h->size;
  header_t *n = realloc(h, sizeof *n + size);
  if (!n) return NULL;
  n->size = size;
  live += size - old; /* while realloc moves it, old and new exist at once: not counted */
  if (live > peak) peak = live;
  return n + 1;
}
#endif

#if TESSERA_WAMR_PORT_HEAP
/* The device: every block WAMR takes goes where the port's table puts it (tessera_wamr.h), told which
 * block it is for by `placing`, which the loader sets around each step; linear memory comes with WAMR's
 * own usage hint (WAMR built with WAMR_BUILD_ALLOC_WITH_USAGE=1, hence these signatures). This also
 * spares WAMR's esp-idf os_malloc, which asks for 12 bytes more per block (8-alignment and the original
 * pointer): 13 KB over the classic interpreter's ~1,100 blocks. Nothing WAMR takes here needs more than
 * 4-byte alignment on a 32-bit target (8-byte values are moved as two words) but linear memory, which the
 * port gives 8-aligned. */
#if TESSERA_WAMR_COUNT_ALLOC || TESSERA_WAMR_POOL_BYTES
#error "TESSERA_WAMR_PORT_HEAP is the device's allocator: not with the bench's counting or pool allocator"
#endif
static tessera_wamr_block_t placing = TESSERA_WAMR_RUNTIME;
static tessera_wamr_block_t block_for(mem_alloc_usage_t usage) {
  return usage == Alloc_For_LinearMemory ? TESSERA_WAMR_LINEAR_MEMORY : placing;
}
static void *placed_malloc(mem_alloc_usage_t usage, unsigned int size) {
  return port_wamr_malloc(block_for(usage), size);
}
static void *placed_realloc(mem_alloc_usage_t usage, bool full_size_mmaped, void *p, unsigned int size) {
  (void)full_size_mmaped;
  return port_wamr_realloc(block_for(usage), p, size);
}
static void placed_free(mem_alloc_usage_t usage, void *p) {
  (void)usage;
  port_wamr_free(p);
}
#define PLACING(block) (placing = (block))
#else
#define PLACING(block) ((void)0)
#endif

/* The core's exports by name, in the order of their F_* index (tessera_core_exports.h). */
#define EXPORT_NAME(id, name, signature) #name,
static const char *const EXPORTS[F_COUNT] = {TESSERA_CORE_EXPORTS(EXPORT_NAME)};
#undef EXPORT_NAME
static wasm_function_inst_t functions[F_COUNT];

/* ---- Imports: WAMR native functions (first argument the exec env), forwarded to abi.c, one a line of
 * tessera_host_imports.h. Pointers are plain offsets (abi.c checks them against the memory). ---- */
#define RESULT_v void
#define RESULT_i uint32_t
#define RETURN_v
#define RETURN_i return (uint32_t)
#define NATIVE(name, result, arity)                                                            \
  static RESULT_##result n_##name(wasm_exec_env_t e TESSERA_IMPORT_PARAMS_##arity(uint32_t)) { \
    (void)e;                                                                                   \
    RETURN_##result host_##name(TESSERA_IMPORT_ARGS_##arity);                                  \
  }
TESSERA_HOST_IMPORTS(NATIVE)
#undef NATIVE

#define NATIVE_SYMBOL(name, result, arity) {#name, (void *)n_##name, TESSERA_IMPORT_SIGNATURE(result, arity), NULL},
static NativeSymbol natives[] = {TESSERA_HOST_IMPORTS(NATIVE_SYMBOL)};
#undef NATIVE_SYMBOL

#ifdef TESSERA_WAMR_COUNT_ALLOC
static void note_stack(void);
#endif

static void unload(void) {
#ifdef TESSERA_WAMR_COUNT_ALLOC
  note_stack();
#endif
  if (exec_env) wasm_runtime_destroy_exec_env(exec_env);
  if (instance) wasm_runtime_deinstantiate(instance);
  if (module) wasm_runtime_unload(module);
  if (image) wasm_runtime_free(image);
  exec_env = NULL;
#ifdef TESSERA_WAMR_COUNT_ALLOC
  stack = NULL;
#endif
  instance = NULL;
  module = NULL;
  image = NULL;
}

/* Bytes WAMR's allocator has handed out (a pool or the counting allocator; else 0). */
static uint32_t pool_used(void) {
#if defined(TESSERA_WAMR_COUNT_ALLOC)
  return live;
#elif defined(TESSERA_WAMR_POOL_BYTES)
  mem_alloc_info_t info;
  if (wasm_runtime_get_mem_alloc_info(&info)) return info.total_size - info.total_free_size;
#endif
  return 0;
}

/* The exec env, made on the calling thread. Counted builds paint its stack, so that the bench can read
 * the most of it the core has used (stack_used). */
static wasm_exec_env_t make_exec_env(void) {
  uint32_t before = pool_used();
  PLACING(TESSERA_WAMR_EXEC_ENV);
  exec_env = wasm_runtime_create_exec_env(instance, STACK_SIZE);
  PLACING(TESSERA_WAMR_RUNTIME);
  if (!exec_env) return NULL;
  exec_env_thread = pthread_self();
#ifdef TESSERA_WAMR_COUNT_ALLOC
  /* one block: the exec env's fields, then the stack (wasm_exec_env_create_internal), untouched so far */
  stack = (uint8_t *)exec_env + (pool_used() - before) - STACK_SIZE;
  memset(stack, STACK_PAINT, STACK_SIZE);
#else
  (void)before;
#endif
  return exec_env;
}

#ifdef TESSERA_WAMR_COUNT_ALLOC
/* The most of the painted stack written so far (kept across exec envs). */
static void note_stack(void) {
  if (!stack) return;
  uint32_t used = STACK_SIZE;
  while (used && stack[used - 1] == STACK_PAINT) used--;
  if (used > stats.stack_used) stats.stack_used = used;
}
#endif

int tessera_wamr_stats(tessera_wamr_stats_t *out) {
#ifdef TESSERA_WAMR_COUNT_ALLOC
  note_stack();
#endif
  *out = stats;
#ifdef TESSERA_WAMR_COUNT_ALLOC
  out->counted = 1;
  out->live = live;
  out->peak = peak;
  out->blocks = blocks;
  out->stack_size = STACK_SIZE;
#endif
#ifdef TESSERA_WAMR_POOL_BYTES
  mem_alloc_info_t info;
  if (!initialised || !wasm_runtime_get_mem_alloc_info(&info)) return 0;
  out->pool_total = info.total_size;
  out->pool_used = info.total_size - info.total_free_size;
  out->pool_highmark = info.highmark_size;
  out->pool = 1;
#endif
  out->fast_interp = TESSERA_WAMR_FAST_INTERP;
  return 1;
}

static int fail(const char *what, const char *error) {
  size_t n = strlen(what);
  memcpy(trap, what, n < sizeof trap ? n : sizeof trap - 1);
  trap[n < sizeof trap ? n : sizeof trap - 1] = 0;
  strncat(trap, error, sizeof trap - strlen(trap) - 1);
  port_log(TESSERA_LOG_ERROR, trap, (uint32_t)strlen(trap));
  unload();
  return -1;
}

int tessera_rt_load(void) {
  char error[128] = {0};
  if (!initialised) {
#if defined(TESSERA_WAMR_COUNT_ALLOC) || defined(TESSERA_WAMR_POOL_BYTES) || TESSERA_WAMR_PORT_HEAP
    RuntimeInitArgs init;
    memset(&init, 0, sizeof init);
#if defined(TESSERA_WAMR_COUNT_ALLOC)
    init.mem_alloc_type = Alloc_With_Allocator;
    init.mem_alloc_option.allocator.malloc_func = (void *)count_malloc;
    init.mem_alloc_option.allocator.realloc_func = (void *)count_realloc;
    init.mem_alloc_option.allocator.free_func = (void *)count_free;
#elif defined(TESSERA_WAMR_POOL_BYTES)
    init.mem_alloc_type = Alloc_With_Pool;
    init.mem_alloc_option.pool.heap_buf = pool;
    init.mem_alloc_option.pool.heap_size = sizeof pool;
#else
    const char *why = port_wamr_heap_check();
    if (why) return fail("wamr: the core cannot start: ", why);
    init.mem_alloc_type = Alloc_With_Allocator;
    init.mem_alloc_option.allocator.malloc_func = (void *)placed_malloc;
    init.mem_alloc_option.allocator.realloc_func = (void *)placed_realloc;
    init.mem_alloc_option.allocator.free_func = (void *)placed_free;
#endif
    if (!wasm_runtime_full_init(&init)) return fail("wamr: init failed", "");
#else
    if (!wasm_runtime_init()) return fail("wamr: init failed", "");
#endif
    if (!wasm_runtime_register_natives(TESSERA_IMPORT_MODULE, natives, sizeof natives / sizeof natives[0]))
      return fail("wamr: registering the imports failed", "");
    initialised = 1;
  }
  unload();
  if (!wasm_runtime_thread_env_inited()) wasm_runtime_init_thread_env();
  uint32_t len = 0;
  const uint8_t *bytes = port_core_image(&len);
  if (!bytes || !len) return fail("wamr: no core image", "");
  build_id = tessera_build_id(bytes, len);
  tessera_ram_image_t plan;
  /* Classic: the RAM image if this image splits, else (or if WAMR refuses it) the whole image. */
  for (int whole = TESSERA_WAMR_FAST_INTERP; !module; whole++) {
    uint32_t used = pool_used(), load_len = len;
    uint8_t *load_from = (uint8_t *)bytes; /* the fast interpreter, freeable: only reads it while loading */
    memset(&plan, 0, sizeof plan);
    plan.start = -1;
    if (!TESSERA_WAMR_FAST_INTERP) {
      uint32_t split = whole ? 0 : tessera_ram_image_plan(bytes, len, &plan);
      if (!split) memset(&plan, 0, sizeof plan), plan.start = -1, whole = 1;
      load_len = split ? split : len;
      PLACING(TESSERA_WAMR_IMAGE);
      image = wasm_runtime_malloc(load_len);
      PLACING(TESSERA_WAMR_RUNTIME);
      if (!image) return fail("wamr: out of memory", "");
      if (split) tessera_ram_image_write(bytes, len, &plan, image);
      else memcpy(image, bytes, len);
      load_from = image;
    }
    uint32_t at = pool_used();
    stats.image_copy = at - used;
    stats.image_split = load_from != bytes && load_len != len;
    LoadArgs args;
    memset(&args, 0, sizeof args);
    args.name = "";
    args.wasm_binary_freeable = TESSERA_WAMR_FAST_INTERP; /* above: fast keeps nothing of the image */
    PLACING(TESSERA_WAMR_MODULE);
    module = wasm_runtime_load_ex(load_from, load_len, &args, error, sizeof error);
    PLACING(TESSERA_WAMR_RUNTIME);
    if (module) stats.module = pool_used() - at;
    else if (whole) return fail("wamr: load: ", error);
    else unload(); /* the split image refused (memory.init needs the data count): load it whole */
  }
  uint32_t at = pool_used();
  PLACING(TESSERA_WAMR_INSTANCE);
  instance = wasm_runtime_instantiate(module, STACK_SIZE, 0, error, sizeof error);
  PLACING(TESSERA_WAMR_RUNTIME);
  if (!instance) return fail("wamr: instantiate: ", error);
  stats.instance = pool_used() - at;
  for (int i = 0; i < F_COUNT; i++) {
    functions[i] = wasm_runtime_lookup_function(instance, EXPORTS[i]);
    if (!functions[i]) return fail("wamr: missing export ", EXPORTS[i]);
  }
  at = pool_used();
  if (!make_exec_env()) return fail("wamr: exec env", "");
  stats.exec_env = pool_used() - at;
  /* The RAM image: the data segments from the port's bytes, then the start function, which reads them. */
  if (tessera_ram_image_init_memory(bytes, &plan, tessera_rt_mem(0, 0), tessera_rt_mem_size()))
    return fail("wamr: instantiate: ", "data segment does not fit in memory");
  if (plan.start >= 0) {
    wasm_function_inst_t start = wasm_runtime_lookup_function(instance, TESSERA_RAM_IMAGE_START);
    if (!start) return fail("wamr: missing export ", TESSERA_RAM_IMAGE_START);
    if (!wasm_runtime_call_wasm(exec_env, start, 0, NULL)) {
      const char *e = wasm_runtime_get_exception(instance);
      return fail("wamr: start: ", e ? e : "exception");
    }
  }
  return 0;
}

uint32_t tessera_rt_build_id(void) { return build_id; }

size_t tessera_rt_mem_size(void) {
  wasm_memory_inst_t m = instance ? wasm_runtime_get_default_memory(instance) : NULL;
  return m ? (size_t)(wasm_memory_get_cur_page_count(m) * wasm_memory_get_bytes_per_page(m)) : 0;
}

/* Checked here rather than with wasm_runtime_validate_app_addr, which also raises an exception in the
 * instance (the next export call would then fail as a trap). */
uint8_t *tessera_rt_mem(uint32_t ptr, uint32_t len) {
  size_t size = tessera_rt_mem_size();
  if (!size || (uint64_t)ptr + len > size) return NULL;
  uint8_t *base = wasm_runtime_addr_app_to_native(instance, 0);
  return base ? base + ptr : NULL;
}

const char *tessera_rt_take_trap(void) {
  const char *r = trap_reason;
  trap_reason = NULL;
  return r;
}

/* Calls export f with argc arguments in argv; the result (if any) comes back in argv[0]. */
static int call(int f, uint32_t argc, uint32_t *argv) {
  if (!exec_env) {
    trap_reason = "core not loaded";
    return 0;
  }
  if (!pthread_equal(exec_env_thread, pthread_self())) {
    /* another thread holds the host's lock now: give it an exec env (and signal env) of its own */
    /* the old one goes first, so that there is never more than one stack */
    if (!wasm_runtime_thread_env_inited()) wasm_runtime_init_thread_env();
#ifdef TESSERA_WAMR_COUNT_ALLOC
    note_stack();
#endif
    wasm_runtime_destroy_exec_env(exec_env);
    if (!make_exec_env()) {
      trap_reason = "wamr: exec env";
      return 0;
    }
  }
  if (wasm_runtime_call_wasm(exec_env, functions[f], argc, argv)) return 1;
  const char *e = wasm_runtime_get_exception(instance);
  snprintf(trap, sizeof trap, "%s", e ? e : "exception");
  trap_reason = trap;
  wasm_runtime_clear_exception(instance);
  return 0;
}

void core_init(uint32_t max_panels, uint32_t build) {
  uint32_t a[2] = {max_panels, build};
  call(F_INIT, 2, a);
}
uint32_t core_tick(void) {
  uint32_t a[1] = {0};
  return call(F_TICK, 0, a) ? a[0] : 10;
}
uint32_t core_rx_buffer(uint32_t len) {
  uint32_t a[1] = {len};
  return call(F_RX_BUFFER, 1, a) ? a[0] : 0;
}
uint32_t core_http_begin(uint32_t req, uint32_t method, uint32_t url_len, uint32_t body_len) {
  uint32_t a[4] = {req, method, url_len, body_len};
  return call(F_HTTP_BEGIN, 4, a) ? a[0] : 0;
}
uint32_t core_http_allow(uint32_t req, uint32_t host_len, uint32_t origin_len) {
  uint32_t a[3] = {req, host_len, origin_len};
  return call(F_HTTP_ALLOW, 3, a) ? a[0] : 0;
}
void core_http_dispatch(uint32_t req) {
  uint32_t a[1] = {req};
  call(F_HTTP_DISPATCH, 1, a);
}
uint32_t core_ws_open(uint32_t conn) {
  uint32_t a[1] = {conn};
  return call(F_WS_OPEN, 1, a) ? a[0] : 0;
}
void core_ws_frame(uint32_t conn, uint32_t len) {
  uint32_t a[2] = {conn, len};
  call(F_WS_FRAME, 2, a);
}
void core_ws_close(uint32_t conn) {
  uint32_t a[1] = {conn};
  call(F_WS_CLOSE, 1, a);
}
void core_bus_receive(uint32_t len) {
  uint32_t a[1] = {len};
  call(F_BUS_RECEIVE, 1, a);
}
void core_mqtt_event(uint32_t kind, uint32_t reason) {
  uint32_t a[2] = {kind, reason};
  call(F_MQTT_EVENT, 2, a);
}
void core_mqtt_message(uint32_t topic_len, uint32_t payload_len) {
  uint32_t a[2] = {topic_len, payload_len};
  call(F_MQTT_MESSAGE, 2, a);
}
void core_mdns_result(uint32_t host_len, uint32_t port) {
  uint32_t a[2] = {host_len, port};
  call(F_MDNS_RESULT, 2, a);
}
void core_mdns_done(void) {
  uint32_t a[1] = {0};
  call(F_MDNS_DONE, 0, a);
}
void core_serial_receive(uint32_t len) {
  uint32_t a[1] = {len};
  call(F_SERIAL_RECEIVE, 1, a);
}
void core_datagram(uint32_t kind, uint32_t source, uint32_t len) {
  uint32_t a[3] = {kind, source, len};
  call(F_DATAGRAM, 3, a);
}
