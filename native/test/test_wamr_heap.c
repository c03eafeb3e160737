/* sources: md5.c wasm_reader.c ../test/host_stubs.c
 * flags: -I native/test/esp32 -I native/runtime/wamr
 * variants: -DTEST_VARIANT_LARGE=1 | -DTEST_VARIANT_LARGE=0
 * wamr
 * test_wamr_heap.c: where the core's blocks land on the device. The WAMR adapter (runtime.c, built as the
 * component builds it: TESSERA_WAMR_PORT_HEAP=1, with WAMR's Alloc_For_LinearMemory usage) and the ESP32
 * port's table (port/esp32/wamr_heap.c) load the real build/controller.wasm on real WAMR (WAMR_ROOT) over a
 * stand-in for ESP-IDF's heap_caps_* that records the capabilities asked for each block: on the large
 * variant (TEST_VARIANT_LARGE=1, ESP32-S3) every block in PSRAM, on the small one (ESP32-C6) internal; the
 * large variant without PSRAM refuses to start, with one log line, before it asks for anything. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#define TESSERA_WAMR_PORT_HEAP 1 /* as components/tessera/CMakeLists.txt builds the adapter */
#include "../port/esp32/wamr_heap.c"
#include "../runtime/wamr/ram_image.c"
#include "../runtime/wamr/runtime.c"
#include "check.h"
#include "read_file.h"

/* ---- The stand-in heap: a static arena (WAMR keeps its runtime for good: nothing to leak), each call
 * recorded with the block the adapter was placing. Blocks not asked zeroed come filled with 0xa5, so
 * that a block used as if zeroed shows. ---- */
enum { ARENA = 4 << 20, CALLS = 8192 };
static uint8_t arena[ARENA] __attribute__((aligned(16)));
static size_t arena_used;
typedef struct {
  tessera_wamr_block_t block; /* what runtime.c was placing; TESSERA_WAMR_LINEAR_MEMORY for a zeroed 8-aligned one */
  uint32_t caps;
  size_t size;
} call_t;
static call_t calls[CALLS];
static int ncalls;
static size_t psram_total;
typedef struct {
  size_t size, pad; /* 16 B: blocks stay 16-aligned */
} head_t;

static void *take(tessera_wamr_block_t block, size_t size, uint32_t caps, int zeroed) {
  if (ncalls < CALLS) calls[ncalls++] = (call_t){block, caps, size};
  if ((caps & MALLOC_CAP_SPIRAM) && !psram_total) return NULL;
  size_t need = (sizeof(head_t) + size + 15) & ~(size_t)15;
  if (arena_used + need > ARENA) return NULL;
  head_t *h = (head_t *)(arena + arena_used);
  arena_used += need;
  h->size = size;
  memset(h + 1, zeroed ? 0 : 0xa5, size);
  return h + 1;
}
void *heap_caps_malloc(size_t size, uint32_t caps) { return take(placing, size, caps, 0); }
void *heap_caps_aligned_calloc(size_t alignment, size_t n, size_t size, uint32_t caps) {
  CHECK_EQ(alignment, 8);
  return take(TESSERA_WAMR_LINEAR_MEMORY, n * size, caps, 1);
}
void *heap_caps_realloc(void *p, size_t size, uint32_t caps) {
  void *q = take(placing, size, caps, 0);
  if (q && p) {
    size_t old = ((head_t *)p - 1)->size;
    memcpy(q, p, old < size ? old : size);
  }
  return q;
}
void heap_caps_free(void *p) { (void)p; }
size_t heap_caps_get_total_size(uint32_t caps) { return caps & MALLOC_CAP_SPIRAM ? psram_total : 512 * 1024; }

/* ---- What else the adapter calls: the image and the log (the core's imports: host_stubs.c). ---- */
static uint8_t *core;
static size_t core_len;
const uint8_t *port_core_image(uint32_t *len) {
  *len = (uint32_t)core_len;
  return core;
}
static char logged[256];
static int log_lines;
void port_log(uint32_t level, const char *msg, uint32_t len) {
  (void)level;
  log_lines++;
  snprintf(logged, sizeof logged, "%.*s", (int)len, msg);
}
#if TEST_VARIANT_LARGE
#define EXPECTED (MALLOC_CAP_SPIRAM | MALLOC_CAP_8BIT)
#define VARIANT "large"
#else
#define EXPECTED (MALLOC_CAP_INTERNAL | MALLOC_CAP_8BIT)
#define VARIANT "small"
#endif

