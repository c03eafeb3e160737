/* sources: image.c md5.c wasm_reader.c
 * test_image.c: MD5 against RFC 1321's test suite, the build identifier, and the check of a core
 * image against the host ABI on the real build/controller.wasm (npm run build) and on broken copies. */
#include <stdio.h>
#include <stdlib.h>

#include "check.h"
#include "read_file.h"
#include "tessera_image.h"
#include "tessera_md5.h"

static void hex(const uint8_t *d, char out[33]) {
  for (int i = 0; i < 16; i++) snprintf(out + 2 * i, 3, "%02x", d[i]);
}

static void test_md5(void) {
  static const char *const cases[][2] = {
      {"", "d41d8cd98f00b204e9800998ecf8427e"},
      {"a", "0cc175b9c0f1b6a831c399e269772661"},
      {"abc", "900150983cd24fb0d6963f7d28e17f72"},
      {"message digest", "f96b697d7cb7938d525a2f31aaf161d0"},
      {"abcdefghijklmnopqrstuvwxyz", "c3fcd3d76192e4007dfb496cca67e13b"},
      {"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789", "d174ab98d277d9f5a5611c2c9f419d9f"},
      {"12345678901234567890123456789012345678901234567890123456789012345678901234567890",
       "57edf4a22be3c955ac49da2e2107b67a"},
  };
  for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
    for (size_t step = 1; step <= 64; step *= 4) { /* fed in pieces of 1, 4, 16 and 64 bytes */
      tessera_md5_t m;
      uint8_t d[16];
      char out[33];
      tessera_md5_init(&m);
      size_t n = strlen(cases[i][0]);
      for (size_t at = 0; at < n; at += step)
        tessera_md5_update(&m, (const uint8_t *)cases[i][0] + at, n - at < step ? n - at : step);
      tessera_md5_final(&m, d);
      hex(d, out);
      CHECK(strcmp(out, cases[i][1]) == 0);
    }
  }
  CHECK_EQ(tessera_build_id((const uint8_t *)"abc", 3), 0x90015098u);
}

/* The offset of `name` in the image (the first occurrence), or -1. */
static long find(const uint8_t *b, size_t len, const char *name) {
  size_t n = strlen(name);
  for (size_t i = 0; i + n <= len; i++)
    if (memcmp(b + i, name, n) == 0) return (long)i;
  return -1;
}

static void test_the_core_image(void) {
  size_t len = 0;
  uint8_t *image = read_file("build/controller.wasm", &len);
  CHECK(image != NULL);
  if (!image) return;
  char why[128] = "";
  CHECK_EQ(tessera_image_check(image, len, why, sizeof why), 0);
  size_t dlen = 0;
  uint8_t *debug = read_file("build/controller.debug.wasm", &dlen);
  CHECK(debug && tessera_image_check(debug, dlen, why, sizeof why) == 0);
  free(debug);
  /* the panel firmware is WebAssembly, but not a core */
  uint8_t *panel = read_file("build/panel.wasm", &dlen);
  CHECK(panel && tessera_image_check(panel, dlen, why, sizeof why) == -1);
  free(panel);
  /* an import renamed (same length): not in the ABI. Names in the image are short (host_random is
   * "random", core_tick "tick"): found with their length byte. */
  uint8_t *copy = malloc(len);
  memcpy(copy, image, len);
  long at = find(copy, len, "\x06random");
  CHECK(at > 0);
  copy[at + 1] = 'R';
  CHECK_EQ(tessera_image_check(copy, len, why, sizeof why), -1);
  CHECK(strstr(why, "Random") != NULL);
  /* an export renamed: tick missing */
  memcpy(copy, image, len);
  at = find(copy, len, "\x04tick");
  CHECK(at > 0);
  copy[at + 1] = 'T';
  CHECK_EQ(tessera_image_check(copy, len, why, sizeof why), -1);
  /* cut anywhere, or not WebAssembly at all: refused, never read past the end (ASan) */
  for (size_t cut = 0; cut < len; cut += len / 97 + 1) {
    uint8_t *part = malloc(cut ? cut : 1);
    memcpy(part, image, cut);
    CHECK_EQ(tessera_image_check(part, cut, why, sizeof why), -1);
    free(part);
  }
  CHECK_EQ(tessera_image_check((const uint8_t *)"not wasm at all", 15, why, sizeof why), -1);
  free(copy);
  free(image);
}

int main(void) {
  RUN(test_md5);
  RUN(test_the_core_image);
  return check_summary("test_image");
}
