/* ota.c: the espota protocol and the running image's confirmation (tessera_ota.h). */
#include "tessera_ota.h"

#include <stdio.h>
#include <string.h>

/* Reads a decimal number of at most 10 digits at text[*at]. */
static int number(const char *text, uint32_t len, uint32_t *at, uint64_t *out) {
  uint64_t v = 0;
  uint32_t start = *at;
  while (*at < len && text[*at] >= '0' && text[*at] <= '9' && *at - start < 10)
    v = v * 10 + (uint64_t)(text[(*at)++] - '0');
  if (*at == start) return 0;
  *out = v;
  return 1;
}

static void spaces(const char *text, uint32_t len, uint32_t *at) {
  while (*at < len && (text[*at] == ' ' || text[*at] == '\t')) (*at)++;
}

static int hex_digit(char c) { return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F'); }

int tessera_ota_parse(const char *text, uint32_t len, tessera_ota_invitation_t *out) {
  uint32_t at = 0;
  uint64_t command, port, size;
  spaces(text, len, &at);
  if (!number(text, len, &at, &command)) return 0;
  spaces(text, len, &at);
  if (!number(text, len, &at, &port)) return 0;
  spaces(text, len, &at);
  if (!number(text, len, &at, &size)) return 0;
  spaces(text, len, &at);
  if (len - at < 32) return 0;
  for (int i = 0; i < 32; i++)
    if (!hex_digit(text[at + (uint32_t)i])) return 0;
  memcpy(out->md5, text + at, 32);
  out->md5[32] = 0;
  at += 32;
  while (at < len && (text[at] == ' ' || text[at] == '\t' || text[at] == '\r' || text[at] == '\n' || !text[at])) at++;
  if (at != len || command > 1000 || port == 0 || port > 65535 || size == 0 || size > 0xffffffffu) return 0;
  out->command = (int)command;
  out->port = (uint16_t)port;
  out->size = (uint32_t)size;
  return 1;
}

int tessera_ota_accept(const tessera_ota_invitation_t *inv, int running_pending) {
  return inv->command == TESSERA_OTA_APP && !running_pending;
}

const char *tessera_ota_invited(tessera_ota_t *ota, const char *text, uint32_t len, int running_pending,
                                tessera_ota_invitation_t *inv) {
  if (!tessera_ota_parse(text, len, inv)) return NULL;
  if (ota->busy) return "ERR busy: an update is in progress";
  if (inv->command != TESSERA_OTA_APP) return "ERR not an app image";
  if (running_pending) return "ERR the running image is unconfirmed";
  if (inv->size > ota->slot_size) return "ERR too large for the slot";
  ota->busy = 1;
  return "OK";
}

void tessera_ota_done(tessera_ota_t *ota) { ota->busy = 0; }

static int lower(char c) { return c >= 'A' && c <= 'F' ? c - 'A' + 'a' : c; }

int tessera_ota_receive(const tessera_ota_io_t *io, const tessera_ota_invitation_t *inv, uint8_t *buf, uint32_t cap) {
  uint32_t got = 0;
  int ok = 1;
  while (ok && got < inv->size) {
    uint32_t want = inv->size - got < cap ? inv->size - got : cap;
    int n = io->recv(io->ctx, buf, want);
    if (n <= 0 || (uint32_t)n > want || io->write(io->ctx, buf, (uint32_t)n) != 0) {
      ok = 0;
      break;
    }
    io->digest_update(io->ctx, buf, (uint32_t)n);
    got += (uint32_t)n;
    char count[12]; /* the last piece too: the result may take longer than the tool waits for a piece */
    snprintf(count, sizeof count, "%d", n);
    if (io->send(io->ctx, count) != 0) ok = 0;
  }
  uint8_t digest[16];
  io->digest_final(io->ctx, digest);
  static const char hex[] = "0123456789abcdef";
  for (int i = 0; ok && i < 16; i++)
    if (lower(inv->md5[2 * i]) != hex[digest[i] >> 4] || lower(inv->md5[2 * i + 1]) != hex[digest[i] & 15]) ok = 0;
  if (ok) ok = io->finish(io->ctx) == 0;
  if (io->over) io->over(io->ctx, ok);
  io->send(io->ctx, ok ? "OK" : "ERR");
  return ok ? 0 : -1;
}

void tessera_boot_init(tessera_boot_t *b, int pending) { b->pending = pending != 0; }

int tessera_boot_core_started(tessera_boot_t *b, int ok) {
  return !ok && b->pending ? TESSERA_BOOT_ROLL_BACK : TESSERA_BOOT_NOTHING;
}

int tessera_boot_core_trapped(tessera_boot_t *b) { return b->pending ? TESSERA_BOOT_ROLL_BACK : TESSERA_BOOT_NOTHING; }

int tessera_boot_answered(tessera_boot_t *b, uint32_t status) {
  if (!b->pending || status >= 500) return TESSERA_BOOT_NOTHING;
  b->pending = 0;
  return TESSERA_BOOT_MARK_VALID;
}
