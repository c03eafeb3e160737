/*
 * Declarations copied from joltwallet/esp_littlefs, the espressif registry component joltwallet/littlefs (MIT):
 *   include/esp_littlefs.h at commit 081b0429d876d691491025ff80267f235cf79148
 * for scripts/esp32-check.mjs, which compiles the device code against them: the real names, types and
 * signatures of the API Tessera calls. Declarations only (no behaviour); never built into anything.
 */
#ifndef TESSERA_API_ESP_LITTLEFS_H
#define TESSERA_API_ESP_LITTLEFS_H

#include <stdint.h>
#include "esp_err.h"

typedef struct {
    const char *base_path;            /**< Mounting point. */
    const char *partition_label;      /**< Label of partition to use. */
    uint8_t format_if_mount_failed:1; /**< Format the file system if it fails to mount. */
    uint8_t dont_mount:1;             /**< Don't attempt to mount or format. Overrides format_if_mount_failed */
} esp_vfs_littlefs_conf_t;

esp_err_t esp_vfs_littlefs_register(const esp_vfs_littlefs_conf_t * conf);

#endif
