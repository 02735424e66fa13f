/* SPDX-License-Identifier: MIT */
/* AVX-512 instructions for tests/replay/avx512.sh: each group runs
 * on pseudo-random vectors and opmasks at 128, 256 and 512 bits, with
 * merge- and zero-masking, broadcasts and masked memory operands, and
 * prints one checksum per group, so that a replay that computes any element
 * differently writes different output. Masked loads and stores also run
 * against the end of a page followed by an inaccessible one: masked-off
 * elements there must not fault. Built with the AVX-512 subsets of Ice
 * Lake (F, BW, DQ, VL, VBMI, VBMI2, IFMA, VPOPCNTDQ, BITALG).
 *
 *   avx512           the groups
 *   avx512 signals   a loop that keeps its state in zmm16, zmm5's upper
 *                    half and k2 while profiling signals interrupt it: the
 *                    kernel saves them in each signal frame and restores
 *                    them at rt_sigreturn
 *   avx512 thread    a thread created with zmm30 and k6 set sees them: clone
 *                    copies the AVX-512 state */
#include <cpuid.h>
#include <immintrin.h>
#include <pthread.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/time.h>
#include <unistd.h>

static uint64_t rng = 0x9e3779b97f4a7c15ull;

static uint64_t next(void) {
  rng ^= rng << 13;
  rng ^= rng >> 7;
  rng ^= rng << 17;
  return rng;
}

static __m512i rnd512(void) {
  uint64_t q[8];
  for (int i = 0; i < 8; i++) {
    q[i] = next();
    if ((next() & 7) == 0) q[i] = 0;           /* some zero elements */
    if ((next() & 7) == 0) q[i] = ~(uint64_t)0; /* and all-ones ones */
  }
  return _mm512_loadu_si512(q);
}

static uint64_t sum;

static void fold(__m512i v) {
  uint64_t q[8];
  _mm512_storeu_si512(q, v);
  for (int i = 0; i < 8; i++) sum = (sum ^ q[i]) * 0x100000001b3ull + i;
}
static void fold256(__m256i v) { fold(_mm512_zextsi256_si512(v)); }
static void fold128(__m128i v) { fold(_mm512_zextsi128_si512(v)); }
static void foldk(uint64_t k) { sum = (sum ^ k) * 0x100000001b3ull; }

static void report(const char *name) {
  printf("%-12s %016llx\n", name, (unsigned long long)sum);
  sum = 0;
}

#define N 300

static void logic(void) {
  for (int i = 0; i < N; i++) {
    __m512i a = rnd512(), b = rnd512(), c = rnd512();
    __mmask16 k = (__mmask16)next();
    __mmask8 k8 = (__mmask8)next();
    fold(_mm512_and_si512(a, b));
    fold(_mm512_mask_andnot_epi32(c, k, a, b));
    fold(_mm512_maskz_or_epi64(k8, a, b));
    fold(_mm512_mask_xor_epi32(a, k, b, c));
    fold(_mm512_ternarylogic_epi32(a, b, c, 0x1e));
    fold(_mm512_ternarylogic_epi32(a, b, c, 0xca));
    fold(_mm512_mask_ternarylogic_epi64(a, k8, b, c, 0x96));
    fold(_mm512_maskz_ternarylogic_epi32(k, a, b, c, 0xe8));
    fold256(_mm256_mask_xor_epi64(_mm512_castsi512_si256(a), k8,
                                  _mm512_castsi512_si256(b),
                                  _mm512_castsi512_si256(c)));
  }
  report("logic");
}

static void arith(void) {
  for (int i = 0; i < N; i++) {
    __m512i a = rnd512(), b = rnd512(), c = rnd512();
    __mmask64 k = next();
    __mmask32 k32 = (__mmask32)next();
    __mmask16 k16 = (__mmask16)next();
    __mmask8 k8 = (__mmask8)next();
    fold(_mm512_add_epi8(a, b));
    fold(_mm512_mask_sub_epi8(c, k, a, b));
    fold(_mm512_maskz_add_epi16(k32, a, b));
    fold(_mm512_mask_add_epi32(c, k16, a, b));
    fold(_mm512_maskz_sub_epi64(k8, a, b));
    fold(_mm512_adds_epi8(a, b));
    fold(_mm512_subs_epu8(a, b));
    fold(_mm512_mask_adds_epu16(c, k32, a, b));
    fold(_mm512_subs_epi16(a, b));
    fold(_mm512_min_epu8(a, b));
    fold(_mm512_mask_max_epi16(c, k32, a, b));
    fold(_mm512_min_epi32(a, b));
    fold(_mm512_maskz_max_epu32(k16, a, b));
    fold(_mm512_min_epi64(a, b));
    fold(_mm512_max_epu64(a, b));
    fold(_mm512_avg_epu8(a, b));
    fold(_mm512_avg_epu16(a, b));
    fold(_mm512_abs_epi8(a));
    fold(_mm512_mask_abs_epi32(c, k16, a));
    fold(_mm512_abs_epi64(b));
    fold(_mm512_mullo_epi16(a, b));
    fold(_mm512_mulhi_epi16(a, b));
    fold(_mm512_mulhi_epu16(a, b));
    fold(_mm512_mullo_epi32(a, b));
    fold(_mm512_mullo_epi64(a, b));
    fold(_mm512_mul_epu32(a, b));
    fold(_mm512_mul_epi32(a, b));
    fold(_mm512_madd_epi16(a, b));
    fold(_mm512_mask_maddubs_epi16(c, k32, a, b));
    fold(_mm512_madd52lo_epu64(c, a, b));
    fold(_mm512_mask_madd52hi_epu64(c, k8, a, b));
    fold(_mm512_sad_epu8(a, b));
    fold(_mm512_popcnt_epi8(a));
    fold(_mm512_popcnt_epi16(a));
    fold(_mm512_maskz_popcnt_epi32(k16, a));
    fold(_mm512_popcnt_epi64(b));
    fold128(_mm_maskz_add_epi32(k8, _mm512_castsi512_si128(a),
                                _mm512_castsi512_si128(b)));
  }
  report("arith");
}

