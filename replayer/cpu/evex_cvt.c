/* SPDX-License-Identifier: MIT */
/* The EVEX conversions SSE has no counterpart for, or whose EVEX forms
 * need a general register: packed unsigned dwords and qwords to and from
 * floats and doubles (AVX512F, DQ), the scalar conversions between a float
 * or double and a signed or unsigned general register, half precision to
 * and from single (vcvtph2ps, vcvtps2ph), every AVX512-FP16 conversion
 * (halves to and from words, dwords, qwords, floats and doubles, packed
 * and scalar), and the scalar compares into RFLAGS (vcomiss... vcomish),
 * with their rows (the decoder is evex.c's).
 *
 * Each element is converted in integers (softfp.h), so that no host
 * AVX-512 is needed and the flags are computed, not inferred:
 *  - an integer becomes a float by one rounding under MXCSR.RC (or the
 *    embedded rounding), setting PE when inexact;
 *  - a float becomes an integer rounded by RC, or truncated by the
 *    vcvtt forms; a NaN, an infinity or a value out of the destination's
 *    range raises IE alone and gives the integer indefinite: all ones for
 *    an unsigned destination, the sign bit alone for a signed one. A value
 *    that rounds to 0 is in range whatever its sign (-0.4 converts to 0
 *    with PE), and a denormal is a zero under DAZ.
 * The opmask leaves elements out before they are converted, so they raise
 * nothing; EVEX.b on a register form suppresses every flag (SAE) and, for
 * the rows with embedded rounding, rounds as L'L says. A half ignores DAZ
 * as a source and FTZ as a result, and AVX512-FP16 reports an unmasked
 * underflow or overflow into a half by its own rules (cvt_mx). */
#include "replayer/cpu/evex.h"
#include "replayer/cpu/softfp.h"

/* The format of a float element of ESZ bytes. */
static const struct sf_fmt *fmt_of(unsigned esz) {
  return esz == 2 ? &cpu__sf_f16 : esz == 4 ? &cpu__sf_f32 : &cpu__sf_f64;
}

/* The MXCSR a conversion computes under: cpu__ev_mx's, without DAZ when
 * its floating-point source is a half (SSZ 2), and when its result is one
 * (DSZ 2) without FTZ, with the halves' rule for an unmasked underflow,
 * and from an integer (SSZ 0) their rule for an unmasked overflow
 * (softfp.h). */
static u32 cvt_mx(const struct cpu *cpu, const struct cpu_insn *in,
                  unsigned ssz, unsigned dsz) {
  u32 mx = cpu__ev_mx(cpu, in);
  if (ssz == 2) mx &= ~(u32)CPU_MX_DAZ;
  if (dsz == 2)
    mx = (mx & ~(u32)CPU_MX_FTZ) | CPU_SF_UE_DENORMAL |
         (ssz ? 0 : CPU_SF_OE_INEXACT);
  return mx;
}

/* ---- Packed ------------------------------------------------------------ */

/* Conversion kinds of cvt_packed. */
enum {
  CV_U2F,  /* unsigned integer to float */
  CV_I2F,  /* signed integer to float */
  CV_F2U,  /* float to unsigned integer, rounded */
  CV_F2UT, /* float to unsigned integer, truncated */
  CV_F2I,  /* float to signed integer, rounded */
  CV_F2IT, /* float to signed integer, truncated */
  CV_F2F   /* float to float (half precision and the others) */
};

/* Element X (SSZ bytes) converted as KIND to DSZ bytes under MX. */
static u64 cvt_elem(u64 x, unsigned kind, unsigned ssz, unsigned dsz, u32 mx,
                    u32 *fl, u32 *ex) {
  switch (kind) {
    case CV_U2F:
    case CV_I2F:
      return cpu__sf_from_int(x, ssz * 8, kind == CV_I2F, fmt_of(dsz), mx,
                              fl, ex);
    case CV_F2F:
      return cpu__sf_convert(fmt_of(dsz), fmt_of(ssz), x, mx, fl, ex);
    default: {
      int sgn = kind == CV_F2I || kind == CV_F2IT;
      int trunc = kind == CV_F2UT || kind == CV_F2IT;
      u64 y = cpu__sf_to_int(x, fmt_of(ssz), mx, trunc, dsz * 8, sgn, fl);
      *ex = *fl;
      return y;
    }
  }
}

