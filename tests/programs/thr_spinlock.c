/* SPDX-License-Identifier: MIT */
/* Test program, threads: a test-and-test-and-set spin lock built on atomic
 * builtins, taken 1000 times by each of 2 threads, which start together
 * (a barrier). A waiter spins on a plain load with `pause` and makes no
 * syscall. Each round spends 1800 steps of 6 pauses (tens of us on any
 * CPU) inside the critical section and 200 pauses outside, so
 * while recording (one thread runs at a time) a holder is nearly always
 * preempted inside it, and the other thread then spins until its own
 * timeslice ends: the recorder must preempt both. A thread that had to
 * wait calls contended() with the number of spins; both threads stay
 * alive (a barrier) until both are done. The shared sum, updated only
 * under the lock, is the same on every run and is the only output. */
#define _GNU_SOURCE
#include <pthread.h>
#include <stdio.h>
#include <sys/prctl.h>

#define THREADS   2
#define ROUNDS    1000
#define CS_STEPS  1800
#define OUT_STEPS 200
#define PAUSES    6

static int lock_word; /* 0 free, 1 held */
static pthread_barrier_t start, done;
static long shared[16];
static long waits[THREADS];
static volatile long longest_spin;

static long spin_lock(int *l) {
  long spins = 0;
  while (__atomic_exchange_n(l, 1, __ATOMIC_ACQUIRE)) {
    while (__atomic_load_n(l, __ATOMIC_RELAXED)) {
      __builtin_ia32_pause();
      spins++;
    }
  }
  return spins;
}

static void spin_unlock(int *l) { __atomic_store_n(l, 0, __ATOMIC_RELEASE); }

/* Called after a wait for the lock, with the number of spins. */
__attribute__((noinline)) static void contended(int id, long spins) {
  waits[id]++;
  if (spins > longest_spin) longest_spin = spins;
}

__attribute__((noinline)) static void critical_section(int round) {
  for (int k = 0; k < CS_STEPS; k++) {
    shared[k & 15] += round + k;
    /* How long a pause takes depends on the CPU (about 5 ns on Zen 5,
     * 40 on Skylake): several keep the section long everywhere. */
    for (int p = 0; p < PAUSES; p++) __builtin_ia32_pause();
  }
}

static void *worker(void *arg) {
  int id = (int)(long)arg;
  char name[16];
  snprintf(name, sizeof name, "spinner-%d", id);
  prctl(PR_SET_NAME, name);
  /* Both spinners ready before either takes the lock: the first one must
   * not finish its rounds before the second exists. */
  pthread_barrier_wait(&start);
  for (int r = 0; r < ROUNDS; r++) {
    long spins = spin_lock(&lock_word);
    if (spins) contended(id, spins);
    critical_section(r);
    spin_unlock(&lock_word);
    for (int k = 0; k < OUT_STEPS; k++) __builtin_ia32_pause();
  }
  pthread_barrier_wait(&done);
  return NULL;
}

int main(void) {
  pthread_t t[THREADS];
  pthread_barrier_init(&start, NULL, THREADS);
  pthread_barrier_init(&done, NULL, THREADS);
  for (long i = 0; i < THREADS; i++)
    if (pthread_create(&t[i], NULL, worker, (void *)i) != 0) return 1;
  for (int i = 0; i < THREADS; i++) pthread_join(t[i], NULL);
  long total = 0;
  for (int i = 0; i < 16; i++) total += shared[i];
  long expect = 0;
  for (int r = 0; r < ROUNDS; r++)
    for (int k = 0; k < CS_STEPS; k++) expect += (long)THREADS * (r + k);
  printf("spinlock: %d threads x %d rounds, total %ld (%s)\n", THREADS, ROUNDS,
         total, total == expect ? "as expected" : "WRONG");
  return total != expect;
}