static void compare(void) {
  for (int i = 0; i < N; i++) {
    __m512i a = rnd512(), b = rnd512();
    if (i & 1) b = _mm512_mask_blend_epi8(next(), a, b); /* some equal */
    __mmask64 k = next();
    foldk(_mm512_cmpeq_epi8_mask(a, b));
    foldk(_mm512_mask_cmpgt_epi8_mask(k, a, b));
    foldk(_mm512_cmpeq_epi16_mask(a, b));
    foldk(_mm512_cmpgt_epi32_mask(a, b));
    foldk(_mm512_cmpeq_epi64_mask(a, b));
    foldk(_mm512_cmpgt_epi64_mask(a, b));
#define PRED(p)                                     \
  foldk(_mm512_cmp_epu8_mask(a, b, p));             \
  foldk(_mm512_mask_cmp_epi8_mask(k, a, b, p));     \
  foldk(_mm512_cmp_epu16_mask(a, b, p));            \
  foldk(_mm512_cmp_epi32_mask(a, b, p));            \
  foldk(_mm512_cmp_epu64_mask(a, b, p));
    PRED(0) PRED(1) PRED(2) PRED(3) PRED(4) PRED(5) PRED(6) PRED(7)
#undef PRED
    foldk(_mm512_test_epi8_mask(a, b));
    foldk(_mm512_testn_epi16_mask(a, b));
    foldk(_mm512_mask_test_epi32_mask((__mmask16)k, a, b));
    foldk(_mm512_testn_epi64_mask(a, b));
    foldk(_mm512_movepi8_mask(a));
    foldk(_mm512_movepi16_mask(a));
    foldk(_mm512_movepi32_mask(a));
    foldk(_mm512_movepi64_mask(a));
    fold(_mm512_movm_epi8(k));
    fold(_mm512_movm_epi16((__mmask32)k));
    fold(_mm512_movm_epi32((__mmask16)k));
    fold(_mm512_movm_epi64((__mmask8)k));
  }
  report("compare");
}

static void kregs(void) {
  for (int i = 0; i < N; i++) {
    __mmask64 a = next(), b = next();
    __mmask16 w = (__mmask16)a, v = (__mmask16)b;
    foldk(_kand_mask64(a, b));
    foldk(_kandn_mask64(a, b));
    foldk(_kor_mask32((__mmask32)a, (__mmask32)b));
    foldk(_kxor_mask16(w, v));
    foldk(_kxnor_mask64(a, b));
    foldk(_knot_mask8((__mmask8)a));
    foldk(_kadd_mask64(a, b));
    foldk(_kadd_mask16(w, v));
    foldk(_kshiftli_mask64(a, 13));
    foldk(_kshiftri_mask32((__mmask32)a, 7));
    foldk(_kshiftli_mask8((__mmask8)a, 3));
    foldk(_mm512_kunpackb(w, v));
    foldk(_mm512_kunpackd(a, b));
    unsigned char cf;
    foldk(_kortest_mask64_u8(a, (i & 3) ? b : ~a, &cf));
    foldk(cf);
    foldk(_ktest_mask32_u8((__mmask32)a, (__mmask32)b, &cf));
    foldk(cf);
    foldk(_kortestz_mask16_u8(w, (i & 1) ? 0 : v));
  }
  report("kregs");
}

