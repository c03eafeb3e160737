/* log.c: printf-style logging for the ports, on top of the port's own port_log. */
#include <stdarg.h>
#include <stdio.h>

#include "tessera_port.h"

void tessera_logf(uint32_t level, const char *fmt, ...) {
  char line[512];
  va_list ap;
  va_start(ap, fmt);
  int n = vsnprintf(line, sizeof line, fmt, ap);
  va_end(ap);
  if (n < 0) return;
  if (n >= (int)sizeof line) n = (int)sizeof line - 1;
  port_log(level, line, (uint32_t)n);
}
