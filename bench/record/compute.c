/* SPDX-License-Identifier: MIT */
/* Recorder benchmark, compute-bound: integer arithmetic in registers and a
 * small array for about a second natively, with almost no syscalls. */
#include <stdio.h>
#include <stdlib.h>

int main(int argc, char **argv) {
  unsigned long n = argc > 1 ? strtoul(argv[1], NULL, 10) : 400000000ul;
  unsigned long x = 88172645463325252ul, acc = 0;
  unsigned tab[256] = {0};
  for (unsigned long i = 0; i < n; i++) {
    x ^= x << 13, x ^= x >> 7, x ^= x << 17;
    tab[x & 255] += (unsigned)(x >> 32);
    acc += tab[(x >> 8) & 255];
  }
  printf("%lu\n", acc);
  return 0;
}
