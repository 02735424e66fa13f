/* SPDX-License-Identifier: MIT */
/* EVEX floating point (AVX-512F, DQ, VL): add, sub, mul, div, min, max,
 * sqrt in their ps/pd/ss/sd forms, the compares into opmasks with the 32
 * predicates, the fused multiply-adds, the conversions between floats,
 * doubles, dwords and (AVX512DQ) qwords, the bitwise and/andn/or/xor
 * ps/pd and the scalar moves vmovss/vmovsd (and AVX512-FP16's vmovsh),
 * with their rows (the decoder is evex.c's).
 *
 * The arithmetic runs on the SSE engine of sse_fpu.c one 128-bit chunk at
 * a time, with the exceptions of all chunks decided together (xm_defer),
 * as for VEX. Two things are EVEX's own:
 *  - an element the opmask leaves out raises no exception: it computes
 *    1.0 op 1.0 instead, which raises none in any of these operations, and
 *    its result is thrown away by the masking;
 *  - EVEX.b on a register form suppresses all exceptions (no flag is set,
 *    nothing faults) and, for the rows with embedded rounding, rounds as
 *    L'L says instead of MXCSR.RC; DAZ and FTZ still apply. */
#include "replayer/cpu/evex.h"

/* 1.0 as an element of ESZ bytes. */
static u64 fp_one(unsigned esz) {
  return esz == 4 ? 0x3f800000u : 0x3ff0000000000000ull;
}

/* Sets the elements of V (ESZ bytes, N of them) whose bit in M is clear
 * to 1.0. */
static void ones_out(union zv *v, unsigned esz, unsigned n, u64 m) {
  u64 one = fp_one(esz);
  if (m == ones(n)) return;
  for (unsigned i = 0; i < n; i++)
    if (!((m >> i) & 1)) memcpy(v->b + i * esz, &one, esz);
}

/* The MXCSR an instruction computes under, saved so that fp_end can put
 * it back. */
struct fpx {
  u32 mx;
};

static void fp_begin(struct cpu *cpu, const struct cpu_insn *in,
                     struct fpx *x) {
  x->mx = cpu->mxcsr;
  cpu->mxcsr = cpu__ev_mx(cpu, in);
  cpu->xm_defer = 1;
  cpu->xm_ex = cpu->xm_fl = 0;
}

/* Ends what fp_begin began: the flags of every chunk, or none with SAE;
 * CPU_FAULT for an unmasked exception. */
static int fp_end(struct cpu *cpu, const struct cpu_insn *in,
                  const struct fpx *x) {
  cpu->xm_defer = 0;
  if (EV_SAE(in)) {
    cpu->mxcsr = x->mx;
    return 0;
  }
  return cpu__sse_commit(cpu, cpu->xm_ex, cpu->xm_fl) ? CPU_FAULT : 0;
}

/* ---- Packed and scalar arithmetic ---------------------------------------- */

/* reg = HOP(vvvv, rm) per element of ESZ bytes; a unary HOP (sqrt) reads
 * only rm. */
static int fp_packed(struct cpu *cpu, const struct cpu_insn *in, int hop,
                     unsigned esz) {
  union zv a, b, r;
  unsigned n = in->osz / esz;
  u64 m = kmask(cpu, in, n);
  struct fpx x;
  CPU_TRY(zsrc(cpu, in, esz, &b));
  zget(cpu, in->reg2, &a);
  ones_out(&a, esz, n, m);
  ones_out(&b, esz, n, m);
  fp_begin(cpu, in, &x);
  for (unsigned c = 0; c < in->osz; c += 16) {
    union cpu_vec va, vb;
    memcpy(va.b, a.b + c, 16);
    memcpy(vb.b, b.b + c, 16);
    if (cpu__sse_fp(cpu, hop, &va, &vb)) break; /* deferred: never */
    memcpy(r.b + c, va.b, 16);
  }
  CPU_TRY(fp_end(cpu, in, &x));
  zput(cpu, in, in->reg, &r, esz);
  return CPU_RC_NEXT;
}

