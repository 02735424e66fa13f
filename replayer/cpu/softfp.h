/* SPDX-License-Identifier: MIT */
/* Binary floating point in integers, for the instructions the host may not
 * have (FMA3, F16C, the AVX-512 ones, AVX512-FP16): formats, values taken
 * apart, one rounding under the guest's MXCSR with the flags the CPU
 * reports, and the operations built on it (softfp.c). The operations
 * follow the x86 rules for NaNs (the first NaN operand, quieted; the
 * default NaN for an invalid operation) and report IE, DE and ZE as SSE
 * does; DAZ and FTZ apply as the MXCSR passed says, so a caller whose
 * operands ignore them (half precision) clears them. */
#ifndef RW_REPLAYER_CPU_SOFTFP_H
#define RW_REPLAYER_CPU_SOFTFP_H

#include "replayer/cpu/sse_util.h"

/* A binary format: fraction bits, exponent bits, exponent bias and the
 * largest exponent field (all ones is infinity or NaN). */
struct sf_fmt {
  unsigned frac, ebits;
  int bias;
  u64 emaxf;
};

extern const struct sf_fmt cpu__sf_f16, cpu__sf_f32, cpu__sf_f64;

/* A value taken apart: value = m * 2^e, sign s (m is not normalized: a
 * denormal has its fraction as m). */
struct sf_val {
  u64 m;
  int e;
  unsigned s;
  int nan, snan, inf, zero, den;
};

/* X of format F taken apart; with DAZ a denormal is a zero (den 0). */
struct sf_val cpu__sf_unpack(u64 x, const struct sf_fmt *f, int daz);

/* M with its low SH bits dropped, rounded by RC (MXCSR order: nearest,
 * down, up, toward zero) for sign NEG; sets *INEXACT if a dropped bit was
 * set. SH may be negative (then M is shifted left, exactly). */
u128 cpu__sf_round_shift(u128 m, int sh, unsigned neg, unsigned rc,
                         int *inexact);

/* A bit of the MX the functions below take beyond MXCSR's 16: an unmasked
 * underflow reports PE when the denormal result would be inexact, not
 * when the result with an unbounded exponent is (AVX512-FP16's rule). */
#define CPU_SF_UE_DENORMAL 0x10000u
/* Another: an unmasked overflow reports PE, as a masked one does, even
 * where the result with an unbounded exponent is exact (AVX512-FP16's
 * conversions of integers to halves). */
#define CPU_SF_OE_INEXACT 0x20000u
/* And one for vcvtps2ph on Intel: a denormal single (DAZ clear) whose
 * unmasked underflow reports PE too, though the unbounded result is
 * exact; a normal tiny single does not (measured on a Xeon). */
#define CPU_SF_DEN_SRC_INEXACT 0x40000u

/* Packs the nonzero finite value R * 2^E (sign S) into format F under the
 * guest's MXCSR MX (its RC, FTZ and the UE/OE masks). *FL gets the flags
 * as the CPU sets them with the post-computation exceptions masked, *EX
 * those it reports when they are unmasked (unbounded exponent, but see
 * CPU_SF_UE_DENORMAL). */
u64 cpu__sf_round_pack(const struct sf_fmt *f, unsigned s, u128 r, int e,
                       u32 mx, u32 *fl, u32 *ex);

/* The half H as a single, exactly: only a signalling NaN sets a flag
 * (IE, in *FL); a denormal half sets no DE, and DAZ does not apply. MX
 * gives the rounding of nothing inexact (every half is a single). */
u32 cpu__sf_half_to_single(u16 h, u32 mx, u32 *fl);
/* The single X as a half rounded by RC (MXCSR order), under MX's DAZ and
 * exception masks (FTZ does not apply); *FL and *EX as for round_pack. */
u16 cpu__sf_single_to_half(u32 x, u32 mx, unsigned rc, u32 *fl, u32 *ex);

/* The fused multiply-add a*b+c with one rounding under MX, the product
 * negated if NEGP and the addend if NEGC; the first NaN of a, b, c. *FL
 * and *EX as for round_pack (fma.c). */