/* reg = the elements of rm (SSZ bytes each) converted as KIND to DSZ
 * bytes each; the elements are the larger of the two sizes, so a
 * narrowing one writes half the vector (zero above) and a widening one
 * reads half of its source. */
static int cvt_packed(struct cpu *cpu, const struct cpu_insn *in,
                      unsigned kind, unsigned ssz, unsigned dsz) {
  unsigned n = in->osz / (ssz > dsz ? ssz : dsz);
  u64 m = kmask(cpu, in, n);
  int from_fp = kind >= CV_F2U, to_fp = kind < CV_F2U || kind == CV_F2F;
  u32 mx = cvt_mx(cpu, in, from_fp ? ssz : 0, to_fp ? dsz : 0), fl = 0, ex = 0;
  union zv s, r;
  struct cpu_insn li = *in;
  li.osz = (u8)(n * ssz);
  CPU_TRY(cpu__ev_zsrc_m(cpu, &li, ssz, m, &s));
  memset(r.b, 0, sizeof r.b);
  for (unsigned i = 0; i < n; i++) {
    u64 x = 0, y;
    u32 f1, e1;
    if (!((m >> i) & 1)) continue;
    memcpy(&x, s.b + i * ssz, ssz);
    y = cvt_elem(x, kind, ssz, dsz, mx, &f1, &e1);
    fl |= f1;
    ex |= e1;
    memcpy(r.b + i * dsz, &y, dsz);
  }
  CPU_TRY(cpu__ev_commit(cpu, in, ex, fl));
  li.osz = (u8)(n * dsz);
  zput(cpu, &li, in->reg, &r, dsz);
  return CPU_RC_NEXT;
}
EV_OP(vcvtudq2ps, cvt_packed(cpu, in, CV_U2F, 4, 4))
EV_OP(vcvtudq2pd, cvt_packed(cpu, in, CV_U2F, 4, 8))
EV_OP(vcvtuqq2ps, cvt_packed(cpu, in, CV_U2F, 8, 4))
EV_OP(vcvtuqq2pd, cvt_packed(cpu, in, CV_U2F, 8, 8))
EV_OP(vcvtps2udq, cvt_packed(cpu, in, CV_F2U, 4, 4))
EV_OP(vcvttps2udq, cvt_packed(cpu, in, CV_F2UT, 4, 4))
EV_OP(vcvtpd2udq, cvt_packed(cpu, in, CV_F2U, 8, 4))
EV_OP(vcvttpd2udq, cvt_packed(cpu, in, CV_F2UT, 8, 4))
EV_OP(vcvtps2uqq, cvt_packed(cpu, in, CV_F2U, 4, 8))
EV_OP(vcvttps2uqq, cvt_packed(cpu, in, CV_F2UT, 4, 8))
EV_OP(vcvtpd2uqq, cvt_packed(cpu, in, CV_F2U, 8, 8))
EV_OP(vcvttpd2uqq, cvt_packed(cpu, in, CV_F2UT, 8, 8))
/* AVX512-FP16 */
EV_OP(vcvtph2psx, cvt_packed(cpu, in, CV_F2F, 2, 4))
EV_OP(vcvtps2phx, cvt_packed(cpu, in, CV_F2F, 4, 2))
EV_OP(vcvtph2pd, cvt_packed(cpu, in, CV_F2F, 2, 8))
EV_OP(vcvtpd2ph, cvt_packed(cpu, in, CV_F2F, 8, 2))
EV_OP(vcvtph2w, cvt_packed(cpu, in, CV_F2I, 2, 2))
EV_OP(vcvttph2w, cvt_packed(cpu, in, CV_F2IT, 2, 2))
EV_OP(vcvtph2uw, cvt_packed(cpu, in, CV_F2U, 2, 2))
EV_OP(vcvttph2uw, cvt_packed(cpu, in, CV_F2UT, 2, 2))
EV_OP(vcvtph2dq, cvt_packed(cpu, in, CV_F2I, 2, 4))
EV_OP(vcvttph2dq, cvt_packed(cpu, in, CV_F2IT, 2, 4))
EV_OP(vcvtph2udq, cvt_packed(cpu, in, CV_F2U, 2, 4))
EV_OP(vcvttph2udq, cvt_packed(cpu, in, CV_F2UT, 2, 4))
EV_OP(vcvtph2qq, cvt_packed(cpu, in, CV_F2I, 2, 8))
EV_OP(vcvttph2qq, cvt_packed(cpu, in, CV_F2IT, 2, 8))
EV_OP(vcvtph2uqq, cvt_packed(cpu, in, CV_F2U, 2, 8))
EV_OP(vcvttph2uqq, cvt_packed(cpu, in, CV_F2UT, 2, 8))
EV_OP(vcvtw2ph, cvt_packed(cpu, in, CV_I2F, 2, 2))
EV_OP(vcvtuw2ph, cvt_packed(cpu, in, CV_U2F, 2, 2))
EV_OP(vcvtdq2ph, cvt_packed(cpu, in, CV_I2F, 4, 2))
EV_OP(vcvtudq2ph, cvt_packed(cpu, in, CV_U2F, 4, 2))
EV_OP(vcvtqq2ph, cvt_packed(cpu, in, CV_I2F, 8, 2))
EV_OP(vcvtuqq2ph, cvt_packed(cpu, in, CV_U2F, 8, 2))

