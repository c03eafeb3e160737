/*
 * bench.c: the device-fit bench (bench/wamr.ts runs it; docs/device-memory.md).
 * A port with no network: the core runs in this process through native/src (driver.c), answers and
 * frames are captured in memory, the store is files in a directory (port/posix/store.c), the panels
 * are the POSIX port's emulated bus (port/posix/bus.c, build/panel.wasm through wasm2c), the clock only
 * moves when the workload advances it, MQTT is a loopback stand-in that connects at once and counts
 * what is published into the ESP32 port's outbox, mDNS does nothing. The core is driven only through
 * tessera_driver.h, in the ESP32 port's order (port/esp32/server.c, host.c): each request through the
 * Host/Origin check, then the request, then the HTTP job's tick; a WebSocket open through the check.
 *
 *   tessera-bench <panels> <max panels> <fixture dir> <data dir>
 *
 * The fixture dir holds what bench/wamr.ts writes: maximal.json (the maximal scene), runners.json (8
 * runner layers), set-color.bin and set-mirror.bin (WebSocket frames). Each step prints one line
 * "step <name> ..." with the answer; the WAMR build prints "memory ..." lines with WAMR's allocator
 * statistics. Under valgrind --tool=callgrind each measured operation is bracketed by
 * CALLGRIND_ZERO_STATS / CALLGRIND_DUMP_STATS_AT(name) (counts only inside the tessera_* driver calls
 * when run with --collect-atstart=no and --toggle-collect on them, as bench/wamr.ts does).
 */
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "posix.h"
#include "tessera_driver.h"
#include "tessera_host.h"
#include "tessera_mqtt_outbox.h"
#include "tessera_port.h"
#include "tessera_requests.h"
#include "tessera_runtime.h"
#include "tessera_store.h"

#ifdef TESSERA_WAMR
#include "tessera_wamr.h"
#endif
#ifdef TESSERA_WASM3
#include "tessera_wasm3.h"
#endif

#ifdef TESSERA_CALLGRIND
#include <valgrind/callgrind.h>
#else
#define CALLGRIND_ZERO_STATS
#define CALLGRIND_DUMP_STATS_AT(name) ((void)(name))
#endif

#define ANSWER_CAP (512 * 1024)
#define LIBRARY 99     /* scenes with 64-character names; the maximal scene makes 100, the library's limit */
#define WS_CONN 1      /* the one WebSocket connection, with the mirror on */
#define SET_COLORS 8   /* SET_COLOR frames measured */
#define STATE_GETS 3   /* GET /api/state measured */
#define START_TICKS 16 /* at most this many ticks for a start's bus traffic */

/* ---- The port (tessera_port.h). ---------------------------------------------------------------- */
static uint64_t clock_us;
static uint32_t rng = 0x2545f491u;
static unsigned long ws_frames, ws_bytes, mqtt_messages, mqtt_bytes, restarts, errors;
static int mqtt_connect_pending, mdns_done_pending, mqtt_refuse;
static unsigned long mqtt_connects, mqtt_refused;
static char last_restart[160];
static int ws_connected;

uint32_t port_clock_ms(void) { return (uint32_t)(clock_us / 1000u); }
uint32_t port_clock_us(void) { return (uint32_t)clock_us; }

uint32_t port_random(void) {
  rng ^= rng << 13;
  rng ^= rng >> 17;
  rng ^= rng << 5;
  return rng;
}

/* Errors and warnings to stderr, each distinct line at most three times (a trap loop repeats them). */
void port_log(uint32_t level, const char *msg, uint32_t len) {
  static char seen[32][96];
  static int times[32], count;
  if (level == TESSERA_LOG_ERROR) errors++;
  if (level > TESSERA_LOG_WARN) return;
  char line[96];
  snprintf(line, sizeof line, "%.*s", (int)len, msg);
  int i = 0;
  while (i < count && strcmp(seen[i], line) != 0) i++;
  if (i == count && count < 32) snprintf(seen[count++], sizeof seen[0], "%s", line);
  if (i < 32 && times[i]++ >= 3) return;
  fprintf(stderr, "[%s] %.*s\n", level ? "warn" : "error", (int)len, msg);
}

