/* SPDX-License-Identifier: MIT */
/* FMA3 and F16C: the fused multiply-adds a*b+c with a single rounding, in
 * every form (vfmadd, vfmsub, vfnmadd, vfnmsub, vfmaddsub, vfmsubadd; 132,
 * 213, 231; ps, pd, ss, sd; 128 and 256 bits), and the half-precision
 * conversions vcvtph2ps and vcvtps2ph.
 *
 * The host may lack both (a trace replays on any x86-64), so the
 * arithmetic is done here in integers; where the host has FMA3 and every
 * exception is masked, its own instruction gives the same result and
 * flags faster (host.c, tests/cpu/portable.sh). For FMA: the exact
 * product (at most 106 bits) and the addend are summed in 128 bits with a
 * sticky bit, then rounded once under the guest's MXCSR, DAZ and FTZ
 * included. The flags
 * are those the CPU reports: IE, DE before the computation; OE, UE, PE
 * after, with tininess detected after rounding, and for an unmasked
 * overflow or underflow the flags of the result rounded with an unbounded
 * exponent. An unmasked exception writes no element. */
#include "replayer/cpu/softfp.h"

u64 cpu__sf_fma(const struct sf_fmt *f, u64 va, u64 vb, u64 vc,
                unsigned negp, unsigned negc, u32 mx, u32 *fl, u32 *ex) {
  int daz = (mx & CPU_MX_DAZ) != 0;
  struct sf_val u[3] = {cpu__sf_unpack(va, f, daz), cpu__sf_unpack(vb, f, daz),
                        cpu__sf_unpack(vc, f, daz)};
  const struct sf_val *a = &u[0], *b = &u[1], *c = &u[2];
  *fl = *ex = 0;
  if (a->nan || b->nan || c->nan) {
    /* The first NaN of a, b, c, quieted; IE only for a signalling one
     * (0 * inf + QNaN is not invalid); no DE. */
    *fl = *ex = (a->snan || b->snan || c->snan) ? CPU_MX_IE : 0;
    return sf_quiet(f, a->nan ? va : b->nan ? vb : vc);
  }
  unsigned sp = a->s ^ b->s ^ negp, sc = c->s ^ negc;
  u32 de = (a->den || b->den || c->den) ? CPU_MX_DE : 0;
  if ((a->inf && b->zero) || (a->zero && b->inf) ||
      ((a->inf || b->inf) && c->inf && sp != sc)) {
    *fl = *ex = CPU_MX_IE;
    return sf_default_nan(f);
  }
  *fl = *ex = de;
  if (a->inf || b->inf) return sf_inf(f, sp);
  if (c->inf) return sf_inf(f, sc);
  unsigned rc = (mx & CPU_MX_RC) >> 13;
  u128 pm = (u128)a->m * b->m;
  int pe = a->e + b->e;
  if (!pm && !c->m) /* exact zeros */
    return (sp == sc ? sp : rc == 1) ? sf_sign(f) : 0;
  /* Both at the leading bit 125, then the smaller aligned with a sticky
   * bit; the headroom keeps the sum exact to well below rounding. */
  u128 r;
  int e;
  unsigned s;
  if (!c->m) {
    r = pm, e = pe, s = sp;
  } else if (!pm) {
    r = c->m, e = c->e, s = sc;
  } else {
    int kp = sf_msb128(pm), kc = sf_msb128(c->m);
    u128 x = pm << (125 - kp), y = (u128)c->m << (125 - kc);
    int ex_ = pe - (125 - kp), ey = c->e - (125 - kc);
    unsigned sx = sp, sy = sc;
    if (ey > ex_ || (ey == ex_ && y > x)) {
      u128 t = x;
      x = y, y = t;
      int te = ex_;
      ex_ = ey, ey = te;
      unsigned ts = sx;
      sx = sy, sy = ts;
    }
    int d = ex_ - ey;
    if (d >= 127) {
      y = y != 0;
    } else if (d > 0) {
      u128 lost = y & (((u128)1 << d) - 1);
      y = (y >> d) | (lost != 0);
    }
    r = sx == sy ? x + y : x - y;
    e = ex_;
    s = sx;
    if (!r) return rc == 1 ? sf_sign(f) : 0;
  }
  u32 fl2, ex2;
  u64 v = cpu__sf_round_pack(f, s, r, e, mx, &fl2, &ex2);
  *fl |= fl2;
  *ex |= ex2;
  return v;
}

