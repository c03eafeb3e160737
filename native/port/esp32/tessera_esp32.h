/*
 * tessera_esp32.h: what the files of the ESP32 port share (not part of the portable host). Its own
 * functions are esp32_*; core_* names only the core's wasm exports (tessera_host.h), tessera_* the
 * portable layer (native/src), port_* the port interface (tessera_port.h).
 */
#ifndef TESSERA_ESP32_H
#define TESSERA_ESP32_H

#include <stdint.h>

#include "sdkconfig.h"

/* ---- Every socket the app opens, against lwIP's limit --------------------------------------------- */
#if CONFIG_TESSERA_VARIANT_SMALL
#define ESP32_WS_CLIENTS 4 /* WebSocket connections (a fifth is refused with 1013): the small variant's RAM */
#else
#define ESP32_WS_CLIENTS 8 /* WebSocket connections the core takes (a ninth is refused with 1013) */
#endif
#define ESP32_HTTP_CLIENTS 4 /* plain HTTP connections besides (page loads, API calls, keep-alive) */
/* esp_http_server's max_open_sockets: one session per connection */
#define ESP32_HTTPD_SESSIONS (ESP32_WS_CLIENTS + ESP32_HTTP_CLIENTS)
#define ESP32_HTTPD_INTERNAL 3 /* its listening, control and message sockets (httpd_main.c: "+ 3") */
#define ESP32_DNS_SOCKETS 1    /* dns.c: the setup network's DNS responder, while it is up */
#define ESP32_OTA_SOCKETS 2    /* ota.c: the UDP invitation socket, the TCP connection of an update */
#if CONFIG_TESSERA_MQTT
#define ESP32_MQTT_SOCKETS 1 /* mqtt.c: esp-mqtt's TCP connection (one client at a time) */
#else
#define ESP32_MQTT_SOCKETS 0
#endif
/* Not sockets: mDNS (espressif/mdns uses lwIP's raw UDP API unless CONFIG_MDNS_NETWORKING_SOCKET),
 * lwIP's DNS resolver and DHCP (their own PCBs). */
#define ESP32_SOCKETS \
  (ESP32_HTTPD_SESSIONS + ESP32_HTTPD_INTERNAL + ESP32_DNS_SOCKETS + ESP32_OTA_SOCKETS + ESP32_MQTT_SOCKETS)
_Static_assert(CONFIG_LWIP_MAX_SOCKETS >= ESP32_SOCKETS,
               "CONFIG_LWIP_MAX_SOCKETS (sdkconfig.defaults) is below the sockets the app opens");
/* TCP connections at once: the server's sessions, MQTT and an update's connection. */
_Static_assert(CONFIG_LWIP_MAX_ACTIVE_TCP >= ESP32_HTTPD_SESSIONS + ESP32_MQTT_SOCKETS + 1,
               "CONFIG_LWIP_MAX_ACTIVE_TCP is below the TCP connections the app opens");

/* ---- host.c: the core thread ------------------------------------------------------------------------ */
/* The app (app_main calls it): storage, then esp32_run. */
void tessera_esp32_main(void);
/* Starts Wi-Fi, mDNS, MQTT, the serial port, self-update, the core thread and the server, and returns:
 * app_main returns then, so that the main task's stack goes back to the heap. chip: the six hex digits. */
void esp32_run(const char *chip);
/* The one lock around the core and what it touches (the request table, the WebSocket slots). */
void esp32_lock(void);
void esp32_unlock(void);
/* Runs fn(arg) on the core thread with the lock held and returns when it has run. For tasks the core
 * thread never waits for (the HTTP workers, the mDNS browse task). */
void esp32_run_on_core(void (*fn)(void *), void *arg);
/* Queues fn(arg) for the core thread (lock held) and returns once it is queued: fn tells the caller
 * itself when it has run. For the HTTP workers, which send an answer while the core thread writes it
 * (a worker waiting in esp32_run_on_core could not drain it). */
void esp32_start_on_core(void (*fn)(void *), void *arg);
/* Queues fn(arg) for the core thread (lock held, in posting order) and returns at once: 0, or -1 when
 * the queue is full (then fn never runs: the caller still owns arg). For tasks the core thread may
 * itself wait for (the MQTT client's), which must never block on it. */
int esp32_post_to_core(void (*fn)(void *), void *arg);

/* ---- system.c -------------------------------------------------------------------------------------- */
uint64_t esp32_now_ms(void);

/* ---- storage.c: NVS and the LittleFS data partition at /data (the store); the chip id into chip. ---- */
int esp32_storage_open(char chip[7]);

/* ---- bus.c: the panel bus on UART1. --------------------------------------------------------------- */
int esp32_bus_start(void);
/* Delivers the packets that have arrived (lock held, outside any core call); returns how many. */
int esp32_bus_pump(void);

/* ---- server.c: esp_http_server on port 80 (HTTP through worker tasks, /ws through send queues). ----- */
#define TESSERA_HTTP_PORT 80
/* The request table and the queues, before the core thread starts. 0, or -1. */
int esp32_server_init(void);
/* The workers and the server. 0, or -1. */
int esp32_server_start(void);
/* On the core thread, lock held: WebSocket opens, closes and received frames go to the core. Returns 1
 * when something reached the core (so the loop ticks at once). */
int esp32_server_pump(void);
/* On the core thread, lock held: what the send queues hold goes out, as far as each socket takes it
 * without waiting; clients that stay behind are closed. */
void esp32_server_flush(void);

/* ---- wifi.c: the station (credentials kept by esp_wifi in NVS) and the setup network. -------------- */
int esp32_wifi_start(const char *chip);
/* 1 while the setup network (SoftAP + captive portal) is up. */
int esp32_wifi_portal_up(void);
#define TESSERA_PORTAL_IP "192.168.4.1" /* esp_netif's default SoftAP address */

/* ---- dns.c: the setup network's DNS responder (every A query answered with the portal's address). ---- */
int esp32_dns_start(void);
void esp32_dns_stop(void);

/* ---- mdns.c: tessera-<chip>.local, _arduino._tcp on the self-update port; port_mdns_* for the core. -- */
int esp32_mdns_start(const char *chip);

/* ---- mqtt.c: the worker task that runs the core's port_mqtt_* requests (large variant). ------------ */
int esp32_mqtt_start(void);

/* ---- serial.c: the 57600-baud serial port (reserved for the firmware channel). --------------------- */
int esp32_serial_start(void);

/* ---- ota.c: self-update (espota protocol, CONFIG_TESSERA_OTA_PORT) and the new image's confirmation. - */
int esp32_ota_start(void);
/* Reads whether the running image boots pending verification (app rollback). Before the core starts. */
void esp32_boot_init(void);
/* Lock held: the core started (ok) or could not; the core trapped. A pending image rolls back. */
void esp32_boot_core_started(int ok);
void esp32_boot_core_trapped(void);
/* Lock not held: an answer of the core went out; the first one below 500 confirms a pending image. */
void esp32_boot_answered(uint32_t status);

#endif
