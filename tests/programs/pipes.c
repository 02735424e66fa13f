/* SPDX-License-Identifier: MIT */
/* Test program, pipes: pipe2, writes and reads through it, dup2, poll,
 * select and fcntl. Prints what it read. */
#define _GNU_SOURCE
#include <fcntl.h>
#include <poll.h>
#include <stdio.h>
#include <string.h>
#include <sys/select.h>
#include <unistd.h>

int main(void) {
  int p[2];
  char buf[64] = {0};
  if (pipe2(p, O_CLOEXEC) < 0) return 1;
  const char *msg = "through-the-pipe-42";
  if (write(p[1], msg, strlen(msg)) < 0) return 2;
  struct pollfd pf = {p[0], POLLIN, 0};
  int pr = poll(&pf, 1, 1000);
  fd_set rs;
  FD_ZERO(&rs);
  FD_SET(p[0], &rs);
  struct timeval tv = {1, 0};
  int sr = select(p[0] + 1, &rs, NULL, NULL, &tv);
  int q = dup2(p[0], 10);
  ssize_t n = read(q, buf, sizeof buf - 1);
  int fl = fcntl(p[0], F_GETFL);
  printf("poll %d revents %d select %d read %zd '%s' flags %d\n", pr,
         pf.revents, sr, n, buf, fl >= 0);
  close(p[0]);
  close(p[1]);
  close(q);
  return 0;
}