static void shuffle(void) {
  for (int i = 0; i < N; i++) {
    __m512i a = rnd512(), b = rnd512(), c = rnd512();
    __mmask64 k = next();
    __mmask16 k16 = (__mmask16)next();
    __mmask8 k8 = (__mmask8)next();
    fold(_mm512_shuffle_epi8(a, b));
    fold(_mm512_mask_shuffle_epi8(c, k, a, b));
    { /* non-temporal moves and the floating-point broadcasts (bits only) */
      static __m512i nt[2];
      _mm512_stream_si512(&nt[0], a);
      _mm512_stream_ps((float *)&nt[1], _mm512_castsi512_ps(b));
      fold(_mm512_stream_load_si512(&nt[0]));
      fold(nt[1]);
      _mm512_stream_pd((double *)&nt[1], _mm512_castsi512_pd(c));
      fold(nt[1]);
      volatile float f = (float)(i * 3);
      volatile double d = (double)i;
      fold(_mm512_castps_si512(_mm512_set1_ps(f)));
      fold(_mm512_castps_si512(_mm512_mask_broadcastss_ps(
          _mm512_castsi512_ps(c), k16, _mm_castsi128_ps(_mm512_castsi512_si128(a)))));
      fold(_mm512_castpd_si512(_mm512_maskz_broadcastsd_pd(
          k8, _mm_castsi128_pd(_mm512_castsi512_si128(b)))));
      fold(_mm512_castpd_si512(_mm512_set1_pd(d)));
      fold(_mm512_castps_si512(_mm512_broadcast_f32x4(
          _mm_loadu_ps((const float *)&nt[0]))));
      fold(_mm512_castpd_si512(_mm512_broadcast_f64x4(
          _mm256_loadu_pd((const double *)&nt[1]))));
      fold(_mm512_castps_si512(_mm512_broadcast_f32x8(
          _mm256_loadu_ps((const float *)&nt[0]))));
      fold(_mm512_castpd_si512(_mm512_mask_broadcast_f64x2(
          _mm512_castsi512_pd(a), k8, _mm_loadu_pd((const double *)&nt[1]))));
    }
    fold(_mm512_shuffle_epi32(a, _MM_PERM_BADC));
    fold(_mm512_permutexvar_epi8(b, a));
    fold(_mm512_maskz_permutexvar_epi16((__mmask32)k, b, a));
    fold(_mm512_permutexvar_epi32(b, a));
    fold(_mm512_permutexvar_epi64(b, a));
    fold(_mm512_permutex_epi64(a, 0x1b));
    fold(_mm512_permutex2var_epi8(a, b, c));
    fold(_mm512_mask2_permutex2var_epi8(a, b, k, c));
    fold(_mm512_permutex2var_epi16(a, b, c));
    fold(_mm512_mask_permutex2var_epi32(a, k16, b, c));
    fold(_mm512_permutex2var_epi64(a, b, c));
    fold(_mm512_mask_blend_epi8(k, a, b));
    fold(_mm512_mask_blend_epi16((__mmask32)k, a, b));
    fold(_mm512_mask_blend_epi32(k16, a, b));
    fold(_mm512_mask_blend_epi64(k8, a, b));
    fold(_mm512_maskz_compress_epi8(k, a));
    fold(_mm512_mask_compress_epi16(c, (__mmask32)k, a));
    fold(_mm512_maskz_compress_epi32(k16, a));
    fold(_mm512_mask_compress_epi64(c, k8, a));
    fold(_mm512_maskz_expand_epi8(k, a));
    fold(_mm512_mask_expand_epi16(c, (__mmask32)k, a));
    fold(_mm512_maskz_expand_epi32(k16, a));
    fold(_mm512_mask_expand_epi64(c, k8, a));
    fold(_mm512_cvtepu8_epi16(_mm512_castsi512_si256(a)));
    fold(_mm512_cvtepu8_epi32(_mm512_castsi512_si128(a)));
    fold(_mm512_cvtepi8_epi64(_mm512_castsi512_si128(a)));
    fold(_mm512_maskz_cvtepu16_epi32(k16, _mm512_castsi512_si256(a)));
    fold(_mm512_cvtepi16_epi64(_mm512_castsi512_si128(a)));
    fold(_mm512_cvtepu32_epi64(_mm512_castsi512_si256(a)));
    fold256(_mm512_cvtepi16_epi8(a));
    fold128(_mm512_cvtepi32_epi8(a));
    fold256(_mm512_cvtepi32_epi16(a));
    fold128(_mm512_cvtepi64_epi16(a));
    fold256(_mm512_cvtepi64_epi32(a));
    fold256(_mm512_cvtusepi16_epi8(a));
    fold256(_mm512_cvtsepi32_epi16(a));
    fold256(_mm512_mask_cvtepi16_epi8(_mm512_castsi512_si256(c),
                                      (__mmask32)k, a));
    fold(_mm512_inserti32x4(a, _mm512_castsi512_si128(b), 2));
    fold(_mm512_inserti64x4(a, _mm512_castsi512_si256(b), 1));
    fold128(_mm512_extracti32x4_epi32(a, 3));
    fold256(_mm512_extracti64x4_epi64(a, 1));
    fold256(_mm512_extracti32x8_epi32(a, 1));
    fold(_mm512_shuffle_i32x4(a, b, 0x4e));
    fold(_mm512_shuffle_i64x2(a, b, 0xb1));
    fold(_mm512_alignr_epi32(a, b, 5));
    fold(_mm512_mask_alignr_epi64(c, k8, a, b, 3));
    fold(_mm512_alignr_epi8(a, b, 9));
    fold(_mm512_unpacklo_epi8(a, b));
    fold(_mm512_unpackhi_epi16(a, b));
    fold(_mm512_unpacklo_epi32(a, b));
    fold(_mm512_unpackhi_epi64(a, b));
    fold(_mm512_packus_epi16(a, b));
    fold(_mm512_packs_epi16(a, b));
    fold(_mm512_packs_epi32(a, b));
    fold(_mm512_packus_epi32(a, b));
    fold(_mm512_multishift_epi64_epi8(a, b));
    fold(_mm512_shldi_epi16(a, b, 5));
    fold(_mm512_shrdi_epi32(a, b, 11));
    fold(_mm512_shldi_epi64(a, b, 40));
    fold(_mm512_broadcastb_epi8(_mm512_castsi512_si128(a)));
    fold(_mm512_mask_set1_epi32(c, k16, (int)i));
    fold(_mm512_set1_epi64((long long)next()));
    fold(_mm512_broadcast_i32x4(_mm512_castsi512_si128(b)));
    fold(_mm512_broadcast_i64x4(_mm512_castsi512_si256(b)));
  }
  report("shuffle");
}

