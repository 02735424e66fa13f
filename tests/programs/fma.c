/* SPDX-License-Identifier: MIT */
/* FMA and F16C in a recorded program (tests/replay/fma.sh): packed and
 * scalar fused multiply-adds of every kind through intrinsics, under each
 * rounding mode and with FTZ and DAZ, a product whose rounding error only a
 * fused operation keeps, half-precision conversions under each rounding
 * selector, and glibc's libm functions, which take their FMA forms
 * on a CPU with FMA. Prints every result in hex, then the fused residue
 * the gdb test reads back from a register. */
#include <fenv.h>
#include <immintrin.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

static void show(const char *what, __m256d v) {
  double d[4];
  _mm256_storeu_pd(d, v);
  printf("%s %a %a %a %a\n", what, d[0], d[1], d[2], d[3]);
}

static void shows(const char *what, __m256 v) {
  float f[8];
  _mm256_storeu_ps(f, v);
  printf("%s", what);
  for (int i = 0; i < 8; i++) printf(" %a", f[i]);
  printf("\n");
}

/* Where the gdb test stops: R, the residue, is in xmm0 at the call. */
__attribute__((noinline)) void fma_checkpoint(double r) {
  printf("residue %a\n", r);
}

int main(int argc, char **argv) {
  (void)argv;
  /* argc keeps the compiler from folding the arithmetic. */
  double x = 1.0 + ldexp(1.0, -30) * argc;
  __m256d a = _mm256_set_pd(x, -x, 3.0 * x, 1e300 * x);
  __m256d b = _mm256_set_pd(x, x / 3.0, -7.0 / x, 1e10 * x);
  __m256d c = _mm256_set_pd(-1.0, 0.5, 1e-300, -1e308);
  __m256 af = _mm256_set_ps(1.5f, -2.25f, 1e-20f, 3e38f, 0.1f, -0.3f, 7.0f, 1.0f / 3.0f);
  __m256 bf = _mm256_set_ps(2.0f, 1e-20f, 1e-20f, 2.0f, 0.7f, 0.3f, -7.0f, 3.0f);
  __m256 cf = _mm256_set_ps(-3.0f, 0.0f, -0.0f, 1.0f, 0.07f, 0.09f, 49.0f, -1.0f);
  static const int modes[] = {FE_TONEAREST, FE_DOWNWARD, FE_UPWARD, FE_TOWARDZERO};
  for (int m = 0; m < 4; m++) {
    fesetround(modes[m]);
    show("fmadd", _mm256_fmadd_pd(a, b, c));
    show("fmsub", _mm256_fmsub_pd(a, b, c));
    show("fnmadd", _mm256_fnmadd_pd(a, b, c));
    show("fnmsub", _mm256_fnmsub_pd(a, b, c));
    show("fmaddsub", _mm256_fmaddsub_pd(a, b, c));
    shows("fmaddps", _mm256_fmadd_ps(af, bf, cf));
    shows("fmsubaddps", _mm256_fmsubadd_ps(af, bf, cf));
    __m128d s = _mm_fmadd_sd(_mm256_castpd256_pd128(a), _mm256_castpd256_pd128(b),
                             _mm256_castpd256_pd128(c));
    printf("sd %a\n", _mm_cvtsd_f64(s));
  }
  fesetround(FE_TONEAREST);
  /* Tiny results: flushed under FTZ, denormal operands zero under DAZ. */
  unsigned csr = _mm_getcsr() & ~0x3fu;
  for (int k = 0; k < 2; k++) {
    volatile double t = ldexp(1.0, -1060) * argc;
    __m256d tiny = _mm256_set1_pd(t);
    _mm_setcsr(csr | (k ? 0x8040 : 0));
    __asm__ volatile("" : "+x"(tiny));
    __m256d r = _mm256_fmadd_pd(tiny, _mm256_set1_pd(0.75), tiny);
    __asm__ volatile("" : "+x"(r));
    unsigned fl = _mm_getcsr() & 0x3f;
    _mm_setcsr(csr);
    show(k ? "ftzdaz" : "denormal", r);
    printf("mxcsr flags %#x\n", fl);
  }
  /* libm: exp, log, pow, sin and friends use FMA here. */
  double acc = 0;
  for (int i = 1; i <= 2000; i++) {
    double t = i * 0.01 * argc;
    acc += exp(-t) + log(t) + pow(t, 1.37) + sin(t) * cos(t) + atan(t) + cbrt(t);
  }
  printf("libm %a\n", acc);
  float accf = 0;
  for (int i = 1; i <= 2000; i++) accf += expf(i * 0.003f) * sinf(i * 0.01f);
  printf("libmf %a\n", (double)accf);
  /* F16C: singles to halves under each rounding selector, and back. */
  __m256 hs = _mm256_set_ps(65504.0f, 65520.0f, 1e-7f, 6e-8f, -0.1f, 3.14159f,
                            1e5f * argc, 2049.0f);
  for (int m = 0; m < 4; m++) {
    __m128i h = m == 0   ? _mm256_cvtps_ph(hs, 0)
                : m == 1 ? _mm256_cvtps_ph(hs, 1)
                : m == 2 ? _mm256_cvtps_ph(hs, 2)
                         : _mm256_cvtps_ph(hs, 3);
    unsigned short hw[8];
    _mm_storeu_si128((__m128i *)hw, h);
    printf("f16 %d:", m);
    for (int i = 0; i < 8; i++) printf(" %04x", hw[i]);
    shows(" back", _mm256_cvtph_ps(h));
  }
  /* x*x rounds away 2^-60; the fused x*x - round(x*x) gets it back. */
  double p = x * x;
  fma_checkpoint(fma(x, x, -p));
  return 0;
}
