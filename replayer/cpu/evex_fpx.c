/* SPDX-License-Identifier: MIT */
/* The AVX-512 instructions that take floating-point values apart (F and
 * DQ): vgetexp, vgetmant, vscalef, vrndscale, vreduce, vrange, vfixupimm
 * and vfpclass, packed and scalar, and the first six on halves
 * (AVX512-FP16), with their rows (the decoder is evex.c's).
 *
 * SSE has nothing that computes these, so every element is computed here
 * in integers (softfp.h) under the guest's MXCSR: DAZ makes a denormal
 * source a zero, FTZ and RC apply where a result is rounded (vscalef,
 * vreduce), EVEX.b on a register form suppresses every exception (and for
 * vscalef rounds as L'L says). Only the elements the opmask enables are
 * computed, so the others raise nothing, and an unmasked exception writes
 * no element. The special values follow the tables of the SDM, checked
 * against the CPU by the differential harness (tests/cpu/cases_evex.c).
 * Halves ignore DAZ and FTZ: a denormal is used as it is. */
#include "replayer/cpu/evex.h"
#include "replayer/cpu/softfp.h"

/* One element: OPS are its operands (destination, vvvv, rm) as bits of
 * format F, IMM the instruction's imm8, MX the MXCSR it computes under.
 * Returns the result; *FL gets the flags with exceptions masked, *EX those
 * the unmasked exceptions see (cpu__sse_commit). */
typedef u64 (*fpx_fn)(const struct sf_fmt *f, const u64 ops[3], unsigned imm,
                      u32 mx, u32 *fl, u32 *ex);

static const struct sf_fmt *fmt_of(unsigned esz) {
  return esz == 2 ? &cpu__sf_f16 : esz == 4 ? &cpu__sf_f32 : &cpu__sf_f64;
}

/* The MXCSR elements of ESZ bytes compute under: cpu__ev_mx's, without
 * DAZ and FTZ and with the rule of an unmasked underflow for halves. */
static u32 mx_of(const struct cpu *cpu, const struct cpu_insn *in,
                 unsigned esz) {
  u32 mx = cpu__ev_mx(cpu, in);
  if (esz != 2) return mx;
  return (mx & ~(u32)(CPU_MX_DAZ | CPU_MX_FTZ)) | CPU_SF_UE_DENORMAL;
}

/* 1.0 in format F, with sign S. */
static u64 sf_one(const struct sf_fmt *f, unsigned s) {
  return (s ? sf_sign(f) : 0) | ((u64)f->bias << f->frac);
}

static int daz_of(u32 mx) { return (mx & CPU_MX_DAZ) != 0; }

/* The exact value V (nonzero, finite) with its leading bit at bit FRAC of
 * *M; returns its unbiased exponent. */
static int normalize(const struct sf_fmt *f, const struct sf_val *v, u64 *m) {
  int k = 63 - __builtin_clzll(v->m);
  *m = v->m << (f->frac - (unsigned)k);
  return v->e + k;
}

/* ---- The element operations ---------------------------------------------- */

/* vgetexp: the unbiased exponent of rm as a value, floor(log2|x|); a zero
 * gives -inf, an infinity +inf. */
static u64 getexp(const struct sf_fmt *f, const u64 ops[3], unsigned imm,
                  u32 mx, u32 *fl, u32 *ex) {
  struct sf_val v = cpu__sf_unpack(ops[2], f, daz_of(mx));
  u64 m;
  (void)imm;
  *fl = *ex = 0;
  if (v.nan) {
    *fl = *ex = v.snan ? CPU_MX_IE : 0;
    return sf_quiet(f, ops[2]);
  }
  if (v.inf) return sf_inf(f, 0);
  if (v.zero) return sf_inf(f, 1);
  *fl = *ex = v.den ? CPU_MX_DE : 0;
  int e = normalize(f, &v, &m);
  u32 f2, e2;
  if (!e) return 0;
  return cpu__sf_round_pack(f, e < 0, (u128)(e < 0 ? -e : e), 0, mx, &f2, &e2);
}

/* vgetmant: the significand of rm in the interval imm8[1:0] says ([1,2),
 * [1/2,2), [1/2,1), [3/4,3/2)), its sign as imm8[3:2] says (the source's,
 * positive, or a negative source is invalid). */
