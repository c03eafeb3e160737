/*
 * Declarations copied from ESP-IDF v5.3.4's lwIP (Apache-2.0, (c) Espressif Systems; lwIP: BSD-3-Clause,
 * (c) Swedish Institute of Computer Science):
 *   components/lwip/port/include/netinet/in.h (includes lwip/inet.h)
 *   components/lwip/port/esp32xx/include/arch/cc.h (u8_t .. u32_t; htons/htonl as byte swaps)
 *   components/lwip/lwip/src/include/lwip/inet.h, lwip/ip4_addr.h (espressif/esp-lwip, branch 2.1.3-esp
 *     at f792214; see sys/socket.h here)
 * for scripts/esp32-check.mjs, which compiles the device code against them: the real names, types and
 * signatures of the API Tessera calls. Declarations only (no behaviour); never built into anything.
 */
#ifndef TESSERA_API_NETINET_IN_H
#define TESSERA_API_NETINET_IN_H

#include <stdint.h>

typedef uint8_t  u8_t;
typedef int8_t   s8_t;
typedef uint16_t u16_t;
typedef int16_t  s16_t;
typedef uint32_t u32_t;
typedef int32_t  s32_t;

#define htons(x) __builtin_bswap16(x)
#define ntohs(x) __builtin_bswap16(x)
#define htonl(x) __builtin_bswap32(x)
#define ntohl(x) __builtin_bswap32(x)

typedef u32_t in_addr_t;

struct in_addr {
  in_addr_t s_addr;
};

struct in6_addr {
  union {
    u32_t u32_addr[4];
    u8_t  u8_addr[16];
  } un;
#define s6_addr  un.u8_addr
};

#define IPADDR_ANY          ((u32_t)0x00000000UL)
/** 0.0.0.0 */
#define INADDR_ANY          IPADDR_ANY

#endif