static void shifts(void) {
  for (int i = 0; i < N; i++) {
    __m512i a = rnd512(), b = rnd512(), c = rnd512();
    __mmask32 k = (__mmask32)next();
    __m128i cnt = _mm_cvtsi32_si128((int)(next() % 70));
    __m512i sm = _mm512_and_si512(b, _mm512_set1_epi8(0x47));
    fold(_mm512_slli_epi16(a, 3));
    fold(_mm512_srli_epi32(a, 17));
    fold(_mm512_srai_epi64(a, 40));
    fold(_mm512_mask_slli_epi64(c, (__mmask8)k, a, 63));
    fold(_mm512_sll_epi16(a, cnt));
    fold(_mm512_srl_epi32(a, cnt));
    fold(_mm512_sra_epi64(a, cnt));
    fold(_mm512_sra_epi16(a, cnt));
    fold(_mm512_sllv_epi32(a, sm));
    fold(_mm512_srlv_epi64(a, sm));
    fold(_mm512_srav_epi16(a, sm));
    fold(_mm512_mask_sllv_epi16(c, k, a, sm));
    fold(_mm512_rol_epi32(a, 7));
    fold(_mm512_ror_epi64(a, 21));
    fold(_mm512_rolv_epi64(a, b));
    fold(_mm512_rorv_epi32(a, b));
    fold(_mm512_bslli_epi128(a, 5));
    fold(_mm512_bsrli_epi128(a, 11));
  }
  report("shifts");
}

/* Random floats and doubles: ordinary values of many magnitudes, with
 * zeros, infinities, NaNs and denormals among them. */
static __m512 rndps(void) {
  uint32_t d[16];
  static const uint32_t edge[] = {0, 0x80000000u, 0x7f800000u, 0xff800000u,
                                  0x7fc00000u, 0x7f800001u, 0x00000001u,
                                  0x007fffffu, 0x7f7fffffu, 0x3f800000u};
  for (int i = 0; i < 16; i++) {
    uint64_t x = next();
    d[i] = (x & 7) == 0 ? edge[(x >> 8) % 10]
                        : (uint32_t)(x >> 32) % 0x7f000000u + 0x00800000u;
    if (x & 0x100000) d[i] |= 0x80000000u;
  }
  return _mm512_castsi512_ps(_mm512_loadu_si512(d));
}
static __m512d rndpd(void) {
  uint64_t q[8];
  static const uint64_t edge[] = {0, 1ull << 63, 0x7ff0000000000000ull,
                                  0x7ff8000000000000ull,
                                  0x7ff0000000000001ull, 1,
                                  0x000fffffffffffffull,
                                  0x7fefffffffffffffull,
                                  0x3ff0000000000000ull};
  for (int i = 0; i < 8; i++) {
    uint64_t x = next();
    q[i] = (x & 7) == 0 ? edge[(x >> 8) % 9]
                        : x % 0x7fe0000000000000ull + 0x0010000000000000ull;
    if (x & 0x100000) q[i] |= 1ull << 63;
  }
  return _mm512_castsi512_pd(_mm512_loadu_si512(q));
}
#define FOLDPS(v) fold(_mm512_castps_si512(v))
#define FOLDPD(v) fold(_mm512_castpd_si512(v))

/* Floating point: arithmetic, square roots, fused multiply-adds and
 * compares with masks, embedded rounding and SAE; MXCSR's flags join the
 * checksum, so a replay that raises a different exception differs. */
