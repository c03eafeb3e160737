/*
 * Declarations copied from ESP-IDF v5.3.4 (Apache-2.0, (c) Espressif Systems):
 *   components/esp_system/include/esp_system.h
 * for scripts/esp32-check.mjs, which compiles the device code against them: the real names, types and
 * signatures of the API Tessera calls. Declarations only (no behaviour); never built into anything.
 */
#ifndef TESSERA_API_ESP_SYSTEM_H
#define TESSERA_API_ESP_SYSTEM_H

#include "esp_err.h"

void esp_restart(void) __attribute__((__noreturn__));

#endif
