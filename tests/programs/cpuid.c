/* SPDX-License-Identifier: MIT */
/* Test program, cpuid: prints leaves 0, 1 and 7 as the program sees them;
 * the end-to-end test compares them with the trace's cpuid table. With an
 * argument N it first spins N million iterations, so that the cpuid comes
 * long after the program's start (tests/replay/index.sh). */
#include <cpuid.h>
#include <stdio.h>
#include <stdlib.h>

int main(int argc, char **argv) {
  unsigned l[3] = {0, 1, 7};
  volatile unsigned long spin = 0;
  long n = argc > 1 ? atol(argv[1]) * 1000000 : 0;
  for (long i = 0; i < n; i++) spin += (unsigned long)i;
  for (int i = 0; i < 3; i++) {
    unsigned a, b, c, d;
    __cpuid_count(l[i], 0, a, b, c, d);
    printf("%x %x %x %x %x\n", l[i], a, b, c, d);
  }
  return 0;
}
