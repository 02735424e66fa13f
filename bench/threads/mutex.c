/* SPDX-License-Identifier: MIT */
/* Threads benchmark workload (bench/threads/run.sh): THREADS threads (default
 * 4) each take one pthread mutex ITERS times (default 200000), update a
 * shared table under it, and do some arithmetic outside it, so the lock is
 * contended and waits go through futex. Prints a checksum. */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>

static pthread_mutex_t mu = PTHREAD_MUTEX_INITIALIZER;
static unsigned long table[64];
static long iters;

static void *worker(void *arg) {
  unsigned long x = (unsigned long)arg * 2654435761u + 1;
  for (long i = 0; i < iters; i++) {
    for (int k = 0; k < 40; k++)
      x = x * 6364136223846793005ul + 1442695040888963407ul;
    pthread_mutex_lock(&mu);
    for (int k = 0; k < 8; k++) table[(x >> (k * 6)) & 63] += x >> 32;
    pthread_mutex_unlock(&mu);
  }
  return NULL;
}

int main(int argc, char **argv) {
  int n = argc > 1 ? atoi(argv[1]) : 4;
  iters = argc > 2 ? atol(argv[2]) : 200000;
  pthread_t t[64];
  if (n < 1 || n > 64) return 2;
  for (long i = 0; i < n; i++)
    if (pthread_create(&t[i], NULL, worker, (void *)i) != 0) return 1;
  for (int i = 0; i < n; i++) pthread_join(t[i], NULL);
  unsigned long sum = 0;
  for (int i = 0; i < 64; i++) sum += table[i];
  printf("mutex: %d threads x %ld, checksum %lx\n", n, iters, sum);
  return 0;
}
