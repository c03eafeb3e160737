/*
 * tessera_ota.h: self-update over the network with the protocol of Arduino's espota.py, and the
 * running image's confirmation (native/src/ota.c). The protocol and the decisions are here; the port
 * supplies the socket, the flash and the digest (tessera_ota_io_t) and carries out the boot actions.
 *
 * The protocol (arduino-esp32 tools/espota.py and ArduinoOTA):
 *   1. the tool sends a UDP invitation "<command> <port> <size> <md5>\n" (command 0: an app image;
 *      others, such as 100 for a filesystem image, are refused) and waits for "OK" (or "ERR <reason>":
 *      not an app image, larger than the slot, an update already running, an unconfirmed image);
 *   2. the device connects back over TCP to the sender's <port> and receives <size> bytes; after each
 *      piece, the last too, it answers the number of bytes it took (decimal), as ArduinoOTA does (espota
 *      waits 10 s for each answer, then 60 s for the result), at the end "OK" once the image is
 *      written, its MD5 matches and it is set to boot, "ERR" otherwise;
 *   3. the device restarts into the new image.
 *
 * Confirmation: with app rollback (CONFIG_BOOTLOADER_APP_ROLLBACK_ENABLE) a new image boots "pending
 * verification"; it is marked valid once the core has started and answered its first HTTP request
 * (status below 500), and rolled back at once if the core cannot start or traps before that. While an
 * image is pending, invitations are refused (ESP-IDF refuses to update from an unconfirmed image).
 */
#ifndef TESSERA_OTA_H
#define TESSERA_OTA_H

#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#define TESSERA_OTA_APP 0 /* the invitation command for an app image */

typedef struct {
  int command;
  uint16_t port;
  uint32_t size;
  char md5[33]; /* 32 lowercase or uppercase hex digits */
} tessera_ota_invitation_t;

/* Parses an invitation datagram (len bytes, not NUL-terminated). 1 when it is one. */
int tessera_ota_parse(const char *text, uint32_t len, tessera_ota_invitation_t *out);

/* 1 when the invitation is accepted: an app image, while the running image is confirmed. */
int tessera_ota_accept(const tessera_ota_invitation_t *inv, int running_pending);

/* The receiving side of invitations, one update at a time. The port guards it with a lock of its own
 * when the invitations and the transfer run on different threads (they should: a second invitation
 * during a transfer is answered at once). */
typedef struct {
  uint32_t slot_size; /* the largest image the port takes */
  int busy;           /* an update is being received */
} tessera_ota_t;

/* A datagram on the self-update port: NULL when it is no invitation (ignore it); else the answer to
 * send back, "OK" (*inv holds the invitation, the state is busy: receive it, then tessera_ota_done)
 * or "ERR <reason>" (refused). running_pending: as tessera_ota_accept. */
const char *tessera_ota_invited(tessera_ota_t *ota, const char *text, uint32_t len, int running_pending,
                                tessera_ota_invitation_t *inv);
/* The update is over (whatever its outcome): invitations are taken again. */
void tessera_ota_done(tessera_ota_t *ota);

/* What receiving an image needs from the port. Every call returns at once or within its own bound. */
typedef struct {
  void *ctx;
  int (*recv)(void *ctx, uint8_t *buf, uint32_t cap);                  /* bytes (> 0); 0 closed; < 0 error or timeout */
  int (*send)(void *ctx, const char *text);                            /* 0, or -1 */
  int (*write)(void *ctx, const uint8_t *data, uint32_t len);          /* to the update slot: 0, or -1 */
  void (*digest_update)(void *ctx, const uint8_t *data, uint32_t len); /* MD5 */
  void (*digest_final)(void *ctx, uint8_t out[16]);
  int (*finish)(void *ctx); /* the image is complete and its MD5 matches: end it, set it to boot; 0 or -1 */
  /* Optional (NULL: none): the update is over, just before the final answer goes out (ok 1 when it
   * succeeded), so that the port takes the tool's next invitation even before this connection closes. */
  void (*over)(void *ctx, int ok);
} tessera_ota_io_t;

/* Receives inv->size bytes through io (pieces of at most cap bytes into buf), answering as the protocol
 * says. 0 when the image is written, checked and set to boot ("OK" sent); -1 otherwise ("ERR" sent if
 * the connection still works). A read that fails or times out ends it: never retried. */
int tessera_ota_receive(const tessera_ota_io_t *io, const tessera_ota_invitation_t *inv, uint8_t *buf, uint32_t cap);

/* The running image's confirmation. */
enum {
  TESSERA_BOOT_NOTHING = 0,
  TESSERA_BOOT_MARK_VALID = 1, /* confirm the running image (cancel the rollback) */
  TESSERA_BOOT_ROLL_BACK = 2,  /* mark it invalid and restart into the previous image */
};
typedef struct {
  int pending; /* the running image boots for the first time and is not confirmed yet */
} tessera_boot_t;

/* At boot: pending is 1 when the bootloader reports the running image pending verification. */
void tessera_boot_init(tessera_boot_t *b, int pending);
/* The core started (ok 1) or could not (ok 0). */
int tessera_boot_core_started(tessera_boot_t *b, int ok);
/* The core trapped and was restarted. */
int tessera_boot_core_trapped(tessera_boot_t *b);
/* An answer of the core to an HTTP request went out with this status. */
int tessera_boot_answered(tessera_boot_t *b, uint32_t status);

#ifdef __cplusplus
}
#endif

#endif /* TESSERA_OTA_H */
