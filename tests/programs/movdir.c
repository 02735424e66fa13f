/* SPDX-License-Identifier: MIT */
/* Test program, movdir: the direct stores MOVDIRI (at every alignment, 32
 * and 64 bits) and MOVDIR64B (from an unaligned source; to a destination
 * that is not 64-byte aligned, which raises #GP, delivered as SIGSEGV and
 * caught here), with a checksum of what they wrote. On a CPU without them
 * (CPUID 7 ECX bits 27 and 28) it says so and exits 0. */
#include <cpuid.h>
#include <setjmp.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>

static sigjmp_buf back;
static volatile int code;

static void on_segv(int sig, siginfo_t *si, void *uc) {
  (void)sig;
  (void)uc;
  code = si->si_code;
  siglongjmp(back, 1);
}

static _Alignas(64) unsigned char dst[256];

int main(void) {
  unsigned a, b, c, d;
  if (!__get_cpuid_count(7, 0, &a, &b, &c, &d) || !((c >> 27) & 1) ||
      !((c >> 28) & 1)) {
    puts("no MOVDIRI/MOVDIR64B");
    return 0;
  }
  struct sigaction sa = {0};
  sa.sa_sigaction = on_segv;
  sa.sa_flags = SA_SIGINFO;
  sigaction(SIGSEGV, &sa, NULL);
  for (int off = 0; off < 16; off++) {
    uint64_t q = 0x0102030405060708ull * (unsigned)(off + 1);
    uint32_t v = 0xa1b2c3d4u ^ (unsigned)off;
    __asm__ volatile("movdiri %1, (%0)" : : "r"(dst + off), "r"(q) : "memory");
    __asm__ volatile("movdiri %1, (%0)"
                     :
                     : "r"(dst + 32 + off), "r"(v)
                     : "memory");
  }
  unsigned char src[80];
  for (int i = 0; i < 80; i++) src[i] = (unsigned char)(i * 7 + 5);
  int faults = 0, first = 0;
  for (int off = 0; off <= 64; off += 8) {
    code = 0;
    if (!sigsetjmp(back, 1))
      __asm__ volatile("movdir64b (%1), %0"
                       :
                       : "r"(dst + 128 + off), "r"(src + 1 + off / 8)
                       : "memory");
    if (code && !faults++) first = code;
  }
  uint64_t h = 0xcbf29ce484222325ull;
  for (int i = 0; i < 256; i++) h = (h ^ dst[i]) * 0x100000001b3ull;
  printf("movdir %016llx, %d faults (si_code %d)\n", (unsigned long long)h,
         faults, first);
  return 0;
}
