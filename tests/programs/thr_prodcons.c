/* SPDX-License-Identifier: MIT */
/* Test program, threads: a bounded buffer of 4 slots shared by 2 producers
 * and 2 consumers through one pthread mutex and two condition variables,
 * so the threads block in futex waits and wake each other all the time.
 * The producers put the numbers 1..1000 once each, the consumers sum what
 * they take; main ends them with one -1 each. The consumer that takes 700
 * calls milestone(), once per run, for the debugger tests to stop at.
 * The output is the same on every run. */
#define _GNU_SOURCE
#include <pthread.h>
#include <stdio.h>
#include <sys/prctl.h>

#define SLOTS        4
#define PER_PRODUCER 500

static int slot[SLOTS];
static int head, tail, used;
static pthread_mutex_t mu = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t not_full = PTHREAD_COND_INITIALIZER;
static pthread_cond_t not_empty = PTHREAD_COND_INITIALIZER;
static long sums[2];
static int taken[2];
static volatile int milestone_seen;

__attribute__((noinline)) static void put(int v) {
  pthread_mutex_lock(&mu);
  while (used == SLOTS) pthread_cond_wait(&not_full, &mu);
  slot[tail] = v;
  tail = (tail + 1) % SLOTS;
  used++;
  pthread_cond_signal(&not_empty);
  pthread_mutex_unlock(&mu);
}

__attribute__((noinline)) static int take(void) {
  pthread_mutex_lock(&mu);
  while (used == 0) pthread_cond_wait(&not_empty, &mu);
  int v = slot[head];
  head = (head + 1) % SLOTS;
  used--;
  pthread_cond_signal(&not_full);
  pthread_mutex_unlock(&mu);
  return v;
}

/* Called once, by the consumer that takes item 700. */
__attribute__((noinline)) static int milestone(int item, long sum) {
  milestone_seen = item;
  return (int)(sum % 1000) + item;
}

static void *producer(void *arg) {
  int id = (int)(long)arg;
  char name[16];
  snprintf(name, sizeof name, "producer-%d", id);
  prctl(PR_SET_NAME, name);
  for (int i = 1; i <= PER_PRODUCER; i++) put(id * PER_PRODUCER + i);
  return NULL;
}

static void *consumer(void *arg) {
  int id = (int)(long)arg;
  char name[16];
  snprintf(name, sizeof name, "consumer-%d", id);
  prctl(PR_SET_NAME, name);
  long sum = 0;
  int n = 0;
  for (;;) {
    int item = take();
    if (item < 0) break;
    if (item == 700) milestone(item, sum);
    sum += item;
    n++;
  }
  sums[id] = sum;
  taken[id] = n;
  return NULL;
}

int main(void) {
  pthread_t p[2], c[2];
  for (long i = 0; i < 2; i++) {
    if (pthread_create(&c[i], NULL, consumer, (void *)i) != 0) return 1;
    if (pthread_create(&p[i], NULL, producer, (void *)i) != 0) return 1;
  }
  for (int i = 0; i < 2; i++) pthread_join(p[i], NULL);
  put(-1);
  put(-1);
  for (int i = 0; i < 2; i++) pthread_join(c[i], NULL);
  printf("prodcons: %d items, sum %ld, milestone %d\n", taken[0] + taken[1],
         sums[0] + sums[1], milestone_seen);
  return 0;
}
