/* SPDX-License-Identifier: MIT */
/* Writes to standard output and error with write and writev, and to a
 * file (which a replay does not show), and blocks one thread in a read
 * that another thread's write ends: what `catch syscall` and the
 * program's output during a replay are tested on (tests/gdb/syscalls.sh).
 * The last line is argv[1] when given. */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/uio.h>
#include <unistd.h>

static int pfd[2];
static char got[16];

static void *reader(void *arg) {
  (void)arg;
  ssize_t n = read(pfd[0], got, sizeof got - 1); /* blocks until main */
  if (n > 0) got[n] = 0;
  return NULL;
}

static void say(int fd, const char *s) {
  if (write(fd, s, strlen(s)) < 0) exit(1);
}

int main(int argc, char **argv) {
  char tmp[] = "/tmp/chatty.XXXXXX";
  pthread_t th;
  int fd = mkstemp(tmp);
  if (fd < 0 || pipe(pfd) < 0) return 1;
  unlink(tmp);
  for (int i = 0; i < 3; i++) {
    char line[32];
    snprintf(line, sizeof line, "out %d\n", i);
    say(1, line);
    (void)getppid();
  }
  say(2, "err 0\n");
  if (pwrite(fd, "hidden\n", 7, 0) != 7) return 1; /* a file: not shown */
  struct iovec iov[2] = {{"vec ", 4}, {"out\n", 4}};
  if (writev(1, iov, 2) != 8) return 1;
  if (pthread_create(&th, NULL, reader, NULL)) return 1;
  volatile unsigned long spin = 0;
  for (unsigned long i = 0; i < 200000; i++) spin += i; /* reader blocks */
  say(pfd[1], "ping");
  pthread_join(th, NULL);
  say(1, argc > 1 ? argv[1] : "end\n");
  say(1, got[0] ? "reader got ping\n" : "reader got nothing\n");
  close(fd);
  return 0;
}
