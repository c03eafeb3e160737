/*
 * main.c: the POSIX host's command line (the desktop host's flags) and main loop. One lock owns the
 * core, the panels and the bus queue; the main loop delivers bus packets and ticks the core when
 * due, the server's thread (server.c) takes the lock for each request and frame.
 */
#include <errno.h>
#include <limits.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "posix.h"
#include "tessera_driver.h"
#include "tessera_host.h"
#include "tessera_port.h"
#include "tessera_store.h"

static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t wake = PTHREAD_COND_INITIALIZER;
static volatile sig_atomic_t stopping, memory_wanted;
static volatile int kicked;

void posix_lock(void) { pthread_mutex_lock(&lock); }
void posix_unlock(void) { pthread_mutex_unlock(&lock); }
pthread_mutex_t *posix_mutex(void) { return &lock; }
void posix_kick(void) {
  kicked = 1;
  pthread_cond_signal(&wake);
}
uint32_t posix_tick(void) { return posix_ticks_held ? 100 : tessera_tick(); }

static const char HELP[] =
    "Usage: tessera-host [options]\n"
    "\n"
    "Runs the Tessera controller core (native C host) with a virtual bus of emulated panels.\n"
    "\n"
    "Options:\n"
    "  --port N            HTTP and WebSocket port (default 8080; 0 picks a free one)\n"
    "  --host ADDR         address to listen on (default: all interfaces)\n"
    "  --data-dir DIR      where settings are stored (default ./data)\n"
    "  --panels N          generate a tree of N triangle panels (default 12)\n"
    "  --topology FILE     wire the panels as a JSON file describes (see docs/desktop-host.md)\n"
    "  --variant small|large   panel limit 32 or 100 (default large)\n"
    "  --log-level LEVEL   error, warn, info or debug (default info)\n"
    "  --manual-clock      test hook: the clock only advances through POST /__test__/clock\n"
    "                      ({\"advance\": ms}; {\"hold\": true} stops the host's own ticks until false)\n"
    "  --no-mdns           do not advertise or browse by mDNS\n"
    "  --ota-port N        self-update with Arduino's espota.py or `tessera ota` on this UDP port\n"
    "                      (default 3232 on the large variant, 8266 on the small one; 0 turns it off)\n"
    "  --ddp-port N        the DDP live stream input on this UDP port (default 4048; 0 turns it off)\n"
    "  --e131-port N       the E1.31 (sACN) live stream input on this UDP port (default 5568; 0 turns it off)\n"
    "  --seed N            test hook: host_random() replays a fixed sequence (0-4294967295)\n"
    "  --serial PATH       the serial port for firmware frames (a tty or a pty; 57600 baud 8N1)\n"
    "  --store-limit BYTES test hook: the store holds at most this many bytes (then it is full)\n"
    "  --panel-fault F     test hook, repeatable: silent:ADDRESS, nak:ADDRESS:PAGE or verify:ADDRESS\n"
    "                      (an emulated panel's bootloader never answers, refuses a page, reads back wrong)\n"
    "  --ws-ping-ms N      WebSocket ping interval (default 10000, 100-600000; docs/porting.md)\n"
    "  --help              this text\n";

static void fail(const char *message) {
  fprintf(stderr, "error: %s\n\n%s", message, HELP);
  exit(2);
}

static int integer(const char *s, long lo, long hi, long *out) {
  char *end;
  errno = 0;
  long v = strtol(s, &end, 10);
  if (!*s || *end || errno || v < lo || v > hi) return 0;
  *out = v;
  return 1;
}

static void on_signal(int sig) {
  if (sig == SIGUSR1) memory_wanted = 1;
  else stopping = 1; /* the main loop sees either within 100 ms */
}

