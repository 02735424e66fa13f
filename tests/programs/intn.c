/* SPDX-License-Identifier: MIT */
/* Test program, intn: `int n` as a user program meets it. int 0x81 (a
 * vector with no user-mode gate) faults with SIGSEGV at the instruction;
 * `int 3` in its two-byte form (CD 03) traps like int3, with SIGTRAP after
 * it. Both are caught here; prints what the handlers saw. */
#define _GNU_SOURCE
#include <setjmp.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <ucontext.h>

static sigjmp_buf back;
static volatile int sig, code;
static volatile unsigned char at[2];

static void on_sig(int s, siginfo_t *si, void *uc) {
  const ucontext_t *u = uc;
  const unsigned char *pc =
      (const unsigned char *)u->uc_mcontext.gregs[REG_RIP];
  sig = s;
  code = si->si_code;
  at[0] = pc[0];
  at[1] = pc[1];
  if (s == SIGSEGV) siglongjmp(back, 1);
}

int main(void) {
  struct sigaction sa;
  memset(&sa, 0, sizeof sa);
  sa.sa_sigaction = on_sig;
  sa.sa_flags = SA_SIGINFO;
  sigaction(SIGSEGV, &sa, NULL);
  sigaction(SIGTRAP, &sa, NULL);
  if (!sigsetjmp(back, 1)) __asm__ volatile("int $0x81");
  printf("int 0x81: signal %d code %d at %02x %02x\n", sig, code, at[0],
         at[1]);
  __asm__ volatile(".byte 0xcd, 0x03\n\tnop");
  printf("int 3: signal %d code %d at %02x\n", sig, code, at[0]);
  return 0;
}
