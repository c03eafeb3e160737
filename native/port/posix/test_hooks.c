/* test_hooks.c: the POSIX host's test endpoint, POST /__test__/clock (with --manual-clock; server.c routes
 * it), as the desktop host's (docs/desktop-host.md). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "posix.h"
#include "tessera_driver.h"
#include "tessera_host.h"

/* POST /__test__/clock {"advance": ms, "hold": bool} with --manual-clock: the clock moves in steps of at
 * most 5 ms, and at each step the core ticks and every bus packet is delivered; `hold` (set first) stops
 * or restarts the host's own ticks (posix_tick), as the desktop host does. */
int posix_test_clock(uint32_t method, const uint8_t *body, size_t len, char *answer, size_t cap) {
  double advance = 0;
  int hold = -1;
  int ok = method == TESSERA_METHOD_POST;
  char text[256];
  size_t n = len < sizeof text - 1 ? len : sizeof text - 1;
  memcpy(text, body ? (const char *)body : "", n);
  text[n] = 0;
  const char *p = text;
  while (*p == ' ' || *p == '\n' || *p == '\r' || *p == '\t') p++;
  if (*p && *p != '{') ok = 0;
  const char *key = strstr(text, "\"advance\"");
  if (key) {
    p = strchr(key, ':');
    char *end = NULL;
    advance = p ? strtod(p + 1, &end) : -1;
    if (!p || end == p + 1) ok = 0;
  }
  key = strstr(text, "\"hold\"");
  if (key) {
    p = strchr(key, ':');
    if (p) p += strspn(p + 1, " \t\r\n") + 1;
    if (p && strncmp(p, "true", 4) == 0) hold = 1;
    else if (p && strncmp(p, "false", 5) == 0) hold = 0;
    else ok = 0;
  }
  if (!ok || !(advance >= 0) || advance > 1e9) return -1;
  posix_lock();
  if (hold >= 0) posix_ticks_held = hold;
  for (int first = 1; first || advance > 0; first = 0) {
    if (!first) {
      double step = advance < 5 ? advance : 5;
      posix_virtual_ms += step;
      advance -= step;
    }
    tessera_tick();
    bus_pump();
    tessera_tick();
    bus_pump();
  }
  int alen = snprintf(answer, cap, "{\"now\":%.15g}", posix_virtual_ms);
  posix_unlock();
  return alen;
}
