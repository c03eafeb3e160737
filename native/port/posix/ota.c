/*
 * ota.c: the POSIX host's self-update with the protocol of Arduino's espota.py (native/src/ota.c has
 * the protocol; tessera_ota.h describes it), on UDP --ota-port (3232 large, 8266 small; 0 off). The
 * image is a controller.wasm: received into memory (at most OTA_SLOT bytes), its MD5 checked, then
 * checked against the host ABI (native/src/image.c) and made ready to run (posix_core_prepare: built with
 * wasm2c, whose own core is compiled in, the image is translated and compiled into a shared object,
 * core_loader.c; WAMR and wasm3 load it as it is). The host boots it in place of the running core on
 * the same store (tessera_reboot_core), reopens the open WebSocket connections in it (they get its
 * APP_STATE) and answers OK; a core that cannot be made or boot is refused (ERR) and the old one boots
 * again. The accepted image is kept as <data-dir>/controller.wasm (written atomically), and boots at
 * the next start (posix_core_stored).
 *
 * One thread answers invitations; a transfer runs on a thread of its own, so a second invitation
 * during an update is refused at once ("ERR busy").
 */
#include <arpa/inet.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <netinet/in.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/select.h>
#include <sys/socket.h>
#include <unistd.h>

#include "posix.h"
#include "tessera_driver.h"
#include "tessera_host.h"
#include "tessera_image.h"
#include "tessera_md5.h"
#include "tessera_netio.h"
#include "tessera_ota.h"
#include "tessera_port.h"
#include "tessera_runtime.h"

#define OTA_SLOT (1u << 20) /* the desktop host's slot too (host/src/net/ota.ts) */
#define CHUNK 1460
#define WAIT_MS 10000 /* espota waits 10 s for each answer; a piece that takes longer ends it */

static pthread_mutex_t ota_lock = PTHREAD_MUTEX_INITIALIZER;
static tessera_ota_t ota = {.slot_size = OTA_SLOT};
static int udp = -1;
static char dir[PATH_MAX];

typedef struct {
  struct sockaddr_in from;
  tessera_ota_invitation_t inv;
} job_t;

typedef struct {
  int sock;
  uint8_t *image; /* inv.size bytes (NULL once handed to image.c) */
  uint32_t size, got;
  tessera_md5_t md5;
} update_t;

static int io_recv(void *ctx, uint8_t *buf, uint32_t cap) {
  return tessera_recv_within(((update_t *)ctx)->sock, buf, cap, WAIT_MS);
}

static int io_send(void *ctx, const char *text) {
  size_t len = strlen(text);
  return tessera_send_within(((update_t *)ctx)->sock, text, len, WAIT_MS) == (int)len ? 0 : -1;
}

static int io_write(void *ctx, const uint8_t *data, uint32_t len) {
  update_t *u = ctx;
  if (len > u->size - u->got) return -1;
  memcpy(u->image + u->got, data, len);
  u->got += len;
  return 0;
}

static void io_digest_update(void *ctx, const uint8_t *data, uint32_t len) {
  tessera_md5_update(&((update_t *)ctx)->md5, data, len);
}

static void io_digest_final(void *ctx, uint8_t out[16]) { tessera_md5_final(&((update_t *)ctx)->md5, out); }

static void io_over(void *ctx, int ok) {
  (void)ctx;
  (void)ok;
  pthread_mutex_lock(&ota_lock);
  tessera_ota_done(&ota);
  pthread_mutex_unlock(&ota_lock);
}

/* Writes the image as <dir>/<name> with fsync; 0 or -1. */
static int write_file(const char *name, const uint8_t *data, uint32_t len) {
  char path[PATH_MAX + 32];
  snprintf(path, sizeof path, "%s/%s", dir, name);
  int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0644);
  if (fd < 0) return -1;
  uint32_t at = 0;
  while (at < len) {
    ssize_t n = write(fd, data + at, len - at);
    if (n <= 0) break;
    at += (uint32_t)n;
  }
  int ok = at == len && fsync(fd) == 0;
  return close(fd) == 0 && ok ? 0 : -1;
}

