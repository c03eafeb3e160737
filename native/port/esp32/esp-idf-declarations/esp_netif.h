/*
 * Declarations copied from ESP-IDF v5.3.4 (Apache-2.0, (c) Espressif Systems):
 *   components/esp_netif/include/esp_netif.h
 *   components/esp_netif/include/esp_netif_types.h
 *   (and, through it, components/esp_netif/include/esp_netif_ip_addr.h: esp_netif_ip_addr.h here)
 * for scripts/esp32-check.mjs, which compiles the device code against them: the real names, types and
 * signatures of the API Tessera calls. Declarations only (no behaviour); never built into anything.
 */
#ifndef TESSERA_API_ESP_NETIF_H
#define TESSERA_API_ESP_NETIF_H

#include "esp_err.h"
#include "esp_event.h"
#include "esp_netif_ip_addr.h"

typedef struct esp_netif_obj esp_netif_t;

typedef enum {
    IP_EVENT_STA_GOT_IP,               /*!< station got IP from connected AP */
    IP_EVENT_STA_LOST_IP,              /*!< station lost IP and the IP is reset to 0 */
    IP_EVENT_AP_STAIPASSIGNED,         /*!< soft-AP assign an IP to a connected station */
    IP_EVENT_GOT_IP6,                  /*!< station or ap or ethernet interface v6IP addr is preferred */
    IP_EVENT_ETH_GOT_IP,               /*!< ethernet got IP from connected AP */
    IP_EVENT_ETH_LOST_IP,              /*!< ethernet lost IP and the IP is reset to 0 */
    IP_EVENT_PPP_GOT_IP,               /*!< PPP interface got IP */
    IP_EVENT_PPP_LOST_IP,              /*!< PPP interface lost IP */
} ip_event_t;

ESP_EVENT_DECLARE_BASE(IP_EVENT);

esp_err_t esp_netif_init(void);

esp_err_t esp_netif_set_hostname(esp_netif_t *esp_netif, const char *hostname);

#endif
