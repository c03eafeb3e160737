/* sources: ota.c netio.c
 * test_ota.c: the espota protocol (native/src/ota.c) against a stand-in for espota.py over a real
 * socket, reads bounded with tessera_recv_within as the device does, and the running image's
 * confirmation rules. The digest is a stand-in too (the device uses the ROM's MD5). */
#include <pthread.h>
#include <stdint.h>
#include <stdlib.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

#include "check.h"
#include "tessera_netio.h"
#include "tessera_ota.h"

static uint32_t now_ms(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (uint32_t)((uint64_t)ts.tv_sec * 1000u + (uint64_t)ts.tv_nsec / 1000000u);
}

/* ---- a 16-byte stand-in digest ------------------------------------------------------------------- */
typedef struct {
  uint64_t a, b;
} digest_t;
static void digest_add(digest_t *d, const uint8_t *p, uint32_t n) {
  for (uint32_t i = 0; i < n; i++) {
    d->a = (d->a ^ p[i]) * 0x100000001b3ull;
    d->b = (d->b + p[i] + 1) * 0x9e3779b97f4a7c15ull;
  }
}
static void digest_hex(const digest_t *d, char out[33]) {
  uint8_t raw[16];
  memcpy(raw, &d->a, 8);
  memcpy(raw + 8, &d->b, 8);
  for (int i = 0; i < 16; i++) snprintf(out + 2 * i, 3, "%02x", raw[i]);
}

/* ---- the device side: io on one end of a socket pair ---------------------------------------------- */
typedef struct {
  int fd;
  uint8_t flash[200000];
  uint32_t written;
  digest_t digest;
  int finished, fail_write;
} device_t;

static int dev_recv(void *ctx, uint8_t *buf, uint32_t cap) {
  device_t *d = ctx;
  return tessera_recv_within(d->fd, buf, cap, 300); /* the device waits 10 s; the test 0.3 s */
}
static int dev_send(void *ctx, const char *text) {
  device_t *d = ctx;
  return tessera_send_within(d->fd, text, strlen(text), 300) == (int)strlen(text) ? 0 : -1;
}
static int dev_write(void *ctx, const uint8_t *data, uint32_t len) {
  device_t *d = ctx;
  if (d->fail_write || d->written + len > sizeof d->flash) return -1;
  memcpy(d->flash + d->written, data, len);
  d->written += len;
  return 0;
}
static void dev_digest_update(void *ctx, const uint8_t *data, uint32_t len) {
  digest_add(&((device_t *)ctx)->digest, data, len);
}
static void dev_digest_final(void *ctx, uint8_t out[16]) {
  device_t *d = ctx;
  memcpy(out, &d->digest.a, 8);
  memcpy(out + 8, &d->digest.b, 8);
}
static int dev_finish(void *ctx) {
  ((device_t *)ctx)->finished++;
  return 0;
}

/* ---- the tool side: espota.py's upload loop ------------------------------------------------------- */
typedef struct {
  int fd;
  const uint8_t *image;
  uint32_t size, stop_after; /* stop sending (but keep the connection) after this many bytes */
  char replies[100000];
  uint32_t replies_len;
} tool_t;

static void *tool_run(void *arg) {
  tool_t *t = arg;
  uint32_t sent = 0;
  while (sent < t->size && sent < t->stop_after) {
    uint32_t n = t->size - sent < 1460 ? t->size - sent : 1460;
    if (send(t->fd, t->image + sent, n, MSG_NOSIGNAL) != (ssize_t)n) break;
    sent += n;
    /* espota waits for an answer to each chunk; the answers may run together */
    int r = tessera_recv_within(t->fd, t->replies + t->replies_len, sizeof t->replies - t->replies_len - 1, 2000);
    if (r <= 0) break;
    t->replies_len += (uint32_t)r;
  }
  for (;;) { /* then read until the device closes (its final OK or ERR) */
    int r = tessera_recv_within(t->fd, t->replies + t->replies_len, sizeof t->replies - t->replies_len - 1, 2000);
    if (r <= 0) break;
    t->replies_len += (uint32_t)r;
  }
  t->replies[t->replies_len] = 0;
  return NULL;
}

static device_t dev;
static tool_t tool;
static uint8_t image[100000];

