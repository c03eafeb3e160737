/*
 * bus.c: the emulated panel bus of the POSIX port, as host/src/bus/virtual-bus.ts: one instance of
 * build/panel.wasm (translated by wasm2c, module "panel") per panel, wired per the topology. Packets
 * go through a bounded queue that bus_pump delivers outside any core call, so the core is never
 * re-entered.
 */
#include <stdlib.h>
#include <string.h>

#include "panel.h"
#include "posix.h"
#include "tessera_driver.h"
#include "tessera_host.h"
#include "tessera_port.h"
#include "wasm-rt-impl.h"

#define CONTROLLER (-1)
#define UNPLUGGED (-2)
#define PACKET_CAP 256   /* the length byte: a pulse table (type 21) can be 255 bytes */
#define QUEUE_CAP 2048   /* deliveries in flight */

struct Z_tessera_panel_instance_t {
  int index;
};

typedef struct {
  int to; /* panel position or CONTROLLER */
  uint8_t port;
  uint8_t len;
  uint8_t bytes[PACKET_CAP];
} delivery_t;

typedef struct {
  int to, port;
} link_t;

static Z_panel_instance_t *panels;
static struct Z_tessera_panel_instance_t *contexts;
static link_t (*links)[3];
static int count;
static int root = -1, root_port;
static delivery_t queue[QUEUE_CAP];
static int head, size;
static unsigned long dropped, from_controller;

static void enqueue(int to, int port, const uint8_t *bytes, uint32_t len) {
  if (len > PACKET_CAP) {
    tessera_logf(TESSERA_LOG_WARN, "bus: dropped a %u-byte packet (larger than any valid one)", len);
    return;
  }
  if (size == QUEUE_CAP) {
    if (dropped++ % 1000 == 0) tessera_logf(TESSERA_LOG_WARN, "bus: queue full, packet dropped");
    return;
  }
  delivery_t *d = &queue[(head + size++) % QUEUE_CAP];
  d->to = to;
  d->port = (uint8_t)port;
  d->len = (uint8_t)len;
  memcpy(d->bytes, bytes, len);
  posix_kick();
}

int bus_start(const wire_t *wires, int n) {
  count = n;
  if (!wasm_rt_is_initialized()) wasm_rt_init();
  Z_panel_init_module();
  panels = calloc(n ? n : 1, sizeof *panels);
  contexts = calloc(n ? n : 1, sizeof *contexts);
  links = calloc(n ? n : 1, sizeof *links);
  if (!panels || !contexts || !links) return -1;
  for (int i = 0; i < n; i++)
    for (int p = 0; p < 3; p++) links[i][p] = (link_t){UNPLUGGED, 0};
  for (int i = 0; i < n; i++) {
    int parent = wires[i].parent == 0 ? CONTROLLER : wires[i].parent - 1;
    links[i][wires[i].in_edge] = (link_t){parent, wires[i].edge};
    if (parent != CONTROLLER) links[parent][wires[i].edge] = (link_t){i, wires[i].in_edge};
    else if (root < 0) root = i, root_port = wires[i].in_edge;
  }
  for (int i = 0; i < n; i++) {
    contexts[i].index = i;
    wasm_rt_trap_t code = wasm_rt_impl_try();
    if (code != WASM_RT_TRAP_NONE) {
      tessera_logf(TESSERA_LOG_ERROR, "bus: panel %d failed to start (%s)", i + 1, wasm_rt_strerror(code));
      return -1;
    }
    Z_panel_instantiate(&panels[i], &contexts[i]);
  }
  return 0;
}

/* The controller transmits: the packet goes to the panel wired to it. */
void port_bus_send(const uint8_t *data, uint32_t len) {
  from_controller += len;
  if (root >= 0) enqueue(root, root_port, data, len);
}

unsigned long bus_controller_bytes(void) { return from_controller; }

int bus_pending(void) { return size > 0; }

unsigned long bus_static_bytes(void) { return (unsigned long)sizeof queue; }

static void deliver_to_panel(const delivery_t *d) {
  Z_panel_instance_t *p = &panels[d->to];
  wasm_rt_trap_t code = wasm_rt_impl_try();
  if (code != WASM_RT_TRAP_NONE) {
    tessera_logf(TESSERA_LOG_ERROR, "bus: panel %d trapped (%s)", d->to + 1, wasm_rt_strerror(code));
    return;
  }
  uint32_t rx = Z_panelZ_panel_rx_buffer(p);
  wasm_rt_memory_t *m = Z_panelZ_memory(p);
  if ((uint64_t)rx + d->len > m->size) return;
  memcpy(m->data + rx, d->bytes, d->len);
  Z_panelZ_panel_rx(p, d->port, d->len);
}

int bus_pump(void) {
  int delivered = 0;
  while (size > 0) {
    delivery_t d = queue[head]; /* a copy: delivering may enqueue more */
    head = (head + 1) % QUEUE_CAP;
    size--;
    if (d.to == CONTROLLER) tessera_bus_receive(d.bytes, d.len);
    else deliver_to_panel(&d);
    delivered++;
  }
  return delivered;
}

/* ---- The panel firmware's imports (module "tessera_panel"). ------------------------------------ */
typedef struct Z_tessera_panel_instance_t pctx_t;

u32 Z_tessera_panelZ_panel_clock_ms(pctx_t *c) {
  (void)c;
  return port_clock_ms();
}

u32 Z_tessera_panelZ_panel_linked(pctx_t *c, u32 port) { return port < 3 && links[c->index][port].to != UNPLUGGED; }

void Z_tessera_panelZ_panel_tx(pctx_t *c, u32 port, u32 ptr, u32 len) {
  if (port >= 3) return;
  link_t l = links[c->index][port];
  if (l.to == UNPLUGGED) return;
  wasm_rt_memory_t *m = Z_panelZ_memory(&panels[c->index]);
  if ((uint64_t)ptr + len > m->size) return;
  enqueue(l.to, l.port, m->data + ptr, len);
}
