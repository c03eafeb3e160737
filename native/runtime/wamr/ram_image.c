/*
 * ram_image.c: the part of the core image that WAMR's classic interpreter needs in RAM (runtime.c).
 *
 * The classic interpreter rewrites opcodes in the buffer it loads and runs the code from there, so the code
 * has to be in writable RAM; the rest of the image does not. The RAM image keeps the sections up to and
 * including the code (types, imports, functions, table, memory, globals, exports, elements, code) and
 * leaves out:
 *  - the data section and its count: loaded, WAMR would keep a 40-byte descriptor per segment pointing into
 *    the buffer (AssemblyScript emits one segment per static string or array: 613 in a 100 KB image), and
 *    the segments' bytes would stay in RAM for good. Instead runtime.c copies each segment from the port's
 *    bytes (flash on a device) into linear memory once the instance exists (tessera_ram_image_init_memory);
 *  - the start section: the start function must see the data, so it is exported under
 *    TESSERA_RAM_IMAGE_START and runtime.c calls it after the copy, on the one exec env;
 *  - custom sections (names, source maps), which nothing reads.
 * Only images whose data segments are all active, in memory 0, at an i32.const offset are split (what
 * AssemblyScript emits); any other shape is loaded whole, as is an image that WAMR refuses once split
 * (memory.init or data.drop need the data count: runtime.c then falls back to the whole image).
 */
#include <string.h>

#include "tessera_wamr.h"
#include "tessera_wasm_reader.h"

enum { SEC_CUSTOM = 0, SEC_EXPORT = 7, SEC_START = 8, SEC_DATA = 11, SEC_DATA_COUNT = 12 };
enum { OP_I32_CONST = 0x41, OP_END = 0x0b, EXPORT_FUNC = 0 };

static uint32_t leb_size(uint32_t v) {
  uint32_t n = 1;
  while (v >= 0x80) v >>= 7, n++;
  return n;
}

static uint8_t *put_leb(uint8_t *out, uint32_t v) {
  do {
    uint8_t b = v & 0x7f;
    v >>= 7;
    *out++ = b | (v ? 0x80 : 0);
  } while (v);
  return out;
}

/* One active segment of memory 0 at a constant offset; r->bad for any other shape. */
static void segment(tessera_wasm_reader_t *r, uint32_t *offset, uint32_t *size) {
  if (tessera_wasm_u32(r) != 0 || tessera_wasm_byte(r) != OP_I32_CONST) r->bad = 1;
  *offset = (uint32_t)tessera_wasm_s32(r);
  if (tessera_wasm_byte(r) != OP_END) r->bad = 1;
  *size = tessera_wasm_u32(r);
  if (!r->bad && *size > (uint32_t)(r->end - r->p)) r->bad = 1;
  if (!r->bad) r->p += *size;
}

static uint32_t export_entry_size(int64_t start) {
  uint32_t name = (uint32_t)strlen(TESSERA_RAM_IMAGE_START);
  return leb_size(name) + name + 1 + leb_size((uint32_t)start);
}

uint32_t tessera_ram_image_plan(const uint8_t *bytes, uint32_t len, tessera_ram_image_t *plan) {
  memset(plan, 0, sizeof *plan);
  plan->start = -1;
  tessera_wasm_reader_t r, s;
  if (!tessera_wasm_module(&r, bytes, len)) return 0;
  uint32_t size = (uint32_t)(r.p - bytes), export_count = 0, export_rest = 0, id;
  int have_export = 0;
  while (tessera_wasm_section(&r, &id, &s)) {
    uint32_t n = (uint32_t)(s.end - s.p);
    switch (id) {
      case SEC_CUSTOM:
      case SEC_DATA_COUNT: break;
      case SEC_START:
        plan->start = tessera_wasm_u32(&s);
        if (s.bad) return 0;
        break;
      case SEC_DATA: {
        plan->data_at = (uint32_t)(s.p - bytes);
        plan->data_len = n;
        uint32_t count = tessera_wasm_u32(&s), offset, bytes_;
        for (uint32_t i = 0; i < count && !s.bad; i++) segment(&s, &offset, &bytes_);
        if (s.bad || s.p != s.end) return 0;
        break;
      }
      case SEC_EXPORT:
        export_count = tessera_wasm_u32(&s);
        if (s.bad) return 0;
        export_rest = (uint32_t)(s.end - s.p);
        have_export = 1;
        break;
      default: size += 1 + leb_size(n) + n;
    }
  }
  if (r.bad) return 0;
  if (plan->start >= 0 && !have_export) return 0; /* nowhere to name it: load whole */
  if (have_export) {
    uint32_t extra = plan->start >= 0;
    uint32_t payload = leb_size(export_count + extra) + export_rest + (extra ? export_entry_size(plan->start) : 0);
    size += 1 + leb_size(payload) + payload;
  }
  return size;
}

void tessera_ram_image_write(const uint8_t *bytes, uint32_t len, const tessera_ram_image_t *plan, uint8_t *out) {
  tessera_wasm_reader_t r, s;
  tessera_wasm_module(&r, bytes, len); /* planned: a module */
  memcpy(out, bytes, (size_t)(r.p - bytes));
  out += r.p - bytes;
  const uint8_t *at = r.p;
  uint32_t id;
  for (; tessera_wasm_section(&r, &id, &s); at = r.p) {
    if (id == SEC_EXPORT) {
      uint32_t count = tessera_wasm_u32(&s), rest = (uint32_t)(s.end - s.p), extra = plan->start >= 0;
      uint32_t payload = leb_size(count + extra) + rest + (extra ? export_entry_size(plan->start) : 0);
      *out++ = SEC_EXPORT;
      out = put_leb(out, payload);
      out = put_leb(out, count + extra);
      memcpy(out, s.p, rest);
      out += rest;
      if (extra) {
        uint32_t name = (uint32_t)strlen(TESSERA_RAM_IMAGE_START);
        out = put_leb(out, name);
        memcpy(out, TESSERA_RAM_IMAGE_START, name);
        out += name;
        *out++ = EXPORT_FUNC;
        out = put_leb(out, (uint32_t)plan->start);
      }
    } else if (id != SEC_CUSTOM && id != SEC_DATA_COUNT && id != SEC_START && id != SEC_DATA) {
      memcpy(out, at, (size_t)(r.p - at)); /* the section whole: id, size, payload */
      out += r.p - at;
    }
  }
}

int tessera_ram_image_init_memory(const uint8_t *bytes, const tessera_ram_image_t *plan, uint8_t *memory, size_t size) {
  if (!plan->data_len) return 0;
  tessera_wasm_reader_t r = {bytes + plan->data_at, bytes + plan->data_at + plan->data_len, 0};
  uint32_t count = tessera_wasm_u32(&r);
  for (uint32_t i = 0; i < count && !r.bad; i++) {
    uint32_t offset, n;
    segment(&r, &offset, &n);
    if (r.bad || (uint64_t)offset + n > size) return -1; /* as WAMR: a segment out of bounds fails the load */
    memcpy(memory + offset, r.p - n, n);
  }
  return r.bad ? -1 : 0;
}
