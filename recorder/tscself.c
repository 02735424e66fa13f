/* SPDX-License-Identifier: MIT */
/* The recorder traps rdtsc for itself too while it records. Linux turns the
 * time-stamp counter off and on (a CR4 write, a VM exit on a virtual
 * machine) whenever it switches between a task that traps rdtsc and one that
 * does not; with PROG trapping and rewind not, every ptrace stop paid two of
 * them, doubling its cost. When rewind itself executes rdtsc (the vDSO's
 * clock_gettime does), its SIGSEGV handler lends it the counter until the
 * event loop takes it back. */
#define _GNU_SOURCE
#include <signal.h>
#include <string.h>
#include <sys/prctl.h>
#include <ucontext.h>
#include <x86intrin.h>

#include "recorder/rec_int.h"

static volatile sig_atomic_t lent; /* 1: rdtsc works for rewind right now */
static int armed;
static struct sigaction old_segv;

static void on_segv(int sig, siginfo_t *si, void *ucv) {
  ucontext_t *uc = ucv;
  const u8 *ip = (const u8 *)(uintptr_t)uc->uc_mcontext.gregs[REG_RIP];
  (void)si;
  if (armed && ip && ip[0] == 0x0f &&
      (ip[1] == 0x31 || (ip[1] == 0x01 && ip[2] == 0xf9))) {
    prctl(PR_SET_TSC, PR_TSC_ENABLE, 0, 0, 0);
    lent = 1;
    return; /* the instruction runs again, now allowed */
  }
  /* A real fault of rewind: let it kill us as it would have. */
  sigaction(sig, &old_segv, NULL);
}

void rec__tsc_self(int on) {
  if (on && !armed) {
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_sigaction = on_segv;
    sa.sa_flags = SA_SIGINFO | SA_NODEFER;
    sigaction(SIGSEGV, &sa, &old_segv);
    armed = 1;
    lent = 0;
    prctl(PR_SET_TSC, PR_TSC_SIGSEGV, 0, 0, 0);
  } else if (!on && armed) {
    prctl(PR_SET_TSC, PR_TSC_ENABLE, 0, 0, 0);
    sigaction(SIGSEGV, &old_segv, NULL);
    armed = 0;
  }
}

void rec__tsc_self_rearm(void) {
  if (armed && lent) {
    lent = 0;
    prctl(PR_SET_TSC, PR_TSC_SIGSEGV, 0, 0, 0);
  }
}

u64 rec__tsc_read(int is_p, u32 *aux) {
  unsigned a = 0;
  if (armed && !lent) prctl(PR_SET_TSC, PR_TSC_ENABLE, 0, 0, 0);
  u64 v = is_p ? __rdtscp(&a) : __rdtsc();
  if (armed && !lent) prctl(PR_SET_TSC, PR_TSC_SIGSEGV, 0, 0, 0);
  *aux = a;
  return v;
}
