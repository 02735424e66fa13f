/* SPDX-License-Identifier: MIT */
/* A loop of clock_gettime calls (bench/record/sbuf.sh): what a program
 * that timestamps its work does, the case the syscall buffer was made for.
 *   clock [N]   N calls (default 200000) */
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

int main(int argc, char **argv) {
  long n = argc > 1 ? atol(argv[1]) : 200000;
  struct timespec ts;
  unsigned long sum = 0;
  for (long i = 0; i < n; i++) {
    clock_gettime(CLOCK_MONOTONIC, &ts);
    sum += (unsigned long)ts.tv_nsec;
  }
  printf("%ld calls (%lu)\n", n, sum & 0xff);
  return 0;
}
