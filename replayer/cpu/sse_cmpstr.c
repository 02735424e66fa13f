/* SPDX-License-Identifier: MIT */
/* The SSE4.2 string compares pcmpestri, pcmpestrm, pcmpistri and pcmpistrm
 * with every imm8 mode: element format, aggregation (equal any, ranges,
 * equal each, equal ordered), polarity and output selection, and the flags
 * CF ZF SF OF (AF PF cleared). Exact C; the memory operand has no alignment
 * requirement. */
#include "replayer/cpu/sse_util.h"

/* Element I of V under format FMT (imm8[1:0]: ub, uw, sb, sw). */
static inline int elem(const union cpu_vec *v, unsigned fmt, unsigned i) {
  switch (fmt & 3) {
    case 0: return v->b[i];
    case 1: return v->w[i];
    case 2: return v->sb[i];
    default: return v->sw[i];
  }
}

/* Implicit length: the index of the first zero element, or UB. */
static unsigned ilen(const union cpu_vec *v, unsigned fmt, unsigned ub) {
  for (unsigned i = 0; i < ub; i++)
    if (elem(v, fmt, i) == 0) return i;
  return ub;
}

/* Explicit length from a general register: |value| (64-bit with REX.W,
 * else 32-bit), saturated to UB. */
static unsigned elen(u64 reg, int w, unsigned ub) {
  i64 v = w ? (i64)reg : (i64)(i32)(u32)reg;
  u64 m = v < 0 ? (u64)0 - (u64)v : (u64)v;
  return m > ub ? ub : (unsigned)m;
}

/* Computes IntRes2 for IMM over A (xmm1, length LA) and B (xmm2/mem,
 * length LB); UB is 16 or 8. */
static unsigned intres(const union cpu_vec *a, unsigned la,
                       const union cpu_vec *b, unsigned lb, unsigned imm,
                       unsigned ub) {
  unsigned agg = (imm >> 2) & 3, r1 = 0;
  for (unsigned j = 0; j < ub; j++) {
    unsigned bit = 0;
    switch (agg) {
      case 0: /* equal any: B[j] is one of A's valid elements */
        if (j < lb)
          for (unsigned i = 0; i < la && !bit; i++)
            bit = elem(a, imm, i) == elem(b, imm, j);
        break;
      case 1: /* ranges: A holds [lo, hi] pairs */
        if (j < lb)
          for (unsigned i = 0; i + 1 < la && !bit; i += 2)
            bit = elem(b, imm, j) >= elem(a, imm, i) &&
                  elem(b, imm, j) <= elem(a, imm, i + 1);
        break;
      case 2: /* equal each */
        if (j >= la && j >= lb)
          bit = 1;
        else if (j < la && j < lb)
          bit = elem(a, imm, j) == elem(b, imm, j);
        break;
      default: /* equal ordered: A occurs in B at j (cut at UB) */
        bit = 1;
        for (unsigned k = 0; k + j < ub && bit; k++) {
          if (k >= la) break;
          if (j + k >= lb)
            bit = 0;
          else
            bit = elem(a, imm, k) == elem(b, imm, j + k);
        }
        break;
    }
    r1 |= bit << j;
  }
  unsigned all = (1u << ub) - 1;
  switch ((imm >> 4) & 3) {
    case 1: return ~r1 & all;
    case 3: return (r1 ^ ((1u << lb) - 1)) & all;
    default: return r1;
  }
}

/* Runs one string compare; EXPLICIT selects eax/edx lengths, INDEX the
 * ecx output (else the xmm0 mask). */
static int cmpstr(struct cpu *cpu, const struct cpu_insn *in, int explicit,
                  int index) {
  union cpu_vec b;
  CPU_TRY(cpu__W16(cpu, in, 0, &b));
  const union cpu_vec *a = cpu__x(cpu, in->reg);
  unsigned imm = cpu__imm8(in), ub = (imm & 1) ? 8 : 16, la, lb;
  if (explicit) {
    int w = (in->pfx & CPU_PFX_REXW) != 0;
    la = elen(cpu->gpr[RW_REG_rax], w, ub);
    lb = elen(cpu->gpr[RW_REG_rdx], w, ub);
  } else {
    la = ilen(a, imm, ub);
    lb = ilen(&b, imm, ub);
  }
  unsigned r2 = intres(a, la, &b, lb, imm, ub);
  if (index) {
    unsigned ix = ub;
    if (r2) ix = (imm & 0x40) ? 31u - (unsigned)__builtin_clz(r2)
                              : (unsigned)__builtin_ctz(r2);
    cpu_reg_set(cpu, RW_REG_rcx, 4, ix);
  } else {
    union cpu_vec m = {0};
    if (!(imm & 0x40))
      m.w[0] = (u16)r2;
    else
      for (unsigned i = 0; i < ub; i++)
        if ((r2 >> i) & 1) memset(m.b + i * (16 / ub), 0xff, 16 / ub);
    cpu__xset(cpu, 0, &m);
  }
  u64 f = 0;
  if (r2) f |= CPU_CF;
  if (lb < ub) f |= CPU_ZF;
  if (la < ub) f |= CPU_SF;
  if (r2 & 1) f |= CPU_OF;
  cpu__flags_set(cpu, CPU_ARITH, f);
  return CPU_RC_NEXT;
}

static int op_pcmpestri_Vx_Wx_Ib(struct cpu *cpu, const struct cpu_insn *in) {
  return cmpstr(cpu, in, 1, 1);
}
static int op_pcmpestrm_Vx_Wx_Ib(struct cpu *cpu, const struct cpu_insn *in) {
  return cmpstr(cpu, in, 1, 0);
}
static int op_pcmpistri_Vx_Wx_Ib(struct cpu *cpu, const struct cpu_insn *in) {
  return cmpstr(cpu, in, 0, 1);
}
static int op_pcmpistrm_Vx_Wx_Ib(struct cpu *cpu, const struct cpu_insn *in) {
  return cmpstr(cpu, in, 0, 0);
}


/* ---- VEX forms (avx.c runs these handlers per 128-bit lane) ---------- */

CPU_VEX(vpcmpestri, op_pcmpestri_Vx_Wx_Ib, CPU_VX_NODST|CPU_VX_PASS)
CPU_VEX(vpcmpistri, op_pcmpistri_Vx_Wx_Ib, CPU_VX_NODST|CPU_VX_PASS)
CPU_VEX(vpcmpestrm, op_pcmpestrm_Vx_Wx_Ib, CPU_VX_NODST|CPU_VX_PASS|CPU_VX_XMM0Z)
CPU_VEX(vpcmpistrm, op_pcmpistrm_Vx_Wx_Ib, CPU_VX_NODST|CPU_VX_PASS|CPU_VX_XMM0Z)

static const struct cpu__oprow sse_cmpstr_rows[] = {
#define OP(id, form, fn) {id, CPU_FORM_##form, fn, #fn},
#include "replayer/cpu/sse_cmpstr.def"
#undef OP
};
CPU__FAMILY_TABLE(sse_cmpstr)