void port_ws_send(uint32_t conn, const uint8_t *data, uint32_t len) {
  (void)conn;
  (void)data;
  ws_frames++;
  ws_bytes += len;
}

void port_ws_broadcast(const uint8_t *data, uint32_t len) { port_ws_send(WS_CONN, data, len); }

uint32_t port_hostname(char *buf, uint32_t cap) { return (uint32_t)snprintf(buf, cap, "tessera-be0c11"); }
uint32_t port_http_port(void) { return 80; }

void port_mdns_advertise(const char *hostname, const char *service, uint16_t port, const char *const *txt,
                         uint32_t txt_count) {
  (void)hostname, (void)service, (void)port, (void)txt, (void)txt_count;
}
void port_mdns_browse(const char *service, uint32_t timeout_ms) {
  (void)service, (void)timeout_ms;
  mdns_done_pending = 1; /* nothing found */
}

void port_mqtt_connect(const tessera_mqtt_connect_t *params) {
  (void)params;
  mqtt_connect_pending = 1;
}
/* MQTT publishes go into an outbox as on the ESP32 port (port/esp32/mqtt.c: the same buffer, written
 * piece by piece), which the stand-in's "worker" empties only when the core's call has returned
 * (pump): a connect's whole burst waits at once, as behind a slow broker. */
static uint8_t outbox_buf[TESSERA_MQTT_OUTBOX_CAP];
static tessera_outbox_t outbox = {.buf = outbox_buf, .cap = sizeof outbox_buf};
static unsigned long mqtt_dropped, mqtt_largest, mqtt_pieces, mqtt_burst_peak;

void port_mqtt_append(const uint8_t *piece, uint32_t len) {
  tessera_outbox_append(&outbox, piece, len);
  mqtt_pieces += len;
}

void port_mqtt_publish(const char *topic, const uint8_t *payload, uint32_t len, int retain) {
  unsigned long whole = mqtt_pieces + len;
  mqtt_pieces = 0;
  if (tessera_outbox_end(&outbox, topic, payload, len, retain, 0) != 0) {
    mqtt_dropped += topic != NULL;
    return;
  }
  mqtt_messages++;
  mqtt_bytes += strlen(topic) + whole;
  if (whole > mqtt_largest) mqtt_largest = whole;
}

static void mqtt_worker(void) {
  tessera_outbox_entry_t e;
  while (tessera_outbox_peek(&outbox, &e)) tessera_outbox_pop(&outbox);
}
void port_mqtt_subscribe(const char *topic) { (void)topic; }
void port_mqtt_disconnect(void) {}

void port_wifi_configure(const char *ssid, uint32_t ssid_len, const char *pass, uint32_t pass_len) {
  (void)ssid, (void)ssid_len, (void)pass, (void)pass_len;
}
void port_serial_write(const uint8_t *data, uint32_t len) { (void)data, (void)len; }
int32_t port_serial_read(uint8_t *buf, uint32_t cap) {
  (void)buf, (void)cap;
  return 0;
}

/* The image as a device has it: read-only (flash), mapped once. A runtime that wrote into it would
 * crash here as it would on the chip. */
const uint8_t *port_core_image(uint32_t *len) {
  static const uint8_t *bytes;
  static uint32_t size;
  if (!bytes) {
    int fd = open(TESSERA_CORE_WASM, O_RDONLY);
    struct stat st;
    if (fd < 0 || fstat(fd, &st) != 0 || st.st_size <= 0) return NULL;
    void *m = mmap(NULL, (size_t)st.st_size, PROT_READ, MAP_PRIVATE, fd, 0);
    close(fd);
    if (m == MAP_FAILED) return NULL;
    bytes = m;
    size = (uint32_t)st.st_size;
  }
  *len = size;
  return bytes;
}

