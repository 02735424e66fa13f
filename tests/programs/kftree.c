/* SPDX-License-Identifier: MIT */
/* Test program: a process tree that lives for about SECONDS (argument,
 * default 0.4), for recorder keyframes of several processes
 * (tests/replay/keyframes.sh). The parent waits for three children: one
 * computes, adds to a counter in MAP_SHARED memory and asks the time
 * often; one blocks reading a pipe until the first writes its result;
 * one runs another program (/bin/sleep 1.5 * SECONDS). The first two then
 * wait until the third has ended, so all live through the quiet last
 * third: a keyframe the computing made due finds the whole tree there.
 * Prints what they reported. */
#define _GNU_SOURCE
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

static double now(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return ts.tv_sec + ts.tv_nsec / 1e9;
}

int main(int argc, char **argv) {
  double secs = argc > 1 ? atof(argv[1]) : 0.4;
  volatile long *shared = mmap(NULL, 4096, PROT_READ | PROT_WRITE,
                               MAP_SHARED | MAP_ANONYMOUS, -1, 0);
  int fds[2], hold[2]; /* the result; closed when the sleep has ended */
  if (shared == MAP_FAILED || pipe(fds) < 0 ||
      pipe2(hold, O_CLOEXEC) < 0)
    return 1;
  pid_t a = fork();
  if (a == 0) { /* computes */
    unsigned long x = 1;
    double end = now() + secs;
    while (now() < end) {
      for (int i = 0; i < 20000; i++) x = x * 6364136223846793005ul + 1;
      __atomic_add_fetch(shared, 1, __ATOMIC_SEQ_CST);
    }
    if (write(fds[1], &x, sizeof x) != sizeof x) _exit(3);
    close(hold[1]);
    if (read(hold[0], &x, 1) != 0) _exit(6);
    _exit(0);
  }
  pid_t b = fork();
  if (b == 0) { /* waits on the pipe */
    unsigned long x;
    if (read(fds[0], &x, sizeof x) != sizeof x) _exit(3);
    __atomic_add_fetch(shared + 1, 1, __ATOMIC_SEQ_CST);
    close(hold[1]);
    char end;
    if (read(hold[0], &end, 1) != 0) _exit(6);
    _exit(x ? 0 : 4);
  }
  pid_t c = fork();
  if (c == 0) {
    char arg[32];
    snprintf(arg, sizeof arg, "%g", secs * 1.5);
    execl("/bin/sleep", "sleep", arg, (char *)NULL);
    _exit(5);
  }
  int sa, sb, sc;
  waitpid(c, &sc, 0);
  close(hold[1]);
  waitpid(a, &sa, 0);
  waitpid(b, &sb, 0);
  printf("kftree: %d %d %d %d\n", WEXITSTATUS(sa), WEXITSTATUS(sb),
         WEXITSTATUS(sc), shared[0] > 0 && shared[1] == 1);
  return 0;
}
