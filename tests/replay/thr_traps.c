/* SPDX-License-Identifier: MIT */
/* Test program, timeslices that end at a trap: main executes rdtsc a fixed
 * number of times, and int3 every 16th time (its SIGTRAP handler counts
 * them), while another thread, always ready to run, yields until main is
 * done. Main makes no syscall of its own, so the recorder's interrupt ends
 * its timeslices, and with short ones it often lands between an int3 (the
 * program's, or the one the recorder put in place of an rdtsc it cannot
 * trap) and the delivery of its SIGTRAP: the thread stands past the
 * instruction with the signal still to come, a point the replay never
 * reaches. */
#include <pthread.h>
#include <sched.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdio.h>
#include <x86intrin.h>

static atomic_int done;
static volatile unsigned long traps;

static void on_trap(int sig) {
  (void)sig;
  traps++;
}

static void *work(void *arg) {
  (void)arg;
  while (!atomic_load_explicit(&done, memory_order_relaxed)) sched_yield();
  return NULL;
}

int main(void) {
  pthread_t t;
  unsigned long odd = 0;
  const unsigned long rounds = 20000;
  signal(SIGTRAP, on_trap);
  if (pthread_create(&t, NULL, work, NULL)) return 1;
  for (unsigned long i = 0; i < rounds; i++) {
    odd += __rdtsc() & 1;
    if (i % 16 == 0) __asm__ volatile("int3");
  }
  atomic_store(&done, 1);
  pthread_join(t, NULL);
  printf("traps: %s\n",
         traps == (rounds + 15) / 16 && odd <= rounds ? "all" : "lost");
  return 0;
}
