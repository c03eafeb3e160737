/*
 * bus.c: the emulated panel bus of the POSIX port, as host/src/bus/virtual-bus.ts: one running panel
 * firmware per panel, wired per the topology: the built-in build/panel.wasm (translated by wasm2c),
 * or the panel.wasm of the image the panel was flashed with (panel_loader.c). Packets go through a
 * bounded queue that bus_pump delivers outside any core call, so the core is never re-entered.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "panel_loader.h"
#include "posix.h"
#include "tessera_driver.h"
#include "tessera_host.h"
#include "tessera_port.h"
#include "wasm_build.h"

#define CONTROLLER (-1)
#define UNPLUGGED (-2)
#define PACKET_CAP 256 /* the length byte: a pulse table (type 21) can be 255 bytes */
#define QUEUE_CAP 2048 /* deliveries in flight */

/* An emulated panel's flash (host/src/bus/flash.ts): the image being written, and whether the panel
 * restarts after the packet it is handling. The committed image is a file,
 * <data-dir>/.panels/<position>.fw, which the panel boots. */
typedef struct {
  uint8_t *staged;
  uint32_t staged_len;
  int restart;
} flash_t;

/* A running panel: the firmware module and its instance. */
typedef struct {
  const panel_module_t *module;
  void *instance;
} panel_t;

#define PAGE 128
#define FLASH_SIZE (16 + 256 * 1024)
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

static panel_t *panels;
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

/* A whole, valid image (magic "TSPF", bus protocol 6, length, CRC-32). */
static int image_valid(const uint8_t *p, uint32_t n) {
  return n >= 16 && le32(p) == 0x46505354u && p[4] == 6 && le32(p + 8) == n - 16 &&
         crc32(p + 16, n - 16) == le32(p + 12);
}

static int flash_file(int i, char *out, size_t cap) {
  return flash_dir[0] && snprintf(out, cap, "%s/%d.fw", flash_dir, i + 1) < (int)cap;
}

/* The firmware panel i boots: its committed image's panel.wasm, or the built-in one. */
static const panel_module_t *boot_module(int i) {
  char file[4200];
  FILE *f = flash_file(i, file, sizeof file) ? fopen(file, "rb") : NULL;
  if (!f) return panel_builtin();
  uint8_t *buf = malloc(FLASH_SIZE + 1);
  size_t n = buf ? fread(buf, 1, FLASH_SIZE + 1, f) : 0;
  fclose(f);
  const panel_module_t *m = panel_builtin();
  if (buf && image_valid(buf, (uint32_t)n))
    m = panel_load(flash_dir, le32(buf + 12), buf + 16, (uint32_t)n - 16, i + 1);
  else tessera_logf(TESSERA_LOG_WARN, "panel %d: %s is no valid image: running the built-in firmware", i + 1, file);
  free(buf);
  return m;
}

static const panel_imports_t imports;

/* (Re)starts panel i from the firmware it boots. */
static int boot(int i) {
  panel_t *p = &panels[i];
  if (p->instance) p->module->destroy(p->instance);
  p->module = boot_module(i);
  p->instance = p->module->create(&imports, (void *)(intptr_t)i);
  if (!p->instance && p->module != panel_builtin()) {
    tessera_logf(TESSERA_LOG_WARN, "panel %d: its flashed firmware failed to start: running the built-in one", i + 1);
    p->module = panel_builtin();
    p->instance = p->module->create(&imports, (void *)(intptr_t)i);
  }
  if (!p->instance) tessera_logf(TESSERA_LOG_ERROR, "bus: panel %d failed to start", i + 1);
  return p->instance ? 0 : -1;
}

static int has_fault(int i, int kind, int page) {
  uint32_t address = panels[i].module->address(panels[i].instance);
  for (int k = 0; k < fault_count; k++)
    if (faults[k].kind == kind && (uint32_t)faults[k].address == address && (kind != 'n' || faults[k].page == page))
      return 1;
  return 0;
}

