/*
 * mqtt.c: the ESP32 port's MQTT session (ESP-IDF's mqtt component, esp-mqtt), large variant only.
 *
 * Three parties, none of which ever waits for another in a cycle:
 *  - the core thread calls port_mqtt_*: each request is copied into a command for the worker
 *    (a queue, never blocking); a full queue drops it (a connect is then reported failed). A publish
 *    is written piece by piece into the outbox (tessera_mqtt_outbox.h: one static buffer, the only
 *    place a payload is held whole), and its command only wakes the worker;
 *  - the worker task runs the commands against esp-mqtt, whose calls block (stop waits for the client
 *    task; connect, publish and subscribe take the client's lock, held during a TCP connect). It
 *    publishes each waiting payload in place: a QoS 0 esp_mqtt_client_publish sends it at once, in
 *    fragments through esp-mqtt's own output buffer (CONFIG_MQTT_BUFFER_SIZE), and keeps no copy;
 *  - esp-mqtt's client task runs on_event: it only copies what happened and posts it to the core
 *    thread (esp32_post_to_core, never blocking), since the core thread may be waiting for that task's lock.
 * Every connect opens a new session number; events of older sessions (a client being torn down) are
 * dropped on the core thread, so after a disconnect nothing more of that session is reported.
 * esp-mqtt never reconnects on its own (network.disable_auto_reconnect): the core owns the backoff.
 * The small variant has no MQTT client: a connect is answered "unavailable", as on the POSIX port.
 */
#include <stdlib.h>
#include <string.h>

#include "freertos/FreeRTOS.h"
#include "freertos/queue.h"
#include "freertos/semphr.h"
#include "freertos/task.h"
#include "sdkconfig.h"
#include "tessera_driver.h"
#include "tessera_esp32.h"
#include "tessera_host.h"
#include "tessera_mqtt_outbox.h"
#include "tessera_port.h"

/* The current session, read and written on the core thread only. */
static uint32_t session;

typedef struct {
  uint32_t session, kind, reason;
} event_t;

static void deliver_event(void *arg) {
  event_t *e = arg;
  if (e->session == session) tessera_mqtt_event(e->kind, e->reason);
  free(e);
}

/* From any task: report a session event to the core thread. */
static void post_event(uint32_t id, uint32_t kind, uint32_t reason) {
  event_t *e = malloc(sizeof *e);
  if (e) *e = (event_t){id, kind, reason};
  if (!e || esp32_post_to_core(deliver_event, e) != 0) {
    free(e);
    tessera_logf(TESSERA_LOG_ERROR, "mqtt: event %u lost (core queue full)", (unsigned)kind);
  }
}

#if CONFIG_TESSERA_MQTT
#include "mqtt_client.h"

#define COMMANDS 32
#define MESSAGE_CAP 1024       /* topic + payload: the core's receive buffer; larger messages are dropped */
#define RECONNECT_POLL_MS 1000 /* how soon a stopped client notices it (auto-reconnect is off) */

enum { CMD_CONNECT, CMD_PUBLISH, CMD_SUBSCRIBE, CMD_DISCONNECT };

/* A request for the worker: strings and bytes copied into data. */
typedef struct {
  int kind, retain;
  uint32_t session;
  uint16_t port, keepalive_s;
  const char *s[5];     /* connect: host, client id, user name, password, will topic; else s[0] topic */
  const uint8_t *bytes; /* publish payload or will payload (NUL-terminated copy) */
  uint32_t len;
  char data[];
} command_t;

/* One message on its way to the core: topic then payload in bytes. */
typedef struct {
  uint32_t session, topic_len, len, got;
  uint8_t bytes[];
} message_t;

/* What on_event knows of its client (one per connect; freed by the worker after the client). */
typedef struct {
  uint32_t id, reason;
  int connected, ended;
  message_t *partial; /* a message arriving in pieces */
} client_state_t;

static QueueHandle_t commands;
/* The publishes waiting for the worker (TESSERA_MQTT_OUTBOX_CAP bytes: past it a publish is dropped,
 * as QoS 0 may be), tagged with their session; outbox_lock guards the bookkeeping, never a send. */
