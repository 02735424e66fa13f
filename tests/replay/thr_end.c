/* SPDX-License-Identifier: MIT */
/* Test program, threads at the end of a process: three named threads block
 * in pthread_cond_wait and one sleeps in a loop when main calls exit(3).
 * The process ends with all five alive, so the replay's end must list
 * them, with their names, as they were. */
#define _GNU_SOURCE
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

static pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t c = PTHREAD_COND_INITIALIZER;
static int started;

static void *blocker(void *arg) {
  char name[16];
  snprintf(name, sizeof name, "blocker%ld", (long)arg);
  pthread_setname_np(pthread_self(), name);
  pthread_mutex_lock(&m);
  started++;
  pthread_cond_broadcast(&c);
  for (;;) pthread_cond_wait(&c, &m);
  return NULL;
}

static void *sleeper(void *arg) {
  (void)arg;
  pthread_setname_np(pthread_self(), "sleeper");
  pthread_mutex_lock(&m);
  started++;
  pthread_cond_broadcast(&c);
  pthread_mutex_unlock(&m);
  for (;;) usleep(100000);
  return NULL;
}

int main(void) {
  pthread_t t[4];
  for (long i = 0; i < 3; i++) pthread_create(&t[i], NULL, blocker, (void *)i);
  pthread_create(&t[3], NULL, sleeper, NULL);
  pthread_mutex_lock(&m);
  while (started < 4) pthread_cond_wait(&c, &m);
  pthread_mutex_unlock(&m);
  volatile unsigned long x = 0;
  for (unsigned long i = 0; i < 2000000; i++) x += i * i;
  printf("thr_end: %lu\n", (unsigned long)x);
  fflush(stdout);
  exit(3);
}
