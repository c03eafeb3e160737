/*
 * core_loader.c: runs another core image on the wasm2c host, whose own core is compiled in. As the
 * panel loader does for a flashed panel image: wasm2c translates the image, the C compiler builds it
 * with runtime/wasm2c/core_module.c into a shared object (wasm_build.c), and dlopen loads it; its
 * imports call the host_* functions this executable exports. The object is cached under
 * <data-dir>/.core by the image's build identifier and length, so the image a self-update stored boots
 * at the next start without a build; the objects of other images are removed when the start loads one.
 */
#include <dirent.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "core_loader.h"
#include "tessera_host.h"
#include "tessera_md5.h"
#include "tessera_port.h"
#include "wasm_build.h"

/* Removes the shared objects under cache but `keep`. */
static void prune(const char *cache, const char *keep) {
  DIR *d = opendir(cache);
  if (!d) return;
  for (struct dirent *e; (e = readdir(d));) {
    size_t n = strlen(e->d_name);
    if (n < 3 || strcmp(e->d_name + n - 3, ".so") != 0 || strcmp(e->d_name, keep) == 0) continue;
    char file[4400];
    snprintf(file, sizeof file, "%s/%s", cache, e->d_name);
    unlink(file);
  }
  closedir(d);
}

const core_module_t *core_load(const char *dir, const uint8_t *wasm, uint32_t len, int prune_others, char *why,
                               size_t cap) {
  uint32_t id = tessera_build_id(wasm, len);
  char cache[4200], name[64], so[4300], id_flag[64];
  snprintf(cache, sizeof cache, "%s/.core", dir);
  snprintf(name, sizeof name, "core-%d-%08x-%u.so", CORE_MODULE_ABI, (unsigned)id, (unsigned)len);
  snprintf(so, sizeof so, "%s/%s", cache, name);
  mkdir(cache, 0755);
  const char *failed = NULL;
  if (access(so, R_OK) != 0) {
    tessera_logf(TESSERA_LOG_INFO, "core: building image %08x (%u B) with wasm2c and %s", (unsigned)id, (unsigned)len,
                 TESSERA_CC);
    snprintf(id_flag, sizeof id_flag, "-DTESSERA_CORE_BUILD_ID=0x%08xu", (unsigned)id);
    /* -O0: a core's translation is 1-2 MB of C, built in seconds so (-O1 takes three times as long), well
     * within the 60 s espota waits for the result; a PC runs it fast enough */
    const char *flags[] = {"-O0", "-DCORE_MODULE_SHARED", id_flag, "-I" TESSERA_WASM2C_DIR, "-I" TESSERA_INCLUDE_DIR,
                           NULL};
    failed = wasm_build_so(cache, wasm, len, "controller", TESSERA_WASM2C_DIR "/core_module.c", flags, so);
  }
  const core_module_t *module = NULL;
  if (!failed) {
    module = wasm_so_entry(so, CORE_MODULE_SYMBOL, &failed);
    if (module && (module->abi != CORE_MODULE_ABI || module->build_id != id))
      failed = "its shared object is for another host";
  }
  if (failed) {
    snprintf(why, cap, "cannot run it with wasm2c: %s", failed);
    return NULL;
  }
  if (prune_others) prune(cache, name);
  tessera_logf(TESSERA_LOG_INFO, "core: image %08x runs from %s", (unsigned)id, so);
  return module;
}

/* The modules this process has prepared (a self-update, or the start), by build identifier and length. */
static struct {
  uint32_t id, len;
  const core_module_t *module;
} prepared[8];
static int prepared_count;
static uint8_t *bytes; /* the image selected (NULL: the build's) */
static uint32_t size;

int posix_core_prepare(const char *dir, const uint8_t *image, uint32_t len, int at_start, char *why, size_t cap) {
  uint32_t id = tessera_build_id(image, len);
  if (id == core_builtin()->build_id) { /* the build's own image: compiled in */
    char cache[4200];
    snprintf(cache, sizeof cache, "%s/.core", dir);
    if (at_start) prune(cache, "");
    return 0;
  }
  for (int i = 0; i < prepared_count; i++)
    if (prepared[i].id == id && prepared[i].len == len) return 0;
  const core_module_t *module = core_load(dir, image, len, at_start, why, cap);
  if (!module) return -1;
  int slot = prepared_count < 8 ? prepared_count++ : 7;
  prepared[slot].id = id;
  prepared[slot].len = len;
  prepared[slot].module = module;
  return 0;
}

uint8_t *posix_core_image_set(uint8_t *image, uint32_t len, uint32_t *old_len) {
  uint8_t *old = bytes;
  *old_len = size;
  bytes = image;
  size = len;
  const core_module_t *module = NULL; /* the build's, also for an image never prepared */
  uint32_t id = image ? tessera_build_id(image, len) : 0;
  for (int i = 0; image && i < prepared_count; i++)
    if (prepared[i].id == id && prepared[i].len == len) module = prepared[i].module;
  tessera_rt_select(module);
  return old;
}
