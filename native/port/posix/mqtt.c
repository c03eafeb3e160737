/*
 * mqtt.c: the POSIX port's MQTT session on libmosquitto, behaving as the desktop host's
 * (host/src/net/mqtt-session.ts): MQTT 3.1.1, clean session, the core's keepalive and last will,
 * no automatic reconnect (the core owns backoff), a 10 s connect timeout, exactly one outcome per
 * connect (connected, or failed with a reason) and `lost` if an established session drops.
 *
 * Each connect gets a session with its own thread that resolves the name, connects and runs
 * mosquitto_loop. Its callbacks never touch the core: events and messages go into one bounded FIFO
 * tagged with the session's generation, and the main loop delivers them under the lock
 * (posix_mqtt_pump). A disconnect or a newer connect bumps the generation, which silences the old
 * session; its thread writes what the core published before, then DISCONNECT, frees the client and
 * exits on its own (flush_and_disconnect). A newer session connects only once the old one has gone
 * (or after STOP_GRACE_MS): both use the same client id, and a broker that sees the new CONNECT
 * first closes the old connection as taken over, dropping what it had not read yet (the clears of a
 * prefix change) and publishing its last will.
 */
#include <errno.h>
#include <mosquitto.h>
#include <poll.h>
#include <pthread.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

#include "posix.h"
#include "tessera_driver.h"
#include "tessera_host.h"
#include "tessera_mqtt_outbox.h"
#include "tessera_port.h"

#define CONNECT_TIMEOUT_MS 10000 /* the desktop host's connectTimeout */
#define STOP_GRACE_MS 1000       /* a stopped session gets this long to flush its output and DISCONNECT */
#define MESSAGE_CAP 1024         /* topic + payload: the core's rx buffer takes no more */
#define QUEUE_CAP 64             /* messages waiting for the main loop; events are never dropped */
#define DELIVER_PER_PUMP 8       /* then the core ticks: its work queue holds 16 */

typedef struct session {
  struct mosquitto *mosq; /* NULL once the thread has freed it (guarded by m) */
  struct session *prev;   /* the session this one replaced, until it has gone (a reference) */
  pthread_mutex_t m;
  uint32_t gen;
  atomic_int up, stop, finished, refs;
  int reported, reason; /* the thread's own */
  char *will_topic;
  uint8_t *will_payload;
  uint32_t will_len;
  int will_retain;
  char host[256];
  uint16_t port, keepalive;
  char *client_id, *username, *password;
} session_t;

typedef struct item {
  struct item *next;
  uint32_t gen, kind, reason; /* kind 0: a message */
  uint32_t topic_len, payload_len;
  uint8_t bytes[]; /* topic then payload */
} item_t;

static pthread_mutex_t queue_lock = PTHREAD_MUTEX_INITIALIZER;
static item_t *head, *tail;
static int queued_messages;
static atomic_uint generation; /* the live session's; written under the core lock */
static session_t *current;     /* under the core lock */
static session_t *leaving;     /* the last one dropped, until a newer one waits for it (a reference) */
static int lib_ready;

static uint64_t mono_ms(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (uint64_t)ts.tv_sec * 1000u + (uint64_t)ts.tv_nsec / 1000000u;
}

static void push(item_t *it) {
  pthread_mutex_lock(&queue_lock);
  if (it->kind == 0 && queued_messages >= QUEUE_CAP) {
    pthread_mutex_unlock(&queue_lock);
    tessera_logf(TESSERA_LOG_WARN, "mqtt: %d messages waiting, dropped one on %.*s", QUEUE_CAP, (int)it->topic_len,
                 (const char *)it->bytes);
    free(it);
    return;
  }
  if (it->kind == 0) queued_messages++;
  it->next = NULL;
  if (tail) tail->next = it;
  else head = it;
  tail = it;
  pthread_mutex_unlock(&queue_lock);
  posix_kick();
}

static void push_event(session_t *s, uint32_t kind, uint32_t reason) {
  item_t *it = calloc(1, sizeof *it);
  if (!it) return;
  it->gen = s->gen;
  it->kind = kind;
  it->reason = reason;
  push(it);
}

static void release(session_t *s) {
  if (atomic_fetch_sub(&s->refs, 1) != 1) return;
  pthread_mutex_destroy(&s->m);
  free(s->will_topic);
  free(s->will_payload);
  free(s->client_id);
  free(s->username);
  free(s->password);
  free(s);
}

/* CONNACK: 0 accepted, 4 bad user name or password, 5 not authorized, others refused. */
static void on_connect(struct mosquitto *mosq, void *obj, int rc) {
  session_t *s = obj;
  if (s->reported) return;
  s->reported = 1;
  if (rc == 0) {
    atomic_store(&s->up, 1);
    push_event(s, TESSERA_MQTT_CONNECTED, 0);
  } else {
    push_event(s, TESSERA_MQTT_FAILED, rc == 4 || rc == 5 ? TESSERA_MQTT_AUTH : TESSERA_MQTT_REFUSED);
  }
}

