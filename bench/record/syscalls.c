/* SPDX-License-Identifier: MIT */
/* Recorder benchmark, syscall-heavy: N (default 100000) getppid syscalls
 * and N/10 writes of 64 bytes to /dev/null: 110,000 syscalls in all. */
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/syscall.h>
#include <unistd.h>

int main(int argc, char **argv) {
  long n = argc > 1 ? atol(argv[1]) : 100000;
  long sum = 0;
  char buf[64] = {0};
  int fd = open("/dev/null", O_WRONLY);
  for (long i = 0; i < n; i++) {
    sum += syscall(SYS_getppid);
    if (i % 10 == 0 && write(fd, buf, sizeof buf) < 0) return 1;
  }
  close(fd);
  printf("%ld\n", sum > 0);
  return 0;
}
