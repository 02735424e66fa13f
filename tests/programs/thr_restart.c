/* SPDX-License-Identifier: MIT */
/* A sleeping thread that the kernel restarts (tests/replay/threads.sh).
 * SIGCHLD, blocked in the main thread, wakes the other thread in its
 * nanosleep: with no handler the kernel continues the sleep through
 * restart_syscall, which blocks like the nanosleep it continues while the
 * main thread runs on. Then a handled SIGUSR1 ends the sleep with EINTR,
 * and restart_syscall writes the time left, as nanosleep would. */
#include <errno.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

static struct timespec left = {-1, -1};
static int slept_rc, slept_errno;

static void on_usr1(int sig) { (void)sig; }

static void *sleeper(void *arg) {
  (void)arg;
  struct timespec ts = {30, 0};
  slept_rc = nanosleep(&ts, &left);
  slept_errno = errno;
  return NULL;
}

int main(void) {
  sigset_t chld;
  sigemptyset(&chld);
  sigaddset(&chld, SIGCHLD);
  signal(SIGUSR1, on_usr1);
  pthread_t th;
  pthread_create(&th, NULL, sleeper, NULL);
  pthread_sigmask(SIG_BLOCK, &chld, NULL); /* SIGCHLD goes to the sleeper */
  struct timespec nap = {0, 100 * 1000 * 1000};
  nanosleep(&nap, NULL);
  pid_t child = fork();
  if (child == 0) _exit(7);
  int st = 0;
  waitpid(child, &st, 0);
  nanosleep(&nap, NULL);
  pthread_kill(th, SIGUSR1);
  pthread_join(th, NULL);
  printf("child %d, sleep %d %s, time left sane %d\n", WEXITSTATUS(st),
         slept_rc, slept_errno == EINTR ? "EINTR" : "other",
         left.tv_sec >= 20 && left.tv_sec < 30 && left.tv_nsec >= 0);
  return 0;
}
