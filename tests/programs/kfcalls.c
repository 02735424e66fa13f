/* SPDX-License-Identifier: MIT */
/* Test program: calls of every shape for about SECONDS (argument, default
 * 0.3), so that keyframes written every few milliseconds land inside them
 * (analyze profile -j and calls -j, tests/replay/pieces.sh): recursion
 * (a function on the stack many times), tail calls (jumps from function to
 * function on one return address, in assembly so that the compiler keeps
 * them), a longjmp out of nested frames every 8th round, a signal handler
 * that calls functions wherever the timer finds the thread, and a second
 * thread doing the same on its own stack. With a second argument "odd",
 * main also calls a function with its stack pointer 4 bytes off a
 * multiple of 8 once a round (a return address where none usually is).
 * Prints whether both threads ran. */
#include <pthread.h>
#include <setjmp.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/time.h>
#include <time.h>

static volatile unsigned long sink;
static volatile int stop;
static __thread jmp_buf out;

/* hop1 jumps to hop2, which jumps to hop3, which returns 3 * x + 1; a
 * loop in hop3's caller's frame runs them again and again. */
unsigned long hop1(unsigned long x);
__asm__(".text\n.globl hop1\n.type hop1,@function\nhop1:\n"
        "lea 1(%rdi), %rdi\njmp hop2\n.size hop1,.-hop1\n"
        ".globl hop2\n.type hop2,@function\nhop2:\n"
        "lea -1(%rdi), %rdi\njmp hop3\n.size hop2,.-hop2\n"
        ".globl hop3\n.type hop3,@function\nhop3:\n"
        "lea 1(%rdi,%rdi,2), %rax\nret\n.size hop3,.-hop3\n");

/* odd4(x): calls hop3(x) with the stack pointer moved down 4 bytes. */
unsigned long odd4(unsigned long x);
__asm__(".text\n.globl odd4\n.type odd4,@function\nodd4:\n"
        "sub $4, %rsp\ncall hop3\nadd $4, %rsp\nret\n"
        ".size odd4,.-odd4\n");

static int odd;

__attribute__((noinline)) static unsigned long fib(unsigned n) {
  return n < 2 ? n : fib(n - 1) + fib(n - 2);
}

__attribute__((noinline)) static void deep(unsigned n) {
  sink += n;
  if (n == 0) longjmp(out, 1);
  deep(n - 1);
  sink -= n; /* never: the longjmp leaves every frame */
}

__attribute__((noinline)) static void on_alarm(int sig) {
  sink += fib(8) + (unsigned long)sig;
}

static double now(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

__attribute__((noinline)) static unsigned long round_of(unsigned long i) {
  unsigned long s = fib(12);
  for (unsigned long k = 0; k < 50; k++) s += hop1(i + k);
  if (odd) s += odd4(i);
  if (i % 8 == 0 && !setjmp(out)) deep(20 + (unsigned)(i % 7));
  return s;
}

static void *worker(void *arg) {
  unsigned long s = 0;
  for (unsigned long i = 0; !stop; i++) s += round_of(i);
  *(unsigned long *)arg = s;
  return NULL;
}

int main(int argc, char **argv) {
  double secs = argc > 1 ? atof(argv[1]) : 0.3;
  odd = argc > 2 && argv[2][0] == 'o';
  signal(SIGALRM, on_alarm);
  struct itimerval it = {{0, 3000}, {0, 3000}};
  setitimer(ITIMER_REAL, &it, NULL);
  pthread_t t;
  unsigned long other = 0, s = 0;
  if (pthread_create(&t, NULL, worker, &other)) return 1;
  double end = now() + secs;
  for (unsigned long i = 0; now() < end; i++) s += round_of(i);
  stop = 1;
  pthread_join(t, NULL);
  struct itimerval off = {{0, 0}, {0, 0}};
  setitimer(ITIMER_REAL, &off, NULL);
  printf("kfcalls %s\n", s && other ? "ok" : "short");
  return 0;
}