/* ---- Scalar, between floating-point formats ----------------------------- */

/* vcvtsh2ss and kin V,H,W: reg = vvvv with its low element (DSZ bytes)
 * rm's (SSZ bytes) converted, under the opmask. */
static int cvt_scalar(struct cpu *cpu, const struct cpu_insn *in,
                      unsigned ssz, unsigned dsz) {
  u64 m = kmask(cpu, in, 1), x = 0;
  u32 fl = 0, ex = 0;
  union cpu_vec b, r;
  CPU_TRY(cpu__ev_scalar_src(cpu, in, ssz, m, &b));
  memcpy(r.b, cpu->ymm[in->reg2].b, 16);
  if (m & 1) {
    memcpy(&x, b.b, ssz);
    u64 y = cpu__sf_convert(fmt_of(dsz), fmt_of(ssz), x,
                            cvt_mx(cpu, in, ssz, dsz), &fl, &ex);
    memcpy(r.b, &y, dsz);
  }
  CPU_TRY(cpu__ev_commit(cpu, in, ex, fl));
  cpu__ev_scalar_put(cpu, in, &r, dsz, m);
  return CPU_RC_NEXT;
}
EV_OP(vcvtsh2ss, cvt_scalar(cpu, in, 2, 4))
EV_OP(vcvtss2sh, cvt_scalar(cpu, in, 4, 2))
EV_OP(vcvtsh2sd, cvt_scalar(cpu, in, 2, 8))
EV_OP(vcvtsd2sh, cvt_scalar(cpu, in, 8, 2))

/* ---- Scalar, with a general register ------------------------------------ */

/* vcvt(u)si2ss/sd/sh V,H,E: reg = vvvv with its low element (DSZ bytes) the
 * general register or memory rm (EVEX.W: 64 bits, else 32) converted,
 * zero above bit 127. No opmask. */
static int cvt_from_gpr(struct cpu *cpu, const struct cpu_insn *in,
                        unsigned dsz, int sgn) {
  unsigned bits = (in->pfx & CPU_PFX_REXW) ? 64 : 32;
  u32 fl, ex;
  u64 x;
  union zv r;
  if (in->pfx & CPU_PFX_MEM)
    CPU_TRY(cpu_ld(cpu, cpu_ea(cpu, in), bits / 8, &x));
  else
    x = cpu->gpr[in->rm];
  u64 y = cpu__sf_from_int(x, bits, sgn, fmt_of(dsz),
                           cvt_mx(cpu, in, 0, dsz), &fl, &ex);
  CPU_TRY(cpu__ev_commit(cpu, in, ex, fl));
  zget(cpu, in->reg2, &r);
  memcpy(r.b, &y, dsz);
  memset(r.b + 16, 0, 48);
  zset(cpu, in->reg, &r);
  return CPU_RC_NEXT;
}
EV_OP(vcvtsi2ss, cvt_from_gpr(cpu, in, 4, 1))
EV_OP(vcvtsi2sd, cvt_from_gpr(cpu, in, 8, 1))
EV_OP(vcvtusi2ss, cvt_from_gpr(cpu, in, 4, 0))
EV_OP(vcvtusi2sd, cvt_from_gpr(cpu, in, 8, 0))
EV_OP(vcvtsi2sh, cvt_from_gpr(cpu, in, 2, 1))
EV_OP(vcvtusi2sh, cvt_from_gpr(cpu, in, 2, 0))