static void fp(void) {
  for (int i = 0; i < N; i++) {
    __m512 a = rndps(), b = rndps(), c = rndps();
    __m512d x = rndpd(), y = rndpd(), z = rndpd();
    __mmask16 k = (__mmask16)next();
    __mmask8 k8 = (__mmask8)next();
    _mm_setcsr(0x1f80 | (i & 3) << 13 | (i & 4 ? 0x8040 : 0));
    FOLDPS(_mm512_add_ps(a, b));
    FOLDPS(_mm512_mask_sub_ps(c, k, a, b));
    FOLDPS(_mm512_maskz_mul_ps(k, a, b));
    FOLDPS(_mm512_div_ps(a, b));
    FOLDPS(_mm512_div_round_ps(a, b, _MM_FROUND_TO_ZERO |
                                          _MM_FROUND_NO_EXC));
    FOLDPS(_mm512_mask_sqrt_ps(c, k, a));
    FOLDPS(_mm512_min_ps(a, b));
    FOLDPS(_mm512_maskz_max_ps(k, a, b));
    FOLDPS(_mm512_fmadd_ps(a, b, c));
    FOLDPS(_mm512_mask_fmsub_ps(a, k, b, c));
    FOLDPS(_mm512_fnmadd_round_ps(a, b, c, _MM_FROUND_TO_POS_INF |
                                               _MM_FROUND_NO_EXC));
    FOLDPS(_mm512_mask3_fmaddsub_ps(a, b, c, k));
    FOLDPD(_mm512_add_pd(x, y));
    FOLDPD(_mm512_mask_mul_pd(z, k8, x, y));
    FOLDPD(_mm512_sqrt_round_pd(x, _MM_FROUND_TO_NEG_INF |
                                       _MM_FROUND_NO_EXC));
    FOLDPD(_mm512_maskz_fnmsub_pd(k8, x, y, z));
    FOLDPD(_mm512_fmsubadd_pd(x, y, z));
    fold(_mm512_castps_si512(_mm512_castps256_ps512(
        _mm256_mask_add_ps(_mm512_castps512_ps256(c), (__mmask8)k,
                           _mm512_castps512_ps256(a),
                           _mm512_castps512_ps256(b)))));
    fold128(_mm_castpd_si128(
        _mm_mask_div_sd(_mm512_castpd512_pd128(z), k8,
                        _mm512_castpd512_pd128(x),
                        _mm512_castpd512_pd128(y))));
    fold128(_mm_castps_si128(_mm_maskz_fmadd_ss(
        k, _mm512_castps512_ps128(a), _mm512_castps512_ps128(b),
        _mm512_castps512_ps128(c))));
    fold128(_mm_castps_si128(_mm_add_round_ss(
        _mm512_castps512_ps128(a), _mm512_castps512_ps128(b),
        _MM_FROUND_TO_NEAREST_INT | _MM_FROUND_NO_EXC)));
#define FPRED(p)                                      \
  foldk(_mm512_cmp_ps_mask(a, b, p));                 \
  foldk(_mm512_mask_cmp_pd_mask(k8, x, y, p));
    FPRED(0) FPRED(1) FPRED(2) FPRED(3) FPRED(4) FPRED(5) FPRED(6)
    FPRED(7) FPRED(8) FPRED(13) FPRED(17) FPRED(22) FPRED(27) FPRED(31)
#undef FPRED
    foldk(_mm_cmp_ss_mask(_mm512_castps512_ps128(a),
                          _mm512_castps512_ps128(b), _CMP_LT_OS));
    fold(_mm512_cvtps_epi32(a));
    fold(_mm512_mask_cvttps_epi32(_mm512_castps_si512(c), k, b));
    FOLDPS(_mm512_cvt_roundepi32_ps(_mm512_castps_si512(a),
                                    _MM_FROUND_TO_NEG_INF |
                                        _MM_FROUND_NO_EXC));
    FOLDPD(_mm512_cvtps_pd(_mm512_castps512_ps256(a)));
    FOLDPS(_mm512_castps256_ps512(_mm512_maskz_cvtpd_ps(k8, x)));
    fold(_mm512_cvttpd_epi64(y));
    fold(_mm512_mask_cvtps_epi64(_mm512_castpd_si512(z), k8,
                                 _mm512_castps512_ps256(b)));
    FOLDPD(_mm512_cvtepi64_pd(_mm512_castpd_si512(x)));
    FOLDPD(_mm512_permutexvar_pd(_mm512_castpd_si512(z), x));
    FOLDPS(_mm512_shuffle_f32x4(a, b, 0x1b));
    FOLDPS(_mm512_xor_ps(a, b));
    FOLDPD(_mm512_mask_andnot_pd(z, k8, x, y));
    foldk(_mm_getcsr());
  }
  _mm_setcsr(0x1f80);
  report("fp");
}

/* The instructions that take floating-point values apart, the 14-bit
 * approximations, gathers and scatters, under the four roundings with
 * DAZ and FTZ on and off; MXCSR's flags join the checksum. */
static void special(void) {
  static double tab[64];
  static float tabf[64];
  for (int i = 0; i < 64; i++) {
    tab[i] = (double)(i * 37 % 64) - 20.5;
    tabf[i] = (float)tab[i] * 0.25f;
  }
  for (int i = 0; i < N; i++) {
    __m512 a = rndps(), b = rndps();
    __m512d x = rndpd(), y = rndpd();
    __mmask16 k = (__mmask16)next();
    __mmask8 k8 = (__mmask8)next();
    _mm_setcsr(0x1f80 | (i & 3) << 13 | (i & 4 ? 0x8040 : 0));
    FOLDPS(_mm512_getexp_ps(a));
    FOLDPD(_mm512_mask_getexp_pd(y, k8, x));
    FOLDPS(_mm512_getmant_ps(a, _MM_MANT_NORM_p5_2, _MM_MANT_SIGN_src));
    FOLDPD(_mm512_maskz_getmant_pd(k8, x, _MM_MANT_NORM_p75_1p5,
                                   _MM_MANT_SIGN_nan));
    FOLDPS(_mm512_scalef_ps(a, b));
    FOLDPD(_mm512_scalef_round_pd(x, y, _MM_FROUND_TO_NEG_INF |
                                            _MM_FROUND_NO_EXC));
    FOLDPS(_mm512_roundscale_ps(a, 0x31));
    FOLDPD(_mm512_mask_roundscale_pd(y, k8, x, 0x4c));
    FOLDPS(_mm512_reduce_ps(a, 0x22));
    FOLDPD(_mm512_maskz_reduce_pd(k8, x, 0x14));
    FOLDPS(_mm512_range_ps(a, b, 0x07));
    FOLDPD(_mm512_mask_range_pd(y, k8, x, y, 0x0a));
    FOLDPS(_mm512_fixupimm_ps(a, b, _mm512_set1_epi32(0x76543210),
                              0x5a));
    FOLDPD(_mm512_fixupimm_pd(x, y, _mm512_set1_epi64(0x0fedcba9), 0x00));
    foldk(_mm512_fpclass_ps_mask(a, 0xa5));
    foldk(_mm512_mask_fpclass_pd_mask(k8, x, 0x5a));
    fold128(_mm_castpd_si128(_mm_getexp_sd(_mm512_castpd512_pd128(y),
                                           _mm512_castpd512_pd128(x))));
    FOLDPS(_mm512_rcp14_ps(a));
    FOLDPD(_mm512_mask_rsqrt14_pd(y, k8, x));
    __m512i idx = _mm512_and_si512(_mm512_castps_si512(b),
                                   _mm512_set1_epi32(63));
    FOLDPS(_mm512_mask_i32gather_ps(a, k, idx, tabf, 4));
    FOLDPD(_mm512_i32gather_pd(_mm512_castsi512_si256(idx), tab, 8));
    _mm512_mask_i32scatter_ps(tabf, k, idx, b, 4);
    foldk(_mm_getcsr());
  }
  _mm_setcsr(0x1f80);
  for (int i = 0; i < 64; i++)
    fold128(_mm_castps_si128(_mm_set_ss(tabf[i])));
  report("special");
}

