/*
 * Declarations copied from ESP-IDF v5.3.4 (Apache-2.0, (c) Espressif Systems):
 *   components/esp_common/include/esp_err.h
 * for scripts/esp32-check.mjs, which compiles the device code against them: the real names, types and
 * signatures of the API Tessera calls. Declarations only (no behaviour); never built into anything.
 */
#ifndef TESSERA_API_ESP_ERR_H
#define TESSERA_API_ESP_ERR_H

#include <stdint.h>
#include <stdio.h>

typedef int esp_err_t;

#define ESP_OK          0       /*!< esp_err_t value indicating success (no error) */

#define ESP_FAIL        -1      /*!< Generic esp_err_t code indicating failure */

#define ESP_ERR_NO_MEM              0x101   /*!< Out of memory */

#define ESP_ERR_INVALID_ARG         0x102   /*!< Invalid argument */

#define ESP_ERR_INVALID_STATE       0x103   /*!< Invalid state */

#define ESP_ERR_INVALID_SIZE        0x104   /*!< Invalid size */

#define ESP_ERR_NOT_FOUND           0x105   /*!< Requested resource not found */

#define ESP_ERR_WIFI_BASE           0x3000  /*!< Starting number of WiFi error codes */

const char *esp_err_to_name(esp_err_t code);

#endif
