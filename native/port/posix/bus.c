/*
 * bus.c: the emulated panel bus of the POSIX port, as host/src/bus/virtual-bus.ts: one instance of
 * build/panel.wasm (translated by wasm2c, module "panel") per panel, wired per the topology. Packets
 * go through a bounded queue that bus_pump delivers outside any core call, so the core is never
 * re-entered.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

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

/* An emulated panel's flash (host/src/bus/flash.ts): the image being written, the version it runs,
 * and whether it restarts after the packet it is handling. The committed image is a file,
 * <data-dir>/.panels/<position>.fw. wasm2c has compiled the panel firmware in, so a restarted panel
 * runs that code whatever it was flashed with: what changes is the version it reports (its image's
 * header), the one behaviour of a flashed image this host can show. */
typedef struct {
  uint8_t *staged;
  uint32_t staged_len;
  uint32_t version;
  int restart;
} flash_t;

#define PAGE 128
#define FLASH_SIZE (16 + 256 * 1024)
#define FACTORY_VERSION 1
static flash_t *flashes;
static char flash_dir[4096];
typedef struct {
  int kind; /* 's' silent, 'n' nak, 'v' verify */
  int address, page;
} fault_t;
static fault_t faults[16];
static int fault_count;

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

int bus_fault(const char *text) {
  fault_t f = {0, 0, -1};
  char kind[8];
  int n = 0;
  if (fault_count >= 16) return -1;
  if (sscanf(text, "%7[a-z]:%d%n", kind, &f.address, &n) != 2 || f.address < 1 || f.address > 254) return -1;
  if (strcmp(kind, "nak") == 0) {
    int m = 0;
    if (sscanf(text + n, ":%d%n", &f.page, &m) != 1 || f.page < 0) return -1;
    n += m;
    f.kind = 'n';
  } else if (strcmp(kind, "silent") == 0) f.kind = 's';
  else if (strcmp(kind, "verify") == 0) f.kind = 'v';
  else return -1;
  if (text[n] != 0) return -1;
  faults[fault_count++] = f;
  return 0;
}

void bus_flash_dir(const char *dir) { snprintf(flash_dir, sizeof flash_dir, "%s/.panels", dir); }

static uint32_t crc32(const uint8_t *p, uint32_t n) {
  uint32_t c = 0xffffffffu;
  while (n--) {
    c ^= *p++;
    for (int k = 0; k < 8; k++) c = c & 1 ? (c >> 1) ^ 0xedb88320u : c >> 1;
  }
  return ~c;
}

static uint32_t le32(const uint8_t *p) { return p[0] | p[1] << 8 | p[2] << 16 | (uint32_t)p[3] << 24; }

/* A whole, valid image (magic "TSPF", bus protocol 6, length, CRC-32): its version, else 0. */
static uint32_t image_version(const uint8_t *p, uint32_t n) {
  if (n < 16 || le32(p) != 0x46505354u || p[4] != 6 || le32(p + 8) != n - 16 || crc32(p + 16, n - 16) != le32(p + 12))
    return 0;
  return p[6] | p[7] << 8;
}

static int flash_file(int i, char *out, size_t cap) {
  return flash_dir[0] && snprintf(out, cap, "%s/%d.fw", flash_dir, i + 1) < (int)cap;
}

/* The version panel i boots: its committed image's, or the factory firmware's. */
static uint32_t boot_version(int i) {
  char file[4200];
  uint32_t v = FACTORY_VERSION;
  FILE *f = flash_file(i, file, sizeof file) ? fopen(file, "rb") : NULL;
  if (!f) return v;
  uint8_t *buf = malloc(FLASH_SIZE);
  size_t n = buf ? fread(buf, 1, FLASH_SIZE, f) : 0;
  fclose(f);
  uint32_t got = buf ? image_version(buf, (uint32_t)n) : 0;
  free(buf);
  return got ? got : v;
}