static u64 getmant(const struct sf_fmt *f, const u64 ops[3], unsigned imm,
                   u32 mx, u32 *fl, u32 *ex) {
  struct sf_val v = cpu__sf_unpack(ops[2], f, daz_of(mx));
  unsigned interv = imm & 3, sc = (imm >> 2) & 3;
  u64 m;
  *fl = *ex = 0;
  if (v.nan) {
    *ex = *fl = v.snan ? CPU_MX_IE : 0;
    return sf_quiet(f, ops[2]);
  }
  unsigned s = (sc & 1) ? 0 : v.s;
  if (v.zero) return sf_one(f, s); /* even negative with imm8[3] */
  if (v.s && (sc & 2)) {
    *fl = *ex = CPU_MX_IE;
    return sf_default_nan(f);
  }
  if (v.inf) return sf_one(f, s);
  *fl = *ex = v.den ? CPU_MX_DE : 0;
  int e = normalize(f, &v, &m);
  int k = 0;
  switch (interv) {
    case 1: k = (e & 1) ? -1 : 0; break;
    case 2: k = -1; break;
    case 3: k = (m >> (f->frac - 1)) & 1 ? -1 : 0; break;
    default: break;
  }
  return (s ? sf_sign(f) : 0) | (u64)(f->bias + k) << f->frac |
         (m & ((1ull << f->frac) - 1));
}

/* floor(V) for a finite V, kept within +-2^20 (beyond, every result is
 * already an infinity or a zero). */
static i64 floor_clamped(const struct sf_val *v) {
  const i64 lim = (i64)1 << 20;
  if (v->zero || !v->m) return 0;
  u64 q;
  int frac_part = 0;
  if (v->e >= 0) {
    int k = 63 - __builtin_clzll(v->m);
    q = k + v->e > 20 ? (u64)lim : v->m << v->e;
  } else if (v->e <= -64) {
    q = 0, frac_part = 1;
  } else {
    q = v->m >> -v->e;
    frac_part = (v->m & ((1ull << -v->e) - 1)) != 0;
    if (q > (u64)lim) q = (u64)lim;
  }
  return v->s ? -(i64)q - frac_part : (i64)q;
}

/* vscalef: vvvv * 2^floor(rm), rounded once. */
static u64 scalef(const struct sf_fmt *f, const u64 ops[3], unsigned imm,
                  u32 mx, u32 *fl, u32 *ex) {
  int daz = daz_of(mx);
  struct sf_val a = cpu__sf_unpack(ops[1], f, daz);
  struct sf_val b = cpu__sf_unpack(ops[2], f, daz);
  (void)imm;
  *fl = *ex = 0;
  if (a.snan || b.snan) {
    *fl = *ex = CPU_MX_IE;
    return sf_quiet(f, a.nan ? ops[1] : ops[2]);
  }
  /* A quiet NaN in vvvv scaled by an infinite rm is +inf or +0, whatever
   * its sign (measured). */
  if (a.nan) return b.inf ? (b.s ? 0 : sf_inf(f, 0)) : ops[1];
  if (b.nan) return ops[2];
  *fl = *ex = a.den ? CPU_MX_DE : 0;
  if (b.inf) {
    if ((a.zero && !b.s) || (a.inf && b.s)) {
      *fl = *ex = CPU_MX_IE;
      return sf_default_nan(f);
    }
    return b.s ? (a.s ? sf_sign(f) : 0) : sf_inf(f, a.s);
  }
  if (a.zero) return a.s ? sf_sign(f) : 0;
  if (a.inf) return sf_inf(f, a.s);
  i64 n = floor_clamped(&b);
  u32 f2, e2;
  u64 r = cpu__sf_round_pack(f, a.s, a.m, a.e + (int)n, mx, &f2, &e2);
  *fl |= f2;
  *ex |= e2;
  return r;
}

/* The rounding of vrndscale and vreduce: imm8[2] MXCSR.RC, else imm8[1:0]. */
static unsigned imm_rc(unsigned imm, u32 mx) {
  return (imm & 4) ? (mx & CPU_MX_RC) >> 13 : imm & 3;
}

