/* SPDX-License-Identifier: MIT */
/* AVX512-FP16 arithmetic: add, sub, mul, div, min, max, sqrt, the fused
 * and the complex multiply-adds, the approximate reciprocals, and the
 * compares into opmasks, in their ph (packed) and sh (scalar) forms, with
 * their rows (the decoder is evex.c's; the special-value instructions are
 * evex_fpx.c's, the conversions evex_cvt.c's, vmovsh evex_fp.c's and vmovw
 * evex_ops.c's).
 *
 * The host may have no half-precision unit, so every element is computed
 * in integers (softfp.h), exactly rounded once under the MXCSR's rounding
 * or the embedded one. Half precision ignores DAZ and FTZ: a denormal
 * operand is used as it is (and raises DE), a tiny result is kept as a
 * denormal. As elsewhere in AVX-512, the elements the opmask leaves out
 * are not computed and raise nothing, EVEX.b on a register form
 * suppresses every exception, and an unmasked exception writes nothing. */
#include "replayer/cpu/evex.h"
#include "replayer/cpu/softfp.h"

#define H (&cpu__sf_f16)

enum { ONE = 0x3c00 }; /* 1.0 as a half */

/* The MXCSR an FP16 instruction computes under: cpu__ev_mx's, without the
 * DAZ and FTZ half precision ignores, and with its rule for an unmasked
 * underflow. */
static u32 h_mx(const struct cpu *cpu, const struct cpu_insn *in) {
  return (cpu__ev_mx(cpu, in) & ~(u32)(CPU_MX_DAZ | CPU_MX_FTZ)) |
         CPU_SF_UE_DENORMAL;
}

/* ---- The element operations ---------------------------------------------- */

/* One element of a two-operand operation: A (vvvv) op B (rm); *FL and *EX
 * as cpu__sf_round_pack's. */
typedef u64 (*h_op)(u64 a, u64 b, u32 mx, u32 *fl, u32 *ex);

/* a + b and a - b as a * 1 + b, exact before their one rounding; a's NaN
 * comes first, as the FMA's a does. */
static u64 h_add(u64 a, u64 b, u32 mx, u32 *fl, u32 *ex) {
  return cpu__sf_fma(H, a, ONE, b, 0, 0, mx, fl, ex);
}
static u64 h_sub(u64 a, u64 b, u32 mx, u32 *fl, u32 *ex) {
  return cpu__sf_fma(H, a, ONE, b, 0, 1, mx, fl, ex);
}
/* a * b plus a zero of the product's sign, which changes nothing. */
static u64 h_mul(u64 a, u64 b, u32 mx, u32 *fl, u32 *ex) {
  return cpu__sf_fma(H, a, b, (a ^ b) & 0x8000, 0, 0, mx, fl, ex);
}
static u64 h_div(u64 a, u64 b, u32 mx, u32 *fl, u32 *ex) {
  return cpu__sf_div(H, a, b, mx, fl, ex);
}
static u64 h_sqrt(u64 a, u64 b, u32 mx, u32 *fl, u32 *ex) {
  (void)a;
  return cpu__sf_sqrt(H, b, mx, fl, ex);
}

/* min and max as SSE's: B when either is a NaN (IE, quiet or not) or both
 * are zeros, else the smaller or larger. */
static u64 minmax(u64 a, u64 b, u32 *fl, u32 *ex, int max) {
  struct sf_val x = cpu__sf_unpack(a, H, 0), y = cpu__sf_unpack(b, H, 0);
  unsigned rel = cpu__sf_compare(H, a, b, 0);
  *fl = *ex = (x.nan || y.nan)   ? CPU_MX_IE
              : (x.den || y.den) ? CPU_MX_DE
                                 : 0;
  if (rel == CPU_SF_UN || (x.zero && y.zero)) return b;
  return rel == (max ? CPU_SF_GT : CPU_SF_LT) ? a : b;
}
static u64 h_min(u64 a, u64 b, u32 mx, u32 *fl, u32 *ex) {
  (void)mx;
  return minmax(a, b, fl, ex, 0);
}
static u64 h_max(u64 a, u64 b, u32 mx, u32 *fl, u32 *ex) {
  (void)mx;
  return minmax(a, b, fl, ex, 1);
}

