/*
 * Declarations copied from ESP-IDF v5.3.4 (Apache-2.0, (c) Espressif Systems):
 *   components/tcp_transport/include/esp_transport.h
 * for scripts/esp32-check.mjs: only the types mqtt_client.h's configuration refers to. Declarations only
 * (no behaviour); never built into anything.
 */
#ifndef TESSERA_API_ESP_TRANSPORT_H
#define TESSERA_API_ESP_TRANSPORT_H

#include <stdbool.h>
#include "esp_err.h"

/**
*  @brief Keep alive parameters structure
*/
typedef struct esp_transport_keepalive {
    bool            keep_alive_enable;      /*!< Enable keep-alive timeout */
    int             keep_alive_idle;        /*!< Keep-alive idle time (second) */
    int             keep_alive_interval;    /*!< Keep-alive interval time (second) */
    int             keep_alive_count;       /*!< Keep-alive packet retry send count */
} esp_transport_keep_alive_t;

typedef struct esp_transport_list_t* esp_transport_list_handle_t;
typedef struct esp_transport_item_t* esp_transport_handle_t;

#endif
