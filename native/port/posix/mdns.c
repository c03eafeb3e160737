/*
 * mdns.c: the POSIX port's mDNS on Debian's libmdnsd (a small embeddable responder, no system
 * daemon), behaving as the desktop host's bonjour-service (host/src/net/mdns.ts): the controller's
 * advertisement, and browses that report each service found (its IPv4 address, else its host name,
 * and its port), then the end. Off with --no-mdns: nothing advertised, every browse ends empty.
 *
 * One thread owns the multicast socket (0.0.0.0:5353, group 224.0.0.251, looped back so programs on
 * this machine see us) and runs libmdnsd; `lock` guards the daemon between it and the core side.
 * Records are shared, not unique: no probing, so our own looped-back packets never look like a
 * conflict. Answers go into a small queue the main loop delivers under the core lock.
 */
#include <arpa/inet.h>
#include <errno.h>
#include <fcntl.h>
#include <ifaddrs.h>
#include <net/if.h>
#include <netinet/in.h>
#include <pthread.h>
#include <signal.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/select.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

#include <libmdnsd/mdnsd.h>
#include <libmdnsd/sdtxt.h>
#include <libmdnsd/xht.h>

#include "posix.h"
#include "tessera_driver.h"
#include "tessera_host.h"
#include "tessera_port.h"

#define MAX_RECORDS 8 /* one advertisement: PTR, SRV, TXT, A, the service-type PTR */
#define MAX_FOUND 8   /* services followed in one browse */
#define MAX_RESULTS 8 /* answers waiting for the main loop */
#define NAME_CAP 256
#define PACKET_CAP 1440 /* an answer with its additional records fits one Ethernet frame */

int posix_mdns_enabled = 1;

typedef struct {
  char instance[NAME_CAP]; /* <name>._mqtt._tcp.local */
  char target[NAME_CAP];   /* its SRV host */
  uint16_t port;
  int state; /* 0 wants SRV, 1 wants A, 2 reported */
  int queried;
} found_t;

static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static mdns_daemon_t *responder; /* the advertisement */
static mdns_daemon_t *browser;   /* one per browse, freed at its end (this libmdnsd cannot drop a query) */
static int sock = -1, wake_pipe[2] = {-1, -1}, started;
static mdns_record_t *records[MAX_RECORDS];
static int record_count;
static mdns_record_t *ota_records[MAX_RECORDS]; /* _arduino._tcp, which stays */
static int ota_record_count;
static struct in_addr own_ip;

/* The browse (under lock). */
static int browsing;
static char browse_name[NAME_CAP];
static uint64_t browse_end;
static found_t found[MAX_FOUND];
static int found_count;

/* For the main loop (under lock). */
static struct {
  char host[NAME_CAP];
  uint16_t port;
} results[MAX_RESULTS];
static int result_count, done_pending;

static uint64_t mono_ms(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (uint64_t)ts.tv_sec * 1000u + (uint64_t)ts.tv_nsec / 1000000u;
}

/* Names compare without case and without a trailing dot. */
static int same_name(const char *a, const char *b) {
  size_t la = strlen(a), lb = strlen(b);
  if (la && a[la - 1] == '.') la--;
  if (lb && b[lb - 1] == '.') lb--;
  return la == lb && strncasecmp(a, b, la) == 0;
}

static void report(const char *host, uint16_t port) {
  if (result_count >= MAX_RESULTS) {
    tessera_logf(TESSERA_LOG_WARN, "mdns: too many answers, dropped %s", host);
    return;
  }
  snprintf(results[result_count].host, NAME_CAP, "%s", host);
  size_t n = strlen(results[result_count].host);
  if (n && results[result_count].host[n - 1] == '.') results[result_count].host[n - 1] = 0;
  results[result_count++].port = port;
  posix_kick();
}

/* libmdnsd calls a query's callback only for answers cached after it was registered; the answers
 * that came with an earlier packet are already cached. So the browse reads the cache itself and the
 * callback only keeps the query asked on the network. */
static int asked(mdns_answer_t *a, void *arg) { return 0; }

static mdns_answer_t *cached(const char *name, int type, mdns_answer_t *last) {
  while ((last = mdnsd_list(browser, name, type, last)) && last->ttl == 0) {}
  return last;
}