/* 2^-M * round(2^M * V) for a finite nonzero V, M = imm8[7:4], as
 * Q * 2^-M with Q returned (the value keeps V's sign); *INEXACT set when
 * bits were dropped. Returns ~0 when V is already such a multiple. */
static u64 scale_round(const struct sf_val *v, unsigned imm, u32 mx,
                       int *inexact) {
  int m = (int)(imm >> 4);
  if (v->e + m >= 0) return ~0ull;
  u128 q = cpu__sf_round_shift(v->m, -(v->e + m), v->s, imm_rc(imm, mx),
                               inexact);
  return (u64)q;
}

/* vrndscale: rm rounded to M = imm8[7:4] fraction bits; imm8[3]
 * suppresses the precision exception. A half can round to a denormal
 * (2^-15): that raises UE when inexact (even with PE suppressed), and
 * when UE is unmasked, exact or not. */
static u64 rndscale(const struct sf_fmt *f, const u64 ops[3], unsigned imm,
                    u32 mx, u32 *fl, u32 *ex) {
  struct sf_val v = cpu__sf_unpack(ops[2], f, daz_of(mx));
  *fl = *ex = 0;
  if (v.nan) {
    *fl = *ex = v.snan ? CPU_MX_IE : 0;
    return sf_quiet(f, ops[2]);
  }
  if (v.inf) return ops[2];
  if (v.zero) return v.s ? sf_sign(f) : 0;
  int inexact = 0;
  u64 q = scale_round(&v, imm, mx, &inexact);
  if (inexact && !(imm & 8)) *fl = *ex = CPU_MX_PE;
  if (q == ~0ull) return ops[2];
  if (!q) return v.s ? sf_sign(f) : 0;
  u32 f2, e2;
  u64 r = cpu__sf_round_pack(f, v.s, q, -(int)(imm >> 4),
                             mx | CPU_MX_UE << 7, &f2, &e2);
  if (!(r & sf_inf(f, 0))) { /* tiny (nonzero) */
    if (inexact) *fl |= CPU_MX_UE;
    *ex = *fl | (mx & CPU_MX_UE << 7 ? 0 : CPU_MX_UE);
  }
  return r;
}

/* vreduce: rm minus its vrndscale, the difference rounded once. FTZ_ANY:
 * FTZ flushes a tiny result whether UE is masked or not (Intel, measured;
 * AMD only with UE masked). */
static u64 reduce_v(const struct sf_fmt *f, const u64 ops[3], unsigned imm,
                    u32 mx, u32 *fl, u32 *ex, int ftz_any) {
  struct sf_val v = cpu__sf_unpack(ops[2], f, daz_of(mx));
  *fl = *ex = 0;
  if (v.nan) {
    *fl = *ex = v.snan ? CPU_MX_IE : 0;
    return sf_quiet(f, ops[2]);
  }
  /* x - x: +0, or -0 when rounding down */
  u64 zero = imm_rc(imm, mx) == 1 ? sf_sign(f) : 0;
  if (v.inf) return 0;
  if (v.zero) return zero;
  int inexact = 0;
  u64 q = scale_round(&v, imm, mx, &inexact);
  if (q == ~0ull || !inexact) return zero;
  /* v - q * 2^-M exactly, then one rounding: through the FMA's element
   * routine as v * 1 - t. A tiny result is exact, and raises no UE, even
   * unmasked; FTZ (with UE masked) makes it a zero and raises PE. */
  u32 f2, e2;
  u32 m2 = (mx & ~(u32)(CPU_MX_RC | CPU_MX_FTZ)) | CPU_MX_UE << 7 |
           imm_rc(imm, mx) << 13;
  u64 t = q ? cpu__sf_round_pack(f, v.s, q, -(int)(imm >> 4), m2, &f2, &e2)
            : 0;
  u64 fops[3] = {ops[2], sf_one(f, 0), t};
  u64 r = cpu__sf_fma_op(f, fops, 123, CPU_FMA_SUB, 0, m2, fl, ex);
  *fl &= ~(u32)CPU_MX_DE; /* no DE for a denormal source */
  *ex &= ~(u32)CPU_MX_DE;
  if ((mx & CPU_MX_FTZ) && (ftz_any || (mx & CPU_MX_UE << 7)) &&
      !(r & sf_inf(f, 0)) && (r & ((1ull << f->frac) - 1))) {
    r &= sf_sign(f);
    *fl = *ex = CPU_MX_PE;
  }
  if (imm & 8) *fl &= ~(u32)CPU_MX_PE, *ex &= ~(u32)CPU_MX_PE;
  return r;
}

