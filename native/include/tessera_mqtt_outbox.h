/*
 * tessera_mqtt_outbox.h: the MQTT publishes waiting for a port's sender (native/src/mqtt_outbox.c), in
 * one buffer the port owns: the only place a payload is ever held whole in C. The core gives a payload
 * in pieces (host_mqtt_append: at most its 1 KiB output buffer each, then host_mqtt_publish with the
 * last piece and the topic); each piece is written straight into the publish's entry, which the topic
 * ends. No buffer is allocated for a payload, none is copied twice: the sender (the ESP32 port's worker, which
 * runs esp-mqtt's blocking publish) reads the payload in place, and esp-mqtt sends it through its own
 * fixed output buffer in fragments.
 *
 * Entries are contiguous (a sender reads a payload from one pointer) and taken in order. A publish
 * that does not fit what is free is dropped whole (MQTT QoS 0 may be; the caller logs it): the buffer
 * bounds what waits, however large a payload or a burst. The port holds one lock around every call;
 * the entry peeked stays in place, its bytes untouched, until it is popped, so the sender may read it
 * without the lock.
 */
#ifndef TESSERA_MQTT_OUTBOX_H
#define TESSERA_MQTT_OUTBOX_H

#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* The outbox every port gives its MQTT session: room for the largest publish the core makes, Home
 * Assistant's scene select with 100 scenes (about 12 KB with ASCII names, near 30 KB with names of
 * 3-byte characters cut to their 40-unit labels), and the rest of the burst at connect beside it. */
#define TESSERA_MQTT_OUTBOX_CAP (32 * 1024)

/* Bytes of bookkeeping per entry, on top of its payload, its topic and the topic's NUL (and up to 3
 * bytes rounding the entry to 4). */
#define TESSERA_OUTBOX_ENTRY 16

typedef struct {
  uint8_t *buf;
  uint32_t cap;
  uint32_t tail; /* the oldest entry */
  uint32_t head; /* where the entry being written starts, past the last whole one */
  uint32_t end;  /* where the entries stop once they wrapped to the start (0: they did not) */
  uint32_t open; /* bytes of the entry being written so far (its header included); 0: none */
  int dropping;  /* the entry being written did not fit: its rest and its end are dropped */
  uint32_t used; /* bytes held (whole entries and the one being written) */
  uint32_t peak; /* the most ever held */
} tessera_outbox_t;

typedef struct {
  const char *topic; /* NUL-terminated */
  const uint8_t *payload;
  uint32_t len, tag; /* tag: the caller's (the ESP32 port's session number) */
  int retain;
} tessera_outbox_entry_t;

void tessera_outbox_init(tessera_outbox_t *o, uint8_t *buf, uint32_t cap);

/* A piece of the publish being written (the first opens it). 0, or -1 when it does not fit: the whole
 * publish is dropped (its later pieces and its end are ignored, and the end says -1). */
int tessera_outbox_append(tessera_outbox_t *o, const uint8_t *bytes, uint32_t len);

/* Ends the publish being written with its last piece (bytes, len) and its topic: 0 when it waits in
 * the outbox, -1 when it was dropped. topic NULL drops it (the message was abandoned). */
int tessera_outbox_end(tessera_outbox_t *o, const char *topic, const uint8_t *bytes, uint32_t len, int retain,
                       uint32_t tag);

/* The oldest whole publish: 1 with it in *e, 0 when none waits. */
int tessera_outbox_peek(tessera_outbox_t *o, tessera_outbox_entry_t *e);

/* Frees the oldest whole publish (the one peeked). */
void tessera_outbox_pop(tessera_outbox_t *o);

#ifdef __cplusplus
}
#endif

#endif /* TESSERA_MQTT_OUTBOX_H */
