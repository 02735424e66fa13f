/* SPDX-License-Identifier: MIT */
/* GFNI in a recorded program (tests/replay/gfni.sh): the whole GF(2^8)
 * multiplication table through _mm_gf2p8mul_epi8, the AES S-box through
 * _mm_gf2p8affineinv_epi64_epi8, 256-bit affine maps (identity, bit
 * reversal, pseudo-random matrices) through _mm256_gf2p8affine_epi64_epi8,
 * and the legacy-SSE encodings through inline assembly (built with
 * -mavx2 the intrinsics take the VEX forms). Each result is checked
 * against a scalar computation; prints what matched and a checksum of
 * everything computed. Exits 77 on a CPU without GFNI. */
#include <immintrin.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

static uint64_t mix(uint64_t h, const void *p, size_t n) {
  const unsigned char *b = p;
  for (size_t i = 0; i < n; i++) h = (h ^ b[i]) * 0x100000001b3ull;
  return h;
}

/* Scalar references. */
static uint8_t ref_mul(uint8_t a, uint8_t b) {
  unsigned p = 0, x = a;
  for (; b; b >>= 1) {
    if (b & 1) p ^= x;
    x <<= 1;
    if (x & 0x100) x ^= 0x11b;
  }
  return (uint8_t)p;
}

static uint8_t ref_affine(uint64_t m, uint8_t x, uint8_t c) {
  uint8_t r = 0;
  for (int i = 0; i < 8; i++)
    r |= (uint8_t)(__builtin_parity((unsigned)(m >> (8 * (7 - i))) & 0xff &
                                    x)
                   << i);
  return r ^ c;
}

/* The S-box's affine map, and the first bytes of the S-box (FIPS-197). */
#define AES_AFFINE 0xf1e3c78f1f3e7cf8ull
static const uint8_t sbox_head[8] = {0x63, 0x7c, 0x77, 0x7b,
                                     0xf2, 0x6b, 0x6f, 0xc5};