u64 cpu__sf_fma_op(const struct sf_fmt *f, const u64 ops[3], unsigned order,
                   int kind, unsigned i, u32 mx, u32 *fl, u32 *ex) {
  unsigned ia = order / 100 - 1, ib = order / 10 % 10 - 1, ic = order % 10 - 1;
  unsigned negp = kind == CPU_FMA_NADD || kind == CPU_FMA_NSUB;
  unsigned negc = kind == CPU_FMA_SUB || kind == CPU_FMA_NSUB ||
                  (kind == CPU_FMA_ADDSUB && !(i & 1)) ||
                  (kind == CPU_FMA_SUBADD && (i & 1));
  return cpu__sf_fma(f, ops[ia], ops[ib], ops[ic], negp, negc, mx, fl, ex);
}

u64 cpu__fma_elem(int dbl, const u64 ops[3], unsigned order, int kind,
                  unsigned i, u32 mx, u32 *fl, u32 *ex) {
  return cpu__sf_fma_op(dbl ? &cpu__sf_f64 : &cpu__sf_f32, ops, order, kind,
                        i, mx, fl, ex);
}

/* ---- Handlers ---------------------------------------------------------- */

/* ORDER is 132, 213 or 231: which operands are multiplied (the digits
 * name operands 1 dest, 2 vvvv, 3 rm: a*b+c with a, b, c the digits). */
static int fused(struct cpu *cpu, const struct cpu_insn *in, unsigned order,
               int kind, int scalar) {
  int dbl = (in->pfx & CPU_PFX_REXW) != 0;
  unsigned esz = dbl ? 8 : 4;
  unsigned n = scalar ? esz : cpu__vex256(in) ? 32 : 16;
  unsigned ia = order / 100 - 1, ib = order / 10 % 10 - 1, ic = order % 10 - 1;
  union cpu_vec s3, r = {0};
  CPU_TRY(cpu__vex_rm(cpu, in, n, 0, &s3));
  const union cpu_vec *s1 = &cpu->ymm[in->reg], *s2 = &cpu->ymm[in->reg2];
  if (scalar) memcpy(r.b, s1->b, 16);
  u32 mx = cpu->mxcsr, fl = 0, ex = 0;
  /* The host's own FMA when every exception is masked: the same results
   * and flags (an unmasked one needs the exact rules below). */
  if (cpu__host_fma3 && (mx & CPU_MX_MASKS) == CPU_MX_MASKS) {
    const union cpu_vec *ops[3] = {s1, s2, &s3};
    union cpu_vec a = {0}, b = {0}, c = {0};
    memcpy(a.b, ops[ia]->b, n);
    memcpy(b.b, ops[ib]->b, n);
    memcpy(c.b, ops[ic]->b, n);
    fl = ex = cpu__host_fma_sticky(kind, dbl, scalar, b.b, a.b, c.b, mx);
    memcpy(r.b, b.b, n);
  } else {
    for (unsigned i = 0; i < n / esz; i++) {
      u64 ops[3];
      if (dbl) {
        ops[0] = s1->q[i], ops[1] = s2->q[i], ops[2] = s3.q[i];
      } else {
        ops[0] = s1->d[i], ops[1] = s2->d[i], ops[2] = s3.d[i];
      }
      u32 f1, e1;
      u64 v = cpu__fma_elem(dbl, ops, order, kind, i, mx, &f1, &e1);
      fl |= f1;
      ex |= e1;
      if (dbl)
        r.q[i] = v;
      else
        r.d[i] = (u32)v;
    }
  }
  CPU_TRY(cpu__sse_commit(cpu, ex, fl));
  cpu_vput(cpu, in->reg, &r);
  return CPU_RC_NEXT;
}