/* ---- Packed and scalar forms --------------------------------------------- */

/* reg = OP(vvvv, rm) per half under the opmask. */
static int h_packed(struct cpu *cpu, const struct cpu_insn *in, h_op op) {
  unsigned n = in->osz / 2;
  u64 m = kmask(cpu, in, n);
  u32 mx = h_mx(cpu, in), fl = 0, ex = 0;
  union zv a, b, r;
  CPU_TRY(zsrc(cpu, in, 2, &b));
  zget(cpu, in->reg2, &a);
  for (unsigned i = 0; i < n; i++) {
    u32 f1, e1;
    if (!((m >> i) & 1)) continue;
    r.w[i] = (u16)op(a.w[i], b.w[i], mx, &f1, &e1);
    fl |= f1;
    ex |= e1;
  }
  if (cpu__ev_commit(cpu, in, ex, fl)) return CPU_FAULT;
  zput(cpu, in, in->reg, &r, 2);
  return CPU_RC_NEXT;
}

/* reg = vvvv with its low half OP(vvvv, rm) under the opmask. */
static int h_scalar(struct cpu *cpu, const struct cpu_insn *in, h_op op) {
  u64 m = kmask(cpu, in, 1);
  u32 fl = 0, ex = 0;
  union cpu_vec b, r;
  CPU_TRY(cpu__ev_scalar_src(cpu, in, 2, m, &b));
  memcpy(r.b, cpu->ymm[in->reg2].b, 16);
  if (m & 1) r.w[0] = (u16)op(r.w[0], b.w[0], h_mx(cpu, in), &fl, &ex);
  if (cpu__ev_commit(cpu, in, ex, fl)) return CPU_FAULT;
  cpu__ev_scalar_put(cpu, in, &r, 2, m);
  return CPU_RC_NEXT;
}

