/* SPDX-License-Identifier: MIT */
/* Test program, clflush: the cache line flushes the JVM runs (clflush,
 * and clflushopt and clwb where CPUID 7 EBX bits 23 and 24 say so) on
 * data just written, on the program's own code, and on an address no
 * longer mapped, which faults like a byte load: SIGSEGV with SEGV_MAPERR
 * at that address, caught here. Prints what it saw. */
#include <cpuid.h>
#include <setjmp.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>

static sigjmp_buf back;
static volatile int code;
static void *volatile addr;

static void on_segv(int sig, siginfo_t *si, void *uc) {
  (void)sig;
  (void)uc;
  code = si->si_code;
  addr = si->si_addr;
  siglongjmp(back, 1);
}

static _Alignas(64) unsigned char data[256];

int main(void) {
  unsigned a, b, c, d;
  int opt = 0, wb = 0;
  if (__get_cpuid_count(7, 0, &a, &b, &c, &d)) {
    opt = (b >> 23) & 1;
    wb = (b >> 24) & 1;
  }
  unsigned sum = 0;
  for (int i = 0; i < 256; i++) {
    data[i] = (unsigned char)(i * 5 + 3);
    if (i % 64 == 63) {
      __asm__ volatile("clflush %0" : "+m"(data[i - 63]));
      if (opt) __asm__ volatile("clflushopt %0" : "+m"(data[i - 10]));
      if (wb) __asm__ volatile("clwb %0" : "+m"(data[i - 20]));
    }
  }
  __asm__ volatile("mfence" ::: "memory");
  for (int i = 0; i < 256; i++) sum = sum * 31 + data[i];
  __asm__ volatile("clflush (%0)" ::"r"((void *)main) : "memory");

  struct sigaction sa;
  memset(&sa, 0, sizeof sa);
  sa.sa_sigaction = on_segv;
  sa.sa_flags = SA_SIGINFO;
  sigaction(SIGSEGV, &sa, NULL);
  char *gone = mmap(NULL, 4096, PROT_READ | PROT_WRITE,
                    MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  if (gone == MAP_FAILED) return 1;
  munmap(gone, 4096);
  if (!sigsetjmp(back, 1))
    __asm__ volatile("clflush 24(%0)" ::"r"(gone) : "memory");
  printf("clflush: sum %u, opt %d, wb %d, fault code %d at +%ld\n", sum, opt,
         wb, code, (long)((char *)addr - gone));
  return code == SEGV_MAPERR && addr == gone + 24 ? 0 : 1;
}