/* Runs one upload of image[0..size) with the invitation's md5 and returns the device's result. */
static int upload(uint32_t size, const char *md5, uint32_t stop_after) {
  int s[2];
  CHECK(socketpair(AF_UNIX, SOCK_STREAM, 0, s) == 0);
  memset(&dev, 0, sizeof dev);
  memset(&tool, 0, sizeof tool);
  dev.fd = s[0];
  tool.fd = s[1];
  tool.image = image;
  tool.size = size;
  tool.stop_after = stop_after;
  char text[128];
  snprintf(text, sizeof text, "0 41234 %u %s\n", size, md5);
  tessera_ota_invitation_t inv;
  CHECK(tessera_ota_parse(text, (uint32_t)strlen(text), &inv));
  pthread_t t;
  pthread_create(&t, NULL, tool_run, &tool);
  tessera_ota_io_t io = {&dev, dev_recv, dev_send, dev_write, dev_digest_update, dev_digest_final, dev_finish, NULL};
  static uint8_t buf[1460];
  int result = tessera_ota_receive(&io, &inv, buf, sizeof buf);
  close(s[0]);
  pthread_join(t, NULL);
  close(s[1]);
  return result;
}

static void image_md5(uint32_t size, char out[33]) {
  digest_t d = {0, 0};
  digest_add(&d, image, size);
  digest_hex(&d, out);
}

static void test_invitations(void) {
  tessera_ota_invitation_t inv;
  const char *ok = "0 41234 1048576 0123456789abcdefABCDEF0123456789\n";
  CHECK(tessera_ota_parse(ok, (uint32_t)strlen(ok), &inv));
  CHECK_EQ(inv.command, 0);
  CHECK_EQ(inv.port, 41234);
  CHECK_EQ(inv.size, 1048576);
  CHECK(strcmp(inv.md5, "0123456789abcdefABCDEF0123456789") == 0);
  CHECK(tessera_ota_accept(&inv, 0));
  CHECK(!tessera_ota_accept(&inv, 1)); /* the running image is not confirmed yet */
  const char *fs = "100 41234 4096 0123456789abcdef0123456789abcdef";
  CHECK(tessera_ota_parse(fs, (uint32_t)strlen(fs), &inv));
  CHECK(!tessera_ota_accept(&inv, 0)); /* a filesystem image */
  const char *bad[] = {"",
                       "0 41234 100",
                       "0 0 100 0123456789abcdef0123456789abcdef",
                       "0 70000 100 0123456789abcdef0123456789abcdef",
                       "0 41234 0 0123456789abcdef0123456789abcdef",
                       "0 41234 100 0123456789abcdef0123456789abcdeg",
                       "0 41234 100 0123456789abcdef0123456789abcdef0",
                       "0 41234 99999999999 0123456789abcdef0123456789abcdef",
                       "x 41234 100 0123456789abcdef0123456789abcdef"};
  for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++)
    CHECK(!tessera_ota_parse(bad[i], (uint32_t)strlen(bad[i]), &inv));
}

static void test_invitation_rules(void) {
  tessera_ota_t ota = {.slot_size = 100000};
  tessera_ota_invitation_t inv;
  const char *app = "0 41234 5000 0123456789abcdef0123456789abcdef\n";
  const char *fs = "100 41234 5000 0123456789abcdef0123456789abcdef\n";
  const char *big = "0 41234 100001 0123456789abcdef0123456789abcdef\n";
  CHECK(tessera_ota_invited(&ota, "hello", 5, 0, &inv) == NULL); /* not an invitation: no answer */
  CHECK(strncmp(tessera_ota_invited(&ota, fs, (uint32_t)strlen(fs), 0, &inv), "ERR", 3) == 0);
  CHECK(strncmp(tessera_ota_invited(&ota, big, (uint32_t)strlen(big), 0, &inv), "ERR", 3) == 0);
  CHECK(strncmp(tessera_ota_invited(&ota, app, (uint32_t)strlen(app), 1, &inv), "ERR", 3) == 0); /* unconfirmed */
  CHECK_EQ(ota.busy, 0);
  CHECK(strcmp(tessera_ota_invited(&ota, app, (uint32_t)strlen(app), 0, &inv), "OK") == 0);
  CHECK_EQ(inv.size, 5000);
  CHECK_EQ(ota.busy, 1);
  const char *second = tessera_ota_invited(&ota, app, (uint32_t)strlen(app), 0, &inv);
  CHECK(strncmp(second, "ERR busy", 8) == 0); /* one update at a time */
  tessera_ota_done(&ota);
  CHECK(strcmp(tessera_ota_invited(&ota, app, (uint32_t)strlen(app), 0, &inv), "OK") == 0);
}

