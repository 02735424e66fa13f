/* SPDX-License-Identifier: MIT */
/* Fast paths through the host's own vector instructions. Every instruction
 * has a portable routine in its family; where the host has an instruction
 * that computes exactly the same thing and the portable routine is hot in
 * real programs, the family calls the host one instead. The choice is made
 * once per process from the host's cpuid and can be forced to the portable
 * routines (cpu_set_portable, REWIND_CPU_PORTABLE=1), which the tests use
 * to compare both ways. */
#include <cpuid.h>
#include <stdlib.h>
#include <immintrin.h>
#include <string.h>

#include "replayer/cpu/sse_util.h"

int cpu__host_ssse3, cpu__host_fma3, cpu__host_avx2, cpu__host_avx512f;
int cpu__host_aes, cpu__host_pclmul, cpu__host_sha, cpu__host_vaes,
    cpu__host_vpclmul;
u32 cpu__host_amd512;

static int portable_forced;

/* AVX-512F, and the OS saving its state (XCR0: SSE, AVX, opmask, the
 * upper halves of ZMM0-15, ZMM16-31). */
static int detect_avx512f(void) {
  unsigned a, b, c, d, lo, hi;
  if (!__get_cpuid(1, &a, &b, &c, &d) || !(c & (1u << 27))) return 0;
  if (!__get_cpuid_count(7, 0, &a, &b, &c, &d) || !(b & (1u << 16)))
    return 0;
  __asm__ volatile("xgetbv" : "=a"(lo), "=d"(hi) : "c"(0));
  return (lo & 0xe6) == 0xe6;
}

static void host_detect(void) {
  unsigned a, b, c, d;
  const char *e = getenv("REWIND_CPU_PORTABLE");
  cpu__host_avx512f = detect_avx512f();
  cpu__host_amd512 = 0;
  if (cpu__host_avx512f && __get_cpuid(0, &a, &b, &c, &d) &&
      cpu_vendor_of(b, d, c) == CPU_VENDOR_AMD &&
      __get_cpuid(1, &a, &b, &c, &d))
    cpu__host_amd512 = cpu_family_of(a);
  cpu__host_ssse3 = cpu__host_fma3 = cpu__host_avx2 = 0;
  cpu__host_aes = cpu__host_pclmul = cpu__host_sha = 0;
  cpu__host_vaes = cpu__host_vpclmul = 0;
  if (portable_forced || (e && *e && *e != '0')) return;
  if (!__get_cpuid(1, &a, &b, &c, &d)) return;
  unsigned a7, b7 = 0, c7 = 0, d7;
  if (!__get_cpuid_count(7, 0, &a7, &b7, &c7, &d7)) b7 = c7 = 0;
  cpu__host_ssse3 = (c >> 9) & 1;
  cpu__host_aes = (c >> 25) & 1;
  cpu__host_pclmul = (c >> 1) & 1;
  cpu__host_sha = (b7 >> 29) & 1;
  /* FMA and AVX, and the OS saving YMM state (OSXSAVE, XCR0 bits 1-2). */
  if ((c & (1u << 12)) && (c & (1u << 28)) && (c & (1u << 27))) {
    unsigned lo, hi;
    __asm__ volatile("xgetbv" : "=a"(lo), "=d"(hi) : "c"(0));
    cpu__host_fma3 = (lo & 6) == 6;
  }
  /* AVX2, AVX and the OS saving YMM state. */
  if ((c & (1u << 28)) && (c & (1u << 27))) {
    unsigned lo, hi;
    __asm__ volatile("xgetbv" : "=a"(lo), "=d"(hi) : "c"(0));
    cpu__host_avx2 = (lo & 6) == 6 && ((b7 >> 5) & 1);
  }
  /* VAES and VPCLMULQDQ at 256 bits (VEX), which need AVX too. */
  cpu__host_vaes = cpu__host_avx2 && cpu__host_aes && ((c7 >> 9) & 1);
  cpu__host_vpclmul = cpu__host_avx2 && cpu__host_pclmul && ((c7 >> 10) & 1);
}

