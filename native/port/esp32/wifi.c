/*
 * wifi.c: Wi-Fi for the ESP32 port. The station's SSID and password are kept by esp_wifi itself in
 * NVS (WIFI_STORAGE_FLASH). When to try again and when the setup network opens and closes is decided
 * by native/src/wifi_policy.c (tessera_wifi_policy.h, tested on Linux); this file carries it out.
 * With no stored network, or after CONFIG_TESSERA_WIFI_RETRIES failed attempts in a row, the open
 * SoftAP "tessera-<chip>" comes up with the captive portal (dns.c answers every name with
 * 192.168.4.1, server.c redirects clients on it to /setup); the station keeps trying meanwhile, but
 * seconds to minutes apart (a station attempt scans and knocks phones off the setup network). The
 * setup page is a web asset (web/setup.html) and POST /api/setup the core's; it hands the new network to port_wifi_configure,
 * which stores it and joins it; the disconnection that causes is not counted as a failure. Once the
 * station has an address, the setup network closes 5 s later (so the setup answer still reaches the
 * phone).
 *
 * Everything runs on ESP-IDF's default event loop task, one event at a time: the radio's events, the
 * retry and close timers (which only post an event) and the core's new network (posted by
 * port_wifi_configure from the core thread), so the policy's state needs no lock.
 */
#include "sdkconfig.h"

#if !CONFIG_TESSERA_NET_OPENETH /* eth.c is the network then (the QEMU rig) */
#include <stdio.h>
#include <string.h>

#include "esp_event.h"
#include "esp_netif.h"
#include "esp_timer.h"
#include "esp_wifi.h"
#include "tessera_esp32.h"
#include "tessera_host.h"
#include "tessera_port.h"
#include "tessera_wifi_policy.h"

ESP_EVENT_DEFINE_BASE(TESSERA_WIFI_EVENT);
enum { EV_RETRY, EV_CLOSE_PORTAL, EV_CONFIGURE };

typedef struct {
  uint8_t ssid[32], pass[64];
  uint32_t ssid_len, pass_len;
} network_t;

static char ap_name[32];
static volatile int portal; /* read by the server task */
static tessera_wifi_t policy;
static esp_timer_handle_t retry_timer, close_timer;

int esp32_wifi_portal_up(void) { return portal; }

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
  esp32_dns_start();
  tessera_logf(TESSERA_LOG_INFO, "wifi: setup network %s, http://%s/setup", ap_name, TESSERA_PORTAL_IP);
}

static void close_portal(void) {
  tessera_wifi_portal_closed(&policy);
  if (!portal) return;
  portal = 0;
  esp32_dns_stop();
  esp_wifi_set_mode(WIFI_MODE_STA);
  tessera_logf(TESSERA_LOG_INFO, "wifi: connected, setup network closed");
}

/* (Re)starts a one-shot timer. */
static void start_timer(esp_timer_handle_t timer, int32_t ms) {
  esp_timer_stop(timer); /* ESP_ERR_INVALID_STATE when it was not running */
  esp_timer_start_once(timer, (uint64_t)ms * 1000u);
}

static void act(tessera_wifi_action_t a) {
  if (a.open_portal) open_portal();
  if (a.connect_in_ms < 0) esp_timer_stop(retry_timer);
  else if (a.connect_in_ms == 0) {
    esp_timer_stop(retry_timer);
    esp_wifi_connect();
  } else start_timer(retry_timer, a.connect_in_ms);
  if (a.close_portal_in_ms >= 0) start_timer(close_timer, a.close_portal_in_ms);
}

/* 1 when esp_wifi has station credentials (from an earlier setup, kept in NVS). */
static int configured(void) {
  wifi_config_t sta;
  memset(&sta, 0, sizeof sta);
  return esp_wifi_get_config(WIFI_IF_STA, &sta) == ESP_OK && sta.sta.ssid[0] != 0;
}

static void join(const network_t *n) {
  wifi_config_t sta;
  memset(&sta, 0, sizeof sta);
  memcpy(sta.sta.ssid, n->ssid, n->ssid_len);
  memcpy(sta.sta.password, n->pass, n->pass_len);
  sta.sta.threshold.authmode = n->pass_len ? WIFI_AUTH_WPA2_PSK : WIFI_AUTH_OPEN;
  esp_wifi_disconnect(); /* its "left" is expected by the policy: not a failure, not retried */
  if (esp_wifi_set_config(WIFI_IF_STA, &sta) != ESP_OK) { /* stored in NVS (WIFI_STORAGE_FLASH) */
    tessera_logf(TESSERA_LOG_ERROR, "wifi: cannot store the new network");
    return;
  }
  tessera_logf(TESSERA_LOG_INFO, "wifi: joining %.*s", (int)n->ssid_len, (const char *)n->ssid);
  act(tessera_wifi_configured(&policy));
}

