/* SPDX-License-Identifier: MIT */
/* The translator's SSE, AVX and FMA instructions (jit.c has the rest):
 * the legacy SSE arithmetic, logic and moves on XMM registers, their VEX
 * forms at 128 bits, FMA3, the conversions between doubles and integers
 * and the compares into EFLAGS, each run as the host's own instruction
 * on copies of the guest's registers (the interpreter runs the same host
 * instructions, so results and flags are the same), under the guest's
 * MXCSR as jit_int.h's mx_check arranges. The same at 256 bits through
 * the host's VEX.256 instructions where it has AVX2. EVEX forms are
 * handler calls. */
#include "replayer/cpu/jit_int.h"

/* The legacy SSE instructions "xmm = xmm OP xmm/mem" that J_SSE runs as
 * the host's own instruction on copies of the operands: mandatory prefix,
 * opcode after 0F, size of a memory operand, and whether that must be
 * 16-byte aligned (SO_ALIGN) and the instruction uses MXCSR (SO_MX). */
enum { SO_ALIGN = 1, SO_MX = 2 };
static const struct sse_op {
  u16 id, vid; /* the legacy instruction, and its VEX form */
  u8 pfx, op, msz, fl;
} sse_ops[] = {
    {X86_INS_ADDSD, X86_INS_VADDSD, 0xf2, 0x58, 8, SO_MX},
    {X86_INS_ADDSS, X86_INS_VADDSS, 0xf3, 0x58, 4, SO_MX},
    {X86_INS_ADDPD, X86_INS_VADDPD, 0x66, 0x58, 16, SO_MX | SO_ALIGN},
    {X86_INS_ADDPS, X86_INS_VADDPS, 0x0, 0x58, 16, SO_MX | SO_ALIGN},
    {X86_INS_MULSD, X86_INS_VMULSD, 0xf2, 0x59, 8, SO_MX},
    {X86_INS_MULSS, X86_INS_VMULSS, 0xf3, 0x59, 4, SO_MX},
    {X86_INS_MULPD, X86_INS_VMULPD, 0x66, 0x59, 16, SO_MX | SO_ALIGN},
    {X86_INS_MULPS, X86_INS_VMULPS, 0x0, 0x59, 16, SO_MX | SO_ALIGN},
    {X86_INS_SUBSD, X86_INS_VSUBSD, 0xf2, 0x5c, 8, SO_MX},
    {X86_INS_SUBSS, X86_INS_VSUBSS, 0xf3, 0x5c, 4, SO_MX},
    {X86_INS_SUBPD, X86_INS_VSUBPD, 0x66, 0x5c, 16, SO_MX | SO_ALIGN},
    {X86_INS_SUBPS, X86_INS_VSUBPS, 0x0, 0x5c, 16, SO_MX | SO_ALIGN},
    {X86_INS_MINSD, X86_INS_VMINSD, 0xf2, 0x5d, 8, SO_MX},
    {X86_INS_MINSS, X86_INS_VMINSS, 0xf3, 0x5d, 4, SO_MX},
    {X86_INS_MINPD, X86_INS_VMINPD, 0x66, 0x5d, 16, SO_MX | SO_ALIGN},
    {X86_INS_MINPS, X86_INS_VMINPS, 0x0, 0x5d, 16, SO_MX | SO_ALIGN},
    {X86_INS_DIVSD, X86_INS_VDIVSD, 0xf2, 0x5e, 8, SO_MX},
    {X86_INS_DIVSS, X86_INS_VDIVSS, 0xf3, 0x5e, 4, SO_MX},
    {X86_INS_DIVPD, X86_INS_VDIVPD, 0x66, 0x5e, 16, SO_MX | SO_ALIGN},
    {X86_INS_DIVPS, X86_INS_VDIVPS, 0x0, 0x5e, 16, SO_MX | SO_ALIGN},
    {X86_INS_MAXSD, X86_INS_VMAXSD, 0xf2, 0x5f, 8, SO_MX},
    {X86_INS_MAXSS, X86_INS_VMAXSS, 0xf3, 0x5f, 4, SO_MX},
    {X86_INS_MAXPD, X86_INS_VMAXPD, 0x66, 0x5f, 16, SO_MX | SO_ALIGN},
    {X86_INS_MAXPS, X86_INS_VMAXPS, 0x0, 0x5f, 16, SO_MX | SO_ALIGN},
    {X86_INS_SQRTSD, X86_INS_VSQRTSD, 0xf2, 0x51, 8, SO_MX},
    {X86_INS_SQRTSS, X86_INS_VSQRTSS, 0xf3, 0x51, 4, SO_MX},
    {X86_INS_SQRTPD, X86_INS_VSQRTPD, 0x66, 0x51, 16, SO_MX | SO_ALIGN},
    {X86_INS_SQRTPS, X86_INS_VSQRTPS, 0x0, 0x51, 16, SO_MX | SO_ALIGN},
    {X86_INS_CVTSD2SS, X86_INS_VCVTSD2SS, 0xf2, 0x5a, 8, SO_MX},
    {X86_INS_CVTSS2SD, X86_INS_VCVTSS2SD, 0xf3, 0x5a, 4, SO_MX},
    {X86_INS_ANDPS, X86_INS_VANDPS, 0x0, 0x54, 16, SO_ALIGN},
    {X86_INS_ANDPD, X86_INS_VANDPD, 0x66, 0x54, 16, SO_ALIGN},
    {X86_INS_ANDNPS, X86_INS_VANDNPS, 0x0, 0x55, 16, SO_ALIGN},
    {X86_INS_ANDNPD, X86_INS_VANDNPD, 0x66, 0x55, 16, SO_ALIGN},
    {X86_INS_ORPS, X86_INS_VORPS, 0x0, 0x56, 16, SO_ALIGN},
    {X86_INS_ORPD, X86_INS_VORPD, 0x66, 0x56, 16, SO_ALIGN},
    {X86_INS_XORPS, X86_INS_VXORPS, 0x0, 0x57, 16, SO_ALIGN},
    {X86_INS_XORPD, X86_INS_VXORPD, 0x66, 0x57, 16, SO_ALIGN},
    {X86_INS_UNPCKLPS, X86_INS_VUNPCKLPS, 0x0, 0x14, 16, SO_ALIGN},
    {X86_INS_UNPCKLPD, X86_INS_VUNPCKLPD, 0x66, 0x14, 16, SO_ALIGN},
    {X86_INS_UNPCKHPS, X86_INS_VUNPCKHPS, 0x0, 0x15, 16, SO_ALIGN},
    {X86_INS_UNPCKHPD, X86_INS_VUNPCKHPD, 0x66, 0x15, 16, SO_ALIGN},
    {X86_INS_PXOR, X86_INS_VPXOR, 0x66, 0xef, 16, SO_ALIGN},
    {X86_INS_PAND, X86_INS_VPAND, 0x66, 0xdb, 16, SO_ALIGN},
    {X86_INS_PANDN, X86_INS_VPANDN, 0x66, 0xdf, 16, SO_ALIGN},
    {X86_INS_POR, X86_INS_VPOR, 0x66, 0xeb, 16, SO_ALIGN},
    {X86_INS_PADDB, X86_INS_VPADDB, 0x66, 0xfc, 16, SO_ALIGN},
    {X86_INS_PADDW, X86_INS_VPADDW, 0x66, 0xfd, 16, SO_ALIGN},
    {X86_INS_PADDD, X86_INS_VPADDD, 0x66, 0xfe, 16, SO_ALIGN},
    {X86_INS_PADDQ, X86_INS_VPADDQ, 0x66, 0xd4, 16, SO_ALIGN},
    {X86_INS_PSUBB, X86_INS_VPSUBB, 0x66, 0xf8, 16, SO_ALIGN},
    {X86_INS_PSUBW, X86_INS_VPSUBW, 0x66, 0xf9, 16, SO_ALIGN},
    {X86_INS_PSUBD, X86_INS_VPSUBD, 0x66, 0xfa, 16, SO_ALIGN},
    {X86_INS_PSUBQ, X86_INS_VPSUBQ, 0x66, 0xfb, 16, SO_ALIGN},
    {X86_INS_PCMPEQB, X86_INS_VPCMPEQB, 0x66, 0x74, 16, SO_ALIGN},
    {X86_INS_PCMPEQW, X86_INS_VPCMPEQW, 0x66, 0x75, 16, SO_ALIGN},
    {X86_INS_PCMPEQD, X86_INS_VPCMPEQD, 0x66, 0x76, 16, SO_ALIGN},
    {X86_INS_PMINUB, X86_INS_VPMINUB, 0x66, 0xda, 16, SO_ALIGN},
    {X86_INS_PMAXUB, X86_INS_VPMAXUB, 0x66, 0xde, 16, SO_ALIGN},
    {X86_INS_PUNPCKLBW, X86_INS_VPUNPCKLBW, 0x66, 0x60, 16, SO_ALIGN},
    {X86_INS_PUNPCKLQDQ, X86_INS_VPUNPCKLQDQ, 0x66, 0x6c, 16, SO_ALIGN},
    {X86_INS_PUNPCKHQDQ, X86_INS_VPUNPCKHQDQ, 0x66, 0x6d, 16, SO_ALIGN},
};

