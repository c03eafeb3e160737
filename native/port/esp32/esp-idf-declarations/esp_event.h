/*
 * Declarations copied from ESP-IDF v5.3.4 (Apache-2.0, (c) Espressif Systems):
 *   components/esp_event/include/esp_event.h
 *   components/esp_event/include/esp_event_base.h
 * for scripts/esp32-check.mjs, which compiles the device code against them: the real names, types and
 * signatures of the API Tessera calls. Declarations only (no behaviour); never built into anything.
 */
#ifndef TESSERA_API_ESP_EVENT_H
#define TESSERA_API_ESP_EVENT_H

#include <stdint.h>
#include <stddef.h>
#include "esp_err.h"
#include "freertos/FreeRTOS.h"

#define ESP_EVENT_DECLARE_BASE(id) extern esp_event_base_t const id
#define ESP_EVENT_DEFINE_BASE(id) esp_event_base_t const id = #id

typedef const char*  esp_event_base_t; /**< unique pointer to a subsystem that exposes events */

typedef void*        esp_event_loop_handle_t; /**< a number that identifies an event with respect to a base */

typedef void (*esp_event_handler_t)(void* event_handler_arg,
                                    esp_event_base_t event_base,
                                    int32_t event_id,
                                    void* event_data); /**< function called when an event is posted to the queue */

typedef void*        esp_event_handler_instance_t; /**< context identifying an instance of a registered event handler */

#define ESP_EVENT_ANY_ID       -1               /**< register handler for any event id */

esp_err_t esp_event_loop_create_default(void);

esp_err_t esp_event_handler_instance_register(esp_event_base_t event_base,
                                              int32_t event_id,
                                              esp_event_handler_t event_handler,
                                              void *event_handler_arg,
                                              esp_event_handler_instance_t *instance);

esp_err_t esp_event_post(esp_event_base_t event_base,
                         int32_t event_id,
                         const void *event_data,
                         size_t event_data_size,
                         TickType_t ticks_to_wait);

#endif