/* vcvt(t)ss/sd/sh2(u)si G,W: the general register reg = the low element of
 * rm (SSZ bytes) converted to 64 bits (EVEX.W) or 32, zero-extended. */
static int cvt_to_gpr(struct cpu *cpu, const struct cpu_insn *in,
                      unsigned ssz, int trunc, int sgn) {
  unsigned bits = (in->pfx & CPU_PFX_REXW) ? 64 : 32;
  u32 fl;
  u64 x = 0;
  if (in->pfx & CPU_PFX_MEM)
    CPU_TRY(cpu_ld(cpu, cpu_ea(cpu, in), ssz, &x));
  else
    memcpy(&x, cpu->ymm[in->rm].b, ssz);
  u64 y = cpu__sf_to_int(x, fmt_of(ssz), cvt_mx(cpu, in, ssz, 0), trunc,
                         bits, sgn, &fl);
  CPU_TRY(cpu__ev_commit(cpu, in, fl, fl));
  cpu->gpr[in->reg] = y;
  return CPU_RC_NEXT;
}
EV_OP(vcvtss2si, cvt_to_gpr(cpu, in, 4, 0, 1))
EV_OP(vcvtsd2si, cvt_to_gpr(cpu, in, 8, 0, 1))
EV_OP(vcvttss2si, cvt_to_gpr(cpu, in, 4, 1, 1))
EV_OP(vcvttsd2si, cvt_to_gpr(cpu, in, 8, 1, 1))
EV_OP(vcvtss2usi, cvt_to_gpr(cpu, in, 4, 0, 0))
EV_OP(vcvtsd2usi, cvt_to_gpr(cpu, in, 8, 0, 0))
EV_OP(vcvttss2usi, cvt_to_gpr(cpu, in, 4, 1, 0))
EV_OP(vcvttsd2usi, cvt_to_gpr(cpu, in, 8, 1, 0))
EV_OP(vcvtsh2si, cvt_to_gpr(cpu, in, 2, 0, 1))
EV_OP(vcvttsh2si, cvt_to_gpr(cpu, in, 2, 1, 1))
EV_OP(vcvtsh2usi, cvt_to_gpr(cpu, in, 2, 0, 0))
EV_OP(vcvttsh2usi, cvt_to_gpr(cpu, in, 2, 1, 0))

/* ---- Compares into RFLAGS ---------------------------------------------- */

/* vcomiss/vcomisd/vucomiss/vucomisd V,W: ZF PF CF from the low elements
 * (ESZ bytes) of reg and rm (unordered 111, less 001, equal 100, greater
 * 000), OF SF AF cleared. A signalling NaN raises IE, and so does a quiet
 * one for the signalling compares (SIG); else a denormal raises DE unless
 * DAZ makes it a zero. */
static int comi(struct cpu *cpu, const struct cpu_insn *in, unsigned esz,
                int sig) {
  const struct sf_fmt *f = fmt_of(esz);
  u32 mx = cvt_mx(cpu, in, esz, 0), fl = 0;
  u64 x = 0, y = 0, fr;
  memcpy(&x, cpu->ymm[in->reg].b, esz);
  if (in->pfx & CPU_PFX_MEM)
    CPU_TRY(cpu_ld(cpu, cpu_ea(cpu, in), esz, &y));
  else
    memcpy(&y, cpu->ymm[in->rm].b, esz);
  int daz = (mx & CPU_MX_DAZ) != 0;
  struct sf_val a = cpu__sf_unpack(x, f, daz), b = cpu__sf_unpack(y, f, daz);
  unsigned rel = cpu__sf_compare(f, x, y, daz);
  if (rel == CPU_SF_UN) {
    if (a.snan || b.snan || sig) fl = CPU_MX_IE;
    fr = CPU_ZF | CPU_PF | CPU_CF;
  } else {
    if (a.den || b.den) fl = CPU_MX_DE;
    fr = rel == CPU_SF_EQ ? CPU_ZF : rel == CPU_SF_LT ? CPU_CF : 0;
  }
  CPU_TRY(cpu__ev_commit(cpu, in, fl, fl));
  cpu__flags_set(cpu, CPU_ARITH, fr);
  return CPU_RC_NEXT;
}
EV_OP(vcomiss, comi(cpu, in, 4, 1))
EV_OP(vcomisd, comi(cpu, in, 8, 1))
EV_OP(vucomiss, comi(cpu, in, 4, 0))
EV_OP(vucomisd, comi(cpu, in, 8, 0))
EV_OP(vcomish, comi(cpu, in, 2, 1))
EV_OP(vucomish, comi(cpu, in, 2, 0))