static uint8_t outbox_buf[TESSERA_MQTT_OUTBOX_CAP];
static tessera_outbox_t outbox = {.buf = outbox_buf, .cap = sizeof outbox_buf};
static SemaphoreHandle_t outbox_lock;
static esp_mqtt_client_handle_t client; /* worker task only */
static client_state_t *state;           /* worker task only (and on_event through its argument) */

/* ---- esp-mqtt's task ---------------------------------------------------------------------------- */

static void deliver_message(void *arg) {
  message_t *m = arg;
  if (m->session == session)
    tessera_mqtt_message((const char *)m->bytes, m->topic_len, m->bytes + m->topic_len, m->len);
  free(m);
}

/* esp-mqtt hands a payload longer than its buffer over in several MQTT_EVENT_DATA events; only the
 * first has the topic. Reassembled up to MESSAGE_CAP; anything larger is dropped whole. */
static void take_data(client_state_t *s, const esp_mqtt_event_t *e) {
  if (e->current_data_offset == 0) {
    free(s->partial);
    s->partial = NULL;
    if (e->topic_len <= 0 || e->total_data_len < 0 || e->topic_len + e->total_data_len > MESSAGE_CAP) {
      tessera_logf(TESSERA_LOG_WARN, "mqtt: message of %d bytes dropped (at most %d)", e->total_data_len, MESSAGE_CAP);
      return;
    }
    s->partial = malloc(sizeof(message_t) + (size_t)(e->topic_len + e->total_data_len));
    if (!s->partial) return;
    *s->partial = (message_t){s->id, (uint32_t)e->topic_len, (uint32_t)e->total_data_len, 0};
    memcpy(s->partial->bytes, e->topic, (size_t)e->topic_len);
  }
  message_t *m = s->partial;
  if (!m) return; /* the rest of a dropped message */
  if (e->data_len < 0 || (uint32_t)e->current_data_offset != m->got || m->got + (uint32_t)e->data_len > m->len) {
    free(m);
    s->partial = NULL;
    return;
  }
  if (e->data_len) memcpy(m->bytes + m->topic_len + m->got, e->data, (size_t)e->data_len);
  m->got += (uint32_t)e->data_len;
  if (m->got < m->len) return;
  s->partial = NULL;
  if (esp32_post_to_core(deliver_message, m) != 0) {
    free(m);
    tessera_logf(TESSERA_LOG_WARN, "mqtt: message dropped (core queue full)");
  }
}

/* MQTT_EVENT_ERROR before the session is up: why the connect is about to fail. */
static uint32_t failure_reason(const esp_mqtt_error_codes_t *err) {
  if (!err || err->error_type != MQTT_ERROR_TYPE_CONNECTION_REFUSED) return TESSERA_MQTT_UNREACHABLE;
  return err->connect_return_code == MQTT_CONNECTION_REFUSE_BAD_USERNAME ||
                 err->connect_return_code == MQTT_CONNECTION_REFUSE_NOT_AUTHORIZED
             ? TESSERA_MQTT_AUTH
             : TESSERA_MQTT_REFUSED;
}

static void on_event(void *arg, esp_event_base_t base, int32_t id, void *data) {
  (void)base;
  client_state_t *s = arg;
  esp_mqtt_event_handle_t e = data;
  if (s->ended) return;
  switch (id) {
    case MQTT_EVENT_CONNECTED:
      s->connected = 1;
      post_event(s->id, TESSERA_MQTT_CONNECTED, 0);
      break;
    case MQTT_EVENT_ERROR: /* a refused or failed connect: the DISCONNECTED that follows reports it */
      if (!s->connected) s->reason = failure_reason(e->error_handle);
      break;
    case MQTT_EVENT_DISCONNECTED: /* the end of this session either way: no reconnect follows */
      s->ended = 1;
      post_event(s->id, s->connected ? TESSERA_MQTT_LOST : TESSERA_MQTT_FAILED, s->connected ? 0 : s->reason);
      break;
    case MQTT_EVENT_DATA: take_data(s, e); break;
    default: break;
  }
}

