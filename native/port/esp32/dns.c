/*
 * dns.c: the captive portal's DNS responder (ESP-IDF's examples/protocols/http_server/captive_portal
 * is the reference): a UDP socket on port 53 answers every standard query; an A question gets one
 * answer, the SoftAP's address, so that a phone joining the setup network opens the setup page.
 * Other question types get an empty answer. Runs in its own task while the portal is up.
 */
#include <netinet/in.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include "freertos/FreeRTOS.h"
#include "freertos/task.h"
#include "tessera_esp32.h"
#include "tessera_host.h"
#include "tessera_port.h"

#define DNS_PORT 53
#define PACKET_CAP 512 /* plain DNS over UDP */
#define HEADER 12
#define ANSWER 16 /* name pointer, type, class, ttl, length, IPv4 address */

static volatile int running;
static TaskHandle_t task;

/* The length of the first question's name (labels up to the 0 byte), or 0 when it runs off the packet. */
static size_t name_length(const uint8_t *p, size_t len) {
  size_t i = HEADER;
  while (i < len && p[i] != 0) {
    if (p[i] & 0xc0) return 0; /* no compression in a question we answer */
    i += (size_t)p[i] + 1;
  }
  return i < len ? i + 1 - HEADER : 0;
}

/* Turns the query in p[0..len) into its answer in place; the answer's length, or 0 to stay silent. */
static size_t answer(uint8_t *p, size_t len, const uint8_t ip[4]) {
  if (len < HEADER || (p[2] & 0x80) || (p[2] & 0x78) || p[4] != 0 || p[5] != 1) return 0; /* one standard query */
  size_t name = name_length(p, len);
  if (!name) return 0;
  size_t question_end = HEADER + name + 4; /* + qtype + qclass */
  if (question_end > len) return 0;
  int is_a = p[HEADER + name] == 0 && p[HEADER + name + 1] == 1;
  p[2] = 0x84 | (p[2] & 0x01); /* response, authoritative, recursion desired as asked */
  p[3] = 0x00;                 /* no error */
  p[6] = 0;
  p[7] = is_a ? 1 : 0; /* answers */
  memset(p + 8, 0, 4); /* no authority or additional records */
  if (!is_a) return question_end;
  if (question_end + ANSWER > PACKET_CAP) return 0;
  static const uint8_t head[] = {0xc0, HEADER, 0, 1, 0, 1, 0, 0, 0, 60, 0, 4}; /* name at 12, A, IN, ttl 60 */
  memcpy(p + question_end, head, sizeof head);
  memcpy(p + question_end + sizeof head, ip, 4);
  return question_end + ANSWER;
}

static void dns_task(void *arg) {
  (void)arg;
  const uint8_t ip[4] = {192, 168, 4, 1}; /* TESSERA_PORTAL_IP */
  int sock = socket(AF_INET, SOCK_DGRAM, 0);
  struct sockaddr_in me = {.sin_family = AF_INET, .sin_port = htons(DNS_PORT), .sin_addr.s_addr = htonl(INADDR_ANY)};
  struct timeval timeout = {.tv_sec = 1};
  if (sock < 0 || bind(sock, (struct sockaddr *)&me, sizeof me) != 0) {
    tessera_logf(TESSERA_LOG_ERROR, "dns: cannot listen on udp 53");
    running = 0;
  } else {
    setsockopt(sock, SOL_SOCKET, SO_RCVTIMEO, &timeout, sizeof timeout); /* to notice esp32_dns_stop */
  }
  uint8_t packet[PACKET_CAP];
  while (running) {
    struct sockaddr_in from;
    socklen_t from_len = sizeof from;
    int n = recvfrom(sock, packet, sizeof packet, 0, (struct sockaddr *)&from, &from_len);
    if (n <= 0) continue;
    size_t out = answer(packet, (size_t)n, ip);
    if (out) sendto(sock, packet, out, 0, (struct sockaddr *)&from, from_len);
  }
  if (sock >= 0) close(sock);
  task = NULL;
  vTaskDelete(NULL);
}

int esp32_dns_start(void) {
  if (running) return 0;
  running = 1;
  if (xTaskCreate(dns_task, "tessera_dns", 3072, NULL, 5, &task) != pdPASS) {
    running = 0;
    return -1;
  }
  return 0;
}

void esp32_dns_stop(void) { running = 0; /* the task ends within its 1 s receive timeout */ }
