/*
 * mdns.c: network identity and mDNS of the ESP32 port (the espressif/mdns component). At startup the
 * responder answers for tessera-<chip>.local and advertises _arduino._tcp on the self-update port
 * (ota.c; the TXT entries of Arduino's own OTA, so espota and the Arduino IDE list the controller).
 * The core's advertisement (_tessera._tcp on port 80 with its TXT) replaces any earlier one of that
 * service. A browse runs on its own task (mdns_query_ptr blocks for the timeout); the answers reach
 * the core on the core thread through esp32_run_on_core, after the port call has returned.
 */
#include <stdio.h>
#include <string.h>

#include "freertos/FreeRTOS.h"
#include "freertos/queue.h"
#include "freertos/task.h"
#include "mdns.h"
#include "sdkconfig.h"
#include "tessera_driver.h"
#include "tessera_esp32.h"
#include "tessera_host.h"
#include "tessera_port.h"

#define NAME_CAP 64 /* MDNS_NAME_MAX_LEN */
#define MAX_TXT 8
#define TXT_CAP 256 /* all "key=value" entries of one advertisement, with their NULs */
#define MAX_RESULTS 8
#define BROWSES 2

typedef struct {
  char type[NAME_CAP], proto[8];
  uint32_t timeout_ms;
} browse_t;

static char hostname[32];
static int ready;
static QueueHandle_t browses;

uint32_t port_hostname(char *buf, uint32_t cap) {
  int n = snprintf(buf, cap, "%s", hostname);
  return n < 0 ? 0 : (uint32_t)n;
}

uint32_t port_http_port(void) { return TESSERA_HTTP_PORT; }

/* "_tessera._tcp" -> "_tessera" and "_tcp" (mdns takes them apart). 1 when well-formed. */
static int split_service(const char *service, char *type, size_t type_cap, char *proto, size_t proto_cap) {
  const char *dot = strrchr(service, '.');
  if (!dot || dot == service || (size_t)(dot - service) >= type_cap || strlen(dot + 1) >= proto_cap) return 0;
  memcpy(type, service, (size_t)(dot - service));
  type[dot - service] = 0;
  strcpy(proto, dot + 1);
  return 1;
}

void port_mdns_advertise(const char *host, const char *service, uint16_t port, const char *const *txt,
                         uint32_t txt_count) {
  char type[NAME_CAP], proto[8], text[TXT_CAP];
  mdns_txt_item_t items[MAX_TXT];
  if (!ready || !split_service(service, type, sizeof type, proto, sizeof proto)) {
    tessera_logf(TESSERA_LOG_WARN, "mdns: cannot advertise %s", service);
    return;
  }
  size_t used = 0, n = 0;
  for (uint32_t i = 0; i < txt_count && n < MAX_TXT; i++) { /* "key=value" -> key, value (mdns copies them) */
    size_t len = strlen(txt[i]);
    if (used + len + 1 > sizeof text) break;
    char *entry = memcpy(text + used, txt[i], len + 1);
    used += len + 1;
    char *eq = strchr(entry, '=');
    if (eq) *eq = 0;
    items[n++] = (mdns_txt_item_t){entry, eq ? eq + 1 : ""};
  }
  if (strcmp(host, hostname) != 0 && mdns_hostname_set(host) == ESP_OK) {
    snprintf(hostname, sizeof hostname, "%s", host);
    mdns_instance_name_set(host);
  }
  mdns_service_remove(type, proto); /* ESP_ERR_NOT_FOUND the first time */
  if (mdns_service_add(NULL, type, proto, port, items, n) != ESP_OK)
    tessera_logf(TESSERA_LOG_WARN, "mdns: cannot advertise %s", service);
}

/* ---- Browse: a worker task, answers handed to the core thread. ---------------------------------- */
#if CONFIG_TESSERA_MQTT
/* Only MQTT browses (for its broker, _mqtt._tcp): the small variant, without MQTT, has no browse task and
 * its 4 KiB of stack (npm run bench:ram); a browse there ends at once with no answers. */

/* The address to connect to for one answer: its first IPv4 address, else <host>.local. */
static int answer_host(const mdns_result_t *r, char *out, size_t cap) {
  for (const mdns_ip_addr_t *a = r->addr; a; a = a->next)
    if (a->addr.type == ESP_IPADDR_TYPE_V4) return snprintf(out, cap, IPSTR, IP2STR(&a->addr.u_addr.ip4)) > 0;
  return r->hostname && snprintf(out, cap, "%s.local", r->hostname) > 0;
}

static void deliver(void *arg) {
  char host[NAME_CAP + 8];
  for (const mdns_result_t *r = arg; r; r = r->next)
    if (answer_host(r, host, sizeof host)) tessera_mdns_result(host, strlen(host), r->port);
  tessera_mdns_done();
}

static void browse_task(void *arg) {
  (void)arg;
  for (;;) {
    browse_t b;
    if (xQueueReceive(browses, &b, portMAX_DELAY) != pdTRUE) continue;
    mdns_result_t *results = NULL;
    if (mdns_query_ptr(b.type, b.proto, b.timeout_ms, MAX_RESULTS, &results) != ESP_OK) results = NULL;
    esp32_run_on_core(deliver, results); /* the core thread never waits for this task: blocking is safe */
    if (results) mdns_query_results_free(results);
  }
}
#endif

static void done_job(void *arg) {
  (void)arg;
  tessera_mdns_done();
}

void port_mdns_browse(const char *service, uint32_t timeout_ms) {
  browse_t b = {.timeout_ms = timeout_ms ? timeout_ms : 1};
  if (ready && browses && split_service(service, b.type, sizeof b.type, b.proto, sizeof b.proto) &&
      xQueueSend(browses, &b, 0) == pdTRUE)
    return;
  tessera_logf(TESSERA_LOG_WARN, "mdns: cannot browse %s", service);
  if (esp32_post_to_core(done_job, NULL) != 0) tessera_logf(TESSERA_LOG_ERROR, "mdns: browse end lost");
}

int esp32_mdns_start(const char *chip) {
  snprintf(hostname, sizeof hostname, "tessera-%s", chip);
#if CONFIG_TESSERA_MQTT
  browses = xQueueCreate(BROWSES, sizeof(browse_t));
  if (!browses || xTaskCreate(browse_task, "tessera_mdns", 4096, NULL, 4, NULL) != pdPASS) return -1;
#endif
  if (mdns_init() != ESP_OK || mdns_hostname_set(hostname) != ESP_OK) return -1;
  mdns_instance_name_set(hostname);
  /* what Arduino's OTA advertises: espota and the Arduino IDE list the controller as a network port */
  mdns_txt_item_t arduino[] = {
      {"board", CONFIG_IDF_TARGET}, {"tcp_check", "no"}, {"ssh_upload", "no"}, {"auth_upload", "no"}};
  if (mdns_service_add(NULL, "_arduino", "_tcp", CONFIG_TESSERA_OTA_PORT, arduino, 4) != ESP_OK)
    tessera_logf(TESSERA_LOG_WARN, "mdns: cannot advertise _arduino._tcp");
  ready = 1;
  return 0;
}
