/* sources: wasm_reader.c
 * test_ram_image.c: the classic interpreter's RAM image (native/runtime/wamr/ram_image.c, included below: it
 * lives with the WAMR adapter, not in native/src): the exact bytes for a small module, the data copied into
 * memory, the shapes it leaves whole, and the real build/controller.wasm (npm run build). */
#include <stdlib.h>

#include "../runtime/wamr/ram_image.c"
#include "check.h"
#include "read_file.h"

#define HEADER 0x00, 0x61, 0x73, 0x6d, 0x01, 0x00, 0x00, 0x00
/* type () -> (); function 0 of type 0; memory of 1 page; export "f"; start 0; data count 2; code; data
 * "abc" at 16 and "xy" at 65536; a custom section. */
#define TYPE 0x01, 0x04, 0x01, 0x60, 0x00, 0x00
#define FUNCTION 0x03, 0x02, 0x01, 0x00
#define MEMORY 0x05, 0x03, 0x01, 0x00, 0x01
#define EXPORT 0x07, 0x05, 0x01, 0x01, 'f', 0x00, 0x00
#define START 0x08, 0x01, 0x00
#define DATA_COUNT 0x0c, 0x01, 0x02
#define CODE 0x0a, 0x04, 0x01, 0x02, 0x00, 0x0b
#define DATA \
  0x0b, 0x12, 0x02, 0x00, 0x41, 0x10, 0x0b, 0x03, 'a', 'b', 'c', 0x00, 0x41, 0x80, 0x80, 0x04, 0x0b, 0x02, 'x', 'y'
#define CUSTOM 0x00, 0x03, 0x01, 'n', 0xff

static const uint8_t MODULE[] = {HEADER, TYPE, FUNCTION, MEMORY, EXPORT, START, DATA_COUNT, CODE, DATA, CUSTOM};

static void test_small_module(void) {
  static const uint8_t expected[] = {HEADER, TYPE, FUNCTION, MEMORY,
                                     /* the export section with the start function's export added */
                                     0x07, 0x15, 0x02, 0x01, 'f', 0x00, 0x00, 0x0d, 't', 'e', 's', 's', 'e', 'r', 'a',
                                     '.', 's', 't', 'a', 'r', 't', 0x00, 0x00, CODE};
  tessera_ram_image_t plan;
  uint32_t size = tessera_ram_image_plan(MODULE, sizeof MODULE, &plan);
  CHECK_EQ(size, sizeof expected);
  CHECK_EQ(plan.start, 0);
  CHECK_EQ(plan.data_len, 0x12);
  CHECK_EQ(plan.data_at, sizeof MODULE - sizeof(uint8_t[]){CUSTOM} - 0x12);
  uint8_t out[sizeof expected + 4];
  memset(out, 0xee, sizeof out);
  tessera_ram_image_write(MODULE, sizeof MODULE, &plan, out);
  CHECK(memcmp(out, expected, sizeof expected) == 0);
  CHECK(out[sizeof expected] == 0xee); /* not a byte more */

  static uint8_t memory[65538];
  memset(memory, 0, sizeof memory);
  CHECK_EQ(tessera_ram_image_init_memory(MODULE, &plan, memory, sizeof memory), 0);
  CHECK(memcmp(memory + 16, "abc", 3) == 0);
  CHECK(memcmp(memory + 65536, "xy", 2) == 0);
  CHECK(memory[15] == 0 && memory[19] == 0);
  /* a segment past the end of memory fails, as WAMR's own instantiation would */
  CHECK_EQ(tessera_ram_image_init_memory(MODULE, &plan, memory, 65537), -1);
}

static void test_left_whole(void) {
  tessera_ram_image_t plan;
  /* a passive segment (memory.init would need it) */
  static const uint8_t passive[] = {HEADER, TYPE, FUNCTION, MEMORY, EXPORT, CODE, 0x0b, 0x04, 0x01, 0x01, 0x01, 'z'};
  CHECK_EQ(tessera_ram_image_plan(passive, sizeof passive, &plan), 0);
  /* an offset that is not an i32.const (global.get 0) */
  static const uint8_t global[] = {HEADER, TYPE, FUNCTION, MEMORY, EXPORT, CODE, 0x0b,
                                   0x06,   0x01, 0x00,     0x23,   0x00,   0x0b, 0x00};
  CHECK_EQ(tessera_ram_image_plan(global, sizeof global, &plan), 0);
  /* a start function and no export section to name it in */
  static const uint8_t no_export[] = {HEADER, TYPE, FUNCTION, MEMORY, START, CODE};
  CHECK_EQ(tessera_ram_image_plan(no_export, sizeof no_export, &plan), 0);
  /* cut short, or not WebAssembly */
  CHECK_EQ(tessera_ram_image_plan(MODULE, sizeof MODULE - 1, &plan), 0);
  CHECK_EQ(tessera_ram_image_plan(MODULE, 7, &plan), 0);
  static const uint8_t not_wasm[] = {'n', 'o', 't', ' ', 'w', 'a', 's', 'm', 0x01};
  CHECK_EQ(tessera_ram_image_plan(not_wasm, sizeof not_wasm, &plan), 0);
  /* nothing to split is still a RAM image: no data, no start */
  static const uint8_t plain[] = {HEADER, TYPE, FUNCTION, EXPORT, CODE};
  CHECK_EQ(tessera_ram_image_plan(plain, sizeof plain, &plan), sizeof plain);
  CHECK_EQ(plan.start, -1);
  CHECK_EQ(tessera_ram_image_init_memory(plain, &plan, NULL, 0), 0);
}

/* The core: split, without a data, data count, start or custom section, written to the byte it planned. */
static void test_controller(void) {
  size_t file_len = 0;
  uint8_t *image = read_file("build/controller.wasm", &file_len);
  uint32_t len = (uint32_t)file_len;
  CHECK(image != NULL);
  if (!image) return;
  tessera_ram_image_t plan;
  uint32_t size = tessera_ram_image_plan(image, len, &plan);
  CHECK(size > 0 && size < len);
  CHECK(plan.start >= 0);
  CHECK(plan.data_len > 0);
  uint8_t *out = malloc(size + 16);
  memset(out, 0xee, size + 16);
  tessera_ram_image_write(image, len, &plan, out);
  for (int i = 0; i < 16; i++) CHECK(out[size + i] == 0xee);
  tessera_wasm_reader_t r, s;
  CHECK(tessera_wasm_module(&r, out, size));
  uint32_t id, last = 0;
  int sections = 0;
  while (tessera_wasm_section(&r, &id, &s)) {
    CHECK(id != SEC_CUSTOM && id != SEC_START && id != SEC_DATA && id != SEC_DATA_COUNT);
    CHECK(id > last || id == 0); /* still in the order WebAssembly requires (the data count was 12) */
    last = id;
    sections++;
  }
  CHECK(!r.bad && r.p == r.end);
  CHECK(sections >= 6);
  uint8_t *memory = calloc(2, 65536);
  CHECK_EQ(tessera_ram_image_init_memory(image, &plan, memory, 2 * 65536), 0);
  CHECK_EQ(tessera_ram_image_init_memory(image, &plan, memory, 16), -1);
  free(memory);
  free(out);
  free(image);
}

int main(void) {
  RUN(test_small_module);
  RUN(test_left_whole);
  RUN(test_controller);
  return check_summary("test_ram_image");
}
