/*
 * Declarations copied from ESP-IDF v5.3.4 (Apache-2.0, (c) Espressif Systems):
 *   components/nvs_flash/include/nvs_flash.h
 *   components/nvs_flash/include/nvs.h
 * for scripts/esp32-check.mjs, which compiles the device code against them: the real names, types and
 * signatures of the API Tessera calls. Declarations only (no behaviour); never built into anything.
 */
#ifndef TESSERA_API_NVS_FLASH_H
#define TESSERA_API_NVS_FLASH_H

#include "esp_err.h"

#define ESP_ERR_NVS_BASE                    0x1100                     /*!< Starting number of error codes */

#define ESP_ERR_NVS_NO_FREE_PAGES           (ESP_ERR_NVS_BASE + 0x0d)  /*!< NVS partition doesn't contain any empty pages. This may happen if NVS partition was truncated. Erase the whole partition and call nvs_flash_init again. */

#define ESP_ERR_NVS_NEW_VERSION_FOUND       (ESP_ERR_NVS_BASE + 0x10)  /*!< NVS partition contains data in new format and cannot be recognized by this version of code */

esp_err_t nvs_flash_init(void);

esp_err_t nvs_flash_erase(void);

#endif
