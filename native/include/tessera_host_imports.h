/*
 * tessera_host_imports.h: the core's imports (module "t", the functions of tessera_host.h the core
 * calls), one table for every place that names them: the runtime adapters bind each to its
 * implementation in native/src/abi.c (runtime/wasm2c, runtime/wamr, runtime/wasm3) and a self-update's
 * image is checked against them (native/src/image.c). X(name, result, arity): the result v (none) or
 * i (one i32), as wasm3 spells them, the parameters `arity` i32s; `name` is the import's name in the
 * image, the C function host_##name (docs/decisions.md, "The host ABI's names in the image are short"); a pointer is a plain offset into linear memory (abi.c
 * checks it). tests/abi.test.ts compares the table with assembly/host/imports.ts and
 * build/controller.wasm.
 */
#ifndef TESSERA_HOST_IMPORTS_H
#define TESSERA_HOST_IMPORTS_H

#define TESSERA_HOST_IMPORTS(X) \
  X(bus_send, v, 2)             \
  X(http_head, v, 3)            \
  X(http_body, v, 3)            \
  X(http_end, v, 1)             \
  X(http_read, i, 3)            \
  X(ws_send, v, 3)              \
  X(ws_broadcast, v, 2)         \
  X(ws_append, v, 2)            \
  X(store_read, i, 5)           \
  X(store_write, i, 4)          \
  X(store_delete, i, 2)         \
  X(store_list, i, 5)           \
  X(store_append, i, 4)         \
  X(store_rename, i, 4)         \
  X(serial_write, v, 2)         \
  X(clock_ms, i, 0)             \
  X(clock_us, i, 0)             \
  X(random, i, 0)               \
  X(log, v, 3)                  \
  X(panic, v, 2)                \
  X(mdns_hostname, i, 2)        \
  X(http_port, i, 0)            \
  X(mdns_advertise, v, 2)       \
  X(mdns_browse, v, 3)          \
  X(mqtt_connect, v, 2)         \
  X(mqtt_publish, v, 5)         \
  X(mqtt_append, v, 2)          \
  X(mqtt_subscribe, v, 2)       \
  X(mqtt_disconnect, v, 0)      \
  X(wifi_configure, v, 4)

/* The parts an adapter builds a binding from. TESSERA_IMPORT_PARAMS_n(T): ", T a0, ..." (after a
 * first parameter of its own); TESSERA_IMPORT_ARGS_n: "a0, ..."; TESSERA_IMPORT_SIG_n: "(ii...)", the
 * parameters as WAMR and wasm3 spell them; TESSERA_IMPORT_RESULT_v/i: the result as WAMR does ("" or
 * "i", after the parameters). */
#define TESSERA_IMPORT_PARAMS_0(T)
#define TESSERA_IMPORT_PARAMS_1(T) , T a0
#define TESSERA_IMPORT_PARAMS_2(T) TESSERA_IMPORT_PARAMS_1(T), T a1
#define TESSERA_IMPORT_PARAMS_3(T) TESSERA_IMPORT_PARAMS_2(T), T a2
#define TESSERA_IMPORT_PARAMS_4(T) TESSERA_IMPORT_PARAMS_3(T), T a3
#define TESSERA_IMPORT_PARAMS_5(T) TESSERA_IMPORT_PARAMS_4(T), T a4
#define TESSERA_IMPORT_ARGS_0
#define TESSERA_IMPORT_ARGS_1 a0
#define TESSERA_IMPORT_ARGS_2 a0, a1
#define TESSERA_IMPORT_ARGS_3 a0, a1, a2
#define TESSERA_IMPORT_ARGS_4 a0, a1, a2, a3
#define TESSERA_IMPORT_ARGS_5 a0, a1, a2, a3, a4
#define TESSERA_IMPORT_SIG_0 "()"
#define TESSERA_IMPORT_SIG_1 "(i)"
#define TESSERA_IMPORT_SIG_2 "(ii)"
#define TESSERA_IMPORT_SIG_3 "(iii)"
#define TESSERA_IMPORT_SIG_4 "(iiii)"
#define TESSERA_IMPORT_SIG_5 "(iiiii)"
#define TESSERA_IMPORT_RESULT_v ""
#define TESSERA_IMPORT_RESULT_i "i"
/* WAMR's signature of an import: "(ii)i". */
#define TESSERA_IMPORT_SIGNATURE(result, arity) TESSERA_IMPORT_SIG_##arity TESSERA_IMPORT_RESULT_##result

#endif /* TESSERA_HOST_IMPORTS_H */
