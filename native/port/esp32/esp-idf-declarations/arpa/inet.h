/*
 * Declarations copied from ESP-IDF v5.3.4's lwIP (Apache-2.0, (c) Espressif Systems):
 *   components/lwip/port/include/arpa/inet.h (includes lwip/inet.h: netinet/in.h here)
 * for scripts/esp32-check.mjs, which compiles the device code against them: the real names, types and
 * signatures of the API Tessera calls. Declarations only (no behaviour); never built into anything.
 */
#ifndef TESSERA_API_ARPA_INET_H
#define TESSERA_API_ARPA_INET_H

#include "netinet/in.h"

#endif
