/* SPDX-License-Identifier: MIT */
/* Test program: asks the kernel for AMX's tile data (arch_prctl
 * ARCH_REQ_XCOMP_PERM for XSAVE component 18), as a program does before
 * its first AMX instruction, and runs none. Prints "granted" or
 * "refused" and exits 0. */
#include <stdio.h>
#include <sys/syscall.h>
#include <unistd.h>

int main(void) {
  long r = syscall(SYS_arch_prctl, 0x1023 /* ARCH_REQ_XCOMP_PERM */, 18);
  puts(r == 0 ? "granted" : "refused");
  return 0;
}
