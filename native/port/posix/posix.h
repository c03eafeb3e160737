/* posix.h: what the files of the POSIX port share (not part of the portable host). */
#ifndef TESSERA_POSIX_H
#define TESSERA_POSIX_H

#include <stddef.h>
#include <stdint.h>

/* The one lock around the core and everything it touches (main.c). */
void posix_lock(void);
void posix_unlock(void);
#include <pthread.h>
pthread_mutex_t *posix_mutex(void);
/* Wakes the main loop (bus deliveries or a tick are due). Safe with or without the lock. */
void posix_kick(void);

/* system.c */
extern int posix_log_level; /* TESSERA_LOG_* threshold */
uint64_t posix_now_ms(void);
/* --manual-clock (test hook): the core's and the panels' clock only moves through POST /__test__/clock. */
extern int posix_manual_clock;
extern double posix_virtual_ms;
/* POST /__test__/clock {"hold": true} (test hook): the host's own ticks stop, so that only that endpoint
 * ticks the core, until {"hold": false}. posix_tick (main.c) is every tick but the endpoint's: it ticks
 * the core unless held. Call with the lock. */
extern int posix_ticks_held;
uint32_t posix_tick(void);
/* --seed N (test hook): port_random() becomes xorshift32 from N, as the desktop host's seededRandom. */
void posix_seed(uint32_t seed);

/* topology.c: wires as host/src/bus/topology.ts. */
typedef struct {
  int parent; /* 1-based position of the parent, 0 for the controller */
  int edge;   /* the parent's slot 0-2 */
  int in_edge;
} wire_t;
#define MAX_EMULATED_PANELS 254
/* Both return the number of wires, or -1 with a message in err. */
int topology_generate(int n, wire_t *out);
int topology_load(const char *file, wire_t *out, char *err, int err_len);

/* bus.c: the emulated panels (build/panel.wasm via wasm2c) and the queue between them. */
int bus_start(const wire_t *wires, int n);
/* Before bus_start: where the panels keep their flashed images (<dir>/.panels), and the test hook
 * --panel-fault (silent:ADDRESS, nak:ADDRESS:PAGE, verify:ADDRESS; 0, or -1 when malformed). */
void bus_flash_dir(const char *dir);
int bus_fault(const char *text);
/* Delivers queued packets (and what they cause); returns how many were delivered. Call with the lock. */
int bus_pump(void);
int bus_pending(void);
/* The bytes of the bus's static queue (for memory.c). */
unsigned long bus_static_bytes(void);
/* Every byte the controller has put on the bus so far (port/bench). */
unsigned long bus_controller_bytes(void);

/* memory.c: heap samples at startup and the report of who holds what (SIGUSR1, TESSERA_MEMORY=1). */
enum { MEMORY_START, MEMORY_PANELS_STARTED, MEMORY_CORE_LOADED, MEMORY_MARKS };
void memory_mark(int mark);
void memory_report(void);

/* net.c: identity; the MQTT and mDNS queues, delivered from the main loop. */
extern int posix_http_port;
int posix_net_pending(void);
int posix_net_pump(void); /* call with the lock, outside any core call; returns how many were delivered */

/* mqtt.c: the MQTT session (libmosquitto). Events and messages wait in a queue for the main loop. */
int posix_mqtt_pending(void);
int posix_mqtt_pump(void);      /* with the lock: delivers a few queued items, returns how many */
void posix_mqtt_shutdown(void); /* with the lock, at exit: publishes the will, disconnects, waits briefly */

/* mdns.c: the advertisement and browses (libmdnsd); --no-mdns clears posix_mdns_enabled. */
extern int posix_mdns_enabled;
int posix_mdns_pending(void);
int posix_mdns_pump(void);      /* with the lock: delivers queued answers and the end of a browse */
void posix_mdns_shutdown(void); /* at exit: withdraws the advertisement */

/* stream.c: the live stream input of `kind` (TESSERA_DATAGRAM_DDP: --ddp-port, _E131: --e131-port) on UDP
 * `port` (0 off), bound to `host` (NULL: every interface). 0, or -1 when it is off or cannot listen (a
 * warning says why). */
int posix_stream_start(const char *host, uint32_t kind, int port);

/* serial.c: --serial PATH (a tty or a pty, 57600 8N1 raw). 0, or -1 when it cannot be opened. */
int serial_open(const char *path);

/* test_hooks.c: POST /__test__/clock {"advance": ms, "hold": bool} (the request's method and body): the
 * JSON answer in answer[0..cap) and its length, or -1 for a body that is not such an object (400). Takes
 * the lock. */
int posix_test_clock(uint32_t method, const uint8_t *body, size_t len, char *answer, size_t cap);

/* server.c: HTTP + /ws on its own thread. Returns the bound port or -1. --ws-ping-ms sets the ping interval. */
extern int posix_ws_ping_ms;
int server_start(const char *host, int port);
void server_stop(void);
/* With the lock, after a self-update booted another core: requests in flight get 500 (as after a
 * restart) and every open /ws connection is opened again in the new core, which sends it APP_STATE. */
void server_core_swapped(void);

/* The core image tessera_rt_load boots (a self-update's, or the one stored at start): image.c for the
 * interpreters (WAMR, wasm3: port_core_image), core_loader.c for wasm2c (a shared object made of it).
 * posix_core_prepare makes image[0..len) ready to boot, without the core lock (wasm2c translates and
 * compiles it: seconds, cached in dir; at_start: the cache keeps only it): 0, or -1 with why.
 * posix_core_image_set, with the lock, puts a prepared `image` (malloc'd, taken over; NULL: the build's
 * own) in place and returns the previous bytes (the caller frees them, or puts them back; NULL: the
 * build's), their length in *old_len. */
int posix_core_prepare(const char *dir, const uint8_t *image, uint32_t len, int at_start, char *why, size_t cap);
uint8_t *posix_core_image_set(uint8_t *image, uint32_t len, uint32_t *old_len);

/* ota.c: self-update with espota's protocol on UDP `port` (0: off); the image is kept in data_dir.
 * Returns 0 when it listens. */
int posix_ota_start(int port, const char *data_dir);
/* ota.c, at start: the image a self-update kept in data_dir (if any, and if it can run) becomes the one
 * tessera_start boots; 1 when it did (posix_core_image_set(NULL...) goes back to the build's). */
int posix_core_stored(const char *data_dir);

/* mdns.c: advertise _arduino._tcp on the self-update port, beside the core's advertisement. */
void posix_mdns_advertise_ota(uint16_t port);

#endif