static u64 reduce(const struct sf_fmt *f, const u64 ops[3], unsigned imm,
                  u32 mx, u32 *fl, u32 *ex) {
  return reduce_v(f, ops, imm, mx, fl, ex, 0);
}

static u64 reduce_intel(const struct sf_fmt *f, const u64 ops[3],
                        unsigned imm, u32 mx, u32 *fl, u32 *ex) {
  return reduce_v(f, ops, imm, mx, fl, ex, 1);
}

/* A total order key of a non-NaN value: -0 below +0. */
static __int128 order_key(const struct sf_fmt *f, u64 x) {
  u64 mag = x & (sf_sign(f) - 1);
  return (x & sf_sign(f)) ? -((__int128)mag * 2 + 1) : (__int128)mag * 2;
}

/* vrange: imm8[1:0] min, max, min or max of the magnitudes, of vvvv and
 * rm; imm8[3:2] the sign: vvvv's, the chosen value's, positive,
 * negative. */
static u64 range(const struct sf_fmt *f, const u64 ops[3], unsigned imm,
                 u32 mx, u32 *fl, u32 *ex) {
  int daz = daz_of(mx);
  struct sf_val a = cpu__sf_unpack(ops[1], f, daz);
  struct sf_val b = cpu__sf_unpack(ops[2], f, daz);
  *fl = *ex = 0;
  if (a.snan || b.snan) {
    *fl = *ex = CPU_MX_IE;
    return sf_quiet(f, a.snan ? ops[1] : ops[2]);
  }
  *fl = *ex = a.den || b.den ? CPU_MX_DE : 0;
  u64 sb = sf_sign(f);
  u64 x = a.zero ? ops[1] & sb : ops[1], y = b.zero ? ops[2] & sb : ops[2];
  u64 r;
  if (a.nan || b.nan) { /* a quiet NaN gives way to a number */
    *fl = *ex = 0;
    r = a.nan && b.nan ? x : a.nan ? y : x;
  } else {
    __int128 kx = order_key(f, x), ky = order_key(f, y);
    u64 ax = x & (sb - 1), ay = y & (sb - 1);
    switch (imm & 3) {
      case 0: r = kx <= ky ? x : y; break;
      case 1: r = kx >= ky ? x : y; break;
      case 2: r = ax < ay ? x : ay < ax ? y : kx <= ky ? x : y; break;
      default: r = ax > ay ? x : ay > ax ? y : kx >= ky ? x : y; break;
    }
  }
  switch ((imm >> 2) & 3) {
    case 0: return (r & (sb - 1)) | (x & sb);
    case 2: return r & (sb - 1);
    case 3: return r | sb;
    default: return r;
  }
}

/* vfixupimm: vvvv's class picks a 4-bit response from the table in rm,
 * which says what the destination becomes; imm8 says which classes also
 * raise ZE or IE. */
