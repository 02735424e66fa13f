/* SPDX-License-Identifier: MIT */
/* Test program: a parent writes into its child's memory through
 * /proc/CHILD/mem while the child waits on a pipe: a value with pwrite at
 * its address, another with write after lseek, through the thread's file
 * (/proc/CHILD/task/CHILD/mem). The child prints what it then reads; the
 * writes show in no syscall of the child's (tests/recorder/processes.sh).
 * Prints "childmem ok 1234 5678" from the child. */
#define _GNU_SOURCE
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <sys/wait.h>
#include <unistd.h>

static volatile int first = 1, second = 2;

int main(void) {
  int fds[2];
  if (pipe(fds)) return 1;
  pid_t pid = fork();
  if (pid < 0) return 1;
  if (pid == 0) {
    char c;
    if (read(fds[0], &c, 1) != 1) return 1;
    printf("childmem ok %d %d\n", first, second);
    return 0;
  }
  char path[64];
  int a = 1234, b = 5678;
  snprintf(path, sizeof path, "/proc/%d/mem", (int)pid);
  int fd = open(path, O_RDWR);
  snprintf(path, sizeof path, "/proc/%d/task/%d/mem", (int)pid, (int)pid);
  int fd2 = open(path, O_RDWR);
  if (fd < 0 || fd2 < 0) return 1;
  if (pwrite(fd, &a, sizeof a, (off_t)(uintptr_t)&first) != sizeof a) return 1;
  if (lseek(fd2, (off_t)(uintptr_t)&second, SEEK_SET) < 0 ||
      write(fd2, &b, sizeof b) != sizeof b)
    return 1;
  if (write(fds[1], "x", 1) != 1) return 1;
  int st = 0;
  waitpid(pid, &st, 0);
  /* The parent's own copies are untouched. */
  return first == 1 && second == 2 && WIFEXITED(st) && !WEXITSTATUS(st) ? 0 : 1;
}
