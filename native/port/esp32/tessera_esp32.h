/* tessera_esp32.h: what the files of the ESP32 port share (not part of the portable host). */
#ifndef TESSERA_ESP32_H
#define TESSERA_ESP32_H

#include <stdint.h>

/* host.c: the app (app_main calls it): storage, then tessera_esp32_run. */
void tessera_esp32_main(void);
/* host.c: starts everything below, the bus, the core and the server, then runs the main loop (returns
 * only when the core cannot start). chip: the six hex digits of the controller's name. */
void tessera_esp32_run(const char *chip);
/* Runs fn(arg) on the core thread with the core lock held and returns when it has run. Every call
 * into the core from another task (the HTTP server's) goes through it. */
void core_call(void (*fn)(void *), void *arg);

/* storage.c: NVS and the LittleFS data partition at /data (the store); the chip id into chip. */
int storage_open(char chip[7]);

/* wifi.c: station with the credentials esp_wifi keeps in NVS; without any (or after
 * CONFIG_TESSERA_WIFI_RETRIES failed attempts) the SoftAP "tessera-<chip>" and the captive portal. */
int wifi_start(const char *chip);
/* 1 while the SoftAP setup portal is up (server.c redirects unknown hosts to the setup page). */
int wifi_portal_active(void);
#define TESSERA_PORTAL_IP "192.168.4.1" /* esp_netif's default SoftAP address */

/* dns.c: the captive portal's DNS responder: every A query is answered with the AP's address. */
int dns_start(void);
void dns_stop(void);

/* serial.c: the 57600-baud serial port (reserved for the firmware channel; see tessera_port.h). */
int serial_start(void);

/* ota.c: self-update with the espota protocol on UDP/TCP port CONFIG_TESSERA_OTA_PORT. */
int ota_start(void);

#endif