/* The row of the legacy instruction ID, or of the VEX one. */
static const struct sse_op *sse_op(unsigned id) {
  for (unsigned i = 0; i < RW_ARRAY_SIZE(sse_ops); i++)
    if (sse_ops[i].id == id || sse_ops[i].vid == id) return &sse_ops[i];
  return NULL;
}

/* Legacy instructions "xmm = xmm OP xmm/mem [, imm8]" that J_HX runs as
 * the host's own where it has them, and their VEX forms (VID, "vvvv OP rm
 * [, imm8] into reg", VEX.66) that J_VHX runs: mandatory prefix, map (2:
 * 0F38, 3: 0F3A, 1: 0F), opcode, whether an imm8 follows, the host
 * feature, and whether the legacy memory form is translated (its operand
 * must be 16-byte aligned: the SHA ones check alignment on Intel only, so
 * they stay handler calls with a memory operand). sha256rnds2 reads xmm0
 * too. */
enum { HX_SSE2, HX_SSSE3, HX_AES, HX_PCLMUL, HX_SHA };
static const struct hx_op {
  u16 id, vid;
  u8 pfx, map, op, imm, feat, mem;
} hx_ops[] = {
    {X86_INS_PSHUFD, 0, 0x66, 1, 0x70, 1, HX_SSE2, 1},
    {X86_INS_PSHUFB, 0, 0x66, 2, 0x00, 0, HX_SSSE3, 1},
    {X86_INS_PALIGNR, 0, 0x66, 3, 0x0f, 1, HX_SSSE3, 1},
    {X86_INS_AESENC, X86_INS_VAESENC, 0x66, 2, 0xdc, 0, HX_AES, 1},
    {X86_INS_AESENCLAST, X86_INS_VAESENCLAST, 0x66, 2, 0xdd, 0, HX_AES, 1},
    {X86_INS_AESDEC, X86_INS_VAESDEC, 0x66, 2, 0xde, 0, HX_AES, 1},
    {X86_INS_AESDECLAST, X86_INS_VAESDECLAST, 0x66, 2, 0xdf, 0, HX_AES, 1},
    {X86_INS_AESIMC, 0, 0x66, 2, 0xdb, 0, HX_AES, 1},
    {X86_INS_AESKEYGENASSIST, 0, 0x66, 3, 0xdf, 1, HX_AES, 1},
    {X86_INS_PCLMULQDQ, X86_INS_VPCLMULQDQ, 0x66, 3, 0x44, 1, HX_PCLMUL, 1},
    {X86_INS_SHA1RNDS4, 0, 0, 3, 0xcc, 1, HX_SHA, 0},
    {X86_INS_SHA1NEXTE, 0, 0, 2, 0xc8, 0, HX_SHA, 0},
    {X86_INS_SHA1MSG1, 0, 0, 2, 0xc9, 0, HX_SHA, 0},
    {X86_INS_SHA1MSG2, 0, 0, 2, 0xca, 0, HX_SHA, 0},
    {X86_INS_SHA256RNDS2, 0, 0, 2, 0xcb, 0, HX_SHA, 0},
    {X86_INS_SHA256MSG1, 0, 0, 2, 0xcc, 0, HX_SHA, 0},
    {X86_INS_SHA256MSG2, 0, 0, 2, 0xcd, 0, HX_SHA, 0},
};

