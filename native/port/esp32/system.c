/* system.c: clock, entropy and log of the ESP32 port (ESP-IDF esp_timer, esp_random, esp_log). */
#include <stdio.h>

#include "esp_log.h"
#include "esp_random.h"
#include "esp_timer.h"
#include "tessera_esp32.h"
#include "tessera_host.h"
#include "tessera_port.h"

static const char *TAG = "tessera";
static const int log_level = TESSERA_LOG_INFO;

uint64_t esp32_now_ms(void) { return (uint64_t)esp_timer_get_time() / 1000u; }
uint32_t port_clock_ms(void) { return (uint32_t)esp32_now_ms(); }
uint32_t port_clock_us(void) { return (uint32_t)esp_timer_get_time(); }
uint32_t port_random(void) { return esp_random(); }

void port_log(uint32_t level, const char *msg, uint32_t len) {
  if ((int)level > log_level) return;
  switch (level) {
    case TESSERA_LOG_ERROR: ESP_LOGE(TAG, "%.*s", (int)len, msg); break;
    case TESSERA_LOG_WARN: ESP_LOGW(TAG, "%.*s", (int)len, msg); break;
    case TESSERA_LOG_DEBUG: ESP_LOGD(TAG, "%.*s", (int)len, msg); break;
    default: ESP_LOGI(TAG, "%.*s", (int)len, msg); break;
  }
}