/* Whether CPUID leaf 7 subleaf 0 has bit BIT of EBX (REG 1), ECX (2) or
 * EDX (4), or subleaf 1 bit BIT of EAX (REG 3). */
static int has7(int reg, int bit) {
  unsigned a, b, c, d;
  __cpuid_count(7, reg == 3, a, b, c, d);
  return ((reg == 1 ? b : reg == 2 ? c : reg == 4 ? d : a) >> bit) & 1;
}

/* Conversions with unsigned and general-register values, half precision,
 * compares into RFLAGS, the FP shuffles and element inserts/extracts, and
 * the EVEX forms of GFNI, VAES and VPCLMULQDQ (skipped, saying so, on a
 * CPU without the last three). */
static void convert(void) {
  int crypto = has7(2, 8) && has7(2, 9) && has7(2, 10);
  for (int i = 0; i < N; i++) {
    __m512 a = rndps(), b = rndps();
    __m512d x = rndpd(), y = rndpd();
    __m512i v = rnd512(), w = rnd512();
    __mmask16 k = (__mmask16)next();
    __mmask8 k8 = (__mmask8)next();
    uint64_t g = next();
    _mm_setcsr(0x1f80 | (i & 3) << 13 | (i & 4 ? 0x8040 : 0));
    FOLDPS(_mm512_cvtepu32_ps(v));
    FOLDPD(_mm512_mask_cvtepu32_pd(x, k8, _mm512_castsi512_si256(v)));
    FOLDPS(_mm512_castps256_ps512(_mm512_cvt_roundepu64_ps(
        w, _MM_FROUND_TO_POS_INF | _MM_FROUND_NO_EXC)));
    FOLDPD(_mm512_maskz_cvtepu64_pd(k8, w));
    fold(_mm512_cvtps_epu32(a));
    fold(_mm512_mask_cvttps_epu32(v, k, a));
    fold(_mm512_castsi256_si512(_mm512_cvtpd_epu32(x)));
    fold(_mm512_cvttpd_epu64(x));
    fold(_mm512_maskz_cvtps_epu64(k8, _mm512_castps512_ps256(a)));
    fold256(_mm256_cvttps_epu64(_mm512_castps512_ps128(b)));
    __m128d xd = _mm512_castpd512_pd128(x);
    __m128 xs = _mm512_castps512_ps128(a);
    foldk(_mm_cvtsd_u64(xd) ^ _mm_cvttss_u32(xs) ^
          (uint64_t)_mm_cvt_roundsd_i64(xd, _MM_FROUND_TO_ZERO |
                                                _MM_FROUND_NO_EXC));
    fold128(_mm_castpd_si128(_mm_cvtu64_sd(xd, g)));
    fold128(_mm_castps_si128(_mm_cvt_roundu32_ss(
        xs, (unsigned)g, _MM_FROUND_TO_NEG_INF | _MM_FROUND_NO_EXC)));
    fold(_mm512_castps_si512(_mm512_cvtph_ps(_mm512_castsi512_si256(v))));
    fold256(_mm512_mask_cvtps_ph(_mm512_castsi512_si256(w), k, a,
                                 _MM_FROUND_TO_NEAREST_INT));
    foldk((unsigned)_mm_comilt_sd(xd, _mm512_castpd512_pd128(y)) << 1 |
          (unsigned)_mm_ucomige_ss(xs, _mm512_castps512_ps128(b)));
    FOLDPS(_mm512_mask_permutevar_ps(a, k, b, v));
    FOLDPD(_mm512_permute_pd(x, 0x5a));
    FOLDPS(_mm512_maskz_shuffle_ps(k, a, b, 0x1b));
    FOLDPD(_mm512_shuffle_pd(x, y, 0xa5));
    FOLDPS(_mm512_movehdup_ps(a));
    FOLDPD(_mm512_mask_movedup_pd(y, k8, x));
    fold(_mm512_shufflehi_epi16(v, 0x93));
    fold(_mm512_maskz_shufflelo_epi16((__mmask32)g, w, 0x39));
    fold(_mm512_broadcast_i32x2(_mm512_castsi512_si128(v)));
    fold128(_mm_castps_si128(_mm_insert_ps(xs, _mm512_castps512_ps128(b),
                                           0x9c)));
    foldk((unsigned)_mm_extract_ps(xs, 2) ^
          (uint64_t)_mm_extract_epi64(_mm512_castsi512_si128(w), 1));
    fold128(_mm_insert_epi8(_mm512_castsi512_si128(v), (int)g, 13));
    if (crypto) {
      fold(_mm512_gf2p8affine_epi64_epi8(v, w, 0x63));
      fold(_mm512_mask_gf2p8mul_epi8(v, (__mmask64)g, v, w));
      fold(_mm512_aesenc_epi128(v, w));
      fold(_mm512_aesdeclast_epi128(w, v));
      fold(_mm512_clmulepi64_epi128(v, w, 0x10));
    }
    foldk(_mm_getcsr());
  }
  _mm_setcsr(0x1f80);
  if (!crypto) puts("convert: no GFNI, VAES or VPCLMULQDQ");
  report("convert");
}

