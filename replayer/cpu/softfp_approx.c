/* SPDX-License-Identifier: MIT */
/* The approximate reciprocal and reciprocal square root as Intel's CPUs
 * compute them: vrcp14 and vrsqrt14 on singles and doubles, and from them
 * AVX512-FP16's vrcpph and vrsqrtph (softfp.h). AMD's families 0x19 (Zen 4)
 * and 0x1a (Zen 5) compute vrcp14 and vrsqrt14 the same way, bit for bit
 * (measured on an EPYC of each: every single under several MXCSR
 * settings, the packed forms as well on Zen 5, no flag raised, and the
 * differential harness on doubles); a later AMD design stays on the host
 * until measured (evex_fpx.c).
 *
 * The significand, in [1, 2) (or [1, 4) for the square root, keeping the
 * exponent even), falls in one of 64 segments, on each a line a - b*(x -
 * y) with y the segment's middle, computed exactly and truncated to 17
 * significant bits; only the 16 (15) fraction bits below the segment's
 * index count. Intel publishes this algorithm (its reference code for
 * vrcp14 and vrsqrt14, RECIP14.c); the coefficients below were measured on
 * a Xeon with AVX512-FP16: each segment's pair is the only one that
 * reproduces vrcp14ss (vrsqrt14ss) on every single-precision value of the
 * segment.
 *
 * On singles and doubles (measured on the same Xeon, every single and
 * millions of doubles of every class): no flag is ever raised and the rounding
 * control does not matter; DAZ makes a denormal operand a zero; a denormal
 * operand is otherwise normalized first; a result beyond the format is an
 * infinity; a denormal result is exact (it loses no bit) and FTZ makes it
 * a zero. 1/0 is an infinity and 1/inf a zero of the operand's sign; the
 * square root of -0 is -inf, of any other negative value the default NaN;
 * a NaN comes back quieted; an exact power of two (of four for the square
 * root) gives its exact reciprocal.
 *
 * For a half the value is then rounded to nearest with ties away from
 * zero, whatever MXCSR says, to a denormal too; DAZ and FTZ do not apply;
 * this file reproduces vrcpsh and vrsqrtsh on all 65536 halves, under every
 * MXCSR rounding, DAZ and FTZ. */
#include "replayer/cpu/softfp.h"

/* Reciprocal on [1, 2): segment i covers [1 + i/64, 1 + (i+1)/64), y =
 * 1 + (2i+1)/128; {a, b}: the value is (a - b*k/256) * 2^-18 for x - y =
 * k * 2^-16, truncated to an even multiple of 2^-18. */
static const u32 rcp_ab[64][2] = {
    {260119, 1009}, {256148, 977}, {252296, 949}, {248558, 921},
    {244929, 893},  {241405, 869}, {237981, 843}, {234652, 821},
    {231416, 797},  {228266, 777}, {225202, 755}, {222220, 735},
    {219314, 717},  {216485, 699}, {213727, 681}, {211038, 663},
    {208417, 647},  {205859, 631}, {203364, 617}, {200929, 601},
    {198551, 587},  {196229, 573}, {193960, 561}, {191743, 547},
    {189576, 535},  {187458, 523}, {185387, 513}, {183360, 501},
    {181377, 491},  {179439, 479}, {177540, 469}, {175681, 459},
    {173860, 451},  {172077, 441}, {170330, 433}, {168618, 423},
    {166940, 415},  {165295, 407}, {163682, 399}, {162101, 391},
    {160550, 385},  {159027, 377}, {157535, 369}, {156069, 363},
    {154631, 357},  {153219, 349}, {151832, 343}, {150470, 337},
    {149133, 331},  {147819, 325}, {146528, 319}, {145260, 315},
    {144012, 309},  {142787, 303}, {141582, 299}, {140397, 293},
    {139232, 289},  {138085, 285}, {136959, 279}, {135853, 275},
    {134763, 271},  {133689, 267}, {132631, 263}, {131589, 259}};

/* Reciprocal square root: segments 0-31 on [1, 2) (y = 1 + (2i+1)/64,
 * x - y = k * 2^-15), 32-63 on [2, 4) (y = 2 + (2i+1)/32, x - y = k *
 * 2^-14); the value is (a - b*k/128) * 2^-19, truncated to a multiple of
 * 4 * 2^-19. */
static const u32 rsqrt_ab[64][2] = {
    {520261, 1001}, {512437, 955}, {504953, 915}, {497790, 877},
    {490922, 841},  {484331, 807}, {478001, 775}, {471909, 747},
    {466046, 719},  {460397, 693}, {454947, 669}, {449688, 647},
    {444606, 625},  {439694, 603}, {434939, 585}, {430335, 567},
    {425875, 549},  {421551, 533}, {417355, 517}, {413284, 501},
    {409329, 487},  {405487, 473}, {401748, 461}, {398111, 449},
    {394571, 437},  {391127, 425}, {387770, 415}, {384498, 403},
    {381307, 393},  {378194, 385}, {375155, 375}, {372190, 367},
    {367881, 707},  {362349, 675}, {357056, 647}, {351992, 619},
    {347136, 595},  {342475, 571}, {337997, 549}, {333693, 527},
    {329545, 509},  {325551, 491}, {321697, 473}, {317977, 457},
    {314385, 441},  {310910, 427}, {307549, 413}, {304295, 401},
    {301139, 389},  {298079, 377}, {295115, 365}, {292237, 355},
    {289439, 345},  {286722, 335}, {284080, 325}, {281508, 317},
    {279006, 309},  {276569, 301}, {274195, 293}, {271882, 285},
    {269625, 279},  {267425, 271}, {265276, 265}, {263178, 259}};

