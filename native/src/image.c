/* image.c: a core image checked against the host ABI (tessera_image.h). */
#include "tessera_image.h"

#include <stdio.h>
#include <string.h>

#include "tessera_core_exports.h"
#include "tessera_host.h"
#include "tessera_host_imports.h"
#include "tessera_wasm_reader.h"

#define IMPORT_FN(name, result, arity) {#name, TESSERA_IMPORT_SIGNATURE(result, arity)},
const tessera_abi_fn_t tessera_abi_imports[] = {TESSERA_HOST_IMPORTS(IMPORT_FN){NULL, NULL}};
#undef IMPORT_FN

#define EXPORT_FN(id, name, signature) {#name, signature},
const tessera_abi_fn_t tessera_abi_exports[] = {TESSERA_CORE_EXPORTS(EXPORT_FN){NULL, NULL}};
#undef EXPORT_FN

#define MAX_TYPES 128
#define MAX_FUNCS 4096
#define SIG_CAP 24

static int is(const char *s, uint32_t n, const char *want) { return strlen(want) == n && memcmp(s, want, n) == 0; }

static int fail(char *why, size_t cap, const char *what, const char *s, uint32_t n) {
  snprintf(why, cap, "%s%.*s", what, (int)(n > 64 ? 64 : n), s ? s : "");
  return -1;
}

/* The ABI function named s[0..n), or NULL. */
static const tessera_abi_fn_t *find(const tessera_abi_fn_t *table, const char *s, uint32_t n) {
  for (; table->name; table++)
    if (is(s, n, table->name)) return table;
  return NULL;
}

int tessera_image_check(const uint8_t *image, size_t len, char *why, size_t cap) {
  tessera_wasm_reader_t r, s = {NULL, NULL, 0};
  if (!tessera_wasm_module(&r, image, len)) return fail(why, cap, "not a WebAssembly module", NULL, 0);
  static char types[MAX_TYPES][SIG_CAP];
  static uint16_t funcs[MAX_FUNCS]; /* type of each function, imported ones first */
  uint32_t type_count = 0, func_count = 0, memory_seen = 0, defined = 0, bodies = 0, data_count = 0, data = 0;
  int has_data_count = 0;
  uint64_t imports_seen = 0, exports_seen = 0; /* a bit per entry of the tables */
  uint32_t id;
  while (tessera_wasm_section(&r, &id, &s)) {
    if (id == 1) { /* types: 0x60, params, results; only i32 is in the ABI, anything else is 'x' */
      for (uint32_t n = tessera_wasm_u32(&s); n > 0 && !s.bad; n--) {
        if (type_count >= MAX_TYPES || tessera_wasm_byte(&s) != 0x60)
          return fail(why, cap, "unexpected type section", NULL, 0);
        char *sig = types[type_count++];
        size_t at = 0;
        sig[at++] = '(';
        for (int part = 0; part < 2 && !s.bad; part++) {
          for (uint32_t k = tessera_wasm_u32(&s); k > 0 && !s.bad; k--) {
            uint32_t t = tessera_wasm_byte(&s);
            if (at < SIG_CAP - 2) sig[at++] = t == 0x7f ? 'i' : 'x';
            else s.bad = 1;
          }
          if (part == 0 && at < SIG_CAP - 1) sig[at++] = ')';
        }
        sig[at] = 0;
      }
    } else if (id == 2) { /* imports: module, name, kind, description */
      for (uint32_t n = tessera_wasm_u32(&s); n > 0 && !s.bad; n--) {
        const char *module = NULL, *field = NULL;
        uint32_t module_len = tessera_wasm_name(&s, &module), field_len = tessera_wasm_name(&s, &field);
        uint32_t kind = tessera_wasm_byte(&s);
        if (s.bad) break;
        if (kind != 0 || !is(module, module_len, TESSERA_IMPORT_MODULE))
          return fail(why, cap, "import not in the host ABI: ", field, field_len);
        uint32_t t = tessera_wasm_u32(&s);
        const tessera_abi_fn_t *fn = find(tessera_abi_imports, field, field_len);
        if (!fn) return fail(why, cap, "import not in the host ABI: ", field, field_len);
        if (t >= type_count || strcmp(types[t], fn->signature) != 0)
          return fail(why, cap, "import with another signature: ", field, field_len);
        if (func_count >= MAX_FUNCS) return fail(why, cap, "too many functions", NULL, 0);
        funcs[func_count++] = (uint16_t)t;
        imports_seen |= 1ull << (fn - tessera_abi_imports);
      }
    } else if (id == 3) { /* functions: their types */
      for (uint32_t n = tessera_wasm_u32(&s); n > 0 && !s.bad; n--) {
        uint32_t t = tessera_wasm_u32(&s);
        if (func_count >= MAX_FUNCS || t >= type_count) return fail(why, cap, "unexpected function section", NULL, 0);
        funcs[func_count++] = (uint16_t)t;
        defined++;
      }
    } else if (id == 10) {
      bodies = tessera_wasm_u32(&s);
    } else if (id == 11) {
      data = tessera_wasm_u32(&s);
    } else if (id == 12) {
      data_count = tessera_wasm_u32(&s);
      has_data_count = 1;
    } else if (id == 7) { /* exports: name, kind, index */
      for (uint32_t n = tessera_wasm_u32(&s); n > 0 && !s.bad; n--) {
        const char *field = NULL;
        uint32_t field_len = tessera_wasm_name(&s, &field), kind = tessera_wasm_byte(&s), index = tessera_wasm_u32(&s);
        if (s.bad) break;
        if (kind == 2 && is(field, field_len, "memory")) {
          memory_seen = 1;
          continue;
        }
        const tessera_abi_fn_t *fn = kind == 0 ? find(tessera_abi_exports, field, field_len) : NULL;
        if (!fn) return fail(why, cap, "export not in the host ABI: ", field, field_len);
        if (index >= func_count || strcmp(types[funcs[index]], fn->signature) != 0)
          return fail(why, cap, "export with another signature: ", field, field_len);
        exports_seen |= 1ull << (fn - tessera_abi_exports);
      }
    }
    if (s.bad) break;
  }
  /* a module cut at a section's end: its code or data would be missing */
  if (r.bad || s.bad || bodies != defined || (has_data_count && data != data_count))
    return fail(why, cap, "a malformed or incomplete WebAssembly module", NULL, 0);
  for (const tessera_abi_fn_t *fn = tessera_abi_imports; fn->name; fn++)
    if (!(imports_seen >> (fn - tessera_abi_imports) & 1))
      return fail(why, cap, "import missing: ", fn->name, (uint32_t)strlen(fn->name));
  for (const tessera_abi_fn_t *fn = tessera_abi_exports; fn->name; fn++)
    if (!(exports_seen >> (fn - tessera_abi_exports) & 1))
      return fail(why, cap, "export missing: ", fn->name, (uint32_t)strlen(fn->name));
  if (!memory_seen) return fail(why, cap, "export missing: memory", NULL, 0);
  return 0;
}
