/* SPDX-License-Identifier: MIT */
/* Threads benchmark workload (bench/threads/run.sh): THREADS threads (default
 * 2) take a test-and-test-and-set spin lock ROUNDS times each (default
 * 20000); the critical section is CS steps of arithmetic on shared data
 * (default 2000), and a waiter spins with `pause` and no syscall. While
 * recording, one thread runs at a time, so a waiter whose holder was
 * preempted inside the critical section spins until its own timeslice
 * ends. Prints a checksum. */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>

static int lock_word;
static unsigned long shared[16];
static long rounds, cs;

static void *worker(void *arg) {
  unsigned long x = (unsigned long)arg + 1;
  for (long r = 0; r < rounds; r++) {
    while (__atomic_exchange_n(&lock_word, 1, __ATOMIC_ACQUIRE))
      while (__atomic_load_n(&lock_word, __ATOMIC_RELAXED))
        __builtin_ia32_pause();
    for (long k = 0; k < cs; k++) {
      x = x * 6364136223846793005ul + 1442695040888963407ul;
      shared[k & 15] += x >> 40;
    }
    __atomic_store_n(&lock_word, 0, __ATOMIC_RELEASE);
    for (int k = 0; k < 100; k++) x = x * 6364136223846793005ul + 1;
  }
  return NULL;
}

int main(int argc, char **argv) {
  int n = argc > 1 ? atoi(argv[1]) : 2;
  rounds = argc > 2 ? atol(argv[2]) : 20000;
  cs = argc > 3 ? atol(argv[3]) : 2000;
  pthread_t t[64];
  if (n < 1 || n > 64) return 2;
  for (long i = 0; i < n; i++)
    if (pthread_create(&t[i], NULL, worker, (void *)i) != 0) return 1;
  for (int i = 0; i < n; i++) pthread_join(t[i], NULL);
  unsigned long sum = 0;
  for (int i = 0; i < 16; i++) sum += shared[i];
  printf("spin: %d threads x %ld rounds, checksum %lx\n", n, rounds, sum);
  return 0;
}
