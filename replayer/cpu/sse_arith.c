/* SPDX-License-Identifier: MIT */
/* SSE floating-point arithmetic: add, sub, mul, div, min, max, sqrt, rcp,
 * rsqrt in their ps/pd/ss/sd forms, the bitwise and/andn/or/xor ps/pd, and
 * the SSE3 horizontal and alternating add/sub. Results and exception flags
 * come from the engine in sse_fpu.c; compares, rounding and conversions are
 * in sse_fcmp.c and sse_cvt.c. */
#include "replayer/cpu/sse_util.h"

/* dest = dest OP src through host operation HOP; SZ is the memory operand
 * size (16 for packed forms, which need 16-byte alignment). */
static inline int fp2(struct cpu *cpu, const struct cpu_insn *in, int hop,
                      unsigned sz) {
  union cpu_vec a, b;
  CPU_TRY(cpu_W_read(cpu, in, sz, sz == 16, &b));
  a = *cpu__x(cpu, in->reg);
  CPU_TRY(cpu__sse_fp(cpu, hop, &a, &b));
  cpu__xset(cpu, in->reg, &a);
  return CPU_RC_NEXT;
}

#define FP2(mn, suffix, sz)                                              \
  static int op_##mn##_##suffix(struct cpu *cpu,                         \
                                const struct cpu_insn *in) {             \
    return fp2(cpu, in, CPU__HOP_##mn, sz);                              \
  }
#define FP2_ALL(op)       \
  FP2(op##ps, Vx_Wx, 16)  \
  FP2(op##pd, Vx_Wx, 16)  \
  FP2(op##ss, Vx_Wss, 4)  \
  FP2(op##sd, Vx_Wsd, 8)
FP2_ALL(add)
FP2_ALL(sub)
FP2_ALL(mul)
FP2_ALL(div)
FP2_ALL(min)
FP2_ALL(max)
FP2_ALL(sqrt)
FP2(rcpps, Vx_Wx, 16)
FP2(rcpss, Vx_Wss, 4)
FP2(rsqrtps, Vx_Wx, 16)
FP2(rsqrtss, Vx_Wss, 4)
#undef FP2_ALL
#undef FP2

/* Bitwise logic on the 128 bits (no exceptions). */
static inline int logic(struct cpu *cpu, const struct cpu_insn *in, int op) {
  union cpu_vec b;
  CPU_TRY(cpu__W16(cpu, in, 1, &b));
  union cpu_vec *d = cpu__x(cpu, in->reg);
  for (int i = 0; i < 2; i++) {
    u64 x = d->q[i], y = b.q[i];
    d->q[i] = op == 0 ? x & y : op == 1 ? ~x & y : op == 2 ? x | y : x ^ y;
  }
  return CPU_RC_NEXT;
}

#define LOGIC(mn, op)                                                    \
  static int op_##mn##_Vx_Wx(struct cpu *cpu, const struct cpu_insn *in) { \
    return logic(cpu, in, op);                                           \
  }
LOGIC(andps, 0)
LOGIC(andpd, 0)
LOGIC(andnps, 1)
LOGIC(andnpd, 1)
LOGIC(orps, 2)
LOGIC(orpd, 2)
LOGIC(xorps, 3)
LOGIC(xorpd, 3)
#undef LOGIC

/* Horizontal add/sub: the pairs of the destination, then of the source,
 * combined with one packed operation on rearranged operands (same element
 * operations, so the same results and flags). */
static int hop_pairs(struct cpu *cpu, const struct cpu_insn *in, int hop,
                     int dbl) {
  union cpu_vec b, x, y;
  CPU_TRY(cpu__W16(cpu, in, 1, &b));
  const union cpu_vec *a = cpu__x(cpu, in->reg);
  if (dbl) {
    x.q[0] = a->q[0], x.q[1] = b.q[0];
    y.q[0] = a->q[1], y.q[1] = b.q[1];
  } else {
    x.d[0] = a->d[0], x.d[1] = a->d[2], x.d[2] = b.d[0], x.d[3] = b.d[2];
    y.d[0] = a->d[1], y.d[1] = a->d[3], y.d[2] = b.d[1], y.d[3] = b.d[3];
  }
  CPU_TRY(cpu__sse_fp(cpu, hop, &x, &y));
  cpu__xset(cpu, in->reg, &x);
  return CPU_RC_NEXT;
}

static int op_haddps_Vx_Wx(struct cpu *cpu, const struct cpu_insn *in) {
  return hop_pairs(cpu, in, CPU__HOP_addps, 0);
}
static int op_haddpd_Vx_Wx(struct cpu *cpu, const struct cpu_insn *in) {
  return hop_pairs(cpu, in, CPU__HOP_addpd, 1);
}
static int op_hsubps_Vx_Wx(struct cpu *cpu, const struct cpu_insn *in) {
  return hop_pairs(cpu, in, CPU__HOP_subps, 0);
}
static int op_hsubpd_Vx_Wx(struct cpu *cpu, const struct cpu_insn *in) {
  return hop_pairs(cpu, in, CPU__HOP_subpd, 1);
}

/* addsub: even elements subtract, odd ones add. a - b is a + (-b) in IEEE
 * arithmetic, results and flags alike, except that a NaN b keeps its sign,
 * so the sign of non-NaN even elements of b is flipped and one packed add
 * does it. */
static int op_addsubps_Vx_Wx(struct cpu *cpu, const struct cpu_insn *in) {
  union cpu_vec b;
  CPU_TRY(cpu__W16(cpu, in, 1, &b));
  union cpu_vec a = *cpu__x(cpu, in->reg);
  for (int i = 0; i < 4; i += 2)
    if ((b.d[i] & 0x7fffffff) <= 0x7f800000) b.d[i] ^= 0x80000000;
  CPU_TRY(cpu__sse_fp(cpu, CPU__HOP_addps, &a, &b));
  cpu__xset(cpu, in->reg, &a);
  return CPU_RC_NEXT;
}

static int op_addsubpd_Vx_Wx(struct cpu *cpu, const struct cpu_insn *in) {
  union cpu_vec b;
  CPU_TRY(cpu__W16(cpu, in, 1, &b));
  union cpu_vec a = *cpu__x(cpu, in->reg);
  if ((b.q[0] & ~(1ull << 63)) <= 0x7ff0000000000000ull) b.q[0] ^= 1ull << 63;
  CPU_TRY(cpu__sse_fp(cpu, CPU__HOP_addpd, &a, &b));
  cpu__xset(cpu, in->reg, &a);
  return CPU_RC_NEXT;
}


/* ---- VEX forms (avx.c runs these handlers per 128-bit lane) ---------- */

CPU_VEX(vaddps, op_addps_Vx_Wx, CPU_VX_SRC1)
CPU_VEX(vaddpd, op_addpd_Vx_Wx, CPU_VX_SRC1)
CPU_VEX(vaddss, op_addss_Vx_Wss, CPU_VX_SRC1|CPU_VX_PASS)
CPU_VEX(vaddsd, op_addsd_Vx_Wsd, CPU_VX_SRC1|CPU_VX_PASS)
CPU_VEX(vmulps, op_mulps_Vx_Wx, CPU_VX_SRC1)
CPU_VEX(vmulpd, op_mulpd_Vx_Wx, CPU_VX_SRC1)
CPU_VEX(vmulss, op_mulss_Vx_Wss, CPU_VX_SRC1|CPU_VX_PASS)
CPU_VEX(vmulsd, op_mulsd_Vx_Wsd, CPU_VX_SRC1|CPU_VX_PASS)
CPU_VEX(vsubps, op_subps_Vx_Wx, CPU_VX_SRC1)
CPU_VEX(vsubpd, op_subpd_Vx_Wx, CPU_VX_SRC1)
CPU_VEX(vsubss, op_subss_Vx_Wss, CPU_VX_SRC1|CPU_VX_PASS)
CPU_VEX(vsubsd, op_subsd_Vx_Wsd, CPU_VX_SRC1|CPU_VX_PASS)
CPU_VEX(vminps, op_minps_Vx_Wx, CPU_VX_SRC1)
CPU_VEX(vminpd, op_minpd_Vx_Wx, CPU_VX_SRC1)
CPU_VEX(vminss, op_minss_Vx_Wss, CPU_VX_SRC1|CPU_VX_PASS)
CPU_VEX(vminsd, op_minsd_Vx_Wsd, CPU_VX_SRC1|CPU_VX_PASS)
CPU_VEX(vdivps, op_divps_Vx_Wx, CPU_VX_SRC1)
CPU_VEX(vdivpd, op_divpd_Vx_Wx, CPU_VX_SRC1)
CPU_VEX(vdivss, op_divss_Vx_Wss, CPU_VX_SRC1|CPU_VX_PASS)
CPU_VEX(vdivsd, op_divsd_Vx_Wsd, CPU_VX_SRC1|CPU_VX_PASS)
CPU_VEX(vmaxps, op_maxps_Vx_Wx, CPU_VX_SRC1)
CPU_VEX(vmaxpd, op_maxpd_Vx_Wx, CPU_VX_SRC1)
CPU_VEX(vmaxss, op_maxss_Vx_Wss, CPU_VX_SRC1|CPU_VX_PASS)
CPU_VEX(vmaxsd, op_maxsd_Vx_Wsd, CPU_VX_SRC1|CPU_VX_PASS)
CPU_VEX(vsqrtps, op_sqrtps_Vx_Wx, 0)
CPU_VEX(vsqrtpd, op_sqrtpd_Vx_Wx, 0)
CPU_VEX(vrcpps, op_rcpps_Vx_Wx, 0)
CPU_VEX(vrsqrtps, op_rsqrtps_Vx_Wx, 0)
CPU_VEX(vsqrtss, op_sqrtss_Vx_Wss, CPU_VX_SRC1|CPU_VX_PASS)
CPU_VEX(vsqrtsd, op_sqrtsd_Vx_Wsd, CPU_VX_SRC1|CPU_VX_PASS)
CPU_VEX(vrcpss, op_rcpss_Vx_Wss, CPU_VX_SRC1|CPU_VX_PASS)
CPU_VEX(vrsqrtss, op_rsqrtss_Vx_Wss, CPU_VX_SRC1|CPU_VX_PASS)
CPU_VEX(vandps, op_andps_Vx_Wx, CPU_VX_SRC1)
CPU_VEX(vandpd, op_andpd_Vx_Wx, CPU_VX_SRC1)
CPU_VEX(vandnps, op_andnps_Vx_Wx, CPU_VX_SRC1)
CPU_VEX(vandnpd, op_andnpd_Vx_Wx, CPU_VX_SRC1)
CPU_VEX(vorps, op_orps_Vx_Wx, CPU_VX_SRC1)
CPU_VEX(vorpd, op_orpd_Vx_Wx, CPU_VX_SRC1)
CPU_VEX(vxorps, op_xorps_Vx_Wx, CPU_VX_SRC1)
CPU_VEX(vxorpd, op_xorpd_Vx_Wx, CPU_VX_SRC1)
CPU_VEX(vhaddps, op_haddps_Vx_Wx, CPU_VX_SRC1)
CPU_VEX(vhaddpd, op_haddpd_Vx_Wx, CPU_VX_SRC1)
CPU_VEX(vhsubps, op_hsubps_Vx_Wx, CPU_VX_SRC1)
CPU_VEX(vhsubpd, op_hsubpd_Vx_Wx, CPU_VX_SRC1)
CPU_VEX(vaddsubps, op_addsubps_Vx_Wx, CPU_VX_SRC1)
CPU_VEX(vaddsubpd, op_addsubpd_Vx_Wx, CPU_VX_SRC1)

static const struct cpu__oprow sse_arith_rows[] = {
#define OP(id, form, fn) {id, CPU_FORM_##form, fn, #fn},
#include "replayer/cpu/sse_arith.def"
#undef OP
};
CPU__FAMILY_TABLE(sse_arith)
