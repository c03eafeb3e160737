/*
 * Declarations copied from ESP-IDF v5.3.4 (Apache-2.0, (c) Espressif Systems):
 *   components/app_update/include/esp_ota_ops.h
 *   components/bootloader_support/include/esp_flash_partitions.h
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

/// OTA_DATA states for checking operability of the app.
typedef enum {
    ESP_OTA_IMG_NEW             = 0x0U,         /*!< Monitor the first boot. In bootloader this state is changed to ESP_OTA_IMG_PENDING_VERIFY. */
    ESP_OTA_IMG_PENDING_VERIFY  = 0x1U,         /*!< First boot for this app was. If while the second boot this state is then it will be changed to ABORTED. */
    ESP_OTA_IMG_VALID           = 0x2U,         /*!< App was confirmed as workable. App can boot and work without limits. */
    ESP_OTA_IMG_INVALID         = 0x3U,         /*!< App was confirmed as non-workable. This app will not selected to boot at all. */
    ESP_OTA_IMG_ABORTED         = 0x4U,         /*!< App could not confirm the workable or non-workable. In bootloader IMG_PENDING_VERIFY state will be changed to IMG_ABORTED. This app will not selected to boot at all. */
    ESP_OTA_IMG_UNDEFINED       = 0xFFFFFFFFU,  /*!< Undefined. App can boot and work without limits. */
} esp_ota_img_states_t;

esp_err_t esp_ota_begin(const esp_partition_t* partition, size_t image_size, esp_ota_handle_t* out_handle);

esp_err_t esp_ota_write(esp_ota_handle_t handle, const void* data, size_t size);

esp_err_t esp_ota_end(esp_ota_handle_t handle);

esp_err_t esp_ota_abort(esp_ota_handle_t handle);

esp_err_t esp_ota_set_boot_partition(const esp_partition_t* partition);

const esp_partition_t* esp_ota_get_next_update_partition(const esp_partition_t *start_from);

const esp_partition_t* esp_ota_get_running_partition(void);

esp_err_t esp_ota_mark_app_valid_cancel_rollback(void);

esp_err_t esp_ota_mark_app_invalid_rollback_and_reboot(void);

esp_err_t esp_ota_get_state_partition(const esp_partition_t *partition, esp_ota_img_states_t *ota_state);

#endif
