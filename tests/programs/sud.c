/* SPDX-License-Identifier: MIT */
/* Syscall user dispatch (Linux 5.11): while the selector byte says BLOCK,
 * a syscall does not reach the kernel; the thread gets SIGSYS instead, and
 * its handler answers in the saved rax. Used by Wine and by sandboxes.
 * Four getppid calls are answered by the handler (1000 + their order),
 * then a real getpid runs with the selector at ALLOW. Prints what the
 * handler saw and what the calls returned; exit 0 when the kernel has no
 * syscall user dispatch (it says so). */
#define _GNU_SOURCE
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <ucontext.h>
#include <unistd.h>

#ifndef PR_SET_SYSCALL_USER_DISPATCH
#define PR_SET_SYSCALL_USER_DISPATCH 59
#define PR_SYS_DISPATCH_OFF 0
#define PR_SYS_DISPATCH_ON 1
#endif
#define SELECTOR_ALLOW 0
#define SELECTOR_BLOCK 1

static volatile char selector = SELECTOR_ALLOW;
static int seen_nr[8], seen_code[8], n;

static void on_sigsys(int sig, siginfo_t *si, void *ctx) {
  ucontext_t *uc = ctx;
  (void)sig;
  /* The handler's own return (rt_sigreturn) must reach the kernel. */
  selector = SELECTOR_ALLOW;
  if (n < 8) {
    seen_nr[n] = si->si_syscall;
    seen_code[n] = si->si_code;
  }
  uc->uc_mcontext.gregs[REG_RAX] = 1000 + n++;
}

int main(void) {
  struct sigaction sa;
  long got[4];
  memset(&sa, 0, sizeof sa);
  sa.sa_sigaction = on_sigsys;
  sa.sa_flags = SA_SIGINFO;
  sigaction(SIGSYS, &sa, NULL);
  if (prctl(PR_SET_SYSCALL_USER_DISPATCH, PR_SYS_DISPATCH_ON, 0, 0,
            &selector) < 0) {
    printf("sud: not supported (%s)\n", strerror(errno));
    return 0;
  }
  for (int i = 0; i < 4; i++) {
    selector = SELECTOR_BLOCK;
    got[i] = syscall(SYS_getppid);
  }
  long pid = syscall(SYS_getpid);
  prctl(PR_SET_SYSCALL_USER_DISPATCH, PR_SYS_DISPATCH_OFF, 0, 0, 0);
  printf("sud: %d dispatched:", n);
  for (int i = 0; i < n && i < 8; i++)
    printf(" nr %d code %d", seen_nr[i], seen_code[i]);
  printf("\nsud: answers %ld %ld %ld %ld, getpid %s\n", got[0], got[1],
         got[2], got[3], pid == getpid() ? "real" : "wrong");
  return n == 4 && got[3] == 1003 ? 0 : 1;
}
