/*
 * panel_module.h: one panel firmware module behind a table of functions, so every emulated panel can
 * run its own: the factory panel.wasm that wasm2c translated into the host at build time
 * (panel_builtin), or a flashed image's panel.wasm that panel_loader.c translated and compiled into a
 * shared object at run time. Both are panel_module.c compiled against their own translation.
 */
#ifndef TESSERA_PANEL_MODULE_H
#define TESSERA_PANEL_MODULE_H

#include <stdint.h>

/* Bumped whenever these tables change: a shared object built for another is not loaded. */
#define PANEL_MODULE_ABI 1
/* The one symbol a shared object exports: const panel_module_t *tessera_panel_module(void). */
#define PANEL_MODULE_SYMBOL "tessera_panel_module"

/* What a panel needs from its host (assembly/panel/imports.ts); ctx is the host's, per panel. */
typedef struct {
  void (*tx)(void *ctx, uint32_t port, const uint8_t *bytes, uint32_t len);
  uint32_t (*linked)(void *ctx, uint32_t port);
  uint32_t (*clock_ms)(void *ctx);
  /* panel_flash: data is inside the panel's memory (len bytes) for WRITE and READ, else NULL. */
  int32_t (*flash)(void *ctx, uint32_t op, uint32_t offset, uint8_t *data, uint32_t len);
} panel_imports_t;

typedef struct {
  uint32_t abi;
  /* A running panel wired to ctx, or NULL (it trapped, or no memory). */
  void *(*create)(const panel_imports_t *imports, void *ctx);
  void (*destroy)(void *instance);
  /* Delivers one packet (header included) received on edge port: NULL, or why it failed (a trap). */
  const char *(*rx)(void *instance, uint32_t port, const uint8_t *bytes, uint32_t len);
  /* The bus address the panel took (0: none yet). Callable from inside an import. */
  uint32_t (*address)(void *instance);
} panel_module_t;

/* The factory firmware, compiled in. */
const panel_module_t *panel_builtin(void);

#endif
