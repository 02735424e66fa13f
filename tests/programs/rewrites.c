/* SPDX-License-Identifier: MIT */
/* Writes for the write index of reverse continues (tests/replay/history.sh,
 * replayer/reverse.c): TARGET is written a known number of times, far
 * apart, by instructions of two threads, once with the value it already
 * holds, and once by the kernel (a read() into it); in between, long
 * stretches write other pages and the stack, and one the rest of TARGET's
 * page, so that most keyframe intervals change memory without touching
 * TARGET. QUIET, on a page of its own, is written twice. SPARSE's target
 * is written four times (an instruction, the second thread, the kernel, a
 * rep stosq), and every stretch writes the next line of its page now and
 * then and the fifth the rest of its own line too: the page changes in
 * every keyframe interval, the target's line in few (the pages' line
 * record, replayer/cpu/mem.c).
 * Prints the addresses the test watches. Argument: stretch length
 * (default 3000000 iterations). */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

struct page {
  volatile long target;          /* written 6 times, listed below */
  volatile long neighbour[400];  /* the rest of its page, written often */
} __attribute__((aligned(4096)));

static struct page pg;
static volatile long far[8192];  /* other pages, written often */
static struct page quiet;        /* its target written twice */
static struct page sparse;       /* see above */
static long stretch = 3000000;

/* A stretch of writes elsewhere; the third also writes TARGET's page. */
static void busy(long salt) {
  for (long i = 0; i < stretch; i++) {
    if (salt == 3) pg.neighbour[i % 400] = i ^ salt;
    if (i % 50000 == 0) sparse.neighbour[8] = i; /* the next line */
    if (salt == 5 && i % 50000 == 0) sparse.neighbour[0] = i; /* its line */
    far[(i * 7) % 8192] += i;
  }
}

static void *other(void *arg) {
  (void)arg;
  pg.target = 3; /* write 3, by the second thread */
  sparse.target = 2;
  return NULL;
}

int main(int argc, char **argv) {
  int fds[2];
  pthread_t t;
  long v = 5;
  if (argc > 1) stretch = atol(argv[1]);
  printf("target %p\nneighbour %p\nfar %p\nquiet %p\nsparse %p\n",
         (void *)&pg.target, (void *)&pg.neighbour[7], (void *)&far[100],
         (void *)&quiet.target, (void *)&sparse.target);
  fflush(stdout);
  busy(1);
  sparse.target = 1;
  pg.target = 1; /* write 1 */
  busy(2);
  quiet.target = 1;
  pg.target = 2; /* write 2 */
  busy(3);
  if (pthread_create(&t, NULL, other, NULL) || pthread_join(t, NULL))
    return 1;
  busy(4);
  if (pipe(fds) || write(fds[1], &v, sizeof v) != sizeof v) return 1;
  if (read(fds[0], (void *)&pg.target, sizeof v) != sizeof v) /* write 4 */
    return 1;
  if (write(fds[1], &v, sizeof v) != sizeof v ||
      read(fds[0], (void *)&sparse.target, sizeof v) != sizeof v)
    return 1;
  busy(5);
  pg.target = pg.target; /* write 5: the value it holds */
  busy(6);
  {
    void *d = (void *)&sparse.target;
    long c = 1;
    __asm__ volatile("rep stosq" : "+D"(d), "+c"(c) : "a"(7L) : "memory");
  }
  quiet.target = 2;
  pg.target = 6; /* write 6 */
  busy(7);
  printf("target %ld\n", pg.target);
  return 0;
}