int cpu__ev_scalar_src(struct cpu *cpu, const struct cpu_insn *in,
                       unsigned esz, u64 m, union cpu_vec *b) {
  u64 v = 0;
  memset(b, 0, sizeof *b);
  if (!(in->pfx & CPU_PFX_MEM))
    memcpy(&v, cpu->ymm[in->rm].b, esz);
  else if (m & 1)
    CPU_TRY(cpu_ld(cpu, cpu_ea(cpu, in), esz, &v));
  memcpy(b->b, &v, esz);
  return 0;
}

void cpu__ev_scalar_put(struct cpu *cpu, const struct cpu_insn *in,
                        const union cpu_vec *r, unsigned esz, u64 m) {
  union zv out;
  zget(cpu, in->reg, &out);
  if (m & 1)
    memcpy(out.b, r->b, esz);
  else if (EV_Z(in))
    memset(out.b, 0, esz);
  memcpy(out.b + esz, r->b + esz, 16 - esz);
  memset(out.b + 16, 0, 48);
  zset(cpu, in->reg, &out);
}

/* reg = vvvv with its low element HOP(vvvv, rm) (a scalar HOP), rm's
 * element of ESZ bytes, the result's of RSZ (they differ for vcvtss2sd
 * and vcvtsd2ss). */
static int fp_scalar2(struct cpu *cpu, const struct cpu_insn *in, int hop,
                      unsigned esz, unsigned rsz) {
  union cpu_vec a, b;
  u64 m = kmask(cpu, in, 1), one = fp_one(esz);
  struct fpx x;
  CPU_TRY(cpu__ev_scalar_src(cpu, in, esz, m, &b));
  memcpy(a.b, cpu->ymm[in->reg2].b, 16);
  union cpu_vec a0 = a;
  if (!(m & 1)) {
    memcpy(a.b, &one, esz);
    memcpy(b.b, &one, esz);
  }
  fp_begin(cpu, in, &x);
  int rc = cpu__sse_fp(cpu, hop, &a, &b);
  (void)rc; /* deferred: never faults */
  CPU_TRY(fp_end(cpu, in, &x));
  memcpy(a.b + rsz, a0.b + rsz, 16 - rsz);
  cpu__ev_scalar_put(cpu, in, &a, rsz, m);
  return CPU_RC_NEXT;
}

static int fp_scalar(struct cpu *cpu, const struct cpu_insn *in, int hop,
                     unsigned esz) {
  return fp_scalar2(cpu, in, hop, esz, esz);
}

