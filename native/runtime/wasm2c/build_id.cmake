# Writes the build identifier of a core image for the wasm2c adapter: the first four bytes of the
# .wasm's MD5 (tessera_runtime.h). cmake -DWASM=<controller.wasm> -DOUT=<header> -P build_id.cmake
file(MD5 "${WASM}" md5)
string(SUBSTRING "${md5}" 0 8 id)
file(WRITE "${OUT}" "/* Generated from controller.wasm by build_id.cmake. */\n#define TESSERA_CORE_BUILD_ID 0x${id}u\n")
