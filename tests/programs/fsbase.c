/* SPDX-License-Identifier: MIT */
/* Test program, fsbase: rdfsbase and rdgsbase, where CPUID 7 EBX bit 0
 * and the kernel (AT_HWCAP2 bit 1) allow them, read the bases
 * arch_prctl sets: the thread's TLS and 0. Prints what they read
 * against arch_prctl's answers, or that they are not allowed. */
#define _GNU_SOURCE
#include <asm/prctl.h>
#include <stdint.h>
#include <stdio.h>
#include <sys/auxv.h>
#include <sys/syscall.h>
#include <unistd.h>

int main(void) {
  if (!(getauxval(AT_HWCAP2) & 2)) {
    puts("fsbase: not allowed");
    return 0;
  }
  uint64_t fs = 0, gs = 1, want = 0;
  __asm__ volatile("rdfsbase %0" : "=r"(fs));
  __asm__ volatile("rdgsbase %0" : "=r"(gs));
  syscall(SYS_arch_prctl, ARCH_GET_FS, &want);
  uint32_t fs32;
  __asm__ volatile("rdfsbase %0" : "=r"(fs32));
  printf("fsbase: fs %d, gs %lu, low half %d\n", fs == want && fs != 0,
         (unsigned long)gs, fs32 == (uint32_t)want);
  return 0;
}
