/* sources: sha1.c
 * test_sha1.c: SHA-1 against RFC 3174's test cases (and lengths around its 64-byte blocks), and the
 * value RFC 6455 gives for its sample WebSocket key. */
#include <stdio.h>
#include <stdlib.h>

#include "check.h"
#include "tessera_sha1.h"

static void hex(const uint8_t *d, char out[41]) {
  for (int i = 0; i < 20; i++) snprintf(out + 2 * i, 3, "%02x", d[i]);
}

static void test_rfc3174(void) {
  static const char *const cases[][2] = {
      {"abc", "a9993e364706816aba3e25717850c26c9cd0d89d"},
      {"abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq", "84983e441c3bd26ebaae4aa1f95129e5e54670f1"},
      {"", "da39a3ee5e6b4b0d3255bfef95601890afd80709"},
      {"The quick brown fox jumps over the lazy dog", "2fd4e1c67a2d28fced849ee1bb76e7391b93eb12"},
  };
  for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
    uint8_t d[20];
    char h[41];
    tessera_sha1((const uint8_t *)cases[i][0], strlen(cases[i][0]), d);
    hex(d, h);
    CHECK(strcmp(h, cases[i][1]) == 0);
  }
  /* a million 'a': RFC 3174's third case */
  uint8_t *m = malloc(1000000);
  memset(m, 'a', 1000000);
  uint8_t d[20];
  char h[41];
  tessera_sha1(m, 1000000, d);
  hex(d, h);
  CHECK(strcmp(h, "34aa973cd4c4daa4f61eeb2bdbad27316534016f") == 0);
  free(m);
}

static void test_block_edges(void) {
  /* 55, 56 and 64 bytes: the length fits in the last block, just does not, and a whole block */
  static const char *const want[] = {"c1c8bbdc22796e28c0e15163d20899b65621d65a",
                                     "c2db330f6083854c99d4b5bfb6e8f29f201be699",
                                     "0098ba824b5c16427bd7a1122a5a442a25ec644d"};
  static const size_t lengths[] = {55, 56, 64};
  for (int i = 0; i < 3; i++) {
    uint8_t in[64], d[20];
    char h[41];
    memset(in, 'a', sizeof in);
    tessera_sha1(in, lengths[i], d);
    hex(d, h);
    CHECK(strcmp(h, want[i]) == 0);
  }
}

static void test_websocket_sample(void) {
  /* RFC 6455 1.3: the key "dGhlIHNhbXBsZSBub25jZQ==" and the GUID give b37a4f2c...ea (base64 s3pPLMBi...) */
  const char *src = "dGhlIHNhbXBsZSBub25jZQ==258EAFA5-E914-47DA-95CA-C5AB0DC85B11";
  uint8_t d[20];
  char h[41];
  tessera_sha1((const uint8_t *)src, strlen(src), d);
  hex(d, h);
  CHECK(strcmp(h, "b37a4f2cc0624f1690f64606cf385945b2bec4ea") == 0);
}

int main(void) {
  RUN(test_rfc3174);
  RUN(test_block_edges);
  RUN(test_websocket_sample);
  return check_summary("test_sha1");
}
