/* SPDX-License-Identifier: MIT */
/* Timer signals interrupt a busy loop on a volatile counter, after a call
 * that saved the registers with XSAVEC into a buffer on its stack, as the
 * dynamic linker's lazy-binding trampoline does: that buffer is dead stack
 * below main's frame when the signals come. Every XMM register was zeroed
 * by a move from a general register, not by a zeroing idiom: this AMD
 * processor then counts the SSE component as in use (XSTATE_BV bit 1), the
 * emulator does not, and the headers they write differ. The digest that
 * finds the signals' points must not depend on those bytes
 * (docs/design-notes.md, "Dead stack").
 *
 *   deadstack [TICKS]   prints "N ticks, xsavec" (or "no xsavec" where
 *                       the CPU lacks it) after TICKS (default 10)
 *                       SIGALRMs 2 ms apart */
#include <cpuid.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/time.h>

static volatile sig_atomic_t ticks;
static int want = 10;

/* Counts a tick; the last one ignores the rest, so a signal that arrives
 * between the loop's end and the timer's disarming cannot count. */
static void on_tick(int sig) {
  if (++ticks == want) signal(sig, SIG_IGN);
}

/* Zeroes xmm0..xmm15 with movq from a zero register. */
__attribute__((noinline)) static void zero_xmm(void) {
  __asm__ volatile(
      "xor %%eax, %%eax\n\t"
      "movq %%rax, %%xmm0\n\tmovq %%rax, %%xmm1\n\t"
      "movq %%rax, %%xmm2\n\tmovq %%rax, %%xmm3\n\t"
      "movq %%rax, %%xmm4\n\tmovq %%rax, %%xmm5\n\t"
      "movq %%rax, %%xmm6\n\tmovq %%rax, %%xmm7\n\t"
      "movq %%rax, %%xmm8\n\tmovq %%rax, %%xmm9\n\t"
      "movq %%rax, %%xmm10\n\tmovq %%rax, %%xmm11\n\t"
      "movq %%rax, %%xmm12\n\tmovq %%rax, %%xmm13\n\t"
      "movq %%rax, %%xmm14\n\tmovq %%rax, %%xmm15\n\t"
      :
      :
      : "rax", "xmm0", "xmm1", "xmm2", "xmm3", "xmm4", "xmm5", "xmm6",
        "xmm7", "xmm8", "xmm9", "xmm10", "xmm11", "xmm12", "xmm13",
        "xmm14", "xmm15");
}

/* Saves the x87 and SSE components with XSAVEC on this frame. */
__attribute__((noinline)) static void save_state(void) {
  unsigned char area[1024] __attribute__((aligned(64)));
  __asm__ volatile("xsavec %0" : "=m"(area) : "a"(3), "d"(0) : "memory");
}

static int have_xsavec(void) {
  unsigned a, b, c, d;
  if (!__get_cpuid(1, &a, &b, &c, &d) || !(c & bit_OSXSAVE)) return 0;
  return __get_cpuid_count(0xd, 1, &a, &b, &c, &d) && (a & 2);
}

int main(int argc, char **argv) {
  struct itimerval it = {{0, 2000}, {0, 2000}};
  struct sigaction sa = {0};
  int xsavec = have_xsavec();
  if (argc > 1) want = atoi(argv[1]);
  sa.sa_handler = on_tick;
  if (sigaction(SIGALRM, &sa, NULL)) {
    perror("deadstack: sigaction");
    return 1;
  }
  zero_xmm();
  if (xsavec) save_state();
  if (setitimer(ITIMER_REAL, &it, NULL)) {
    perror("deadstack: setitimer");
    return 1;
  }
  while (ticks < want) {
  }
  it.it_value.tv_usec = it.it_interval.tv_usec = 0;
  setitimer(ITIMER_REAL, &it, NULL);
  printf("%d ticks, %s\n", (int)ticks, xsavec ? "xsavec" : "no xsavec");
  return 0;
}
