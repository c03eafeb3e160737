/*
 * memory.c: where the POSIX host's memory goes, for the bench (docs/porting.md, "Measuring memory").
 * The heap in use (glibc mallinfo2: arena bytes in use + mmapped chunks, all threads) is sampled
 * before the emulated panels start, after them and after the core is loaded, so that
 *   panels = heap taken by the panel instances (bus.c), plus the bus queue (static);
 *   core   = heap taken by loading the core (the runtime, its module and instance, the linear memory);
 *   host   = the heap in use now minus both, and minus any growth of the core's linear memory:
 *            what the host itself holds (the server's connection buffers and send queues, pending answers).
 * Printed as one line "memory {json}" on stdout at SIGUSR1 (and at exit with TESSERA_MEMORY=1).
 */
#include <malloc.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "posix.h"
#include "tessera_runtime.h"

static size_t marks[MEMORY_MARKS];

static size_t heap_in_use(void) {
  struct mallinfo2 m = mallinfo2();
  return m.uordblks + m.hblkhd;
}

static size_t linear_bytes(void) { return tessera_rt_mem_size(); }

static size_t linear_at_load;

void memory_mark(int mark) {
  marks[mark] = heap_in_use();
  if (mark == MEMORY_CORE_LOADED) linear_at_load = linear_bytes();
}

/* A value from /proc/self/status ("VmRSS:", "Threads:"), in its own unit (kB or a count). */
static long status_value(const char *name) {
  FILE *f = fopen("/proc/self/status", "r");
  if (!f) return -1;
  char line[256];
  long v = -1;
  size_t n = strlen(name);
  while (fgets(line, sizeof line, f))
    if (strncmp(line, name, n) == 0) {
      v = strtol(line + n, NULL, 10);
      break;
    }
  fclose(f);
  return v;
}

void memory_report(void) {
  size_t now = heap_in_use(), linear = linear_bytes();
  long panels = (long)(marks[MEMORY_PANELS_STARTED] - marks[MEMORY_START]);
  long core = (long)(marks[MEMORY_CORE_LOADED] - marks[MEMORY_PANELS_STARTED]);
  long host =
      (long)now - (long)marks[MEMORY_CORE_LOADED] + (long)marks[MEMORY_START] - ((long)linear - (long)linear_at_load);
  printf(
      "memory {\"hostHeap\":%ld,\"coreHeap\":%ld,\"coreLinear\":%zu,\"panelsHeap\":%ld,\"panelsStatic\":%zu,"
      "\"heapInUse\":%zu,\"rssKiB\":%ld,\"threads\":%ld}\n",
      host, core + ((long)linear - (long)linear_at_load), linear, panels, bus_static_bytes(), now,
      status_value("VmRSS:"), status_value("Threads:"));
  fflush(stdout);
}