/* ---- The worker task ---------------------------------------------------------------------------- */

/* Stops (a clean DISCONNECT when connected: no last will) and frees the current client. */
static void drop_client(void) {
  if (client) esp_mqtt_client_destroy(client);
  client = NULL;
  if (state) free(state->partial);
  free(state);
  state = NULL;
}

static void open_client(const command_t *c) {
  esp_mqtt_client_config_t cfg;
  memset(&cfg, 0, sizeof cfg);
  cfg.broker.address.hostname = c->s[0]; /* esp-mqtt copies every string */
  cfg.broker.address.port = c->port;
  cfg.broker.address.transport = MQTT_TRANSPORT_OVER_TCP;
  cfg.credentials.client_id = c->s[1];
  cfg.credentials.username = c->s[2][0] ? c->s[2] : NULL;
  cfg.credentials.authentication.password = c->s[3][0] ? c->s[3] : NULL;
  if (c->s[4][0]) {
    cfg.session.last_will.topic = c->s[4];
    cfg.session.last_will.msg = (const char *)c->bytes;
    cfg.session.last_will.msg_len = (int)c->len;
    cfg.session.last_will.qos = 0;
    cfg.session.last_will.retain = c->retain;
  }
  cfg.session.keepalive = c->keepalive_s;
  cfg.network.disable_auto_reconnect = true; /* the core decides when to try again */
  cfg.network.reconnect_timeout_ms = RECONNECT_POLL_MS;
  state = calloc(1, sizeof *state);
  if (state) state->id = c->session;
  client = state ? esp_mqtt_client_init(&cfg) : NULL;
  if (client && esp_mqtt_client_register_event(client, MQTT_EVENT_ANY, on_event, state) == ESP_OK &&
      esp_mqtt_client_start(client) == ESP_OK)
    return;
  tessera_logf(TESSERA_LOG_ERROR, "mqtt: cannot start a client for %s:%u", c->s[0], c->port);
  drop_client();
  post_event(c->session, TESSERA_MQTT_FAILED, TESSERA_MQTT_UNREACHABLE);
}

/* Publishes what waits in the outbox, oldest first, each read in place (a payload of an older session
 * is dropped). */
static void publish_waiting(void) {
  for (;;) {
    tessera_outbox_entry_t e;
    xSemaphoreTake(outbox_lock, portMAX_DELAY);
    int any = tessera_outbox_peek(&outbox, &e);
    xSemaphoreGive(outbox_lock);
    if (!any) return;
    if (client && state && state->id == e.tag) /* QoS 0: esp-mqtt refuses it (-1) while not connected */
      esp_mqtt_client_publish(client, e.topic, e.len ? (const char *)e.payload : NULL, (int)e.len, 0, e.retain);
    xSemaphoreTake(outbox_lock, portMAX_DELAY);
    tessera_outbox_pop(&outbox);
    xSemaphoreGive(outbox_lock);
  }
}

static void run_command(command_t *c) {
  int current = client && state && state->id == c->session;
  switch (c->kind) {
    case CMD_CONNECT:
      drop_client();
      open_client(c);
      break;
    case CMD_DISCONNECT: drop_client(); break;
    case CMD_PUBLISH: publish_waiting(); break; /* every one waiting: a wake-up lost to a full queue is no loss */
    case CMD_SUBSCRIBE:
      if (current) esp_mqtt_client_subscribe_single(client, c->s[0], 0);
      break;
  }
  free(c);
}

static void worker(void *arg) {
  (void)arg;
  for (;;) {
    command_t *c;
    if (xQueueReceive(commands, &c, portMAX_DELAY) == pdTRUE) run_command(c);
  }
}

/* ---- The core thread ---------------------------------------------------------------------------- */

