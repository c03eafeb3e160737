/*
 * net.c: the POSIX port's network identity, the Wi-Fi setup (logged: the last station credentials
 * are kept for diagnostics) and the main loop's entry to the network queues: the MQTT session is
 * mqtt.c's (libmosquitto), mDNS is mdns.c's (libmdnsd). Their answers are queued and delivered by
 * posix_net_pump from the main loop, never inside a port_* call.
 */
#include <stdio.h>
#include <string.h>

#include "posix.h"
#include "tessera_driver.h"
#include "tessera_host.h"
#include "tessera_port.h"
#include "tessera_store.h"

int posix_http_port;
static char wifi_ssid[33];

uint32_t port_hostname(char *buf, uint32_t cap) {
  char chip[7] = "000000";
  tessera_chip_id(chip);
  int n = snprintf(buf, cap, "tessera-%s", chip);
  return n < 0 ? 0 : (uint32_t)n;
}

uint32_t port_http_port(void) { return (uint32_t)posix_http_port; }

void port_wifi_configure(const char *ssid, uint32_t ssid_len, const char *pass, uint32_t pass_len) {
  uint32_t n = ssid_len < sizeof wifi_ssid ? ssid_len : sizeof wifi_ssid - 1;
  memcpy(wifi_ssid, ssid, n);
  wifi_ssid[n] = 0;
  printf("wifi: station credentials for \"%s\" received (POSIX host: not applied)\n", wifi_ssid);
  fflush(stdout);
}

int posix_net_pending(void) { return posix_mqtt_pending() || posix_mdns_pending(); }

int posix_net_pump(void) { return posix_mqtt_pump() + posix_mdns_pump(); }
