/* SPDX-License-Identifier: MIT */
/* Test program: a signal that becomes deliverable at the very syscall
 * whose return the recorder uses to patch the syscall's site (a site of
 * glibc's form, mov eax, NR; syscall, here the program's own, which the
 * recorder makes enter its syscall library). SIGUSR1 is blocked and
 * raised, then unblocked through such a site run for the first time: the
 * handler runs as the syscall returns, while the recorder maps the stub
 * it writes for the site. ROUNDS (argument, default 3) times, each
 * through a site of its own. Prints how often the handler ran and what
 * it saw. */
#define _GNU_SOURCE
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

static volatile int handled;
static volatile long seen;

static void on_usr1(int sig) {
  (void)sig;
  handled++;
  seen += getppid() > 0; /* a syscall of the handler's own */
}

/* rt_sigprocmask(SIG_UNBLOCK, SET, NULL, 8) through a site of its own. */
#define UNBLOCK_AT(name)                                                   \
  __attribute__((noinline)) static long name(const sigset_t *set) {       \
    long r;                                                                \
    register long r10 __asm__("r10") = 8;                                  \
    __asm__ volatile("mov $14, %%eax\n\tsyscall"                           \
                     : "=a"(r)                                             \
                     : "D"((long)SIG_UNBLOCK), "S"(set), "d"(0L),          \
                       "r"(r10)                                            \
                     : "rcx", "r11", "memory");                            \
    return r;                                                              \
  }
UNBLOCK_AT(unblock0)
UNBLOCK_AT(unblock1)
UNBLOCK_AT(unblock2)

int main(int argc, char **argv) {
  static long (*const sites[])(const sigset_t *) = {unblock0, unblock1,
                                                     unblock2};
  int rounds = argc > 1 ? atoi(argv[1]) : 3;
  sigset_t usr1;
  sigemptyset(&usr1);
  sigaddset(&usr1, SIGUSR1);
  signal(SIGUSR1, on_usr1);
  for (int i = 0; i < rounds && i < 3; i++) {
    sigprocmask(SIG_BLOCK, &usr1, NULL);
    raise(SIGUSR1);
    if (sites[i](&usr1) != 0) return 1;
    if (handled != i + 1) return 2;
  }
  printf("patchsig: handled %d, saw %ld\n", handled, seen);
  return 0;
}
