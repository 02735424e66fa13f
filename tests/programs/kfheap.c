/* SPDX-License-Identifier: MIT */
/* Test program: a large state that seldom changes, for recorder keyframes
 * stored as deltas (tests/replay/keyframes.sh). Fills MB megabytes
 * (argument, default 16) with bytes no compressor shrinks, then for about
 * SECONDS (second argument, default 0.5) changes bytes of its first 64 KB
 * only, asking the time now and then; also maps a megabyte of 256 pages
 * with the same bytes. Prints a checksum. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <time.h>

static double now(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return ts.tv_sec + ts.tv_nsec / 1e9;
}

int main(int argc, char **argv) {
  long mb = argc > 1 ? atol(argv[1]) : 16;
  double secs = argc > 2 ? atof(argv[2]) : 0.5;
  if (mb < 1 || mb > 4096) return 2;
  size_t len = (size_t)mb << 20;
  unsigned char *m = mmap(NULL, len, PROT_READ | PROT_WRITE,
                          MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  unsigned char *twin = mmap(NULL, 1 << 20, PROT_READ | PROT_WRITE,
                             MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  if (m == MAP_FAILED || twin == MAP_FAILED) return 1;
  unsigned long x = 88172645463325252ul;
  for (size_t i = 0; i + 8 <= len; i += 8) {
    x ^= x << 13, x ^= x >> 7, x ^= x << 17;
    memcpy(m + i, &x, 8);
  }
  for (int i = 0; i < 256; i++) memcpy(twin + 4096 * i, m + 65536, 4096);
  unsigned long sum = 0;
  double end = now() + secs;
  for (long n = 0;; n++) {
    for (int k = 0; k < 4096; k++) {
      x = x * 6364136223846793005ul + 1442695040888963407ul;
      m[(x >> 24) % 65536] ^= (unsigned char)x;
    }
    if ((n & 15) == 0 && now() > end) break;
  }
  for (size_t i = 0; i < len; i += 4096) sum += m[i];
  printf("kfheap: %ld MB, checksum %lx\n", mb, sum + twin[(1 << 20) - 1]);
  return 0;
}
