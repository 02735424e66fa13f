/* SPDX-License-Identifier: MIT */
/* Test program, a crash in a thread: two threads wait in pause(), main in
 * pthread_join, while a third computes and then writes to address 8. The
 * process is killed by SIGSEGV; the replay runs the faulting thread to its
 * fault, which ends the history, with every thread still listed. */
#define _GNU_SOURCE
#include <pthread.h>
#include <stdio.h>
#include <unistd.h>

static volatile int go;

static void *waiter(void *arg) {
  (void)arg;
  pthread_setname_np(pthread_self(), "waiter");
  for (;;) pause();
  return NULL;
}

static void *crasher(void *arg) {
  (void)arg;
  pthread_setname_np(pthread_self(), "crasher");
  volatile unsigned long x = 0;
  for (unsigned long i = 0; i < 1000000; i++) x += i;
  while (!go) sched_yield();
  *(volatile int *)(8 + (x & 0)) = 1;
  return NULL;
}

int main(void) {
  pthread_t a, b, c;
  pthread_create(&a, NULL, waiter, NULL);
  pthread_create(&b, NULL, waiter, NULL);
  pthread_create(&c, NULL, crasher, NULL);
  printf("thr_crash: go\n");
  fflush(stdout);
  go = 1;
  pthread_join(c, NULL);
  return 0;
}
