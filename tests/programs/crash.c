/* SPDX-License-Identifier: MIT */
/* Test program, a crash: a NULL store in crash_here() kills it with SIGSEGV;
 * rewind must print a backtrace naming crash_here and main. */
#include <stdio.h>

__attribute__((noinline)) void crash_here(int *p);
__attribute__((noinline)) void crash_here(int *p) {
  *p = 42;
  __asm__ volatile("" ::: "memory");
}

int main(int argc, char **argv) {
  (void)argv;
  printf("about to crash\n");
  fflush(stdout);
  crash_here(argc > 5 ? (int *)&argc : NULL);
  return 0;
}
