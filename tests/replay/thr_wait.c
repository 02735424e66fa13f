/* SPDX-License-Identifier: MIT */
/* Test program, threads that block in the same syscall for the first
 * time: WAITERS threads wait at a barrier that main reaches only after
 * they all wait there (a sleep). The first of them back from its futex
 * wait has the recorder patch that syscall's site (the syscall buffer);
 * the replay runs the others' code up to the site after that patch, as
 * their waits end, and analyze counts must still place their runs as
 * the code they ran. Prints "wait ok". */
#include <pthread.h>
#include <stdio.h>
#include <time.h>

#define WAITERS 3

static pthread_barrier_t gate;

static void *waiter(void *arg) {
  (void)arg;
  pthread_barrier_wait(&gate);
  return NULL;
}

int main(void) {
  pthread_t t[WAITERS];
  pthread_barrier_init(&gate, NULL, WAITERS + 1);
  for (int i = 0; i < WAITERS; i++)
    if (pthread_create(&t[i], NULL, waiter, NULL)) return 1;
  struct timespec ts = {0, 100 * 1000 * 1000};
  nanosleep(&ts, NULL);
  pthread_barrier_wait(&gate);
  for (int i = 0; i < WAITERS; i++) pthread_join(t[i], NULL);
  puts("wait ok");
  return 0;
}
