/* SPDX-License-Identifier: MIT */
/* Test program: memory that a fork does not copy as it is. Of three
 * private anonymous pages written with 1s, the first is marked
 * MADV_WIPEONFORK (the child gets zeros), the third MADV_DONTFORK (the
 * child does not get it at all); the child reads all it has and says what
 * it saw, and forks a grandchild that sees the first page wiped again
 * (tests/recorder/processes.sh). Prints "forkadvice ok 0 1 gone" from the
 * child, "forkadvice grandchild 0" from the grandchild. */
#include <errno.h>
#include <stdio.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <unistd.h>

#ifndef MADV_WIPEONFORK
#define MADV_WIPEONFORK 18
#endif

int main(void) {
  long pg = sysconf(_SC_PAGESIZE);
  volatile char *p = mmap(NULL, 3 * pg, PROT_READ | PROT_WRITE,
                          MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  if (p == MAP_FAILED) return 1;
  if (madvise((void *)p, pg, MADV_WIPEONFORK) ||
      madvise((void *)(p + 2 * pg), pg, MADV_DONTFORK)) {
    printf("forkadvice unsupported\n");
    return 0;
  }
  p[0] = p[pg] = p[2 * pg] = 1;
  pid_t pid = fork();
  if (pid < 0) return 1;
  if (pid == 0) {
    int gone = msync((void *)(p + 2 * pg), pg, MS_ASYNC) < 0 && errno == ENOMEM;
    printf("forkadvice ok %d %d %s\n", p[0], p[pg], gone ? "gone" : "there");
    fflush(stdout);
    p[0] = 2;
    pid_t g = fork();
    if (g == 0) {
      printf("forkadvice grandchild %d\n", p[0]);
      return 0;
    }
    waitpid(g, NULL, 0);
    return 0;
  }
  int st = 0;
  waitpid(pid, &st, 0);
  return p[0] == 1 && p[2 * pg] == 1 && WIFEXITED(st) ? 0 : 1;
}
