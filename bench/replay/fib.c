/* SPDX-License-Identifier: MIT */
/* A call-heavy workload for rewind analyze profile (bench/RESULTS.md,
 * "Profiles"): recursive fib(N) (default 36), a call and a return every
 * few instructions. */
#include <stdio.h>
#include <stdlib.h>

__attribute__((noinline)) static unsigned long fib(unsigned n) {
  return n < 2 ? n : fib(n - 1) + fib(n - 2);
}

int main(int argc, char **argv) {
  unsigned n = argc > 1 ? (unsigned)atoi(argv[1]) : 36;
  printf("fib(%u) = %lu\n", n, fib(n));
  return 0;
}
