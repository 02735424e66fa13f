/* SPDX-License-Identifier: MIT */
/* Test program: reads the hardware random number generator with rdrand,
 * whose value a recording cannot capture on a CPU without CPUID faulting,
 * so the replay must stop and say so. Exits 77 (skip) without rdrand. */
#include <cpuid.h>
#include <stdio.h>

int main(void) {
  unsigned a, b, c, d;
  unsigned long v;
  unsigned char ok;
  if (!__get_cpuid(1, &a, &b, &c, &d) || !(c & bit_RDRND)) return 77;
  __asm__ volatile("rdrand %0; setc %1" : "=r"(v), "=qm"(ok));
  printf("rdrand %s\n", ok ? "ok" : "empty");
  return 0;
}
