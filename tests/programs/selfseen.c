/* SPDX-License-Identifier: MIT */
/* Two things a program sees of itself that the recorder must not change
 * (tests/replay/kernel.sh): bytes it writes into its own memory with
 * process_vm_writev, and a signal it blocked before execve, which stays
 * blocked in the new image (raised there, it waits as pending). */
#define _GNU_SOURCE
#include <signal.h>
#include <stdio.h>
#include <sys/uio.h>
#include <unistd.h>

static char target[64] = "original";

int main(int argc, char **argv) {
  if (argc > 1) { /* the new image */
    sigset_t old, pend;
    sigprocmask(SIG_BLOCK, NULL, &old);
    raise(SIGUSR1);
    sigpending(&pend);
    printf("after exec: SIGUSR1 blocked %d, pending %d\n",
           sigismember(&old, SIGUSR1), sigismember(&pend, SIGUSR1));
    return 0;
  }
  char src[] = "written by process_vm_writev";
  struct iovec l = {src, sizeof src}, r = {target, sizeof src};
  long n = process_vm_writev(getpid(), &l, 1, &r, 1, 0);
  printf("process_vm_writev %ld: %s\n", n, target);
  fflush(stdout);
  sigset_t s;
  sigemptyset(&s);
  sigaddset(&s, SIGUSR1);
  sigprocmask(SIG_BLOCK, &s, NULL);
  execl("/proc/self/exe", argv[0], "again", (char *)0);
  perror("execl");
  return 1;
}
