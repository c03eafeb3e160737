/* ws_frame.c: WebSocket handshake, frame heads and text (RFC 6455); tessera_ws_frame.h. */
#include <ctype.h>
#include <stdio.h>
#include <string.h>

#include "tessera_sha1.h"
#include "tessera_ws_frame.h"

int tessera_ws_key_valid(const char *k) {
  if (strlen(k) != 24 || k[22] != '=' || k[23] != '=') return 0;
  for (int i = 0; i < 22; i++)
    if (!(isalnum((unsigned char)k[i]) || k[i] == '+' || k[i] == '/')) return 0;
  return 1;
}

static void base64(const uint8_t *in, size_t n, char *out) {
  static const char t[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
  size_t o = 0;
  for (size_t i = 0; i < n; i += 3) {
    uint32_t v = (uint32_t)in[i] << 16 | (i + 1 < n ? (uint32_t)in[i + 1] << 8 : 0) | (i + 2 < n ? in[i + 2] : 0);
    out[o++] = t[v >> 18 & 63];
    out[o++] = t[v >> 12 & 63];
    out[o++] = i + 1 < n ? t[v >> 6 & 63] : '=';
    out[o++] = i + 2 < n ? t[v & 63] : '=';
  }
  out[o] = 0;
}

void tessera_ws_accept(const char *key, char out[29]) {
  char src[64 + 36];
  uint8_t digest[20];
  int n = snprintf(src, sizeof src, "%s258EAFA5-E914-47DA-95CA-C5AB0DC85B11", key);
  if (n >= (int)sizeof src) n = (int)sizeof src - 1;
  tessera_sha1((const uint8_t *)src, (size_t)n, digest);
  base64(digest, 20, out);
}

size_t tessera_ws_read_head(const uint8_t *p, size_t n, tessera_ws_head_t *f) {
  if (n < 2) return 0;
  uint64_t len = p[1] & 0x7f;
  size_t hl = len == 126 ? 4 : len == 127 ? 10 : 2;
  if (n < hl + 4) return 0;
  if (len == 126) len = (uint64_t)p[2] << 8 | p[3];
  else if (len == 127) {
    len = 0;
    for (int i = 0; i < 8; i++) len = len << 8 | p[2 + i];
  }
  f->fin = (p[0] & 0x80) != 0;
  f->rsv = p[0] & 0x70;
  f->opcode = p[0] & 0x0f;
  f->masked = (p[1] & 0x80) != 0;
  f->len = len;
  memcpy(f->mask, p + hl, 4);
  f->head_len = hl + 4;
  return f->head_len;
}

uint16_t tessera_ws_check_head(const tessera_ws_head_t *f, int msg_op, size_t msg_len, size_t cap) {
  int op = f->opcode, control = op >= 8;
  int known = op == 0 || op == 1 || op == 2 || op == 8 || op == 9 || op == 10;
  if (f->rsv || !known || !f->masked || (f->len >> 63) || (control && (!f->fin || f->len > 125)) ||
      (op == 0 && !msg_op) || ((op == 1 || op == 2) && msg_op))
    return TESSERA_WS_CLOSE_PROTOCOL;
  if (!control && msg_len + f->len > cap) return TESSERA_WS_CLOSE_TOO_BIG;
  return 0;
}

uint16_t tessera_ws_close_answer(const uint8_t *payload, size_t len) {
  if (len == 0) return 1000;
  if (len == 1) return TESSERA_WS_CLOSE_PROTOCOL;
  uint16_t got = (uint16_t)(payload[0] << 8 | payload[1]);
  int valid = (got >= 1000 && got <= 1003) || (got >= 1007 && got <= 1011) || (got >= 3000 && got <= 4999);
  if (!valid) return TESSERA_WS_CLOSE_PROTOCOL;
  return tessera_utf8_valid(payload + 2, len - 2) ? got : TESSERA_WS_CLOSE_NOT_UTF8;
}

int tessera_utf8_valid(const uint8_t *s, size_t n) {
  size_t i = 0;
  while (i < n) {
    uint8_t b = s[i];
    size_t more = b < 0x80                 ? 0
                  : b >= 0xc2 && b <= 0xdf ? 1
                  : b >= 0xe0 && b <= 0xef ? 2
                  : b >= 0xf0 && b <= 0xf4 ? 3
                                           : 9;
    if (more == 9 || n - i <= more) return 0; /* not a lead byte, or cut short */
    uint8_t lo = 0x80, hi = 0xbf;             /* the second byte's range (RFC 3629 section 4) */
    if (b == 0xe0) lo = 0xa0;
    else if (b == 0xed) hi = 0x9f;
    else if (b == 0xf0) lo = 0x90;
    else if (b == 0xf4) hi = 0x8f;
    if (more && (s[i + 1] < lo || s[i + 1] > hi)) return 0;
    for (size_t k = 2; k <= more; k++)
      if ((s[i + k] & 0xc0) != 0x80) return 0;
    i += more + 1;
  }
  return 1;
}
