/* SPDX-License-Identifier: MIT */
/* Test program, rdtsc: reads the time-stamp counter with rdtsc and rdtscp
 * and prints every value; the end-to-end test finds them in RDTSC records
 * and checks that they increase. A fork child also executes rdtsc: it must
 * not die of the trap it inherited. */
#include <stdio.h>
#include <sys/wait.h>
#include <unistd.h>
#include <x86intrin.h>

/* Bytes that look like rdtsc (0f 31) in the middle of other instructions:
 * `rol $15, %edx` ends in 0f, `xor %edx, %esi` starts with 31. Patching
 * them to int3 would change what this returns. In .text.unlikely, which
 * the linker puts before main: the first such pattern of the mapping. */
__attribute__((noinline, section(".text.unlikely"))) static unsigned
lookalike(unsigned x) {
  unsigned out = 0x12345678;
  __asm__ volatile("rol $15, %%edx\n\txor %%edx, %%esi" : "+d"(x), "+S"(out));
  return out;
}

int main(void) {
  unsigned long long v[6];
  unsigned aux;
  for (int i = 0; i < 5; i++) v[i] = __rdtsc();
  v[5] = __rdtscp(&aux);
  for (int i = 0; i < 6; i++) printf("%llu\n", v[i]);
  printf("lookalike %x\n", lookalike(0xdeadbeef));
  fflush(stdout);
  pid_t pid = fork();
  if (pid == 0) _exit(__rdtsc() ? 0 : 1);
  int st = 0;
  waitpid(pid, &st, 0);
  printf("child %d\n", WIFEXITED(st) ? WEXITSTATUS(st) : 100 + WTERMSIG(st));
  return 0;
}