int bus_start(const wire_t *wires, int n) {
  count = n;
  panels = calloc(n ? n : 1, sizeof *panels);
  links = calloc(n ? n : 1, sizeof *links);
  flashes = calloc(n ? n : 1, sizeof *flashes);
  if (!panels || !links || !flashes) return -1;
  for (int i = 0; i < n; i++)
    for (int p = 0; p < 3; p++) links[i][p] = (link_t){UNPLUGGED, 0};
  for (int i = 0; i < n; i++) {
    int parent = wires[i].parent == 0 ? CONTROLLER : wires[i].parent - 1;
    links[i][wires[i].in_edge] = (link_t){parent, wires[i].edge};
    if (parent != CONTROLLER) links[parent][wires[i].edge] = (link_t){i, wires[i].in_edge};
    else if (root < 0) root = i, root_port = wires[i].in_edge;
  }
  for (int i = 0; i < n; i++)
    if (boot(i) != 0) return -1;
  if (flash_dir[0]) panel_prune(flash_dir);
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
  panel_t *p = &panels[d->to];
  if (!p->instance) return;
  const char *trap = p->module->rx(p->instance, d->port, d->bytes, d->len);
  if (trap) tessera_logf(TESSERA_LOG_ERROR, "bus: panel %d trapped (%s)", d->to + 1, trap);
  if (flashes[d->to].restart) {
    /* BOOT_RESTART: the panel starts again, unaddressed, from its committed image */
    flashes[d->to].restart = 0;
    boot(d->to);
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

/* ---- The panel firmware's imports (ctx: the panel's position). ---------------------------------- */
static uint32_t panel_clock_ms(void *ctx) {
  (void)ctx;
  return port_clock_ms();
}

static uint32_t panel_linked(void *ctx, uint32_t port) {
  return port < 3 && links[(intptr_t)ctx][port].to != UNPLUGGED;
}

static int32_t panel_flash(void *ctx, uint32_t op, uint32_t offset, uint8_t *data, uint32_t len) {
  int i = (int)(intptr_t)ctx;
  flash_t *f = &flashes[i];
  switch (op) {
    case 0: /* erase */
      if (has_fault(i, 's', 0)) return -1;
      if (len > FLASH_SIZE) return -2;
      free(f->staged);
      f->staged = calloc(len ? len : 1, 1);
      f->staged_len = f->staged ? len : 0;
      return f->staged ? 0 : -2;
    case 1: /* write */
      if (!f->staged || (uint64_t)offset + len > f->staged_len || has_fault(i, 'n', (int)(offset / PAGE))) return -2;
      memcpy(f->staged + offset, data, len);
      return 0;
    case 2: { /* read */
      if (!f->staged || offset > f->staged_len) return -2;
      uint32_t n = f->staged_len - offset < len ? f->staged_len - offset : len;
      memcpy(data, f->staged + offset, n);
      if (n > 0 && has_fault(i, 'v', 0)) data[0] ^= 0x5a;
      return (int32_t)n;
    }
    case 3: { /* commit */
      char file[4200], part[4300];
      if (!f->staged || !image_valid(f->staged, f->staged_len)) return -3;
      if (flash_file(i, file, sizeof file)) {
        mkdir(flash_dir, 0755);
        snprintf(part, sizeof part, "%s.part", file);
        if (posix_write_file(part, f->staged, f->staged_len) != 0 || rename(part, file) != 0) return -3;
      }
      free(f->staged);
      f->staged = NULL;
      f->staged_len = 0;
      return 0;
    }
    case 4: /* restart, once this packet is handled */ f->restart = 1; return 0;
  }
  return -1;
}

static void panel_tx(void *ctx, uint32_t port, const uint8_t *bytes, uint32_t len) {
  if (port >= 3) return;
  link_t l = links[(intptr_t)ctx][port];
  if (l.to != UNPLUGGED) enqueue(l.to, l.port, bytes, len);
}

static const panel_imports_t imports = {panel_tx, panel_linked, panel_clock_ms, panel_flash};