/* Follows each service found: PTR → its SRV record → its host's A record. */
static void follow(void) {
  for (mdns_answer_t *a = NULL; (a = cached(browse_name, QTYPE_PTR, a)) && found_count < MAX_FOUND;) {
    int known = !a->rdname;
    for (int i = 0; i < found_count && !known; i++) known = same_name(found[i].instance, a->rdname);
    if (known) continue;
    found_t *f = &found[found_count++];
    memset(f, 0, sizeof *f);
    snprintf(f->instance, NAME_CAP, "%s", a->rdname);
  }
  for (int i = 0; i < found_count; i++) {
    found_t *f = &found[i];
    if (f->state == 0) {
      mdns_answer_t *srv = cached(f->instance, QTYPE_SRV, NULL);
      if (srv && srv->rdname) {
        snprintf(f->target, NAME_CAP, "%s", srv->rdname);
        f->port = srv->srv.port;
        f->state = 1;
        f->queried = 0;
      } else if (!f->queried) {
        f->queried = 1;
        mdnsd_query(browser, f->instance, QTYPE_SRV, asked, NULL);
      }
    }
    if (f->state == 1) {
      mdns_answer_t *ip = cached(f->target, QTYPE_A, NULL);
      char text[INET_ADDRSTRLEN];
      if (ip && inet_ntop(AF_INET, &ip->ip, text, sizeof text)) {
        f->state = 2;
        report(text, f->port);
      } else if (!f->queried) {
        f->queried = 1;
        mdnsd_query(browser, f->target, QTYPE_A, asked, NULL);
      }
    }
  }
}

static void end_browse(void) {
  /* A service whose address never came: its host name, as the desktop host does. */
  for (int i = 0; i < found_count; i++)
    if (found[i].state == 1) report(found[i].target, found[i].port);
  mdnsd_free(browser);
  browser = NULL;
  browsing = 0;
  found_count = 0;
  done_pending = 1;
  posix_kick();
}

static struct in_addr first_ipv4(void) {
  struct in_addr ip = {htonl(INADDR_LOOPBACK)};
  struct ifaddrs *list, *i;
  if (getifaddrs(&list) != 0) return ip;
  for (i = list; i; i = i->ifa_next)
    if (i->ifa_addr && i->ifa_addr->sa_family == AF_INET && (i->ifa_flags & IFF_UP) && !(i->ifa_flags & IFF_LOOPBACK)) {
      ip = ((struct sockaddr_in *)i->ifa_addr)->sin_addr;
      break;
    }
  freeifaddrs(list);
  return ip;
}

static int open_socket(void) {
  int s = socket(AF_INET, SOCK_DGRAM, 0);
  if (s < 0) return -1;
  int on = 1, ttl = 255;
  unsigned char loop = 1;
  setsockopt(s, SOL_SOCKET, SO_REUSEADDR, &on, sizeof on);
  setsockopt(s, SOL_SOCKET, SO_REUSEPORT, &on, sizeof on);
  struct sockaddr_in at = {.sin_family = AF_INET, .sin_port = htons(5353), .sin_addr = {htonl(INADDR_ANY)}};
  struct ip_mreq group = {.imr_multiaddr = {inet_addr("224.0.0.251")}, .imr_interface = {htonl(INADDR_ANY)}};
  if (bind(s, (struct sockaddr *)&at, sizeof at) != 0 ||
      setsockopt(s, IPPROTO_IP, IP_ADD_MEMBERSHIP, &group, sizeof group) != 0) {
    tessera_logf(TESSERA_LOG_WARN, "mdns: cannot join 224.0.0.251:5353: %s", strerror(errno));
    close(s);
    return -1;
  }
  setsockopt(s, IPPROTO_IP, IP_MULTICAST_TTL, &ttl, sizeof ttl);
  setsockopt(s, IPPROTO_IP, IP_MULTICAST_LOOP, &loop, sizeof loop);
  fcntl(s, F_SETFL, fcntl(s, F_GETFL) | O_NONBLOCK);
  return s;
}

/* The live published record name/type (a record being withdrawn waits for its goodbye with TTL 0
 * beside its successor; the A record is published once per service). */
static mdns_record_t *published(const char *name, unsigned short type) {
  for (mdns_record_t *r = mdnsd_get_published(responder, name); r; r = mdnsd_record_next(r)) {
    const mdns_answer_t *a = mdnsd_record_data(r);
    if (a->type == type && a->ttl > 0 && same_name(a->name, name)) return r;
  }
  return NULL;
}

/* Appends the published record name/type as an additional record, unless it is in the packet
 * already (`sent`, the packet as parsed), was added already or would not fit. */
