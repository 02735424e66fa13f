/* SPDX-License-Identifier: MIT */
/* Binary floating point in integers (softfp.h). */
#include "replayer/cpu/softfp.h"

const struct sf_fmt cpu__sf_f16 = {10, 5, 15, 0x1f};
const struct sf_fmt cpu__sf_f32 = {23, 8, 127, 0xff};
const struct sf_fmt cpu__sf_f64 = {52, 11, 1023, 0x7ff};

struct sf_val cpu__sf_unpack(u64 x, const struct sf_fmt *f, int daz) {
  struct sf_val u = {0};
  u64 fr = x & ((1ull << f->frac) - 1);
  u64 ef = (x >> f->frac) & f->emaxf;
  u.s = (unsigned)(x >> (f->frac + f->ebits)) & 1;
  if (ef == f->emaxf) {
    u.nan = fr != 0;
    u.snan = u.nan && !(fr >> (f->frac - 1));
    u.inf = fr == 0;
    return u;
  }
  if (ef == 0) {
    if (fr && daz) fr = 0;
    u.zero = fr == 0;
    u.den = fr != 0;
    u.m = fr;
    u.e = 1 - f->bias - (int)f->frac;
    return u;
  }
  u.m = fr | (1ull << f->frac);
  u.e = (int)ef - f->bias - (int)f->frac;
  return u;
}

u128 cpu__sf_round_shift(u128 m, int sh, unsigned neg, unsigned rc,
                         int *inexact) {
  if (sh <= 0) return m << -sh;
  u128 keep = sh >= 128 ? 0 : m >> sh;
  u128 rem = sh >= 128 ? m : m & (((u128)1 << sh) - 1);
  if (!rem) return keep;
  *inexact = 1;
  switch (rc) {
    case 0: {
      if (sh > 128) break; /* rem < half */
      u128 half = (u128)1 << (sh - 1);
      if (rem > half || (rem == half && (keep & 1))) keep++;
      break;
    }
    case 1:
      keep += neg;
      break;
    case 2:
      keep += !neg;
      break;
    default:
      break;
  }
  return keep;
}

u64 cpu__sf_round_pack(const struct sf_fmt *f, unsigned s, u128 r, int e,
                       u32 mx, u32 *fl, u32 *ex) {
  unsigned rc = (mx & CPU_MX_RC) >> 13;
  int p = (int)f->frac + 1;
  int emin = 1 - f->bias, emax = f->bias;
  int k = sf_msb128(r);
  /* Unbounded exponent: P significant bits. */
  int inx_u = 0;
  u128 mu = cpu__sf_round_shift(r, k - (p - 1), s, rc, &inx_u);
  int xu = e + k; /* exponent of the leading bit */
  if (mu >> p) {  /* rounding carried into a new bit */
    mu >>= 1;
    xu++;
  }
  if (xu > emax) {
    *fl = CPU_MX_OE | CPU_MX_PE;
    *ex = mx & (CPU_MX_OE << 7) ? *fl : CPU_MX_OE | (inx_u ? CPU_MX_PE : 0);
    int to_inf = rc == 0 || (rc == 1 && s) || (rc == 2 && !s);
    return to_inf ? sf_inf(f, s) : sf_max(f, s);
  }
  u64 sb = s ? sf_sign(f) : 0;
  if (xu >= emin) {
    *fl = *ex = inx_u ? CPU_MX_PE : 0;
    return sb | ((u64)(xu + f->bias) << f->frac) |
           ((u64)mu & ((1ull << f->frac) - 1));
  }
  /* Tiny. */
  if (!(mx & (CPU_MX_UE << 7))) {
    *fl = CPU_MX_UE | (inx_u ? CPU_MX_PE : 0);
    *ex = *fl;
    return 0; /* unmasked: #XM, nothing written */
  }
  if (mx & CPU_MX_FTZ) {
    *fl = *ex = CPU_MX_UE | CPU_MX_PE;
    return sb;
  }
  /* Denormal precision: the last kept bit is worth 2^(emin - p + 1). */
  int inx = 0;
  u128 md = cpu__sf_round_shift(r, (emin - (p - 1)) - e, s, rc, &inx);
  *fl = inx ? CPU_MX_UE | CPU_MX_PE : 0;
  *ex = *fl;
  /* md < 2^(p-1) is a denormal; md == 2^(p-1) rounded up to the smallest
   * normal, whose encoding is the same integer. */
  return sb | (u64)md;
}

/* A half-precision value H as a single, exactly. Only a signalling NaN
 * sets a flag (IE): a denormal half sets no DE, and DAZ does not apply. */
u32 cpu__sf_half_to_single(u16 h, u32 mx, u32 *fl) {
  struct sf_val u = cpu__sf_unpack(h, &cpu__sf_f16, 0);
  u32 sb = (u32)u.s << 31;
  *fl = 0;
  if (u.nan) {
    *fl = u.snan ? CPU_MX_IE : 0;
    return sb | 0x7fc00000u | (u32)(h & 0x3ff) << 13;
  }
  if (u.inf) return sb | 0x7f800000u;
  if (u.zero) return sb;
  u32 f2, e2;
  return (u32)cpu__sf_round_pack(&cpu__sf_f32, u.s, u.m, u.e, mx, &f2, &e2);
}

/* A single X as a half, rounded by RC (MXCSR order); FTZ does not apply.
 * *FL and *EX as for round_pack. */
u16 cpu__sf_single_to_half(u32 x, u32 mx, unsigned rc, u32 *fl, u32 *ex) {
  struct sf_val u = cpu__sf_unpack(x, &cpu__sf_f32, (mx & CPU_MX_DAZ) != 0);
  u16 sb = (u16)(u.s << 15);
  *fl = *ex = 0;
  if (u.nan) {
    *fl = *ex = u.snan ? CPU_MX_IE : 0;
    return (u16)(sb | 0x7e00 | ((x >> 13) & 0x3ff));
  }
  if (u.inf) return sb | 0x7c00;
  if (u.zero) return sb;
  u32 de = u.den ? CPU_MX_DE : 0;
  u32 m = (mx & ~(CPU_MX_RC | CPU_MX_FTZ)) | (rc << 13);
  u16 v = (u16)cpu__sf_round_pack(&cpu__sf_f16, u.s, u.m, u.e, m, fl, ex);
  *fl |= de;
  *ex |= de;
  return v;
}