/* ---- Half precision ---------------------------------------------------- */

/* vcvtph2ps V,W: the halves of the low half of rm's length as singles.
 * Exact: only a signalling NaN raises a flag (IE). */
static int op_vcvtph2ps(struct cpu *cpu, const struct cpu_insn *in) {
  unsigned n = in->osz / 4;
  u64 m = kmask(cpu, in, n);
  u32 fl = 0;
  union zv s, r;
  struct cpu_insn li = *in;
  li.osz = (u8)(n * 2);
  CPU_TRY(cpu__ev_zsrc_m(cpu, &li, 2, m, &s));
  memset(r.b, 0, sizeof r.b);
  for (unsigned i = 0; i < n; i++) {
    u32 f1;
    if (!((m >> i) & 1)) continue;
    r.d[i] = cpu__sf_half_to_single(s.w[i], 0, &f1);
    fl |= f1;
  }
  CPU_TRY(cpu__ev_commit(cpu, in, fl, fl));
  zput(cpu, in, in->reg, &r, 4);
  return CPU_RC_NEXT;
}

/* vcvtps2ph W,V,I: reg's singles as halves into rm (half reg's length,
 * zero above it in a register; a store of the enabled halves to memory),
 * rounded as imm8[1:0] says or, with imm8 bit 2, as MXCSR.RC. On AMD a
 * store that faults leaves MXCSR alone: with an unmasked exception to
 * report, the enabled bytes are first stored back unchanged, so that the
 * store's fault comes first. Intel reports the exceptions first. */
static int op_vcvtps2ph(struct cpu *cpu, const struct cpu_insn *in) {
  unsigned n = in->osz / 4;
  u64 m = kmask(cpu, in, n);
  u32 mx = cpu__ev_mx(cpu, in), fl = 0, ex = 0;
  unsigned rc = (in->imm & 4) ? (mx & CPU_MX_RC) >> 13 : in->imm & 3;
  union zv s, r;
  struct cpu_insn li = *in;
  if (cpu->cfg.vendor == CPU_VENDOR_INTEL) mx |= CPU_SF_DEN_SRC_INEXACT;
  zget(cpu, in->reg, &s);
  memset(r.b, 0, sizeof r.b);
  for (unsigned i = 0; i < n; i++) {
    u32 f1, e1;
    if (!((m >> i) & 1)) continue;
    r.w[i] = cpu__sf_single_to_half(s.d[i], mx, rc, &f1, &e1);
    fl |= f1;
    ex |= e1;
  }
  if (!(in->pfx & CPU_PFX_MEM)) {
    CPU_TRY(cpu__ev_commit(cpu, in, ex, fl));
    li.osz = (u8)(n * 2);
    zput(cpu, &li, in->rm, &r, 2);
    return CPU_RC_NEXT;
  }
  u64 a = cpu_ea(cpu, in);
  u32 trap = EV_SAE(in) ? 0 : ex & ~(cpu->mxcsr >> 7) & CPU_MX_FLAGS;
  if (cpu->cfg.vendor == CPU_VENDOR_INTEL) {
    /* Intel: exceptions before the store, whose fault keeps the flags */
    CPU_TRY(cpu__ev_commit(cpu, in, ex, fl));
    return cpu__ev_st_masked(cpu, a, &r, 2, n, m, EV_AAA(in) != 0);
  }
  if (trap) {
    union zv old;
    CPU_TRY(cpu__ev_ld_masked(cpu, a, &old, 2, n, m));
    CPU_TRY(cpu__ev_st_masked(cpu, a, &old, 2, n, m, EV_AAA(in) != 0));
    return cpu__ev_commit(cpu, in, ex, fl) ? CPU_FAULT : CPU_RC_NEXT;
  }
  CPU_TRY(cpu__ev_st_masked(cpu, a, &r, 2, n, m, EV_AAA(in) != 0));
  CPU_TRY(cpu__ev_commit(cpu, in, ex, fl));
  return CPU_RC_NEXT;
}

