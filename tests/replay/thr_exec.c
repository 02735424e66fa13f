/* SPDX-License-Identifier: MIT */
/* Test program, exec from a thread that is not the main one: a thread
 * waits in pause() while another runs execv(ARGV[1], ARGV + 1). exec ends
 * every other thread; the new image starts with one. */
#define _GNU_SOURCE
#include <pthread.h>
#include <stdio.h>
#include <unistd.h>

static char **args;

static void *waiter(void *arg) {
  (void)arg;
  for (;;) pause();
  return NULL;
}

static void *execer(void *arg) {
  (void)arg;
  execv(args[0], args);
  perror("execv");
  return NULL;
}

int main(int argc, char **argv) {
  pthread_t a, b;
  if (argc < 2) return 2;
  args = argv + 1;
  pthread_create(&a, NULL, waiter, NULL);
  usleep(10000);
  pthread_create(&b, NULL, execer, NULL);
  for (;;) pause();
}