static void test_an_upload(void) {
  for (uint32_t i = 0; i < sizeof image; i++) image[i] = (uint8_t)(i * 131 + (i >> 8));
  char md5[33];
  image_md5(50000, md5);
  CHECK_EQ(upload(50000, md5, 0xffffffffu), 0);
  CHECK_EQ(dev.written, 50000);
  CHECK(memcmp(dev.flash, image, 50000) == 0);
  CHECK_EQ(dev.finished, 1);
  /* the answers: the byte count of every piece, the last too, then OK */
  CHECK(tool.replies_len >= 2 && strcmp(tool.replies + tool.replies_len - 2, "OK") == 0);
  CHECK(strstr(tool.replies, "1460") == tool.replies);
  CHECK(tool.replies_len >= 3 && tool.replies[tool.replies_len - 3] >= '0' &&
        tool.replies[tool.replies_len - 3] <= '9');
}

static void test_a_wrong_digest_is_refused(void) {
  char md5[33];
  image_md5(5000, md5);
  md5[0] = md5[0] == '0' ? '1' : '0';
  CHECK_EQ(upload(5000, md5, 0xffffffffu), -1);
  CHECK_EQ(dev.finished, 0); /* never set to boot */
  CHECK(tool.replies_len >= 3 && strcmp(tool.replies + tool.replies_len - 3, "ERR") == 0);
}

static void test_a_stalled_upload_ends_within_its_wait(void) {
  char md5[33];
  image_md5(20000, md5);
  uint32_t t0 = now_ms();
  CHECK_EQ(upload(20000, md5, 7300), -1); /* the tool stops sending after five chunks */
  uint32_t took = now_ms() - t0;
  CHECK(took < 3000); /* one 0.3 s wait, never retried (the tool's own reads take up to 2 s) */
  CHECK_EQ(dev.finished, 0);
  CHECK_EQ(dev.written, 7300);
}

static void test_a_flash_error_is_refused(void) {
  char md5[33];
  image_md5(3000, md5);
  memset(&dev, 0, sizeof dev);
  dev.fail_write = 1;
  int s[2];
  CHECK(socketpair(AF_UNIX, SOCK_STREAM, 0, s) == 0);
  dev.fd = s[0];
  tool = (tool_t){.fd = s[1], .image = image, .size = 3000, .stop_after = 0xffffffffu};
  pthread_t t;
  pthread_create(&t, NULL, tool_run, &tool);
  tessera_ota_invitation_t inv = {0, 1, 3000, ""};
  memcpy(inv.md5, md5, 33);
  tessera_ota_io_t io = {&dev, dev_recv, dev_send, dev_write, dev_digest_update, dev_digest_final, dev_finish, NULL};
  uint8_t buf[512];
  CHECK_EQ(tessera_ota_receive(&io, &inv, buf, sizeof buf), -1);
  close(s[0]);
  pthread_join(t, NULL);
  close(s[1]);
  CHECK_EQ(dev.finished, 0);
  CHECK(strstr(tool.replies, "ERR") != NULL);
}

static void test_confirmation_of_a_new_image(void) {
  tessera_boot_t b;
  tessera_boot_init(&b, 1); /* first boot of an update */
  CHECK_EQ(tessera_boot_core_started(&b, 1), TESSERA_BOOT_NOTHING);
  CHECK_EQ(tessera_boot_answered(&b, 500), TESSERA_BOOT_NOTHING); /* an error answer proves nothing */
  CHECK_EQ(tessera_boot_answered(&b, 200), TESSERA_BOOT_MARK_VALID);
  CHECK_EQ(tessera_boot_answered(&b, 200), TESSERA_BOOT_NOTHING); /* once */
  CHECK_EQ(tessera_boot_core_trapped(&b), TESSERA_BOOT_NOTHING);  /* confirmed: a trap is only a trap */
  tessera_boot_init(&b, 1);
  CHECK_EQ(tessera_boot_core_started(&b, 0), TESSERA_BOOT_ROLL_BACK);
  tessera_boot_init(&b, 1);
  CHECK_EQ(tessera_boot_core_trapped(&b), TESSERA_BOOT_ROLL_BACK);
  tessera_boot_init(&b, 0); /* an image confirmed earlier */
  CHECK_EQ(tessera_boot_core_started(&b, 0), TESSERA_BOOT_NOTHING);
  CHECK_EQ(tessera_boot_answered(&b, 200), TESSERA_BOOT_NOTHING);
}

int main(void) {
  RUN(test_invitations);
  RUN(test_invitation_rules);
  RUN(test_an_upload);
  RUN(test_a_wrong_digest_is_refused);
  RUN(test_a_stalled_upload_ends_within_its_wait);
  RUN(test_a_flash_error_is_refused);
  RUN(test_confirmation_of_a_new_image);
  return check_summary("test_ota");
}