/* Dot products (VNNI, its VEX form AVX-VNNI, BF16), conflict detection
 * and leading zeros (CD), VP2INTERSECT, vpshufbitqmb (BITALG), the
 * variable double shifts (VBMI2), vpmulhrsw and vdbpsadbw. AVX-VNNI, BF16
 * and VP2INTERSECT are skipped, saying so, on a CPU without them. */
static void dot(void) {
  int bf16 = has7(3, 5), p2i = has7(4, 8), avxvnni = has7(3, 4);
  static __m256i mem[4];
  for (int i = 0; i < N; i++) {
    __m512i v = rnd512(), w = rnd512(), u = rnd512();
    __m512 a = rndps(), b = rndps();
    __mmask16 k = (__mmask16)next();
    __mmask64 g = next();
    fold(_mm512_dpbusd_epi32(u, v, w));
    fold(_mm512_mask_dpbusds_epi32(u, k, v, w));
    fold256(_mm256_maskz_dpwssd_epi32((__mmask8)k, _mm512_castsi512_si256(u),
                                      _mm512_castsi512_si256(v),
                                      _mm512_castsi512_si256(w)));
    fold(_mm512_dpwssds_epi32(u, v, w));
    /* Few distinct values, so that conflicts occur. */
    __m512i small = _mm512_and_si512(v, _mm512_set1_epi32(7));
    fold(_mm512_conflict_epi32(small));
    fold(_mm512_maskz_conflict_epi64((__mmask8)k,
                                     _mm512_and_si512(w, _mm512_set1_epi64(3))));
    fold(_mm512_lzcnt_epi32(_mm512_srlv_epi32(v, w)));
    fold(_mm512_mask_lzcnt_epi64(u, (__mmask8)k, w));
    fold(_mm512_broadcastmw_epi32(k));
    fold(_mm512_broadcastmb_epi64((__mmask8)g));
    foldk(_mm512_bitshuffle_epi64_mask(v, w));
    fold(_mm512_shldv_epi16(u, v, w));
    fold(_mm512_mask_shrdv_epi32(u, k, v, w));
    fold(_mm512_maskz_shldv_epi64((__mmask8)k, u, v, w));
    fold(_mm512_mulhrs_epi16(v, w));
    fold(_mm512_dbsad_epu8(v, w, 0x4e));
    fold(_mm512_maskz_dbsad_epu8((__mmask32)g, v, w, 0x93));
    if (bf16) {
      fold(_mm512_castps_si512(_mm512_dpbf16_ps(a, (__m512bh)v,
                                                (__m512bh)w)));
      fold((__m512i)_mm512_cvtne2ps_pbh(a, b));
      fold256((__m256i)_mm512_maskz_cvtneps_pbh(k, b));
    }
    if (avxvnni) {
      mem[i & 3] = _mm512_castsi512_si256(w);
      fold256(_mm256_dpbusd_avx_epi32(_mm512_castsi512_si256(u),
                                      _mm512_castsi512_si256(v), mem[i & 3]));
      fold128(_mm_dpbusds_avx_epi32(_mm512_castsi512_si128(u),
                                    _mm512_castsi512_si128(v),
                                    _mm512_castsi512_si128(w)));
      fold256(_mm256_dpwssd_avx_epi32(_mm512_castsi512_si256(u),
                                      _mm512_castsi512_si256(w),
                                      _mm512_castsi512_si256(v)));
      fold128(_mm_dpwssds_avx_epi32(_mm512_castsi512_si128(u),
                                    _mm512_castsi512_si128(w),
                                    *(__m128i *)&mem[(i + 1) & 3]));
    }
    if (p2i) {
      __mmask16 k1, k2;
      _mm512_2intersect_epi32(small, _mm512_and_si512(w, _mm512_set1_epi32(7)),
                              &k1, &k2);
      foldk((uint64_t)k1 << 16 | k2);
    }
  }
  if (!avxvnni) puts("dot: no AVX-VNNI");
  if (!bf16) puts("dot: no AVX512_BF16");
  if (!p2i) puts("dot: no AVX512_VP2INTERSECT");
  report("dot");
}

/* Masked loads and stores against the end of a page that an inaccessible
 * one follows. */
