/* SPDX-License-Identifier: MIT */
/* SSE conversions between single, double and integers: cvtps2pd, cvtpd2ps,
 * cvtss2sd, cvtsd2ss, cvt(t)ps2dq, cvtdq2ps, cvtdq2pd, cvt(t)pd2dq, cvtsi2ss
 * and cvtsi2sd from 32/64-bit integers, and cvt(t)ss2si / cvt(t)sd2si to
 * them (the integer indefinite 0x80..0 on NaN and overflow). The engine in
 * sse_fpu.c runs the host's own conversion under the guest MXCSR. */
#include "replayer/cpu/sse_util.h"

/* dest = convert(src) through HOP; SZ is the memory operand size (16 means
 * a 16-byte aligned operand). */
static inline int cvt(struct cpu *cpu, const struct cpu_insn *in, int hop,
                      unsigned sz) {
  union cpu_vec a, b;
  CPU_TRY(cpu_W_read(cpu, in, sz, sz == 16, &b));
  a = *cpu__x(cpu, in->reg);
  CPU_TRY(cpu__sse_fp(cpu, hop, &a, &b));
  cpu__xset(cpu, in->reg, &a);
  return CPU_RC_NEXT;
}

#define CVT(mn, suffix, sz)                                              \
  static int op_##mn##_##suffix(struct cpu *cpu,                         \
                                const struct cpu_insn *in) {             \
    return cvt(cpu, in, CPU__HOP_##mn, sz);                              \
  }
CVT(cvtps2pd, Vx_Wq, 8)
CVT(cvtpd2ps, Vx_Wx, 16)
CVT(cvtss2sd, Vx_Wss, 4)
CVT(cvtsd2ss, Vx_Wsd, 8)
CVT(cvtdq2ps, Vx_Wx, 16)
CVT(cvtps2dq, Vx_Wx, 16)
CVT(cvttps2dq, Vx_Wx, 16)
CVT(cvtdq2pd, Vx_Wq, 8)
CVT(cvtpd2dq, Vx_Wx, 16)
CVT(cvttpd2dq, Vx_Wx, 16)
#undef CVT

/* cvtsi2ss/sd Vx, Ey: the integer size is 8 with REX.W, else 4. */
static int from_int(struct cpu *cpu, const struct cpu_insn *in, int hop32) {
  unsigned sz = (in->pfx & CPU_PFX_REXW) ? 8 : 4;
  u64 v;
  CPU_TRY(cpu_rm_read(cpu, in, sz, &v));
  union cpu_vec a = *cpu__x(cpu, in->reg), b = {0};
  b.q[0] = v;
  CPU_TRY(cpu__sse_fp(cpu, hop32 + (sz == 8), &a, &b));
  cpu__xset(cpu, in->reg, &a);
  return CPU_RC_NEXT;
}

static int op_cvtsi2ss_Vx_Ey(struct cpu *cpu, const struct cpu_insn *in) {
  return from_int(cpu, in, CPU__HOP_cvtsi2ss32);
}
static int op_cvtsi2sd_Vx_Ey(struct cpu *cpu, const struct cpu_insn *in) {
  return from_int(cpu, in, CPU__HOP_cvtsi2sd32);
}

/* cvt(t)ss2si / cvt(t)sd2si Gy, W: ESZ is the source element size, the
 * result size 8 with REX.W, else 4. */
static int to_int(struct cpu *cpu, const struct cpu_insn *in, int hop32,
                  unsigned esz) {
  unsigned sz = (in->pfx & CPU_PFX_REXW) ? 8 : 4;
  union cpu_vec a = {0}, b;
  CPU_TRY(cpu_W_read(cpu, in, esz, 0, &b));
  CPU_TRY(cpu__sse_fp(cpu, hop32 + (sz == 8), &a, &b));
  cpu_reg_set(cpu, in->reg, sz, a.q[0]);
  return CPU_RC_NEXT;
}

static int op_cvtss2si_Gy_Wss(struct cpu *cpu, const struct cpu_insn *in) {
  return to_int(cpu, in, CPU__HOP_cvtss2si32, 4);
}
static int op_cvttss2si_Gy_Wss(struct cpu *cpu, const struct cpu_insn *in) {
  return to_int(cpu, in, CPU__HOP_cvttss2si32, 4);
}
static int op_cvtsd2si_Gy_Wsd(struct cpu *cpu, const struct cpu_insn *in) {
  return to_int(cpu, in, CPU__HOP_cvtsd2si32, 8);
}
static int op_cvttsd2si_Gy_Wsd(struct cpu *cpu, const struct cpu_insn *in) {
  return to_int(cpu, in, CPU__HOP_cvttsd2si32, 8);
}


/* ---- VEX forms (avx.c runs these handlers per 128-bit lane) ---------- */

CPU_VEX(vcvtdq2ps, op_cvtdq2ps_Vx_Wx, 0)
CPU_VEX(vcvtps2dq, op_cvtps2dq_Vx_Wx, 0)
CPU_VEX(vcvttps2dq, op_cvttps2dq_Vx_Wx, 0)
CPU_VEX(vcvtss2sd, op_cvtss2sd_Vx_Wss, CPU_VX_SRC1|CPU_VX_PASS)
CPU_VEX(vcvtsd2ss, op_cvtsd2ss_Vx_Wsd, CPU_VX_SRC1|CPU_VX_PASS)
CPU_VEX(vcvtsi2ss, op_cvtsi2ss_Vx_Ey, CPU_VX_SRC1|CPU_VX_PASS)
CPU_VEX(vcvtsi2sd, op_cvtsi2sd_Vx_Ey, CPU_VX_SRC1|CPU_VX_PASS)
CPU_VEX(vcvtss2si, op_cvtss2si_Gy_Wss, CPU_VX_NODST|CPU_VX_PASS)
CPU_VEX(vcvttss2si, op_cvttss2si_Gy_Wss, CPU_VX_NODST|CPU_VX_PASS)
CPU_VEX(vcvtsd2si, op_cvtsd2si_Gy_Wsd, CPU_VX_NODST|CPU_VX_PASS)
CPU_VEX(vcvttsd2si, op_cvttsd2si_Gy_Wsd, CPU_VX_NODST|CPU_VX_PASS)
static int op_vcvtps2pd(struct cpu *cpu, const struct cpu_insn *in) {
  return cpu__vex256(in) ? cpu__vex_widen(cpu, in, op_cvtps2pd_Vx_Wq, 8)
                         : cpu__vex(cpu, in, op_cvtps2pd_Vx_Wq, CPU_VX_PASS);
}
static int op_vcvtdq2pd(struct cpu *cpu, const struct cpu_insn *in) {
  return cpu__vex256(in) ? cpu__vex_widen(cpu, in, op_cvtdq2pd_Vx_Wq, 8)
                         : cpu__vex(cpu, in, op_cvtdq2pd_Vx_Wq, CPU_VX_PASS);
}
static int op_vcvtpd2ps(struct cpu *cpu, const struct cpu_insn *in) {
  return cpu__vex256(in) ? cpu__vex_narrow(cpu, in, op_cvtpd2ps_Vx_Wx)
                         : cpu__vex(cpu, in, op_cvtpd2ps_Vx_Wx, 0);
}
static int op_vcvtpd2dq(struct cpu *cpu, const struct cpu_insn *in) {
  return cpu__vex256(in) ? cpu__vex_narrow(cpu, in, op_cvtpd2dq_Vx_Wx)
                         : cpu__vex(cpu, in, op_cvtpd2dq_Vx_Wx, 0);
}
static int op_vcvttpd2dq(struct cpu *cpu, const struct cpu_insn *in) {
  return cpu__vex256(in) ? cpu__vex_narrow(cpu, in, op_cvttpd2dq_Vx_Wx)
                         : cpu__vex(cpu, in, op_cvttpd2dq_Vx_Wx, 0);
}

/* ---- MMX forms (mmx.c runs these handlers on the 64-bit operands) -- */

CPU_MMX(mmx_cvtpi2ps, op_cvtdq2ps_Vx_Wx, CPU_MM_XDST | CPU_MM_XLO)
CPU_MMX(mmx_cvtpi2pd, op_cvtdq2pd_Vx_Wq, CPU_MM_XDST)
CPU_MMX(mmx_cvtps2pi, op_cvtps2dq_Vx_Wx, CPU_MM_XSRC)
CPU_MMX(mmx_cvttps2pi, op_cvttps2dq_Vx_Wx, CPU_MM_XSRC)
CPU_MMX(mmx_cvtpd2pi, op_cvtpd2dq_Vx_Wx, CPU_MM_XSRC16)
CPU_MMX(mmx_cvttpd2pi, op_cvttpd2dq_Vx_Wx, CPU_MM_XSRC16)

static const struct cpu__oprow sse_cvt_rows[] = {
#define OP(id, form, fn) {id, CPU_FORM_##form, fn, #fn},
#include "replayer/cpu/sse_cvt.def"
#undef OP
};
CPU__FAMILY_TABLE(sse_cvt)
