/* SPDX-License-Identifier: MIT */
/* Test program: Intel TSX. Updates a counter in RTM transactions with the
 * usual fallback to a lock (which it takes with the HLE prefixes xacquire
 * and xrelease), asks xtest inside and outside, aborts a transaction with
 * xabort, runs xabort and xend outside one (xend raises SIGSEGV, caught),
 * and runs an xbegin with a 16-bit displacement from code it writes and
 * then makes executable with mprotect, twice. It prints what it saw: how
 * each transaction ended (natively most commit; under rewind every one
 * aborts with status 0, since the recorder aborts each xbegin) and the
 * counter. With the argument "jit" it runs an xbegin it wrote into memory
 * that was already executable, which the recorder cannot see: the replay
 * must stop there and say so. Exits 77 (skip) without RTM. */
#include <cpuid.h>
#include <setjmp.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>

#define STARTED 0xffffffffu

static volatile int lock;
/* A word and its neighbour, for an HLE-prefixed 16-bit xadd. */
static volatile struct {
  unsigned short w, after;
} words = {0xfffe, 0x1234};
static sigjmp_buf env;

/* xbegin with its fallback right after it, as _xbegin() compiles:
 * STARTED inside the transaction, else the abort status. */
static unsigned tx_begin(void) {
  unsigned st = STARTED;
  __asm__ volatile("xbegin 1f\n1:" : "+a"(st)::"memory");
  return st;
}

static void tx_end(void) { __asm__ volatile("xend" ::: "memory"); }

/* 1 inside a transaction (xtest clears ZF), 0 outside. */
static int in_tx(void) {
  unsigned char z;
  __asm__ volatile("xtest; setz %0" : "=qm"(z)::"cc");
  return !z;
}

/* The arithmetic flags xtest leaves, from all six set (below the red
 * zone, which the compiler may use). */
static unsigned long xtest_flags(void) {
  unsigned long f;
  __asm__ volatile(
      "lea -128(%%rsp), %%rsp; pushfq; orq $0x8d5, (%%rsp); popfq; xtest; "
      "pushfq; pop %0; lea 128(%%rsp), %%rsp"
      : "=r"(f)::"cc");
  return f & 0x8d5;
}

static void spin_lock(void) {
  int one = 1;
  do __asm__ volatile("xacquire lock xchg %0, %1" : "+r"(one), "+m"(lock));
  while (one);
}

static void spin_unlock(void) {
  __asm__ volatile("xrelease movl $0, %0" : "=m"(lock)::"memory");
}

static void on_segv(int sig) { siglongjmp(env, sig); }

int main(int argc, char **argv) {
  unsigned a, b, c, d;
  if (!__get_cpuid_count(7, 0, &a, &b, &c, &d) || !(b & (1u << 11)))
    return 77;
  if (argc > 1 && !strcmp(argv[1], "jit")) {
    /* mov eax, 7; xbegin +3 (to the ret); xabort 1; ret */
    static const unsigned char code[] = {0xb8, 7,    0,    0, 0,    0xc7,
                                         0xf8, 3,    0,    0, 0,    0xc6,
                                         0xf8, 0x01, 0xc3};
    void *p = mmap(NULL, 4096, PROT_READ | PROT_WRITE | PROT_EXEC,
                   MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (p == MAP_FAILED) return 1;
    memcpy(p, code, sizeof code);
    unsigned (*f)(void) = (unsigned (*)(void))p;
    printf("jit: eax %#x\n", f());
    return 0;
  }
  printf("xtest outside: %d, flags %#lx\n", in_tx(), xtest_flags());
  long counter = 0;
  int committed = 0, aborted = 0;
  unsigned last = 0;
  for (int i = 0; i < 8; i++) {
    unsigned st = tx_begin();
    if (st == STARTED) {
      if (lock) __asm__ volatile("xabort $0xff" ::: "memory");
      counter += in_tx(); /* 1: it is a transaction */
      tx_end();
      committed++;
    } else {
      spin_lock();
      counter++;
      spin_unlock();
      aborted++;
      last = st;
    }
  }
  printf("counter %ld (%s)\n", counter,
         committed ? "some transactions committed" : "every one aborted");
  if (aborted)
    printf("%s aborted, status %#x\n", committed ? "some" : "all", last);
  unsigned short inc = 3;
  __asm__ volatile("xacquire lock xaddw %0, %1" : "+r"(inc), "+m"(words.w));
  printf("xacquire xaddw: old %#x, now %#x, next %#x\n", inc, words.w,
         words.after);
  unsigned st = tx_begin();
  if (st == STARTED) __asm__ volatile("xabort $0x5a" ::: "memory");
  printf("xabort 0x5a: status %#x (%s)\n", st,
         st == 0x5a000001 ? "explicit abort" : "aborted before xabort");
  __asm__ volatile("xabort $0x11");
  printf("xabort outside: no effect\n");
  signal(SIGSEGV, on_segv);
  if (!sigsetjmp(env, 1)) {
    tx_end();
    printf("xend outside: no fault\n");
  } else {
    printf("xend outside: SIGSEGV\n");
  }
  /* xbegin rel16 (66 C7 F8 cw) to the ret, after a mov eax, 7 and an
   * xabort 2: code made executable by mprotect, which the recorder scans
   * (the second time over its own int3). */
  static const unsigned char rel16[] = {0xb8, 7, 0,    0,    0,    0x66,
                                        0xc7, 0xf8, 3,    0,    0xc6,
                                        0xf8, 0x02, 0xc3};
  unsigned char *p = mmap(NULL, 4096, PROT_READ | PROT_WRITE,
                          MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  if (p == MAP_FAILED) return 1;
  memcpy(p, rel16, sizeof rel16);
  if (mprotect(p, 4096, PROT_READ | PROT_EXEC) ||
      mprotect(p, 4096, PROT_READ | PROT_EXEC))
    return 1;
  unsigned (*f)(void) = (unsigned (*)(void))(void *)p;
  unsigned r = f();
  printf("xbegin rel16: %s\n", r == 7         ? "committed"
                               : r == 0x2000001 ? "explicit abort"
                                                : "aborted before xabort");
  return 0;
}