static void on_message(struct mosquitto *mosq, void *obj, const struct mosquitto_message *msg) {
  session_t *s = obj;
  size_t topic_len = strlen(msg->topic), payload_len = msg->payloadlen > 0 ? (size_t)msg->payloadlen : 0;
  if (topic_len + payload_len > MESSAGE_CAP) {
    tessera_logf(TESSERA_LOG_WARN, "mqtt: dropped a message of %zu bytes on %s (at most %d)", topic_len + payload_len,
                 msg->topic, MESSAGE_CAP);
    return;
  }
  item_t *it = malloc(sizeof *it + topic_len + payload_len);
  if (!it) return;
  it->gen = s->gen;
  it->kind = 0;
  it->reason = 0;
  it->topic_len = (uint32_t)topic_len;
  it->payload_len = (uint32_t)payload_len;
  memcpy(it->bytes, msg->topic, topic_len);
  if (payload_len) memcpy(it->bytes + topic_len, msg->payload, payload_len);
  push(it);
}

static void sleep_ms(long ms) {
  struct timespec ts = {0, ms * 1000000L};
  nanosleep(&ts, NULL);
}

/* Waits until the replaced session has flushed and gone (its own grace bounds it), even if this one
 * is stopped meanwhile: a newer session waits for this one, so the chain stays in order. */
static void await_prev(session_t *s) {
  session_t *prev = s->prev;
  if (!prev) return;
  for (int waited = 0; waited < STOP_GRACE_MS + 200 && !atomic_load(&prev->finished); waited += 2) sleep_ms(2);
  if (!atomic_load(&prev->finished))
    tessera_logf(TESSERA_LOG_WARN, "mqtt: the previous session has not finished, connecting anyway");
  s->prev = NULL;
  release(prev);
}

/* Waits (until `until`) for `events` on `fd`; 0 when the time is up. */
static int wait_fd(int fd, short events, uint64_t until) {
  for (;;) {
    uint64_t now = mono_ms();
    if (now >= until) return 0;
    struct pollfd p = {.fd = fd, .events = events};
    int n = poll(&p, 1, (int)(until - now));
    if (n > 0) return 1;
    if (n < 0 && errno != EINTR) return 1; /* the read or write says what is wrong */
  }
}

/* The session is stopped: what the core published goes out, then DISCONNECT, and the connection ends
 * once the broker has closed it. Not mosquitto_disconnect: libmosquitto then drops the connection on
 * any packet it reads (a SUBACK, a message), its queued output with it, and it closes the socket
 * right after DISCONNECT; a close with unread input (it reads one packet per loop) resets the
 * connection, and what had not left yet (Nagle holds small writes) never reaches the broker. A
 * session never up has nothing to flush. */
static void flush_and_disconnect(session_t *s, struct mosquitto *mosq) {
  static const uint8_t disconnect[2] = {0xE0, 0x00};
  if (!atomic_load(&s->up)) return;
  uint64_t until = mono_ms() + STOP_GRACE_MS;
  int fd = mosquitto_socket(mosq);
  while (fd >= 0 && mosquitto_want_write(mosq)) {
    if (!wait_fd(fd, POLLOUT, until)) goto late;
    if (mosquitto_loop_write(mosq, 1) != MOSQ_ERR_SUCCESS) return;
    fd = mosquitto_socket(mosq);
  }
  if (fd < 0) return;
  for (;;) {
    if (!wait_fd(fd, POLLOUT, until)) goto late;
    ssize_t n = write(fd, disconnect, sizeof disconnect); /* two bytes: all or nothing */
    if (n == (ssize_t)sizeof disconnect) break;
    if (n >= 0 || (errno != EAGAIN && errno != EINTR)) return;
  }
  shutdown(fd, SHUT_WR);
  for (uint8_t sink[256];;) { /* the broker closes on DISCONNECT: until then, read what it sends */
    if (!wait_fd(fd, POLLIN, until)) goto late;
    ssize_t n = read(fd, sink, sizeof sink);
    if (n == 0 || (n < 0 && errno != EAGAIN && errno != EINTR)) return;
  }
late:
  tessera_logf(TESSERA_LOG_WARN, "mqtt: %s:%u: the broker had not taken the session's end in %d ms", s->host, s->port,
               STOP_GRACE_MS);
}

