/*
 * Declarations copied from ESP-IDF v5.3.4 (Apache-2.0, (c) Espressif Systems):
 *   components/esp_hw_support/include/esp_random.h
 * for scripts/esp32-check.mjs, which compiles the device code against them: the real names, types and
 * signatures of the API Tessera calls. Declarations only (no behaviour); never built into anything.
 */
#ifndef TESSERA_API_ESP_RANDOM_H
#define TESSERA_API_ESP_RANDOM_H

#include <stdint.h>

uint32_t esp_random(void);

#endif
