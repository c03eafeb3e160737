/*
 * runtime.c: the wasm2c runtime adapter (tessera_runtime.h). A core image runs as a wasm2c translation
 * behind core_module.h's table: the build's controller.wasm, translated to C at build time and linked
 * in (core_builtin), or another image a self-update (or the data directory at start) brought, which
 * port/posix/core_loader.c translated and compiled into a shared object and selected here.
 */
#include <string.h>

#include "core_module.h"
#include "tessera_core_exports.h"
#include "tessera_host.h"
#include "tessera_runtime.h"

static const core_module_t *module;  /* NULL: the built-in one */
static const core_module_t *running; /* the module of `instance` (select changes `module` only) */
static void *instance;
static int loaded;
static const char *trap_reason;

const core_module_t *tessera_rt_select(const core_module_t *next) {
  const core_module_t *before = module ? module : core_builtin();
  module = next;
  return before;
}

static const core_module_t *current(void) { return module ? module : core_builtin(); }

int tessera_rt_load(void) {
  if (instance) running->destroy(instance);
  instance = NULL;
  loaded = 0;
  running = current();
  const char *why = NULL;
  instance = running->create(&why);
  if (!instance) {
    trap_reason = why;
    return -1;
  }
  loaded = 1;
  return 0;
}

uint32_t tessera_rt_build_id(void) { return (running ? running : current())->build_id; }

uint8_t *tessera_rt_mem(uint32_t ptr, uint32_t len) {
  if (!instance) return NULL;
  size_t size;
  uint8_t *data = running->memory(instance, &size);
  if ((uint64_t)ptr + len > size) return NULL;
  return data + ptr;
}

size_t tessera_rt_mem_size(void) {
  size_t size = 0;
  if (instance) running->memory(instance, &size);
  return size;
}

const char *tessera_rt_take_trap(void) {
  const char *r = trap_reason;
  trap_reason = NULL;
  return r;
}

/* Runs export f; on a trap records it (the instance is unusable until reloaded) and returns `fallback`. */
static uint32_t run(uint32_t fallback, int f, const uint32_t *args) {
  if (!loaded) {
    if (!trap_reason) trap_reason = "core not loaded";
    return fallback;
  }
  const char *why = NULL;
  uint32_t r = running->call(instance, f, args, &why);
  if (!why) return r;
  trap_reason = why;
  loaded = 0;
  return fallback;
}

#define ARGS(...) ((const uint32_t[]){__VA_ARGS__})

void core_init(uint32_t max_panels, uint32_t build) { run(0, F_INIT, ARGS(max_panels, build)); }
uint32_t core_tick(void) { return run(10, F_TICK, NULL); }
uint32_t core_rx_buffer(uint32_t len) { return run(0, F_RX_BUFFER, ARGS(len)); }
uint32_t core_http_begin(uint32_t req, uint32_t method, uint32_t url_len, uint32_t body_len) {
  return run(0, F_HTTP_BEGIN, ARGS(req, method, url_len, body_len));
}
uint32_t core_http_allow(uint32_t req, uint32_t host_len, uint32_t origin_len) {
  return run(0, F_HTTP_ALLOW, ARGS(req, host_len, origin_len));
}
void core_http_dispatch(uint32_t req) { run(0, F_HTTP_DISPATCH, ARGS(req)); }
uint32_t core_ws_open(uint32_t conn) { return run(0, F_WS_OPEN, ARGS(conn)); }
void core_ws_frame(uint32_t conn, uint32_t len) { run(0, F_WS_FRAME, ARGS(conn, len)); }
void core_ws_close(uint32_t conn) { run(0, F_WS_CLOSE, ARGS(conn)); }
void core_bus_receive(uint32_t len) { run(0, F_BUS_RECEIVE, ARGS(len)); }
void core_mqtt_event(uint32_t kind, uint32_t reason) { run(0, F_MQTT_EVENT, ARGS(kind, reason)); }
void core_mqtt_message(uint32_t topic_len, uint32_t payload_len) {
  run(0, F_MQTT_MESSAGE, ARGS(topic_len, payload_len));
}
void core_mdns_result(uint32_t host_len, uint32_t port) { run(0, F_MDNS_RESULT, ARGS(host_len, port)); }
void core_mdns_done(void) { run(0, F_MDNS_DONE, NULL); }
void core_serial_receive(uint32_t len) { run(0, F_SERIAL_RECEIVE, ARGS(len)); }
void core_datagram(uint32_t kind, uint32_t source, uint32_t len) { run(0, F_DATAGRAM, ARGS(kind, source, len)); }