void cpu__host_init(void) {
  static int done;
  if (!done) host_detect();
  done = 1;
}

void cpu_set_portable(int on) {
  portable_forced = on;
  host_detect();
}

int cpu_portable(void) { return !cpu__host_ssse3 && !cpu__host_fma3; }

/* pshufb on N16 16-byte lanes: R[i] = S[i] bit 7 ? 0 : D[lane + S[i] & 15]. */
__attribute__((target("ssse3"))) void cpu__host_pshufb(u8 *r, const u8 *d,
                                                      const u8 *s,
                                                      unsigned n16) {
  for (unsigned i = 0; i < n16; i++) {
    __m128i dv = _mm_loadu_si128((const __m128i *)(const void *)(d + 16 * i));
    __m128i sv = _mm_loadu_si128((const __m128i *)(const void *)(s + 16 * i));
    _mm_storeu_si128((__m128i *)(void *)(r + 16 * i),
                     _mm_shuffle_epi8(dv, sv));
  }
}

/* ---- FMA3 ---------------------------------------------------------------- */

/* One host FMA instruction in its 213 form, Intel "OP b, a, c": b = a*b+c
 * (so a, b, c keep the priority of their NaNs: the first multiplicand, the
 * second, the addend), after loading MXCSR with MXC when LOAD, and the
 * MXCSR after it stored in O. */
#define FMA_ASM(insn, T)                                                  \
  do {                                                                    \
    T va, vb, vc;                                                         \
    memcpy(&va, a, sizeof va);                                            \
    memcpy(&vb, b, sizeof vb);                                            \
    memcpy(&vc, c, sizeof vc);                                            \
    if (load) __asm__ volatile("ldmxcsr %0" : : "m"(mxc));                \
    __asm__ volatile(insn " %[z], %[x], %[y]\n\tstmxcsr %[o]"             \
                     : [y] "+x"(vb), [o] "=m"(o)                          \
                     : [x] "x"(va), [z] "x"(vc));                         \
    memcpy(b, &vb, sizeof vb);                                            \
  } while (0)

#define FMA_4(sfx)                                        \
  case CPU_FMA_ADD: FMA_ASM("vfmadd213" sfx, T); break;   \
  case CPU_FMA_SUB: FMA_ASM("vfmsub213" sfx, T); break;   \
  case CPU_FMA_NADD: FMA_ASM("vfnmadd213" sfx, T); break; \
  case CPU_FMA_NSUB: FMA_ASM("vfnmsub213" sfx, T); break;
#define FMA_SCALAR(sfx) \
  switch (kind) {       \
    FMA_4(sfx)          \
    default: break;     \
  }
#define FMA_PACKED(sfx)                                          \
  switch (kind) {                                                \
    FMA_4(sfx)                                                   \
    case CPU_FMA_ADDSUB: FMA_ASM("vfmaddsub213" sfx, T); break;  \
    default: FMA_ASM("vfmsubadd213" sfx, T); break;              \
  }

/* The FMA of cpu__host_fma under the host's MXCSR, loaded first with MXC
 * when LOAD; returns the MXCSR after it. */
static inline __attribute__((always_inline, target("avx,fma"))) u32
host_fma_run(int kind, int dbl, int scalar, u8 *b, const u8 *a, const u8 *c,
             int load, u32 mxc) {
  u32 o = 0;
  if (scalar) {
    typedef __m128 T;
    if (dbl) {
      FMA_SCALAR("sd")
    } else {
      FMA_SCALAR("ss")
    }
  } else {
    typedef __m256 T;
    if (dbl) {
      FMA_PACKED("pd")
    } else {
      FMA_PACKED("ps")
    }
  }
  return o;
}

