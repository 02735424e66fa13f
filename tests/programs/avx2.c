/* SPDX-License-Identifier: MIT */
/* AVX and AVX2 in a recorded program (tests/replay/avx.sh): intrinsics for
 * 256-bit integer and floating-point arithmetic, cross-lane permutes,
 * variable shifts, blends, masked loads and stores, gathers, broadcasts, lane
 * inserts and extracts, and the glibc string functions, which take their
 * AVX2 forms on this CPU. Prints a checksum of everything it computed and
 * the hex of one YMM value the gdb test reads back. */
#include <immintrin.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static uint64_t mix(uint64_t h, const void *p, size_t n) {
  const unsigned char *b = p;
  for (size_t i = 0; i < n; i++) h = (h ^ b[i]) * 0x100000001b3ull;
  return h;
}

/* Where the gdb test stops: V is in a YMM register at the call. */
__attribute__((noinline)) void avx2_checkpoint(__m256i v) {
  uint64_t q[4];
  _mm256_storeu_si256((__m256i *)q, v);
  printf("checkpoint %016llx%016llx%016llx%016llx\n", (unsigned long long)q[3],
         (unsigned long long)q[2], (unsigned long long)q[1],
         (unsigned long long)q[0]);
}

int main(void) {
  static int32_t a[1024], b[1024], c[1024];
  static float f[1024], g[1024];
  uint64_t h = 0xcbf29ce484222325ull;
  for (int i = 0; i < 1024; i++) {
    a[i] = i * 2654435761u;
    b[i] = (i * 7) ^ 0x5a5a;
    f[i] = (float)i / 3.0f - 100.0f;
    g[i] = 1.0f / (float)(i + 1);
  }
  for (int i = 0; i < 1024; i += 8) {
    __m256i x = _mm256_loadu_si256((const __m256i *)(a + i));
    __m256i y = _mm256_loadu_si256((const __m256i *)(b + i));
    __m256i s = _mm256_add_epi32(_mm256_mullo_epi32(x, y), _mm256_srli_epi32(x, 3));
    __m256i cnt = _mm256_and_si256(y, _mm256_set1_epi32(31));
    s = _mm256_xor_si256(s, _mm256_sllv_epi32(x, cnt));
    s = _mm256_add_epi32(s, _mm256_srav_epi32(y, cnt));
    s = _mm256_permutevar8x32_epi32(s, _mm256_set_epi32(0, 7, 1, 6, 2, 5, 3, 4));
    s = _mm256_permute4x64_epi64(s, 0x4e);
    s = _mm256_blendv_epi8(s, x, _mm256_cmpgt_epi32(x, y));
    s = _mm256_shuffle_epi8(s, _mm256_set1_epi64x(0x0001020304050607ll));
    s = _mm256_max_epu8(s, _mm256_min_epi16(x, y));
    _mm256_storeu_si256((__m256i *)(c + i), s);
  }
  h = mix(h, c, sizeof c);
  /* Gathers: table lookups through indices computed above, some masked. */
  for (int i = 0; i < 1024; i += 8) {
    __m256i ix = _mm256_and_si256(_mm256_loadu_si256((const __m256i *)(c + i)),
                                  _mm256_set1_epi32(1023));
    __m256i g1 = _mm256_i32gather_epi32(a, ix, 4);
    __m256i g2 = _mm256_mask_i32gather_epi32(_mm256_set1_epi32(-1), b, ix,
                                             _mm256_cmpgt_epi32(g1, ix), 4);
    __m256d g3 = _mm256_i32gather_pd((const double *)f, _mm256_castsi256_si128(
                                         _mm256_srli_epi32(ix, 1)), 8);
    _mm256_storeu_si256((__m256i *)(c + i), _mm256_xor_si256(g1, g2));
    h = mix(h, &g3, sizeof g3);
  }
  h = mix(h, c, sizeof c);
  __m256 acc = _mm256_setzero_ps();
  for (int i = 0; i < 1024; i += 8) {
    __m256 x = _mm256_loadu_ps(f + i), y = _mm256_loadu_ps(g + i);
    __m256 m = _mm256_cmp_ps(x, y, _CMP_NGE_UQ);
    acc = _mm256_add_ps(acc, _mm256_blendv_ps(_mm256_mul_ps(x, y), _mm256_div_ps(y, x), m));
    acc = _mm256_max_ps(acc, _mm256_sqrt_ps(_mm256_andnot_ps(_mm256_set1_ps(-0.0f), x)));
  }
  h = mix(h, &acc, sizeof acc);
  __m256d d = _mm256_cvtps_pd(_mm256_castps256_ps128(acc));
  d = _mm256_round_pd(_mm256_mul_pd(d, _mm256_set1_pd(1.5)), _MM_FROUND_TO_NEAREST_INT);
  h = mix(h, &d, sizeof d);
  __m128 lo = _mm256_extractf128_ps(acc, 1);
  __m256 ins = _mm256_insertf128_ps(_mm256_broadcast_ss(&f[5]), lo, 0);
  h = mix(h, &ins, sizeof ins);
  __m256i mask = _mm256_set_epi32(-1, 0, -1, 0, 0, -1, 0, -1);
  int32_t buf[8] = {0};
  _mm256_maskstore_epi32(buf, mask, _mm256_maskload_epi32(a + 100, mask));
  h = mix(h, buf, sizeof buf);
  h = mix(h, &(int){_mm256_testz_si256(mask, mask)}, sizeof(int));
  h = mix(h, &(int){_mm256_movemask_epi8(_mm256_loadu_si256((const __m256i *)c))},
          sizeof(int));
  /* glibc's AVX2 string functions. */
  char *s1 = malloc(4096), *s2 = malloc(4096);
  for (int i = 0; i < 4095; i++) s1[i] = (char)('a' + i % 26);
  s1[4095] = 0;
  memcpy(s2, s1, 4096);
  s2[3000] = 'Z';
  h = mix(h, &(size_t){strlen(s1)}, sizeof(size_t));
  h = mix(h, &(int){memcmp(s1, s2, 4096) < 0}, sizeof(int));
  h = mix(h, &(ptrdiff_t){strchr(s2, 'Z') - s2}, sizeof(ptrdiff_t));
  h = mix(h, &(ptrdiff_t){(char *)memchr(s1, 'q', 4096) - s1}, sizeof(ptrdiff_t));
  memset(s2, 0x41, 1000);
  h = mix(h, s2, 4096);
  avx2_checkpoint(_mm256_set_epi64x(0x1111222233334444ll, 0x5555666677778888ll,
                                    (long long)h, 0x0123456789abcdefll));
  printf("avx2 %016llx\n", (unsigned long long)h);
  free(s1);
  free(s2);
  return 0;
}
