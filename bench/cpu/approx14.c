/* SPDX-License-Identifier: MIT */
/* Measures this CPU's vrcp14 and vrsqrt14 against the integer model the
 * emulator computes them with (replayer/cpu/softfp_approx.c), for a CPU
 * design whose approximation is not known yet (bench/RESULTS.md, "vrcp14
 * and vrsqrt14 on Zen 5"). Needs AVX-512F; never run by make check:
 *
 *   bench/cpu/approx14 [STEP]     (make bench-approx14)
 *
 * compares every STEP-th single (default 1: all 2^32) in zmm vectors under
 * the default MXCSR and DAZ+FTZ, the scalar forms on every 7th single under
 * five MXCSR settings, 20 million doubles of each class (normal, denormal,
 * tiny, huge) under the same five, and checks that no MXCSR flag is raised
 * on the special operands. Prints the differences it finds and a line per
 * comparison; exits 1 when any differs, 77 without AVX-512F. */
#include <cpuid.h>
#include <immintrin.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "replayer/cpu/softfp.h"

#define AVX512 __attribute__((target("avx512f")))

static const unsigned mxcsrs[5] = {0x1f80, 0x1fc0, 0x9f80, 0x9fc0, 0x7f80};
static long differ;

static void report(const char *what, unsigned mx, u64 x, u64 cpu, u64 model) {
  if (differ++ < 20)
    printf("  %s, mxcsr %#x: %#llx gives %#llx, the model %#llx\n", what, mx,
           (unsigned long long)x, (unsigned long long)cpu,
           (unsigned long long)model);
}

/* Every STEP-th single through the zmm forms under MX. */
AVX512 static long packed_singles(int rsqrt, unsigned mx, u64 step) {
  long bad = 0;
  for (u64 x = 0; x < (1ull << 32); x += 16 * step) {
    u32 in[16], out[16];
    for (int j = 0; j < 16; j++) in[j] = (u32)(x + (u64)j * step);
    _mm_setcsr(mx);
    __m512 v = _mm512_loadu_ps(in);
    _mm512_storeu_ps(out, rsqrt ? _mm512_rsqrt14_ps(v) : _mm512_rcp14_ps(v));
    for (int j = 0; j < 16; j++) {
      u32 e = (u32)cpu__sf_approx14(&cpu__sf_f32, in[j], rsqrt, mx);
      if (e != out[j]) {
        bad++;
        report(rsqrt ? "vrsqrt14ps" : "vrcp14ps", mx, in[j], out[j], e);
      }
    }
  }
  return bad;
}

AVX512 static u32 scalar_single(u32 x, int rsqrt) {
  float a, r;
  memcpy(&a, &x, 4);
  __m128 v = _mm_set_ss(a), z = _mm_setzero_ps();
  r = _mm_cvtss_f32(rsqrt ? _mm_rsqrt14_ss(z, v) : _mm_rcp14_ss(z, v));
  memcpy(&x, &r, 4);
  return x;
}

AVX512 static u64 scalar_double(u64 x, int rsqrt) {
  double a, r;
  memcpy(&a, &x, 8);
  __m128d v = _mm_set_sd(a), z = _mm_setzero_pd();
  r = _mm_cvtsd_f64(rsqrt ? _mm_rsqrt14_sd(z, v) : _mm_rcp14_sd(z, v));
  memcpy(&x, &r, 8);
  return x;
}

/* A random double of class K: normal, denormal, tiny, huge. */
static u64 double_of(int k) {
  u64 x = (u64)rand() << 42 ^ (u64)rand() << 21 ^ (u64)rand();
  u64 sm = x & 0x800fffffffffffffull;
  switch (k) {
    case 1: return sm;
    case 2: return sm | (u64)(rand() % 40 + 1) << 52;
    case 3: return sm | (u64)(2046 - rand() % 40) << 52;
    default: return x;
  }
}

int main(int argc, char **argv) {
  unsigned a, b, c, d;
  if (!__get_cpuid_count(7, 0, &a, &b, &c, &d) || !(b & (1u << 16))) {
    printf("approx14: this CPU has no AVX-512F\n");
    return 77;
  }
  u64 step = argc > 1 ? strtoull(argv[1], NULL, 0) : 1;
  if (!step) step = 1;
  for (int rs = 0; rs < 2; rs++) {
    const char *f = rs ? "vrsqrt14" : "vrcp14";
    for (int m = 0; m < 5; m += 3) {
      long bad = packed_singles(rs, mxcsrs[m], step);
      printf("%sps, 1 in %llu singles, mxcsr %#x: %ld differ\n", f,
             (unsigned long long)step, mxcsrs[m], bad);
      fflush(stdout);
    }
    for (int m = 0; m < 5; m++) {
      long bad = 0;
      _mm_setcsr(mxcsrs[m]);
      for (u64 x = 0; x < (1ull << 32); x += 7) {
        u32 h = scalar_single((u32)x, rs);
        u32 e = (u32)cpu__sf_approx14(&cpu__sf_f32, x, rs, mxcsrs[m]);
        if (h != e) bad++, report(f, mxcsrs[m], x, h, e);
      }
      srand(7);
      long dbad = 0;
      for (long i = 0; i < 20000000; i++) {
        u64 x = double_of((int)(i & 3));
        u64 h = scalar_double(x, rs);
        u64 e = cpu__sf_approx14(&cpu__sf_f64, x, rs, mxcsrs[m]);
        if (h != e) dbad++, report(f, mxcsrs[m], x, h, e);
      }
      printf("%sss/sd, mxcsr %#x: every 7th single %ld differ, 20000000 "
             "doubles %ld differ\n", f, mxcsrs[m], bad, dbad);
      fflush(stdout);
    }
  }
  /* Flags: none on zeros, denormals, infinities, NaNs, negatives. */
  static const u32 special[] = {0, 0x80000000, 1, 0x807fffff, 0x7f800000,
                                0xff800000, 0x7fc00000, 0x7f800001,
                                0xbf800000, 0x00800000, 0x7f7fffff};
  int flagged = 0;
  for (int m = 0; m < 5; m++)
    for (int rs = 0; rs < 2; rs++)
      for (size_t i = 0; i < sizeof special / sizeof *special; i++) {
        _mm_setcsr(mxcsrs[m]);
        (void)scalar_single(special[i], rs);
        unsigned st = _mm_getcsr() & 0x3f;
        if (st && flagged++ < 20)
          printf("  %s of %#x under %#x raised flags %#x\n",
                 rs ? "vrsqrt14ss" : "vrcp14ss", special[i], mxcsrs[m], st);
      }
  _mm_setcsr(0x1f80);
  printf("flags raised on special operands: %d\n", flagged);
  printf("approx14: %ld differences\n", differ);
  return differ || flagged ? 1 : 0;
}
