/* SPDX-License-Identifier: MIT */
/* Test program: a store to a read-only page whose SIGSEGV handler makes
 * the page writable and returns, so that the store runs again. The
 * kernel returns to the faulting store with RF (the resume flag) set in
 * rflags; the processor clears it once the store completes, so
 * after_store() sees it clear. Then ROUNDS (argument, default 40)
 * million rounds of arithmetic without a syscall, where keyframes land,
 * and the result. */
#define _GNU_SOURCE
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <unistd.h>

static char *page;

static void make_writable(int sig) {
  (void)sig;
  mprotect(page, 4096, PROT_READ | PROT_WRITE);
}

__attribute__((noinline)) static unsigned long after_store(unsigned long x) {
  __asm__ volatile("" : "+r"(x));
  return x * 3;
}

int main(int argc, char **argv) {
  long rounds = (argc > 1 ? atol(argv[1]) : 40) * 1000000;
  page = mmap(NULL, 4096, PROT_READ, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  if (page == MAP_FAILED) return 1;
  signal(SIGSEGV, make_writable);
  *(volatile char *)page = 7; /* faults once, then stores */
  unsigned long x = after_store((unsigned long)page[0]);
  for (long i = 0; i < rounds; i++) x = x * 6364136223846793005ul + 1;
  printf("resumeflag: %d %lu\n", page[0], x & 0xff);
  return 0;
}
