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
    *ex = (mx & (CPU_MX_OE << 7 | CPU_SF_OE_INEXACT))
              ? *fl
              : CPU_MX_OE | (inx_u ? CPU_MX_PE : 0);
    int to_inf = rc == 0 || (rc == 1 && s) || (rc == 2 && !s);
    return to_inf ? sf_inf(f, s) : sf_max(f, s);
  }
  u64 sb = s ? sf_sign(f) : 0;
  if (xu >= emin) {
    *fl = *ex = inx_u ? CPU_MX_PE : 0;
    return sb | ((u64)(xu + f->bias) << f->frac) |
           ((u64)mu & ((1ull << f->frac) - 1));
  }
  /* Tiny. Denormal precision: the last kept bit is worth 2^(emin - p +
   * 1). */
  int inx = 0;
  u128 md = cpu__sf_round_shift(r, (emin - (p - 1)) - e, s, rc, &inx);
  if (!(mx & (CPU_MX_UE << 7))) {
    int pe = (mx & CPU_SF_UE_DENORMAL) ? inx : inx_u;
    *fl = CPU_MX_UE | (pe ? CPU_MX_PE : 0);
    *ex = *fl;
    return 0; /* unmasked: #XM, nothing written */
  }
  if (mx & CPU_MX_FTZ) {
    *fl = *ex = CPU_MX_UE | CPU_MX_PE;
    return sb;
  }
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
  if (u.den && (mx & CPU_SF_DEN_SRC_INEXACT)) m |= CPU_SF_UE_DENORMAL;
  u16 v = (u16)cpu__sf_round_pack(&cpu__sf_f16, u.s, u.m, u.e, m, fl, ex);
  *fl |= de;
  *ex |= de;
  return v;
}

/* ---- Operations ------------------------------------------------------- */

/* The result of an operation with a NaN operand: A if it is one, else B,
 * quieted; IE when either signals. */
static u64 nan2(const struct sf_fmt *f, u64 a, const struct sf_val *ua, u64 b,
                const struct sf_val *ub, u32 *fl, u32 *ex) {
  *fl = *ex = (ua->snan || ub->snan) ? CPU_MX_IE : 0;
  return sf_quiet(f, ua->nan ? a : b);
}

static u64 signed_zero(const struct sf_fmt *f, unsigned s) {
  return s ? sf_sign(f) : 0;
}

u64 cpu__sf_div(const struct sf_fmt *f, u64 a, u64 b, u32 mx, u32 *fl,
                u32 *ex) {
  int daz = (mx & CPU_MX_DAZ) != 0;
  struct sf_val x = cpu__sf_unpack(a, f, daz), y = cpu__sf_unpack(b, f, daz);
  unsigned s = x.s ^ y.s;
  *fl = *ex = 0;
  if (x.nan || y.nan) return nan2(f, a, &x, b, &y, fl, ex);
  if ((x.inf && y.inf) || (x.zero && y.zero)) {
    *fl = *ex = CPU_MX_IE;
    return sf_default_nan(f);
  }
  if (y.zero && !x.inf) { /* ZE alone, even with a denormal dividend */
    *fl = *ex = CPU_MX_ZE;
    return sf_inf(f, s);
  }
  *fl = *ex = (x.den || y.den) ? CPU_MX_DE : 0;
  if (x.inf || y.zero) return sf_inf(f, s);
  if (x.zero || y.inf) return signed_zero(f, s);
  /* Both significands with their leading bit at bit 63: the quotient of
   * the dividend shifted 64 further has 64 or 65 bits, and the remainder
   * becomes a sticky bit. */
  int kx = 63 - __builtin_clzll(x.m), ky = 63 - __builtin_clzll(y.m);
  u64 nx = x.m << (63 - kx), ny = y.m << (63 - ky);
  u128 num = (u128)nx << 64;
  u128 q = num / ny;
  if (num % ny) q |= 1;
  int e = (x.e - (63 - kx)) - (y.e - (63 - ky)) - 64;
  u32 f2, e2;
  u64 r = cpu__sf_round_pack(f, s, q, e, mx, &f2, &e2);
  *fl |= f2;
  *ex |= e2;
  return r;
}

/* floor(sqrt(N)), with *INEXACT set when it is not exact. */
static u128 isqrt128(u128 n, int *inexact) {
  u128 root = 0, bit = (u128)1 << 126;
  while (bit > n) bit >>= 2;
  while (bit) {
    if (n >= root + bit) {
      n -= root + bit;
      root = (root >> 1) + bit;
    } else {
      root >>= 1;
    }
    bit >>= 2;
  }
  *inexact = n != 0;
  return root;
}

