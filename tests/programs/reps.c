/* SPDX-License-Identifier: MIT */
/* Test program: rep string instructions whose iterations are known exactly,
 * for rewind analyze rep (tests/replay/reps.sh). Each runs from its own
 * function (named after what it checks), in inline assembly so that the
 * compiler neither adds nor removes one:
 *
 *   copy3      rep movsb of 100 bytes, 3 times
 *   fill       rep stosq of 17 quadwords, once
 *   zero       rep movsb with rcx 0, once (an execution of no iteration)
 *   find       repne scasb for the 0 at index 9 of 50 bytes: 10 iterations,
 *              ended early by its condition
 *   compare    repe cmpsb of two 20-byte buffers that differ at index 5:
 *              6 iterations, ended early
 *   edge       rep movsb of 100 bytes whose source runs into a PROT_NONE
 *              page after 40: it faults after 40 iterations (a SIGSEGV
 *              handler jumps back)
 *
 * Prints "reps ok" when every result is as expected. */
#define _GNU_SOURCE
#include <setjmp.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

static char src[128], dst[128];
static uint64_t qw[32];
static sigjmp_buf back;
static volatile int three = 3; /* so that the loop stays a loop */

__attribute__((noinline)) static void copy3(void) {
  for (int i = 0; i < three; i++) {
    void *d = dst, *s = src;
    uint64_t n = 100;
    __asm__ volatile("rep movsb"
                     : "+D"(d), "+S"(s), "+c"(n)
                     :
                     : "memory");
  }
}

__attribute__((noinline)) static void fill(void) {
  void *d = qw;
  uint64_t n = 17;
  __asm__ volatile("rep stosq"
                   : "+D"(d), "+c"(n)
                   : "a"(0x1122334455667788ull)
                   : "memory");
}

__attribute__((noinline)) static void zero(void) {
  void *d = dst, *s = src;
  uint64_t n = 0;
  __asm__ volatile("rep movsb" : "+D"(d), "+S"(s), "+c"(n) : : "memory");
}

/* The iterations repne scasb did to find the 0 at index 9. */
__attribute__((noinline)) static uint64_t find(void) {
  char s[50];
  memset(s, 'x', sizeof s);
  s[9] = 0;
  void *d = s;
  uint64_t n = sizeof s;
  __asm__ volatile("repne scasb" : "+D"(d), "+c"(n) : "a"(0) : "memory");
  return sizeof s - n;
}

/* The iterations repe cmpsb did to find the difference at index 5. */
__attribute__((noinline)) static uint64_t compare(void) {
  char a[20], b[20];
  memset(a, 'y', sizeof a);
  memcpy(b, a, sizeof b);
  b[5] = 'z';
  void *d = b, *s = a;
  uint64_t n = sizeof a;
  __asm__ volatile("repe cmpsb" : "+D"(d), "+S"(s), "+c"(n) : : "memory");
  return sizeof a - n;
}

static volatile uint64_t left; /* rcx when the copy faulted */

static void on_segv(int sig, siginfo_t *si, void *uc) {
  (void)sig, (void)si;
  left = (uint64_t)((ucontext_t *)uc)->uc_mcontext.gregs[REG_RCX];
  siglongjmp(back, 1);
}

/* The iterations done before the fault, or -1. */
__attribute__((noinline)) static long edge(char *page) {
  if (sigsetjmp(back, 1)) return (long)(100 - left);
  void *d = dst, *s = page + 4096 - 40;
  uint64_t n = 100;
  __asm__ volatile("rep movsb" : "+D"(d), "+S"(s), "+c"(n) : : "memory");
  return -1;
}

int main(void) {
  memset(src, 'a', sizeof src);
  char *page = mmap(NULL, 8192, PROT_READ | PROT_WRITE,
                    MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  if (page == MAP_FAILED || mprotect(page + 4096, 4096, PROT_NONE)) {
    perror("mmap");
    return 1;
  }
  struct sigaction sa;
  memset(&sa, 0, sizeof sa);
  sa.sa_sigaction = on_segv;
  sa.sa_flags = SA_SIGINFO;
  sigaction(SIGSEGV, &sa, NULL);
  copy3();
  fill();
  zero();
  uint64_t f = find(), c = compare();
  long e = edge(page);
  int ok = dst[99] == 'a' && qw[16] == 0x1122334455667788ull && !qw[17] &&
           f == 10 && c == 6 && e == 40;
  printf("reps %s (find %llu, compare %llu, edge %ld)\n", ok ? "ok" : "WRONG",
         (unsigned long long)f, (unsigned long long)c, e);
  return !ok;
}