/* floor(N / D) for D > 0. */
static i64 floor_div(i64 n, i64 d) {
  return n >= 0 ? n / d : -((-n + d - 1) / d);
}

/* The half of sign S nearest V * 2^E (V > 0), ties away from zero, an
 * infinity beyond the largest finite one. */
static u16 pack_away(unsigned s, u64 v, int e) {
  int k = 63 - __builtin_clzll(v), lead = e + k; /* exponent of the top bit */
  int drop = k - 10 + (lead < -14 ? -14 - lead : 0);
  u64 q = drop > 0 ? (v + (1ull << (drop - 1))) >> drop : v << -drop;
  u16 sb = (u16)(s << 15);
  if (lead < -14) return (u16)(sb | q); /* 0x400 is the smallest normal */
  if (q >> 11) {
    q >>= 1;
    lead++;
  }
  if (lead > 15) return sb | 0x7c00;
  return (u16)(sb | (lead + 15) << 10 | (q & 0x3ff));
}

/* The line of segment T's index: V with the value V * 2^-18 (reciprocal,
 * T the 16 fraction bits below the leading one) or V * 2^-19 (square root,
 * T the 15 fraction bits, ODD the exponent's parity), for x in [1, 2) or
 * [1, 4). */
static u64 rcp_line(unsigned t) {
  const u32 *c = rcp_ab[t >> 10];
  i64 k = (i64)(t & 1023) - 512;
  return (u64)(floor_div((i64)c[0] * 256 - (i64)c[1] * k, 512) * 2);
}
static u64 rsqrt_line(unsigned t, int odd) {
  const u32 *c = rsqrt_ab[(odd ? 32 : 0) + (t >> 10)];
  i64 k = (i64)(t & 1023) - 512;
  return (u64)(floor_div((i64)c[0] * 128 - (i64)c[1] * k, 512) * 4);
}

/* The approximation of the finite nonzero magnitude U (normalized here) as
 * *V * 2^*E, exactly. */
static void approx(const struct sf_val *u, int rsqrt, u64 *v, int *e) {
  int k = 63 - __builtin_clzll(u->m), x = u->e + k; /* x = 1.f * 2^x */
  u64 fr = u->m << (63 - k) << 1; /* the fraction bits, from bit 63 down */
  if (!rsqrt) {
    if (!fr) {
      *v = 1, *e = -x;
      return;
    }
    *v = rcp_line((unsigned)(fr >> 48)), *e = -18 - x;
    return;
  }
  int odd = x & 1, n = (x - odd) / 2; /* x = m * 2^(2n), m in [1, 4) */
  if (!fr && !odd) {
    *v = 1, *e = -n;
    return;
  }
  *v = rsqrt_line((unsigned)(fr >> 49), odd), *e = -19 - n;
}

/* The result of the special operand U (X in format F), in *OUT: 1, or 0
 * when U is a finite nonzero value to approximate. */
static int special(const struct sf_fmt *f, const struct sf_val *u, u64 x,
                   int rsqrt, u64 *out) {
  if (u->nan)
    *out = sf_quiet(f, x);
  else if (rsqrt && u->s && !u->zero)
    *out = sf_default_nan(f);
  else if (u->inf)
    *out = u->s ? sf_sign(f) : 0;
  else if (u->zero)
    *out = sf_inf(f, u->s);
  else
    return 0;
  return 1;
}

u64 cpu__sf_approx14(const struct sf_fmt *f, u64 x, int rsqrt, u32 mx) {
  struct sf_val u = cpu__sf_unpack(x, f, !!(mx & CPU_MX_DAZ));
  u64 sb = u.s ? sf_sign(f) : 0, v;
  int e;
  if (special(f, &u, x, rsqrt, &v)) return v;
  approx(&u, rsqrt, &v, &e);
  /* v * 2^e, v below 2^18: place its leading one at bit FRAC. */
  int k = 63 - __builtin_clzll(v), lead = e + k, emin = 1 - f->bias;
  if (lead > f->bias) return sf_inf(f, u.s);
  if (lead < emin) {
    if (mx & CPU_MX_FTZ) return sb;
    int sh = (int)f->frac - k - (emin - lead);
    return sb | (sh >= 0 ? v << sh : v >> -sh);
  }
  return sb | (u64)(lead + f->bias) << f->frac |
         ((v << (f->frac - k)) & ((1ull << f->frac) - 1));
}

u16 cpu__sf_rcp14_half(u16 x, int rsqrt) {
  struct sf_val u = cpu__sf_unpack(x, &cpu__sf_f16, 0);
  u64 v;
  int e;
  if (special(&cpu__sf_f16, &u, x, rsqrt, &v)) return (u16)v;
  approx(&u, rsqrt, &v, &e);
  return pack_away(rsqrt ? 0 : u.s, v, e);
}
