/* SPDX-License-Identifier: MIT */
/* Replay benchmark, scalar floating point: a loop of double arithmetic
 * (add, multiply, divide, square root, compares) and libm's exp, log and
 * sin, as numeric code compiled for baseline x86-64 runs it. About 0.2 s
 * natively; the argument scales it. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

int main(int argc, char **argv) {
  long n = argc > 1 ? atol(argv[1]) : 40000000;
  double acc = 0, y = 0.25;
  for (long i = 0; i < n; i++) {
    double x = (double)(i % 1000) * 0.001 + 0.5;
    y = y * 0.999 + x / (1.0 + y * y);
    acc += sqrt(x * y) - x * 0.125;
    if ((i & 7) == 0) acc += exp(-x) + log(x + y) + sin(y);
    if (acc > 1e6) acc *= 0.5;
  }
  printf("%.6f %.6f\n", acc, y);
  return 0;
}