static u64 fixupimm(const struct sf_fmt *f, const u64 ops[3], unsigned imm,
                    u32 mx, u32 *fl, u32 *ex) {
  struct sf_val v = cpu__sf_unpack(ops[1], f, daz_of(mx));
  int dbl = f == &cpu__sf_f64;
  u64 x = v.zero ? ops[1] & sf_sign(f) : ops[1]; /* DAZ: a signed zero */
  unsigned cls = v.nan    ? (v.snan ? 1 : 0)
                 : v.zero ? 2
                 : v.inf  ? (v.s ? 4 : 5)
                 : x == sf_one(f, 0) ? 3
                 : v.s               ? 6
                                     : 7;
  unsigned resp = (unsigned)(ops[2] >> (4 * cls)) & 15;
  u32 e = 0;
  if (cls == 2 && (imm & 1)) e |= CPU_MX_ZE;
  if (cls == 2 && (imm & 2)) e |= CPU_MX_IE;
  if (cls == 3 && (imm & 4)) e |= CPU_MX_ZE;
  if (cls == 3 && (imm & 8)) e |= CPU_MX_IE;
  if (cls == 1 && (imm & 16)) e |= CPU_MX_IE;
  if (cls == 4 && (imm & 32)) e |= CPU_MX_IE;
  if (cls == 6 && (imm & 64)) e |= CPU_MX_IE;
  if (cls == 5 && (imm & 128)) e |= CPU_MX_IE;
  *fl = *ex = e;
  switch (resp) {
    case 0: return ops[0];
    case 1: return x;
    case 2: return sf_quiet(f, x | sf_inf(f, 0)); /* src made a QNaN */
    case 3: return sf_default_nan(f);
    case 4: return sf_inf(f, 1);
    case 5: return sf_inf(f, 0);
    case 6: return sf_inf(f, v.s);
    case 7: return sf_sign(f);
    case 8: return 0;
    case 9: return sf_one(f, 1);
    case 10: return sf_one(f, 0);
    case 11: return (u64)(f->bias - 1) << f->frac;
    case 12: return dbl ? 0x4056800000000000ull : 0x42b40000u;
    case 13: return dbl ? 0x3ff921fb54442d18ull : 0x3fc90fdbu;
    case 14: return sf_max(f, 0);
    default: return sf_max(f, 1);
  }
}

/* ---- Handlers ------------------------------------------------------------ */

/* The packed form: reg = FN per element of ESZ bytes under the opmask. */
static int fpx_packed(struct cpu *cpu, const struct cpu_insn *in, fpx_fn fn,
                      unsigned esz) {
  const struct sf_fmt *f = fmt_of(esz);
  unsigned n = in->osz / esz;
  u64 m = kmask(cpu, in, n);
  u32 mx = mx_of(cpu, in, esz), fl = 0, ex = 0;
  union zv d, a, b, r;
  CPU_TRY(zsrc(cpu, in, esz, &b));
  zget(cpu, in->reg, &d);
  zget(cpu, in->reg2, &a);
  r = d;
  for (unsigned i = 0; i < n; i++) {
    u64 ops[3] = {0, 0, 0};
    u32 f1, e1;
    if (!((m >> i) & 1)) continue;
    memcpy(&ops[0], d.b + i * esz, esz);
    memcpy(&ops[1], a.b + i * esz, esz);
    memcpy(&ops[2], b.b + i * esz, esz);
    u64 v = fn(f, ops, in->imm & 0xff, mx, &f1, &e1);
    memcpy(r.b + i * esz, &v, esz);
    fl |= f1;
    ex |= e1;
  }
  if (cpu__ev_commit(cpu, in, ex, fl)) return CPU_FAULT;
  zput(cpu, in, in->reg, &r, esz);
  return CPU_RC_NEXT;
}

/* The scalar form: the low element FN(reg, vvvv, rm), bits 127:ESZ*8 from
 * vvvv. */
static int fpx_scalar(struct cpu *cpu, const struct cpu_insn *in, fpx_fn fn,
                      unsigned esz) {
  u64 m = kmask(cpu, in, 1), ops[3] = {0, 0, 0};
  u32 fl = 0, ex = 0;
  union cpu_vec b, r;
  CPU_TRY(cpu__ev_scalar_src(cpu, in, esz, m, &b));
  memcpy(r.b, cpu->ymm[in->reg2].b, 16);
  if (m & 1) {
    memcpy(&ops[0], cpu->ymm[in->reg].b, esz);
    memcpy(&ops[1], r.b, esz);
    memcpy(&ops[2], b.b, esz);
    u64 v = fn(fmt_of(esz), ops, in->imm & 0xff, mx_of(cpu, in, esz), &fl,
               &ex);
    memcpy(r.b, &v, esz);
  }
  if (cpu__ev_commit(cpu, in, ex, fl)) return CPU_FAULT;
  cpu__ev_scalar_put(cpu, in, &r, esz, m);
  return CPU_RC_NEXT;
}

/* The class bits of vfpclass (imm8): QNaN, +0, -0, +inf, -inf, denormal,
 * negative finite, SNaN. */
