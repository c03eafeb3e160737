/*
 * app_main.c: the ESP-IDF entry point: mounts the LittleFS data partition ("storage") at /data as the
 * store, then runs the portable host (native/port/esp32/host.c). Wi-Fi (station + captive portal),
 * mDNS, MQTT and the serial port are not started yet. NOT COMPILED YET (no ESP toolchain here).
 */
#include "esp_littlefs.h"
#include "esp_log.h"
#include "posix.h"

void tessera_esp32_run(void);

static const char *TAG = "tessera";

void app_main(void) {
  esp_vfs_littlefs_conf_t conf = {
      .base_path = "/data",
      .partition_label = "storage",
      .format_if_mount_failed = true,
      .dont_mount = false,
  };
  esp_err_t err = esp_vfs_littlefs_register(&conf);
  if (err != ESP_OK) {
    ESP_LOGE(TAG, "LittleFS mount failed (%s)", esp_err_to_name(err));
    return;
  }
  char chip[7];
  if (posix_store_open("/data") != 0 || posix_chip_id(chip) != 0) {
    ESP_LOGE(TAG, "cannot open the store");
    return;
  }
  ESP_LOGI(TAG, "tessera-%s, up to %d panels", chip, CONFIG_TESSERA_MAX_PANELS);
  tessera_esp32_run();
}
