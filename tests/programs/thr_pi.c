/* SPDX-License-Identifier: MIT */
/* Threads contending for a priority-inheritance mutex (tests/replay/
 * threads.sh). A thread that blocks in FUTEX_LOCK_PI has the kernel set
 * FUTEX_WAITERS in the mutex's word while it sleeps; the owner sees that
 * bit without a syscall and unlocks through the kernel instead of with an
 * atomic instruction. The replay must see the bit when the owner does. */
#include <pthread.h>
#include <sched.h>
#include <stdio.h>

enum { THREADS = 3, ROUNDS = 400 };

static pthread_mutex_t lock;
static long counter;
static long turns[THREADS];

static void *worker(void *arg) {
  long id = (long)arg;
  for (int i = 0; i < ROUNDS; i++) {
    pthread_mutex_lock(&lock);
    counter++;
    turns[id]++;
    /* Let the others run while it is held: they block on it. */
    if (i % 4 == 0) sched_yield();
    pthread_mutex_unlock(&lock);
  }
  return NULL;
}

int main(void) {
  pthread_mutexattr_t a;
  pthread_mutexattr_init(&a);
  if (pthread_mutexattr_setprotocol(&a, PTHREAD_PRIO_INHERIT)) {
    printf("no PI mutexes\n");
    return 0;
  }
  pthread_mutex_init(&lock, &a);
  pthread_t th[THREADS];
  for (long i = 0; i < THREADS; i++)
    pthread_create(&th[i], NULL, worker, (void *)i);
  for (int i = 0; i < THREADS; i++) pthread_join(th[i], NULL);
  printf("pi: counter %ld\n", counter);
  fprintf(stderr, "turns: %ld %ld %ld\n", turns[0], turns[1], turns[2]);
  return 0;
}