static command_t *command_new(int kind, const char *const *strings, int count, const uint8_t *bytes, uint32_t len) {
  size_t size = sizeof(command_t) + len + 1;
  for (int i = 0; i < count; i++) size += strlen(strings[i]) + 1;
  command_t *c = calloc(1, size);
  if (!c) return NULL;
  char *p = c->data;
  for (int i = 0; i < count; i++) {
    size_t n = strlen(strings[i]) + 1;
    c->s[i] = memcpy(p, strings[i], n);
    p += n;
  }
  if (len) memcpy(p, bytes, len);
  p[len] = 0;
  c->bytes = (const uint8_t *)p;
  c->len = len;
  c->kind = kind;
  c->session = session;
  return c;
}

/* Hands c to the worker without waiting. 0, or -1 (c freed) when it could not. */
static int send_command(command_t *c) {
  if (c && commands && xQueueSend(commands, &c, 0) == pdTRUE) return 0;
  free(c);
  tessera_logf(TESSERA_LOG_WARN, "mqtt: request dropped (worker queue full)");
  return -1;
}

void port_mqtt_connect(const tessera_mqtt_connect_t *p) {
  session++;
  const char *strings[5] = {p->host, p->client_id, p->username, p->password, p->will_topic};
  command_t *c = command_new(CMD_CONNECT, strings, 5, p->will_payload, p->will_payload_len);
  if (c) {
    c->port = p->port;
    c->keepalive_s = p->keepalive_s;
    c->retain = p->will_retain != 0;
  }
  if (send_command(c) != 0) post_event(session, TESSERA_MQTT_FAILED, TESSERA_MQTT_UNREACHABLE);
}

void port_mqtt_append(const uint8_t *piece, uint32_t len) {
  if (!outbox_lock) return;
  xSemaphoreTake(outbox_lock, portMAX_DELAY);
  tessera_outbox_append(&outbox, piece, len);
  xSemaphoreGive(outbox_lock);
}

void port_mqtt_publish(const char *topic, const uint8_t *payload, uint32_t len, int retain) {
  if (!outbox_lock) return;
  xSemaphoreTake(outbox_lock, portMAX_DELAY);
  uint32_t waiting = outbox.used;
  int r = tessera_outbox_end(&outbox, topic, payload, len, retain, session);
  xSemaphoreGive(outbox_lock);
  if (r == 0) send_command(command_new(CMD_PUBLISH, NULL, 0, NULL, 0));
  else if (topic)
    tessera_logf(TESSERA_LOG_WARN, "mqtt: publish to %s dropped (%u bytes already wait for the worker)", topic,
                 (unsigned)waiting);
}

void port_mqtt_subscribe(const char *topic) { send_command(command_new(CMD_SUBSCRIBE, &topic, 1, NULL, 0)); }

void port_mqtt_disconnect(void) {
  session++; /* nothing more of the old session reaches the core */
  send_command(command_new(CMD_DISCONNECT, NULL, 0, NULL, 0));
}

int esp32_mqtt_start(void) {
  commands = xQueueCreate(COMMANDS, sizeof(command_t *));
  outbox_lock = xSemaphoreCreateMutex();
  return commands && outbox_lock && xTaskCreate(worker, "tessera_mqtt", 4096, NULL, 5, NULL) == pdPASS ? 0 : -1;
}

#else /* the small variant: no MQTT client */

void port_mqtt_connect(const tessera_mqtt_connect_t *p) {
  tessera_logf(TESSERA_LOG_INFO, "mqtt: no MQTT client on this variant (%s:%u)", p->host, p->port);
  post_event(++session, TESSERA_MQTT_FAILED, TESSERA_MQTT_UNAVAILABLE);
}

void port_mqtt_append(const uint8_t *piece, uint32_t len) { (void)piece, (void)len; }

void port_mqtt_publish(const char *topic, const uint8_t *payload, uint32_t len, int retain) {
  (void)topic, (void)payload, (void)len, (void)retain;
}

void port_mqtt_subscribe(const char *topic) { (void)topic; }
void port_mqtt_disconnect(void) { session++; }
int esp32_mqtt_start(void) { return 0; }

#endif
