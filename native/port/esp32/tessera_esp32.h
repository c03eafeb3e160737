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
/* Queues fn(arg) for the core thread (lock held, in posting order) and returns at once: 0, or -1 when
 * the queue is full (then fn never runs: the caller still owns arg). For tasks the core thread may
 * itself wait for (the MQTT client's), which must never block on it. */
int core_post(void (*fn)(void *), void *arg);
#define TESSERA_HTTP_PORT 80

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

/* mdns.c: the mDNS responder as tessera-<chip>.local, with _arduino._tcp on the self-update port
 * (so espota and the Arduino IDE find the controller); the core's advertisement and browses come
 * through port_mdns_*. */
int mdns_start(const char *chip);

/* mqtt.c: the MQTT worker task that runs the core's port_mqtt_* requests (large variant; the small
 * one has no MQTT client and answers "unavailable"). */
int mqtt_start(void);

/* serial.c: the 57600-baud serial port (reserved for the firmware channel; see tessera_port.h). */
int serial_start(void);

/* ota.c: self-update with the espota protocol on UDP/TCP port CONFIG_TESSERA_OTA_PORT. */
int ota_start(void);

#endif