/* The large variant on a board without PSRAM: no start, one line saying why, nothing asked of the heap.
 * The small variant has none to need. */
static void test_without_psram(void) {
  psram_total = 0;
  ncalls = 0;
  log_lines = 0;
  int loaded = tessera_rt_load();
#if TEST_VARIANT_LARGE
  CHECK_EQ(loaded, -1);
  CHECK_EQ(ncalls, 0);
  CHECK_EQ(log_lines, 1);
  CHECK(strstr(logged, "needs PSRAM") != NULL);
  CHECK(tessera_rt_mem_size() == 0);
#else
  CHECK_EQ(loaded, 0);
  CHECK(ncalls > 0);
  CHECK_EQ(log_lines, 0);
#endif
}

/* Every block of the loaded core, and the capability asked for it. */
static void test_blocks_placed(void) {
  psram_total = 8 << 20;
  ncalls = 0;
  log_lines = 0;
  CHECK_EQ(tessera_rt_load(), 0);
  CHECK_EQ(log_lines, 0);
  tessera_ram_image_t plan;
  uint32_t image = tessera_ram_image_plan(core, (uint32_t)core_len, &plan);
  CHECK(image > 0);
  int seen[TESSERA_WAMR_BLOCKS] = {0};
  size_t bytes[TESSERA_WAMR_BLOCKS] = {0};
  for (int i = 0; i < ncalls; i++) {
    seen[calls[i].block]++;
    bytes[calls[i].block] += calls[i].size;
    if (calls[i].caps != EXPECTED)
      fprintf(stderr, VARIANT ": block %d (%zu B) asked caps 0x%x\n", calls[i].block, calls[i].size, calls[i].caps);
    CHECK_EQ(calls[i].caps, EXPECTED);
  }
  CHECK_EQ(seen[TESSERA_WAMR_IMAGE], 1); /* the RAM image, once, at its planned size */
  CHECK_EQ(bytes[TESSERA_WAMR_IMAGE], image);
  CHECK(seen[TESSERA_WAMR_MODULE] > 100); /* WAMR's many small blocks: a few per function */
  CHECK(bytes[TESSERA_WAMR_MODULE] > 10000);
  CHECK(seen[TESSERA_WAMR_INSTANCE] > 0);
  CHECK_EQ(seen[TESSERA_WAMR_LINEAR_MEMORY], 1); /* one page, zeroed, 8-aligned, through the usage hint */
  CHECK_EQ(bytes[TESSERA_WAMR_LINEAR_MEMORY], 65536);
  CHECK(seen[TESSERA_WAMR_EXEC_ENV] >= 1); /* the exec env and its stack, one block */
  CHECK(bytes[TESSERA_WAMR_EXEC_ENV] >= STACK_SIZE);
  /* the core runs in the placed memory: its linear memory is the block asked for it */
  CHECK_EQ(tessera_rt_mem_size(), 65536);
  uint8_t *memory = tessera_rt_mem(0, 65536);
  CHECK(memory >= arena && memory + 65536 <= arena + ARENA);
  printf(
      "  %s: %d blocks asked for (a realloc counted again): RAM image %zu B, module %zu B in %d, instance %zu B, "
      "linear memory %zu B, exec env %zu B\n",
      VARIANT, ncalls, bytes[TESSERA_WAMR_IMAGE], bytes[TESSERA_WAMR_MODULE], seen[TESSERA_WAMR_MODULE],
      bytes[TESSERA_WAMR_INSTANCE], bytes[TESSERA_WAMR_LINEAR_MEMORY], bytes[TESSERA_WAMR_EXEC_ENV]);
}

int main(void) {
  core = read_file("build/controller.wasm", &core_len);
  if (!core) {
    fprintf(stderr, "build/controller.wasm is missing: npm run build\n");
    return 1;
  }
  RUN(test_without_psram);
  RUN(test_blocks_placed);
  free(core);
  return check_summary("test_wamr_heap (" VARIANT ")");
}
