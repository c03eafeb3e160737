/* panel_loader.h: the module a flashed panel image runs as (panel_loader.c). */
#ifndef TESSERA_PANEL_LOADER_H
#define TESSERA_PANEL_LOADER_H

#include <stdint.h>

#include "panel_module.h"

/* The module that runs `image` (a whole, checked image: header and panel.wasm) for panel number
 * `panel` (for the log); its shared object is cached under <dir>/cache. Never NULL: the built-in
 * firmware when the image cannot run. */
const panel_module_t *panel_load(const char *dir, const uint8_t *image, uint32_t len, int panel);

/* Removes the shared objects under <dir>/cache that no panel of this run has loaded (images flashed
 * over since). */
void panel_prune(const char *dir);

#endif