void port_core_restarted(const char *reason) {
  restarts++;
  ws_connected = 0; /* a restart closes every connection (1011) */
  snprintf(last_restart, sizeof last_restart, "%s", reason);
  tessera_requests_fail_all();
}

/* bus.c wakes the POSIX main loop with this; the bench pumps the bus itself. */
void posix_kick(void) {}

/* ---- The host's loop, by hand. ----------------------------------------------------------------- */

/* Delivers bus packets (panels run outside the driver calls: not counted) and the MQTT/mDNS stand-ins.
 * A core that traps on an MQTT connect (building the discovery documents) would reconnect after each
 * restart and trap again, forever: after the first such trap the stand-in broker is unreachable, so
 * the rest of the workload still runs (the trap is reported). */
static void pump(void) {
  for (int busy = 1; busy;) {
    busy = bus_pump() > 0;
    if (mqtt_connect_pending) {
      mqtt_connect_pending = 0;
      mqtt_connects++;
      unsigned long before = restarts;
      if (mqtt_refuse) {
        mqtt_refused++;
        tessera_mqtt_event(TESSERA_MQTT_FAILED, TESSERA_MQTT_UNREACHABLE);
      } else {
        if (mqtt_connects == 1) CALLGRIND_ZERO_STATS;
        tessera_mqtt_event(TESSERA_MQTT_CONNECTED, 0);
        if (mqtt_connects == 1) {
          CALLGRIND_DUMP_STATS_AT("mqtt-connect");
          mqtt_burst_peak = outbox.peak; /* the connect's discovery and states, all waiting at once */
        }
        if (restarts != before) mqtt_refuse = 1;
      }
      busy = 1;
    }
    mqtt_worker();
    if (mdns_done_pending) {
      mdns_done_pending = 0;
      tessera_mdns_done();
      busy = 1;
    }
  }
}

/* One tick of the main loop after `ms` of time, then the bus. Returns the core's next delay. */
static uint32_t tick(uint32_t ms) {
  clock_us += (uint64_t)ms * 1000u;
  uint32_t next = tessera_tick();
  pump();
  return next;
}

/* Lets `ms` of time pass, ticking when the core asks (at most every 100 ms, as main.c). */
static void run_for(uint32_t ms) {
  while (ms > 0) {
    uint32_t next = tick(0);
    if (next < 1) next = 1;
    if (next > 100) next = 100;
    if (next > ms) next = ms;
    clock_us += (uint64_t)next * 1000u;
    ms -= next;
  }
}

typedef struct {
  uint32_t status;
  char *body; /* NUL-terminated, malloc'd */
  size_t len;
} answer_t;

static tessera_request_t slots[4];

/* What a browser on the controller's page sends: Host its mDNS name, and Origin on everything but GET and
 * HEAD (and on a WebSocket upgrade). */
#define HOST "tessera-be0c11.local"
#define ORIGIN "http://" HOST

/* One request as the ESP32 port's HTTP job runs it (port/esp32/server.c http_job): the Host/Origin
 * policy, the request, then a tick; ticking on until it is answered (a 202 is applied by the tick). */
/* When set, the next request is measured: its Host check and request as `measured`, the tick the job
 * runs after it as `measured_tick` (it does the work the request queued, and whatever else is due). */
static const char *measured, *measured_tick;

