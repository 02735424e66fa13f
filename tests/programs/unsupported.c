/* SPDX-License-Identifier: MIT */
/* Test program: executes one instruction the emulator does not implement
 * (AMD's clzero, which zeroes the cache line rAX points into), so that the
 * replay must stop naming it and its address. Exits 77 (skip) on a CPU
 * without CLZERO (CPUID 8000_0008h EBX bit 0): Intel's have none. */
#include <cpuid.h>
#include <stdio.h>

static _Alignas(64) unsigned char line[64] = {1, 2, 3};

int main(void) {
  unsigned a, b, c, d;
  if (!__get_cpuid(0x80000008, &a, &b, &c, &d) || !(b & 1)) return 77;
  puts("before clzero");
  fflush(stdout);
  __asm__ volatile(".byte 0x0f, 0x01, 0xfc" /* clzero */
                   :
                   : "a"(line + 17)
                   : "memory");
  printf("after clzero: %u\n", line[0] + line[1] + line[2]);
  return 0;
}
