/* SPDX-License-Identifier: MIT */
/* The approximate reciprocal and reciprocal square root of a half
 * (AVX512-FP16's vrcpph and vrsqrtph), bit for bit as Intel computes them
 * (softfp.h). Nothing else: vrcp14 and vrsqrt14 themselves stay on the
 * host (evex_fpx.c).
 *
 * The CPU takes them from its 14-bit approximations (vrcp14, vrsqrt14):
 * the significand, in [1, 2) (or [1, 4) for the square root, keeping the
 * exponent even), falls in one of 64 segments, on each a line a - b*(x -
 * y) with y the segment's middle, computed exactly and truncated to 17
 * significant bits; the half is that value rounded to nearest with ties
 * away from zero, whatever MXCSR says, to a denormal too. Intel publishes
 * this algorithm (its reference code for vrcp14 and vrsqrt14, RECIP14.c);
 * the coefficients below were measured on a Xeon with AVX512-FP16: each
 * segment's pair is the only one that reproduces vrcp14ss (vrsqrt14ss) on
 * every single-precision value of the segment, and with them this file
 * reproduces vrcpsh and vrsqrtsh on all 65536 halves, under every MXCSR
 * rounding, DAZ and FTZ (none applies). No flag is ever raised. */
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

u16 cpu__sf_rcp14_half(u16 x, int rsqrt) {
  struct sf_val u = cpu__sf_unpack(x, &cpu__sf_f16, 0);
  if (u.nan) return (u16)sf_quiet(&cpu__sf_f16, x);
  if (rsqrt && u.s && !u.zero) return (u16)sf_default_nan(&cpu__sf_f16);
  if (u.inf) return (u16)(x & 0x8000);
  if (u.zero) return (u16)((x & 0x8000) | 0x7c00);
  /* x = 1.f * 2^e, f in 2^-10 units */
  int k = 63 - __builtin_clzll(u.m), e = u.e + k;
  unsigned f = (unsigned)(u.m << (10 - k)) & 0x3ff;
  if (!rsqrt) {
    if (!f) return pack_away(u.s, 1, -e);
    const u32 *c = rcp_ab[f >> 4];
    i64 kk = (i64)((f & 15) << 6) - 512;
    i64 v = floor_div((i64)c[0] * 256 - (i64)c[1] * kk, 512) * 2;
    return pack_away(u.s, (u64)v, -18 - e);
  }
  /* x = m * 2^(2n), m in [1, 4) */
  int odd = e & 1, n = (e - odd) / 2;
  if (!f && !odd) return pack_away(0, 1, -n);
  const u32 *c = rsqrt_ab[(odd ? 32 : 0) + (f >> 5)];
  i64 kk = (i64)((f & 31) << 5) - 512;
  i64 v = floor_div((i64)c[0] * 128 - (i64)c[1] * kk, 512) * 4;
  return pack_away(0, (u64)v, -19 - n);
}
