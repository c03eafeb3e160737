/*
 * tessera_core_exports.h: the core's exports (the wasm functions a host calls), one table for every
 * place that names them: the runtime adapters look them up by name (runtime/wamr, runtime/wasm3) and a
 * self-update's image is checked against them (native/src/image.c). X(ID, name, signature): `name` is
 * the export's name in the image, the C and AssemblyScript function core_##name; ID names
 * the adapters' index (F_ID), the signature is WAMR's ("(ii)i": an 'i' per i32 parameter, then the
 * result's). tests/abi.test.ts compares the table with assembly/main.ts and build/controller.wasm.
 */
#ifndef TESSERA_CORE_EXPORTS_H
#define TESSERA_CORE_EXPORTS_H

#define TESSERA_CORE_EXPORTS(X)            \
  X(INIT, init, "(ii)")                    \
  X(TICK, tick, "()i")                     \
  X(RX_BUFFER, rx_buffer, "(i)i")          \
  X(HTTP_ALLOW, http_allow, "(iii)i")      \
  X(HTTP_BEGIN, http_begin, "(iiii)i")     \
  X(HTTP_DISPATCH, http_dispatch, "(i)")   \
  X(WS_OPEN, ws_open, "(i)i")              \
  X(WS_FRAME, ws_frame, "(ii)")            \
  X(WS_CLOSE, ws_close, "(i)")             \
  X(BUS_RECEIVE, bus_receive, "(i)")       \
  X(SERIAL_RECEIVE, serial_receive, "(i)") \
  X(MQTT_EVENT, mqtt_event, "(ii)")        \
  X(MQTT_MESSAGE, mqtt_message, "(ii)")    \
  X(MDNS_RESULT, mdns_result, "(ii)")      \
  X(MDNS_DONE, mdns_done, "()")            \
  X(DATAGRAM, datagram, "(iii)")

/* The adapters' index of each export: F_INIT ... F_MDNS_DONE, then F_COUNT. */
#define TESSERA_CORE_EXPORT_ID(id, name, signature) F_##id,
enum { TESSERA_CORE_EXPORTS(TESSERA_CORE_EXPORT_ID) F_COUNT };
#undef TESSERA_CORE_EXPORT_ID

#endif /* TESSERA_CORE_EXPORTS_H */