static void *run(void *arg) {
  session_t *s = arg;
  sigset_t all;
  sigfillset(&all);
  pthread_sigmask(SIG_BLOCK, &all, NULL); /* signals are the main thread's */
  struct mosquitto *mosq = s->mosq;
  s->reason = TESSERA_MQTT_UNREACHABLE;
  await_prev(s);
  /* Resolves the name here (it may take a while) and starts a non-blocking TCP connect. */
  int rc = atomic_load(&s->stop) ? MOSQ_ERR_NO_CONN : mosquitto_connect_async(mosq, s->host, s->port, s->keepalive);
  if (rc != MOSQ_ERR_SUCCESS && !atomic_load(&s->stop))
    tessera_logf(TESSERA_LOG_DEBUG, "mqtt: %s:%u: %s", s->host, s->port,
                 rc == MOSQ_ERR_ERRNO ? strerror(errno) : mosquitto_strerror(rc));
  uint64_t deadline = mono_ms() + CONNECT_TIMEOUT_MS;
  while (rc == MOSQ_ERR_SUCCESS) {
    if (atomic_load(&s->stop)) {
      flush_and_disconnect(s, mosq);
      break;
    }
    if (!s->reported && mono_ms() >= deadline) {
      tessera_logf(TESSERA_LOG_DEBUG, "mqtt: %s:%u: connack timeout", s->host, s->port);
      break;
    }
    rc = mosquitto_loop(mosq, 100, 1);
    if (rc != MOSQ_ERR_SUCCESS && !atomic_load(&s->stop))
      tessera_logf(TESSERA_LOG_DEBUG, "mqtt: %s:%u: %s", s->host, s->port,
                   rc == MOSQ_ERR_ERRNO ? strerror(errno) : mosquitto_strerror(rc));
  }
  if (atomic_load(&s->up)) push_event(s, TESSERA_MQTT_LOST, 0);
  else if (!s->reported) push_event(s, TESSERA_MQTT_FAILED, (uint32_t)s->reason);
  pthread_mutex_lock(&s->m);
  atomic_store(&s->up, 0);
  s->mosq = NULL;
  pthread_mutex_unlock(&s->m);
  mosquitto_destroy(mosq);
  atomic_store(&s->finished, 1);
  release(s);
  return NULL;
}

static char *dup_or_null(const char *text) { return text && *text ? strdup(text) : NULL; }

/* Silences the live session: its thread sees `stop` within one mosquitto_loop (100 ms), then what it
 * was given goes out, a clean DISCONNECT (no will), and it frees the client. It becomes the one
 * `leaving`, which the next session waits for. */
static void drop_current(void) {
  session_t *s = current;
  current = NULL;
  atomic_fetch_add(&generation, 1);
  if (!s) return;
  atomic_store(&s->stop, 1);
  if (leaving) release(leaving); /* it had no successor: nothing waits for it */
  leaving = s;
}

void port_mqtt_connect(const tessera_mqtt_connect_t *p) {
  drop_current();
  session_t *old = leaving; /* its reference passes to the new session (prev) */
  leaving = NULL;
  if (!lib_ready) {
    mosquitto_lib_init();
    lib_ready = 1;
  }
  session_t *s = calloc(1, sizeof *s);
  if (!s) {
    if (old) release(old);
    return;
  }
  s->prev = old;
  pthread_mutex_init(&s->m, NULL);
  s->gen = atomic_load(&generation);
  snprintf(s->host, sizeof s->host, "%s", p->host);
  s->port = p->port;
  /* libmosquitto takes 0 (none) or at least 5 s. */
  s->keepalive = p->keepalive_s && p->keepalive_s < 5 ? 5 : p->keepalive_s;
  s->client_id = strdup(p->client_id);
  s->username = dup_or_null(p->username);
  s->password = dup_or_null(p->password);
  atomic_store(&s->refs, 2); /* the core's side and the thread */
  struct mosquitto *mosq = mosquitto_new(s->client_id, true, s);
  int ok = mosq != NULL;
  if (ok) {
    mosquitto_int_option(mosq, MOSQ_OPT_PROTOCOL_VERSION, MQTT_PROTOCOL_V311);
    mosquitto_threaded_set(mosq, true); /* our own thread runs mosquitto_loop */
    mosquitto_connect_callback_set(mosq, on_connect);
    mosquitto_message_callback_set(mosq, on_message);
    if (s->username) mosquitto_username_pw_set(mosq, s->username, s->password);
    if (p->will_topic && *p->will_topic) {
      s->will_topic = strdup(p->will_topic);
      s->will_payload = malloc(p->will_payload_len ? p->will_payload_len : 1);
      if (s->will_payload && p->will_payload_len) memcpy(s->will_payload, p->will_payload, p->will_payload_len);
      s->will_len = p->will_payload_len;
      s->will_retain = p->will_retain;
      mosquitto_will_set(mosq, s->will_topic, (int)s->will_len, s->will_payload, 0, s->will_retain != 0);
    }
    s->mosq = mosq;
  }
  pthread_t thread;
  pthread_attr_t attr;
  pthread_attr_init(&attr);
  pthread_attr_setdetachstate(&attr, PTHREAD_CREATE_DETACHED);
  if (ok && pthread_create(&thread, &attr, run, s) != 0) {
    mosquitto_destroy(mosq);
    ok = 0;
  }
  pthread_attr_destroy(&attr);
  if (!ok) {
    tessera_logf(TESSERA_LOG_ERROR, "mqtt: cannot start a session");
    if (s->prev) release(s->prev);
    s->prev = NULL;
    push_event(s, TESSERA_MQTT_FAILED, TESSERA_MQTT_UNREACHABLE);
    atomic_store(&s->refs, 1);
    release(s);
    return;
  }
  current = s;
}