/* ---- The rows ----------------------------------------------------------- */

#define FPB (R_FP | R_BC)
const struct ev_row cpu__evex_cvt_rows[] = {
    /* packed, unsigned */
    E(0F, F2, 7A, W0, X, VW, 4, FV, FPB | R_ER, vcvtudq2ps, op_vcvtudq2ps)
    E(0F, F3, 7A, W0, X, VW, 8, HV, FPB | R_B4 | R_SAE, vcvtudq2pd,
      op_vcvtudq2pd)
    E(0F, F2, 7A, W1, X, VW, 8, FV, FPB | R_ER, vcvtuqq2ps, op_vcvtuqq2ps)
    E(0F, F3, 7A, W1, X, VW, 8, FV, FPB | R_ER, vcvtuqq2pd, op_vcvtuqq2pd)
    E(0F, NONE, 79, W0, X, VW, 4, FV, FPB | R_ER, vcvtps2udq, op_vcvtps2udq)
    E(0F, NONE, 78, W0, X, VW, 4, FV, FPB | R_SAE, vcvttps2udq,
      op_vcvttps2udq)
    E(0F, NONE, 79, W1, X, VW, 8, FV, FPB | R_ER, vcvtpd2udq, op_vcvtpd2udq)
    E(0F, NONE, 78, W1, X, VW, 8, FV, FPB | R_SAE, vcvttpd2udq,
      op_vcvttpd2udq)
    E(0F, 66, 79, W0, X, VW, 8, HV, FPB | R_B4 | R_ER, vcvtps2uqq,
      op_vcvtps2uqq)
    E(0F, 66, 78, W0, X, VW, 8, HV, FPB | R_B4 | R_SAE, vcvttps2uqq,
      op_vcvttps2uqq)
    E(0F, 66, 79, W1, X, VW, 8, FV, FPB | R_ER, vcvtpd2uqq, op_vcvtpd2uqq)
    E(0F, 66, 78, W1, X, VW, 8, FV, FPB | R_SAE, vcvttpd2uqq,
      op_vcvttpd2uqq)
    /* scalar, from a general register (the element size is rm's); a
     * dword to a double is exact, but EVEX.b is accepted there too */
    E(0F, F3, 2A, W0, X, VHE, 4, T1S, R_FP | R_NOMASK | R_ER, vcvtsi2ss,
      op_vcvtsi2ss)
    E(0F, F3, 2A, W1, X, VHE, 8, T1S, R_FP | R_NOMASK | R_ER, vcvtsi2ss,
      op_vcvtsi2ss)
    E(0F, F2, 2A, W0, X, VHE, 4, T1S, R_FP | R_NOMASK | R_ER, vcvtsi2sd,
      op_vcvtsi2sd)
    E(0F, F2, 2A, W1, X, VHE, 8, T1S, R_FP | R_NOMASK | R_ER, vcvtsi2sd,
      op_vcvtsi2sd)
    E(0F, F3, 7B, W0, X, VHE, 4, T1S, R_FP | R_NOMASK | R_ER, vcvtusi2ss,
      op_vcvtusi2ss)
    E(0F, F3, 7B, W1, X, VHE, 8, T1S, R_FP | R_NOMASK | R_ER, vcvtusi2ss,
      op_vcvtusi2ss)
    E(0F, F2, 7B, W0, X, VHE, 4, T1S, R_FP | R_NOMASK | R_ER, vcvtusi2sd,
      op_vcvtusi2sd)
    E(0F, F2, 7B, W1, X, VHE, 8, T1S, R_FP | R_NOMASK | R_ER, vcvtusi2sd,
      op_vcvtusi2sd)
    /* scalar, to a general register */
    E(0F, F3, 2D, WIG, X, GW, 4, T1S, R_FP | R_NOMASK | R_ER, vcvtss2si,
      op_vcvtss2si)
    E(0F, F2, 2D, WIG, X, GW, 8, T1S, R_FP | R_NOMASK | R_ER, vcvtsd2si,
      op_vcvtsd2si)
    E(0F, F3, 2C, WIG, X, GW, 4, T1S, R_FP | R_NOMASK | R_SAE, vcvttss2si,
      op_vcvttss2si)
    E(0F, F2, 2C, WIG, X, GW, 8, T1S, R_FP | R_NOMASK | R_SAE, vcvttsd2si,
      op_vcvttsd2si)
    E(0F, F3, 79, WIG, X, GW, 4, T1S, R_FP | R_NOMASK | R_ER, vcvtss2usi,
      op_vcvtss2usi)
    E(0F, F2, 79, WIG, X, GW, 8, T1S, R_FP | R_NOMASK | R_ER, vcvtsd2usi,
      op_vcvtsd2usi)
    E(0F, F3, 78, WIG, X, GW, 4, T1S, R_FP | R_NOMASK | R_SAE, vcvttss2usi,
      op_vcvttss2usi)
    E(0F, F2, 78, WIG, X, GW, 8, T1S, R_FP | R_NOMASK | R_SAE, vcvttsd2usi,
      op_vcvttsd2usi)
    /* compares into RFLAGS */
    E(0F, NONE, 2F, W0, X, VW, 4, T1S, R_FP | R_NOMASK | R_SAE, vcomiss,
      op_vcomiss)
    E(0F, 66, 2F, W1, X, VW, 8, T1S, R_FP | R_NOMASK | R_SAE, vcomisd,
      op_vcomisd)
    E(0F, NONE, 2E, W0, X, VW, 4, T1S, R_FP | R_NOMASK | R_SAE, vucomiss,
      op_vucomiss)
    E(0F, 66, 2E, W1, X, VW, 8, T1S, R_FP | R_NOMASK | R_SAE, vucomisd,
      op_vucomisd)
    /* half precision */
    E(0F38, 66, 13, W0, X, VW, 4, HVM, R_FP | R_SAE, vcvtph2ps,
      op_vcvtph2ps)
    E(0F3A, 66, 1D, W0, X, WVI, 2, HVM, R_FP | R_SAE, vcvtps2ph,
      op_vcvtps2ph)
    /* AVX512-FP16: between halves and the other formats */
#define FPH (R_FP | R_F16 | R_BC)
    E(6, 66, 13, W0, X, VW, 4, HV, FPH | R_B2 | R_SAE, vcvtph2psx,
      op_vcvtph2psx)
    E(5, 66, 1D, W0, X, VW, 4, FV, FPB | R_ER, vcvtps2phx, op_vcvtps2phx)
    E(5, NONE, 5A, W0, X, VW, 8, QV, FPH | R_B2 | R_SAE, vcvtph2pd,
      op_vcvtph2pd)
    E(5, 66, 5A, W1, X, VW, 8, FV, FPB | R_ER, vcvtpd2ph, op_vcvtpd2ph)
    E(6, NONE, 13, W0, X, VHW, 2, T1S, R_FP | R_F16 | R_SAE, vcvtsh2ss,
      op_vcvtsh2ss)
    E(5, NONE, 1D, W0, X, VHW, 4, T1S, R_FP | R_ER, vcvtss2sh, op_vcvtss2sh)
    E(5, F3, 5A, W0, X, VHW, 2, T1S, R_FP | R_F16 | R_SAE, vcvtsh2sd,
      op_vcvtsh2sd)
    E(5, F2, 5A, W1, X, VHW, 8, T1S, R_FP | R_ER, vcvtsd2sh, op_vcvtsd2sh)
    /* halves to integers */
    E(5, 66, 7D, W0, X, VW, 2, FV, FPH | R_ER, vcvtph2w, op_vcvtph2w)
    E(5, 66, 7C, W0, X, VW, 2, FV, FPH | R_SAE, vcvttph2w, op_vcvttph2w)
    E(5, NONE, 7D, W0, X, VW, 2, FV, FPH | R_ER, vcvtph2uw, op_vcvtph2uw)
    E(5, NONE, 7C, W0, X, VW, 2, FV, FPH | R_SAE, vcvttph2uw,
      op_vcvttph2uw)
    E(5, 66, 5B, W0, X, VW, 4, HV, FPH | R_B2 | R_ER, vcvtph2dq,
      op_vcvtph2dq)
    E(5, F3, 5B, W0, X, VW, 4, HV, FPH | R_B2 | R_SAE, vcvttph2dq,
      op_vcvttph2dq)
    E(5, NONE, 79, W0, X, VW, 4, HV, FPH | R_B2 | R_ER, vcvtph2udq,
      op_vcvtph2udq)
    E(5, NONE, 78, W0, X, VW, 4, HV, FPH | R_B2 | R_SAE, vcvttph2udq,
      op_vcvttph2udq)
    E(5, 66, 7B, W0, X, VW, 8, QV, FPH | R_B2 | R_ER, vcvtph2qq,
      op_vcvtph2qq)
    E(5, 66, 7A, W0, X, VW, 8, QV, FPH | R_B2 | R_SAE, vcvttph2qq,
      op_vcvttph2qq)
    E(5, 66, 79, W0, X, VW, 8, QV, FPH | R_B2 | R_ER, vcvtph2uqq,
      op_vcvtph2uqq)
    E(5, 66, 78, W0, X, VW, 8, QV, FPH | R_B2 | R_SAE, vcvttph2uqq,
      op_vcvttph2uqq)
    E(5, F3, 2D, WIG, X, GW, 2, T1S, R_FP | R_F16 | R_NOMASK | R_ER,
      vcvtsh2si, op_vcvtsh2si)
    E(5, F3, 2C, WIG, X, GW, 2, T1S, R_FP | R_F16 | R_NOMASK | R_SAE,
      vcvttsh2si, op_vcvttsh2si)
    E(5, F3, 79, WIG, X, GW, 2, T1S, R_FP | R_F16 | R_NOMASK | R_ER,
      vcvtsh2usi, op_vcvtsh2usi)
    E(5, F3, 78, WIG, X, GW, 2, T1S, R_FP | R_F16 | R_NOMASK | R_SAE,
      vcvttsh2usi, op_vcvttsh2usi)
    /* integers to halves */
    E(5, F3, 7D, W0, X, VW, 2, FV, FPB | R_ER, vcvtw2ph, op_vcvtw2ph)
    E(5, F2, 7D, W0, X, VW, 2, FV, FPB | R_ER, vcvtuw2ph, op_vcvtuw2ph)
    E(5, NONE, 5B, W0, X, VW, 4, FV, FPB | R_ER, vcvtdq2ph, op_vcvtdq2ph)
    E(5, F2, 7A, W0, X, VW, 4, FV, FPB | R_ER, vcvtudq2ph, op_vcvtudq2ph)
    E(5, NONE, 5B, W1, X, VW, 8, FV, FPB | R_ER, vcvtqq2ph, op_vcvtqq2ph)
    E(5, F2, 7A, W1, X, VW, 8, FV, FPB | R_ER, vcvtuqq2ph, op_vcvtuqq2ph)
    E(5, F3, 2A, W0, X, VHE, 4, T1S, R_FP | R_NOMASK | R_ER, vcvtsi2sh,
      op_vcvtsi2sh)
    E(5, F3, 2A, W1, X, VHE, 8, T1S, R_FP | R_NOMASK | R_ER, vcvtsi2sh,
      op_vcvtsi2sh)
    E(5, F3, 7B, W0, X, VHE, 4, T1S, R_FP | R_NOMASK | R_ER, vcvtusi2sh,
      op_vcvtusi2sh)
    E(5, F3, 7B, W1, X, VHE, 8, T1S, R_FP | R_NOMASK | R_ER, vcvtusi2sh,
      op_vcvtusi2sh)
    /* compares into RFLAGS */
    E(5, NONE, 2F, W0, X, VW, 2, T1S, R_FP | R_F16 | R_NOMASK | R_SAE,
      vcomish, op_vcomish)
    E(5, NONE, 2E, W0, X, VW, 2, T1S, R_FP | R_F16 | R_NOMASK | R_SAE,
      vucomish, op_vucomish)
#undef FPH
};
#undef FPB
#undef E
#undef X

const size_t cpu__evex_cvt_nrows =
    sizeof cpu__evex_cvt_rows / sizeof cpu__evex_cvt_rows[0];
