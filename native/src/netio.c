/*
 * netio.c: bounded socket waits (tessera_netio.h). select() waits for the socket with a timeout; the
 * read or write that follows never blocks (MSG_DONTWAIT), so no call here outlasts its wait. MSG_NOSIGNAL
 * keeps Linux from raising SIGPIPE on a closed connection (lwIP accepts and ignores it).
 */
#include "tessera_netio.h"

#include <errno.h>
#include <netinet/in.h>
#include <string.h>
#include <sys/select.h>
#include <sys/socket.h>
#include <sys/time.h>

/* Waits at most wait_ms for fd to be readable (or writable): 1 ready, 0 not within the wait, -1 error. */
static int wait_for(int fd, int writing, uint32_t wait_ms) {
  fd_set set;
  FD_ZERO(&set);
  FD_SET(fd, &set);
  struct timeval tv = {.tv_sec = (long)(wait_ms / 1000), .tv_usec = (long)(wait_ms % 1000) * 1000};
  int r = select(fd + 1, writing ? NULL : &set, writing ? &set : NULL, NULL, &tv);
  if (r < 0) return errno == EINTR ? 0 : -1;
  return r > 0;
}

static int would_block(void) { return errno == EAGAIN || errno == EWOULDBLOCK || errno == EINTR; }

int tessera_recv_within(int fd, void *buf, size_t len, uint32_t wait_ms) {
  int ready = wait_for(fd, 0, wait_ms);
  if (ready < 0) return TESSERA_NET_ERROR;
  if (!ready) return TESSERA_NET_TIMEOUT;
  int n = (int)recv(fd, buf, len, MSG_DONTWAIT);
  if (n < 0) return would_block() ? TESSERA_NET_TIMEOUT : TESSERA_NET_ERROR;
  return n;
}

int tessera_send_now(int fd, const void *buf, size_t len) {
  int n = (int)send(fd, buf, len, MSG_DONTWAIT | MSG_NOSIGNAL);
  if (n < 0) return would_block() ? 0 : TESSERA_NET_ERROR;
  return n;
}

int tessera_send_within(int fd, const void *buf, size_t len, uint32_t wait_ms) {
  int ready = wait_for(fd, 1, wait_ms);
  if (ready < 0) return TESSERA_NET_ERROR;
  if (!ready) return TESSERA_NET_TIMEOUT;
  int n = tessera_send_now(fd, buf, len);
  return n == 0 ? TESSERA_NET_TIMEOUT : n;
}

uint32_t tessera_ms_left(uint32_t now_ms, uint32_t deadline_ms) {
  uint32_t left = deadline_ms - now_ms;
  return left > 0x7fffffffu ? 0 : left;
}

int tessera_local_addr_is(int fd, const uint8_t ipv4[4]) {
  struct sockaddr_storage addr;
  socklen_t len = sizeof addr;
  memset(&addr, 0, sizeof addr);
  if (getsockname(fd, (struct sockaddr *)&addr, &len) != 0) return 0;
  if (addr.ss_family == AF_INET) {
    const struct sockaddr_in *in = (const struct sockaddr_in *)&addr;
    return memcmp(&in->sin_addr, ipv4, 4) == 0;
  }
  if (addr.ss_family == AF_INET6) { /* ::ffff:a.b.c.d */
    static const uint8_t mapped[12] = {0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0xff, 0xff};
    const uint8_t *a = ((const struct sockaddr_in6 *)&addr)->sin6_addr.s6_addr;
    return memcmp(a, mapped, 12) == 0 && memcmp(a + 12, ipv4, 4) == 0;
  }
  return 0;
}