static unsigned fp_classes(const struct sf_fmt *f, u64 x, int daz) {
  struct sf_val v = cpu__sf_unpack(x, f, daz); /* DAZ: a zero */
  if (v.nan) return v.snan ? 128 : 1;
  if (v.zero) return v.s ? 4 : 2;
  if (v.inf) return v.s ? 16 : 8;
  return (v.den ? 32 : 0) | (v.s ? 64 : 0);
}

/* vfpclass k{k1}, rm, imm8: one bit per element (SCALAR: the low one),
 * set when the element is in a class imm8 selects. */
static int fpclass(struct cpu *cpu, const struct cpu_insn *in, unsigned esz,
                   int scalar) {
  const struct sf_fmt *f = fmt_of(esz);
  unsigned n = scalar ? 1 : in->osz / esz;
  u64 m = kmask(cpu, in, n), bits = 0;
  union zv b;
  if (scalar) {
    union cpu_vec t;
    CPU_TRY(cpu__ev_scalar_src(cpu, in, esz, m, &t));
    memcpy(b.b, t.b, 16);
  } else {
    CPU_TRY(zsrc(cpu, in, esz, &b));
  }
  for (unsigned i = 0; i < n; i++) {
    u64 x = 0;
    memcpy(&x, b.b + i * esz, esz);
    if (fp_classes(f, x, daz_of(mx_of(cpu, in, esz))) & in->imm)
      bits |= 1ull << i;
  }
  cpu->k[in->reg & 7] = bits & m;
  return CPU_RC_NEXT;
}

/* vrcp14 and vrsqrt14 (RSQRT): approximations whose bits each CPU design
 * may choose for itself. Intel's are computed here (softfp_approx.c, on
 * any host), and so are those of AMD's families 0x19 (Zen 4) and 0x1a
 * (Zen 5), each measured to give the very same bits; an AMD design not
 * measured yet (a later family, or family 0: not known) only by an AMD
 * host with AVX-512 of the recording CPU's family (0: any), whose unit the
 * replay then follows. */
static int approx14(struct cpu *cpu, const struct cpu_insn *in, int rsqrt,
                    unsigned esz, int scalar) {
  u64 m = kmask(cpu, in, scalar ? 1 : in->osz / esz);
  int intel = cpu->cfg.vendor != CPU_VENDOR_AMD ||
              cpu->cfg.family == 0x19 || /* Zen 4: measured the same */
              cpu->cfg.family == 0x1a;   /* Zen 5: so is it */
  union zv a, b, r;
  if (!intel && (!cpu__host_amd512 || (cpu->cfg.family &&
                                       cpu->cfg.family != cpu__host_amd512)))
    return cpu__op_unsupported_why(
        cpu, in,
        "AMD's approximation: needs an AMD CPU with AVX-512 of the same "
        "family");
  memset(&a, 0, sizeof a);
  if (scalar) {
    union cpu_vec t;
    CPU_TRY(cpu__ev_scalar_src(cpu, in, esz, m, &t));
    memset(&b, 0, sizeof b);
    memcpy(b.b, t.b, 16);
    memcpy(a.b, cpu->ymm[in->reg2].b, 16);
  } else {
    CPU_TRY(zsrc(cpu, in, esz, &b));
  }
  if (intel) {
    const struct sf_fmt *f = esz == 8 ? &cpu__sf_f64 : &cpu__sf_f32;
    unsigned n = scalar ? 1 : 64 / esz;
    if (scalar) memcpy(r.b, a.b, 16);
    for (unsigned i = 0; i < n; i++) {
      u64 x = 0;
      memcpy(&x, b.b + i * esz, esz);
      x = cpu__sf_approx14(f, x, rsqrt, cpu->mxcsr);
      memcpy(r.b + i * esz, &x, esz);
    }
  } else {
    cpu__host_approx14(rsqrt, esz == 8, scalar, r.b, a.b, b.b, cpu->mxcsr);
  }
  if (scalar) {
    union cpu_vec t;
    memcpy(t.b, r.b, 16);
    cpu__ev_scalar_put(cpu, in, &t, esz, m);
  } else {
    zput(cpu, in, in->reg, &r, esz);
  }
  return CPU_RC_NEXT;
}

