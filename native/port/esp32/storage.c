/*
 * storage.c: the ESP32 port's persistent storage. NVS holds what ESP-IDF keeps itself (the Wi-Fi
 * credentials); the LittleFS data partition "storage", mounted at /data through the VFS, holds the
 * store (native/src/store.c, the POSIX port's store too, works unchanged on it) and the chip id.
 */
#include <stdbool.h>

#include "esp_littlefs.h"
#include "nvs_flash.h"
#include "tessera_esp32.h"
#include "tessera_host.h"
#include "tessera_port.h"
#include "tessera_store.h"

#define DATA_DIR "/data"

static esp_err_t open_nvs(void) {
  esp_err_t err = nvs_flash_init();
  if (err == ESP_ERR_NVS_NO_FREE_PAGES || err == ESP_ERR_NVS_NEW_VERSION_FOUND) {
    nvs_flash_erase(); /* a layout from another firmware: start over (only Wi-Fi credentials live here) */
    err = nvs_flash_init();
  }
  return err;
}

int esp32_storage_open(char chip[7]) {
  esp_vfs_littlefs_conf_t conf = {
      .base_path = DATA_DIR,
      .partition_label = "storage",
      .format_if_mount_failed = true,
      .dont_mount = false,
  };
  esp_err_t err = open_nvs();
  if (err == ESP_OK) err = esp_vfs_littlefs_register(&conf);
  if (err != ESP_OK) {
    tessera_logf(TESSERA_LOG_ERROR, "storage: cannot open NVS or the LittleFS partition (%s)", esp_err_to_name(err));
    return -1;
  }
  if (tessera_store_open(DATA_DIR) != 0 || tessera_chip_id(chip) != 0) {
    tessera_logf(TESSERA_LOG_ERROR, "storage: cannot open the store");
    return -1;
  }
  return 0;
}
