/* SPDX-License-Identifier: MIT */
/* Threads benchmark workload (bench/threads/run.sh): two threads pass a
 * byte back and forth through two pipes ROUNDS times (default 10000). Each
 * round blocks each thread in read() once, so a recording switches threads
 * at least twice per round, always at a syscall. */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

static int ping[2], pong[2];
static long rounds;

static void *echo(void *arg) {
  char c;
  (void)arg;
  for (long i = 0; i < rounds; i++) {
    if (read(ping[0], &c, 1) != 1) return (void *)1;
    c++;
    if (write(pong[1], &c, 1) != 1) return (void *)1;
  }
  return NULL;
}

int main(int argc, char **argv) {
  rounds = argc > 1 ? atol(argv[1]) : 10000;
  pthread_t t;
  if (pipe(ping) < 0 || pipe(pong) < 0) return 1;
  if (pthread_create(&t, NULL, echo, NULL) != 0) return 1;
  char c = 0;
  long sum = 0;
  for (long i = 0; i < rounds; i++) {
    if (write(ping[1], &c, 1) != 1 || read(pong[0], &c, 1) != 1) return 1;
    sum += (unsigned char)c;
  }
  pthread_join(t, NULL);
  printf("pingpong: %ld rounds, sum %ld\n", rounds, sum);
  return 0;
}