__attribute__((target("avx,fma"))) u32 cpu__host_fma(int kind, int dbl,
                                                     int scalar, u8 *b,
                                                     const u8 *a, const u8 *c,
                                                     u32 mx) {
  u32 saved;
  u32 mxc = (mx & (CPU_MX_DAZ | CPU_MX_RC | CPU_MX_FTZ)) | CPU_MX_MASKS;
  __asm__ volatile("stmxcsr %0" : "=m"(saved));
  u32 o = host_fma_run(kind, dbl, scalar, b, a, c, 1, mxc);
  __asm__ volatile("ldmxcsr %0" : : "m"(saved));
  return o & CPU_MX_FLAGS;
}

/* The host's MXCSR as it is, as sse_fpu.c's sse_host_sticky does it. */
__attribute__((target("avx,fma"))) u32 cpu__host_fma_sticky(
    int kind, int dbl, int scalar, u8 *b, const u8 *a, const u8 *c, u32 mx) {
  u32 s;
  __asm__ volatile("stmxcsr %0" : "=m"(s));
  if ((s ^ mx) & ~(u32)CPU_MX_FLAGS)
    return cpu__host_fma(kind, dbl, scalar, b, a, c, mx);
  return host_fma_run(kind, dbl, scalar, b, a, c,
                      (s & ~mx & CPU_MX_FLAGS) != 0, mx) &
         CPU_MX_FLAGS;
}

/* The same on 64 bytes with the host's AVX-512F: one MXCSR round trip for
 * a 512-bit instruction instead of two. */
__attribute__((target("avx512f"))) u32 cpu__host_fma512(int kind, int dbl,
                                                        u8 *b, const u8 *a,
                                                        const u8 *c, u32 mx) {
  u32 saved, o = 0;
  u32 mxc = (mx & (CPU_MX_DAZ | CPU_MX_RC | CPU_MX_FTZ)) | CPU_MX_MASKS;
  const int load = 1;
  __asm__ volatile("stmxcsr %0" : "=m"(saved));
  typedef __m512 T;
  if (dbl) {
    FMA_PACKED("pd")
  } else {
    FMA_PACKED("ps")
  }
  __asm__ volatile("ldmxcsr %0" : : "m"(saved));
  return o & CPU_MX_FLAGS;
}

/* ---- AVX-512 approximations --------------------------------------------- */

__attribute__((target("avx512f"))) void cpu__host_approx14(
    int rsqrt, int dbl, int scalar, u8 *r, const u8 *a, const u8 *b,
    u32 mx) {
  u32 saved, mxc = (mx & (CPU_MX_DAZ | CPU_MX_RC | CPU_MX_FTZ)) |
                   CPU_MX_MASKS;
  __asm__ volatile("stmxcsr %0" : "=m"(saved));
  __asm__ volatile("ldmxcsr %0" : : "m"(mxc));
  if (scalar) {
    __m128 va = _mm_loadu_ps((const float *)(const void *)a);
    __m128 vb = _mm_loadu_ps((const float *)(const void *)b);
    __m128 v;
    if (dbl)
      v = _mm_castpd_ps(rsqrt ? _mm_rsqrt14_sd(_mm_castps_pd(va),
                                               _mm_castps_pd(vb))
                              : _mm_rcp14_sd(_mm_castps_pd(va),
                                             _mm_castps_pd(vb)));
    else
      v = rsqrt ? _mm_rsqrt14_ss(va, vb) : _mm_rcp14_ss(va, vb);
    _mm_storeu_ps((float *)(void *)r, v);
  } else {
    __m512 vb = _mm512_loadu_ps(b);
    __m512 v;
    if (dbl)
      v = _mm512_castpd_ps(rsqrt ? _mm512_rsqrt14_pd(_mm512_castps_pd(vb))
                                 : _mm512_rcp14_pd(_mm512_castps_pd(vb)));
    else
      v = rsqrt ? _mm512_rsqrt14_ps(vb) : _mm512_rcp14_ps(vb);
    _mm512_storeu_ps(r, v);
  }
  __asm__ volatile("ldmxcsr %0" : : "m"(saved));
}
