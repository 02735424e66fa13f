/* SPDX-License-Identifier: MIT */
/* Test program: instructions whose executions are known exactly, for
 * rewind analyze counts (tests/replay/counts.sh). The functions are in
 * assembly, so the compiler neither adds nor removes an instruction:
 *
 *   trip13     a loop of 13 turns (mov, then dec and jnz 13 times, ret),
 *              called 7 times: dec runs 91 times, its first instruction 7
 *   mul5       5 imul (opcode 0f af) and a ret, called 11 times
 *   loads      4 loads, 2 stores and a lea (no access), called 9 times
 *   spin       a loop of 4 instructions run SPIN_TURNS times while a timer
 *              sends signals every millisecond: each of them runs exactly
 *              SPIN_TURNS times however often a signal interrupts it
 *   twice      3 nops and a ret, called 5 times by each of two processes
 *              (a fork): 10 times in all
 *
 * Prints "counts ok" at the end. */
#include <signal.h>
#include <stdio.h>
#include <sys/time.h>
#include <sys/wait.h>
#include <unistd.h>

#define SPIN_TURNS 30000000

void trip13(void);
__asm__(".text\n.globl trip13\n.type trip13,@function\ntrip13:\n"
        "mov $13, %ecx\n1: dec %ecx\njnz 1b\nret\n.size trip13,.-trip13\n");

long mul5(long x);
__asm__(".text\n.globl mul5\n.type mul5,@function\nmul5:\n"
        "mov %rdi, %rax\nimul %rdi, %rax\nimul %rdi, %rax\nimul %rdi, %rax\n"
        "imul %rdi, %rax\nimul %rdi, %rax\nret\n.size mul5,.-mul5\n");

long loads(long *p);
__asm__(".text\n.globl loads\n.type loads,@function\nloads:\n"
        "mov (%rdi), %rax\nadd 8(%rdi), %rax\nmov 16(%rdi), %rdx\n"
        "add 24(%rdi), %rdx\nmov %rax, 32(%rdi)\nmov %rdx, 40(%rdi)\n"
        "lea 48(%rdi), %rax\nret\n.size loads,.-loads\n");

void spin(long n);
__asm__(".text\n.globl spin\n.type spin,@function\nspin:\n"
        "1: add $1, %rax\nxor %rdx, %rdx\nsub $1, %rdi\njnz 1b\nret\n"
        ".size spin,.-spin\n");

void twice(void);
__asm__(".text\n.globl twice\n.type twice,@function\ntwice:\n"
        "nop\nnop\nnop\nret\n.size twice,.-twice\n");

static volatile int ticks;

static void on_alarm(int sig) {
  (void)sig;
  ticks++;
}

int main(void) {
  long v[8] = {1, 2, 3, 4, 0, 0, 0, 0};
  long sum = 0;
  for (int i = 0; i < 7; i++) trip13();
  for (int i = 0; i < 11; i++) sum += mul5(i);
  for (int i = 0; i < 9; i++) sum += loads(v);
  struct sigaction sa = {0};
  sa.sa_handler = on_alarm;
  sa.sa_flags = SA_RESTART;
  sigaction(SIGALRM, &sa, NULL);
  struct itimerval it = {{0, 1000}, {0, 1000}};
  setitimer(ITIMER_REAL, &it, NULL);
  spin(SPIN_TURNS);
  struct itimerval off = {{0, 0}, {0, 0}};
  setitimer(ITIMER_REAL, &off, NULL);
  pid_t pid = fork();
  for (int i = 0; i < 5; i++) twice();
  if (pid == 0) _exit(0);
  int st = 0;
  waitpid(pid, &st, 0);
  printf("counts ok %ld %d %s\n", sum, ticks > 0 ? 1 : 0,
         WIFEXITED(st) && !WEXITSTATUS(st) ? "child ok" : "child failed");
  return 0;
}
