/* SPDX-License-Identifier: MIT */
/* Test program, signals: synchronous faults caught by handlers (SIGSEGV,
 * SIGFPE, SIGILL, SIGTRAP from int3, SIGBUS), an asynchronous SIGALRM from a
 * timer while spinning, a signal sent by a child process, a handler on an
 * alternate stack, and a blocked signal released by sigprocmask. */
#define _GNU_SOURCE
#include <fcntl.h>
#include <setjmp.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/time.h>
#include <sys/wait.h>
#include <unistd.h>

static sigjmp_buf env;
static volatile sig_atomic_t got[65];
static char altstack[65536];
static volatile int on_alt;

static void jump_back(int sig) {
  got[sig]++;
  siglongjmp(env, sig);
}

static void count(int sig, siginfo_t *si, void *uc) {
  (void)si, (void)uc;
  char here;
  got[sig]++;
  if (&here >= altstack && &here < altstack + sizeof altstack) on_alt = 1;
}

static void catch(int sig, void (*fn)(int)) {
  struct sigaction sa;
  memset(&sa, 0, sizeof sa);
  sa.sa_handler = fn;
  sigaction(sig, &sa, NULL);
}

int main(int argc, char **argv) {
  volatile int zero = 0;
  (void)argc, (void)argv;
  catch(SIGSEGV, jump_back);
  catch(SIGFPE, jump_back);
  catch(SIGILL, jump_back);
  catch(SIGTRAP, jump_back);
  catch(SIGBUS, jump_back);
  if (!sigsetjmp(env, 1)) *(volatile int *)16 = 1;
  if (!sigsetjmp(env, 1)) zero = 10 / zero;
  if (!sigsetjmp(env, 1)) __asm__ volatile("ud2");
  if (!sigsetjmp(env, 1)) __asm__ volatile("int3");
  char tmpl[] = "/tmp/rewind-sigbus-XXXXXX";
  int fd = mkstemp(tmpl);
  if (fd >= 0) {
    unlink(tmpl);
    char *m = mmap(NULL, 8192, PROT_READ, MAP_PRIVATE, fd, 0);
    if (m != MAP_FAILED && !sigsetjmp(env, 1)) zero = m[0];
    close(fd);
  }
  /* Asynchronous: SIGALRM from a timer while the program computes. */
  stack_t ss = {altstack, 0, sizeof altstack};
  sigaltstack(&ss, NULL);
  struct sigaction sa;
  memset(&sa, 0, sizeof sa);
  sa.sa_sigaction = count;
  sa.sa_flags = SA_SIGINFO | SA_ONSTACK | SA_RESTART;
  sigaction(SIGALRM, &sa, NULL);
  sa.sa_flags = SA_SIGINFO | SA_RESTART;
  sigaction(SIGUSR1, &sa, NULL);
  sigaction(SIGUSR2, &sa, NULL);
  struct itimerval it = {{0, 0}, {0, 20000}};
  setitimer(ITIMER_REAL, &it, NULL);
  /* The counter lives in a register, so the registers alone tell the
   * interrupted instant apart; the replay checks the memory digest only
   * there (docs/design-notes.md: a loop whose iterations differ only in
   * memory costs the replay a digest per iteration). */
  unsigned long spin = 0;
  while (!got[SIGALRM]) spin++;
  /* A signal from another process (a child), while blocked in the kernel. */
  pid_t pid = fork();
  if (pid == 0) {
    kill(getppid(), SIGUSR1);
    _exit(0);
  }
  while (!got[SIGUSR1]) usleep(1000);
  waitpid(pid, NULL, 0);
  /* Blocked, then released by sigprocmask. */
  sigset_t set, old;
  sigemptyset(&set);
  sigaddset(&set, SIGUSR2);
  sigprocmask(SIG_BLOCK, &set, &old);
  raise(SIGUSR2);
  int before = got[SIGUSR2];
  sigprocmask(SIG_SETMASK, &old, NULL);
  printf("segv %d fpe %d ill %d trap %d bus %d alrm %d alt %d usr1 %d "
         "usr2 %d/%d spun %d\n",
         got[SIGSEGV], got[SIGFPE], got[SIGILL], got[SIGTRAP], got[SIGBUS],
         got[SIGALRM], on_alt, got[SIGUSR1], before, got[SIGUSR2],
         spin > 0);
  return 0;
}
