/* SPDX-License-Identifier: MIT */
/* Test program, threads: a data race. 4 threads increment a plain `long
 * counter` 500000 times each with no lock: a load, then a store of the
 * value plus one (kept apart by compiler barriers; now and then a
 * sched_yield() between them widens the window). Natively, on more than
 * one CPU, updates are lost and the final value differs between runs; a
 * replay of one recording always reproduces the recorded value. main
 * passes it to report(), which prints it. */
#define _GNU_SOURCE
#include <pthread.h>
#include <sched.h>
#include <stdio.h>

#define THREADS 4
#define ITERS   500000

long counter; /* deliberately not atomic, not volatile, not locked */

static void *worker(void *arg) {
  (void)arg;
  for (long i = 0; i < ITERS; i++) {
    long v = counter;
    __asm__ volatile("" : "+r"(v) : : "memory");
    if (i % 100000 == 50000) sched_yield();
    counter = v + 1;
    __asm__ volatile("" : : : "memory");
  }
  return NULL;
}

__attribute__((noinline)) void report(long value) {
  printf("counter = %ld (of %d increments)\n", value, THREADS * ITERS);
}

int main(void) {
  pthread_t t[THREADS];
  for (int i = 0; i < THREADS; i++)
    if (pthread_create(&t[i], NULL, worker, NULL) != 0) return 1;
  for (int i = 0; i < THREADS; i++) pthread_join(t[i], NULL);
  report(counter);
  return 0;
}