static answer_t request(const char *method, const char *url, const char *body, size_t body_len) {
  static const char *const METHODS[] = {"", "GET", "HEAD", "POST", "PUT", "PATCH", "DELETE"};
  uint32_t m = 0;
  for (uint32_t i = 1; i < 7; i++)
    if (strcmp(method, METHODS[i]) == 0) m = i;
  answer_t a = {0, NULL, 0};
  uint32_t id = tessera_request_open(NULL);
  if (!id) return a;
  int origin = m > 2;
  if (measured) CALLGRIND_ZERO_STATS;
  if (tessera_http_allow(id, HOST, strlen(HOST), origin ? ORIGIN : NULL, origin ? strlen(ORIGIN) : 0))
    tessera_http(id, m, (const uint8_t *)url, (uint32_t)strlen(url), (const uint8_t *)body, (uint32_t)body_len,
                 (uint32_t)body_len);
  if (measured) {
    CALLGRIND_DUMP_STATS_AT(measured);
    CALLGRIND_ZERO_STATS;
  }
  tessera_tick();
  if (measured) CALLGRIND_DUMP_STATS_AT(measured_tick);
  measured = NULL;
  pump();
  for (int i = 0; i < 100 && !tessera_request_done(id); i++) tick(10);
  tessera_answer_t t;
  if (tessera_request_take(id, &t)) {
    a.status = t.status & 0xffff;
    a.body = malloc(t.len + 1);
    if (a.body) {
      memcpy(a.body, t.body, t.len);
      a.body[t.len] = 0;
    }
    a.len = t.len;
    free(t.body);
  }
  return a;
}

static char *read_file(const char *dir, const char *name, size_t *len) {
  char path[4096];
  snprintf(path, sizeof path, "%s/%s", dir, name);
  FILE *f = fopen(path, "rb");
  if (!f) {
    fprintf(stderr, "bench: cannot read %s\n", path);
    exit(2);
  }
  fseek(f, 0, SEEK_END);
  long n = ftell(f);
  fseek(f, 0, SEEK_SET);
  char *b = malloc((size_t)n + 1);
  if (!b || fread(b, 1, (size_t)n, f) != (size_t)n) exit(2);
  b[n] = 0;
  fclose(f);
  *len = (size_t)n;
  return b;
}

/* The value of "id" in an answer such as {"id":"abcd1234"}, or "". */
static void id_of(const answer_t *a, char out[32]) {
  out[0] = 0;
  const char *p = a->body ? strstr(a->body, "\"id\":\"") : NULL;
  if (!p) return;
  p += 6;
  size_t n = strcspn(p, "\"");
  if (n >= 32) n = 31;
  memcpy(out, p, n);
  out[n] = 0;
}

/* A library scene named `name` (JSON-ready), POSTed or PUT/PATCHed to url. */
static answer_t put_scene(const char *method, const char *url, const char *name) {
  char body[768];
  int n = snprintf(body, sizeof body,
                   "{\"name\":\"%s\",\"layers\":[{\"group\":1,\"sequence\":[{\"type\":\"BREATHE\",\"colorFrom\":"
                   "\"#000020\",\"colorTo\":\"#4060FF\",\"duration\":4000}]}]}",
                   name);
  return request(method, url, body, (size_t)n);
}

static unsigned long restarts_before;

/* Prints the step's outcome: status, answer size, and any trap during it. */
static void report(const char *step, const answer_t *a, const char *extra) {
  printf("step %s status=%u bytes=%lu", step, a ? a->status : 0, a ? (unsigned long)a->len : 0ul);
  if (restarts != restarts_before) printf(" traps=%lu trap=\"%s\"", restarts - restarts_before, last_restart);
  if (a && a->status >= 400 && a->body) printf(" answer=%.120s", a->body);
  if (extra && *extra) printf(" %s", extra);
  printf("\n");
  fflush(stdout);
  restarts_before = restarts;
}

/* Renames the library's scenes to `prefix` then a number counting down (the sort has work to do), then
 * lists them: GET /api/scenes measured as `step`. */
