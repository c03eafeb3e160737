/*
 * ota.c: the controller's self-update over the network, with the protocol of Arduino's espota
 * (arduino-esp32 tools/espota.py; native/src/ota.c has the protocol and tessera_ota.h describes it), so
 * that a build tool on the local network can push an app image without a password, on UDP/TCP port
 * CONFIG_TESSERA_OTA_PORT (8266 small, 3232 large). The image goes to the next OTA slot
 * (esp_ota_begin/write/end), erased sector by sector as it is written (erasing the whole slot first
 * would outlast espota's 10 s wait for the first answer). The invitations (tessera_ota_invited: an app
 * image no larger than the slot, one update at a time, none while the running image is unconfirmed) are
 * answered by one task, which also receives an accepted update (8 KiB of stack: esp_ota_end verifies the
 * image on it, as ESP-IDF's own OTA example allows for): one stack where a listener and an update task
 * of their own took 12 KiB at once (npm run bench:ram, the small variant's worst case). A second
 * invitation meanwhile waits in the socket until the update has ended, and is then answered. Nothing
 * here touches the core. Advertising the service as mDNS _arduino._tcp is mdns.c's.
 *
 * App rollback (CONFIG_BOOTLOADER_APP_ROLLBACK_ENABLE, sdkconfig.defaults): a new image boots pending
 * verification. It is marked valid once its core has started and answered a first HTTP request below
 * 500 (server.c calls esp32_boot_answered), and rolled back at once if its core cannot start or traps
 * before that (host.c, server.c); a pending image that restarts for any other reason (a crash, a
 * watchdog, power) rolls back in the bootloader. Until confirmed, invitations are refused.
 */
#include <arpa/inet.h>
#include <inttypes.h>
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
#include "tessera_netio.h"
#include "tessera_ota.h"
#include "tessera_port.h"

#if !CONFIG_BOOTLOADER_APP_ROLLBACK_ENABLE
#error "self-update needs CONFIG_BOOTLOADER_APP_ROLLBACK_ENABLE (sdkconfig.defaults)"
#endif

#define CHUNK 1460
#define OTA_STACK 8192     /* the invitations' task, which receives an update too */
#define READ_WAIT_MS 10000 /* espota waits 10 s for each answer; a piece that takes longer ends it */
#define SEND_WAIT_MS 5000

/* ---- The running image's confirmation (the state is guarded by the core lock) -------------------- */
static tessera_boot_t boot;

static void carry_out(int action) {
  if (action == TESSERA_BOOT_MARK_VALID) {
    esp_err_t err = esp_ota_mark_app_valid_cancel_rollback();
    tessera_logf(err == ESP_OK ? TESSERA_LOG_INFO : TESSERA_LOG_ERROR, "ota: new image confirmed (%s)",
                 esp_err_to_name(err));
  } else if (action == TESSERA_BOOT_ROLL_BACK) {
    tessera_logf(TESSERA_LOG_ERROR, "ota: the new image's core failed before its first answer: rolling back");
    esp_err_t err = esp_ota_mark_app_invalid_rollback_and_reboot(); /* returns only when it cannot */
    tessera_logf(TESSERA_LOG_ERROR, "ota: cannot roll back (%s)", esp_err_to_name(err));
  }
}

void esp32_boot_init(void) {
  esp_ota_img_states_t state = ESP_OTA_IMG_UNDEFINED;
  const esp_partition_t *running = esp_ota_get_running_partition();
  int pending =
      running && esp_ota_get_state_partition(running, &state) == ESP_OK && state == ESP_OTA_IMG_PENDING_VERIFY;
  tessera_boot_init(&boot, pending);
  if (pending) tessera_logf(TESSERA_LOG_INFO, "ota: first boot of a new image: confirmed after its first answer");
}

void esp32_boot_core_started(int ok) { carry_out(tessera_boot_core_started(&boot, ok)); }
void esp32_boot_core_trapped(void) { carry_out(tessera_boot_core_trapped(&boot)); }

void esp32_boot_answered(uint32_t status) {
  esp32_lock();
  int action = tessera_boot_answered(&boot, status);
  esp32_unlock();
  carry_out(action); /* writes otadata: not under the lock */
}

/* The invitations' state (guarded by the core lock, like the confirmation's). */
static tessera_ota_t ota;
static int udp = -1;

/* ---- Receiving an image ----------------------------------------------------------------------------- */
typedef struct {
  int sock;
  esp_ota_handle_t ota;
  const esp_partition_t *slot;
  md5_context_t md5;
  int ended; /* esp_ota_end was called (the handle is gone, whatever it answered) */
} update_t;

static int io_recv(void *ctx, uint8_t *buf, uint32_t cap) {
  return tessera_recv_within(((update_t *)ctx)->sock, buf, cap, READ_WAIT_MS);
}

static int io_send(void *ctx, const char *text) {
  size_t len = strlen(text);
  return tessera_send_within(((update_t *)ctx)->sock, text, len, SEND_WAIT_MS) == (int)len ? 0 : -1;
}

