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
 *                       SIGALRMs 2 ms apart
 *   deadstack TICKS threads
 *                       the same, but the XSAVEC areas are on the stacks
 *                       of two other threads: one that ended (glibc keeps
 *                       its stack for the next thread) and one that waits
 *                       in read(2) meanwhile; first prints "areas A B",
 *                       their addresses */
#include <cpuid.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/time.h>
#include <unistd.h>

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

/* Saves the x87 and SSE components with XSAVEC on this frame; returns
 * the area's address. */
__attribute__((noinline)) static unsigned long save_state(void) {
  unsigned char area[1024] __attribute__((aligned(64)));
  __asm__ volatile("xsavec %0" : "=m"(area) : "a"(3), "d"(0) : "memory");
  return (unsigned long)area;
}

static int xsavec;
static int wake[2]; /* the waiting thread reads it */

/* A thread that leaves an XSAVEC area on its stack and ends. */
static void *ender(void *arg) {
  zero_xmm();
  *(unsigned long *)arg = xsavec ? save_state() : 0;
  return NULL;
}

/* One that leaves an area, then waits in read until main is done. */
static void *waiter(void *arg) {
  zero_xmm();
  *(unsigned long *)arg = xsavec ? save_state() : 0;
  char c;
  while (read(wake[0], &c, 1) < 0) {
  }
  return NULL;
}

static int have_xsavec(void) {
  unsigned a, b, c, d;
  if (!__get_cpuid(1, &a, &b, &c, &d) || !(c & bit_OSXSAVE)) return 0;
  return __get_cpuid_count(0xd, 1, &a, &b, &c, &d) && (a & 2);
}

int main(int argc, char **argv) {
  struct itimerval it = {{0, 2000}, {0, 2000}};
  struct sigaction sa = {0};
  int threads = argc > 2 && !strcmp(argv[2], "threads");
  pthread_t tw = 0;
  xsavec = have_xsavec();
  if (argc > 1) want = atoi(argv[1]);
  if (threads) {
    pthread_t te;
    volatile unsigned long a = 0, b = 0;
    /* The waiter first: the one that ends then gets a stack of its own,
     * which glibc keeps when it has ended. */
    if (pipe(wake) || pthread_create(&tw, NULL, waiter, (void *)&b)) {
      perror("deadstack: threads");
      return 1;
    }
    while (!b && xsavec) {
    }
    if (pthread_create(&te, NULL, ender, (void *)&a) ||
        pthread_join(te, NULL)) {
      perror("deadstack: threads");
      return 1;
    }
    printf("areas %lx %lx\n", a, b);
    fflush(stdout);
  }
  sa.sa_handler = on_tick;
  if (sigaction(SIGALRM, &sa, NULL)) {
    perror("deadstack: sigaction");
    return 1;
  }
  zero_xmm();
  if (xsavec && !threads) save_state();
  if (setitimer(ITIMER_REAL, &it, NULL)) {
    perror("deadstack: setitimer");
    return 1;
  }
  while (ticks < want) {
  }
  it.it_value.tv_usec = it.it_interval.tv_usec = 0;
  setitimer(ITIMER_REAL, &it, NULL);
  printf("%d ticks, %s\n", (int)ticks, xsavec ? "xsavec" : "no xsavec");
  if (tw && (write(wake[1], "x", 1) != 1 || pthread_join(tw, NULL))) {
    perror("deadstack: join");
    return 1;
  }
  return 0;
}
