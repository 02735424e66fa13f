/* SPDX-License-Identifier: MIT */
/* Test program, sockets: a socketpair and a loopback TCP connection in one
 * process (bind, listen, connect, accept4, send, recv, recvmsg, getsockname,
 * getpeername, getsockopt, shutdown). Prints what it received. */
#define _GNU_SOURCE
#include <arpa/inet.h>
#include <netinet/in.h>
#include <stdio.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

int main(void) {
  int sv[2];
  char buf[64] = {0}, buf2[64] = {0};
  if (socketpair(AF_UNIX, SOCK_STREAM, 0, sv) < 0) return 1;
  if (send(sv[0], "pair-hello", 10, 0) != 10) return 2;
  ssize_t n1 = recv(sv[1], buf, sizeof buf - 1, 0);
  int ls = socket(AF_INET, SOCK_STREAM, 0);
  struct sockaddr_in a = {0};
  a.sin_family = AF_INET;
  a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  if (bind(ls, (struct sockaddr *)&a, sizeof a) < 0 || listen(ls, 1) < 0)
    return 3;
  socklen_t al = sizeof a;
  getsockname(ls, (struct sockaddr *)&a, &al);
  int c = socket(AF_INET, SOCK_STREAM, 0);
  if (connect(c, (struct sockaddr *)&a, sizeof a) < 0) return 4;
  struct sockaddr_in peer;
  socklen_t pl = sizeof peer;
  int s = accept4(ls, (struct sockaddr *)&peer, &pl, SOCK_CLOEXEC);
  if (s < 0) return 5;
  if (send(c, "tcp-hello-7", 11, 0) != 11) return 6;
  struct iovec iov = {buf2, sizeof buf2 - 1};
  struct msghdr mh = {0};
  mh.msg_iov = &iov;
  mh.msg_iovlen = 1;
  ssize_t n2 = recvmsg(s, &mh, 0);
  int err = -1;
  socklen_t el = sizeof err;
  getsockopt(s, SOL_SOCKET, SO_ERROR, &err, &el);
  struct sockaddr_in pn;
  socklen_t pnl = sizeof pn;
  getpeername(s, (struct sockaddr *)&pn, &pnl);
  shutdown(c, SHUT_RDWR);
  printf("pair %zd '%s' tcp %zd '%s' err %d port-match %d\n", n1, buf, n2,
         buf2, err, pn.sin_port == peer.sin_port);
  close(s), close(c), close(ls), close(sv[0]), close(sv[1]);
  return 0;
}
