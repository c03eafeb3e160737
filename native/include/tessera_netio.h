/*
 * tessera_netio.h: socket reads and writes that never wait longer than they are told
 * (native/src/netio.c), on the BSD socket API both lwIP (ESP-IDF) and Linux offer: select() for the
 * wait, then recv/send with MSG_DONTWAIT. A port builds every bounded wait from these, so that a client
 * that sends or reads slowly holds up nothing but its own request.
 */
#ifndef TESSERA_NETIO_H
#define TESSERA_NETIO_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#define TESSERA_NET_ERROR (-1)   /* the socket failed (or was closed while writing) */
#define TESSERA_NET_TIMEOUT (-2) /* nothing happened within the wait */

/* Waits at most wait_ms for fd to be readable, then reads what is there without blocking: bytes read
 * (> 0), 0 when the peer closed the connection, TESSERA_NET_TIMEOUT or TESSERA_NET_ERROR. */
int tessera_recv_within(int fd, void *buf, size_t len, uint32_t wait_ms);

/* Waits at most wait_ms for fd to take data, then writes what it takes without blocking: bytes written
 * (> 0, possibly fewer than len), TESSERA_NET_TIMEOUT or TESSERA_NET_ERROR. */
int tessera_send_within(int fd, const void *buf, size_t len, uint32_t wait_ms);

/* Writes what fd takes now: bytes written, 0 when it would block, TESSERA_NET_ERROR. */
int tessera_send_now(int fd, const void *buf, size_t len);

/* Milliseconds left until deadline_ms on a wrapping millisecond clock (0 once it has passed; a deadline
 * more than 2^31 ms ahead counts as passed). */
uint32_t tessera_ms_left(uint32_t now_ms, uint32_t deadline_ms);

/* 1 when fd's local address (the address the client connected to) is the IPv4 address a.b.c.d, also
 * as an IPv4-mapped IPv6 address (a dual-stack listening socket). */
int tessera_local_addr_is(int fd, const uint8_t ipv4[4]);

#ifdef __cplusplus
}
#endif

#endif /* TESSERA_NETIO_H */
