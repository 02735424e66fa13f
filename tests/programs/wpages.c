/* SPDX-License-Identifier: MIT */
/* Ways memory changes between two preemption points, for the digest that
 * reads only the pages written since the last one (recorder/wp.c): a
 * thread computes while another, in rounds, writes scattered pages of a
 * heap, has the kernel write into it (read from a pipe), discards pages
 * (MADV_DONTNEED, MADV_FREE), moves a range away and back (mremap), maps
 * fresh memory over a range (MAP_FIXED), makes a range read-only and
 * writable again, and forks a child that writes its own copy. Busy loops
 * between the steps let the recorder preempt in the middle of each.
 *
 *   wpages [ROUNDS]   prints "wpages: N rounds, checksum X" (default 20) */
#define _GNU_SOURCE
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <unistd.h>

#define PAGE 4096ul
#define PAGES 16384ul /* a 64 MB heap: large enough (recorder/wp.c) */

static unsigned char *heap;
static volatile unsigned long spun;
static volatile int stop;

static void spin(long n) {
  for (long i = 0; i < n; i++) spun = spun * 6364136223846793005ul + 1;
}

static void *computer(void *arg) {
  (void)arg;
  while (!stop) spin(100000);
  return NULL;
}

static void die(const char *what) {
  perror(what);
  exit(1);
}

int main(int argc, char **argv) {
  int rounds = argc > 1 ? atoi(argv[1]) : 20;
  heap = mmap(NULL, PAGES * PAGE, PROT_READ | PROT_WRITE,
              MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  unsigned char *away = mmap(NULL, 64 * PAGE, PROT_NONE,
                             MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  if (heap == MAP_FAILED || away == MAP_FAILED) die("wpages: mmap");
  for (unsigned long p = 0; p < PAGES; p++) heap[p * PAGE] = (unsigned char)p;
  pthread_t t;
  if (pthread_create(&t, NULL, computer, NULL)) die("wpages: thread");
  int fds[2];
  if (pipe(fds)) die("wpages: pipe");
  unsigned long x = 12345;
  for (int r = 0; r < rounds; r++) {
    /* Scattered writes. */
    for (int i = 0; i < 200; i++) {
      x = x * 6364136223846793005ul + 1442695040888963407ul;
      heap[(x >> 16) % (PAGES * PAGE)] ^= (unsigned char)(x >> 56);
    }
    spin(2000000);
    /* The kernel writes into the heap. */
    unsigned char msg[64];
    memset(msg, 'a' + r % 26, sizeof msg);
    if (write(fds[1], msg, sizeof msg) != (ssize_t)sizeof msg ||
        read(fds[0], heap + (r % 64) * PAGE + 100, sizeof msg) !=
            (ssize_t)sizeof msg)
      die("wpages: pipe i/o");
    spin(2000000);
    /* Pages discarded: zero from here on, or when the kernel likes. */
    madvise(heap + 512 * PAGE, 32 * PAGE, MADV_DONTNEED);
    heap[520 * PAGE + r] = (unsigned char)r;
    madvise(heap + 1024 * PAGE, 32 * PAGE, MADV_FREE);
    spin(2000000);
    /* A range moved away and back. */
    if (mremap(heap + 2048 * PAGE, 64 * PAGE, 64 * PAGE,
               MREMAP_MAYMOVE | MREMAP_FIXED, away) == MAP_FAILED)
      die("wpages: mremap away");
    spin(1000000);
    if (mremap(away, 64 * PAGE, 64 * PAGE, MREMAP_MAYMOVE | MREMAP_FIXED,
               heap + 2048 * PAGE) == MAP_FAILED)
      die("wpages: mremap back");
    heap[2050 * PAGE] += 1;
    spin(1000000);
    /* Fresh memory over a range. */
    if (mmap(heap + 3000 * PAGE, 16 * PAGE, PROT_READ | PROT_WRITE,
             MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED, -1, 0) == MAP_FAILED)
      die("wpages: mmap fixed");
    heap[3001 * PAGE] = (unsigned char)(r + 1);
    spin(1000000);
    /* Read-only for a while. */
    mprotect(heap + 3500 * PAGE, 64 * PAGE, PROT_READ);
    spin(1000000);
    mprotect(heap + 3500 * PAGE, 64 * PAGE, PROT_READ | PROT_WRITE);
    heap[3510 * PAGE] = (unsigned char)r;
    /* A child writes its own copy. */
    if (r % 5 == 0) {
      pid_t c = fork();
      if (c == 0) {
        for (unsigned long p = 0; p < PAGES; p += 7) heap[p * PAGE + 1] = 9;
        spin(1000000);
        _exit(heap[7 * PAGE + 1]);
      }
      int st;
      if (c < 0 || waitpid(c, &st, 0) != c || !WIFEXITED(st) ||
          WEXITSTATUS(st) != 9)
        die("wpages: child");
    }
  }
  stop = 1;
  pthread_join(t, NULL);
  unsigned long sum = 0;
  /* Not the MADV_FREE pages: whether the kernel took them is its call. */
  for (unsigned long i = 0; i < PAGES * PAGE; i += 61)
    if (i / PAGE < 1024 || i / PAGE >= 1056) sum = sum * 31 + heap[i];
  printf("wpages: %d rounds, checksum %lx\n", rounds, sum);
  return 0;
}
