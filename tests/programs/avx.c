/* SPDX-License-Identifier: MIT */
/* Test program: executes one instruction the emulator does not implement
 * yet (AVX-VNNI's VEX vpdpbusd, which Capstone 4 cannot name either), so
 * that the replay must stop naming its encoding and its address. Exits 77
 * (skip) on a CPU or kernel without AVX-VNNI. */
#include <cpuid.h>
#include <stdio.h>

int main(void) {
  unsigned a, b, c, d, lo, hi;
  if (!__get_cpuid(1, &a, &b, &c, &d) || !(c & bit_OSXSAVE)) return 77;
  if (!__get_cpuid_count(7, 1, &a, &b, &c, &d) || !(a & (1u << 4)))
    return 77; /* AVX-VNNI */
  __asm__ volatile("xgetbv" : "=a"(lo), "=d"(hi) : "c"(0));
  if ((lo & 6) != 6) return 77; /* SSE and AVX state */
  puts("before avx-vnni");
  fflush(stdout);
  /* vpdpbusd ymm0, ymm1, ymm1 (VEX.256.66.0F38.W0 50 /r) */
  __asm__ volatile(".byte 0xc4, 0xe2, 0x75, 0x50, 0xc1" ::: "xmm0");
  puts("after avx-vnni");
  return 0;
}
