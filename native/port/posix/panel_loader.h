/* panel_loader.h: the module a flashed panel image runs as (panel_loader.c). */
#ifndef TESSERA_PANEL_LOADER_H
#define TESSERA_PANEL_LOADER_H

#include <stdint.h>

#include "panel_module.h"

/* The module that runs the panel.wasm of a checked image (wasm[0..size), the image's CRC-32 crc) for
 * panel number `panel` (for the log); its shared object is cached under <dir>/cache. Never NULL: the
 * built-in firmware when the image cannot run. */
const panel_module_t *panel_load(const char *dir, uint32_t crc, const uint8_t *wasm, uint32_t size, int panel);

/* Removes the shared objects under <dir>/cache that no panel of this run has loaded (images flashed
 * over since). */
void panel_prune(const char *dir);

#endif