static void edges(void) {
  long pg = sysconf(_SC_PAGESIZE);
  unsigned char *p = mmap(NULL, 2 * pg, PROT_READ | PROT_WRITE,
                          MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  if (p == MAP_FAILED || mprotect(p + pg, pg, PROT_NONE)) {
    perror("mmap");
    return;
  }
  for (long i = 0; i < pg; i++) p[i] = (unsigned char)(i * 7 + 3);
  for (int left = 1; left <= 64; left++) {
    unsigned char *at = p + pg - left;
    __mmask64 m = left == 64 ? ~0ull : (1ull << left) - 1;
    __m512i v = _mm512_maskz_loadu_epi8(m, at);
    fold(v);
    v = _mm512_add_epi8(v, _mm512_set1_epi8(1));
    _mm512_mask_storeu_epi8(at, m, v);
    __mmask16 m32 = (__mmask16)((1u << (left / 4)) - 1);
    fold(_mm512_mask_loadu_epi32(_mm512_set1_epi32(-1), m32,
                                 p + pg - 4 * (left / 4)));
    __mmask64 half = m & 0x5555555555555555ull;
    _mm512_mask_compressstoreu_epi8(p + pg - left, half, v);
    fold(_mm512_maskz_expandloadu_epi8(half, p + pg - left));
    _mm512_mask_cvtepi32_storeu_epi8(p + pg - 16 + (left & 15),
                                     (__mmask16)((1u << (16 - (left & 15))) - 1),
                                     _mm512_set1_epi32(left));
  }
  for (long i = 0; i < pg; i++) sum = (sum ^ p[i]) * 0x100000001b3ull;
  report("edges");
  munmap(p, 2 * pg);
}

/* gdb stops here (tests/replay/avx512.sh) with zmm17 and k3 set by
 * main just before the call. */
__attribute__((noinline)) void avx512_checkpoint(void) {
  __asm__ volatile("" ::: "memory");
}

static volatile sig_atomic_t ticks;
static void on_prof(int sig) {
  (void)sig;
  ticks++;
}

/* The loop holds everything in AVX-512 state only (zmm16, bits 511:256 of
 * zmm5, k2): a replay that loses it at a signal's return prints another
 * sum. */
static void signals_mode(void) {
  static const uint64_t seed[8] = {1, 2, 3, 4, 5, 6, 7, 0x9e3779b97f4a7c15ull};
  uint64_t out[8], out2[8], k = 0;
  struct itimerval it = {{0, 200}, {0, 200}};
  signal(SIGPROF, on_prof);
  setitimer(ITIMER_PROF, &it, NULL);
  for (int round = 0; round < 1000 && (round < 4 || ticks < 1); round++)
    __asm__ volatile(
        "vmovdqu64 %3, %%zmm16\n\t"
        "vmovdqu64 %3, %%zmm5\n\t"
        "movl $0x5a, %%eax\n\t"
        "kmovq %%rax, %%k2\n\t"
        "movl $50000, %%ecx\n"
        "1:\n\t"
        "vprolq $13, %%zmm16, %%zmm17\n\t"
        "vpaddq %%zmm5, %%zmm17, %%zmm16\n\t"
        "vpxorq %%zmm16, %%zmm5, %%zmm5\n\t"
        "kaddq %%k2, %%k2, %%k2\n\t"
        "korq %%k2, %%k1, %%k1\n\t"
        "decl %%ecx\n\t"
        "jnz 1b\n\t"
        "vmovdqu64 %%zmm16, %0\n\t"
        "vmovdqu64 %%zmm5, %1\n\t"
        "kmovq %%k2, %2"
        : "=m"(out), "=m"(out2), "=r"(k)
        : "m"(seed)
        : "rax", "rcx", "xmm5", "xmm16", "xmm17", "k1", "k2", "cc");
  it.it_value.tv_usec = it.it_interval.tv_usec = 0;
  setitimer(ITIMER_PROF, &it, NULL);
  sum = k;
  for (int i = 0; i < 8; i++) sum = (sum * 31 + out[i]) * 31 + out2[i];
  printf("signals %016llx%s\n", (unsigned long long)sum,
         ticks ? "" : " (no signal arrived)");
}

static void *thread_main(void *arg) {
  uint64_t z[8], k;
  (void)arg;
  __asm__ volatile("vmovdqu64 %%zmm30, %0\n\tkmovq %%k6, %1"
                   : "=m"(z), "=r"(k));
  sum = k;
  for (int i = 0; i < 8; i++) sum = sum * 31 + z[i];
  return NULL;
}

static void thread_mode(void) {
  static const uint64_t pat[8] = {11, 22, 33, 44, 55, 66, 77, 88};
  pthread_t t;
  __asm__ volatile("vmovdqu64 %0, %%zmm30\n\t"
                   "movq $0x1234567890abcdef, %%rax\n\t"
                   "kmovq %%rax, %%k6"
                   :
                   : "m"(pat)
                   : "xmm30", "k6", "rax");
  if (pthread_create(&t, NULL, thread_main, NULL)) return;
  pthread_join(t, NULL);
  printf("thread %016llx\n", (unsigned long long)sum);
}

int main(int argc, char **argv) {
  if (argc > 1 && !strcmp(argv[1], "signals")) {
    signals_mode();
    return 0;
  }
  if (argc > 1 && !strcmp(argv[1], "thread")) {
    thread_mode();
    return 0;
  }
  static const uint32_t pat[16] = {0, 1, 2, 3, 4, 5, 6, 7,
                                   8, 9, 10, 11, 12, 13, 14, 0x7fff0042};
  __asm__ volatile("vmovdqu32 %0, %%zmm17\n\t"
                   "movl $0xa5c3, %%eax\n\t"
                   "kmovw %%eax, %%k3"
                   :
                   : "m"(pat)
                   : "xmm17", "k3", "rax");
  avx512_checkpoint();
  logic();
  arith();
  compare();
  kregs();
  shuffle();
  shifts();
  edges();
  fp();
  special();
  convert();
  dot();
  return 0;
}
