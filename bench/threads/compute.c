/* SPDX-License-Identifier: MIT */
/* Threads benchmark workload (bench/threads/run.sh): THREADS threads (default
 * 2) share WORK million steps of arithmetic (default 400) with no syscall
 * at all, so while recording they switch only by preemption, once per
 * timeslice. MEM megabytes (default 1) of heap are allocated and written
 * first, to make the writable memory each preemption digests larger; the
 * threads write into it now and then. With a fifth argument "random" the
 * heap gets pseudo-random bytes instead of ones (what a compressor cannot
 * shrink), and a line on stderr says when they are written; a sixth, HOT,
 * makes the threads write only into the first HOT megabytes (a large
 * state that seldom changes). Prints a checksum. */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static long steps;
static unsigned char *mem;
static size_t mem_len, hot_len;

static void *worker(void *arg) {
  unsigned long x = (unsigned long)arg * 7919 + 1;
  for (long i = 0; i < steps; i++) {
    x = x * 6364136223846793005ul + 1442695040888963407ul;
    if ((i & 4095) == 0) mem[(x >> 20) % hot_len] ^= (unsigned char)x;
  }
  return (void *)(x >> 1);
}

int main(int argc, char **argv) {
  int n = argc > 1 ? atoi(argv[1]) : 2;
  long work = argc > 2 ? atol(argv[2]) : 400;
  long mb = argc > 3 ? atol(argv[3]) : 1;
  pthread_t t[64];
  if (n < 1 || n > 64 || mb < 1) return 2;
  steps = work * 1000000 / n;
  mem_len = (size_t)mb << 20;
  hot_len = argc > 5 && atol(argv[5]) > 0 && atol(argv[5]) < mb
                ? (size_t)atol(argv[5]) << 20
                : mem_len;
  mem = malloc(mem_len);
  if (!mem) return 1;
  memset(mem, 1, mem_len);
  if (argc > 4 && !strcmp(argv[4], "random")) {
    unsigned long x = 88172645463325252ul;
    for (size_t i = 0; i + 8 <= mem_len; i += 8) {
      x ^= x << 13, x ^= x >> 7, x ^= x << 17;
      memcpy(mem + i, &x, 8);
    }
    fputs("compute: heap ready\n", stderr); /* for bench/record/attach.sh */
  }
  for (long i = 0; i < n; i++)
    if (pthread_create(&t[i], NULL, worker, (void *)i) != 0) return 1;
  unsigned long sum = 0;
  for (int i = 0; i < n; i++) {
    void *r;
    pthread_join(t[i], &r);
    sum += (unsigned long)r;
  }
  printf("compute: %d threads, %ld M steps, %ld MB, checksum %lx\n", n, work,
         mb, sum + mem[0]);
  return 0;
}
