/* SPDX-License-Identifier: MIT */
/* Test program, cpuid: prints leaves 0, 1 and 7 as the program sees them;
 * the end-to-end test compares them with the trace's cpuid table. */
#include <cpuid.h>
#include <stdio.h>

int main(void) {
  unsigned l[3] = {0, 1, 7};
  for (int i = 0; i < 3; i++) {
    unsigned a, b, c, d;
    __cpuid_count(l[i], 0, a, b, c, d);
    printf("%x %x %x %x %x\n", l[i], a, b, c, d);
  }
  return 0;
}
