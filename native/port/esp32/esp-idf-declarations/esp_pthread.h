/*
 * Declarations copied from ESP-IDF v5.3.4 (Apache-2.0, (c) Espressif Systems):
 *   components/pthread/include/esp_pthread.h
 * for scripts/esp32-check.mjs, which compiles the device code against them: the real names, types and
 * signatures of the API Tessera calls. Declarations only (no behaviour); never built into anything.
 */
#ifndef TESSERA_API_ESP_PTHREAD_H
#define TESSERA_API_ESP_PTHREAD_H

#include <stddef.h>
#include <stdint.h>
#include <stdbool.h>
#include "esp_err.h"

typedef struct {
    size_t stack_size;          /**< The stack size of the pthread */
    size_t prio;                /**< The thread's priority */
    bool inherit_cfg;           /**< Inherit this configuration further */
    const char* thread_name;    /**< The thread name. */
    int pin_to_core;            /**< The core id to pin the thread to. Has the same value range as xCoreId
                                     argument of xTaskCreatePinnedToCore. */
    uint32_t stack_alloc_caps;  /**< A bit mask of memory capabilities (MALLOC_CAPS*) to use when
                                     allocating the stack. The memory must be 8 bit accessible (MALLOC_CAP_8BIT).
                                     The developer is responsible for the correctenss of \c stack_alloc_caps. */
} esp_pthread_cfg_t;

esp_pthread_cfg_t esp_pthread_get_default_config(void);

esp_err_t esp_pthread_set_cfg(const esp_pthread_cfg_t *cfg);

#endif
