/* SPDX-License-Identifier: MIT */
/* Test program: executes one AVX-512 instruction the emulator does not
 * implement yet (vcvtudq2ps, unsigned dwords to floats), so that the
 * replay must stop naming it and its address. Exits 77 (skip) on a CPU or kernel without
 * AVX-512. */
#include <cpuid.h>
#include <stdio.h>

int main(void) {
  unsigned a, b, c, d, lo, hi;
  if (!__get_cpuid(1, &a, &b, &c, &d) || !(c & bit_OSXSAVE)) return 77;
  if (!__get_cpuid_count(7, 0, &a, &b, &c, &d) || !(b & bit_AVX512F))
    return 77;
  __asm__ volatile("xgetbv" : "=a"(lo), "=d"(hi) : "c"(0));
  if ((lo & 0xe6) != 0xe6) return 77; /* SSE, AVX and the AVX-512 state */
  puts("before avx-512");
  fflush(stdout);
  __asm__ volatile("vcvtudq2ps %%zmm1, %%zmm1" ::: "xmm1");
  puts("after avx-512");
  return 0;
}
