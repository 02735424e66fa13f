/* SPDX-License-Identifier: MIT */
/* Test program, built with AddressSanitizer (tests/recorder/sbuf.sh): a
 * thread and the main thread ask the time, sleep a little and fill heap
 * blocks; at exit the sanitizer's leak check, unless ASAN_OPTIONS says
 * detect_leaks=0, stops the threads from a child made with CLONE_UNTRACED.
 * Prints "asanprog: SUM". */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

static unsigned long work(unsigned seed) {
  unsigned long sum = 0;
  struct timespec ts, nap = {0, 2000000};
  for (int i = 0; i < 5; i++) {
    unsigned char *b = malloc(1000 + i * 100);
    if (!b) return 0;
    for (int j = 0; j < 1000 + i * 100; j++) b[j] = (unsigned char)(j * seed);
    for (int j = 0; j < 1000; j++) sum += b[j];
    free(b);
    clock_gettime(CLOCK_MONOTONIC, &ts);
    nanosleep(&nap, NULL);
  }
  return sum;
}

static void *thread_main(void *arg) {
  *(unsigned long *)arg = work(7);
  return NULL;
}

int main(void) {
  pthread_t t;
  unsigned long other = 0;
  if (pthread_create(&t, NULL, thread_main, &other)) return 1;
  unsigned long mine = work(3);
  pthread_join(t, NULL);
  printf("asanprog: %lu\n", mine + other);
  return 0;
}
