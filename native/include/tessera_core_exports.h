/*
 * tessera_core_exports.h: the core's exports (the wasm functions a host calls), one table for every
 * place that names them: the runtime adapters look them up by name (runtime/wamr, runtime/wasm3) and a
 * self-update's image is checked against them (native/src/image.c). X(ID, name, signature): ID names
 * the adapters' index (F_ID), the signature is WAMR's ("(ii)i": an 'i' per i32 parameter, then the
 * result's). tests/abi.test.ts compares the table with assembly/main.ts and build/controller.wasm.
 */
#ifndef TESSERA_CORE_EXPORTS_H
#define TESSERA_CORE_EXPORTS_H

#define TESSERA_CORE_EXPORTS(X)                 \
  X(INIT, core_init, "(ii)")                    \
  X(TICK, core_tick, "()i")                     \
  X(RX_BUFFER, core_rx_buffer, "(i)i")          \
  X(HTTP_ALLOW, core_http_allow, "(iii)i")      \
  X(HTTP_BEGIN, core_http_begin, "(iiii)i")     \
  X(HTTP_DISPATCH, core_http_dispatch, "(i)")   \
  X(WS_OPEN, core_ws_open, "(i)i")              \
  X(WS_FRAME, core_ws_frame, "(ii)")            \
  X(WS_CLOSE, core_ws_close, "(i)")             \
  X(BUS_RECEIVE, core_bus_receive, "(i)")       \
  X(SERIAL_RECEIVE, core_serial_receive, "(i)") \
  X(MQTT_EVENT, core_mqtt_event, "(ii)")        \
  X(MQTT_MESSAGE, core_mqtt_message, "(ii)")    \
  X(MDNS_RESULT, core_mdns_result, "(ii)")      \
  X(MDNS_DONE, core_mdns_done, "()")

/* The adapters' index of each export: F_INIT ... F_MDNS_DONE, then F_COUNT. */
#define TESSERA_CORE_EXPORT_ID(id, name, signature) F_##id,
enum { TESSERA_CORE_EXPORTS(TESSERA_CORE_EXPORT_ID) F_COUNT };
#undef TESSERA_CORE_EXPORT_ID

#endif /* TESSERA_CORE_EXPORTS_H */
