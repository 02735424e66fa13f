/* SPDX-License-Identifier: MIT */
/* Test program: reads the hardware random number generator with rdrand at
 * 16, 32 and 64 bits (and rdseed where the CPU has it), in a loop, and
 * prints every value and its CF: a recording must capture them, since no
 * CPU without CPUID faulting can trap these instructions. With the
 * argument "jit" it runs an rdrand it wrote into memory at run time, which
 * the recorder cannot see: the replay must stop there and say so. Exits 77
 * (skip) without rdrand. */
#include <cpuid.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>

int main(int argc, char **argv) {
  unsigned a, b, c, d;
  if (!__get_cpuid(1, &a, &b, &c, &d) || !(c & bit_RDRND)) return 77;
  int seed = __get_cpuid_count(7, 0, &a, &b, &c, &d) && (b & bit_RDSEED);
  if (argc > 1 && !strcmp(argv[1], "jit")) {
    /* rdrand rax; ret */
    static const unsigned char code[] = {0x48, 0x0f, 0xc7, 0xf0, 0xc3};
    void *p = mmap(NULL, 4096, PROT_READ | PROT_WRITE | PROT_EXEC,
                   MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (p == MAP_FAILED) return 1;
    memcpy(p, code, sizeof code);
    unsigned long (*f)(void) = (unsigned long (*)(void))p;
    printf("jit %lx\n", f());
    return 0;
  }
  for (int i = 0; i < 4; i++) {
    unsigned long q;
    unsigned int l;
    unsigned short w = 0x5555;
    unsigned char ok1, ok2, ok3;
    __asm__ volatile("rdrand %0; setc %1" : "=r"(q), "=qm"(ok1));
    __asm__ volatile("rdrand %0; setc %1" : "=r"(l), "=qm"(ok2));
    __asm__ volatile("rdrand %0; setc %1" : "+r"(w), "=qm"(ok3));
    printf("rdrand %d: %016lx %d %08x %d %04x %d\n", i, q, ok1, l, ok2, w,
           ok3);
    if (seed) {
      unsigned long s;
      unsigned char ok;
      __asm__ volatile("rdseed %0; setc %1" : "=r"(s), "=qm"(ok));
      printf("rdseed %d: %016lx %d\n", i, s, ok);
    }
  }
  return 0;
}