static int keep_file(int keep) {
  char from[PATH_MAX + 32], to[PATH_MAX + 32];
  snprintf(from, sizeof from, "%s/controller.wasm.tmp", dir);
  snprintf(to, sizeof to, "%s/controller.wasm", dir);
  if (!keep) return unlink(from);
  return rename(from, to);
}

/* The image is complete and its MD5 matches: check it, keep it, boot it. 0, or -1 refused. */
static int io_finish(void *ctx) {
  update_t *u = ctx;
  char why[128];
  uint32_t id = tessera_build_id(u->image, u->size);
  if (tessera_image_check(u->image, u->size, why, sizeof why) != 0) {
    tessera_logf(TESSERA_LOG_ERROR, "ota: refused image %08x: %s", (unsigned)id, why);
    return -1;
  }
  if (write_file("controller.wasm.tmp", u->image, u->size) != 0) {
    tessera_logf(TESSERA_LOG_ERROR, "ota: cannot write %s/controller.wasm.tmp: %s", dir, strerror(errno));
    keep_file(0);
    return -1;
  }
  if (posix_core_prepare(dir, u->image, u->size, 0, why, sizeof why) != 0) {
    tessera_logf(TESSERA_LOG_ERROR, "ota: refused image %08x: %s", (unsigned)id, why);
    keep_file(0);
    return -1;
  }
  posix_lock();
  uint32_t from = tessera_rt_build_id(), old_len = 0, bad_len = 0;
  uint8_t *old = posix_core_image_set(u->image, u->size, &old_len);
  u->image = NULL;
  int booted = tessera_reboot_core() == 0 && tessera_rt_build_id() == id;
  if (!booted) { /* the old image again, and the old core boots afresh on the same store */
    u->image = posix_core_image_set(old, old_len, &bad_len);
    if (tessera_reboot_core() != 0) tessera_logf(TESSERA_LOG_ERROR, "ota: the previous core does not boot either");
  } else {
    free(old);
  }
  server_core_swapped();
  posix_unlock();
  posix_kick();
  if (!booted) {
    tessera_logf(TESSERA_LOG_ERROR, "ota: refused image %08x: its core does not boot; core %08x runs again",
                 (unsigned)id, (unsigned)from);
    keep_file(0);
    return -1;
  }
  keep_file(1);
  tessera_logf(TESSERA_LOG_INFO, "ota: core %08x replaced by %08x (kept as %s/controller.wasm)", (unsigned)from,
               (unsigned)id, dir);
  return 0;
}

/* A TCP connection to the tool within WAIT_MS; the socket or -1. */
static int connect_back(struct sockaddr_in to) {
  int s = socket(AF_INET, SOCK_STREAM, 0);
  if (s < 0) return -1;
  fcntl(s, F_SETFL, fcntl(s, F_GETFL) | O_NONBLOCK);
  if (connect(s, (struct sockaddr *)&to, sizeof to) != 0) {
    int err = 0;
    socklen_t len = sizeof err;
    fd_set set;
    FD_ZERO(&set);
    FD_SET(s, &set);
    struct timeval tv = {WAIT_MS / 1000, 0};
    if (errno != EINPROGRESS || select(s + 1, NULL, &set, NULL, &tv) != 1 ||
        getsockopt(s, SOL_SOCKET, SO_ERROR, &err, &len) != 0 || err != 0) {
      close(s);
      return -1;
    }
  }
  return s;
}

static void *transfer(void *arg) {
  job_t *job = arg;
  struct sockaddr_in to = job->from;
  to.sin_port = htons(job->inv.port);
  update_t u = {.sock = connect_back(to), .size = job->inv.size};
  u.image = malloc(job->inv.size);
  static uint8_t buf[CHUNK]; /* one transfer at a time */
  if (u.sock >= 0 && u.image) {
    tessera_md5_init(&u.md5);
    tessera_ota_io_t io = {&u, io_recv, io_send, io_write, io_digest_update, io_digest_final, io_finish, io_over};
    if (tessera_ota_receive(&io, &job->inv, buf, sizeof buf) != 0)
      tessera_logf(TESSERA_LOG_ERROR, "ota: update failed after %u of %u bytes; the running core stays",
                   (unsigned)u.got, (unsigned)u.size);
  } else {
    tessera_logf(TESSERA_LOG_ERROR, "ota: cannot connect back to the tool");
    io_over(&u, 0);
  }
  if (u.sock >= 0) close(u.sock);
  free(u.image);
  free(job);
  return NULL;
}

