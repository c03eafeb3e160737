/*
 * net.c: the POSIX port's network presence. It has no MQTT client and no mDNS responder: a connect
 * is answered "unavailable" (GET /api/mqtt shows it), a browse ends empty, an advertisement and the
 * Wi-Fi setup are logged (the last station credentials are kept for diagnostics). Answers are
 * queued and delivered by posix_net_pump from the main loop, never inside a port_* call.
 */
#include <stdio.h>
#include <string.h>

#include "posix.h"
#include "tessera_driver.h"
#include "tessera_host.h"
#include "tessera_port.h"

int posix_http_port;
static int connect_pending, browse_pending;
static char wifi_ssid[33];

uint32_t port_hostname(char *buf, uint32_t cap) {
  char chip[7] = "000000";
  posix_chip_id(chip);
  int n = snprintf(buf, cap, "tessera-%s", chip);
  return n < 0 ? 0 : (uint32_t)n;
}

uint32_t port_http_port(void) { return (uint32_t)posix_http_port; }

void port_mdns_advertise(const char *hostname, const char *service, uint16_t port, const char *const *txt,
                         uint32_t txt_count) {
  tessera_logf(TESSERA_LOG_INFO, "mdns: would advertise %s.local %s port %u (%u TXT entries); no mDNS on this port",
               hostname, service, port, txt_count);
}

void port_mdns_browse(const char *service, uint32_t timeout_ms) {
  browse_pending = 1;
  posix_kick();
}

void port_mqtt_connect(const tessera_mqtt_connect_t *params) {
  tessera_logf(TESSERA_LOG_INFO, "mqtt: no MQTT client on this port (%s:%u)", params->host, params->port);
  connect_pending = 1;
  posix_kick();
}

void port_mqtt_publish(const char *topic, const uint8_t *payload, uint32_t len, int retain) {}
void port_mqtt_subscribe(const char *topic) {}
void port_mqtt_disconnect(void) { connect_pending = 0; }

void port_wifi_configure(const char *ssid, uint32_t ssid_len, const char *pass, uint32_t pass_len) {
  uint32_t n = ssid_len < sizeof wifi_ssid ? ssid_len : sizeof wifi_ssid - 1;
  memcpy(wifi_ssid, ssid, n);
  wifi_ssid[n] = 0;
  printf("wifi: station credentials for \"%s\" received (POSIX host: not applied)\n", wifi_ssid);
  fflush(stdout);
}

int posix_net_pending(void) { return connect_pending || browse_pending; }

void posix_net_pump(void) {
  if (connect_pending) {
    connect_pending = 0;
    tessera_mqtt_event(TESSERA_MQTT_FAILED, TESSERA_MQTT_UNAVAILABLE);
  }
  if (browse_pending) {
    browse_pending = 0;
    tessera_mdns_done();
  }
}
