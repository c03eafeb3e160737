/*
 * tessera_image.h: what a host checks of a core image received by self-update before it keeps or runs
 * it (native/src/image.c): a WebAssembly module whose imports and exports are exactly the host ABI's
 * (tessera_host.h), signature for signature. The import table (image.c) and the export table
 * (tessera_core_exports.h, which the runtime adapters use too) are the C side's declaration of the ABI;
 * tests/abi.test.ts compares them with the others and with build/controller.wasm.
 */
#ifndef TESSERA_IMAGE_H
#define TESSERA_IMAGE_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* One function of the ABI: its name and signature as WAMR writes them, "(ii)i": an 'i' per i32 parameter,
 * then the result's, if any. */
typedef struct {
  const char *name;
  const char *signature;
} tessera_abi_fn_t;

extern const tessera_abi_fn_t tessera_abi_imports[]; /* module "t"; ends with {NULL, NULL} */
extern const tessera_abi_fn_t tessera_abi_exports[]; /* and the memory "memory"; ends with {NULL, NULL} */

/* 0 when image[0..len) is a well-formed module with exactly the ABI's imports and exports; -1 otherwise,
 * with the reason in why (cap bytes). Reads only the module's header, type, import, function and export
 * sections: it does not validate code (WAMR's loader does, before running it). */
int tessera_image_check(const uint8_t *image, size_t len, char *why, size_t cap);

#ifdef __cplusplus
}
#endif

#endif /* TESSERA_IMAGE_H */