static void add_additional(struct message *m, const struct message *sent, mdns_record_t **added, int *count,
                           const char *name, unsigned short type) {
  mdns_record_t *r = published(name, type);
  if (!r || *count >= MAX_RECORDS) return;
  const mdns_answer_t *a = mdnsd_record_data(r);
  for (int i = 0; i < *count; i++)
    if (added[i] == r) return;
  for (int i = 0; i < sent->ancount; i++)
    if (sent->an[i].type == type && same_name(sent->an[i].name, name)) return;
  size_t size = strlen(name) + 2 + 10 + 16 + 6 + (a->rdata ? a->rdlen : 0) + (a->rdname ? strlen(a->rdname) + 2 : 0);
  if ((size_t)message_packet_len(m) + size > PACKET_CAP) return;
  added[(*count)++] = r;
  message_ar(m, (char *)name, type, QCLASS_IN, a->ttl);
  if (a->rdata) message_rdata_raw(m, a->rdata, a->rdlen);
  else if (type == QTYPE_A) message_rdata_ipv4(m, a->ip);
  else if (type == QTYPE_AAAA) message_rdata_ipv6(m, a->ip6);
  else if (type == QTYPE_SRV) message_rdata_srv(m, a->srv.priority, a->srv.weight, a->srv.port, a->rdname);
  else if (a->rdname) message_rdata_name(m, a->rdname);
}

/* The host's address records for an SRV target. */
static void add_addresses(struct message *m, const struct message *sent, mdns_record_t **added, int *count,
                          const char *host) {
  add_additional(m, sent, added, count, host, QTYPE_A);
  add_additional(m, sent, added, count, host, QTYPE_AAAA);
}

/* RFC 6763 section 12: an answer carries what the asker asks next. A service's PTR brings its SRV,
 * its TXT and the host's addresses, an SRV the host's addresses. libmdnsd sends bare answers (so a
 * browser such as bonjour-service would find us only in our announcements): each responder packet
 * is read back here and completed from the published records before it goes out. */
static void add_additionals(struct message *m) {
  static struct message sent; /* 64 KiB, as `m` */
  if (!m->header.qr || m->ancount == 0) return;
  memset(&sent, 0, sizeof sent);
  if (message_parse(&sent, message_packet(m)) != 0) return;
  mdns_record_t *added[MAX_RECORDS];
  int count = 0;
  for (int i = 0; i < sent.ancount; i++) {
    const struct resource *an = &sent.an[i];
    if (an->ttl == 0) continue;
    if (an->type == QTYPE_PTR && an->known.ptr.name) {
      mdns_record_t *srv = published(an->known.ptr.name, QTYPE_SRV);
      if (!srv) continue; /* not one of our instances (the service-type enumeration) */
      add_additional(m, &sent, added, &count, an->known.ptr.name, QTYPE_SRV);
      add_additional(m, &sent, added, &count, an->known.ptr.name, QTYPE_TXT);
      add_addresses(m, &sent, added, &count, mdnsd_record_data(srv)->rdname);
    } else if (an->type == QTYPE_SRV && an->known.srv.name) {
      add_addresses(m, &sent, added, &count, an->known.srv.name);
    }
  }
}

static void send_out(mdns_daemon_t *d, struct message *m) {
  struct in_addr ip;
  unsigned short port;
  while (mdnsd_out(d, m, &ip, &port)) {
    if (d == responder) add_additionals(m);
    struct sockaddr_in to = {.sin_family = AF_INET, .sin_port = port, .sin_addr = ip};
    sendto(sock, message_packet(m), (size_t)message_packet_len(m), 0, (struct sockaddr *)&to, sizeof to);
  }
}