/* A publish is written into the outbox piece by piece as the core gives it (the ESP32 port's way:
 * tessera_mqtt_outbox.h), then handed to libmosquitto and given back at once. Core lock held. */
static uint8_t outbox_buf[TESSERA_MQTT_OUTBOX_CAP];
static tessera_outbox_t outbox = {.buf = outbox_buf, .cap = sizeof outbox_buf};

void port_mqtt_append(const uint8_t *piece, uint32_t len) { tessera_outbox_append(&outbox, piece, len); }

/* The core publishes only while it holds the session up; one that cannot go out is said (the session
 * dropped and its `lost` is on the way, libmosquitto refused it, or it is larger than the outbox). */
void port_mqtt_publish(const char *topic, const uint8_t *payload, uint32_t len, int retain) {
  tessera_outbox_entry_t e;
  if (tessera_outbox_end(&outbox, topic, payload, len, retain, 0) != 0) {
    if (topic) tessera_logf(TESSERA_LOG_WARN, "mqtt: dropped a publish on %s: larger than the outbox", topic);
    return;
  }
  tessera_outbox_peek(&outbox, &e);
  session_t *s = current;
  int rc = MOSQ_ERR_NO_CONN;
  if (s) {
    pthread_mutex_lock(&s->m);
    if (s->mosq && atomic_load(&s->up))
      rc = mosquitto_publish(s->mosq, NULL, e.topic, (int)e.len, e.payload, 0, e.retain);
    pthread_mutex_unlock(&s->m);
  }
  if (s && rc != MOSQ_ERR_SUCCESS)
    tessera_logf(TESSERA_LOG_WARN, "mqtt: dropped a publish on %s: %s", topic, mosquitto_strerror(rc));
  tessera_outbox_pop(&outbox);
}

void port_mqtt_subscribe(const char *topic) {
  session_t *s = current;
  if (!s || !atomic_load(&s->up)) return;
  pthread_mutex_lock(&s->m);
  if (s->mosq) mosquitto_subscribe(s->mosq, NULL, topic, 0);
  pthread_mutex_unlock(&s->m);
}

void port_mqtt_disconnect(void) { drop_current(); }

int posix_mqtt_pending(void) {
  pthread_mutex_lock(&queue_lock);
  int any = head != NULL;
  pthread_mutex_unlock(&queue_lock);
  return any;
}

int posix_mqtt_pump(void) {
  int delivered = 0;
  while (delivered < DELIVER_PER_PUMP) {
    pthread_mutex_lock(&queue_lock);
    item_t *it = head;
    if (it) {
      head = it->next;
      if (!head) tail = NULL;
      if (it->kind == 0) queued_messages--;
    }
    pthread_mutex_unlock(&queue_lock);
    if (!it) break;
    /* A superseded or disconnected session reports nothing more. */
    if (it->gen == atomic_load(&generation)) {
      if (it->kind == 0)
        tessera_mqtt_message((const char *)it->bytes, it->topic_len, it->bytes + it->topic_len, it->payload_len);
      else tessera_mqtt_event(it->kind, it->reason);
      delivered++;
    }
    free(it);
  }
  return delivered;
}

/* The host stops: the live session (or the one still leaving) gets its grace to flush. */
void posix_mqtt_shutdown(void) {
  session_t *s = current;
  /* A clean disconnect sends no last will: publish it first, as the desktop host does. */
  if (s && s->will_topic && atomic_load(&s->up)) {
    pthread_mutex_lock(&s->m);
    if (s->mosq) mosquitto_publish(s->mosq, NULL, s->will_topic, (int)s->will_len, s->will_payload, 0, s->will_retain);
    pthread_mutex_unlock(&s->m);
  }
  drop_current();
  s = leaving;
  leaving = NULL;
  if (!s) return;
  for (int waited = 0; waited < STOP_GRACE_MS + 200 && !atomic_load(&s->finished); waited += 10) {
    posix_unlock();
    sleep_ms(10);
    posix_lock();
  }
  release(s);
}
