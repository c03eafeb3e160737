/*
 * wifi.c: Wi-Fi for the ESP32 port. The station's SSID and password are kept by esp_wifi itself in
 * NVS (WIFI_STORAGE_FLASH). With none stored, or after CONFIG_TESSERA_WIFI_RETRIES failed attempts in
 * a row, the open SoftAP "tessera-<chip>" comes up with the captive portal (dns.c answers every name
 * with 192.168.4.1, server.c redirects unknown hosts to /setup); the station keeps trying meanwhile.
 * The setup page and POST /api/setup are the core's; it hands the new network to
 * port_wifi_configure, which stores it and reconnects. Once the station has an address, the portal
 * closes a few seconds later (so the setup answer still reaches the phone).
 */
#include <stdio.h>
#include <string.h>

#include "esp_event.h"
#include "esp_netif.h"
#include "esp_timer.h"
#include "esp_wifi.h"
#include "sdkconfig.h"
#include "tessera_esp32.h"
#include "tessera_host.h"
#include "tessera_port.h"

#define PORTAL_CLOSE_DELAY_US (5 * 1000 * 1000)

static char ap_name[32];
static volatile int portal, failures, have_network;
static esp_timer_handle_t close_timer;

int wifi_portal_active(void) { return portal; }

static void open_portal(void) {
  if (portal) return;
  wifi_config_t ap;
  memset(&ap, 0, sizeof ap);
  size_t n = strlen(ap_name);
  memcpy(ap.ap.ssid, ap_name, n);
  ap.ap.ssid_len = (uint8_t)n;
  ap.ap.channel = 1;
  ap.ap.authmode = WIFI_AUTH_OPEN; /* the setup network has no password */
  ap.ap.max_connection = 4;
  if (esp_wifi_set_mode(WIFI_MODE_APSTA) != ESP_OK || esp_wifi_set_config(WIFI_IF_AP, &ap) != ESP_OK) {
    tessera_logf(TESSERA_LOG_ERROR, "wifi: cannot start the setup access point");
    return;
  }
  portal = 1;
  dns_start();
  tessera_logf(TESSERA_LOG_INFO, "wifi: setup network %s, http://%s/setup", ap_name, TESSERA_PORTAL_IP);
}

static void close_portal(void *arg) {
  (void)arg;
  if (!portal) return;
  portal = 0;
  dns_stop();
  esp_wifi_set_mode(WIFI_MODE_STA);
  tessera_logf(TESSERA_LOG_INFO, "wifi: connected, setup network closed");
}

static void on_event(void *arg, esp_event_base_t base, int32_t id, void *data) {
  (void)arg;
  (void)data;
  if (base == WIFI_EVENT && id == WIFI_EVENT_STA_START) {
    if (have_network) esp_wifi_connect();
  } else if (base == WIFI_EVENT && id == WIFI_EVENT_STA_DISCONNECTED) {
    if (++failures == CONFIG_TESSERA_WIFI_RETRIES) open_portal();
    if (have_network) esp_wifi_connect(); /* keep trying: the network may come back while the portal is up */
  } else if (base == IP_EVENT && id == IP_EVENT_STA_GOT_IP) {
    failures = 0;
    tessera_logf(TESSERA_LOG_INFO, "wifi: connected");
    if (portal) esp_timer_start_once(close_timer, PORTAL_CLOSE_DELAY_US);
  }
}

/* 1 when esp_wifi has station credentials (from an earlier setup, kept in NVS). */
static int configured(void) {
  wifi_config_t sta;
  memset(&sta, 0, sizeof sta);
  return esp_wifi_get_config(WIFI_IF_STA, &sta) == ESP_OK && sta.sta.ssid[0] != 0;
}

int wifi_start(const char *chip) {
  snprintf(ap_name, sizeof ap_name, "tessera-%s", chip);
  wifi_init_config_t init = WIFI_INIT_CONFIG_DEFAULT();
  const esp_timer_create_args_t timer = {.callback = close_portal, .name = "tessera_portal"};
  if (esp_netif_init() != ESP_OK || esp_event_loop_create_default() != ESP_OK) return -1;
  esp_netif_t *sta = esp_netif_create_default_wifi_sta();
  esp_netif_create_default_wifi_ap();
  if (sta) esp_netif_set_hostname(sta, ap_name);
  if (esp_wifi_init(&init) != ESP_OK || esp_wifi_set_storage(WIFI_STORAGE_FLASH) != ESP_OK) return -1;
  if (esp_timer_create(&timer, &close_timer) != ESP_OK) return -1;
  esp_event_handler_instance_register(WIFI_EVENT, ESP_EVENT_ANY_ID, on_event, NULL, NULL);
  esp_event_handler_instance_register(IP_EVENT, IP_EVENT_STA_GOT_IP, on_event, NULL, NULL);
  if (esp_wifi_set_mode(WIFI_MODE_STA) != ESP_OK) return -1;
  have_network = configured();
  if (esp_wifi_start() != ESP_OK) return -1;
  if (!have_network) open_portal(); /* nothing to connect to: setup first */
  return 0;
}

void port_wifi_configure(const char *ssid, uint32_t ssid_len, const char *pass, uint32_t pass_len) {
  wifi_config_t sta;
  memset(&sta, 0, sizeof sta);
  if (ssid_len == 0 || ssid_len > sizeof sta.sta.ssid || pass_len > sizeof sta.sta.password - 1) {
    tessera_logf(TESSERA_LOG_WARN, "wifi: setup ignored (ssid 1-32 bytes, password at most 63)");
    return;
  }
  memcpy(sta.sta.ssid, ssid, ssid_len);
  memcpy(sta.sta.password, pass, pass_len);
  sta.sta.threshold.authmode = pass_len ? WIFI_AUTH_WPA2_PSK : WIFI_AUTH_OPEN;
  have_network = 0; /* the disconnection below is ours: no retry, no failure counted */
  esp_wifi_disconnect();
  failures = 0;
  if (esp_wifi_set_config(WIFI_IF_STA, &sta) != ESP_OK) { /* stored in NVS (WIFI_STORAGE_FLASH) */
    tessera_logf(TESSERA_LOG_ERROR, "wifi: cannot store the new network");
    return;
  }
  have_network = 1;
  esp_wifi_connect();
  tessera_logf(TESSERA_LOG_INFO, "wifi: joining %.*s", (int)ssid_len, ssid);
}
