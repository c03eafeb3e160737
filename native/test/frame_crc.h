/*
 * frame_crc.h: the WebSocket frames' CRC-16 (reflected 0xA001, initial 0xFFFF) for the tests that
 * build and check frames (test_ws_queue.c, test_ws_clients.c), written apart from native/src's so a
 * test does not check the code with itself.
 */
#ifndef TESSERA_FRAME_CRC_H
#define TESSERA_FRAME_CRC_H

#include <stdint.h>

static uint32_t crc16(const uint8_t *p, uint32_t len) {
  uint32_t crc = 0xffff;
  for (uint32_t i = 0; i < len; i++) {
    crc ^= p[i];
    for (int b = 0; b < 8; b++) crc = (crc & 1) ? (crc >> 1) ^ 0xa001 : crc >> 1;
  }
  return crc;
}

#endif