#define EV_FP(name)                                                     \
  EV_OP(v##name##ps, fp_packed(cpu, in, CPU__HOP_##name##ps, 4))        \
  EV_OP(v##name##pd, fp_packed(cpu, in, CPU__HOP_##name##pd, 8))        \
  EV_OP(v##name##ss, fp_scalar(cpu, in, CPU__HOP_##name##ss, 4))        \
  EV_OP(v##name##sd, fp_scalar(cpu, in, CPU__HOP_##name##sd, 8))
EV_FP(add)
EV_FP(sub)
EV_FP(mul)
EV_FP(div)
EV_FP(min)
EV_FP(max)
EV_FP(sqrt)
#undef EV_FP

/* ---- Conversions --------------------------------------------------------- */

/* The conversions between element sizes, and those of 64-bit integers
 * (AVX512DQ): element by element through the host operation HOP, which
 * converts the low element of its source (cvtps2pd, cvtpd2ps, cvtsi2sd
 * with a 64-bit source, cvtsd2si with a 64-bit result...). SSZ and DSZ
 * are the source and result element sizes, the elements being the larger
 * of the two, so a narrowing one writes half the vector (zero above) and
 * a widening one reads half of its source. The elements the opmask
 * leaves out are not converted. */
static int fp_cvt(struct cpu *cpu, const struct cpu_insn *in, int hop,
                  unsigned ssz, unsigned dsz) {
  unsigned n = in->osz / (ssz > dsz ? ssz : dsz);
  u64 m = kmask(cpu, in, n);
  union zv s, r;
  struct cpu_insn li = *in;
  struct fpx x;
  li.osz = (u8)(n * ssz);
  CPU_TRY(cpu__ev_zsrc_m(cpu, &li, ssz, m, &s));
  memset(r.b, 0, sizeof r.b);
  fp_begin(cpu, in, &x);
  for (unsigned i = 0; i < n; i++) {
    union cpu_vec va, vb;
    if (!((m >> i) & 1)) continue;
    memset(&va, 0, sizeof va);
    memset(&vb, 0, sizeof vb);
    memcpy(vb.b, s.b + i * ssz, ssz);
    if (cpu__sse_fp(cpu, hop, &va, &vb)) break; /* deferred: never */
    memcpy(r.b + i * dsz, va.b, dsz);
  }
  CPU_TRY(fp_end(cpu, in, &x));
  li.osz = (u8)(n * dsz);
  zput(cpu, &li, in->reg, &r, dsz);
  return CPU_RC_NEXT;
}
EV_OP(vcvtqq2pd, fp_cvt(cpu, in, CPU__HOP_cvtsi2sd64, 8, 8))
EV_OP(vcvtqq2ps, fp_cvt(cpu, in, CPU__HOP_cvtsi2ss64, 8, 4))
EV_OP(vcvtpd2qq, fp_cvt(cpu, in, CPU__HOP_cvtsd2si64, 8, 8))
EV_OP(vcvttpd2qq, fp_cvt(cpu, in, CPU__HOP_cvttsd2si64, 8, 8))
EV_OP(vcvtps2qq, fp_cvt(cpu, in, CPU__HOP_cvtss2si64, 4, 8))
EV_OP(vcvttps2qq, fp_cvt(cpu, in, CPU__HOP_cvttss2si64, 4, 8))
EV_OP(vcvtps2pd, fp_cvt(cpu, in, CPU__HOP_cvtps2pd, 4, 8))
EV_OP(vcvtdq2pd, fp_cvt(cpu, in, CPU__HOP_cvtdq2pd, 4, 8))
EV_OP(vcvtpd2ps, fp_cvt(cpu, in, CPU__HOP_cvtpd2ps, 8, 4))
EV_OP(vcvtpd2dq, fp_cvt(cpu, in, CPU__HOP_cvtpd2dq, 8, 4))
EV_OP(vcvttpd2dq, fp_cvt(cpu, in, CPU__HOP_cvttpd2dq, 8, 4))
EV_OP(vcvtss2sd, fp_scalar2(cpu, in, CPU__HOP_cvtss2sd, 4, 8))
EV_OP(vcvtsd2ss, fp_scalar2(cpu, in, CPU__HOP_cvtsd2ss, 8, 4))
/* Same width: one element for one, through the packed engine. */
EV_OP(vcvtdq2ps, fp_packed(cpu, in, CPU__HOP_cvtdq2ps, 4))
EV_OP(vcvtps2dq, fp_packed(cpu, in, CPU__HOP_cvtps2dq, 4))
EV_OP(vcvttps2dq, fp_packed(cpu, in, CPU__HOP_cvttps2dq, 4))

/* ---- Compares into opmasks ---------------------------------------------- */

/* k[reg] = the predicate imm8 & 31 of vvvv and rm per element (ESZ bytes;
 * SCALAR: the low one), under the opmask; the opmask's bits above the
 * elements become zero. */
static int fp_cmp(struct cpu *cpu, const struct cpu_insn *in, unsigned esz,
                  int scalar) {
  union zv a, b;
  unsigned n = scalar ? 1 : in->osz / esz, p = (unsigned)in->imm & 31;
  unsigned len = scalar ? 16 : in->osz, per = scalar ? 1 : 16 / esz;
  u64 m = kmask(cpu, in, n), bits = 0;
  int hopeq = scalar ? (esz == 4 ? CPU__HOP_cmpeqss : CPU__HOP_cmpeqsd)
                     : (esz == 4 ? CPU__HOP_cmpeqps : CPU__HOP_cmpeqpd);
  struct fpx x;
  if (scalar) {
    union cpu_vec t;
    CPU_TRY(cpu__ev_scalar_src(cpu, in, esz, m, &t));
    memcpy(b.b, t.b, 16);
  } else {
    CPU_TRY(zsrc(cpu, in, esz, &b));
  }
  zget(cpu, in->reg2, &a);
  ones_out(&a, esz, n, m);
  ones_out(&b, esz, n, m);
  fp_begin(cpu, in, &x);
  for (unsigned c = 0; c < len; c += 16) {
    union cpu_vec va, vb;
    memcpy(va.b, a.b + c, 16);
    memcpy(vb.b, b.b + c, 16);
    if (cpu__fcmp32(cpu, p, hopeq, &va, &vb)) break; /* deferred: never */
    for (unsigned i = 0; i < per; i++)
      if (va.b[i * esz]) bits |= 1ull << (c / esz + i);
  }
  CPU_TRY(fp_end(cpu, in, &x));
  cpu->k[in->reg & 7] = bits & m;
  return CPU_RC_NEXT;
}
EV_OP(vcmpps, fp_cmp(cpu, in, 4, 0))
EV_OP(vcmppd, fp_cmp(cpu, in, 8, 0))
EV_OP(vcmpss, fp_cmp(cpu, in, 4, 1))
EV_OP(vcmpsd, fp_cmp(cpu, in, 8, 1))

/* ---- Fused multiply-add -------------------------------------------------- */

/* The enabled elements (M) of the N in R, computed in integers by fma.c
 * from S1 (dest), S2 (vvvv) and S3 (rm); their flags in *FL and *EX. */
static void soft_fma(union zv *r, const union zv *s1, const union zv *s2,
                     const union zv *s3, unsigned order, int kind, int dbl,
                     unsigned n, u64 m, u32 mx, u32 *fl, u32 *ex) {
  unsigned esz = dbl ? 8 : 4;
  for (unsigned i = 0; i < n; i++) {
    u64 ops[3] = {0, 0, 0};
    u32 f1, e1;
    if (!((m >> i) & 1)) continue;
    memcpy(&ops[0], s1->b + i * esz, esz);
    memcpy(&ops[1], s2->b + i * esz, esz);
    memcpy(&ops[2], s3->b + i * esz, esz);
    u64 v = cpu__fma_elem(dbl, ops, order, kind, i, mx, &f1, &e1);
    memcpy(r->b + i * esz, &v, esz);
    *fl |= f1;
    *ex |= e1;
  }
}

/* The same on the host's FMA unit, allowed when MX masks every exception
 * (an unmasked one needs fma.c's exact rules): 32 bytes at a time, the
 * elements M leaves out given zero operands, whose 0 * 0 + 0 is exact and
 * raises nothing, so the flags in *FL are the enabled elements' alone. A
 * chunk starts at an even element, as vfmaddsub's alternation needs. A
 * whole unmasked 512-bit one goes to the host's AVX-512 in one piece. */
static void host_fma(union zv *r, const union zv *s1, const union zv *s2,
                     const union zv *s3, unsigned order, int kind, int dbl,
                     int scalar, unsigned n, u64 m, u32 mx, u32 *fl) {
  unsigned esz = dbl ? 8 : 4;
  const union zv *src[3] = {s1, s2, s3};
  const union zv *sa = src[order / 100 - 1], *sb = src[order / 10 % 10 - 1],
                 *sc = src[order % 10 - 1];
  if (n * esz == 64 && m == ones(n) && cpu__host_avx512f) {
    u8 a[64], b[64], c[64];
    memcpy(a, sa->b, 64);
    memcpy(b, sb->b, 64);
    memcpy(c, sc->b, 64);
    *fl |= cpu__host_fma512(kind, dbl, b, a, c, mx);
    memcpy(r->b, b, 64);
    return;
  }
  for (unsigned at = 0; at < n * esz; at += 32) {
    u8 a[32], b[32], c[32];
    unsigned k0 = at / esz, kn = n - k0 < 32 / esz ? n - k0 : 32 / esz;
    u64 cm = (m >> k0) & ones(kn);
    if (cm == ones(kn) && kn * esz == 32) { /* the common case: all of it */
      memcpy(a, sa->b + at, 32);
      memcpy(b, sb->b + at, 32);
      memcpy(c, sc->b + at, 32);
      *fl |= cpu__host_fma(kind, dbl, scalar, b, a, c, mx);
      memcpy(r->b + at, b, 32);
      continue;
    }
    memset(a, 0, 32);
    memset(b, 0, 32);
    memset(c, 0, 32);
    for (unsigned k = 0; k < kn; k++) {
      if (!((cm >> k) & 1)) continue;
      memcpy(a + k * esz, sa->b + at + k * esz, esz);
      memcpy(b + k * esz, sb->b + at + k * esz, esz);
      memcpy(c + k * esz, sc->b + at + k * esz, esz);
    }
    *fl |= cpu__host_fma(kind, dbl, scalar, b, a, c, mx);
    for (unsigned k = 0; k < kn; k++)
      if ((cm >> k) & 1) memcpy(r->b + at + k * esz, b + k * esz, esz);
  }
}

/* The FMA3 forms under EVEX: ORDER 132/213/231 and KIND as fma.c's, ps/pd
 * by EVEX.W; on the host's FMA unit when it has one and every exception
 * is masked, else element by element in integers by fma.c; the elements
 * the opmask leaves out neither computed nor raising anything.
 * SCALAR: the low element, bits 127:ESZ*8 of the destination kept. */
static int fp_fma(struct cpu *cpu, const struct cpu_insn *in, unsigned order,
                  int kind, int scalar) {
  int dbl = (in->pfx & CPU_PFX_REXW) != 0;
  unsigned esz = dbl ? 8 : 4, n = scalar ? 1 : in->osz / esz;
  u64 m = kmask(cpu, in, n);
  union zv s1, s2, s3, r;
  u32 mx = cpu__ev_mx(cpu, in), fl = 0, ex = 0;
  if (scalar) {
    union cpu_vec t;
    CPU_TRY(cpu__ev_scalar_src(cpu, in, esz, m, &t));
    memcpy(s3.b, t.b, 16);
  } else {
    CPU_TRY(zsrc(cpu, in, esz, &s3));
  }
  zget(cpu, in->reg, &s1);
  zget(cpu, in->reg2, &s2);
  r = s1;
  if (cpu__host_fma3 && (mx & CPU_MX_MASKS) == CPU_MX_MASKS) {
    host_fma(&r, &s1, &s2, &s3, order, kind, dbl, scalar, n, m, mx, &fl);
    ex = fl;
  } else {
    soft_fma(&r, &s1, &s2, &s3, order, kind, dbl, n, m, mx, &fl, &ex);
  }
  if (cpu__ev_commit(cpu, in, ex, fl)) return CPU_FAULT;
  if (scalar) {
    union cpu_vec t;
    memcpy(t.b, r.b, 16);
    cpu__ev_scalar_put(cpu, in, &t, esz, m);
  } else {
    zput(cpu, in, in->reg, &r, esz);
  }
  return CPU_RC_NEXT;
}

CPU_FMA_HANDLERS(fp_fma)

/* ---- Bitwise logic and scalar moves -------------------------------------- */

/* dst = OP(vvvv, rm) per element of ESZ bytes: 0 and, 1 andn, 2 or, 3 xor. */
static int fp_logic(struct cpu *cpu, const struct cpu_insn *in, unsigned esz,
                    int op) {
  union zv a, b, r;
  CPU_TRY(zsrc(cpu, in, esz, &b));
  zget(cpu, in->reg2, &a);
  for (unsigned i = 0; i < in->osz / 8; i++) {
    u64 x = a.q[i], y = b.q[i];
    r.q[i] = op == 0 ? x & y : op == 1 ? ~x & y : op == 2 ? x | y : x ^ y;
  }
  zput(cpu, in, in->reg, &r, esz);
  return CPU_RC_NEXT;
}
#define EV_LOGIC(name, op)                                              \
  EV_OP(v##name##ps, fp_logic(cpu, in, 4, op))                          \
  EV_OP(v##name##pd, fp_logic(cpu, in, 8, op))
EV_LOGIC(and, 0)
EV_LOGIC(andn, 1)
EV_LOGIC(or, 2)
EV_LOGIC(xor, 3)
#undef EV_LOGIC

/* vmovss/vmovsd xmm1{k}{z}, m: the element, zero above it; from registers
 * (V,H,W): the low element of rm, the rest of vvvv; memory forms do not
 * use vvvv. */
static int movs_load(struct cpu *cpu, const struct cpu_insn *in,
                     unsigned esz) {
  union cpu_vec r;
  u64 m = kmask(cpu, in, 1);
  if (in->pfx & CPU_PFX_MEM) {
    if (in->reg2) return cpu__fault(cpu, CPU_FAULT_UD);
    CPU_TRY(cpu__ev_scalar_src(cpu, in, esz, m, &r));
  } else {
    memcpy(r.b, cpu->ymm[in->reg2].b, 16);
    memcpy(r.b, cpu->ymm[in->rm].b, esz);
  }
  cpu__ev_scalar_put(cpu, in, &r, esz, m);
  return CPU_RC_NEXT;
}

/* vmovss/vmovsd m{k}, xmm1: the low element when enabled; from registers
 * (W,H,V): rm gets the low element of reg and the rest of vvvv. */
static int movs_store(struct cpu *cpu, const struct cpu_insn *in,
                      unsigned esz) {
  u64 m = kmask(cpu, in, 1), v = 0;
  if (in->pfx & CPU_PFX_MEM) {
    if (in->reg2 || EV_Z(in)) return cpu__fault(cpu, CPU_FAULT_UD);
    memcpy(&v, cpu->ymm[in->reg].b, esz);
    if (m & 1) CPU_TRY(cpu_st(cpu, cpu_ea(cpu, in), esz, v));
    return CPU_RC_NEXT;
  }
  union cpu_vec r;
  struct cpu_insn li = *in;
  memcpy(r.b, cpu->ymm[in->reg2].b, 16);
  memcpy(r.b, cpu->ymm[in->reg].b, esz);
  li.reg = in->rm;
  cpu__ev_scalar_put(cpu, &li, &r, esz, m);
  return CPU_RC_NEXT;
}
EV_OP(vmovss_load, movs_load(cpu, in, 4))
EV_OP(vmovsd_load, movs_load(cpu, in, 8))
EV_OP(vmovsh_load, movs_load(cpu, in, 2))
EV_OP(vmovss_store, movs_store(cpu, in, 4))
EV_OP(vmovsd_store, movs_store(cpu, in, 8))
EV_OP(vmovsh_store, movs_store(cpu, in, 2))

/* ---- The rows ------------------------------------------------------------ */

const struct ev_row cpu__evex_fp_rows[] = {
#define FPROWS(op, name, fl, sfl)                                          \
  E(0F, NONE, op, W0, X, VHW, 4, FV, R_BC | fl, v##name##ps, op_v##name##ps) \
  E(0F, 66, op, W1, X, VHW, 8, FV, R_BC | fl, v##name##pd, op_v##name##pd)   \
  E(0F, F3, op, W0, X, VHW, 4, T1S, sfl, v##name##ss,              \
    op_v##name##ss)                                                        \
  E(0F, F2, op, W1, X, VHW, 8, T1S, sfl, v##name##sd,              \
    op_v##name##sd)
    FPROWS(58, add, R_ER, R_ER)
    FPROWS(5C, sub, R_ER, R_ER)
    FPROWS(59, mul, R_ER, R_ER)
    FPROWS(5E, div, R_ER, R_ER)
    FPROWS(5D, min, R_SAE, R_SAE)
    FPROWS(5F, max, R_SAE, R_SAE)
#undef FPROWS
    E(0F, NONE, 51, W0, X, VW, 4, FV, R_BC | R_ER, vsqrtps, op_vsqrtps)
    E(0F, 66, 51, W1, X, VW, 8, FV, R_BC | R_ER, vsqrtpd, op_vsqrtpd)
    E(0F, F3, 51, W0, X, VHW, 4, T1S, R_ER, vsqrtss, op_vsqrtss)
    E(0F, F2, 51, W1, X, VHW, 8, T1S, R_ER, vsqrtsd, op_vsqrtsd)
    E(0F, NONE, C2, W0, X, KHWI, 4, FV, R_BC | R_SAE | R_NOZ, vcmpps,
      op_vcmpps)
    E(0F, 66, C2, W1, X, KHWI, 8, FV, R_BC | R_SAE | R_NOZ, vcmppd,
      op_vcmppd)
    E(0F, F3, C2, W0, X, KHWI, 4, T1S, R_SAE | R_NOZ, vcmpss,
      op_vcmpss)
    E(0F, F2, C2, W1, X, KHWI, 8, T1S, R_SAE | R_NOZ, vcmpsd,
      op_vcmpsd)
#define FMAROW(op, name, sfx, s4, s8, tup, fl)                             \
  E(0F38, 66, op, W0, X, VHW, 4, tup, fl, name##s4, op_##name##sfx)        \
  E(0F38, 66, op, W1, X, VHW, 8, tup, fl, name##s8, op_##name##sfx)
    FMAROW(96, vfmaddsub132, p, ps, pd, FV, R_BC | R_ER)
    FMAROW(A6, vfmaddsub213, p, ps, pd, FV, R_BC | R_ER)
    FMAROW(B6, vfmaddsub231, p, ps, pd, FV, R_BC | R_ER)
    FMAROW(97, vfmsubadd132, p, ps, pd, FV, R_BC | R_ER)
    FMAROW(A7, vfmsubadd213, p, ps, pd, FV, R_BC | R_ER)
    FMAROW(B7, vfmsubadd231, p, ps, pd, FV, R_BC | R_ER)
    FMAROW(98, vfmadd132, p, ps, pd, FV, R_BC | R_ER)
    FMAROW(99, vfmadd132, s, ss, sd, T1S, R_ER)
    FMAROW(A8, vfmadd213, p, ps, pd, FV, R_BC | R_ER)
    FMAROW(A9, vfmadd213, s, ss, sd, T1S, R_ER)
    FMAROW(B8, vfmadd231, p, ps, pd, FV, R_BC | R_ER)
    FMAROW(B9, vfmadd231, s, ss, sd, T1S, R_ER)
    FMAROW(9A, vfmsub132, p, ps, pd, FV, R_BC | R_ER)
    FMAROW(9B, vfmsub132, s, ss, sd, T1S, R_ER)
    FMAROW(AA, vfmsub213, p, ps, pd, FV, R_BC | R_ER)
    FMAROW(AB, vfmsub213, s, ss, sd, T1S, R_ER)
    FMAROW(BA, vfmsub231, p, ps, pd, FV, R_BC | R_ER)
    FMAROW(BB, vfmsub231, s, ss, sd, T1S, R_ER)
    FMAROW(9C, vfnmadd132, p, ps, pd, FV, R_BC | R_ER)
    FMAROW(9D, vfnmadd132, s, ss, sd, T1S, R_ER)
    FMAROW(AC, vfnmadd213, p, ps, pd, FV, R_BC | R_ER)
    FMAROW(AD, vfnmadd213, s, ss, sd, T1S, R_ER)
    FMAROW(BC, vfnmadd231, p, ps, pd, FV, R_BC | R_ER)
    FMAROW(BD, vfnmadd231, s, ss, sd, T1S, R_ER)
    FMAROW(9E, vfnmsub132, p, ps, pd, FV, R_BC | R_ER)
    FMAROW(9F, vfnmsub132, s, ss, sd, T1S, R_ER)
    FMAROW(AE, vfnmsub213, p, ps, pd, FV, R_BC | R_ER)
    FMAROW(AF, vfnmsub213, s, ss, sd, T1S, R_ER)
    FMAROW(BE, vfnmsub231, p, ps, pd, FV, R_BC | R_ER)
    FMAROW(BF, vfnmsub231, s, ss, sd, T1S, R_ER)
#undef FMAROW
    E(0F, NONE, 5B, W0, X, VW, 4, FV, R_BC | R_ER, vcvtdq2ps, op_vcvtdq2ps)
    E(0F, 66, 5B, W0, X, VW, 4, FV, R_BC | R_ER, vcvtps2dq, op_vcvtps2dq)
    E(0F, F3, 5B, W0, X, VW, 4, FV, R_BC | R_SAE, vcvttps2dq,
      op_vcvttps2dq)
    E(0F, NONE, 5A, W0, X, VW, 8, HV, R_BC | R_B4 | R_SAE, vcvtps2pd,
      op_vcvtps2pd)
    E(0F, F3, E6, W0, X, VW, 8, HV, R_BC | R_B4 | R_SAE, vcvtdq2pd,
      op_vcvtdq2pd) /* exact, but EVEX.b is accepted as SAE */
    E(0F, 66, 5A, W1, X, VW, 8, FV, R_BC | R_ER, vcvtpd2ps, op_vcvtpd2ps)
    E(0F, F2, E6, W1, X, VW, 8, FV, R_BC | R_ER, vcvtpd2dq, op_vcvtpd2dq)
    E(0F, 66, E6, W1, X, VW, 8, FV, R_BC | R_SAE, vcvttpd2dq,
      op_vcvttpd2dq)
    E(0F, F3, E6, W1, X, VW, 8, FV, R_BC | R_ER, vcvtqq2pd, op_vcvtqq2pd)
    E(0F, NONE, 5B, W1, X, VW, 8, FV, R_BC | R_ER, vcvtqq2ps, op_vcvtqq2ps)
    E(0F, 66, 7B, W1, X, VW, 8, FV, R_BC | R_ER, vcvtpd2qq, op_vcvtpd2qq)
    E(0F, 66, 7A, W1, X, VW, 8, FV, R_BC | R_SAE, vcvttpd2qq,
      op_vcvttpd2qq)
    E(0F, 66, 7B, W0, X, VW, 8, HV, R_BC | R_B4 | R_ER, vcvtps2qq,
      op_vcvtps2qq)
    E(0F, 66, 7A, W0, X, VW, 8, HV, R_BC | R_B4 | R_SAE, vcvttps2qq,
      op_vcvttps2qq)
    E(0F, F3, 5A, W0, X, VHW, 4, T1S, R_SAE, vcvtss2sd, op_vcvtss2sd)
    E(0F, F2, 5A, W1, X, VHW, 8, T1S, R_ER, vcvtsd2ss, op_vcvtsd2ss)
    E(0F, NONE, 54, W0, X, VHW, 4, FV, R_BC, vandps, op_vandps)
    E(0F, 66, 54, W1, X, VHW, 8, FV, R_BC, vandpd, op_vandpd)
    E(0F, NONE, 55, W0, X, VHW, 4, FV, R_BC, vandnps, op_vandnps)
    E(0F, 66, 55, W1, X, VHW, 8, FV, R_BC, vandnpd, op_vandnpd)
    E(0F, NONE, 56, W0, X, VHW, 4, FV, R_BC, vorps, op_vorps)
    E(0F, 66, 56, W1, X, VHW, 8, FV, R_BC, vorpd, op_vorpd)
    E(0F, NONE, 57, W0, X, VHW, 4, FV, R_BC, vxorps, op_vxorps)
    E(0F, 66, 57, W1, X, VHW, 8, FV, R_BC, vxorpd, op_vxorpd)
    E(0F, F3, 10, W0, X, VHW, 4, T1S, 0, vmovss, op_vmovss_load)
    E(0F, F2, 10, W1, X, VHW, 8, T1S, 0, vmovsd, op_vmovsd_load)
    /* the store opcode's register form has a vvvv operand: V,H,W */
    E(0F, F3, 11, W0, X, VHW, 4, T1S, 0, vmovss, op_vmovss_store)
    E(0F, F2, 11, W1, X, VHW, 8, T1S, 0, vmovsd, op_vmovsd_store)
    /* AVX512-FP16 */
    E(5, F3, 10, W0, X, VHW, 2, T1S, R_F16, vmovsh, op_vmovsh_load)
    E(5, F3, 11, W0, X, VHW, 2, T1S, R_F16, vmovsh, op_vmovsh_store)
};
#undef E
#undef X

const size_t cpu__evex_fp_nrows =
    sizeof cpu__evex_fp_rows / sizeof cpu__evex_fp_rows[0];
