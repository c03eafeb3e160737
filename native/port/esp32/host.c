/*
 * host.c: the ESP32 port's core thread. WAMR on ESP-IDF must run on a pthread (its esp-idf platform
 * layer and our runtime adapter call pthread_self, which asserts on a plain FreeRTOS task), so the
 * core lives on one pthread: it runs the main loop (bus packets, ticks, the server's WebSocket traffic)
 * and the jobs other tasks hand it with esp32_run_on_core (the mDNS browse worker), esp32_start_on_core
 * (the HTTP workers' requests: a worker sends the answer while the core writes it) or esp32_post_to_core (the MQTT client's events: its task must never wait for the core, see
 * mqtt.c). One FreeRTOS mutex guards the state both sides touch (the request table, the WebSocket
 * slots). The HTTP server task never waits for the core thread (server.c). Wi-Fi, mDNS, the serial
 * port and self-update run beside it and never call into the core themselves.
 */
#include <pthread.h>

#include "esp_pthread.h"
#include "freertos/FreeRTOS.h"
#include "freertos/queue.h"
#include "freertos/semphr.h"
#include "freertos/task.h"
#include "sdkconfig.h"
#include "tessera_driver.h"
#include "tessera_esp32.h"
#include "tessera_host.h"
#include "tessera_port.h"

#define JOBS 8
#define POSTS 24

/* build/controller.wasm, embedded by components/tessera/CMakeLists.txt (EMBED_FILES). */
extern const uint8_t controller_wasm_start[] asm("_binary_controller_wasm_start");
extern const uint8_t controller_wasm_end[] asm("_binary_controller_wasm_end");

typedef struct {
  void (*fn)(void *);
  void *arg;
  TaskHandle_t waiter;
} job_t;

static SemaphoreHandle_t lock;
static QueueHandle_t jobs, posts;

void esp32_lock(void) { xSemaphoreTake(lock, portMAX_DELAY); }
void esp32_unlock(void) { xSemaphoreGive(lock); }

const uint8_t *port_core_image(uint32_t *len) {
  *len = (uint32_t)(controller_wasm_end - controller_wasm_start);
  return controller_wasm_start;
}

void esp32_run_on_core(void (*fn)(void *), void *arg) {
  job_t job = {fn, arg, xTaskGetCurrentTaskHandle()};
  xQueueSend(jobs, &job, portMAX_DELAY);
  ulTaskNotifyTake(pdTRUE, portMAX_DELAY); /* only the core thread notifies a task that handed it a job */
}

void esp32_start_on_core(void (*fn)(void *), void *arg) {
  job_t job = {fn, arg, NULL};
  xQueueSend(jobs, &job, portMAX_DELAY);
}

int esp32_post_to_core(void (*fn)(void *), void *arg) {
  job_t job = {fn, arg, NULL};
  return posts && xQueueSend(posts, &job, 0) == pdTRUE ? 0 : -1;
}

/* Runs what other tasks posted (esp32_post_to_core), in order, each with the lock held. */
static void run_posts(void) {
  job_t job;
  while (xQueueReceive(posts, &job, 0) == pdTRUE) {
    esp32_lock();
    job.fn(job.arg);
    esp32_unlock();
  }
}

static void *core_thread(void *arg) {
  (void)arg;
  esp32_lock();
  int ok = esp32_bus_start() == 0 && tessera_start(CONFIG_TESSERA_MAX_PANELS) == 0;
  esp32_boot_core_started(ok); /* a new image whose core cannot start rolls back here */
  esp32_unlock();
  if (!ok) {
    tessera_logf(TESSERA_LOG_ERROR, "tessera: cannot start the bus or the core");
    return NULL;
  }
  uint64_t next_tick = 0;
  for (;;) {
    job_t job;
    /* sleep until a job arrives or a tick is due (one FreeRTOS tick at most: bus bytes, WebSocket
     * traffic and posts are polled) */
    if (xQueueReceive(jobs, &job, 1) == pdTRUE) {
      esp32_lock();
      job.fn(job.arg);
      esp32_unlock();
      if (job.waiter) xTaskNotifyGive(job.waiter);
    }
    run_posts();
    esp32_lock();
    if (esp32_server_pump()) next_tick = 0; /* frames are queued work: apply them now */
    esp32_bus_pump();
    {
      /* the serial port's bytes (the firmware frame) */
      static uint8_t serial_in[256];
      int32_t n = port_serial_read(serial_in, sizeof serial_in);
      if (n > 0) tessera_serial_receive(serial_in, (uint32_t)n);
    }
    uint64_t now = esp32_now_ms();
    if (now >= next_tick) {
      uint32_t next = tessera_tick();
      next_tick = now + (next < 1 ? 1 : next > 100 ? 100 : next);
    }
    esp32_server_flush();
    esp32_unlock();
  }
  return NULL;
}

void esp32_run(const char *chip) {
  lock = xSemaphoreCreateMutex();
  jobs = xQueueCreate(JOBS, sizeof(job_t));
  posts = xQueueCreate(POSTS, sizeof(job_t));
  esp32_boot_init();
  if (!lock || !jobs || !posts || esp32_server_init() != 0) {
    tessera_logf(TESSERA_LOG_ERROR, "tessera: out of memory at startup");
    return;
  }
  if (esp32_wifi_start(chip) != 0) tessera_logf(TESSERA_LOG_ERROR, "tessera: Wi-Fi did not start");
  if (esp32_mdns_start(chip) != 0) tessera_logf(TESSERA_LOG_ERROR, "tessera: mDNS did not start");
  if (esp32_mqtt_start() != 0) tessera_logf(TESSERA_LOG_ERROR, "tessera: the MQTT worker did not start");
  if (esp32_serial_start() != 0) tessera_logf(TESSERA_LOG_ERROR, "tessera: the serial port did not start");
  if (esp32_ota_start() != 0) tessera_logf(TESSERA_LOG_ERROR, "tessera: self-update did not start");
  esp_pthread_cfg_t cfg = esp_pthread_get_default_config();
  cfg.stack_size = CONFIG_TESSERA_CORE_STACK_SIZE; /* WAMR's interpreter runs on this stack */
  cfg.thread_name = "tessera_core";
  esp_pthread_set_cfg(&cfg);
  pthread_t core;
  if (pthread_create(&core, NULL, core_thread, NULL) != 0) {
    tessera_logf(TESSERA_LOG_ERROR, "tessera: cannot start the core thread");
    return;
  }
  pthread_detach(core);
  if (esp32_server_start() != 0) tessera_logf(TESSERA_LOG_ERROR, "tessera: cannot start the HTTP server");
  /* back to app_main, which returns: ESP-IDF deletes the main task and its stack goes back to the heap */
}

void tessera_esp32_main(void) {
  char chip[7];
  if (esp32_storage_open(chip) != 0) return;
  tessera_logf(TESSERA_LOG_INFO, "tessera-%s, up to %d panels", chip, CONFIG_TESSERA_MAX_PANELS);
  esp32_run(chip);
}