static void list_renamed(char library[][32], int count, const char *prefix, const char *step) {
  unsigned refused = 0;
  for (int i = 0; i < count; i++) {
    char url[64], name[400];
    snprintf(url, sizeof url, "/api/scenes/%s", library[i]);
    snprintf(name, sizeof name, "%s%03d", prefix, count - 1 - i);
    answer_t a = put_scene("PATCH", url, name);
    refused += a.status != 200;
    free(a.body);
    tick(10);
  }
  run_for(1000); /* the select republished, everything settled */
  measured = step, measured_tick = "job-tick";
  answer_t a = request("GET", "/api/scenes", "", 0);
  char extra[64];
  snprintf(extra, sizeof extra, "renamed=%d refused=%u", count, refused);
  report(step, &a, extra);
  free(a.body);
}

static void memory(const char *when) {
  size_t linear = tessera_rt_mem_size();
#ifdef TESSERA_WAMR
  tessera_wamr_stats_t s;
  if (tessera_wamr_stats(&s))
    printf(
        "memory %s linear=%lu counted=%d live=%u peak=%u blocks=%u pool=%d pool_used=%u pool_highmark=%u "
        "image_copy=%u image_split=%d module=%u instance=%u exec_env=%u stack_size=%u stack_used=%u fast=%d\n",
        when, (unsigned long)linear, s.counted, s.live, s.peak, s.blocks, s.pool, s.pool_used, s.pool_highmark,
        s.image_copy, s.image_split, s.module, s.instance, s.exec_env, s.stack_size, s.stack_used, s.fast_interp);
#elif defined(TESSERA_WASM3)
  tessera_wasm3_stats_t s;
  if (tessera_wasm3_stats(&s))
    printf("memory %s linear=%lu counted=%d live=%u peak=%u runtime=%u module=%u instance=%u code=%u wasm3=1\n", when,
           (unsigned long)linear, s.counted, s.live, s.peak, s.runtime, s.module, s.instance, s.code);
#else
  printf("memory %s linear=%lu\n", when, (unsigned long)linear);
#endif
  fflush(stdout);
}

/* Counts '{' in an answer: the objects of GET /api/panels/edges. */
static int objects(const answer_t *a) {
  int n = 0;
  for (size_t i = 0; a->body && i < a->len; i++) n += a->body[i] == '{';
  return n;
}

/* The ticks after a play request (the first at once, then every 10 ms) until one puts nothing on the
 * bus: the start's traffic is out. Returns how many ticks ran, the quiet one included. */
static int start_ticks(unsigned long *bytes) {
  unsigned long before = bus_controller_bytes();
  int ticks = 0;
  while (ticks < START_TICKS) {
    unsigned long b = bus_controller_bytes();
    tick(ticks ? 10 : 0);
    ticks++;
    if (ticks > 1 && bus_controller_bytes() == b) break;
  }
  *bytes = bus_controller_bytes() - before;
  return ticks;
}

/* A WebSocket upgrade as the ESP32 port opens it (server.c esp32_server_pump): the Host/Origin policy on
 * a request slot whose answer is dropped, then the open, then the frame SET_MIRROR 1 and the loop's tick. */
static void mirror_on(const char *set_mirror, size_t len) {
  if (ws_connected) return;
  uint32_t id = tessera_request_open(NULL);
  int allowed = id && tessera_http_allow(id, HOST, strlen(HOST), ORIGIN, strlen(ORIGIN));
  tessera_answer_t refused;
  if (id && tessera_request_take(id, &refused)) free(refused.body);
  ws_connected = allowed && tessera_ws_open(WS_CONN);
  tessera_ws_frame(WS_CONN, (const uint8_t *)set_mirror, (uint32_t)len);
  tick(0);
  tick(10);
}

/* DDP frames for every panel (issue 35), each colour different from the frame before, so every panel
 * gets its set color: one frame after the stream has started is measured ("ddp-frame"). */