u64 cpu__sf_sqrt(const struct sf_fmt *f, u64 a, u32 mx, u32 *fl, u32 *ex) {
  struct sf_val x = cpu__sf_unpack(a, f, (mx & CPU_MX_DAZ) != 0);
  *fl = *ex = 0;
  if (x.nan) return nan2(f, a, &x, a, &x, fl, ex);
  if (x.zero) return signed_zero(f, x.s);
  if (x.s) { /* IE alone, even for a denormal */
    *fl = *ex = CPU_MX_IE;
    return sf_default_nan(f);
  }
  if (x.inf) return a;
  *fl = *ex = x.den ? CPU_MX_DE : 0;
  /* m * 2^e with e even and m shifted to 125 or 126 bits: its root has
   * 63 bits, and the remainder becomes a sticky bit. */
  int k = 63 - __builtin_clzll(x.m);
  int sh = 125 - k;
  if ((x.e - sh) & 1) sh++;
  int inexact;
  u128 r = isqrt128((u128)x.m << sh, &inexact);
  u32 f2, e2;
  u64 v = cpu__sf_round_pack(f, 0, r | (u128)inexact, (x.e - sh) / 2, mx,
                             &f2, &e2);
  *fl |= f2;
  *ex |= e2;
  return v;
}

u64 cpu__sf_convert(const struct sf_fmt *to, const struct sf_fmt *from,
                    u64 x, u32 mx, u32 *fl, u32 *ex) {
  struct sf_val u = cpu__sf_unpack(x, from, (mx & CPU_MX_DAZ) != 0);
  *fl = *ex = 0;
  if (u.nan) {
    u64 pay = x & ((1ull << from->frac) - 1);
    pay = from->frac > to->frac ? pay >> (from->frac - to->frac)
                                : pay << (to->frac - from->frac);
    *fl = *ex = u.snan ? CPU_MX_IE : 0;
    return sf_quiet(to, sf_inf(to, u.s) | pay);
  }
  if (u.inf) return sf_inf(to, u.s);
  if (u.zero) return signed_zero(to, u.s);
  u32 de = u.den ? CPU_MX_DE : 0;
  u64 r = cpu__sf_round_pack(to, u.s, u.m, u.e, mx, fl, ex);
  *fl |= de;
  *ex |= de;
  return r;
}

u64 cpu__sf_from_int(u64 x, unsigned bits, int sgn, const struct sf_fmt *f,
                     u32 mx, u32 *fl, u32 *ex) {
  unsigned s = 0;
  *fl = *ex = 0;
  if (bits < 64) x = sgn ? (u64)((i64)(x << (64 - bits)) >> (64 - bits))
                         : x & ((1ull << bits) - 1);
  if (sgn && (i64)x < 0) {
    s = 1;
    x = -x;
  }
  if (!x) return 0;
  return cpu__sf_round_pack(f, s, x, 0, mx, fl, ex);
}

u64 cpu__sf_to_int(u64 x, const struct sf_fmt *f, u32 mx, int trunc,
                   unsigned bits, int sgn, u32 *fl) {
  struct sf_val u = cpu__sf_unpack(x, f, (mx & CPU_MX_DAZ) != 0);
  u64 all = bits >= 64 ? ~0ull : (1ull << bits) - 1;
  u64 bad = sgn ? 1ull << (bits - 1) : all;
  unsigned rc = trunc ? 3 : (mx & CPU_MX_RC) >> 13;
  int inexact = 0;
  u128 v;
  *fl = 0;
  if (u.nan || u.inf) goto invalid;
  if (u.zero) return 0;
  if (u.e >= 0) {
    if (u.e + sf_msb128(u.m) >= (int)bits) goto invalid;
    v = (u128)u.m << u.e;
  } else {
    v = cpu__sf_round_shift(u.m, -u.e, u.s, rc, &inexact);
  }
  if (v) {
    /* the magnitude's limit: 2^bits - 1, or 2^(bits-1) (minus one when
     * positive) for a signed destination; nothing negative unsigned */
    u128 lim = !sgn ? (u128)all : ((u128)1 << (bits - 1)) - !u.s;
    if ((!sgn && u.s) || v > lim) goto invalid;
  }
  *fl = inexact ? CPU_MX_PE : 0;
  v = u.s ? -v : v;
  return (u64)v & all;
invalid:
  *fl = CPU_MX_IE;
  return bad;
}

unsigned cpu__sf_compare(const struct sf_fmt *f, u64 a, u64 b, int daz) {
  struct sf_val x = cpu__sf_unpack(a, f, daz), y = cpu__sf_unpack(b, f, daz);
  if (x.nan || y.nan) return CPU_SF_UN;
  /* sign and magnitude as one ordered key; the zeros (DAZ's flushed
   * denormals among them) are equal */
  u64 mag = sf_sign(f) - 1;
  i64 kx = x.zero ? 0 : (i64)(a & mag), ky = y.zero ? 0 : (i64)(b & mag);
  if (x.s) kx = -kx;
  if (y.s) ky = -ky;
  return kx < ky ? CPU_SF_LT : kx > ky ? CPU_SF_GT : CPU_SF_EQ;
}
