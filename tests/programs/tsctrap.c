/* SPDX-License-Identifier: MIT */
/* Test program, tsctrap: the program asks for rdtsc to fault itself
 * (prctl PR_SET_TSC, PR_TSC_SIGSEGV), as a sandbox might. Its SIGSEGV
 * handler counts the faults and steps over the instruction; a fork child
 * reads the mode back and must fault too. Prints the modes and counts,
 * which must be the same recorded as run natively (on a machine whose
 * hypervisor ignores the trap, natively and recorded alike, it says
 * "no trap"). With argument "fatal", the last rdtsc has no handler: the
 * program dies of SIGSEGV. */
#define _GNU_SOURCE
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <ucontext.h>
#include <unistd.h>
#include <x86intrin.h>

static volatile int faults;

static void on_segv(int sig, siginfo_t *si, void *ctx) {
  ucontext_t *uc = ctx;
  (void)sig;
  faults++;
  if (si->si_code != 128) _exit(3); /* SI_KERNEL: the #GP of rdtsc */
  uc->uc_mcontext.gregs[REG_RIP] += 2; /* over rdtsc */
  uc->uc_mcontext.gregs[REG_RAX] = 7;
  uc->uc_mcontext.gregs[REG_RDX] = 0;
}

int main(int argc, char **argv) {
  struct sigaction sa;
  int mode = -1;
  memset(&sa, 0, sizeof sa);
  sa.sa_sigaction = on_segv;
  sa.sa_flags = SA_SIGINFO;
  sigaction(SIGSEGV, &sa, NULL);
  prctl(PR_GET_TSC, &mode);
  printf("mode before %d\n", mode);
  if (prctl(PR_SET_TSC, PR_TSC_SIGSEGV) < 0) return 2;
  prctl(PR_GET_TSC, &mode);
  printf("mode after %d\n", mode);
  unsigned long long v = 0;
  for (int i = 0; i < 3; i++) v = __rdtsc();
  printf("faults %d%s\n", faults, faults ? (v == 7 ? ", value 7" : ", bad")
                                         : ", no trap");
  fflush(stdout);
  pid_t pid = fork();
  if (pid == 0) {
    int m = -1;
    prctl(PR_GET_TSC, &m);
    faults = 0;
    __rdtsc();
    printf("child mode %d faults %d\n", m, faults);
    fflush(stdout);
    _exit(0);
  }
  int st;
  waitpid(pid, &st, 0);
  prctl(PR_SET_TSC, PR_TSC_ENABLE);
  prctl(PR_GET_TSC, &mode);
  faults = 0;
  __rdtsc();
  printf("mode enabled %d faults %d\n", mode, faults);
  if (argc > 1 && !strcmp(argv[1], "fatal")) {
    fflush(stdout);
    signal(SIGSEGV, SIG_DFL);
    prctl(PR_SET_TSC, PR_TSC_SIGSEGV);
    __rdtsc();
    printf("not reached when rdtsc traps\n");
  }
  return 0;
}
