/* SPDX-License-Identifier: MIT */
/* Test program: executes one AVX instruction, which the emulator does not
 * implement, so that the replay must stop naming it and its address. Exits
 * 77 (skip) on a CPU or kernel without AVX. */
#include <cpuid.h>
#include <stdio.h>

int main(void) {
  unsigned a, b, c, d, lo, hi;
  if (!__get_cpuid(1, &a, &b, &c, &d) || !(c & bit_AVX) || !(c & bit_OSXSAVE))
    return 77;
  __asm__ volatile("xgetbv" : "=a"(lo), "=d"(hi) : "c"(0));
  if ((lo & 6) != 6) return 77;
  puts("before avx");
  fflush(stdout);
  __asm__ volatile("vpxor %%xmm1, %%xmm1, %%xmm1" ::: "xmm1");
  puts("after avx");
  return 0;
}
