/*
 * stream.c: the live stream inputs of the POSIX host (--ddp-port N, default 4048, and --e131-port N,
 * default 5568; 0 turns one off): for each a UDP socket whose reader thread hands each datagram, as it came, to the core under the lock
 * (core_datagram, through tessera_datagram); the core owns the protocol (assembly/stream/). A thread
 * of its own, as ota.c and serial.c, so the HTTP server's poll loop is not involved.
 */
#include <arpa/inet.h>
#include <errno.h>
#include <netdb.h>
#include <netinet/in.h>
#include <pthread.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include "posix.h"
#include "tessera_driver.h"
#include "tessera_host.h"
#include "tessera_port.h"

typedef struct {
  int fd;
  uint32_t kind; /* TESSERA_DATAGRAM_* */
  const char *name;
  uint8_t buf[1500]; /* one Ethernet frame's payload; the core takes at most its rx buffer */
} input_t;

static input_t inputs[] = {{-1, TESSERA_DATAGRAM_DDP, "ddp", {0}}, {-1, TESSERA_DATAGRAM_E131, "e131", {0}}};

static void *reader(void *arg) {
  input_t *in = arg;
  uint8_t *buf = in->buf;
  for (;;) {
    struct sockaddr_in from;
    socklen_t from_len = sizeof from;
    ssize_t n = recvfrom(in->fd, buf, sizeof in->buf, MSG_TRUNC, (struct sockaddr *)&from, &from_len);
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) return NULL;
    if ((size_t)n > sizeof in->buf) continue; /* larger than any datagram taken: dropped */
    posix_lock();
    tessera_datagram(in->kind, ntohl(from.sin_addr.s_addr), buf, (uint32_t)n);
    posix_unlock();
    posix_kick();
  }
  return NULL;
}

int posix_stream_start(const char *host, uint32_t kind, int port) {
  input_t *in = NULL;
  for (size_t i = 0; i < sizeof inputs / sizeof *inputs; i++)
    if (inputs[i].kind == kind) in = &inputs[i];
  if (port <= 0 || !in) return -1;
  struct sockaddr_in me = {.sin_family = AF_INET, .sin_port = htons((uint16_t)port), .sin_addr = {htonl(INADDR_ANY)}};
  if (host) { /* the HTTP server's --host: an IPv4 address or a name for one */
    struct addrinfo hints, *res = NULL;
    memset(&hints, 0, sizeof hints);
    hints.ai_family = AF_INET;
    hints.ai_socktype = SOCK_DGRAM;
    if (getaddrinfo(host, NULL, &hints, &res) != 0 || !res) {
      tessera_logf(TESSERA_LOG_WARN, "%s: %s is no IPv4 address here; the %s input is off", in->name, host, in->name);
      return -1;
    }
    me.sin_addr = ((struct sockaddr_in *)res->ai_addr)->sin_addr;
    freeaddrinfo(res);
  }
  in->fd = socket(AF_INET, SOCK_DGRAM | SOCK_CLOEXEC, 0);
  pthread_t t;
  if (in->fd < 0 || bind(in->fd, (struct sockaddr *)&me, sizeof me) != 0 || pthread_create(&t, NULL, reader, in) != 0) {
    tessera_logf(TESSERA_LOG_WARN, "%s: cannot listen on udp %d (%s); the %s input is off", in->name, port,
                 strerror(errno), in->name);
    if (in->fd >= 0) close(in->fd);
    in->fd = -1;
    return -1;
  }
  pthread_detach(t);
  tessera_logf(TESSERA_LOG_DEBUG, "%s: live stream input on udp %d", in->name, port);
  return 0;
}
