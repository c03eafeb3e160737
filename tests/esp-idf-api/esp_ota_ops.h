/*
 * Declarations copied from ESP-IDF v5.3 (Apache-2.0, (c) Espressif Systems):
 *   components/app_update/include/esp_ota_ops.h
 * for scripts/esp32-check.mjs, which compiles the device code against them: the real names, types and
 * signatures of the API Tessera calls. Declarations only (no behaviour); never built into anything.
 */
#ifndef TESSERA_API_ESP_OTA_OPS_H
#define TESSERA_API_ESP_OTA_OPS_H

#include <stdint.h>
#include <stddef.h>
#include "esp_err.h"
#include "esp_partition.h"

#define OTA_SIZE_UNKNOWN 0xffffffff /*!< Used for esp_ota_begin() if new image size is unknown */

#define OTA_WITH_SEQUENTIAL_WRITES 0xfffffffe /*!< Used for esp_ota_begin() if new image size is unknown and erase can be done in incremental manner (assuming write operation is in continuous sequence) */

typedef uint32_t esp_ota_handle_t;

esp_err_t esp_ota_begin(const esp_partition_t* partition, size_t image_size, esp_ota_handle_t* out_handle);

esp_err_t esp_ota_write(esp_ota_handle_t handle, const void* data, size_t size);

esp_err_t esp_ota_end(esp_ota_handle_t handle);

esp_err_t esp_ota_abort(esp_ota_handle_t handle);

esp_err_t esp_ota_set_boot_partition(const esp_partition_t* partition);

const esp_partition_t* esp_ota_get_next_update_partition(const esp_partition_t *start_from);

#endif
