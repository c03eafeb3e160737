/* sources: md5.c wasm_reader.c ../test/host_stubs.c
 * flags: -I native/test/esp32 -I native/runtime/wamr
 * variants: -DTEST_VARIANT_LARGE=1 -DTESSERA_WAMR_FAST_INTERP=1 wamr:fast | -DTEST_VARIANT_LARGE=0
 * wamr
 * test_wamr_heap.c: where the core's blocks land on the device. The WAMR adapter (runtime.c, built as the
 * component builds it: TESSERA_WAMR_PORT_HEAP=1, with WAMR's Alloc_For_LinearMemory usage) and the ESP32
 * port's table (port/esp32/wamr_heap.c) load the real build/controller.wasm on real WAMR (WAMR_ROOT) over a
 * stand-in for ESP-IDF's heap_caps_* that records the capabilities asked for each block, each variant with
 * its own interpreter: on the large variant (TEST_VARIANT_LARGE=1, ESP32-S3, the fast interpreter, which
 * loads from flash: no RAM image) every block in PSRAM, on the small one (ESP32-C6, classic) internal; the
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

/* ---- The stand-in heap: the C library's, each call counted for the block the adapter was placing (a zeroed
 * 8-aligned one is linear memory), with the capabilities asked. Blocks not asked zeroed come filled with
 * 0xa5, so that a block used as if zeroed shows. Without PSRAM (psram_total 0) a PSRAM block is refused. ---- */
static int seen[TESSERA_WAMR_BLOCKS], wrong[TESSERA_WAMR_BLOCKS], ncalls;
static size_t asked[TESSERA_WAMR_BLOCKS];
static uint32_t expected_caps;
static size_t psram_total;

static int count(tessera_wamr_block_t block, size_t size, uint32_t caps) {
  ncalls++;
  seen[block]++;
  asked[block] += size;
  if (caps != expected_caps && wrong[block]++ == 0)
    fprintf(stderr, "block %d (%zu B) asked caps 0x%x\n", (int)block, size, (unsigned)caps);
  return !(caps & MALLOC_CAP_SPIRAM) || psram_total;
}
void *heap_caps_malloc(size_t size, uint32_t caps) {
  uint8_t *p = count(placing, size, caps) ? malloc(size) : NULL;
  if (p) memset(p, 0xa5, size);
  return p;
}
void *heap_caps_aligned_calloc(size_t alignment, size_t n, size_t size, uint32_t caps) {
  CHECK_EQ(alignment, 8);
  void *p = count(TESSERA_WAMR_LINEAR_MEMORY, n * size, caps) ? calloc(n, size) : NULL;
  CHECK(((uintptr_t)p & 7) == 0);
  return p;
}
void *heap_caps_realloc(void *p, size_t size, uint32_t caps) {
  return count(placing, size, caps) ? realloc(p, size) : NULL;
}
void heap_caps_free(void *p) { free(p); }
size_t heap_caps_get_total_size(uint32_t caps) { return caps & MALLOC_CAP_SPIRAM ? psram_total : 512 * 1024; }

static void forget_calls(void) {
  memset(seen, 0, sizeof seen);
  memset(wrong, 0, sizeof wrong);
  memset(asked, 0, sizeof asked);
  ncalls = 0;
}

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
  forget_calls();
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
  forget_calls();
  log_lines = 0;
  CHECK_EQ(tessera_rt_load(), 0);
  CHECK_EQ(log_lines, 0);
  for (int b = 0; b < TESSERA_WAMR_BLOCKS; b++) CHECK_EQ(wrong[b], 0);
#if TESSERA_WAMR_FAST_INTERP
  CHECK_EQ(seen[TESSERA_WAMR_IMAGE], 0); /* the fast interpreter loads from the port's bytes */
#else
  tessera_ram_image_t plan;
  uint32_t image = tessera_ram_image_plan(core, (uint32_t)core_len, &plan);
  CHECK(image > 0);
  CHECK_EQ(seen[TESSERA_WAMR_IMAGE], 1); /* the RAM image, once, at its planned size */
  CHECK_EQ(asked[TESSERA_WAMR_IMAGE], image);
#endif
  CHECK(seen[TESSERA_WAMR_MODULE] > 100); /* WAMR's many small blocks: a few per function */
  CHECK(asked[TESSERA_WAMR_MODULE] > 10000);
  CHECK(seen[TESSERA_WAMR_INSTANCE] > 0);
  CHECK_EQ(seen[TESSERA_WAMR_LINEAR_MEMORY], 1); /* one page, zeroed, 8-aligned, through the usage hint */
  CHECK_EQ(asked[TESSERA_WAMR_LINEAR_MEMORY], 65536);
  CHECK(seen[TESSERA_WAMR_EXEC_ENV] >= 1); /* the exec env and its stack, one block */
  CHECK(asked[TESSERA_WAMR_EXEC_ENV] >= STACK_SIZE);
  /* the core runs in the placed memory: the start function has unpacked its statics there */
  CHECK_EQ(tessera_rt_mem_size(), 65536);
  CHECK(tessera_rt_mem(0, 65536) != NULL);
  printf(
      "  %s: %d calls (a realloc counted again): module %zu B in %d, instance %zu B, linear memory %zu B, "
      "exec env %zu B\n",
      VARIANT, ncalls, asked[TESSERA_WAMR_MODULE], seen[TESSERA_WAMR_MODULE], asked[TESSERA_WAMR_INSTANCE],
      asked[TESSERA_WAMR_LINEAR_MEMORY], asked[TESSERA_WAMR_EXEC_ENV]);
}

int main(void) {
  core = read_file("build/controller.wasm", &core_len);
  if (!core) {
    fprintf(stderr, "build/controller.wasm is missing: npm run build\n");
    return 1;
  }
  expected_caps = EXPECTED;
  RUN(test_without_psram);
  RUN(test_blocks_placed);
  unload(); /* everything back through heap_caps_free, so that the leak check sees what WAMR did not free */
  wasm_runtime_destroy();
  free(core);
  return check_summary("test_wamr_heap (" VARIANT ")");
}
