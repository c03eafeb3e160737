/*
 * panel_module.c: a wasm2c translation of panel.wasm ("panel.h", module name "panel") behind the
 * table of panel_module.h. Compiled into the host against build/panel.wasm (panel_builtin), and by
 * panel_loader.c into each shared object it makes of a flashed image (PANEL_MODULE_SHARED: every
 * symbol hidden but tessera_panel_module, so each object keeps its own translation and wasm-rt).
 */
#include <stdlib.h>
#include <string.h>

#include "panel.h"
#include "panel_module.h"
#include "wasm-rt-impl.h"

#ifdef PANEL_MODULE_SHARED
#define ENTRY __attribute__((visibility("default"))) const panel_module_t *tessera_panel_module(void)
#else
#define ENTRY const panel_module_t *panel_builtin(void)
#endif

/* The panel's imports get this as their instance. */
struct Z_tessera_panel_instance_t {
  const panel_imports_t *imports;
  void *ctx;
  Z_panel_instance_t *wasm;
};

typedef struct {
  Z_panel_instance_t wasm;
  struct Z_tessera_panel_instance_t host;
} instance_t;

u32 Z_tessera_panelZ_panel_clock_ms(struct Z_tessera_panel_instance_t *c) { return c->imports->clock_ms(c->ctx); }

u32 Z_tessera_panelZ_panel_linked(struct Z_tessera_panel_instance_t *c, u32 port) {
  return c->imports->linked(c->ctx, port);
}

void Z_tessera_panelZ_panel_tx(struct Z_tessera_panel_instance_t *c, u32 port, u32 ptr, u32 len) {
  wasm_rt_memory_t *m = Z_panelZ_memory(c->wasm);
  if ((uint64_t)ptr + len <= m->size) c->imports->tx(c->ctx, port, m->data + ptr, len);
}

u32 Z_tessera_panelZ_panel_flash(struct Z_tessera_panel_instance_t *c, u32 op, u32 offset, u32 ptr, u32 len) {
  wasm_rt_memory_t *m = Z_panelZ_memory(c->wasm);
  int data_op = op == 1 || op == 2; /* WRITE, READ */
  if (data_op && (uint64_t)ptr + len > m->size) return (u32)-2;
  return (u32)c->imports->flash(c->ctx, op, offset, data_op ? m->data + ptr : NULL, len);
}

static void *create(const panel_imports_t *imports, void *ctx) {
  instance_t *p = calloc(1, sizeof *p);
  if (!p) return NULL;
  p->host = (struct Z_tessera_panel_instance_t){imports, ctx, &p->wasm};
  if (wasm_rt_impl_try() != WASM_RT_TRAP_NONE) {
    free(p);
    return NULL;
  }
  Z_panel_instantiate(&p->wasm, &p->host);
  return p;
}

static void destroy(void *instance) {
  instance_t *p = instance;
  if (!p) return;
  Z_panel_free(&p->wasm);
  free(p);
}

static const char *rx(void *instance, uint32_t port, const uint8_t *bytes, uint32_t len) {
  instance_t *p = instance;
  wasm_rt_trap_t code = wasm_rt_impl_try();
  if (code != WASM_RT_TRAP_NONE) return wasm_rt_strerror(code);
  uint32_t at = Z_panelZ_panel_rx_buffer(&p->wasm);
  wasm_rt_memory_t *m = Z_panelZ_memory(&p->wasm);
  if ((uint64_t)at + len > m->size) return "receive buffer outside memory";
  memcpy(m->data + at, bytes, len);
  Z_panelZ_panel_rx(&p->wasm, port, len);
  return NULL;
}

static uint32_t address(void *instance) { return Z_panelZ_panel_address(&((instance_t *)instance)->wasm); }

static const panel_module_t table = {PANEL_MODULE_ABI, create, destroy, rx, address};

ENTRY {
  static int ready;
  if (!ready) {
    if (!wasm_rt_is_initialized()) wasm_rt_init();
    Z_panel_init_module();
    ready = 1;
  }
  return &table;
}
