/* SPDX-License-Identifier: MIT */
/* Recorder benchmark, libc-heavy: string functions (memcpy, strlen, strcmp,
 * strchr, memset) and qsort over strings, in memory, with few syscalls. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int cmp(const void *a, const void *b) {
  return strcmp(*(char *const *)a, *(char *const *)b);
}

int main(int argc, char **argv) {
  int rounds = argc > 1 ? atoi(argv[1]) : 12;
  enum { N = 100000 };
  static char pool[N][32];
  static char *v[N];
  unsigned long x = 12345, sum = 0;
  for (int r = 0; r < rounds; r++) {
    for (int i = 0; i < N; i++) {
      x = x * 6364136223846793005ul + 1442695040888963407ul;
      int len = 8 + (int)((x >> 40) % 20);
      for (int k = 0; k < len; k++) pool[i][k] = (char)('a' + ((x >> (k % 50)) % 26));
      pool[i][len] = 0;
      v[i] = pool[i];
    }
    qsort(v, N, sizeof v[0], cmp);
    char buf[64];
    for (int i = 0; i < N; i++) {
      memcpy(buf, v[i], strlen(v[i]) + 1);
      sum += strlen(buf) + (strchr(buf, 'q') != NULL);
      memset(buf, 0, sizeof buf);
    }
  }
  printf("%lu %s\n", sum, v[0]);
  return 0;
}
