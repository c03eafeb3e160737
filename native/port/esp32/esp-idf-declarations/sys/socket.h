/*
 * Declarations copied from ESP-IDF v5.3.4's lwIP (Apache-2.0, (c) Espressif Systems; lwIP: BSD-3-Clause,
 * (c) Swedish Institute of Computer Science):
 *   components/lwip/port/esp32xx/include/sys/socket.h (includes lwip/sockets.h)
 *   components/lwip/include/lwip/sockets.h (the BSD names as inline wrappers of lwip_*: declared here
 *     as plain prototypes, same signatures)
 *   components/lwip/port/esp32xx/include/arch/cc.h (u8_t .. u32_t)
 *   components/lwip/lwip/src/include/lwip/sockets.h (espressif/esp-lwip, branch 2.1.3-esp at f792214,
 *     2024-01-22; ESP-IDF v5.3.4 pins 392707e of the same branch, not in the mirror read here: these
 *     lwIP 2.1 declarations did not change on it)
 * with lwipopts.h's choices: LWIP_IPV4 and LWIP_IPV6 on, LWIP_COMPAT_SOCKETS 0, LWIP_TIMEVAL_PRIVATE 0
 * (struct timeval from newlib), select() from newlib's sys/select.h (ESP-IDF's VFS).
 * for scripts/esp32-check.mjs, which compiles the device code against them: the real names, types and
 * signatures of the API Tessera calls. Declarations only (no behaviour); never built into anything.
 */
#ifndef TESSERA_API_SYS_SOCKET_H
#define TESSERA_API_SYS_SOCKET_H

#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>
#include <sys/time.h>
#include <sys/select.h>
#include <unistd.h>
#include "netinet/in.h"

typedef u8_t sa_family_t;

typedef u16_t in_port_t;

/* members are in network byte order */
struct sockaddr_in {
  u8_t            sin_len;
  sa_family_t     sin_family;
  in_port_t       sin_port;
  struct in_addr  sin_addr;
#define SIN_ZERO_LEN 8
  char            sin_zero[SIN_ZERO_LEN];
};

struct sockaddr_in6 {
  u8_t            sin6_len;      /* length of this structure    */
  sa_family_t     sin6_family;   /* AF_INET6                    */
  in_port_t       sin6_port;     /* Transport layer port #      */
  u32_t           sin6_flowinfo; /* IPv6 flow information       */
  struct in6_addr sin6_addr;     /* IPv6 address                */
  u32_t           sin6_scope_id; /* Set of interfaces for scope */
};

struct sockaddr {
  u8_t        sa_len;
  sa_family_t sa_family;
  char        sa_data[14];
};

struct sockaddr_storage {
  u8_t        s2_len;
  sa_family_t ss_family;
  char        s2_data1[2];
  u32_t       s2_data2[3];
  u32_t       s2_data3[3];
};

typedef u32_t socklen_t;

#define SOCK_STREAM     1
#define SOCK_DGRAM      2
#define SOCK_RAW        3

#define SO_REUSEADDR   0x0004 /* Allow local address reuse */
#define SO_KEEPALIVE   0x0008 /* keep connections alive */
#define SO_BROADCAST   0x0020 /* permit to send and to receive broadcast messages (see IP_SOF_BROADCAST option) */

#define SO_SNDTIMEO     0x1005 /* send timeout */
#define SO_RCVTIMEO     0x1006 /* receive timeout */
#define SO_ERROR        0x1007 /* get error status and clear */

#define  SOL_SOCKET  0xfff    /* options for socket level */

#define AF_UNSPEC       0
#define AF_INET         2
#define AF_INET6        10
#define PF_INET         AF_INET
#define PF_INET6        AF_INET6
#define PF_UNSPEC       AF_UNSPEC

#define IPPROTO_IP      0
#define IPPROTO_ICMP    1
#define IPPROTO_TCP     6
#define IPPROTO_UDP     17

#define MSG_PEEK       0x01    /* Peeks at an incoming message */
#define MSG_WAITALL    0x02    /* Unimplemented: Requests that the function block until the full amount of data requested can be returned */
#define MSG_OOB        0x04    /* Unimplemented: Requests out-of-band data. The significance and semantics of out-of-band data are protocol-specific */
#define MSG_DONTWAIT   0x08    /* Nonblocking i/o for this operation only */
#define MSG_MORE       0x10    /* Sender will send more */
#define MSG_NOSIGNAL   0x20    /* Uninmplemented: Requests not to send the SIGPIPE signal if an attempt to send is made on a stream-oriented socket that is no longer connected. */

#define TCP_NODELAY    0x01    /* don't delay send to coalesce packets */

int accept(int s,struct sockaddr *addr,socklen_t *addrlen);
int bind(int s,const struct sockaddr *name, socklen_t namelen);
int shutdown(int s,int how);
int getpeername(int s,struct sockaddr *name,socklen_t *namelen);
int getsockname(int s,struct sockaddr *name,socklen_t *namelen);
int setsockopt(int s,int level,int optname,const void *opval,socklen_t optlen);
int getsockopt(int s,int level,int optname,void *opval,socklen_t *optlen);
int connect(int s,const struct sockaddr *name,socklen_t namelen);
int listen(int s,int backlog);
ssize_t recv(int s,void *mem,size_t len,int flags);
ssize_t recvfrom(int s,void *mem,size_t len,int flags,struct sockaddr *from,socklen_t *fromlen);
ssize_t send(int s,const void *dataptr,size_t size,int flags);
ssize_t sendto(int s,const void *dataptr,size_t size,int flags,const struct sockaddr *to,socklen_t tolen);
int socket(int domain,int type,int protocol);

#endif
