/* SPDX-License-Identifier: MIT */
/* Test program, badstack: an instruction faults (ud2, SIGILL) while the
 * stack pointer points at nothing; the kernel cannot write the SIGILL
 * frame there and sends SIGSEGV instead (si_code SI_KERNEL), which a
 * handler takes on an alternate stack and answers by stepping over the
 * ud2 and giving the thread its stack back (rax holds it). Returning with
 * the bad stack would not do on every kernel: on Linux 6.18 another
 * SIGSEGV (SI_KERNEL) comes at once, before the next instruction runs, at
 * every return, forever (measured). Prints which signal arrived, with
 * what code. */
#define _GNU_SOURCE
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <ucontext.h>

static char altstack[64 * 1024];
static volatile int got_sig, got_code;

static void handler(int sig, siginfo_t *si, void *ctx) {
  ucontext_t *uc = ctx;
  got_sig = sig;
  got_code = si->si_code;
  uc->uc_mcontext.gregs[REG_RIP] += 2; /* over ud2 */
  uc->uc_mcontext.gregs[REG_RSP] = uc->uc_mcontext.gregs[REG_RAX];
}

int main(void) {
  stack_t ss = {.ss_sp = altstack, .ss_size = sizeof altstack};
  struct sigaction sa;
  sigaltstack(&ss, NULL);
  memset(&sa, 0, sizeof sa);
  sa.sa_sigaction = handler;
  sa.sa_flags = SA_SIGINFO | SA_NODEFER;
  sigaction(SIGILL, &sa, NULL); /* on the (bad) stack of the thread */
  sa.sa_flags |= SA_ONSTACK;
  sigaction(SIGSEGV, &sa, NULL);
  __asm__ volatile("mov %%rsp, %%rax\n\t"
                   "mov $0x7ff00000dead0, %%rsp\n\t"
                   "ud2\n\t"
                   "mov %%rax, %%rsp"
                   :
                   :
                   : "rax", "memory");
  printf("badstack: signal %d code %d\n", got_sig, got_code);
  return got_sig == SIGSEGV && got_code == 128 ? 0 : 1;
}