#define EV_H(name)                                \
  EV_OP(v##name##ph, h_packed(cpu, in, h_##name)) \
  EV_OP(v##name##sh, h_scalar(cpu, in, h_##name))
EV_H(add)
EV_H(sub)
EV_H(mul)
EV_H(div)
EV_H(min)
EV_H(max)
EV_H(sqrt)
#undef EV_H

/* ---- Fused multiply-add -------------------------------------------------- */

/* The FMA3 forms on halves: ORDER 132/213/231 and KIND as fma.c's.
 * SCALAR: the low half, the rest of the destination kept. */
static int h_fma(struct cpu *cpu, const struct cpu_insn *in, unsigned order,
                 int kind, int scalar) {
  unsigned n = scalar ? 1 : in->osz / 2;
  u64 m = kmask(cpu, in, n);
  u32 mx = h_mx(cpu, in), fl = 0, ex = 0;
  union zv s1, s2, s3, r;
  if (scalar) {
    union cpu_vec t;
    CPU_TRY(cpu__ev_scalar_src(cpu, in, 2, m, &t));
    memcpy(s3.b, t.b, 16);
  } else {
    CPU_TRY(zsrc(cpu, in, 2, &s3));
  }
  zget(cpu, in->reg, &s1);
  zget(cpu, in->reg2, &s2);
  r = s1;
  for (unsigned i = 0; i < n; i++) {
    u64 ops[3] = {s1.w[i], s2.w[i], s3.w[i]};
    u32 f1, e1;
    if (!((m >> i) & 1)) continue;
    r.w[i] = (u16)cpu__sf_fma_op(H, ops, order, kind, i, mx, &f1, &e1);
    fl |= f1;
    ex |= e1;
  }
  if (cpu__ev_commit(cpu, in, ex, fl)) return CPU_FAULT;
  if (scalar) {
    union cpu_vec t;
    memcpy(t.b, r.b, 16);
    cpu__ev_scalar_put(cpu, in, &t, 2, m);
  } else {
    zput(cpu, in, in->reg, &r, 2);
  }
  return CPU_RC_NEXT;
}

CPU_FMA_HANDLERS(h_fma)

/* ---- Complex multiply-add ------------------------------------------------ */

/* Complex numbers are pairs of halves (real part low), and the masking is
 * per pair. d = s1 * s2 (+ d with ACC), or s1 * conj(s2) with CONJ, in the
 * order the SDM gives, each step one fused multiply-add rounded to half:
 *   re = d.re + s1.re * s2.re, im = d.im + s1.im * s2.re,
 *   d.re = re -+ s1.im * s2.im, d.im = im +- s1.re * s2.im
 * (without ACC the first two are plain products), so that a denormal
 * step raises DE in the next. Every exception is treated as masked: the
 * flags are set, nothing faults. */
static void cmul(u16 d[2], const u16 s1[2], const u16 s2[2], int acc, int conj,
                 u32 mx, u32 *fl) {
  u32 f[4], e;
  u64 re, im;
  if (acc) {
    re = cpu__sf_fma(H, s1[0], s2[0], d[0], 0, 0, mx, &f[0], &e);
    im = cpu__sf_fma(H, s1[1], s2[0], d[1], 0, 0, mx, &f[1], &e);
  } else {
    re = h_mul(s1[0], s2[0], mx, &f[0], &e);
    im = h_mul(s1[1], s2[0], mx, &f[1], &e);
  }
  d[0] = (u16)cpu__sf_fma(H, s1[1], s2[1], re, !conj, 0, mx, &f[2], &e);
  d[1] =
      (u16)cpu__sf_fma(H, s1[0], s2[1], im, (unsigned)conj, 0, mx, &f[3], &e);
  *fl |= f[0] | f[1] | f[2] | f[3];
}

/* vf(c)maddc/vf(c)mulc: reg = vvvv * rm (+ reg) per pair (SCALAR: the
 * low pair, bits 127:32 from vvvv). The destination must be neither
 * source (#UD). */
static int h_complex(struct cpu *cpu, const struct cpu_insn *in, int acc,
                     int conj, int scalar) {
  unsigned n = scalar ? 1 : in->osz / 4;
  u64 m = kmask(cpu, in, n);
  u32 mx = h_mx(cpu, in) | CPU_MX_MASKS, fl = 0;
  union zv a, b, r;
  if (in->reg == in->reg2 || (!(in->pfx & CPU_PFX_MEM) && in->reg == in->rm))
    return cpu__fault(cpu, CPU_FAULT_UD);
  if (scalar) {
    union cpu_vec t;
    CPU_TRY(cpu__ev_scalar_src(cpu, in, 4, m, &t));
    memcpy(b.b, t.b, 16);
  } else {
    CPU_TRY(zsrc(cpu, in, 4, &b));
  }
  zget(cpu, in->reg2, &a);
  zget(cpu, in->reg, &r);
  for (unsigned i = 0; i < n; i++)
    if ((m >> i) & 1)
      cmul(&r.w[2 * i], &a.w[2 * i], &b.w[2 * i], acc, conj, mx, &fl);
  if (!EV_SAE(in)) cpu->mxcsr |= fl;
  if (scalar) {
    union cpu_vec t;
    memcpy(t.b, a.b, 16);
    memcpy(t.b, r.b, 4);
    cpu__ev_scalar_put(cpu, in, &t, 4, m);
  } else {
    zput(cpu, in, in->reg, &r, 4);
  }
  return CPU_RC_NEXT;
}
EV_OP(vfmaddcph, h_complex(cpu, in, 1, 0, 0))
EV_OP(vfcmaddcph, h_complex(cpu, in, 1, 1, 0))
EV_OP(vfmaddcsh, h_complex(cpu, in, 1, 0, 1))
EV_OP(vfcmaddcsh, h_complex(cpu, in, 1, 1, 1))
EV_OP(vfmulcph, h_complex(cpu, in, 0, 0, 0))
EV_OP(vfcmulcph, h_complex(cpu, in, 0, 1, 0))
EV_OP(vfmulcsh, h_complex(cpu, in, 0, 0, 1))
EV_OP(vfcmulcsh, h_complex(cpu, in, 0, 1, 1))

/* ---- Approximate reciprocals --------------------------------------------- */

static u64 h_rcp(u64 a, u64 b, u32 mx, u32 *fl, u32 *ex) {
  (void)a, (void)mx;
  *fl = *ex = 0;
  return cpu__sf_rcp14_half((u16)b, 0);
}
static u64 h_rsqrt(u64 a, u64 b, u32 mx, u32 *fl, u32 *ex) {
  (void)a, (void)mx;
  *fl = *ex = 0;
  return cpu__sf_rcp14_half((u16)b, 1);
}
EV_OP(vrcpph, h_packed(cpu, in, h_rcp))
EV_OP(vrcpsh, h_scalar(cpu, in, h_rcp))
EV_OP(vrsqrtph, h_packed(cpu, in, h_rsqrt))
EV_OP(vrsqrtsh, h_scalar(cpu, in, h_rsqrt))

/* ---- Compares into opmasks ---------------------------------------------- */

/* The relations (CPU_SF_*) each predicate 0-15 holds for; bit 4 of the
 * predicate only changes which NaNs are invalid. */
static const u8 pred_rel[16] = {
    CPU_SF_EQ,                            /* EQ_OQ */
    CPU_SF_LT,                            /* LT_OS */
    CPU_SF_LT | CPU_SF_EQ,                /* LE_OS */
    CPU_SF_UN,                            /* UNORD_Q */
    CPU_SF_UN | CPU_SF_LT | CPU_SF_GT,    /* NEQ_UQ */
    CPU_SF_UN | CPU_SF_EQ | CPU_SF_GT,    /* NLT_US */
    CPU_SF_UN | CPU_SF_GT,                /* NLE_US */
    CPU_SF_LT | CPU_SF_EQ | CPU_SF_GT,    /* ORD_Q */
    CPU_SF_UN | CPU_SF_EQ,                /* EQ_UQ */
    CPU_SF_UN | CPU_SF_LT,                /* NGE_US */
    CPU_SF_UN | CPU_SF_LT | CPU_SF_EQ,    /* NGT_US */
    0,                                    /* FALSE_OQ */
    CPU_SF_LT | CPU_SF_GT,                /* NEQ_OQ */
    CPU_SF_EQ | CPU_SF_GT,                /* GE_OS */
    CPU_SF_GT,                            /* GT_OS */
    CPU_SF_UN | CPU_SF_LT | CPU_SF_EQ | CPU_SF_GT, /* TRUE_UQ */
};
/* The predicates 0-15 that signal on a quiet NaN (bit 4 flips this). */
#define PRED_SIGNALS 0x6666u

/* Whether predicate P holds for A and B; *FL gets IE (a signalling NaN,
 * or any NaN for a signalling predicate), or DE for a denormal compared
 * with a number. */
static int h_pred(unsigned p, u64 a, u64 b, u32 *fl) {
  struct sf_val x = cpu__sf_unpack(a, H, 0), y = cpu__sf_unpack(b, H, 0);
  unsigned rel = cpu__sf_compare(H, a, b, 0);
  int sig = ((PRED_SIGNALS >> (p & 15)) & 1) ^ (int)(p >> 4);
  if (x.snan || y.snan || (rel == CPU_SF_UN && sig))
    *fl |= CPU_MX_IE;
  else if (rel != CPU_SF_UN && (x.den || y.den))
    *fl |= CPU_MX_DE;
  return (pred_rel[p & 15] & rel) != 0;
}

/* k[reg] = the predicate imm8[4:0] of vvvv and rm per half (SCALAR: the
 * low one) under the opmask; the opmask's bits above are zero. */
static int h_cmp(struct cpu *cpu, const struct cpu_insn *in, int scalar) {
  unsigned n = scalar ? 1 : in->osz / 2, p = (unsigned)in->imm & 31;
  u64 m = kmask(cpu, in, n), bits = 0;
  u32 fl = 0;
  union zv a, b;
  if (scalar) {
    union cpu_vec t;
    CPU_TRY(cpu__ev_scalar_src(cpu, in, 2, m, &t));
    memcpy(b.b, t.b, 16);
  } else {
    CPU_TRY(zsrc(cpu, in, 2, &b));
  }
  zget(cpu, in->reg2, &a);
  for (unsigned i = 0; i < n; i++)
    if (((m >> i) & 1) && h_pred(p, a.w[i], b.w[i], &fl)) bits |= 1ull << i;
  if (cpu__ev_commit(cpu, in, fl, fl)) return CPU_FAULT;
  cpu->k[in->reg & 7] = bits;
  return CPU_RC_NEXT;
}
EV_OP(vcmpph, h_cmp(cpu, in, 0))
EV_OP(vcmpsh, h_cmp(cpu, in, 1))

/* ---- The rows ------------------------------------------------------------ */

#define FPH (R_FP | R_F16)
const struct ev_row cpu__evex_fp16_rows[] = {
#define HROWS(op, name, fl)                                                 \
  E(5, NONE, op, W0, X, VHW, 2, FV, FPH | R_BC | fl, v##name##ph,          \
    op_v##name##ph)                                                        \
  E(5, F3, op, W0, X, VHW, 2, T1S, FPH | fl, v##name##sh, op_v##name##sh)
    HROWS(58, add, R_ER)
    HROWS(5C, sub, R_ER)
    HROWS(59, mul, R_ER)
    HROWS(5E, div, R_ER)
    HROWS(5D, min, R_SAE)
    HROWS(5F, max, R_SAE)
#undef HROWS
    E(5, NONE, 51, W0, X, VW, 2, FV, FPH | R_BC | R_ER, vsqrtph, op_vsqrtph)
    E(5, F3, 51, W0, X, VHW, 2, T1S, FPH | R_ER, vsqrtsh, op_vsqrtsh)
#define FMAROW(op, name, sfx, s, tup, fl)                                  \
  E(6, 66, op, W0, X, VHW, 2, tup, FPH | fl, name##s, op_##name##sfx)
    FMAROW(96, vfmaddsub132, p, ph, FV, R_BC | R_ER)
    FMAROW(A6, vfmaddsub213, p, ph, FV, R_BC | R_ER)
    FMAROW(B6, vfmaddsub231, p, ph, FV, R_BC | R_ER)
    FMAROW(97, vfmsubadd132, p, ph, FV, R_BC | R_ER)
    FMAROW(A7, vfmsubadd213, p, ph, FV, R_BC | R_ER)
    FMAROW(B7, vfmsubadd231, p, ph, FV, R_BC | R_ER)
    FMAROW(98, vfmadd132, p, ph, FV, R_BC | R_ER)
    FMAROW(99, vfmadd132, s, sh, T1S, R_ER)
    FMAROW(A8, vfmadd213, p, ph, FV, R_BC | R_ER)
    FMAROW(A9, vfmadd213, s, sh, T1S, R_ER)
    FMAROW(B8, vfmadd231, p, ph, FV, R_BC | R_ER)
    FMAROW(B9, vfmadd231, s, sh, T1S, R_ER)
    FMAROW(9A, vfmsub132, p, ph, FV, R_BC | R_ER)
    FMAROW(9B, vfmsub132, s, sh, T1S, R_ER)
    FMAROW(AA, vfmsub213, p, ph, FV, R_BC | R_ER)
    FMAROW(AB, vfmsub213, s, sh, T1S, R_ER)
    FMAROW(BA, vfmsub231, p, ph, FV, R_BC | R_ER)
    FMAROW(BB, vfmsub231, s, sh, T1S, R_ER)
    FMAROW(9C, vfnmadd132, p, ph, FV, R_BC | R_ER)
    FMAROW(9D, vfnmadd132, s, sh, T1S, R_ER)
    FMAROW(AC, vfnmadd213, p, ph, FV, R_BC | R_ER)
    FMAROW(AD, vfnmadd213, s, sh, T1S, R_ER)
    FMAROW(BC, vfnmadd231, p, ph, FV, R_BC | R_ER)
    FMAROW(BD, vfnmadd231, s, sh, T1S, R_ER)
    FMAROW(9E, vfnmsub132, p, ph, FV, R_BC | R_ER)
    FMAROW(9F, vfnmsub132, s, sh, T1S, R_ER)
    FMAROW(AE, vfnmsub213, p, ph, FV, R_BC | R_ER)
    FMAROW(AF, vfnmsub213, s, sh, T1S, R_ER)
    FMAROW(BE, vfnmsub231, p, ph, FV, R_BC | R_ER)
    FMAROW(BF, vfnmsub231, s, sh, T1S, R_ER)
#undef FMAROW
    /* complex: pairs of halves, masked and broadcast as dwords */
    E(6, F3, 56, W0, X, VHW, 4, FV, FPH | R_BC | R_ER, vfmaddcph,
      op_vfmaddcph)
    E(6, F2, 56, W0, X, VHW, 4, FV, FPH | R_BC | R_ER, vfcmaddcph,
      op_vfcmaddcph)
    E(6, F3, 57, W0, X, VHW, 4, T1S, FPH | R_ER, vfmaddcsh, op_vfmaddcsh)
    E(6, F2, 57, W0, X, VHW, 4, T1S, FPH | R_ER, vfcmaddcsh, op_vfcmaddcsh)
    E(6, F3, D6, W0, X, VHW, 4, FV, FPH | R_BC | R_ER, vfmulcph, op_vfmulcph)
    E(6, F2, D6, W0, X, VHW, 4, FV, FPH | R_BC | R_ER, vfcmulcph,
      op_vfcmulcph)
    E(6, F3, D7, W0, X, VHW, 4, T1S, FPH | R_ER, vfmulcsh, op_vfmulcsh)
    E(6, F2, D7, W0, X, VHW, 4, T1S, FPH | R_ER, vfcmulcsh, op_vfcmulcsh)
    E(6, 66, 4C, W0, X, VW, 2, FV, FPH | R_BC, vrcpph, op_vrcpph)
    E(6, 66, 4D, W0, X, VHW, 2, T1S, FPH, vrcpsh, op_vrcpsh)
    E(6, 66, 4E, W0, X, VW, 2, FV, FPH | R_BC, vrsqrtph, op_vrsqrtph)
    E(6, 66, 4F, W0, X, VHW, 2, T1S, FPH, vrsqrtsh, op_vrsqrtsh)
    E(0F3A, NONE, C2, W0, X, KHWI, 2, FV, FPH | R_BC | R_SAE | R_NOZ, vcmpph,
      op_vcmpph)
    E(0F3A, F3, C2, W0, X, KHWI, 2, T1S, FPH | R_SAE | R_NOZ, vcmpsh,
      op_vcmpsh)
};
#undef FPH
#undef E
#undef X

const size_t cpu__evex_fp16_nrows =
    sizeof cpu__evex_fp16_rows / sizeof cpu__evex_fp16_rows[0];
