/* SPDX-License-Identifier: MIT */
/* Test program: after a long computation, a page is mapped, one word of it
 * written twice, and the page unmapped again, then another long
 * computation. Going backwards from the end, the word's writes must be
 * found although its page is in neither the state before them nor the
 * one after (the write index of reverse continues, replayer/reverse.c,
 * compares pages of states kept along the history).
 *
 *   unmapped   prints "unmapped: N"; `slot` points at the page */
#define _GNU_SOURCE
#include <stdio.h>
#include <sys/mman.h>

long *volatile slot;
static volatile unsigned long spun;

static void spin(long n) {
  for (long i = 0; i < n; i++) spun = spun * 6364136223846793005ul + 1;
}

int main(void) {
  spin(3000000);
  long *volatile p = mmap(NULL, 4096, PROT_READ | PROT_WRITE,
                          MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  if (p == MAP_FAILED) return 1;
  slot = p;
  p[1] = 41;
  p[1] = 42;
  munmap(p, 4096);
  spin(3000000);
  printf("unmapped: %lu\n", spun & 0xff);
  return 0;
}