/* FN, or INTEL_FN where the recording CPU is Intel's. */
#define EV_FPX2(name, fn, intel_fn)                                        \
  EV_OP(v##name##ps, fpx_packed(cpu, in, FPX_PICK(fn, intel_fn), 4))       \
  EV_OP(v##name##pd, fpx_packed(cpu, in, FPX_PICK(fn, intel_fn), 8))       \
  EV_OP(v##name##ss, fpx_scalar(cpu, in, FPX_PICK(fn, intel_fn), 4))       \
  EV_OP(v##name##sd, fpx_scalar(cpu, in, FPX_PICK(fn, intel_fn), 8))
#define FPX_PICK(fn, intel_fn) \
  (cpu->cfg.vendor == CPU_VENDOR_AMD ? fn : intel_fn)
#define EV_FPX(name, fn) EV_FPX2(name, fn, fn)
EV_FPX(getexp, getexp)
EV_FPX(getmant, getmant)
EV_FPX(scalef, scalef)
EV_FPX(rndscale, rndscale)
EV_FPX2(reduce, reduce, reduce_intel)
EV_FPX(range, range)
EV_FPX(fixupimm, fixupimm)
#undef EV_FPX
#undef EV_FPX2
#undef FPX_PICK
EV_OP(vrcp14ps, approx14(cpu, in, 0, 4, 0))
EV_OP(vrcp14pd, approx14(cpu, in, 0, 8, 0))
EV_OP(vrcp14ss, approx14(cpu, in, 0, 4, 1))
EV_OP(vrcp14sd, approx14(cpu, in, 0, 8, 1))
EV_OP(vrsqrt14ps, approx14(cpu, in, 1, 4, 0))
EV_OP(vrsqrt14pd, approx14(cpu, in, 1, 8, 0))
EV_OP(vrsqrt14ss, approx14(cpu, in, 1, 4, 1))
EV_OP(vrsqrt14sd, approx14(cpu, in, 1, 8, 1))
EV_OP(vfpclassps, fpclass(cpu, in, 4, 0))
EV_OP(vfpclasspd, fpclass(cpu, in, 8, 0))
EV_OP(vfpclassss, fpclass(cpu, in, 4, 1))
EV_OP(vfpclasssd, fpclass(cpu, in, 8, 1))
#define EV_FPH(name, fn)                                                 \
  EV_OP(v##name##ph, fpx_packed(cpu, in, fn, 2))                         \
  EV_OP(v##name##sh, fpx_scalar(cpu, in, fn, 2))
EV_FPH(getexp, getexp)
EV_FPH(getmant, getmant)
EV_FPH(scalef, scalef)
EV_FPH(rndscale, rndscale)
EV_FPH(reduce, reduce)
#undef EV_FPH
EV_OP(vfpclassph, fpclass(cpu, in, 2, 0))
EV_OP(vfpclasssh, fpclass(cpu, in, 2, 1))

/* ---- The rows ------------------------------------------------------------ */

const struct ev_row cpu__evex_fpx_rows[] = {
#define ROWS(map, op, sop, pform, sform, fl, name)                          \
  E(map, 66, op, W0, X, pform, 4, FV, R_BC | fl, v##name##ps,             \
    op_v##name##ps)                                                        \
  E(map, 66, op, W1, X, pform, 8, FV, R_BC | fl, v##name##pd,             \
    op_v##name##pd)                                                        \
  E(map, 66, sop, W0, X, sform, 4, T1S, fl, v##name##ss, op_v##name##ss)   \
  E(map, 66, sop, W1, X, sform, 8, T1S, fl, v##name##sd, op_v##name##sd)
    ROWS(0F38, 42, 43, VW, VHW, R_SAE, getexp)
    ROWS(0F3A, 26, 27, VWI, VHWI, R_SAE, getmant)
    ROWS(0F38, 2C, 2D, VHW, VHW, R_ER, scalef)
    ROWS(0F3A, 56, 57, VWI, VHWI, R_SAE, reduce)
    ROWS(0F3A, 50, 51, VHWI, VHWI, R_SAE, range)
    ROWS(0F3A, 54, 55, VHWI, VHWI, R_SAE, fixupimm)
#undef ROWS
    E(0F3A, 66, 08, W0, X, VWI, 4, FV, R_BC | R_SAE, vrndscaleps,
      op_vrndscaleps)
    E(0F3A, 66, 09, W1, X, VWI, 8, FV, R_BC | R_SAE, vrndscalepd,
      op_vrndscalepd)
    E(0F3A, 66, 0A, W0, X, VHWI, 4, T1S, R_SAE, vrndscaless, op_vrndscaless)
    E(0F3A, 66, 0B, W1, X, VHWI, 8, T1S, R_SAE, vrndscalesd, op_vrndscalesd)
    E(0F38, 66, 4C, W0, X, VW, 4, FV, R_BC, vrcp14ps, op_vrcp14ps)
    E(0F38, 66, 4C, W1, X, VW, 8, FV, R_BC, vrcp14pd, op_vrcp14pd)
    E(0F38, 66, 4D, W0, X, VHW, 4, T1S, 0, vrcp14ss, op_vrcp14ss)
    E(0F38, 66, 4D, W1, X, VHW, 8, T1S, 0, vrcp14sd, op_vrcp14sd)
    E(0F38, 66, 4E, W0, X, VW, 4, FV, R_BC, vrsqrt14ps, op_vrsqrt14ps)
    E(0F38, 66, 4E, W1, X, VW, 8, FV, R_BC, vrsqrt14pd, op_vrsqrt14pd)
    E(0F38, 66, 4F, W0, X, VHW, 4, T1S, 0, vrsqrt14ss, op_vrsqrt14ss)
    E(0F38, 66, 4F, W1, X, VHW, 8, T1S, 0, vrsqrt14sd, op_vrsqrt14sd)
    E(0F3A, 66, 66, W0, X, KWI, 4, FV, R_BC | R_NOZ, vfpclassps,
      op_vfpclassps)
    E(0F3A, 66, 66, W1, X, KWI, 8, FV, R_BC | R_NOZ, vfpclasspd,
      op_vfpclasspd)
    E(0F3A, 66, 67, W0, X, KWI, 4, T1S, R_NOZ, vfpclassss, op_vfpclassss)
    E(0F3A, 66, 67, W1, X, KWI, 8, T1S, R_NOZ, vfpclasssd, op_vfpclasssd)
    /* AVX512-FP16 */
#define FPH (R_FP | R_F16)
    E(6, 66, 42, W0, X, VW, 2, FV, FPH | R_BC | R_SAE, vgetexpph,
      op_vgetexpph)
    E(6, 66, 43, W0, X, VHW, 2, T1S, FPH | R_SAE, vgetexpsh, op_vgetexpsh)
    E(6, 66, 2C, W0, X, VHW, 2, FV, FPH | R_BC | R_ER, vscalefph,
      op_vscalefph)
    E(6, 66, 2D, W0, X, VHW, 2, T1S, FPH | R_ER, vscalefsh, op_vscalefsh)
    E(0F3A, NONE, 26, W0, X, VWI, 2, FV, FPH | R_BC | R_SAE, vgetmantph,
      op_vgetmantph)
    E(0F3A, NONE, 27, W0, X, VHWI, 2, T1S, FPH | R_SAE, vgetmantsh,
      op_vgetmantsh)
    E(0F3A, NONE, 56, W0, X, VWI, 2, FV, FPH | R_BC | R_SAE, vreduceph,
      op_vreduceph)
    E(0F3A, NONE, 57, W0, X, VHWI, 2, T1S, FPH | R_SAE, vreducesh,
      op_vreducesh)
    E(0F3A, NONE, 08, W0, X, VWI, 2, FV, FPH | R_BC | R_SAE, vrndscaleph,
      op_vrndscaleph)
    E(0F3A, NONE, 0A, W0, X, VHWI, 2, T1S, FPH | R_SAE, vrndscalesh,
      op_vrndscalesh)
    E(0F3A, NONE, 66, W0, X, KWI, 2, FV, FPH | R_BC | R_NOZ, vfpclassph,
      op_vfpclassph)
    E(0F3A, NONE, 67, W0, X, KWI, 2, T1S, FPH | R_NOZ, vfpclasssh,
      op_vfpclasssh)
#undef FPH
};
#undef E
#undef X

const size_t cpu__evex_fpx_nrows =
    sizeof cpu__evex_fpx_rows / sizeof cpu__evex_fpx_rows[0];
