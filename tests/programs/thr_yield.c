/* SPDX-License-Identifier: MIT */
/* Test program, threads: two threads take turns through sched_yield alone.
 * Each waits until both are past a barrier, then runs 200 rounds; in each
 * it checks that the other thread ran the round before (a shared "last"
 * word) and yields. The recorder runs one thread at a time and gives the
 * other ready threads their turn at every sched_yield, so under it the
 * turns strictly alternate and the program exits 0; natively, on several
 * CPUs, nothing says they do (it then counts the rounds out of turn). */
#define _GNU_SOURCE
#include <pthread.h>
#include <sched.h>
#include <stdio.h>

#define ROUNDS 200

static pthread_barrier_t start;
static volatile int ready[2];
static volatile int last = -1;
static int out_of_turn[2];

static void *play(void *arg) {
  int me = (int)(long)arg;
  pthread_barrier_wait(&start);
  ready[me] = 1;
  while (!ready[!me]) sched_yield();
  /* The first to get here plays first. */
  __sync_bool_compare_and_swap(&last, -1, !me);
  for (int i = 0; i < ROUNDS; i++) {
    if (last == me) out_of_turn[me]++;
    last = me;
    sched_yield();
  }
  return NULL;
}

int main(void) {
  pthread_t t;
  pthread_barrier_init(&start, NULL, 2);
  if (pthread_create(&t, NULL, play, (void *)1L)) return 2;
  play((void *)0L);
  pthread_join(t, NULL);
  printf("rounds out of turn: %d %d\n", out_of_turn[0], out_of_turn[1]);
  return out_of_turn[0] + out_of_turn[1] ? 1 : 0;
}