static void *run(void *arg) {
  sigset_t all;
  sigfillset(&all);
  pthread_sigmask(SIG_BLOCK, &all, NULL);
  static struct message m; /* 64 KiB: one packet in or out at a time */
  static unsigned char buf[MAX_PACKET_LEN];
  for (;;) {
    pthread_mutex_lock(&lock);
    struct timeval wait = *mdnsd_sleep(responder);
    if (browser) {
      struct timeval b = *mdnsd_sleep(browser);
      if (timercmp(&b, &wait, <)) wait = b;
    }
    pthread_mutex_unlock(&lock);
    if (wait.tv_sec > 0 || wait.tv_usec > 100000) wait = (struct timeval){0, 100000};
    fd_set in;
    FD_ZERO(&in);
    FD_SET(sock, &in);
    FD_SET(wake_pipe[0], &in);
    int n = select((sock > wake_pipe[0] ? sock : wake_pipe[0]) + 1, &in, NULL, NULL, &wait);
    if (n > 0 && FD_ISSET(wake_pipe[0], &in)) {
      char drain[16];
      while (read(wake_pipe[0], drain, sizeof drain) > 0) {}
    }
    pthread_mutex_lock(&lock);
    if (n > 0 && FD_ISSET(sock, &in)) {
      struct sockaddr_in from;
      socklen_t len = sizeof from;
      while (recvfrom(sock, buf, sizeof buf, 0, (struct sockaddr *)&from, &len) > 0) {
        len = sizeof from;
        memset(&m, 0, sizeof m);
        if (message_parse(&m, buf) != 0) continue;
        /* Queries to the responder, answers to the browse: the responder keeps no cache (libmdnsd
         * would keep every answer on the network for a day), the browse's goes with it. */
        if (m.header.qr == 0) mdnsd_in(responder, &m, from.sin_addr, ntohs(from.sin_port));
        else if (browser) mdnsd_in(browser, &m, from.sin_addr, ntohs(from.sin_port));
      }
    }
    if (browsing) {
      if (browser) follow();
      if (mono_ms() >= browse_end) end_browse();
    }
    send_out(responder, &m);
    if (browser) send_out(browser, &m);
    /* A `_services._dns-sd._udp` query sets libmdnsd's enumeration mode, in which every other answer
     * is dropped; only mdnsd_step ends it, so this step does that and nothing else (no I/O). */
    mdnsd_step(responder, sock, false, false, NULL);
    pthread_mutex_unlock(&lock);
  }
  return NULL;
}

static void wake(void) {
  if (wake_pipe[1] >= 0 && write(wake_pipe[1], "", 1) < 0) {}
}

/* Starts the responder on first use (under the core lock); 0 when it runs. */
static int ensure_started(void) {
  if (started) return sock >= 0 ? 0 : -1;
  started = 1;
  sock = open_socket();
  if (sock < 0) return -1;
  if (pipe(wake_pipe) != 0) {
    close(sock);
    sock = -1;
    return -1;
  }
  fcntl(wake_pipe[0], F_SETFL, fcntl(wake_pipe[0], F_GETFL) | O_NONBLOCK);
  mdnsd_log_level("err");
  own_ip = first_ipv4();
  responder = mdnsd_new(QCLASS_IN, 1000);
  mdnsd_set_address(responder, own_ip);
  pthread_t thread;
  pthread_attr_t attr;
  pthread_attr_init(&attr);
  pthread_attr_setdetachstate(&attr, PTHREAD_CREATE_DETACHED);
  int rc = pthread_create(&thread, &attr, run, NULL);
  pthread_attr_destroy(&attr);
  if (rc != 0) {
    close(sock);
    sock = -1;
    return -1;
  }
  return 0;
}

static void add_record(mdns_record_t *r) {
  if (r && record_count < MAX_RECORDS) records[record_count++] = r;
}

/* One service's records (under lock): the type's PTR, the instance's PTR, SRV and TXT (from the
 * "key=value" entries), the host's A. Each record goes through add. */
static void service_records(const char *hostname, const char *service, uint16_t port, const char *const *txt,
                            uint32_t txt_count, void (*add)(mdns_record_t *)) {
  char type[NAME_CAP], instance[NAME_CAP], host[NAME_CAP];
  snprintf(type, sizeof type, "%s.local.", service);
  snprintf(instance, sizeof instance, "%s.%s", hostname, type);
  snprintf(host, sizeof host, "%s.local.", hostname);
  mdns_record_t *r = mdnsd_shared(responder, DISCO_NAME, QTYPE_PTR, 120);
  mdnsd_set_host(responder, r, type);
  add(r);
  r = mdnsd_shared(responder, type, QTYPE_PTR, 120);
  mdnsd_set_host(responder, r, instance);
  add(r);
  r = mdnsd_shared(responder, instance, QTYPE_SRV, 120);
  mdnsd_set_srv(responder, r, 0, 0, port, host);
  add(r);
  r = mdnsd_shared(responder, host, QTYPE_A, 120);
  mdnsd_set_ip(responder, r, own_ip);
  add(r);
  /* TXT: key=value entries (xht keeps pointers: the copies live until sd2txt). */
  char entries[16][128];
  xht_t *h = xht_new(11);
  for (uint32_t i = 0; i < txt_count && i < 16; i++) {
    snprintf(entries[i], sizeof entries[i], "%s", txt[i]);
    char *eq = strchr(entries[i], '=');
    if (!eq || eq == entries[i]) continue;
    *eq = 0;
    xht_set(h, entries[i], eq + 1);
  }
  int len = 0;
  unsigned char *packed = sd2txt(h, &len);
  r = mdnsd_shared(responder, instance, QTYPE_TXT, 120);
  if (packed) mdnsd_set_raw(responder, r, (char *)packed, (unsigned short)len);
  add(r);
  free(packed);
  xht_free(h);
}

