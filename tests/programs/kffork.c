/* SPDX-License-Identifier: MIT */
/* Test program: processes forked all the time, for about SECONDS (argument,
 * default 0.2), each going on from the fork on its parent's call stack: a
 * round calls outer, which calls inner, which forks; the child computes,
 * returns through inner and outer (frames its parent pushed) into the
 * round, every 4th child forks a grandchild the same way first, and
 * each child ends with _exit there. With keyframes every few
 * milliseconds (tests/replay/pieces.sh), forks land in pieces that began
 * inside those frames: a profile must put the children's work under
 * main, round, outer and inner, whole and in pieces alike. */
#include <stdio.h>
#include <stdlib.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

static volatile unsigned long sink;

__attribute__((noinline)) static unsigned long fib(unsigned n) {
  return n < 2 ? n : fib(n - 1) + fib(n - 2);
}

/* Forks: 0 in the child (which has computed), the pid in the parent. */
__attribute__((noinline)) static pid_t inner(unsigned n) {
  pid_t pid = fork();
  if (pid == 0) sink += fib(n);
  return pid;
}

__attribute__((noinline)) static pid_t outer(unsigned n) {
  pid_t pid = inner(n);
  sink += pid == 0; /* after the call: outer's frame is still there */
  return pid;
}

static double now(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

/* One round: a child, which in every 4th round forks a grandchild. */
__attribute__((noinline)) static void round_of(unsigned long i) {
  sink += fib(14);
  pid_t pid = outer(12);
  if (pid == 0) {
    if (i % 4 == 0) {
      pid_t g = outer(10);
      if (g == 0) _exit(0);
      if (g > 0) waitpid(g, NULL, 0);
    }
    _exit(0);
  }
  if (pid > 0) waitpid(pid, NULL, 0);
}

int main(int argc, char **argv) {
  double secs = argc > 1 ? atof(argv[1]) : 0.2, end = now() + secs;
  unsigned long i = 0;
  for (; now() < end; i++) round_of(i);
  printf("kffork %s\n", i ? "ok" : "short");
  return 0;
}
