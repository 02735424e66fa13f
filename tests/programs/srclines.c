/* SPDX-License-Identifier: MIT */
/* Test program: source lines whose executions are known, for rewind
 * analyze counts --lines (tests/replay/lines.sh). The test finds the lines
 * by the markers in their comments, not by number:
 *
 *   LINE:body    the loop body of body(), run 10 + 7 = 17 times; each
 *                piece of its code (the compiler may interleave the
 *                loop's increment) entered once a turn
 *   LINE:scale   a function inlined into main, 5 times: its code is in
 *                main, its line is here
 *
 * Prints "srclines ok" at the end. */
#include <stdio.h>

static volatile long sink;

__attribute__((noinline)) void body(int n) {
  for (int i = 0; i < n; i++) {
    sink += i; /* LINE:body */
  }
}

static inline __attribute__((always_inline)) void scale(long k) {
  sink = sink * k + 3; /* LINE:scale */
}

int main(void) {
  body(10);
  body(7);
  for (long k = 1; k <= 5; k++) scale(k);
  printf("srclines ok %ld\n", sink);
  return 0;
}
