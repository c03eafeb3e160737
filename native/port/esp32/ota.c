/*
 * ota.c: the controller's self-update over the network, with the protocol of Arduino's espota
 * (arduino-esp32 tools/espota.py), so that a build tool on the local network can push an app image
 * without a password. Port CONFIG_TESSERA_OTA_PORT (8266 small, 3232 large):
 *   1. UDP invitation "<command> <port> <size> <md5>\n" (command 0 = app image; 100 = a filesystem
 *      image, refused), answered "OK" to the sender;
 *   2. the device connects back over TCP to the sender's <port> and receives <size> bytes; after each
 *      piece it answers the number of bytes it took (decimal), after the last one "OK" once the image
 *      is written, its MD5 matches and it is set as the boot partition, "ERR" otherwise;
 *   3. it restarts into the new image.
 * The image goes to the next OTA slot (esp_ota_begin/write/end), erased sector by sector as it is
 * written (erasing the whole slot first would outlast espota's 10 s wait for the first answer); the
 * running image stays valid until the new one boots. One update at a time, in its own task; nothing
 * here touches the core. Advertising the service as mDNS _arduino._tcp is left to the mDNS code.
 */
#include <arpa/inet.h>
#include <netinet/in.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include "esp_ota_ops.h"
#include "esp_rom_md5.h"
#include "esp_system.h"
#include "freertos/FreeRTOS.h"
#include "freertos/task.h"
#include "sdkconfig.h"
#include "tessera_esp32.h"
#include "tessera_host.h"
#include "tessera_port.h"

#define CMD_FLASH 0
#define CHUNK 1460

typedef struct {
  int command, port;
  unsigned long size;
  char md5[33];
} invitation_t;

/* "<command> <port> <size> <md5>\n" from espota. 1 when it is one. */
static int parse_invitation(const char *text, invitation_t *inv) {
  if (sscanf(text, "%d %d %lu %32s", &inv->command, &inv->port, &inv->size, inv->md5) != 4) return 0;
  return inv->port > 0 && inv->port < 65536 && inv->size > 0 && strlen(inv->md5) == 32;
}

static void hex(const uint8_t *digest, char out[33]) {
  for (int i = 0; i < 16; i++) snprintf(out + 2 * i, 3, "%02x", digest[i]);
}

static void say(int sock, const char *text) { send(sock, text, strlen(text), 0); }

/* Receives the image from the build tool and writes it to the next OTA slot. 0 on success. */
static int receive_image(struct in_addr from, const invitation_t *inv) {
  const esp_partition_t *slot = esp_ota_get_next_update_partition(NULL);
  if (!slot || inv->size > slot->size) return -1;
  int sock = socket(AF_INET, SOCK_STREAM, 0);
  if (sock < 0) return -1;
  struct sockaddr_in to = {.sin_family = AF_INET, .sin_port = htons((uint16_t)inv->port), .sin_addr = from};
  struct timeval timeout = {.tv_sec = 10};
  setsockopt(sock, SOL_SOCKET, SO_RCVTIMEO, &timeout, sizeof timeout);
  esp_ota_handle_t ota = 0;
  if (connect(sock, (struct sockaddr *)&to, sizeof to) != 0 || esp_ota_begin(slot, OTA_WITH_SEQUENTIAL_WRITES, &ota) != ESP_OK) {
    close(sock);
    return -1;
  }
  uint8_t *buf = malloc(CHUNK);
  md5_context_t md5;
  esp_rom_md5_init(&md5);
  unsigned long got = 0;
  int ok = buf != NULL;
  while (ok && got < inv->size) {
    int n = recv(sock, buf, CHUNK, 0);
    if (n <= 0 || esp_ota_write(ota, buf, (size_t)n) != ESP_OK) ok = 0;
    else {
      got += (unsigned long)n;
      esp_rom_md5_update(&md5, buf, (uint32_t)n);
      char count[12];
      snprintf(count, sizeof count, "%d", n);
      if (got < inv->size) say(sock, count);
    }
  }
  free(buf);
  uint8_t digest[16];
  char actual[33];
  esp_rom_md5_final(digest, &md5);
  hex(digest, actual);
  ok = ok && strcmp(actual, inv->md5) == 0;
  if (ok) ok = esp_ota_end(ota) == ESP_OK && esp_ota_set_boot_partition(slot) == ESP_OK;
  else esp_ota_abort(ota);
  say(sock, ok ? "OK" : "ERR");
  close(sock);
  return ok ? 0 : -1;
}

static void ota_task(void *arg) {
  (void)arg;
  int sock = socket(AF_INET, SOCK_DGRAM, 0);
  struct sockaddr_in me = {.sin_family = AF_INET, .sin_port = htons(CONFIG_TESSERA_OTA_PORT), .sin_addr.s_addr = htonl(INADDR_ANY)};
  if (sock < 0 || bind(sock, (struct sockaddr *)&me, sizeof me) != 0) {
    tessera_logf(TESSERA_LOG_ERROR, "ota: cannot listen on udp %d", CONFIG_TESSERA_OTA_PORT);
    vTaskDelete(NULL);
    return;
  }
  for (;;) {
    char text[96];
    struct sockaddr_in from;
    socklen_t from_len = sizeof from;
    int n = recvfrom(sock, text, sizeof text - 1, 0, (struct sockaddr *)&from, &from_len);
    if (n <= 0) continue;
    text[n] = 0;
    invitation_t inv;
    if (!parse_invitation(text, &inv)) continue;
    int accepted = inv.command == CMD_FLASH;
    sendto(sock, accepted ? "OK" : "ERR", accepted ? 2 : 3, 0, (struct sockaddr *)&from, from_len);
    if (!accepted) continue;
    tessera_logf(TESSERA_LOG_INFO, "ota: receiving %lu bytes", inv.size);
    if (receive_image(from.sin_addr, &inv) == 0) {
      tessera_logf(TESSERA_LOG_INFO, "ota: new image set, restarting");
      vTaskDelay(pdMS_TO_TICKS(500));
      esp_restart();
    }
    tessera_logf(TESSERA_LOG_ERROR, "ota: update failed, still running the current image");
  }
}

int ota_start(void) {
  return xTaskCreate(ota_task, "tessera_ota", 4096, NULL, 5, NULL) == pdPASS ? 0 : -1;
}