CPU_FMA_HANDLERS(fused)

/* ---- F16C --------------------------------------------------------------- */

/* vcvtph2ps V,W: 4 or 8 halves from the low 8 or 16 bytes of rm. */
static int op_vcvtph2ps_V_W(struct cpu *cpu, const struct cpu_insn *in) {
  unsigned cnt = cpu__vex256(in) ? 8 : 4;
  union cpu_vec s, r = {0};
  u32 fl = 0;
  CPU_TRY(cpu__vex_rm(cpu, in, cnt * 2, 0, &s));
  for (unsigned i = 0; i < cnt; i++) {
    u32 f1;
    r.d[i] = cpu__sf_half_to_single(s.w[i], cpu->mxcsr, &f1);
    fl |= f1;
  }
  CPU_TRY(cpu__sse_commit(cpu, fl, fl));
  cpu_vput(cpu, in->reg, &r);
  return CPU_RC_NEXT;
}

/* vcvtps2ph W,V,I: imm8 bit 2 selects MXCSR.RC, else bits 1:0 round. */
static int op_vcvtps2ph_W_V_I(struct cpu *cpu, const struct cpu_insn *in) {
  unsigned cnt = in->osz2 == 32 ? 8 : 4;
  unsigned rc = (in->imm & 4) ? (cpu->mxcsr & CPU_MX_RC) >> 13 : in->imm & 3;
  const union cpu_vec *s = &cpu->ymm[in->reg];
  union cpu_vec r = {0};
  u32 fl = 0, ex = 0, mx = cpu->mxcsr;
  if (cpu->cfg.vendor == CPU_VENDOR_INTEL) mx |= CPU_SF_DEN_SRC_INEXACT;
  for (unsigned i = 0; i < cnt; i++) {
    u32 f1, e1;
    r.w[i] = cpu__sf_single_to_half(s->d[i], mx, rc, &f1, &e1);
    fl |= f1;
    ex |= e1;
  }
  if (in->pfx & CPU_PFX_MEM && cpu->cfg.vendor == CPU_VENDOR_INTEL) {
    /* Intel, measured: the exceptions come first (an unmasked one before
     * the store's page fault), and a store that faults leaves the flags
     * set. */
    u64 a = cpu_ea(cpu, in);
    CPU_TRY(cpu__sse_commit(cpu, ex, fl));
    return cnt == 8 ? cpu_st128(cpu, a, r.b) : cpu_st64(cpu, a, r.q[0]);
  }
  if (in->pfx & CPU_PFX_MEM) {
    /* AMD: a faulting store must leave MXCSR as it was: the bytes are read
     * and stored back first, which faults where the store would. */
    u64 a = cpu_ea(cpu, in);
    union cpu_vec old;
    if (cnt == 8) {
      CPU_TRY(cpu_ld128(cpu, a, old.b));
      CPU_TRY(cpu_st128(cpu, a, old.b));
    } else {
      CPU_TRY(cpu_ld64(cpu, a, &old.q[0]));
      CPU_TRY(cpu_st64(cpu, a, old.q[0]));
    }
    CPU_TRY(cpu__sse_commit(cpu, ex, fl));
    return cnt == 8 ? cpu_st128(cpu, a, r.b) : cpu_st64(cpu, a, r.q[0]);
  }
  CPU_TRY(cpu__sse_commit(cpu, ex, fl));
  cpu_vput(cpu, in->rm, &r);
  return CPU_RC_NEXT;
}

static const struct cpu__oprow fma_rows[] = {
#define OP(id, form, fn) {id, CPU_FORM_##form, fn, #fn},
#include "replayer/cpu/fma.def"
#undef OP
};
CPU__FAMILY_TABLE(fma)
