/*
 * Declarations copied from ESP-IDF v5.3.4 (Apache-2.0, (c) Espressif Systems):
 *   components/esp_rom/include/esp_rom_md5.h (the branch for every target but the ESP32-C2)
 * for scripts/esp32-check.mjs, which compiles the device code against them: the real names, types and
 * signatures of the API Tessera calls. Declarations only (no behaviour); never built into anything.
 */
#ifndef TESSERA_API_ESP_ROM_MD5_H
#define TESSERA_API_ESP_ROM_MD5_H

#include <stdint.h>

#define ESP_ROM_MD5_DIGEST_LEN 16

/**
 * @brief Type defined for MD5 context
 *
 */
typedef struct MD5Context {
    uint32_t buf[4];
    uint32_t bits[2];
    uint8_t in[64];
} md5_context_t;

/**
 * @brief Initialize the MD5 context
 *
 * @param context Context object allocated by user
 */
void esp_rom_md5_init(md5_context_t *context);

/**
 * @brief Running MD5 algorithm over input data
 *
 * @param context MD5 context which has been initialized by `MD5Init`
 * @param buf Input buffer
 * @param len Buffer length in bytes
 */
void esp_rom_md5_update(md5_context_t *context, const void *buf, uint32_t len);

/**
 * @brief Extract the MD5 result, and erase the context
 *
 * @param digest Where to store the 128-bit digest value
 * @param context MD5 context
 */
void esp_rom_md5_final(uint8_t *digest, md5_context_t *context);

#endif
