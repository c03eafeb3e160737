/*
 * Declarations copied from the newlib of ESP-IDF v5.3's toolchain (GPL-compatible newlib licences,
 * espressif/newlib-esp32, tag esp-4.3.0, 2024-03-22):
 *   newlib/libc/include/sys/features.h, its "Espressif-specific" block
 * Debian's libnewlib-dev is upstream newlib without that block, so scripts/esp32-check.mjs includes this
 * file first (-include) to get the POSIX features ESP-IDF's libc announces (pthread.h's declarations
 * depend on _POSIX_THREADS). Declarations only (no behaviour); never built into anything.
 */
#ifndef TESSERA_API_NEWLIB_ESP_H
#define TESSERA_API_NEWLIB_ESP_H

/* Espressif-specific */
#define _POSIX_THREADS                          1
#define _POSIX_TIMEOUTS                         1
#define _POSIX_TIMERS                           1
#define _POSIX_MONOTONIC_CLOCK                  200112L
#define _POSIX_CLOCK_SELECTION                  200112L
#define _UNIX98_THREAD_MUTEX_ATTRIBUTES         1
/* ~Espressif-specific */

#endif