static void *listen_loop(void *arg) {
  (void)arg;
  sigset_t all;
  sigfillset(&all);
  pthread_sigmask(SIG_BLOCK, &all, NULL);
  for (;;) {
    char text[128];
    struct sockaddr_in from;
    socklen_t from_len = sizeof from;
    ssize_t n = recvfrom(udp, text, sizeof text, 0, (struct sockaddr *)&from, &from_len);
    if (n <= 0) continue;
    job_t *job = malloc(sizeof *job);
    if (!job) continue;
    pthread_mutex_lock(&ota_lock);
    const char *answer = tessera_ota_invited(&ota, text, (uint32_t)n, 0, &job->inv);
    pthread_mutex_unlock(&ota_lock);
    if (!answer) {
      free(job);
      continue;
    }
    sendto(udp, answer, strlen(answer), 0, (struct sockaddr *)&from, from_len);
    if (strcmp(answer, "OK") != 0) {
      tessera_logf(TESSERA_LOG_WARN, "ota: invitation from %s refused (%s)", inet_ntoa(from.sin_addr), answer + 4);
      free(job);
      continue;
    }
    tessera_logf(TESSERA_LOG_INFO, "ota: receiving %u bytes from %s", (unsigned)job->inv.size,
                 inet_ntoa(from.sin_addr));
    job->from = from;
    pthread_t t;
    pthread_attr_t attr;
    pthread_attr_init(&attr);
    pthread_attr_setdetachstate(&attr, PTHREAD_CREATE_DETACHED);
    if (pthread_create(&t, &attr, transfer, job) != 0) {
      free(job);
      io_over(NULL, 0);
    }
    pthread_attr_destroy(&attr);
  }
  return NULL;
}

int posix_ota_start(int port, const char *data_dir) {
  if (port <= 0) return -1;
  snprintf(dir, sizeof dir, "%s", data_dir);
  udp = socket(AF_INET, SOCK_DGRAM, 0);
  struct sockaddr_in me = {.sin_family = AF_INET, .sin_port = htons((uint16_t)port), .sin_addr = {htonl(INADDR_ANY)}};
  pthread_t t;
  if (udp < 0 || bind(udp, (struct sockaddr *)&me, sizeof me) != 0 ||
      pthread_create(&t, NULL, listen_loop, NULL) != 0) {
    tessera_logf(TESSERA_LOG_WARN, "ota: cannot listen on udp %d (%s); self-update is off", port, strerror(errno));
    if (udp >= 0) close(udp);
    udp = -1;
    return -1;
  }
  pthread_detach(t);
  tessera_logf(TESSERA_LOG_INFO, "ota: espota self-update on udp %d", port);
  return 0;
}

int posix_core_stored(const char *data_dir) {
  char path[PATH_MAX + 32], why[160];
  snprintf(path, sizeof path, "%s/controller.wasm", data_dir);
  FILE *f = fopen(path, "rb");
  if (!f) return 0;
  uint8_t *image = malloc(OTA_SLOT);
  uint32_t len = image ? (uint32_t)fread(image, 1, OTA_SLOT, f) : 0;
  int whole = image && fgetc(f) == EOF;
  fclose(f);
  uint32_t id = image ? tessera_build_id(image, len) : 0;
  if (!whole) snprintf(why, sizeof why, "unreadable, or larger than %u B", (unsigned)OTA_SLOT);
  else if (tessera_image_check(image, len, why, sizeof why) == 0 &&
           posix_core_prepare(data_dir, image, len, 1, why, sizeof why) == 0) {
    uint32_t old_len;
    free(posix_core_image_set(image, len, &old_len));
    tessera_logf(TESSERA_LOG_INFO, "core: booting image %08x, kept by a self-update (%s)", (unsigned)id, path);
    return 1;
  }
  tessera_logf(TESSERA_LOG_WARN, "core: cannot boot %s (%s); the build's core runs", path, why);
  free(image);
  return 0;
}