static int io_write(void *ctx, const uint8_t *data, uint32_t len) {
  return esp_ota_write(((update_t *)ctx)->ota, data, len) == ESP_OK ? 0 : -1;
}

static void io_digest_update(void *ctx, const uint8_t *data, uint32_t len) {
  esp_rom_md5_update(&((update_t *)ctx)->md5, data, len);
}

static void io_digest_final(void *ctx, uint8_t out[16]) { esp_rom_md5_final(out, &((update_t *)ctx)->md5); }

static int io_finish(void *ctx) {
  update_t *u = ctx;
  u->ended = 1;
  return esp_ota_end(u->ota) == ESP_OK && esp_ota_set_boot_partition(u->slot) == ESP_OK ? 0 : -1;
}

/* A failed update frees the slot for the next invitation; a successful one keeps it taken until the
 * restart (the slot now holds the image to boot). */
static void io_over(void *ctx, int ok) {
  (void)ctx;
  if (ok) return;
  esp32_lock();
  tessera_ota_done(&ota);
  esp32_unlock();
}

/* Connects back to the tool and receives the image into the next OTA slot. 0 on success. */
static int receive_image(struct in_addr from, const tessera_ota_invitation_t *inv) {
  update_t u = {.sock = -1, .slot = esp_ota_get_next_update_partition(NULL)};
  if (!u.slot || inv->size > u.slot->size) return -1;
  u.sock = socket(AF_INET, SOCK_STREAM, 0);
  if (u.sock < 0) return -1;
  struct sockaddr_in to = {.sin_family = AF_INET, .sin_port = htons(inv->port), .sin_addr = from};
  uint8_t *buf = malloc(CHUNK);
  int result = -1;
  if (buf && connect(u.sock, (struct sockaddr *)&to, sizeof to) == 0 &&
      esp_ota_begin(u.slot, OTA_WITH_SEQUENTIAL_WRITES, &u.ota) == ESP_OK) {
    esp_rom_md5_init(&u.md5);
    tessera_ota_io_t io = {&u, io_recv, io_send, io_write, io_digest_update, io_digest_final, io_finish, io_over};
    result = tessera_ota_receive(&io, inv, buf, CHUNK);
    if (!u.ended) esp_ota_abort(u.ota);
  }
  free(buf);
  close(u.sock);
  return result;
}

/* An accepted update, received on the invitations' task: a new image restarts into it. */
static void update(struct in_addr from, const tessera_ota_invitation_t *inv) {
  tessera_logf(TESSERA_LOG_INFO, "ota: receiving %" PRIu32 " bytes", inv->size);
  if (receive_image(from, inv) == 0) {
    tessera_logf(TESSERA_LOG_INFO, "ota: new image set, restarting");
    vTaskDelay(pdMS_TO_TICKS(500));
    esp_restart();
  }
  tessera_logf(TESSERA_LOG_ERROR, "ota: update failed, still running the current image");
  esp32_lock();
  tessera_ota_done(&ota); /* also when it failed before the protocol began (no connection, no slot) */
  esp32_unlock();
}

static void listen_task(void *arg) {
  (void)arg;
  for (;;) {
    char text[96];
    struct sockaddr_in from;
    socklen_t from_len = sizeof from;
    int n = recvfrom(udp, text, sizeof text, 0, (struct sockaddr *)&from, &from_len);
    if (n <= 0) continue;
    tessera_ota_invitation_t inv;
    esp32_lock();
    const char *answer = tessera_ota_invited(&ota, text, (uint32_t)n, boot.pending, &inv);
    esp32_unlock();
    if (!answer) continue;
    sendto(udp, answer, strlen(answer), 0, (struct sockaddr *)&from, from_len);
    if (strcmp(answer, "OK") == 0) update(from.sin_addr, &inv);
    else tessera_logf(TESSERA_LOG_WARN, "ota: invitation refused (%s)", answer + 4);
  }
}

int esp32_ota_start(void) {
  const esp_partition_t *slot = esp_ota_get_next_update_partition(NULL);
  ota.slot_size = slot ? slot->size : 0; /* no slot: every invitation is too large */
  udp = socket(AF_INET, SOCK_DGRAM, 0);
  struct sockaddr_in me = {
      .sin_family = AF_INET, .sin_port = htons(CONFIG_TESSERA_OTA_PORT), .sin_addr.s_addr = htonl(INADDR_ANY)};
  if (udp < 0 || bind(udp, (struct sockaddr *)&me, sizeof me) != 0) {
    tessera_logf(TESSERA_LOG_ERROR, "ota: cannot listen on udp %d", CONFIG_TESSERA_OTA_PORT);
    if (udp >= 0) close(udp);
    udp = -1;
    return -1;
  }
  return xTaskCreate(listen_task, "tessera_ota", OTA_STACK, NULL, 5, NULL) == pdPASS ? 0 : -1;
}
