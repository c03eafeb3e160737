/*
 * panel_loader.c: runs a flashed panel image on the POSIX host. An emulated panel's image carries a
 * panel.wasm; this host has no wasm runtime for panels, so it does what its build does with the
 * factory one: wasm2c translates the payload, the C compiler builds it with panel_module.c into a
 * shared object, and dlopen loads it. The objects are cached under <data-dir>/.panels/cache by the
 * image's CRC-32 and length (made on the first boot that needs them, removed at a start that no
 * longer does); when any step fails the panel runs the built-in firmware and the log says why
 * (wasm_build.c runs the build's tools).
 */
#include <dirent.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "panel_loader.h"
#include "tessera_host.h"
#include "tessera_port.h"
#include "wasm_build.h"

/* The images this process has loaded or failed to: 100 panels of one image cost one build. */
typedef struct {
  uint32_t crc, len;
  const panel_module_t *module; /* NULL: it failed */
} loaded_t;
static loaded_t loaded[16];
static int loaded_count;

const panel_module_t *panel_load(const char *dir, uint32_t crc, const uint8_t *wasm, uint32_t size, int panel) {
  for (int i = 0; i < loaded_count; i++)
    if (loaded[i].crc == crc && loaded[i].len == size) return loaded[i].module ? loaded[i].module : panel_builtin();
  char cache[4200], so[4300];
  const char *failed = NULL;
  const panel_module_t *module = NULL;
  snprintf(cache, sizeof cache, "%s/cache", dir);
  snprintf(so, sizeof so, "%s/panel-%d-%08x-%u.so", cache, PANEL_MODULE_ABI, crc, size);
  mkdir(dir, 0755);
  mkdir(cache, 0755);
  if (access(so, R_OK) != 0) {
    tessera_logf(TESSERA_LOG_INFO, "panels: building image %08x (%u B) with wasm2c and %s", crc, size, TESSERA_CC);
    static const char *const flags[] = {"-Wl,-z,defs", "-DPANEL_MODULE_SHARED", "-I" TESSERA_POSIX_DIR, NULL};
    failed = wasm_build_so(cache, wasm, size, "panel", TESSERA_POSIX_DIR "/panel_module.c", flags, so);
  }
  if (!failed) {
    module = wasm_so_entry(so, PANEL_MODULE_SYMBOL, &failed);
    if (module && module->abi != PANEL_MODULE_ABI) failed = "its shared object is for another host";
    if (failed) module = NULL;
    else tessera_logf(TESSERA_LOG_INFO, "panels: image %08x runs from %s", crc, so);
  }
  if (failed)
    tessera_logf(TESSERA_LOG_WARN, "panel %d: cannot run its flashed image %08x (%s): running the built-in firmware",
                 panel, crc, failed);
  if (loaded_count < 16) loaded[loaded_count++] = (loaded_t){crc, size, module};
  return module ? module : panel_builtin();
}

void panel_prune(const char *dir) {
  char cache[4200], keep[16][64], file[4300];
  int kept = 0;
  snprintf(cache, sizeof cache, "%s/cache", dir);
  for (int i = 0; i < loaded_count; i++)
    if (loaded[i].module)
      snprintf(keep[kept++], sizeof keep[0], "panel-%d-%08x-%u.so", PANEL_MODULE_ABI, loaded[i].crc, loaded[i].len);
  DIR *d = opendir(cache);
  if (!d) return;
  for (struct dirent *e; (e = readdir(d));) {
    size_t n = strlen(e->d_name);
    int used = 0;
    for (int k = 0; k < kept; k++) used |= strcmp(e->d_name, keep[k]) == 0;
    if (used || n < 3 || strcmp(e->d_name + n - 3, ".so") != 0) continue;
    snprintf(file, sizeof file, "%s/%s", cache, e->d_name);
    unlink(file);
  }
  closedir(d);
}
