/* SPDX-License-Identifier: MIT */
/* Test program: executes one instruction the emulator does not implement
 * (rdpid, which reads the CPU's IA32_TSC_AUX: on Linux the number of the
 * CPU the thread runs on, a value no replay can know), so that the replay
 * must stop naming it and its address. Before it, AMD's clzero (zeroes the
 * cache line rAX points into), which the replay does run. Exits 77 (skip)
 * on a CPU without RDPID (CPUID 7 ECX bit 22); clzero only runs where
 * CPUID 8000_0008h EBX bit 0 says so. */
#include <cpuid.h>
#include <stdio.h>

static _Alignas(64) unsigned char line[64] = {1, 2, 3};

int main(void) {
  unsigned a, b, c, d;
  if (!__get_cpuid_count(7, 0, &a, &b, &c, &d) || !(c & (1u << 22)))
    return 77;
  if (__get_cpuid(0x80000008, &a, &b, &c, &d) && (b & 1)) {
    __asm__ volatile(".byte 0x0f, 0x01, 0xfc" /* clzero */
                     :
                     : "a"(line + 17)
                     : "memory");
  }
  printf("before rdpid: %u\n", line[0] + line[1] + line[2]);
  fflush(stdout);
  unsigned long id;
  __asm__ volatile(".byte 0xf3, 0x0f, 0xc7, 0xf8" /* rdpid rax */
                   : "=a"(id));
  printf("after rdpid: %lu\n", id);
  return 0;
}