static void on_event(void *arg, esp_event_base_t base, int32_t id, void *data) {
  (void)arg;
  if (base == WIFI_EVENT && id == WIFI_EVENT_STA_START) {
    act(tessera_wifi_start(&policy, configured(), CONFIG_TESSERA_WIFI_RETRIES));
  } else if (base == WIFI_EVENT && id == WIFI_EVENT_STA_DISCONNECTED) {
    const wifi_event_sta_disconnected_t *d = data;
    act(tessera_wifi_disconnected(&policy, d && d->reason == WIFI_REASON_ASSOC_LEAVE));
  } else if (base == WIFI_EVENT && id == WIFI_EVENT_AP_STACONNECTED) {
    tessera_wifi_ap_client(&policy, +1);
  } else if (base == WIFI_EVENT && id == WIFI_EVENT_AP_STADISCONNECTED) {
    tessera_wifi_ap_client(&policy, -1);
  } else if (base == IP_EVENT && id == IP_EVENT_STA_GOT_IP) {
    tessera_logf(TESSERA_LOG_INFO, "wifi: connected");
    act(tessera_wifi_connected(&policy));
  } else if (base == TESSERA_WIFI_EVENT && id == EV_RETRY) {
    esp_wifi_connect();
  } else if (base == TESSERA_WIFI_EVENT && id == EV_CLOSE_PORTAL) {
    close_portal();
  } else if (base == TESSERA_WIFI_EVENT && id == EV_CONFIGURE) {
    join(data);
  }
}

/* The timers' callbacks (esp_timer's task) only hand the event to the event loop. */
static void post_retry(void *arg) {
  (void)arg;
  esp_event_post(TESSERA_WIFI_EVENT, EV_RETRY, NULL, 0, 0);
}

static void post_close(void *arg) {
  (void)arg;
  esp_event_post(TESSERA_WIFI_EVENT, EV_CLOSE_PORTAL, NULL, 0, 0);
}

int esp32_wifi_start(const char *chip) {
  snprintf(ap_name, sizeof ap_name, "tessera-%s", chip);
  wifi_init_config_t init = WIFI_INIT_CONFIG_DEFAULT();
  const esp_timer_create_args_t retry = {.callback = post_retry, .name = "tessera_wifi_retry"};
  const esp_timer_create_args_t close = {.callback = post_close, .name = "tessera_portal"};
  if (esp_netif_init() != ESP_OK || esp_event_loop_create_default() != ESP_OK) return -1;
  esp_netif_t *sta = esp_netif_create_default_wifi_sta();
  esp_netif_create_default_wifi_ap();
  if (sta) esp_netif_set_hostname(sta, ap_name);
  if (esp_wifi_init(&init) != ESP_OK || esp_wifi_set_storage(WIFI_STORAGE_FLASH) != ESP_OK) return -1;
  if (esp_timer_create(&retry, &retry_timer) != ESP_OK || esp_timer_create(&close, &close_timer) != ESP_OK) return -1;
  esp_event_handler_instance_register(WIFI_EVENT, ESP_EVENT_ANY_ID, on_event, NULL, NULL);
  esp_event_handler_instance_register(IP_EVENT, IP_EVENT_STA_GOT_IP, on_event, NULL, NULL);
  esp_event_handler_instance_register(TESSERA_WIFI_EVENT, ESP_EVENT_ANY_ID, on_event, NULL, NULL);
  if (esp_wifi_set_mode(WIFI_MODE_STA) != ESP_OK) return -1;
  return esp_wifi_start() == ESP_OK ? 0 : -1; /* WIFI_EVENT_STA_START starts the policy */
}

/* Core thread: the network from POST /api/setup, handed to the event loop (copied there). */
void port_wifi_configure(const char *ssid, uint32_t ssid_len, const char *pass, uint32_t pass_len) {
  network_t n;
  memset(&n, 0, sizeof n);
  if (ssid_len == 0 || ssid_len > sizeof n.ssid || pass_len > sizeof n.pass - 1) {
    tessera_logf(TESSERA_LOG_WARN, "wifi: setup ignored (ssid 1-32 bytes, password at most 63)");
    return;
  }
  memcpy(n.ssid, ssid, ssid_len);
  memcpy(n.pass, pass, pass_len);
  n.ssid_len = ssid_len;
  n.pass_len = pass_len;
  if (esp_event_post(TESSERA_WIFI_EVENT, EV_CONFIGURE, &n, sizeof n, 0) != ESP_OK)
    tessera_logf(TESSERA_LOG_ERROR, "wifi: the new network could not be handed over (event queue full)");
}
#endif
