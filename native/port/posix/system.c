/* system.c: clock, entropy and log of the POSIX port. */
#include <stdio.h>
#include <sys/random.h>
#include <time.h>

#include "posix.h"
#include "tessera_host.h"
#include "tessera_port.h"

int posix_log_level = TESSERA_LOG_INFO;

static const char *const LEVELS[] = {"error", "warn", "info", "debug"};

static uint64_t now_us(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (uint64_t)ts.tv_sec * 1000000u + (uint64_t)ts.tv_nsec / 1000u;
}

uint64_t posix_now_ms(void) { return now_us() / 1000u; }

int posix_manual_clock;
double posix_virtual_ms;
int posix_ticks_held;

uint32_t port_clock_ms(void) {
  return posix_manual_clock ? (uint32_t)(uint64_t)posix_virtual_ms : (uint32_t)posix_now_ms();
}
uint32_t port_clock_us(void) {
  return posix_manual_clock ? (uint32_t)(uint64_t)(posix_virtual_ms * 1000.0) : (uint32_t)now_us();
}

static int seeded;
static uint32_t seed_state;

void posix_seed(uint32_t seed) {
  seeded = 1;
  seed_state = seed ? seed : 0x9e3779b9u;
}

uint32_t port_random(void) {
  if (seeded) {
    uint32_t x = seed_state;
    x ^= x << 13;
    x ^= x >> 17;
    x ^= x << 5;
    return seed_state = x;
  }
  uint32_t r = 0;
  if (getrandom(&r, sizeof r, 0) != (ssize_t)sizeof r) r = (uint32_t)now_us() * 2654435761u;
  return r;
}

void port_log(uint32_t level, const char *msg, uint32_t len) {
  if (level > TESSERA_LOG_DEBUG) level = TESSERA_LOG_INFO;
  if ((int)level > posix_log_level) return;
  fprintf(stderr, "[%s] %.*s\n", LEVELS[level], (int)len, msg);
}
