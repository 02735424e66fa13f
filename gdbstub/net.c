/* SPDX-License-Identifier: MIT */
/* The TCP side of `rewind replay --listen`: a listening socket on
 * 127.0.0.1 unless the user names another address, and accepting one gdb
 * at a time. Serving the connection is gdb_serve's job. */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE 1 /* accept4 */
#endif
#include <errno.h>
#include <netdb.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include "gdbstub/gdbstub.h"

/* Splits "HOST:PORT", ":PORT" or "PORT" (HOST may be "[v6]"). */
static int split(const char *addr, char *host, size_t hcap, char *port,
                 size_t pcap) {
  const char *colon = strrchr(addr, ':');
  const char *h = "127.0.0.1", *p = addr;
  size_t hlen = strlen(h);
  if (colon) {
    p = colon + 1;
    if (colon > addr) {
      h = addr;
      hlen = (size_t)(colon - addr);
      if (*h == '[' && hlen >= 2 && h[hlen - 1] == ']') h++, hlen -= 2;
    }
  }
  if (!*p || strlen(p) >= pcap || hlen >= hcap) return RW_EINVAL;
  for (const char *c = p; *c; c++)
    if (*c < '0' || *c > '9') return RW_EINVAL;
  memcpy(host, h, hlen);
  host[hlen] = 0;
  snprintf(port, pcap, "%s", p);
  return 0;
}

int gdb_listen(const char *addr, char *desc, size_t cap,
               struct rw_diag *diag) {
  char host[256], port[16];
  struct addrinfo hints, *res = NULL;
  if (split(addr, host, sizeof host, port, sizeof port) < 0)
    return rw_diag_set(diag, RW_EINVAL, 0,
                       "'%s' is not HOST:PORT or PORT", addr);
  memset(&hints, 0, sizeof hints);
  hints.ai_family = AF_UNSPEC;
  hints.ai_socktype = SOCK_STREAM;
  hints.ai_flags = AI_PASSIVE | AI_NUMERICSERV;
  int e = getaddrinfo(host, port, &hints, &res);
  if (e)
    return rw_diag_set(diag, RW_EINVAL, 0, "cannot resolve '%s': %s", host,
                       gai_strerror(e));
  int fd = socket(res->ai_family, res->ai_socktype | SOCK_CLOEXEC, 0);
  if (fd < 0) {
    e = errno;
    freeaddrinfo(res);
    return rw_diag_set(diag, RW_ERR(e), 0, "socket: %s", strerror(e));
  }
  int one = 1;
  (void)setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof one);
  if (bind(fd, res->ai_addr, res->ai_addrlen) < 0 || listen(fd, 1) < 0) {
    e = errno;
    freeaddrinfo(res);
    close(fd);
    return rw_diag_set(diag, RW_ERR(e), 0, "cannot listen on %s:%s: %s%s",
                       host, port, strerror(e),
                       e == EADDRINUSE ? " (choose another port, or 0 for "
                                         "any free one)"
                                       : "");
  }
  freeaddrinfo(res);
  struct sockaddr_storage ss;
  socklen_t sl = sizeof ss;
  char h[NI_MAXHOST], p[NI_MAXSERV];
  if (getsockname(fd, (struct sockaddr *)&ss, &sl) == 0 &&
      getnameinfo((struct sockaddr *)&ss, sl, h, sizeof h, p, sizeof p,
                  NI_NUMERICHOST | NI_NUMERICSERV) == 0)
    snprintf(desc, cap, strchr(h, ':') ? "[%s]:%s" : "%s:%s", h, p);
  else
    snprintf(desc, cap, "%s:%s", host, port);
  return fd;
}

void gdb_refuse_busy(int fd) {
  static const char msg[] = "E.this replay is busy: another gdb is "
                            "connected to it; try again when it detaches";
  char buf[512], pkt[sizeof msg + 8];
  unsigned sum = 0;
  struct pollfd p = {fd, POLLIN, 0};
  for (size_t i = 0; i < sizeof msg - 1; i++) sum += (unsigned char)msg[i];
  snprintf(pkt, sizeof pkt, "$%s#%02x", msg, sum & 0xff);
  /* Wait (briefly) for gdb's first packet, so the reply answers it. */
  if (poll(&p, 1, 1000) > 0 && read(fd, buf, sizeof buf) > 0) {
    ssize_t n = write(fd, "+", 1);
    if (n == 1) n = write(fd, pkt, strlen(pkt));
    (void)n;
  }
}

int gdb_accept(int lfd) {
  for (;;) {
    int fd = accept4(lfd, NULL, NULL, SOCK_CLOEXEC);
    if (fd < 0 && (errno == EINTR || errno == ECONNABORTED)) continue;
    if (fd < 0) return RW_ERR(errno);
    int one = 1;
    (void)setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
    return fd;
  }
}
