// SPDX-License-Identifier: MIT
// A long computation for the debugger's tests and benchmarks: a loop of N
// iterations (argv[1], default 8000000; about 19 instructions each at -O0)
// that calls checkpoint() every 1,000,000 iterations, so a breakpoint there
// lands deep in a long history; with argv[2] = M it also calls marker()
// once, at iteration M (for the benchmarks), the one write to `marked`
// and `near` (the memory history's benchmark). No syscalls inside the loop. Kept at -O0
// whatever CFLAGS say, so that every variable is visible to gdb.
#pragma GCC optimize("O0")

#include <stdio.h>
#include <stdlib.h>

static volatile unsigned long sink;
// Written by marker() alone: `near` shares its page with sink (a line
// away), `marked` has a page of its own.
static volatile unsigned long near[16];
static volatile struct {
  unsigned long v;
  char pad[4096 - sizeof(unsigned long)];
} marked __attribute__((aligned(4096)));

static unsigned long checkpoint(unsigned long i, unsigned long acc) {
  sink = acc;  // a write to watch
  return acc ^ i;
}

static void marker(unsigned long i) {
  marked.v = i;
  near[8] = i;
}

int main(int argc, char **argv) {
  unsigned long n = argc > 1 ? strtoul(argv[1], NULL, 0) : 8000000;
  unsigned long mark = argc > 2 ? strtoul(argv[2], NULL, 0) : ~0ul;
  unsigned long acc = 1;
  for (unsigned long i = 0; i < n; i++) {
    acc = acc * 6364136223846793005ul + i;
    if (i % 1000000 == 0) acc = checkpoint(i, acc);
    if (i == mark) marker(i);
  }
  printf("%lu\n", acc);
  return 0;
}
