/* SPDX-License-Identifier: MIT */
/* Dispositions the recorder's traps must not change (recorder/forced.c):
 * rdtsc runs where SIGSEGV and SIGTRAP are blocked or ignored, and the
 * program then checks that its handlers, its ignored signal and its mask
 * are as it left them, and that a real fault still reaches its handler.
 * Last, it execs itself (argument "after") with both signals blocked and
 * left at SIG_DFL: ld.so's rdtsc and one of its own run there, and the
 * mask must still have them. Prints the same lines natively and recorded
 * (tests/recorder/rdtsc.sh). */
#define _GNU_SOURCE
#include <pthread.h>
#include <setjmp.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>
#include <x86intrin.h>

static sigjmp_buf jb;
static volatile int traps;

static void on_segv(int s) {
  (void)s;
  siglongjmp(jb, 1);
}

static void on_trap(int s) {
  (void)s;
  traps++;
}

static void handle(int sig, void (*fn)(int)) {
  struct sigaction sa;
  memset(&sa, 0, sizeof sa);
  sa.sa_handler = fn;
  sigaction(sig, &sa, NULL);
}

static int kept(int sig, void (*fn)(int)) {
  struct sigaction cur;
  sigaction(sig, NULL, &cur);
  return cur.sa_handler == fn;
}

/* A thread that blocks every signal around an rdtsc, then faults. */
static void *blocked_all(void *arg) {
  (void)arg;
  sigset_t all, old, now;
  sigfillset(&all);
  pthread_sigmask(SIG_BLOCK, &all, &old);
  volatile unsigned long t = __rdtsc();
  (void)t;
  pthread_sigmask(SIG_SETMASK, NULL, &now);
  printf("thread: SIGSEGV %s, SIGTRAP %s after rdtsc\n",
         sigismember(&now, SIGSEGV) ? "blocked" : "unblocked",
         sigismember(&now, SIGTRAP) ? "blocked" : "unblocked");
  pthread_sigmask(SIG_SETMASK, &old, NULL);
  if (sigsetjmp(jb, 1) == 0) {
    *(volatile int *)0 = 1;
    printf("thread: no fault\n");
  } else {
    printf("thread: the fault reached the handler\n");
  }
  return NULL;
}

/* After the exec: the mask the exec kept, after an rdtsc. */
static int after_exec(void) {
  volatile unsigned long v = __rdtsc();
  (void)v;
  sigset_t now;
  sigprocmask(SIG_SETMASK, NULL, &now);
  printf("after exec: SIGSEGV %s, SIGTRAP %s\n",
         sigismember(&now, SIGSEGV) ? "blocked" : "unblocked",
         sigismember(&now, SIGTRAP) ? "blocked" : "unblocked");
  return 0;
}

int main(int argc, char **argv) {
  setvbuf(stdout, NULL, _IOLBF, 0);
  if (argc > 1 && !strcmp(argv[1], "after")) return after_exec();
  handle(SIGSEGV, on_segv);
  handle(SIGTRAP, on_trap);
  pthread_t t;
  pthread_create(&t, NULL, blocked_all, NULL);
  pthread_join(t, NULL);
  printf("handlers kept: SIGSEGV %d, SIGTRAP %d\n", kept(SIGSEGV, on_segv),
         kept(SIGTRAP, on_trap));
  raise(SIGTRAP);
  printf("SIGTRAP handled %d time(s)\n", traps);
  /* Ignored: an rdtsc, and SIGTRAP is still ignored. */
  handle(SIGTRAP, SIG_IGN);
  volatile unsigned long v = __rdtsc();
  (void)v;
  raise(SIGTRAP);
  printf("SIGTRAP still ignored: %d\n", kept(SIGTRAP, SIG_IGN));
  /* The main thread blocks SIGSEGV alone around an rdtsc. */
  sigset_t one, old, now;
  sigemptyset(&one);
  sigaddset(&one, SIGSEGV);
  sigprocmask(SIG_BLOCK, &one, &old);
  v = __rdtsc();
  sigprocmask(SIG_SETMASK, NULL, &now);
  printf("main: SIGSEGV %s after rdtsc\n",
         sigismember(&now, SIGSEGV) ? "blocked" : "unblocked");
  sigprocmask(SIG_SETMASK, &old, NULL);
  printf("handler kept: SIGSEGV %d\n", kept(SIGSEGV, on_segv));
  handle(SIGSEGV, SIG_DFL);
  handle(SIGTRAP, SIG_DFL);
  sigaddset(&one, SIGTRAP);
  sigprocmask(SIG_BLOCK, &one, NULL);
  char *again[] = {argv[0], "after", NULL};
  execv("/proc/self/exe", again);
  perror("forcedsig: execv");
  return 1;
}