/* The row of legacy instruction ID (VEX: of its VEX form). */
static const struct hx_op *hx_op(unsigned id, int vex) {
  for (unsigned i = 0; i < RW_ARRAY_SIZE(hx_ops); i++)
    if ((vex ? hx_ops[i].vid : hx_ops[i].id) == id) return &hx_ops[i];
  return NULL;
}

/* Whether IN (of FORM) is one J_HX runs: the host has it, the legacy
 * xmm form with no prefix that makes it #UD, and a memory operand only
 * where the rule is the same on every vendor. */
static int hx_kind(const struct cpu_insn *in, unsigned form) {
  const struct hx_op *o = hx_op(in->id, 0);
  int have;
  if (!o || form != (o->imm ? CPU_FORM_X_W_I : CPU_FORM_X_W)) return 0;
  if (in->pfx & (CPU_PFX_REP | CPU_PFX_REPNE)) return 0;
  if (!o->pfx && (in->pfx & CPU_PFX_OPSIZE)) return 0;
  if ((in->pfx & CPU_PFX_MEM) && !o->mem) return 0;
  switch (o->feat) {
    case HX_SSSE3: have = cpu__host_ssse3; break;
    case HX_AES: have = cpu__host_aes; break;
    case HX_PCLMUL: have = cpu__host_pclmul; break;
    case HX_SHA: have = cpu__host_sha; break;
    default: have = 1; break;
  }
  return have;
}

/* Whether IN is a VEX form J_VHX runs: at 128 bits the host needs AVX
 * and AES-NI or PCLMULQDQ, at 256 its VAES or VPCLMULQDQ. */
static int vhx_kind(const struct cpu_insn *in, unsigned form) {
  const struct hx_op *o = hx_op(in->id, 1);
  int clmul;
  if (!o || form != (o->imm ? CPU_FORM_V_V_W_I : CPU_FORM_V_V_W)) return 0;
  clmul = o->feat == HX_PCLMUL;
  if (cpu__vex256(in)) return clmul ? cpu__host_vpclmul : cpu__host_vaes;
  return cpu__host_avx2 && (clmul ? cpu__host_pclmul : cpu__host_aes);
}

/* The FMA3 instructions: VEX.66.0F38 opcode, and whether scalar. The
 * opcode is 0x98 (132), 0xa8 (213) or 0xb8 (231) plus 0 fmadd, 2 fmsub, 4
 * fnmadd, 6 fnmsub (plus 1 for the scalar forms), or minus 2 fmaddsub and
 * minus 1 fmsubadd (packed only); VEX.W (REX.W here) picks double. */
