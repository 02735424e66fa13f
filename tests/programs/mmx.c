/* SPDX-License-Identifier: MIT */
/* Test program: MMX in a recording. Written in inline assembly, because
 * GCC compiles the __m64 intrinsics to SSE on x86-64. It runs the MMX
 * arithmetic, shifts, packs, shuffles and moves, the SSE and SSSE3 forms on
 * mm registers and the conversions between mm and xmm; sums a buffer with
 * psadbw; shows the aliasing of mm registers with the x87 stack (an x87
 * load without emms overflows the stack and gives the indefinite NaN, with
 * emms it works); and stops in mmx_checkpoint with mm3 = 0x0123456789abcdef
 * for gdb. Prints everything it computes. */
#include <stdint.h>
#include <stdio.h>
#include <string.h>

__attribute__((noinline)) void mmx_checkpoint(void) {
  __asm__ volatile("" ::: "memory");
}

static uint64_t ops(uint64_t a, uint64_t b, int k) {
  uint64_t r = a;
  switch (k) {
#define OP2(n, insn)                                                  \
  case n:                                                             \
    __asm__("movq %1, %%mm0\n\tmovq %2, %%mm1\n\t" insn               \
            " %%mm1, %%mm0\n\tmovq %%mm0, %0"                         \
            : "=r"(r)                                                 \
            : "r"(a), "r"(b)                                          \
            : "mm0", "mm1");                                          \
    break;
    OP2(0, "paddb") OP2(1, "paddsw") OP2(2, "psubusb") OP2(3, "pmullw")
    OP2(4, "pmulhw") OP2(5, "pmaddwd") OP2(6, "pcmpgtw") OP2(7, "pcmpeqb")
    OP2(8, "packsswb") OP2(9, "packuswb") OP2(10, "punpckhbw")
    OP2(11, "punpckldq") OP2(12, "pandn") OP2(13, "pxor") OP2(14, "psllw")
    OP2(15, "psrad") OP2(16, "pavgb") OP2(17, "pminsw") OP2(18, "pmaxub")
    OP2(19, "psadbw") OP2(20, "pmuludq") OP2(21, "paddq") OP2(22, "pshufb")
    OP2(23, "phaddw") OP2(24, "pmulhrsw") OP2(25, "psignb") OP2(26, "pabsd")
    OP2(27, "pmaddubsw") OP2(28, "phsubsw") OP2(29, "pmulhuw")
    case 30:
      __asm__("movq %1, %%mm2\n\tpshufw $0x1b, %%mm2, %%mm3\n\t"
              "psrlq $12, %%mm3\n\tmovq %%mm3, %0"
              : "=r"(r)
              : "r"(a)
              : "mm2", "mm3");
      break;
    case 31:
      __asm__("movq %1, %%mm4\n\tmovq %2, %%mm5\n\tpalignr $3, %%mm5, %%mm4\n\t"
              "movq %%mm4, %0"
              : "=r"(r)
              : "r"(a), "r"(b)
              : "mm4", "mm5");
      break;
    case 32: {
      uint32_t w;
      __asm__("movq %2, %%mm6\n\tpinsrw $2, %3, %%mm6\n\tpextrw $2, %%mm6, %1\n\t"
              "pmovmskb %%mm6, %k0\n\tshl $16, %k0\n\tor %1, %k0"
              : "=&r"(r), "=&r"(w)
              : "r"(a), "r"((uint32_t)b)
              : "mm6");
      break;
    }
  }
  return r;
}

/* psadbw over a buffer: the sum of all its bytes, 8 at a time. */
static uint64_t byte_sum(const uint8_t *p, size_t n) {
  uint64_t s;
  __asm__ volatile("pxor %%mm7, %%mm7" ::: "mm7");
  __asm__ volatile("pxor %%mm6, %%mm6" ::: "mm6");
  for (size_t i = 0; i + 8 <= n; i += 8)
    __asm__ volatile("movq (%0), %%mm0\n\tpsadbw %%mm7, %%mm0\n\t"
                     "paddq %%mm0, %%mm6"
                     :
                     : "r"(p + i)
                     : "mm0", "mm6", "memory");
  __asm__ volatile("movq %%mm6, %0\n\temms" : "=r"(s) : : "mm6");
  return s;
}

int main(void) {
  static const uint64_t v[] = {0x0123456789abcdefull, 0xfedcba9876543210ull,
                               0x7fff8000ffff0001ull, 0x8080808080808080ull,
                               0x00ff00ff7f7f0000ull, 0x0000000100000002ull};
  uint64_t h = 0;
  for (int k = 0; k <= 32; k++)
    for (unsigned i = 0; i < 6; i++) {
      uint64_t r = ops(v[i], v[(i + k) % 6], k);
      h = h * 31 + r;
      if (i == 0) printf("op%d %016llx\n", k, (unsigned long long)r);
    }
  __asm__ volatile("emms");
  printf("hash %016llx\n", (unsigned long long)h);

  /* Conversions between mm and xmm. */
  {
    float f[4] = {1.5f, -2.75f, 3e9f, -0.5f};
    int32_t out[2];
    double d[2];
    __asm__ volatile(
        "movups %2, %%xmm1\n\tcvtps2pi %%xmm1, %%mm0\n\tmovq %%mm0, %0\n\t"
        "cvtpi2pd %%mm0, %%xmm2\n\tmovupd %%xmm2, %1\n\temms"
        : "=m"(out), "=m"(d)
        : "m"(f)
        : "xmm1", "xmm2", "mm0");
    printf("cvt %d %d %g %g\n", out[0], out[1], d[0], d[1]);
  }

  /* The x87 stack after MMX: full without emms, usable with it. */
  {
    double a, b;
    __asm__ volatile("movq %2, %%mm0\n\tfld1\n\tfstpl %0\n\tfninit\n\t"
                     "movq %2, %%mm0\n\temms\n\tfld1\n\tfstpl %1"
                     : "=m"(a), "=m"(b)
                     : "r"(v[0])
                     : "mm0", "st");
    printf("x87 %g %g\n", a, b);
  }

  /* maskmovq into a buffer, movq2dq and movdq2q. */
  {
    uint8_t buf[8];
    uint64_t x;
    memset(buf, '.', sizeof buf);
    __asm__ volatile("movq %1, %%mm1\n\tmovq %2, %%mm2\n\tmaskmovq %%mm2, %%mm1\n\t"
                     "movq2dq %%mm1, %%xmm3\n\tmovdq2q %%xmm3, %%mm4\n\t"
                     "movq %%mm4, %0\n\temms"
                     : "=r"(x)
                     : "r"(0x4847464544434241ull), "r"(0x8000800080008000ull),
                       "D"(buf)
                     : "mm1", "mm2", "mm4", "xmm3", "memory");
    printf("maskmovq %.8s %016llx\n", (char *)buf, (unsigned long long)x);
  }

  static uint8_t data[1 << 16];
  for (size_t i = 0; i < sizeof data; i++) data[i] = (uint8_t)(i * 2654435761u >> 13);
  printf("sum %llu\n", (unsigned long long)byte_sum(data, sizeof data));

  __asm__ volatile("movq %0, %%mm3" : : "r"(v[0]) : "mm3");
  mmx_checkpoint();
  __asm__ volatile("emms");
  return 0;
}