static void add_ota_record(mdns_record_t *r) {
  if (r && ota_record_count < MAX_RECORDS) ota_records[ota_record_count++] = r;
}

void posix_mdns_advertise_ota(uint16_t port) {
  if (!posix_mdns_enabled || ensure_started() != 0) return;
  char hostname[64];
  port_hostname(hostname, sizeof hostname);
  /* the TXT entries of Arduino's own OTA advertisement */
  static const char *const txt[] = {"board=tessera-posix", "tcp_check=no", "ssh_upload=no", "auth_upload=no"};
  pthread_mutex_lock(&lock);
  for (int i = 0; i < ota_record_count; i++) mdnsd_done(responder, ota_records[i]);
  ota_record_count = 0;
  service_records(hostname, "_arduino._tcp", port, txt, 4, add_ota_record);
  pthread_mutex_unlock(&lock);
  wake();
  tessera_logf(TESSERA_LOG_INFO, "mdns: advertising %s.local _arduino._tcp port %u", hostname, port);
}

void port_mdns_advertise(const char *hostname, const char *service, uint16_t port, const char *const *txt,
                         uint32_t txt_count) {
  if (!posix_mdns_enabled) return;
  if (ensure_started() != 0) return;
  pthread_mutex_lock(&lock);
  for (int i = 0; i < record_count; i++) mdnsd_done(responder, records[i]); /* goodbyes for the old one */
  record_count = 0;
  service_records(hostname, service, port, txt, txt_count, add_record);
  pthread_mutex_unlock(&lock);
  wake();
  tessera_logf(TESSERA_LOG_INFO, "mdns: advertising %s.local %s port %u", hostname, service, port);
}

void port_mdns_browse(const char *service, uint32_t timeout_ms) {
  if (!posix_mdns_enabled || ensure_started() != 0) {
    pthread_mutex_lock(&lock);
    done_pending = 1;
    pthread_mutex_unlock(&lock);
    posix_kick();
    return;
  }
  pthread_mutex_lock(&lock);
  if (browsing) end_browse();
  snprintf(browse_name, sizeof browse_name, "%s.local.", service);
  browsing = 1;
  found_count = 0;
  browse_end = mono_ms() + timeout_ms;
  browser = mdnsd_new(QCLASS_IN, 1000);
  if (browser) mdnsd_query(browser, browse_name, QTYPE_PTR, asked, NULL);
  pthread_mutex_unlock(&lock);
  wake();
}

int posix_mdns_pending(void) {
  pthread_mutex_lock(&lock);
  int any = result_count > 0 || done_pending;
  pthread_mutex_unlock(&lock);
  return any;
}

int posix_mdns_pump(void) {
  char host[NAME_CAP];
  int delivered = 0;
  for (;;) {
    pthread_mutex_lock(&lock);
    uint16_t port = 0;
    int have = result_count > 0, done = 0;
    if (have) {
      memcpy(host, results[0].host, NAME_CAP);
      port = results[0].port;
      memmove(&results[0], &results[1], sizeof results[0] * (size_t)(result_count - 1));
      result_count--;
    } else if (done_pending) {
      done_pending = 0;
      done = 1;
    }
    pthread_mutex_unlock(&lock);
    if (have) tessera_mdns_result(host, (uint32_t)strlen(host), port);
    else if (done) tessera_mdns_done();
    else break;
    delivered++;
  }
  return delivered;
}

void posix_mdns_shutdown(void) {
  if (sock < 0 || !responder) return;
  static struct message m;
  pthread_mutex_lock(&lock);
  mdnsd_shutdown(responder); /* goodbyes: every record again with TTL 0 */
  send_out(responder, &m);
  pthread_mutex_unlock(&lock);
}
