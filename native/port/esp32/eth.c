/*
 * eth.c: with CONFIG_TESSERA_NET_OPENETH (the QEMU rig, scripts/esp-rig/README.md), the network is
 * Ethernet through the OpenCores MAC that Espressif's QEMU emulates, in place of wifi.c: the same three
 * entry points, an address from the emulator's DHCP server, no setup network (there is no radio; a
 * network from POST /api/setup is logged and dropped). It also logs the internal heap (free, largest
 * block, minimum ever) once the address is there and then every CONFIG_TESSERA_HEAP_LOG_S seconds, the
 * figures the rig reads from the emulated chip. Without the option this file is empty.
 */
#include "sdkconfig.h"

#if CONFIG_TESSERA_NET_OPENETH
#include <stdio.h>

#include "esp_eth.h"
#include "esp_event.h"
#include "esp_heap_caps.h"
#include "esp_mac.h"
#include "esp_netif.h"
#include "esp_timer.h"
#include "tessera_esp32.h"
#include "tessera_host.h"
#include "tessera_port.h"

static esp_timer_handle_t heap_timer;

static void log_heap(const char *when) {
  const uint32_t caps = MALLOC_CAP_INTERNAL | MALLOC_CAP_8BIT;
  tessera_logf(TESSERA_LOG_INFO, "heap %s: free %u, largest block %u, minimum ever %u", when,
               (unsigned)heap_caps_get_free_size(caps), (unsigned)heap_caps_get_largest_free_block(caps),
               (unsigned)heap_caps_get_minimum_free_size(caps));
}

static void on_heap_timer(void *arg) {
  (void)arg;
  log_heap("now");
}

static void on_got_ip(void *arg, esp_event_base_t base, int32_t id, void *data) {
  (void)arg;
  (void)base;
  (void)id;
  const ip_event_got_ip_t *ev = data;
  tessera_logf(TESSERA_LOG_INFO, "eth: address " IPSTR, IP2STR(&ev->ip_info.ip));
  log_heap("after start");
  if (!heap_timer) {
    const esp_timer_create_args_t t = {.callback = on_heap_timer, .name = "tessera_heap_log"};
    if (esp_timer_create(&t, &heap_timer) == ESP_OK)
      esp_timer_start_periodic(heap_timer, (uint64_t)CONFIG_TESSERA_HEAP_LOG_S * 1000000u);
  }
}

int esp32_wifi_portal_up(void) { return 0; }

int esp32_wifi_start(const char *chip) {
  char name[32];
  snprintf(name, sizeof name, "tessera-%s", chip);
  if (esp_netif_init() != ESP_OK || esp_event_loop_create_default() != ESP_OK) return -1;
  esp_netif_config_t netif_cfg = ESP_NETIF_DEFAULT_ETH();
  esp_netif_t *netif = esp_netif_new(&netif_cfg);
  if (!netif) return -1;
  esp_netif_set_hostname(netif, name);
  eth_mac_config_t mac_cfg = ETH_MAC_DEFAULT_CONFIG();
  eth_phy_config_t phy_cfg = ETH_PHY_DEFAULT_CONFIG();
  phy_cfg.autonego_timeout_ms = 100; /* QEMU's PHY answers at once (ESP-IDF's own example) */
  esp_eth_mac_t *mac = esp_eth_mac_new_openeth(&mac_cfg);
  esp_eth_phy_t *phy = esp_eth_phy_new_dp83848(&phy_cfg);
  esp_eth_config_t cfg = ETH_DEFAULT_CONFIG(mac, phy);
  esp_eth_handle_t eth = NULL;
  if (!mac || !phy || esp_eth_driver_install(&cfg, &eth) != ESP_OK) return -1;
  uint8_t addr[6];
  if (esp_read_mac(addr, ESP_MAC_ETH) == ESP_OK) esp_eth_ioctl(eth, ETH_CMD_S_MAC_ADDR, addr);
  if (esp_netif_attach(netif, esp_eth_new_netif_glue(eth)) != ESP_OK) return -1;
  esp_event_handler_instance_register(IP_EVENT, IP_EVENT_ETH_GOT_IP, on_got_ip, NULL, NULL);
  return esp_eth_start(eth) == ESP_OK ? 0 : -1;
}

void port_wifi_configure(const char *ssid, uint32_t ssid_len, const char *pass, uint32_t pass_len) {
  (void)ssid;
  (void)pass;
  (void)pass_len;
  tessera_logf(TESSERA_LOG_WARN, "eth: Wi-Fi setup ignored (%u-byte SSID): this build's network is Ethernet",
               (unsigned)ssid_len);
}
#endif
