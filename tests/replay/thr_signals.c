/* SPDX-License-Identifier: MIT */
/* Test program, asynchronous signals among threads: a 3 ms interval timer
 * sends SIGALRM to the process while three threads run a multiply loop and
 * main waits for 20 ticks. The recorder preempts the threads (anywhere in
 * the loop, also just after an imul, whose SF, ZF, AF and PF are undefined
 * and differ between CPUs and the emulator) and delivers the signals to
 * whichever thread the kernel chose. */
#define _GNU_SOURCE
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/time.h>

static volatile int ticks, stop;
static volatile unsigned long work[3];

static void on_alarm(int sig) {
  (void)sig;
  ticks++;
}

static void *spin(void *arg) {
  long k = (long)arg;
  unsigned long x = (unsigned long)k;
  while (!stop) {
    x = x * 6364136223846793005ull + 1;
    work[k] = x;
  }
  return NULL;
}

int main(void) {
  struct sigaction sa;
  memset(&sa, 0, sizeof sa);
  sa.sa_handler = on_alarm;
  sa.sa_flags = SA_RESTART;
  sigaction(SIGALRM, &sa, NULL);
  struct itimerval it = {{0, 3000}, {0, 3000}};
  setitimer(ITIMER_REAL, &it, NULL);
  pthread_t t[3];
  for (long i = 0; i < 3; i++) pthread_create(&t[i], NULL, spin, (void *)i);
  while (ticks < 20) continue;
  stop = 1;
  for (int i = 0; i < 3; i++) pthread_join(t[i], NULL);
  printf("thr_signals: %d\n", ticks >= 20);
  return 0;
}