int main(int argc, char **argv) {
  const char *port_arg = "8080", *host = NULL, *data_dir = "data", *panels_arg = NULL, *topology = NULL;
  const char *variant = "large", *level = "info", *seed_arg = NULL, *ota_arg = NULL, *serial = NULL;
  const char *limit_arg = NULL, *ping_arg = NULL, *ddp_arg = "4048", *e131_arg = "5568";
  for (int i = 1; i < argc; i++) {
    const char *a = argv[i];
    const char **target = NULL;
    if (strcmp(a, "--manual-clock") == 0) {
      posix_manual_clock = 1;
      continue;
    }
    if (strcmp(a, "--no-mdns") == 0) {
      posix_mdns_enabled = 0;
      continue;
    }
    if (strcmp(a, "--help") == 0) {
      fputs(HELP, stdout);
      return 0;
    }
    if (strcmp(a, "--panel-fault") == 0) {
      if (i + 1 >= argc || bus_fault(argv[++i]) != 0)
        fail("--panel-fault: expected silent:ADDRESS, nak:ADDRESS:PAGE or verify:ADDRESS");
      continue;
    }
    const char *names[] = {"--port",        "--host",       "--data-dir", "--panels",   "--topology",
                           "--variant",     "--log-level",  "--seed",     "--ota-port", "--serial",
                           "--store-limit", "--ws-ping-ms", "--ddp-port", "--e131-port"};
    const char **targets[] = {&port_arg, &host,    &data_dir, &panels_arg, &topology, &variant, &level,
                              &seed_arg, &ota_arg, &serial,   &limit_arg,  &ping_arg, &ddp_arg, &e131_arg};
    const char *value = NULL;
    for (int k = 0; k < (int)(sizeof names / sizeof *names); k++) {
      size_t n = strlen(names[k]);
      if (strncmp(a, names[k], n) == 0 && (a[n] == 0 || a[n] == '=')) {
        target = targets[k];
        value = a[n] == '=' ? a + n + 1 : NULL;
      }
    }
    if (!target) {
      char m[300];
      snprintf(m, sizeof m, "Unknown option '%.200s'", a);
      fail(m);
    }
    if (!value) {
      if (i + 1 >= argc) fail("an option is missing its value");
      value = argv[++i];
    }
    *target = value;
  }
  long port, panels = 12;
  if (!integer(port_arg, 0, 65535, &port)) fail("--port must be 0-65535");
  uint32_t max_panels;
  long ota_port;
  if (strcmp(variant, "small") == 0) max_panels = 32;
  else if (strcmp(variant, "large") == 0) max_panels = 100;
  else fail("--variant must be small or large");
  if (!integer(ota_arg ? ota_arg : max_panels == 32 ? "8266" : "3232", 0, 65535, &ota_port))
    fail("--ota-port must be 0-65535");
  long ddp_port, e131_port;
  if (!integer(ddp_arg, 0, 65535, &ddp_port)) fail("--ddp-port must be 0-65535");
  if (!integer(e131_arg, 0, 65535, &e131_port)) fail("--e131-port must be 0-65535");
  const char *levels[] = {"error", "warn", "info", "debug"};
  posix_log_level = -1;
  for (int k = 0; k < 4; k++)
    if (strcmp(level, levels[k]) == 0) posix_log_level = k;
  if (posix_log_level < 0) fail("--log-level must be error, warn, info or debug");
  long ping_ms;
  if (ping_arg && !integer(ping_arg, 100, 600000, &ping_ms)) fail("--ws-ping-ms must be 100-600000");
  if (ping_arg) posix_ws_ping_ms = (int)ping_ms;
  if (panels_arg && topology) fail("give --panels or --topology, not both");
  long long seed = -1;
  if (seed_arg) {
    char *end;
    errno = 0;
    seed = strtoll(seed_arg, &end, 10);
    if (!*seed_arg || *end || errno || seed < 0 || seed > 0xffffffffLL) fail("--seed must be 0-4294967295");
  }

  static wire_t wires[MAX_EMULATED_PANELS + 1];
  int count;
  if (topology) {
    char err[300], m[400];
    count = topology_load(topology, wires, err, sizeof err);
    if (count < 0) {
      snprintf(m, sizeof m, "topology: %s", err);
      fail(m);
    }
  } else {
    if (panels_arg && !integer(panels_arg, 0, 254, &panels)) fail("--panels must be 0-254");
    count = topology_generate((int)panels, wires);
  }

  char dir[PATH_MAX];
  if (!realpath(data_dir, dir)) snprintf(dir, sizeof dir, "%s", data_dir);
  if (tessera_store_open(dir) != 0) fail("cannot create the data directory");
  if (!realpath(data_dir, dir)) snprintf(dir, sizeof dir, "%s", data_dir);
  if (limit_arg) {
    char *end;
    errno = 0;
    unsigned long long limit = strtoull(limit_arg, &end, 10);
    if (!*limit_arg || *end || errno || *limit_arg == '-') fail("--store-limit must be a byte count");
    tessera_store_limit(limit);
  }
  bus_flash_dir(dir);
  char chip[7];
  if (tessera_chip_id(chip) != 0) fail("cannot write the chip id");
  /* seeded after the chip id, so the core sees the same sequence as on the desktop host */
  if (seed >= 0) posix_seed((uint32_t)seed);

  setvbuf(stdout, NULL, _IOLBF, 0);
  signal(SIGPIPE, SIG_IGN);
  struct sigaction sa;
  memset(&sa, 0, sizeof sa);
  sa.sa_handler = on_signal;
  sigaction(SIGINT, &sa, NULL);
  sigaction(SIGTERM, &sa, NULL);
  sigaction(SIGUSR1, &sa, NULL);

  posix_lock();
  memory_mark(MEMORY_START);
  if (bus_start(wires, count) != 0) fail("cannot start the emulated panels");
  memory_mark(MEMORY_PANELS_STARTED);
  int stored = posix_core_stored(dir);
  if (tessera_start(max_panels) != 0) {
    if (!stored) fail("cannot start the core");
    tessera_logf(TESSERA_LOG_WARN, "core: the image kept by a self-update does not boot; the build's core runs");
    uint32_t old_len;
    free(posix_core_image_set(NULL, 0, &old_len));
    if (tessera_start(max_panels) != 0) fail("cannot start the core");
  }
  memory_mark(MEMORY_CORE_LOADED);
  posix_unlock();
  if (serial && serial_open(serial) != 0) fail("cannot open the --serial port");

  int bound = server_start(host, (int)port);
  if (bound < 0) { /* not a usage error: one line, no usage text */
    fprintf(stderr, "error: cannot listen on %s%s%ld (in use, or not an address here): try another --port, or 0\n",
            host ? host : "port", host ? ":" : " ", port);
    exit(1);
  }
  posix_http_port = bound;
  if (posix_ota_start((int)ota_port, dir) == 0) {
    posix_lock();
    posix_mdns_advertise_ota((uint16_t)ota_port);
    posix_unlock();
  }
  posix_stream_start(host, TESSERA_DATAGRAM_DDP, (int)ddp_port);
  posix_stream_start(host, TESSERA_DATAGRAM_E131, (int)e131_port);
  printf("Open the Tessera app: http://localhost:%d/\n", bound);
  printf("Tessera controller tessera-%s listening on http://localhost:%d\n", chip, bound);
  printf("  %d emulated panels, variant %s, data in %s\n", count, variant, dir);
  printf("  the JSON API: curl http://localhost:%d/api/state; Wi-Fi setup form: http://localhost:%d/setup\n", bound,
         bound);

  posix_lock();
  uint64_t next_tick = 0;
  while (!stopping) {
    kicked = 0;
    if (memory_wanted) {
      memory_wanted = 0;
      memory_report();
    }
    bus_pump();
    if (posix_net_pump() > 0) next_tick = 0; /* MQTT commands are queued work: apply them now */
    uint64_t now = posix_now_ms();
    if (now >= next_tick) {
      uint32_t next = posix_tick();
      if (next < 1) next = 1;
      if (next > 100) next = 100;
      next_tick = posix_now_ms() + next;
      continue;
    }
    if (bus_pending() || posix_net_pending() || kicked) continue;
    uint64_t until = next_tick;
    struct timespec ts;
    clock_gettime(CLOCK_REALTIME, &ts);
    uint64_t wait_ms = until - now;
    if (wait_ms > 100) wait_ms = 100;
    ts.tv_nsec += (long)(wait_ms * 1000000u);
    ts.tv_sec += ts.tv_nsec / 1000000000L;
    ts.tv_nsec %= 1000000000L;
    pthread_cond_timedwait(&wake, &lock, &ts);
  }
  const char *report = getenv("TESSERA_MEMORY");
  if (report && strcmp(report, "1") == 0) memory_report();
  posix_mqtt_shutdown();
  posix_mdns_shutdown();
  posix_unlock();
  server_stop();
  return 0;
}
