/* SPDX-License-Identifier: MIT */
/* Test program, preempted loops whose iterations differ only in memory: two
 * threads count in memory (a global, a heap word and a local, with atomic
 * adds whose registers never change) until main, which computes meanwhile,
 * tells them to stop once both have counted. The recorder preempts them;
 * the replay finds each preemption again by its memory digest, at a
 * different iteration of a loop whose registers are the same at every
 * iteration. */
#define _GNU_SOURCE
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>

static atomic_int stop;
static atomic_ulong counter[2];

static void *spin(void *arg) {
  long k = (long)arg;
  atomic_ulong *heap = calloc(4, 4096);
  atomic_ulong local = 0;
  if (!heap) return NULL;
  while (!atomic_load_explicit(&stop, memory_order_relaxed)) {
    atomic_fetch_add_explicit(&counter[k], 1, memory_order_relaxed);
    atomic_fetch_add_explicit(&heap[1024 + 512 * k], 1,
                              memory_order_relaxed);
    atomic_fetch_add_explicit(&local, 1, memory_order_relaxed);
  }
  unsigned long n = atomic_load(&local);
  free(heap);
  return (void *)n;
}

int main(void) {
  pthread_t t[2];
  void *n[2];
  for (long i = 0; i < 2; i++) pthread_create(&t[i], NULL, spin, (void *)i);
  volatile unsigned long g = 0;
  for (unsigned long i = 0; i < 4000000; i++) g += i;
  /* Both threads must have counted before they stop: with threads run
   * one at a time and no syscall in these loops, that takes preemptions
   * however fast the computation above was. */
  while (atomic_load(&counter[0]) < 1000 || atomic_load(&counter[1]) < 1000) {
  }
  atomic_store(&stop, 1);
  for (int i = 0; i < 2; i++) pthread_join(t[i], &n[i]);
  printf("thr_memloop: %d\n", (unsigned long)n[0] == counter[0] &&
                                  (unsigned long)n[1] == counter[1]);
  return 0;
}
