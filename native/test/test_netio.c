/* sources: netio.c
 * test_netio.c: bounded socket waits (native/src/netio.c) on real Linux sockets: a read or write never
 * outlasts its wait, a client that trickles bytes is cut off at its deadline, and the local address
 * test behind the captive portal's "is this client on the setup network". */
#include <arpa/inet.h>
#include <netinet/in.h>
#include <pthread.h>
#include <stdint.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

#include "check.h"
#include "tessera_netio.h"

static uint32_t now_ms(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (uint32_t)((uint64_t)ts.tv_sec * 1000u + (uint64_t)ts.tv_nsec / 1000000u);
}

static void pair(int fds[2]) { CHECK(socketpair(AF_UNIX, SOCK_STREAM, 0, fds) == 0); }

static void test_recv_waits_at_most_its_wait(void) {
  int s[2];
  pair(s);
  char buf[16];
  uint32_t t0 = now_ms();
  CHECK_EQ(tessera_recv_within(s[0], buf, sizeof buf, 100), TESSERA_NET_TIMEOUT);
  uint32_t took = now_ms() - t0;
  CHECK(took >= 90 && took < 600);
  CHECK(write(s[1], "abc", 3) == 3);
  t0 = now_ms();
  CHECK_EQ(tessera_recv_within(s[0], buf, sizeof buf, 5000), 3); /* data there: at once */
  CHECK(now_ms() - t0 < 100);
  CHECK(memcmp(buf, "abc", 3) == 0);
  close(s[1]);
  CHECK_EQ(tessera_recv_within(s[0], buf, sizeof buf, 5000), 0); /* the peer closed */
  close(s[0]);
}

static void test_send_to_a_full_socket_waits_at_most_its_wait(void) {
  int s[2];
  pair(s);
  int small = 4096;
  setsockopt(s[0], SOL_SOCKET, SO_SNDBUF, &small, sizeof small);
  static uint8_t chunk[65536];
  int total = 0, n;
  while ((n = tessera_send_now(s[0], chunk, sizeof chunk)) > 0) total += n; /* the reader never reads */
  CHECK_EQ(n, 0);
  CHECK(total > 0);
  uint32_t t0 = now_ms();
  CHECK_EQ(tessera_send_within(s[0], chunk, sizeof chunk, 150), TESSERA_NET_TIMEOUT);
  uint32_t took = now_ms() - t0;
  CHECK(took >= 140 && took < 700);
  close(s[1]);
  CHECK_EQ(tessera_send_within(s[0], chunk, 10, 100), TESSERA_NET_ERROR); /* peer gone, no SIGPIPE */
  close(s[0]);
}

/* A client that sends one byte every 40 ms forever. */
static void *trickle(void *arg) {
  int fd = *(int *)arg;
  for (int i = 0; i < 100; i++) {
    if (send(fd, "x", 1, MSG_NOSIGNAL) != 1) break; /* ends once the reader has closed */
    usleep(40 * 1000);
  }
  return NULL;
}

static void test_a_trickling_client_is_cut_off_at_its_deadline(void) {
  int s[2];
  pair(s);
  pthread_t t;
  pthread_create(&t, NULL, trickle, &s[1]);
  /* the reading loop of a port: each read waits only for what is left of the request's budget */
  char buf[4096];
  size_t got = 0;
  uint32_t t0 = now_ms(), deadline = t0 + 300;
  int status = 0;
  while (got < sizeof buf) {
    uint32_t left = tessera_ms_left(now_ms(), deadline);
    if (!left) {
      status = TESSERA_NET_TIMEOUT;
      break;
    }
    int n = tessera_recv_within(s[0], buf + got, sizeof buf - got, left);
    if (n == TESSERA_NET_TIMEOUT) continue; /* the loop, not the read, decides when to stop */
    if (n <= 0) {
      status = n;
      break;
    }
    got += (size_t)n;
  }
  uint32_t took = now_ms() - t0;
  CHECK_EQ(status, TESSERA_NET_TIMEOUT);
  CHECK(got >= 3 && got < 20); /* it got some bytes, not the whole body */
  CHECK(took >= 290 && took < 800);
  close(s[0]);
  pthread_join(t, NULL);
  close(s[1]);
}

