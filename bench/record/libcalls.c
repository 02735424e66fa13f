/* SPDX-License-Identifier: MIT */
/* Rounds of glibc calls whose syscall sites the syscall buffer takes over
 * (bench/record/sbuf.sh): getppid, fstat and stat, as a program that
 * checks its files and parent often makes them.
 *   libcalls [N]   N rounds (default 50000), 3 syscalls each */
#include <stdio.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <unistd.h>

int main(int argc, char **argv) {
  long n = argc > 1 ? atol(argv[1]) : 50000;
  unsigned long sum = 0;
  struct stat st;
  for (long i = 0; i < n; i++) {
    sum += (unsigned long)getppid();
    if (fstat(1, &st) == 0) sum += st.st_mode;
    if (stat("/", &st) == 0) sum += st.st_nlink;
  }
  printf("%ld rounds (%lu)\n", n, sum & 0xff);
  return 0;
}
