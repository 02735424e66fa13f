/* SPDX-License-Identifier: MIT */
/* A program whose calls are known exactly, for rewind analyze profile
 * (tests/replay/profile.sh): a leaf of exactly 5 instructions called 1000
 * times, recursion 50 deep 10 times, mutual recursion, a loop of 100
 * turns run 3 times with an indirect jump, a longjmp out of 5 frames, a signal handler that calls functions, and 4 threads each
 * calling a function 100 times. Built without inlining or sibling calls,
 * so every call in the source is a call instruction. */
#include <pthread.h>
#include <setjmp.h>
#include <signal.h>
#include <stdio.h>

/* A loop of exactly 100 turns (its jnz: 99 taken, 1 not), then an
 * indirect jmp to its ret: branches known exactly, for the edge profile. */
void loop100(void);
__asm__(".text\n.globl loop100\n.type loop100,@function\nloop100:\n"
        "mov $100, %ecx\n1: dec %ecx\njnz 1b\nlea 2f(%rip), %rax\n"
        "jmp *%rax\n2: ret\n.size loop100,.-loop100\n");

/* 4 nops and a ret: 5 instructions per call, whoever calls it. */
void leaf5(void);
__asm__(".text\n.globl leaf5\n.type leaf5,@function\nleaf5:\n"
        "nop\nnop\nnop\nnop\nret\n.size leaf5,.-leaf5\n");

static volatile int sink;
static jmp_buf env;

__attribute__((noinline)) static int rec(int n) {
  if (n == 0) {
    leaf5();
    return 0;
  }
  return 1 + rec(n - 1);
}

__attribute__((noinline)) static int is_odd(int n);
__attribute__((noinline)) static int is_even(int n) {
  return n == 0 ? 1 : is_odd(n - 1);
}
__attribute__((noinline)) static int is_odd(int n) {
  return n == 0 ? 0 : is_even(n - 1);
}

__attribute__((noinline)) static void dive(int n) {
  if (n == 0) longjmp(env, 1);
  dive(n - 1);
  sink++; /* never reached: not a tail call */
}

__attribute__((noinline)) static void after_jump(void) { leaf5(); }

__attribute__((noinline)) static void in_handler(void) { leaf5(); }

static void handler(int sig) {
  (void)sig;
  in_handler();
}

__attribute__((noinline)) static void after_signal(void) { leaf5(); }

__attribute__((noinline)) static void work(void) { leaf5(); }

static void *worker(void *arg) {
  (void)arg;
  for (int i = 0; i < 100; i++) work();
  return NULL;
}

int main(void) {
  pthread_t t[4];
  for (int i = 0; i < 1000 - 4 * 100 - 10 - 3; i++) leaf5();
  for (int i = 0; i < 10; i++) sink += rec(50);
  sink += is_even(20); /* 11 is_even, 10 is_odd */
  for (int i = 0; i < 3; i++) loop100();
  if (!setjmp(env)) dive(5);
  after_jump();
  signal(SIGUSR1, handler);
  raise(SIGUSR1);
  after_signal();
  for (int i = 0; i < 4; i++) pthread_create(&t[i], NULL, worker, NULL);
  for (int i = 0; i < 4; i++) pthread_join(t[i], NULL);
  printf("%d\n", sink);
  return 0;
}
