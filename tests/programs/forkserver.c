/* SPDX-License-Identifier: MIT */
/* Test program, a forking server and its clients, all recorded processes:
 * the server listens on a Unix socket, forks a worker per connection, and
 * each worker answers its client's numbers with their squares; three
 * client processes (forked before the server accepts) connect, send, read
 * and exit with the sum of what they got modulo 256. The server reaps its
 * workers and the clients and prints one line per client.
 * Usage: forkserver SOCKET_PATH */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <sys/wait.h>
#include <unistd.h>

#define CLIENTS 3
#define NUMS 5

static int full_io(int fd, void *buf, size_t n, int out) {
  char *p = buf;
  while (n) {
    ssize_t k = out ? write(fd, p, n) : read(fd, p, n);
    if (k <= 0) return -1;
    p += k;
    n -= (size_t)k;
  }
  return 0;
}

static void worker(int c) {
  int v[NUMS];
  if (full_io(c, v, sizeof v, 0) < 0) _exit(1);
  for (int i = 0; i < NUMS; i++) v[i] *= v[i];
  _exit(full_io(c, v, sizeof v, 1) < 0 ? 1 : 0);
}

static void client(const struct sockaddr_un *a, int k) {
  int s = socket(AF_UNIX, SOCK_STREAM, 0);
  /* The server may not listen yet: try again until it does. */
  for (int tries = 0; connect(s, (const struct sockaddr *)a, sizeof *a) < 0;
       tries++) {
    if (tries > 2000) _exit(255);
    usleep(1000);
  }
  int v[NUMS], sum = 0;
  for (int i = 0; i < NUMS; i++) v[i] = k * 10 + i;
  if (full_io(s, v, sizeof v, 1) < 0 || full_io(s, v, sizeof v, 0) < 0)
    _exit(254);
  for (int i = 0; i < NUMS; i++) sum += v[i];
  _exit(sum % 256);
}

int main(int argc, char **argv) {
  if (argc < 2) return 2;
  struct sockaddr_un a;
  memset(&a, 0, sizeof a);
  a.sun_family = AF_UNIX;
  snprintf(a.sun_path, sizeof a.sun_path, "%s", argv[1]);
  unlink(a.sun_path);
  pid_t kids[CLIENTS];
  for (int k = 0; k < CLIENTS; k++)
    if ((kids[k] = fork()) == 0) client(&a, k + 1);
  int ls = socket(AF_UNIX, SOCK_STREAM, 0);
  if (bind(ls, (struct sockaddr *)&a, sizeof a) < 0 || listen(ls, 8) < 0) {
    perror("forkserver: listen");
    return 1;
  }
  int workers_ok = 0;
  for (int n = 0; n < CLIENTS; n++) {
    int c = accept(ls, NULL, NULL);
    if (c < 0) return 1;
    pid_t w = fork();
    if (w == 0) {
      close(ls);
      worker(c);
    }
    close(c);
    int st;
    if (waitpid(w, &st, 0) == w && WIFEXITED(st) && WEXITSTATUS(st) == 0)
      workers_ok++;
  }
  for (int k = 0; k < CLIENTS; k++) {
    int st;
    waitpid(kids[k], &st, 0);
    printf("client %d: %d\n", k + 1, WIFEXITED(st) ? WEXITSTATUS(st) : -1);
  }
  printf("workers ok %d\n", workers_ok);
  unlink(a.sun_path);
  return 0;
}
