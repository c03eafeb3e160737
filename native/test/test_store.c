/* sources: store.c log.c
 * test_store.c: the file store both ports use (native/src/store.c): the chip id (six hex digits, kept),
 * atomic writes, reads at an offset, listing by prefix, deletion, a value written in pieces (append,
 * then an atomic rename over the old one) and the --store-limit test hook. */
#include <stdint.h>
#include <stdlib.h>
#include <unistd.h>

#include "check.h"
#include "tessera_host.h"
#include "tessera_port.h"
#include "tessera_store.h"

/* What store.c needs of a port. */
uint32_t port_random(void) { return 0xfedcba98u; }
void port_log(uint32_t level, const char *msg, uint32_t len) { printf("  log %u: %.*s\n", level, (int)len, msg); }

static char dir[64];

static void test_chip_id(void) {
  char chip[7], again[7];
  CHECK_EQ(tessera_chip_id(chip), 0);
  CHECK(strcmp(chip, "dcba98") == 0); /* the low 24 bits of port_random, as six lowercase hex digits */
  CHECK_EQ(tessera_chip_id(again), 0);
  CHECK(strcmp(again, chip) == 0);
  uint8_t text[16];
  CHECK_EQ(port_store_read("chipid", 0, text, sizeof text), 7);
  CHECK(memcmp(text, "dcba98\n", 7) == 0);
}

static void test_write_read_list_delete(void) {
  const char *doc = "{\"a\":1}";
  CHECK_EQ(port_store_write("appearance", (const uint8_t *)doc, 7), TESSERA_STORE_OK);
  CHECK_EQ(port_store_write("scenes/one", (const uint8_t *)"1", 1), TESSERA_STORE_OK);
  CHECK_EQ(port_store_write("scenes/two", (const uint8_t *)"22", 2), TESSERA_STORE_OK);
  uint8_t buf[64];
  CHECK_EQ(port_store_read("appearance", 2, buf, sizeof buf), 5);
  CHECK(memcmp(buf, "a\":1}", 5) == 0);
  CHECK_EQ(port_store_read("missing", 0, buf, sizeof buf), TESSERA_STORE_MISSING);
  int32_t n = port_store_list("scenes/", buf, sizeof buf);
  CHECK_EQ(n, 21);
  CHECK(memcmp(buf, "scenes/one\nscenes/two", 21) == 0);
  CHECK_EQ(port_store_list("", buf, 4), 39); /* "appearance\nchipid\nscenes/one\nscenes/two", even when cut */
  CHECK_EQ(port_store_delete("scenes/one"), TESSERA_STORE_OK);
  CHECK_EQ(port_store_delete("scenes/one"), TESSERA_STORE_MISSING);
}

static void test_append_rename_limit(void) {
  uint8_t buf[64];
  CHECK_EQ(port_store_write("firmware/panel.fw", (const uint8_t *)"old", 3), TESSERA_STORE_OK);
  CHECK_EQ(port_store_append("firmware/upload.part", (const uint8_t *)"new ", 4), TESSERA_STORE_OK);
  CHECK_EQ(port_store_append("firmware/upload.part", (const uint8_t *)"image", 5), TESSERA_STORE_OK);
  /* while it is staged the old value is whole */
  CHECK_EQ(port_store_read("firmware/panel.fw", 0, buf, sizeof buf), 3);
  CHECK_EQ(port_store_read("firmware/upload.part", 0, buf, sizeof buf), 9);
  CHECK_EQ(port_store_rename("firmware/upload.part", "firmware/panel.fw"), TESSERA_STORE_OK);
  CHECK_EQ(port_store_read("firmware/panel.fw", 0, buf, sizeof buf), 9);
  CHECK(memcmp(buf, "new image", 9) == 0);
  CHECK_EQ(port_store_read("firmware/upload.part", 0, buf, sizeof buf), TESSERA_STORE_MISSING);
  CHECK_EQ(port_store_rename("firmware/upload.part", "firmware/panel.fw"), TESSERA_STORE_MISSING);
  /* a full store: appends and writes fail with FULL, what is stored stays */
  tessera_store_limit(60);
  CHECK_EQ(port_store_append("firmware/upload.part", (const uint8_t *)"0123456789", 10), TESSERA_STORE_OK);
  CHECK_EQ(port_store_append("firmware/upload.part", buf, 64), TESSERA_STORE_FULL);
  CHECK_EQ(port_store_write("appearance", buf, 64), TESSERA_STORE_FULL);
  CHECK_EQ(port_store_read("appearance", 0, buf, sizeof buf), 7);
  tessera_store_limit(0);
  CHECK_EQ(port_store_delete("firmware/upload.part"), TESSERA_STORE_OK);
}

int main(void) {
  snprintf(dir, sizeof dir, "/tmp/tessera-store-test-%d/data", (int)getpid());
  CHECK_EQ(tessera_store_open(dir), 0);
  RUN(test_chip_id);
  RUN(test_write_read_list_delete);
  RUN(test_append_rename_limit);
  char cmd[128];
  snprintf(cmd, sizeof cmd, "rm -rf /tmp/tessera-store-test-%d", (int)getpid());
  CHECK_EQ(system(cmd), 0);
  return check_summary("test_store");
}
