/* SPDX-License-Identifier: MIT */
/* A long, mostly compute-bound run for the seek benchmark: ITER (argv[1],
 * default 2e8) iterations of a small mixing loop, about 5 instructions
 * each, with a write(2) every 2^24 iterations so the trace has events
 * spread along it. */
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

int main(int argc, char **argv) {
  unsigned long n = argc > 1 ? strtoul(argv[1], NULL, 0) : 200000000ul;
  unsigned long x = 1;
  for (unsigned long i = 0; i < n; i++) {
    x = x * 6364136223846793005ul + i;
    if (!(i & 0xffffff)) {
      char b[32];
      int k = snprintf(b, sizeof b, "%lx\n", x);
      if (write(1, b, (size_t)k) < 0) return 1;
    }
  }
  return x == 42; /* keeps x live; exits 0 */
}