static const struct fma_op {
  u16 id;
  u8 op, scalar;
} fma_ops[] = {
#define FM3(name, base, s)                                             \
  {X86_INS_V##name##132##s, 0x98 + (base), 0}, {X86_INS_V##name##213##s, 0xa8 + (base), 0}, \
      {X86_INS_V##name##231##s, 0xb8 + (base), 0}
#define FM(name, base)                                                   \
  FM3(name, base, PS), FM3(name, base, PD),                              \
      {X86_INS_V##name##132SS, 0x99 + (base), 1},                        \
      {X86_INS_V##name##213SS, 0xa9 + (base), 1},                        \
      {X86_INS_V##name##231SS, 0xb9 + (base), 1},                        \
      {X86_INS_V##name##132SD, 0x99 + (base), 1},                        \
      {X86_INS_V##name##213SD, 0xa9 + (base), 1},                        \
      {X86_INS_V##name##231SD, 0xb9 + (base), 1}
    FM(FMADD, 0), FM(FMSUB, 2), FM(FNMADD, 4), FM(FNMSUB, 6),
    FM3(FMADDSUB, -2, PS), FM3(FMADDSUB, -2, PD),
    FM3(FMSUBADD, -1, PS), FM3(FMSUBADD, -1, PD),
#undef FM
#undef FM3
};

static const struct fma_op *fma_op(unsigned id) {
  for (unsigned i = 0; i < RW_ARRAY_SIZE(fma_ops); i++)
    if (fma_ops[i].id == id) return &fma_ops[i];
  return NULL;
}

/* The VEX instructions' kinds: at 128 bits the host's own SSE
 * instructions compute them, at 256 bits its VEX.256 ones where it has
 * AVX2 (the packed rows of sse_ops, FMA3, the 32-byte moves and the sign
 * masks); FMA needs the host's FMA. */
static int classify_vex(const struct cpu_insn *in, unsigned form) {
  int y = cpu__vex256(in);
  if (vhx_kind(in, form)) return J_VHX;
  if (y && !cpu__host_avx2) return J_CALL;
  switch (in->id) {
    case X86_INS_VZEROUPPER:
      return cpu__host_avx2 ? J_VZU : J_CALL;
    case X86_INS_VPMOVMSKB: case X86_INS_VMOVMSKPS: case X86_INS_VMOVMSKPD:
      return form == CPU_FORM_Gy_Uv ? J_MOVMSK : J_CALL;
    case X86_INS_VMOVAPS: case X86_INS_VMOVAPD: case X86_INS_VMOVDQA:
    case X86_INS_VMOVUPS: case X86_INS_VMOVUPD: case X86_INS_VMOVDQU:
      return form == CPU_FORM_V_W || form == CPU_FORM_W_V ? J_VMOV : J_CALL;
    default:
      break;
  }
  if (!y) {
    switch (in->id) {
      case X86_INS_VUCOMISD: case X86_INS_VCOMISD:
      case X86_INS_VUCOMISS: case X86_INS_VCOMISS:
        return form == CPU_FORM_V_W ? J_COMI : J_CALL;
      case X86_INS_VCVTSD2SI: case X86_INS_VCVTTSD2SI:
      case X86_INS_VCVTSS2SI: case X86_INS_VCVTTSS2SI:
        return form == CPU_FORM_Gy_W ? J_CVTF : J_CALL;
      case X86_INS_VCVTSI2SD:
      case X86_INS_VCVTSI2SS:
        return form == CPU_FORM_V_V_Ey ? J_VCVTI : J_CALL;
      case X86_INS_VMOVSD:
      case X86_INS_VMOVSS:
        return form == CPU_FORM_V_M || form == CPU_FORM_M_V ||
                       form == CPU_FORM_V_V_U
                   ? J_VMOV
                   : J_CALL;
      case X86_INS_VMOVQ:
        if (form == CPU_FORM_V_W || form == CPU_FORM_M_V) return J_VMOV;
        /* fall through */
      case X86_INS_VMOVD:
        return form == CPU_FORM_V_Ey || form == CPU_FORM_Ey_V ? J_VMOV
                                                              : J_CALL;
      default:
        break;
    }
  }
  if (form != CPU_FORM_V_V_W) return J_CALL;
  {
    const struct sse_op *o = sse_op(in->id);
    if (o && o->vid == in->id) return !y || o->msz == 16 ? J_VSSE : J_CALL;
  }
  {
    const struct fma_op *f = fma_op(in->id);
    return f && (!y || !f->scalar) && cpu__host_fma3 ? J_VFMA : J_CALL;
  }
}

/* The legacy forms are X_W, W_X, X_Ey, Ey_X, Gy_W only: the MMX forms of
 * the same names stay handler calls. */
int cpu__jit_sse_kind(const struct cpu_insn *in, unsigned form) {
  int xw = form == CPU_FORM_X_W, wx = form == CPU_FORM_W_X;
  if (!host_masked()) return J_CALL;
  switch (in->id) {
    case X86_INS_MOVAPS: case X86_INS_MOVAPD: case X86_INS_MOVDQA:
    case X86_INS_MOVUPS: case X86_INS_MOVUPD: case X86_INS_MOVDQU:
    case X86_INS_MOVSD: case X86_INS_MOVSS:
      return xw || wx ? J_XMOV : J_CALL;
    case X86_INS_MOVQ:
    case X86_INS_MOVD:
      if (form == CPU_FORM_X_Ey || form == CPU_FORM_Ey_X) return J_XMOV;
      return in->id == X86_INS_MOVQ && (xw || wx) ? J_XMOV : J_CALL;
    case X86_INS_CVTSI2SD:
    case X86_INS_CVTSI2SS:
      return form == CPU_FORM_X_Ey ? J_CVTI : J_CALL;
    case X86_INS_CVTSD2SI: case X86_INS_CVTTSD2SI:
    case X86_INS_CVTSS2SI: case X86_INS_CVTTSS2SI:
      return form == CPU_FORM_Gy_W ? J_CVTF : J_CALL;
    case X86_INS_COMISD: case X86_INS_UCOMISD:
    case X86_INS_COMISS: case X86_INS_UCOMISS:
      return xw ? J_COMI : J_CALL;
    case X86_INS_PMOVMSKB: case X86_INS_MOVMSKPS: case X86_INS_MOVMSKPD:
      return form == CPU_FORM_Gy_U ? J_MOVMSK : J_CALL;
    default:
      break;
  }
  if (hx_kind(in, form)) return J_HX;
  if (xw) {
    const struct sse_op *o = sse_op(in->id);
    return o && o->id == in->id ? J_SSE : J_CALL;
  }
  return classify_vex(in, form);
}

/* ---- SSE instructions ------------------------------------------------------ */

/* A memory operand at r12 that is not 16-byte aligned (32: ALIGN32): to
 * instruction K's handler, which faults. */
static void align_to(struct tr *t, unsigned k, int align32) {
  enc(t, 4, 0xf7, 1, 0, xr(R_EA), 0); /* test r12d, 15 or 31 */
  b4(t, align32 ? 31 : 15);
  to_handler(t, 5, k);
}
static void align16(struct tr *t, unsigned k) { align_to(t, k, 0); }

/* Host ymm Y = the 32-byte rm operand of IN (ALIGN: a misaligned memory
 * operand goes to the handler, which faults). */
static void yw_read(struct tr *t, const struct cpu_insn *in, unsigned k,
                    unsigned y, int align) {
  if (!(in->pfx & CPU_PFX_MEM)) {
    yld32(t, y, xm(R_CPU, yoff(in->rm)));
    return;
  }
  ea(t, in, 0);
  if (align) align_to(t, k, 1);
  vmem_ld(t, k, y, 32);
}

/* Bits 511:256 of vector register R = 0, as a VEX write of 256 bits does
 * (host xmm2 is lost). */
static void zmmh_zero(struct tr *t, unsigned r) {
  i32 off = OFF(zmmh) + (i32)sizeof(union cpu_vec) * (i32)r;
  sse_enc(t, 0, 0x57, 0, 2, xr(2)); /* xorps xmm2, xmm2 */
  xst16(t, xm(R_CPU, off), 2);
  xst16(t, xm(R_CPU, off + 16), 2);
}

/* Vector register R = host ymm Y (a VEX.256 write), and the host's upper
 * halves cleared. */
static void ymm_put(struct tr *t, unsigned r, unsigned y) {
  yst32(t, xm(R_CPU, yoff(r)), y);
  host_vzeroupper(t);
  if (r < CPU_NZMM) zmmh_zero(t, r);
}

/* The 32-byte moves: LOAD the register from rm, else rm from it; ALIGN
 * for the aligned forms. */
static void mov32(struct tr *t, const struct cpu_insn *in, unsigned k,
                  int load, int align) {
  if (load) {
    yw_read(t, in, k, 0, align);
    ymm_put(t, in->reg, 0);
    return;
  }
  yld32(t, 0, xm(R_CPU, yoff(in->reg)));
  if (in->pfx & CPU_PFX_MEM) {
    ea(t, in, 0);
    if (align) align_to(t, k, 1);
    vmem_st(t, k, 0, 32);
    host_vzeroupper(t);
    return;
  }
  ymm_put(t, in->rm, 0);
}

/* The VEX.pp field of a legacy mandatory prefix. */
static unsigned vex_pp(unsigned pfx) {
  return pfx == 0x66 ? 1u : pfx == 0xf3 ? 2u : pfx == 0xf2 ? 3u : 0u;
}

/* Host xmm X = the W operand of IN at SZ bytes: from memory zero-extended
 * (ALIGN: a misaligned one goes to the handler, which faults); a register
 * whole. */
static void w_read(struct tr *t, const struct cpu_insn *in, unsigned k,
                   unsigned sz, unsigned x, int align) {
  if (!(in->pfx & CPU_PFX_MEM)) {
    xld16(t, x, xm(R_CPU, yoff(in->rm)));
    return;
  }
  ea(t, in, 0);
  if (align) align16(t, k);
  if (sz == 16) {
    vmem_ld(t, k, x, 16);
  } else {
    mem_ld(t, k, sz, R_A);
    xfrom64(t, x, R_A);
  }
}

/* The low SZ (4 or 8) bytes of vector register R into H / from H. */
static void vlow_ld(struct tr *t, unsigned h, unsigned r, unsigned sz) {
  enc(t, sz, 0x8b, 1, h, xm(R_CPU, yoff(r)), 0);
}
static void vlow_st(struct tr *t, unsigned r, unsigned sz, unsigned h) {
  enc(t, sz, 0x89, 1, h, xm(R_CPU, yoff(r)), 0);
}
/* XMM register R = H zero-extended (bits 255:128 kept, as legacy SSE). */
static void xmm_set64(struct tr *t, unsigned r, unsigned h) {
  st64(t, xm(R_CPU, yoff(r)), h);
  st_const64(t, yoff(r) + 8, 0);
}

/* Bits 511:128 of vector register R = 0, as a VEX write of 128 bits does
 * (host xmm2 is lost). */
static void vzero_hi(struct tr *t, unsigned r) {
  if (r < CPU_NZMM)
    zmmh_zero(t, r); /* and xmm2 is 0 */
  else
    sse_enc(t, 0, 0x57, 0, 2, xr(2)); /* xorps xmm2, xmm2 */
  xst16(t, xm(R_CPU, yoff(r) + 16), 2);
}

/* The 16-byte moves, legacy and VEX (a VEX write zeroes bits 511:128 of
 * its register): LOAD the register from rm, else rm from it; ALIGN for the
 * aligned forms. */
static void mov16(struct tr *t, const struct cpu_insn *in, unsigned k,
                  int load, int align, int vex) {
  unsigned r = load ? in->reg : in->rm;
  if (load) {
    w_read(t, in, k, 16, 0, align);
    xst16(t, xm(R_CPU, yoff(in->reg)), 0);
  } else {
    xld16(t, 0, xm(R_CPU, yoff(in->reg)));
    if (in->pfx & CPU_PFX_MEM) {
      ea(t, in, 0);
      if (align) align16(t, k);
      vmem_st(t, k, 0, 16);
      return;
    }
    xst16(t, xm(R_CPU, yoff(in->rm)), 0);
  }
  if (vex) vzero_hi(t, r);
}

static void emit_xmov(struct tr *t, const struct cpu_insn *in, unsigned k,
                      unsigned form) {
  int mem = (in->pfx & CPU_PFX_MEM) != 0, load = form == CPU_FORM_X_W;
  switch (in->id) {
    case X86_INS_MOVSD:
    case X86_INS_MOVSS: {
      /* from memory zero-extended; between registers the low element */
      unsigned sz = in->id == X86_INS_MOVSD ? 8 : 4;
      if (load && mem) {
        ea(t, in, 0);
        mem_ld(t, k, sz, R_A);
        xmm_set64(t, in->reg, R_A);
      } else if (load) {
        vlow_ld(t, R_A, in->rm, sz);
        vlow_st(t, in->reg, sz, R_A);
      } else {
        vlow_ld(t, R_A, in->reg, sz);
        if (mem) ea(t, in, 0);
        if (mem)
          mem_st(t, k, sz, R_A);
        else
          vlow_st(t, in->rm, sz, R_A);
      }
      return;
    }
    case X86_INS_MOVQ:
    case X86_INS_MOVD:
      if (form == CPU_FORM_X_Ey || form == CPU_FORM_Ey_X) {
        unsigned sz =
            (in->pfx & CPU_PFX_REXW) || in->id == X86_INS_MOVQ ? 8 : 4;
        if (mem) ea(t, in, 0);
        if (form == CPU_FORM_X_Ey) {
          rm_read(t, in, k, sz, R_A);
          xmm_set64(t, in->reg, R_A);
        } else {
          ld64(t, R_A, xm(R_CPU, yoff(in->reg)));
          rm_write(t, in, k, sz, R_A);
        }
        return;
      }
      /* movq xmm, xmm/m64 (F3 0F 7E) and movq xmm/m64, xmm (66 0F D6):
       * 8 bytes, zero-extended into a register */
      if (load) {
        if (mem) ea(t, in, 0);
        if (mem)
          mem_ld(t, k, 8, R_A);
        else
          ld64(t, R_A, xm(R_CPU, yoff(in->rm)));
        xmm_set64(t, in->reg, R_A);
      } else {
        ld64(t, R_A, xm(R_CPU, yoff(in->reg)));
        if (mem) ea(t, in, 0);
        if (mem)
          mem_st(t, k, 8, R_A);
        else
          xmm_set64(t, in->rm, R_A);
      }
      return;
    default: {
      /* the 16-byte moves */
      int align = in->id == X86_INS_MOVAPS || in->id == X86_INS_MOVAPD ||
                  in->id == X86_INS_MOVDQA;
      mov16(t, in, k, load, align, 0);
      return;
    }
  }
}

static void emit_vmov(struct tr *t, const struct cpu_insn *in, unsigned k,
                      unsigned form) {
  int mem = (in->pfx & CPU_PFX_MEM) != 0;
  switch (in->id) {
    case X86_INS_VMOVSD:
    case X86_INS_VMOVSS: {
      unsigned sz = in->id == X86_INS_VMOVSD ? 8 : 4;
      if (form == CPU_FORM_V_M) {
        ea(t, in, 0);
        mem_ld(t, k, sz, R_A);
        xmm_set64(t, in->reg, R_A);
        vzero_hi(t, in->reg);
      } else if (form == CPU_FORM_M_V) {
        vlow_ld(t, R_A, in->reg, sz);
        ea(t, in, 0);
        mem_st(t, k, sz, R_A);
      } else {
        /* the low element of rm over vvvv */
        vlow_ld(t, R_A, in->rm, sz);
        xld16(t, 0, xm(R_CPU, yoff(in->reg2)));
        xst16(t, xm(R_CPU, yoff(in->reg)), 0);
        vlow_st(t, in->reg, sz, R_A);
        vzero_hi(t, in->reg);
      }
      return;
    }
    case X86_INS_VMOVQ:
    case X86_INS_VMOVD:
      if (form == CPU_FORM_V_W) {
        if (mem) ea(t, in, 0);
        if (mem)
          mem_ld(t, k, 8, R_A);
        else
          ld64(t, R_A, xm(R_CPU, yoff(in->rm)));
        xmm_set64(t, in->reg, R_A);
        vzero_hi(t, in->reg);
      } else if (form == CPU_FORM_M_V) {
        ld64(t, R_A, xm(R_CPU, yoff(in->reg)));
        ea(t, in, 0);
        mem_st(t, k, 8, R_A);
      } else {
        unsigned sz = in->pfx & CPU_PFX_REXW ? 8 : 4;
        if (mem) ea(t, in, 0);
        if (form == CPU_FORM_V_Ey) {
          rm_read(t, in, k, sz, R_A);
          xmm_set64(t, in->reg, R_A);
          vzero_hi(t, in->reg);
        } else {
          ld64(t, R_A, xm(R_CPU, yoff(in->reg)));
          rm_write(t, in, k, sz, R_A);
        }
      }
      return;
    default: {
      int align = in->id == X86_INS_VMOVAPS || in->id == X86_INS_VMOVAPD ||
                  in->id == X86_INS_VMOVDQA;
      if (cpu__vex256(in))
        mov32(t, in, k, form == CPU_FORM_V_W, align);
      else
        mov16(t, in, k, form == CPU_FORM_V_W, align, 1);
      return;
    }
  }
}

void cpu__jit_sse_emit(struct tr *t, const struct cpu_insn *in, unsigned k,
                       int kind, unsigned form) {
  struct xrm dst = xm(R_CPU, yoff(in->reg));
  switch (kind) {
    case J_SSE: {
      const struct sse_op *o = sse_op(in->id);
      w_read(t, in, k, o->msz, 1, o->fl & SO_ALIGN);
      if (o->fl & SO_MX) mx_check(t, k);
      xld16(t, 0, dst);
      sse_enc(t, o->pfx, o->op, 0, 0, xr(1));
      xst16(t, dst, 0);
      if (o->fl & SO_MX) mx_flags(t);
      break;
    }
    case J_XMOV:
      emit_xmov(t, in, k, form);
      break;
    case J_VMOV:
      emit_vmov(t, in, k, form);
      break;
    case J_VSSE: {
      const struct sse_op *o = sse_op(in->id);
      if (cpu__vex256(in)) {
        /* the host's VEX.256 form: ymm0 = ymm0 (vvvv) OP ymm1 (rm) */
        yw_read(t, in, k, 1, 0);
        if (o->fl & SO_MX) mx_check(t, k);
        yld32(t, 0, xm(R_CPU, yoff(in->reg2)));
        venc(t, 1, 0, 0, 1, vex_pp(o->pfx), o->op, 0, xr(1));
        ymm_put(t, in->reg, 0);
        if (o->fl & SO_MX) mx_flags(t);
        break;
      }
      /* vvvv OP rm into reg, through the legacy instruction: its result
       * keeps vvvv's bits that the VEX form keeps */
      w_read(t, in, k, o->msz, 1, 0);
      if (o->fl & SO_MX) mx_check(t, k);
      xld16(t, 0, xm(R_CPU, yoff(in->reg2)));
      sse_enc(t, o->pfx, o->op, 0, 0, xr(1));
      xst16(t, dst, 0);
      vzero_hi(t, in->reg);
      if (o->fl & SO_MX) mx_flags(t);
      break;
    }
    case J_VFMA: {
      /* the host's vfm* xmm0 (reg), xmm1 (vvvv), xmm2 (rm) */
      const struct fma_op *f = fma_op(in->id);
      int dbl = (in->pfx & CPU_PFX_REXW) != 0, y = cpu__vex256(in);
      if (y)
        yw_read(t, in, k, 2, 0);
      else
        w_read(t, in, k, f->scalar ? (dbl ? 8u : 4u) : 16u, 2, 0);
      mx_check(t, k);
      if (y) {
        yld32(t, 0, dst);
        yld32(t, 1, xm(R_CPU, yoff(in->reg2)));
      } else {
        xld16(t, 0, dst);
        xld16(t, 1, xm(R_CPU, yoff(in->reg2)));
      }
      venc(t, 2, dbl, 1, y, 1, f->op, 0, xr(2)); /* map 0F38, 66 */
      if (y) {
        ymm_put(t, in->reg, 0);
      } else {
        xst16(t, dst, 0);
        vzero_hi(t, in->reg);
      }
      mx_flags(t);
      break;
    }
    case J_VCVTI: {
      unsigned sz = in->pfx & CPU_PFX_REXW ? 8 : 4;
      if (in->pfx & CPU_PFX_MEM) ea(t, in, 0);
      rm_read(t, in, k, sz, R_A);
      mx_check(t, k);
      xld16(t, 0, xm(R_CPU, yoff(in->reg2)));
      sse_enc(t, in->id == X86_INS_VCVTSI2SD ? 0xf2 : 0xf3, 0x2a, sz == 8, 0,
              xr(R_A));
      xst16(t, dst, 0);
      vzero_hi(t, in->reg);
      mx_flags(t);
      break;
    }
    case J_CVTI: {
      unsigned sz = in->pfx & CPU_PFX_REXW ? 8 : 4;
      if (in->pfx & CPU_PFX_MEM) ea(t, in, 0);
      rm_read(t, in, k, sz, R_A);
      mx_check(t, k);
      xld16(t, 0, dst);
      sse_enc(t, in->id == X86_INS_CVTSI2SD ? 0xf2 : 0xf3, 0x2a, sz == 8, 0,
              xr(R_A));
      xst16(t, dst, 0);
      mx_flags(t);
      break;
    }
    case J_CVTF: {
      unsigned sz = in->pfx & CPU_PFX_REXW ? 8 : 4;
      int dbl = in->id == X86_INS_CVTSD2SI || in->id == X86_INS_CVTTSD2SI ||
                in->id == X86_INS_VCVTSD2SI || in->id == X86_INS_VCVTTSD2SI;
      int trunc = in->id == X86_INS_CVTTSD2SI ||
                  in->id == X86_INS_CVTTSS2SI ||
                  in->id == X86_INS_VCVTTSD2SI || in->id == X86_INS_VCVTTSS2SI;
      w_read(t, in, k, dbl ? 8 : 4, 1, 0);
      mx_check(t, k);
      sse_enc(t, dbl ? 0xf2 : 0xf3, trunc ? 0x2c : 0x2d, sz == 8, R_R, xr(1));
      set_reg(t, in->reg, sz, R_R);
      mx_flags(t);
      break;
    }
    case J_COMI: {
      int dbl = in->id == X86_INS_COMISD || in->id == X86_INS_UCOMISD ||
                in->id == X86_INS_VCOMISD || in->id == X86_INS_VUCOMISD;
      int sig = in->id == X86_INS_COMISD || in->id == X86_INS_COMISS ||
                in->id == X86_INS_VCOMISD || in->id == X86_INS_VCOMISS;
      w_read(t, in, k, dbl ? 8 : 4, 1, 0);
      mx_check(t, k);
      xld16(t, 0, dst);
      sse_enc(t, dbl ? 0x66 : 0, sig ? 0x2f : 0x2e, 0, 0, xr(1));
      b1(t, 0x9c);                        /* pushfq */
      b1(t, 0x58);                        /* pop rax */
      enc(t, 4, 0x83, 1, 4, xr(H_AX), 0); /* and eax, ZF|PF|CF */
      b1(t, CPU_ZF | CPU_PF | CPU_CF);
      /* cpu__flags_set's form: {CC_EFLAGS, 0, flags, 0} */
      st_const32(t, CC_OFF(op), CC_EFLAGS);
      st_const64(t, CC_OFF(dst), 0);
      st64(t, xm(R_CPU, CC_OFF(src1)), H_AX);
      st_const64(t, CC_OFF(src2), 0);
      t->cc_kind = CC_EFLAGS;
      t->cc_sz = 8;
      mx_flags(t);
      break;
    }
    case J_MOVMSK: {
      /* the host's own, into a general register zero-extended */
      int y = cpu__vex256(in);
      unsigned op = in->id == X86_INS_PMOVMSKB || in->id == X86_INS_VPMOVMSKB
                        ? 0xd7
                        : 0x50;
      unsigned pp = in->id == X86_INS_MOVMSKPS || in->id == X86_INS_VMOVMSKPS
                        ? 0
                        : 1;
      if (y) {
        yld32(t, 1, xm(R_CPU, yoff(in->rm)));
        venc(t, 1, 0, 0, 1, pp, op, R_A, xr(1));
        host_vzeroupper(t);
      } else {
        xld16(t, 1, xm(R_CPU, yoff(in->rm)));
        sse_enc(t, pp ? 0x66 : 0, op, 0, R_A, xr(1));
      }
      set_reg(t, in->reg, 8, R_A);
      break;
    }
    case J_HX: {
      /* the host's own on xmm2 (reg) and xmm1 (rm), xmm0 the guest's */
      const struct hx_op *o = hx_op(in->id, 0);
      w_read(t, in, k, 16, 1, 1);
      if (in->id == X86_INS_SHA256RNDS2) xld16(t, 0, xm(R_CPU, yoff(0)));
      xld16(t, 2, dst);
      if (o->pfx) b1(t, o->pfx);
      if (o->map == 1)
        enc(t, 4, 0x0f00u | o->op, 2, 2, xr(1), 0);
      else
        enc(t, 4, (o->map == 2 ? 0x0f3800u : 0x0f3a00u) | o->op, 3, 2, xr(1),
            0);
      if (o->imm) b1(t, (u8)in->imm);
      xst16(t, dst, 2);
      break;
    }
    case J_VHX: {
      /* the host's own: x/ymm0 = x/ymm0 (vvvv) OP x/ymm1 (rm) */
      const struct hx_op *o = hx_op(in->id, 1);
      int y = cpu__vex256(in);
      if (y) {
        yw_read(t, in, k, 1, 0);
        yld32(t, 0, xm(R_CPU, yoff(in->reg2)));
      } else {
        w_read(t, in, k, 16, 1, 0);
        xld16(t, 0, xm(R_CPU, yoff(in->reg2)));
      }
      venc(t, o->map, 0, 0, y, 1, o->op, 0, xr(1));
      if (o->imm) b1(t, (u8)in->imm);
      if (y) {
        ymm_put(t, in->reg, 0);
      } else {
        xst16(t, dst, 0);
        vzero_hi(t, in->reg);
      }
      break;
    }
    case J_VZU: {
      /* the XINUSE bits before it in the block, then its clearing
       * (CPU__DEC_XCLEAR); bits 511:128 of YMM0-15 zeroed */
      if (in->imm) {
        enc(t, 4, 0x81, 1, 1, xm(R_CPU, OFF(xinuse)), 0); /* or */
        b4(t, (u32)in->imm);
      }
      enc(t, 4, 0x81, 1, 4, xm(R_CPU, OFF(xinuse)), 0); /* and */
      b4(t, ~(u32)(CPU_XIN_AVX | CPU_XIN_ZMMH));
      venc(t, 1, 0, 2, 1, 0, 0x57, 2, xr(2)); /* vxorps ymm2, ymm2, ymm2 */
      for (unsigned r = 0; r < 16; r++) {
        xst16(t, xm(R_CPU, yoff(r) + 16), 2);
        yst32(t, xm(R_CPU, OFF(zmmh) + (i32)sizeof(union cpu_vec) * (i32)r),
              2);
      }
      host_vzeroupper(t);
      break;
    }
    default:
      break;
  }
  ool_back(t);
}

unsigned cpu__jit_sse_props(const struct cpu_insn *in, int kind) {
  switch (kind) {
    case J_SSE:
    case J_VSSE:
      return sse_op(in->id)->fl & SO_MX ? P_EXIT : 0;
    case J_CVTI:
    case J_CVTF:
    case J_VFMA:
    case J_VCVTI:
      return P_EXIT;
    case J_COMI:
      return P_WRITE | P_EXIT;
    default:
      return 0;
  }
}