static void ddp_frames(int panels) {
  static uint8_t d[10 + 3 * 100];
  uint32_t n = (uint32_t)(panels < 100 ? panels : 100) * 3u;
  unsigned long bus_before = 0;
  for (int f = 0; f < 3; f++) {
    d[0] = 0x41; /* version 1, push */
    d[1] = (uint8_t)(f + 1);
    d[2] = 0x0b; /* RGB, 8 bits */
    d[3] = 1;    /* the display */
    d[4] = d[5] = d[6] = d[7] = 0;
    d[8] = (uint8_t)(n >> 8);
    d[9] = (uint8_t)n;
    for (uint32_t i = 0; i < n; i++) d[10 + i] = (uint8_t)(i * 7u + (uint32_t)f * 50u);
    tick(10);
    if (f == 2) bus_before = bus_controller_bytes();
    CALLGRIND_ZERO_STATS;
    tessera_datagram(TESSERA_DATAGRAM_DDP, 0x7f000001u, d, 10 + n);
    CALLGRIND_DUMP_STATS_AT("ddp-frame");
    pump();
  }
  char extra[64];
  snprintf(extra, sizeof extra, "panels=%u bus_bytes=%lu", n / 3, bus_controller_bytes() - bus_before);
  report("ddp-frame", NULL, extra);
  run_for(3000); /* the stream times out: the look returns */
}