int main(int argc, char **argv) {
  (void)argv;
  if (!__builtin_cpu_supports("gfni")) return 77;
  uint64_t h = 0xcbf29ce484222325ull;
  int bad = 0;

  /* The multiplication table, 16 products at a time. */
  for (unsigned a = 0; a < 256; a++)
    for (unsigned b0 = 0; b0 < 256; b0 += 16) {
      uint8_t x[16], y[16], r[16];
      for (int i = 0; i < 16; i++) {
        x[i] = (uint8_t)a;
        y[i] = (uint8_t)(b0 + i);
      }
      __m128i p = _mm_gf2p8mul_epi8(_mm_loadu_si128((const __m128i *)x),
                                    _mm_loadu_si128((const __m128i *)y));
      _mm_storeu_si128((__m128i *)r, p);
      for (int i = 0; i < 16; i++) bad += r[i] != ref_mul(x[i], y[i]);
      h = mix(h, r, 16);
    }
  printf("mul table %s\n", bad ? "wrong" : "ok");

  /* The S-box: inverse, then the affine map with 0x63. */
  uint8_t sbox[256];
  for (unsigned i = 0; i < 256; i += 16) {
    uint8_t x[16];
    for (int k = 0; k < 16; k++) x[k] = (uint8_t)(i + k);
    __m128i s = _mm_gf2p8affineinv_epi64_epi8(
        _mm_loadu_si128((const __m128i *)x), _mm_set1_epi64x((long long)AES_AFFINE),
        0x63);
    _mm_storeu_si128((__m128i *)(sbox + i), s);
  }
  int sb = memcmp(sbox, sbox_head, sizeof sbox_head) != 0;
  for (unsigned i = 1; i < 256; i++) { /* inverse times x is one */
    uint8_t inv = 0;
    for (unsigned j = 1; j < 256; j++)
      if (ref_mul((uint8_t)i, (uint8_t)j) == 1) inv = (uint8_t)j;
    sb += sbox[i] != ref_affine(AES_AFFINE, inv, 0x63);
  }
  sb += sbox[0] != 0x63; /* the inverse of 0 is 0 */
  printf("sbox %s %02x %02x %02x\n", sb ? "wrong" : "ok", sbox[0], sbox[1],
         sbox[0x53]);
  h = mix(h, sbox, sizeof sbox);

  /* 256-bit affine maps: one matrix per qword, argc keeps the compiler
   * from folding them. */
  uint64_t m[4] = {0x0102040810204080ull, 0x8040201008040201ull, AES_AFFINE,
                   0x0123456789abcdefull * (uint64_t)argc};
  uint64_t seed = 0x9e3779b97f4a7c15ull * (uint64_t)argc;
  int af = 0;
  for (int round = 0; round < 64; round++) {
    uint8_t x[32], r[32];
    for (int i = 0; i < 32; i++) {
      seed = seed * 6364136223846793005ull + 1442695040888963407ull;
      x[i] = (uint8_t)(seed >> 56);
    }
    __m256i v = _mm256_loadu_si256((const __m256i *)x);
    __m256i mm = _mm256_loadu_si256((const __m256i *)m);
    _mm256_storeu_si256((__m256i *)r,
                        _mm256_gf2p8affine_epi64_epi8(v, mm, 0x5a));
    for (int i = 0; i < 32; i++)
      af += r[i] != ref_affine(m[i / 8], x[i], 0x5a);
    h = mix(h, r, 32);
    m[3] = m[3] * 0x2545f4914f6cdd1dull + (uint64_t)round;
  }
  printf("affine256 %s\n", af ? "wrong" : "ok");

  /* Legacy SSE encodings, register and aligned memory operands. */
  {
    static _Alignas(16) uint8_t y[16] = {0x00, 0x01, 0x02, 0x03, 0x53, 0x80,
                                         0xca, 0xfe, 0xff, 0x10, 0x20, 0x40,
                                         0x11, 0x22, 0x44, 0x88};
    __m128i a = _mm_set_epi64x(0x0706050403020100ll * argc,
                               (long long)0xfffefdfcfbfaf9f8ull);
    __m128i mat = _mm_set_epi64x((long long)AES_AFFINE,
                                 0x0102040810204080ll);
    __m128i p = a, q = a, s = a;
    uint8_t ra[16], rb[16], rc[16], xa[16];
    __asm__("gf2p8mulb %1, %0" : "+x"(p) : "m"(y));
    __asm__("gf2p8affineqb $0x0f, %1, %0" : "+x"(q) : "x"(mat));
    __asm__("gf2p8affineinvqb $0x63, %1, %0" : "+x"(s) : "x"(mat));
    _mm_storeu_si128((__m128i *)ra, p);
    _mm_storeu_si128((__m128i *)rb, q);
    _mm_storeu_si128((__m128i *)rc, s);
    _mm_storeu_si128((__m128i *)xa, a);
    int lg = 0;
    uint64_t mq[2];
    _mm_storeu_si128((__m128i *)mq, mat);
    for (int i = 0; i < 16; i++) {
      uint8_t inv = 0;
      for (unsigned j = 1; j < 256 && xa[i]; j++)
        if (ref_mul(xa[i], (uint8_t)j) == 1) inv = (uint8_t)j;
      lg += ra[i] != ref_mul(xa[i], y[i]);
      lg += rb[i] != ref_affine(mq[i / 8], xa[i], 0x0f);
      lg += rc[i] != ref_affine(mq[i / 8], inv, 0x63);
    }
    printf("legacy %s\n", lg ? "wrong" : "ok");
    h = mix(h, ra, 16);
    h = mix(h, rb, 16);
    h = mix(h, rc, 16);
    bad += lg;
  }
  printf("gfni checksum %016llx\n", (unsigned long long)h);
  return bad || sb || af ? 1 : 0;
}