static int has_fault(int i, int kind, int page) {
  uint32_t address = Z_panelZ_panel_address(&panels[i]);
  for (int k = 0; k < fault_count; k++)
    if (faults[k].kind == kind && (uint32_t)faults[k].address == address && (kind != 'n' || faults[k].page == page))
      return 1;
  return 0;
}

int bus_start(const wire_t *wires, int n) {
  count = n;
  if (!wasm_rt_is_initialized()) wasm_rt_init();
  Z_panel_init_module();
  panels = calloc(n ? n : 1, sizeof *panels);
  contexts = calloc(n ? n : 1, sizeof *contexts);
  links = calloc(n ? n : 1, sizeof *links);
  flashes = calloc(n ? n : 1, sizeof *flashes);
  if (!panels || !contexts || !links || !flashes) return -1;
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
    flashes[i].version = boot_version(i);
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
  if (flashes[d->to].restart) {
    /* BOOT_RESTART: the panel starts again, unaddressed, from its committed image */
    flashes[d->to].restart = 0;
    flashes[d->to].version = boot_version(d->to);
    Z_panel_free(p);
    Z_panel_instantiate(p, &contexts[d->to]);
  }
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

u32 Z_tessera_panelZ_panel_flash(pctx_t *c, u32 op, u32 offset, u32 ptr, u32 len) {
  int i = c->index;
  flash_t *f = &flashes[i];
  wasm_rt_memory_t *m = Z_panelZ_memory(&panels[i]);
  int data_op = op == 1 || op == 2;
  if (data_op && (uint64_t)ptr + len > m->size) return (u32)-2;
  switch (op) {
    case 0: /* erase */
      if (has_fault(i, 's', 0)) return (u32)-1;
      if (len > FLASH_SIZE) return (u32)-2;
      free(f->staged);
      f->staged = calloc(len ? len : 1, 1);
      f->staged_len = f->staged ? len : 0;
      return f->staged ? 0 : (u32)-2;
    case 1: /* write */
      if (!f->staged || (uint64_t)offset + len > f->staged_len || has_fault(i, 'n', (int)(offset / PAGE))) return (u32)-2;
      memcpy(f->staged + offset, m->data + ptr, len);
      return 0;
    case 2: { /* read */
      if (!f->staged || offset > f->staged_len) return (u32)-2;
      uint32_t n = f->staged_len - offset < len ? f->staged_len - offset : len;
      memcpy(m->data + ptr, f->staged + offset, n);
      if (n > 0 && has_fault(i, 'v', 0)) m->data[ptr] ^= 0x5a;
      return n;
    }
    case 3: { /* commit */
      char file[4200], part[4300];
      if (!f->staged || !image_version(f->staged, f->staged_len)) return (u32)-3;
      if (flash_file(i, file, sizeof file)) {
        mkdir(flash_dir, 0755);
        snprintf(part, sizeof part, "%s.part", file);
        FILE *out = fopen(part, "wb");
        int ok = out && fwrite(f->staged, 1, f->staged_len, out) == f->staged_len;
        if (out && fclose(out) != 0) ok = 0;
        if (!ok || rename(part, file) != 0) return (u32)-3;
      }
      free(f->staged);
      f->staged = NULL;
      f->staged_len = 0;
      return 0;
    }
    case 4: /* restart, once this packet is handled */
      f->restart = 1;
      return 0;
    case 5:
      return f->version;
  }
  return (u32)-1;
}

void Z_tessera_panelZ_panel_tx(pctx_t *c, u32 port, u32 ptr, u32 len) {
  if (port >= 3) return;
  link_t l = links[c->index][port];
  if (l.to == UNPLUGGED) return;
  wasm_rt_memory_t *m = Z_panelZ_memory(&panels[c->index]);
  if ((uint64_t)ptr + len > m->size) return;
  enqueue(l.to, l.port, m->data + ptr, len);
}