u64 cpu__sf_fma(const struct sf_fmt *f, u64 a, u64 b, u64 c, unsigned negp,
                unsigned negc, u32 mx, u32 *fl, u32 *ex);
/* One element of an FMA3 instruction in format F, as cpu__fma_elem
 * (sse_util.h) computes floats and doubles (fma.c). */
u64 cpu__sf_fma_op(const struct sf_fmt *f, const u64 ops[3], unsigned order,
                   int kind, unsigned i, u32 mx, u32 *fl, u32 *ex);
/* A / B rounded under MX: 0/0 and inf/inf invalid, a finite nonzero A
 * over zero ZE (and no DE). */
u64 cpu__sf_div(const struct sf_fmt *f, u64 a, u64 b, u32 mx, u32 *fl,
                u32 *ex);
/* The square root of A rounded under MX: invalid below zero (-0 is -0;
 * no DE with IE). */
u64 cpu__sf_sqrt(const struct sf_fmt *f, u64 a, u32 mx, u32 *fl, u32 *ex);
/* X of format FROM in format TO, rounded under MX where TO is narrower: a
 * NaN keeps its payload's high bits, quieted (IE if it signalled); a
 * denormal source raises DE (none under DAZ, which makes it a zero). */
u64 cpu__sf_convert(const struct sf_fmt *to, const struct sf_fmt *from,
                    u64 x, u32 mx, u32 *fl, u32 *ex);
/* The integer X of BITS bits (signed if SGN) in format F, rounded under
 * MX (PE when inexact, OE where it overflows F). */
u64 cpu__sf_from_int(u64 x, unsigned bits, int sgn, const struct sf_fmt *f,
                     u32 mx, u32 *fl, u32 *ex);
/* X of format F as an integer of BITS bits (signed if SGN), rounded by
 * MX's RC, or toward zero with TRUNC; PE when inexact. A NaN, an infinity
 * or a value out of range raises IE alone and gives the integer
 * indefinite: all ones unsigned, the sign bit alone signed. */
u64 cpu__sf_to_int(u64 x, const struct sf_fmt *f, u32 mx, int trunc,
                   unsigned bits, int sgn, u32 *fl);

/* The half X's approximate reciprocal (vrcpph), or with RSQRT its
 * reciprocal square root (vrsqrtph), as the CPU computes them; no flags
 * (softfp_approx.c). */
u16 cpu__sf_rcp14_half(u16 x, int rsqrt);
/* vrcp14 (vrsqrt14 with RSQRT) of X in format F (singles, doubles) as
 * Intel's CPUs compute it, under MX's DAZ and FTZ; no flags. */
u64 cpu__sf_approx14(const struct sf_fmt *f, u64 x, int rsqrt, u32 mx);

/* Relations of cpu__sf_compare. */
enum { CPU_SF_LT = 1, CPU_SF_EQ = 2, CPU_SF_GT = 4, CPU_SF_UN = 8 };
/* How A compares with B (format F, denormals zero with DAZ): one CPU_SF_*;
 * zeros of either sign are equal, a NaN is unordered. */
unsigned cpu__sf_compare(const struct sf_fmt *f, u64 a, u64 b, int daz);

static inline u64 sf_sign(const struct sf_fmt *f) {
  return 1ull << (f->frac + f->ebits);
}

static inline u64 sf_inf(const struct sf_fmt *f, unsigned s) {
  return (s ? sf_sign(f) : 0) | (f->emaxf << f->frac);
}

/* The largest finite value of sign S. */
static inline u64 sf_max(const struct sf_fmt *f, unsigned s) {
  return sf_inf(f, s) - 1;
}

/* The default NaN: negative, quiet, zero payload. */
static inline u64 sf_default_nan(const struct sf_fmt *f) {
  return sf_inf(f, 1) | (1ull << (f->frac - 1));
}

static inline u64 sf_quiet(const struct sf_fmt *f, u64 x) {
  return x | (1ull << (f->frac - 1));
}

static inline int sf_msb128(u128 x) {
  u64 hi = (u64)(x >> 64);
  return hi ? 127 - __builtin_clzll(hi) : 63 - __builtin_clzll((u64)x);
}

#endif
