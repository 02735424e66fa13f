/* SPDX-License-Identifier: MIT */
/* Test program: functions for gdb to call in a replay (tests/gdb/divert.sh):
 * one that computes, one that changes a global, one that returns a
 * string, one that faults, one that makes a syscall, and a loop that
 * stops at stop_here each round. The rounds add to a global the output
 * prints, so a change that outlived its diversion would show. */
#include <stdio.h>
#include <unistd.h>

int counter = 7;
char label[32] = "recorded";

__attribute__((noinline, used)) int square(int x) { return x * x; }

__attribute__((noinline, used)) int bump(int by) {
  counter += by;
  return counter;
}

__attribute__((noinline, used)) const char *name(void) { return label; }

__attribute__((noinline, used)) int crash(volatile int *p) { return *p; }

__attribute__((noinline, used)) long my_pid(void) { return (long)getpid(); }

__attribute__((noinline)) void stop_here(int round) {
  __asm__ volatile("" : : "r"(round) : "memory");
}

int main(void) {
  for (int i = 0; i < 3; i++) {
    stop_here(i);
    counter += i;
  }
  printf("counter %d label %s\n", counter, label);
  return 0;
}
