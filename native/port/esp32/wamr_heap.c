/*
 * wamr_heap.c: where the core's blocks live on the device, one table per variant (the port's side of
 * tessera_wamr.h). The WAMR adapter (runtime.c, TESSERA_WAMR_PORT_HEAP=1) says which block each
 * allocation is for; the table gives the memory asked of ESP-IDF's heap:
 *  - large (ESP32-S3 with PSRAM): all of the core in PSRAM. The RAM image, the module, the instance,
 *    linear memory and the exec env's stack are the 180-odd KiB that no chip's internal RAM has room
 *    for beside Wi-Fi and the port (npm run bench:ram); placed explicitly, since malloc's own rule
 *    (CONFIG_SPIRAM_MALLOC_ALWAYSINTERNAL) would keep WAMR's ~1,100 small blocks internal;
 *  - small (ESP32-C6, no PSRAM): all internal.
 * The large variant refuses to start without PSRAM (a module without it, or PSRAM that failed its start:
 * CONFIG_SPIRAM_IGNORE_NOTFOUND lets ESP-IDF boot on), with one log line, rather than fill the internal
 * heap and fail later.
 */
#include <stddef.h>
#include <string.h>

#include "esp_heap_caps.h"
#include "sdkconfig.h"
#include "tessera_wamr.h"

#define INTERNAL (MALLOC_CAP_INTERNAL | MALLOC_CAP_8BIT)
#define PSRAM (MALLOC_CAP_SPIRAM | MALLOC_CAP_8BIT)

#if CONFIG_TESSERA_VARIANT_LARGE
#if !CONFIG_SPIRAM
#error "the large variant keeps the core in PSRAM: CONFIG_SPIRAM (sdkconfig.defaults.esp32s3)"
#endif
#define CORE PSRAM
#else
#define CORE INTERNAL
#endif

static const uint32_t PLACEMENT[TESSERA_WAMR_BLOCKS] = {
    [TESSERA_WAMR_RUNTIME] = CORE,  [TESSERA_WAMR_IMAGE] = CORE,         [TESSERA_WAMR_MODULE] = CORE,
    [TESSERA_WAMR_INSTANCE] = CORE, [TESSERA_WAMR_LINEAR_MEMORY] = CORE, [TESSERA_WAMR_EXEC_ENV] = CORE,
};

const char *port_wamr_heap_check(void) {
  if ((CORE & MALLOC_CAP_SPIRAM) && heap_caps_get_total_size(MALLOC_CAP_SPIRAM) == 0)
    return "the large variant needs PSRAM and this board has none (or it failed to start)";
  return NULL;
}

void *port_wamr_malloc(tessera_wamr_block_t block, uint32_t size) {
  /* WAMR asserts linear memory 8-aligned and leaves zeroing it to the allocator with its usage hint */
  if (block == TESSERA_WAMR_LINEAR_MEMORY) return heap_caps_aligned_calloc(8, 1, size, PLACEMENT[block]);
  return heap_caps_malloc(size, PLACEMENT[block]);
}

void *port_wamr_realloc(tessera_wamr_block_t block, void *p, uint32_t size) {
  /* linear memory is one page and never grows (asconfig.json); a grown block would need its new part zeroed */
  if (block == TESSERA_WAMR_LINEAR_MEMORY) return NULL;
  return heap_caps_realloc(p, size, PLACEMENT[block]);
}

void port_wamr_free(void *p) { heap_caps_free(p); }