static void test_ms_left_on_a_wrapping_clock(void) {
  CHECK_EQ(tessera_ms_left(1000, 1500), 500);
  CHECK_EQ(tessera_ms_left(1500, 1500), 0);
  CHECK_EQ(tessera_ms_left(1501, 1500), 0);
  CHECK_EQ(tessera_ms_left(0xffffff00u, 0x100), 0x200);
  CHECK_EQ(tessera_ms_left(0x100, 0xffffff00u), 0); /* passed long ago */
}

/* Connects to a listener on family/addr and checks tessera_local_addr_is on the accepted socket. */
static int accepted_local_is(int family, const char *listen_addr, const char *connect_addr, const uint8_t ip[4]) {
  int l = socket(family, SOCK_STREAM, 0);
  if (l < 0) return -1;
  struct sockaddr_storage sa;
  memset(&sa, 0, sizeof sa);
  socklen_t len;
  if (family == AF_INET) {
    struct sockaddr_in *in = (struct sockaddr_in *)&sa;
    in->sin_family = AF_INET;
    inet_pton(AF_INET, listen_addr, &in->sin_addr);
    len = sizeof *in;
  } else {
    int off = 0;
    setsockopt(l, IPPROTO_IPV6, IPV6_V6ONLY, &off, sizeof off);
    struct sockaddr_in6 *in6 = (struct sockaddr_in6 *)&sa;
    in6->sin6_family = AF_INET6;
    inet_pton(AF_INET6, listen_addr, &in6->sin6_addr);
    len = sizeof *in6;
  }
  if (bind(l, (struct sockaddr *)&sa, len) != 0 || listen(l, 1) != 0) {
    close(l);
    return -1;
  }
  getsockname(l, (struct sockaddr *)&sa, &len);
  uint16_t port = family == AF_INET ? ((struct sockaddr_in *)&sa)->sin_port : ((struct sockaddr_in6 *)&sa)->sin6_port;
  int c = socket(AF_INET, SOCK_STREAM, 0);
  struct sockaddr_in to = {.sin_family = AF_INET, .sin_port = port};
  inet_pton(AF_INET, connect_addr, &to.sin_addr);
  int result = -1;
  if (connect(c, (struct sockaddr *)&to, sizeof to) == 0) {
    int a = accept(l, NULL, NULL);
    result = tessera_local_addr_is(a, ip);
    close(a);
  }
  close(c);
  close(l);
  return result;
}

static void test_local_address(void) {
  const uint8_t loopback[4] = {127, 0, 0, 1}, portal[4] = {192, 168, 4, 1};
  CHECK_EQ(accepted_local_is(AF_INET, "127.0.0.1", "127.0.0.1", loopback), 1);
  CHECK_EQ(accepted_local_is(AF_INET, "127.0.0.1", "127.0.0.1", portal), 0);
  /* a dual-stack listener (as esp_http_server's with IPv6 on) sees ::ffff:127.0.0.1 */
  int v6 = accepted_local_is(AF_INET6, "::", "127.0.0.1", loopback);
  if (v6 < 0) printf("  (no IPv6 here: the IPv4-mapped case is not exercised)\n");
  else {
    CHECK_EQ(v6, 1);
    CHECK_EQ(accepted_local_is(AF_INET6, "::", "127.0.0.1", portal), 0);
  }
  CHECK_EQ(tessera_local_addr_is(-1, loopback), 0);
}

int main(void) {
  RUN(test_recv_waits_at_most_its_wait);
  RUN(test_send_to_a_full_socket_waits_at_most_its_wait);
  RUN(test_a_trickling_client_is_cut_off_at_its_deadline);
  RUN(test_ms_left_on_a_wrapping_clock);
  RUN(test_local_address);
  return check_summary("test_netio");
}