int main(int argc, char **argv) {
  if (argc != 5) {
    fprintf(stderr, "usage: tessera-bench <panels> <max panels> <fixture dir> <data dir>\n");
    return 2;
  }
  int panels = atoi(argv[1]);
  uint32_t max_panels = (uint32_t)atoi(argv[2]);
  const char *fixtures = argv[3];
  setvbuf(stdout, NULL, _IOLBF, 0);
  if (tessera_store_open(argv[4]) != 0) return fprintf(stderr, "bench: cannot open %s\n", argv[4]), 2;
  static wire_t wires[MAX_EMULATED_PANELS + 1];
  int count = topology_generate(panels, wires);
  tessera_requests_init(slots, sizeof slots / sizeof slots[0], ANSWER_CAP, NULL);
  if (bus_start(wires, count) != 0) return fprintf(stderr, "bench: cannot start the panels\n"), 2;

  size_t maximal_len, runners_len, color_len, mirror_len;
  char *maximal = read_file(fixtures, "maximal.json", &maximal_len);
  char *runners = read_file(fixtures, "runners.json", &runners_len);
  char *set_color = read_file(fixtures, "set-color.bin", &color_len);
  char *set_mirror = read_file(fixtures, "set-mirror.bin", &mirror_len);

  if (tessera_start(max_panels) != 0) return fprintf(stderr, "bench: the core did not start\n"), 1;
  pump();
  memory("loaded");

  /* Discovery: until the edges list holds every panel's three edges (at most 30 s of clock). */
  answer_t a = {0, NULL, 0};
  int found = 0;
  for (int i = 0; i < 300 && found < panels * 3; i++) {
    run_for(100);
    free(a.body);
    a = request("GET", "/api/panels/edges", "", 0);
    found = objects(&a);
  }
  char extra[320];
  snprintf(extra, sizeof extra, "panels=%d clock_ms=%u", found / 3, port_clock_ms());
  report("discovery", &a, extra);
  free(a.body);
  memory("discovered");

  /* A body nested 1000 deep, to every endpoint that reads JSON: the core answers 400 after 16 levels;
   * its parser's recursion up to there, on top of each handler's own frames, is the deepest use of the
   * execution stack (a stack overflow traps). */
  {
    static const char *const DEEP[][2] = {{"PATCH", "/api/appearance"},
                                          {"PATCH", "/api/configuration"},
                                          {"PATCH", "/api/mqtt"},
                                          {"POST", "/api/setup"},
                                          {"POST", "/api/palettes"},
                                          {"POST", "/api/scenes"},
                                          {"POST", "/api/scenes/play/one-shot"},
                                          {"POST", "/api/animations/play"},
                                          {"PUT", "/api/panels/1/color"},
                                          {"POST", "/api/state/power"}};
    static char deep[2100];
    int n = snprintf(deep, sizeof deep, "{\"brightness\":");
    for (int i = 0; i < 1000; i++) deep[n++] = '[';
    for (int i = 0; i < 1000; i++) deep[n++] = ']';
    deep[n++] = '}';
    unsigned refused = 0;
    answer_t first = {0};
    for (size_t i = 0; i < sizeof DEEP / sizeof DEEP[0]; i++) {
      a = request(DEEP[i][0], DEEP[i][1], deep, (size_t)n);
      if (a.status >= 400 && a.status < 500) refused++; /* 400; 404 where the variant has no such route */
      if (i == 0) first = a;
      else free(a.body);
    }
    snprintf(extra, sizeof extra, "endpoints=%u refused=%u", (unsigned)(sizeof DEEP / sizeof DEEP[0]), refused);
    report("deep-json", &first, extra);
    free(first.body);
    memory("deep-json"); /* the exec env's stack: how much of it this took */
  }

  /* The library: 99 scenes with 64-character names. */
  unsigned refused = 0, first_refusal = 0;
  static char library[LIBRARY][32];
  for (int i = 0; i < LIBRARY; i++) {
    char name[65];
    snprintf(name, sizeof name, "Library scene %03d with a name of sixty-four characters ..........", i);
    name[64] = 0;
    a = put_scene("POST", "/api/scenes", name);
    id_of(&a, library[i]);
    if (a.status != 200 && !refused++) first_refusal = a.status;
    free(a.body);
    tick(10);
  }
  snprintf(extra, sizeof extra, "scenes=%d refused=%u first_refusal=%u", LIBRARY, refused, first_refusal);
  report("library", NULL, extra);

  /* MQTT on a fixed broker: the stand-in connects at once, Home Assistant discovery is published. */
  if (max_panels > 32) {
    const char *mqtt = "{\"enabled\":true,\"broker\":\"127.0.0.1\",\"port\":1883}";
    a = request("PATCH", "/api/mqtt", mqtt, strlen(mqtt));
    run_for(1000);
    snprintf(extra, sizeof extra,
             "published=%lu published_bytes=%lu largest_payload=%lu outbox_cap=%u connect_outbox_peak=%lu dropped=%lu "
             "connects=%lu refused=%lu%s",
             mqtt_messages, mqtt_bytes, mqtt_largest, (unsigned)sizeof outbox_buf, mqtt_burst_peak, mqtt_dropped,
             mqtt_connects, mqtt_refused, mqtt_refuse ? " broker_cut_after_trap=yes" : "");
    report("mqtt", &a, extra);
    free(a.body);
    memory("mqtt");
    a = request("GET", "/api/mqtt", "", 0);
    snprintf(extra, sizeof extra, "connected=%s", a.body && strstr(a.body, "\"connected\":true") ? "yes" : "no");
    report("mqtt-state", &a, extra);
    free(a.body);
  }

  /* Mirror on: a WebSocket connection that sent SET_MIRROR 1 (again after a restart closed it, as a
   * client reconnects). */
  mirror_on(set_mirror, mirror_len);
  snprintf(extra, sizeof extra, "ws_open=%d ws_frames=%lu", ws_connected, ws_frames);
  report("mirror", NULL, extra);
  memory("library");

  /* Save the maximal scene. */
  measured = "save-maximal", measured_tick = "save-maximal-tick";
  a = request("POST", "/api/scenes", maximal, maximal_len);
  char scene_id[32];
  id_of(&a, scene_id);
  snprintf(extra, sizeof extra, "scene_bytes=%lu id=%s", (unsigned long)maximal_len, scene_id);
  report("save-maximal", &a, extra);
  free(a.body);
  tick(10);

  /* Play it by id: the request and the ticks until its bus traffic is out. */
  char url[96];
  snprintf(url, sizeof url, "/api/scenes/%s/play", scene_id[0] ? scene_id : "missing");
  unsigned long bytes;
  CALLGRIND_ZERO_STATS;
  a = request("POST", url, "", 0);
  int ticks = start_ticks(&bytes);
  CALLGRIND_DUMP_STATS_AT("play-maximal");
  snprintf(extra, sizeof extra, "ticks=%d bus_bytes=%lu", ticks, bytes);
  report("play-maximal", &a, extra);
  free(a.body);
  run_for(200);

  /* The library listed. */
  measured = "get-scenes", measured_tick = "job-tick";
  a = request("GET", "/api/scenes", "", 0);
  report("get-scenes", &a, NULL);
  free(a.body);

  /* GET /api/state, a few times (the last one measured). */
  for (int i = 0; i < STATE_GETS; i++) {
    tick(10);
    measured = "get-state", measured_tick = "get-state-tick";
    a = request("GET", "/api/state", "", 0);
    if (i == STATE_GETS - 1) report("get-state", &a, NULL);
    free(a.body);
  }

  /* WebSocket SET_COLOR frames: the frame and the tick the ESP32 loop runs at once after a delivered frame
   * (host.c core_thread); its bus packet goes out in the frame's call. */
  mirror_on(set_mirror, mirror_len);
  unsigned long bus_before = bus_controller_bytes();
  for (int i = 0; i < SET_COLORS; i++) {
    tick(10);
    CALLGRIND_ZERO_STATS;
    tessera_ws_frame(WS_CONN, (const uint8_t *)set_color, (uint32_t)color_len);
    CALLGRIND_DUMP_STATS_AT("ws-set-color");
    CALLGRIND_ZERO_STATS;
    tessera_tick();
    CALLGRIND_DUMP_STATS_AT("ws-set-color-tick");
    pump();
  }
  snprintf(extra, sizeof extra, "frames=%d bus_bytes=%lu", SET_COLORS, bus_controller_bytes() - bus_before);
  report("ws-set-color", NULL, extra);

  ddp_frames(panels);

  /* An idle tick: stop the scene, let everything settle, then one tick with nothing to do. */
  a = request("POST", "/api/scenes/stop", "{}", 2);
  free(a.body);
  run_for(2000);
  uint32_t next = tick(10);
  clock_us += 1000; /* before the next tick is due: nothing to do */
  CALLGRIND_ZERO_STATS;
  tessera_tick();
  CALLGRIND_DUMP_STATS_AT("idle-tick");
  snprintf(extra, sizeof extra, "next_tick_ms=%u", next);
  report("idle-tick", NULL, extra);
  pump();

  /* 8 runner layers on every panel, one-shot. */
  mirror_on(set_mirror, mirror_len);
  tick(10);
  CALLGRIND_ZERO_STATS;
  a = request("POST", "/api/scenes/play/one-shot", runners, runners_len);
  ticks = start_ticks(&bytes);
  CALLGRIND_DUMP_STATS_AT("runners-8");
  snprintf(extra, sizeof extra, "ticks=%d bus_bytes=%lu", ticks, bytes);
  report("runners-8", &a, extra);
  free(a.body);
  run_for(500);

  /* GET /api/scenes again, the library's names sharing a long prefix: 61 ASCII characters (64 in all,
   * the longest name), then 60 CJK characters (180 UTF-8 bytes alike, the longest alike prefix). */
  list_renamed(library, LIBRARY, "Living room, evening: warm white slowly fading into amber no ", "get-scenes-prefix");
  {
    char cjk[200] = "";
    for (int i = 0; i < 60; i++) strcat(cjk, "\xe6\x99\x9a"); /* U+665A */
    list_renamed(library, LIBRARY, cjk, "get-scenes-utf8");
  }

  memory("end");
  printf("done restarts=%lu errors=%lu ws_frames=%lu ws_bytes=%lu mqtt_messages=%lu\n", restarts, errors, ws_frames,
         ws_bytes, mqtt_messages);
  free(maximal);
  free(runners);
  free(set_color);
  free(set_mirror);
  return 0;
}
