/*
 * host.c: the ESP32 port's lock, core image and main loop: one FreeRTOS mutex owns the core; the
 * loop delivers bus packets and ticks the core when due. The HTTP server task takes the lock per
 * request and frame. NOT COMPILED YET (no ESP toolchain on the development machine).
 */
#include "freertos/FreeRTOS.h"
#include "freertos/semphr.h"
#include "freertos/task.h"
#include "posix.h"
#include "sdkconfig.h"
#include "tessera_driver.h"
#include "tessera_port.h"

extern const uint8_t controller_wasm_start[] asm("_binary_controller_wasm_start");
extern const uint8_t controller_wasm_end[] asm("_binary_controller_wasm_end");

static SemaphoreHandle_t lock;

void posix_lock(void) { xSemaphoreTake(lock, portMAX_DELAY); }
void posix_unlock(void) { xSemaphoreGive(lock); }
void posix_kick(void) {}

const uint8_t *port_core_image(uint32_t *len) {
  *len = (uint32_t)(controller_wasm_end - controller_wasm_start);
  return controller_wasm_start;
}

/* Starts the bus, the core and the server, then runs the main loop forever. */
void tessera_esp32_run(void) {
  lock = xSemaphoreCreateMutex();
  posix_lock();
  if (bus_start(NULL, 0) != 0 || tessera_start(CONFIG_TESSERA_MAX_PANELS) != 0) {
    posix_unlock();
    tessera_logf(0, "tessera: cannot start the bus or the core");
    return;
  }
  posix_unlock();
  if (server_start(NULL, 80) < 0) tessera_logf(0, "tessera: cannot start the HTTP server");
  uint64_t next_tick = 0;
  for (;;) {
    posix_lock();
    bus_pump();
    uint64_t now = posix_now_ms();
    if (now >= next_tick) {
      uint32_t next = tessera_tick();
      next_tick = now + (next < 1 ? 1 : next > 100 ? 100 : next);
    }
    posix_unlock();
    vTaskDelay(1);
  }
}
