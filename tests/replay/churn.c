/* SPDX-License-Identifier: MIT */
/* Rewrites the same 16 MiB over and over: every keyframe of its replay
 * keeps its own copy of the pages written since the one before, so the
 * replay's keyframe budget must count pages (tests/replay/threads.sh). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define SIZE (16u << 20)

int main(void) {
  unsigned char *p = malloc(SIZE);
  if (!p) return 1;
  unsigned long sum = 0;
  for (int i = 0; i < 40; i++) {
    memset(p, i + 1, SIZE);
    sum += p[(unsigned)i * 4099u % SIZE];
  }
  printf("churn %lu\n", sum);
  free(p);
  return 0;
}
