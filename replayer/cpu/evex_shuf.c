/* SPDX-License-Identifier: MIT */
/* The EVEX floating-point shuffles (vpermilps/pd, vshufps/pd, the
 * duplicating moves vmovddup, vmovshdup, vmovsldup), the word shuffles
 * vpshufhw/lw, the 64-bit broadcasts vbroadcastf32x2/i32x2, and the
 * 128-bit element inserts and extracts (vinsertps, vextractps, vpinsr*,
 * vpextr*, vmov{h,l}{ps,pd}, vmovhlps, vmovlhps), with their rows (the
 * decoder is evex.c's).
 *
 * Measured on AMD Zen 5: every shuffle and duplicating move here
 * (vmovddup xmm, m64 included, and vpermilps/pd's control vector) reads
 * its whole memory operand and faults on it even with an all-zero opmask;
 * vbroadcastf32x2/i32x2 instead read only the dwords some enabled element
 * copies. EVEX.W is ignored by vpinsrb/w, vpextrb/w, vextractps and
 * vpshufhw/lw, and enforced (#UD) where the rows say W0 or W1; a 32-bit
 * general-register destination is zero-extended to 64 bits; an opmask,
 * EVEX.z, EVEX.b or a length other than 128 bits is #UD on the inserts,
 * the extracts and the qword-half moves. */
#include "replayer/cpu/evex.h"

/* ---- Shuffles within 128-bit lanes ------------------------------------- */

/* vpermilps/pd by a vector: each element of vvvv's lane picked by the
 * control element of rm at the same position (bits 1:0 of a dword, bit 1
 * of a qword). */
static int permil_var(struct cpu *cpu, const struct cpu_insn *in,
                      unsigned esz) {
  union zv a, c, r;
  CPU_TRY(zsrc_all(cpu, in, esz, &c));
  zget(cpu, in->reg2, &a);
  for (unsigned i = 0; i < in->osz / esz; i++)
    if (esz == 4)
      r.d[i] = a.d[(i & ~3u) + (c.d[i] & 3)];
    else
      r.q[i] = a.q[(i & ~1u) + ((c.q[i] >> 1) & 1)];
  zput(cpu, in, in->reg, &r, esz);
  return CPU_RC_NEXT;
}
EV_OP(vpermilps_V_H_W, permil_var(cpu, in, 4))
EV_OP(vpermilpd_V_H_W, permil_var(cpu, in, 8))

/* vpermilps/pd by imm8: two bits per dword position of a lane, or one
 * bit per qword (bit i for qword i). */
static int permil_imm(struct cpu *cpu, const struct cpu_insn *in,
                      unsigned esz) {
  union zv s, r;
  unsigned imm = (u8)in->imm;
  CPU_TRY(zsrc_all(cpu, in, esz, &s));
  for (unsigned i = 0; i < in->osz / esz; i++)
    if (esz == 4)
      r.d[i] = s.d[(i & ~3u) + ((imm >> (2 * (i & 3))) & 3)];
    else
      r.q[i] = s.q[(i & ~1u) + ((imm >> (i & 7)) & 1)];
  zput(cpu, in, in->reg, &r, esz);
  return CPU_RC_NEXT;
}
EV_OP(vpermilps_V_W_I, permil_imm(cpu, in, 4))
EV_OP(vpermilpd_V_W_I, permil_imm(cpu, in, 8))

/* vshufps/pd: per lane, the low half of the result from vvvv and the high
 * half from rm, elements chosen by imm8 (two bits per dword, the same
 * four selectors in every lane; one bit per qword). */
static int shufp(struct cpu *cpu, const struct cpu_insn *in, unsigned esz) {
  union zv a, b, r;
  unsigned imm = (u8)in->imm;
  CPU_TRY(zsrc_all(cpu, in, esz, &b));
  zget(cpu, in->reg2, &a);
  for (unsigned i = 0; i < in->osz / esz; i++)
    if (esz == 4) {
      const union zv *s = (i & 2) ? &b : &a;
      r.d[i] = s->d[(i & ~3u) + ((imm >> (2 * (i & 3))) & 3)];
    } else {
      const union zv *s = (i & 1) ? &b : &a;
      r.q[i] = s->q[(i & ~1u) + ((imm >> (i & 7)) & 1)];
    }
  zput(cpu, in, in->reg, &r, esz);
  return CPU_RC_NEXT;
}
EV_OP(vshufps, shufp(cpu, in, 4))
EV_OP(vshufpd, shufp(cpu, in, 8))

/* vpshufhw/lw: per lane, four words (the high or low half) chosen by
 * imm8, the other four copied. */
static int pshufw(struct cpu *cpu, const struct cpu_insn *in, int high) {
  union zv s, r;
  unsigned imm = (u8)in->imm, h = high ? 4 : 0;
  CPU_TRY(zsrc_all(cpu, in, 2, &s));
  for (unsigned i = 0; i < in->osz / 2; i++) {
    unsigned k = i & 7;
    if ((k & 4) == h)
      r.w[i] = s.w[(i & ~3u) + ((imm >> (2 * (k & 3))) & 3)];
    else
      r.w[i] = s.w[i];
  }
  zput(cpu, in, in->reg, &r, 2);
  return CPU_RC_NEXT;
}
EV_OP(vpshufhw, pshufw(cpu, in, 1))
EV_OP(vpshuflw, pshufw(cpu, in, 0))

/* ---- Duplicating moves and broadcasts ---------------------------------- */

/* vmovsldup/vmovshdup: the even (or odd) dword of each pair twice. */
static int movsdup(struct cpu *cpu, const struct cpu_insn *in, int odd) {
  union zv s, r;
  CPU_TRY(zsrc_all(cpu, in, 4, &s));
  for (unsigned i = 0; i < in->osz / 4; i++)
    r.d[i] = s.d[(i & ~1u) + (unsigned)odd];
  zput(cpu, in, in->reg, &r, 4);
  return CPU_RC_NEXT;
}
EV_OP(vmovsldup, movsdup(cpu, in, 0))
EV_OP(vmovshdup, movsdup(cpu, in, 1))

/* vmovddup: the even qword of each pair twice; at 128 bits memory is one
 * qword. */
static int op_vmovddup(struct cpu *cpu, const struct cpu_insn *in) {
  union zv s, r;
  if ((in->pfx & CPU_PFX_MEM) && in->osz == 16)
    CPU_TRY(cpu_ld(cpu, cpu_ea(cpu, in), 8, &s.q[0]));
  else
    CPU_TRY(zsrc_all(cpu, in, 8, &s));
  for (unsigned i = 0; i < in->osz / 8; i++) r.q[i] = s.q[i & ~1u];
  zput(cpu, in, in->reg, &r, 8);
  return CPU_RC_NEXT;
}

/* vbroadcastf32x2/i32x2: the low two dwords of rm repeated, masked by
 * dwords; a dword of memory no enabled element needs is not read (it
 * cannot fault). */
static int op_vbroadcast32x2(struct cpu *cpu, const struct cpu_insn *in) {
  union zv s, r;
  unsigned n = in->osz / 4;
  u64 m = kmask(cpu, in, n), used = 0;
  for (unsigned i = 0; i < n; i += 2) used |= (m >> i) & 3;
  if (in->pfx & CPU_PFX_MEM)
    CPU_TRY(cpu__ev_ld_masked(cpu, cpu_ea(cpu, in), &s, 4, 2, used));
  else
    s.q[0] = cpu->ymm[in->rm].q[0];
  for (unsigned i = 0; i < n / 2; i++) r.q[i] = s.q[0];
  zput(cpu, in, in->reg, &r, 4);
  return CPU_RC_NEXT;
}

/* ---- Inserts and extracts (128 bits, no masking) ----------------------- */

/* vinsertps: vvvv with dword imm[5:4] replaced by rm's dword imm[7:6] (a
 * dword of memory), then the dwords of imm[3:0] zeroed. */
static int op_vinsertps(struct cpu *cpu, const struct cpu_insn *in) {
  union zv a;
  unsigned imm = (u8)in->imm;
  u64 x;
  if (in->pfx & CPU_PFX_MEM)
    CPU_TRY(cpu_ld(cpu, cpu_ea(cpu, in), 4, &x));
  else
    x = cpu->ymm[in->rm].d[imm >> 6];
  zget(cpu, in->reg2, &a);
  a.d[(imm >> 4) & 3] = (u32)x;
  for (unsigned i = 0; i < 4; i++)
    if ((imm >> i) & 1) a.d[i] = 0;
  zput(cpu, in, in->reg, &a, 4);
  return CPU_RC_NEXT;
}

/* vpinsrb/w/d/q: vvvv with element imm8 (modulo the count) replaced by
 * the low ESZ bytes of a general register or memory. */
static int pinsr(struct cpu *cpu, const struct cpu_insn *in, unsigned esz) {
  union zv a;
  u64 x;
  if (in->pfx & CPU_PFX_MEM)
    CPU_TRY(cpu_ld(cpu, cpu_ea(cpu, in), esz, &x));
  else
    x = cpu->gpr[in->rm];
  zget(cpu, in->reg2, &a);
  memcpy(a.b + esz * ((unsigned)in->imm & (16 / esz - 1)), &x, esz);
  zput(cpu, in, in->reg, &a, esz);
  return CPU_RC_NEXT;
}
EV_OP(vpinsrb, pinsr(cpu, in, 1))
EV_OP(vpinsrw, pinsr(cpu, in, 2))
EV_OP(vpinsrd, pinsr(cpu, in, 4))
EV_OP(vpinsrq, pinsr(cpu, in, 8))

/* vpextrb/w/d/q, vextractps: element imm8 (modulo the count) of reg into
 * memory, or zero-extended into a whole general register. */
static int pextr(struct cpu *cpu, const struct cpu_insn *in, unsigned esz) {
  u64 x = 0;
  memcpy(&x, cpu->ymm[in->reg].b + esz * ((unsigned)in->imm & (16 / esz - 1)),
         esz);
  if (in->pfx & CPU_PFX_MEM) return cpu_st(cpu, cpu_ea(cpu, in), esz, x);
  cpu->gpr[in->rm] = x;
  return CPU_RC_NEXT;
}
EV_OP(vpextrb, pextr(cpu, in, 1))
EV_OP(vpextrw, pextr(cpu, in, 2))
EV_OP(vpextrd, pextr(cpu, in, 4))
EV_OP(vpextrq, pextr(cpu, in, 8))

/* vpextrw's older form (0F C5): a word of the register rm into the general
 * register reg. */
static int op_vpextrw_G_W(struct cpu *cpu, const struct cpu_insn *in) {
  cpu->gpr[in->reg] = cpu->ymm[in->rm].w[(unsigned)in->imm & 7];
  return CPU_RC_NEXT;
}

/* vmovlps/pd, vmovhps/pd loads: vvvv with its low (or high) qword
 * replaced by the qword of memory. */
static int movq_load(struct cpu *cpu, const struct cpu_insn *in, int high) {
  union zv a;
  u64 x;
  CPU_TRY(cpu_ld(cpu, cpu_ea(cpu, in), 8, &x));
  zget(cpu, in->reg2, &a);
  a.q[high] = x;
  zput(cpu, in, in->reg, &a, 8);
  return CPU_RC_NEXT;
}
EV_OP(vmovlps_V_H_M, movq_load(cpu, in, 0))
EV_OP(vmovhps_V_H_M, movq_load(cpu, in, 1))

/* vmovlps/pd, vmovhps/pd stores: the low (or high) qword of reg. */
EV_OP(vmovlps_M_V, cpu_st(cpu, cpu_ea(cpu, in), 8, cpu->ymm[in->reg].q[0]))
EV_OP(vmovhps_M_V, cpu_st(cpu, cpu_ea(cpu, in), 8, cpu->ymm[in->reg].q[1]))

/* vmovhlps: rm's high qword, then vvvv's; vmovlhps: vvvv's low qword,
 * then rm's. */
static int movhl(struct cpu *cpu, const struct cpu_insn *in, int lh) {
  union zv r;
  u64 a0 = cpu->ymm[in->reg2].q[0], a1 = cpu->ymm[in->reg2].q[1];
  u64 b0 = cpu->ymm[in->rm].q[0], b1 = cpu->ymm[in->rm].q[1];
  r.q[0] = lh ? a0 : b1;
  r.q[1] = lh ? b0 : a1;
  zput(cpu, in, in->reg, &r, 8);
  return CPU_RC_NEXT;
}
EV_OP(vmovhlps, movhl(cpu, in, 0))
EV_OP(vmovlhps, movhl(cpu, in, 1))

/* ---- The table ---------------------------------------------------------- */

/* 0F 12 and 0F 16 without a prefix are two instructions each, told apart
 * by the kind of rm: their R_MEM and R_REG rows. */
const struct ev_row cpu__evex_shuf_rows[] = {
    /* in-lane shuffles */
    E(0F38, 66, 0C, W0, X, VHW, 4, FV, R_BC, vpermilps, op_vpermilps_V_H_W)
    E(0F38, 66, 0D, W1, X, VHW, 8, FV, R_BC, vpermilpd, op_vpermilpd_V_H_W)
    E(0F3A, 66, 04, W0, X, VWI, 4, FV, R_BC, vpermilps, op_vpermilps_V_W_I)
    E(0F3A, 66, 05, W1, X, VWI, 8, FV, R_BC, vpermilpd, op_vpermilpd_V_W_I)
    E(0F, NONE, C6, W0, X, VHWI, 4, FV, R_BC, vshufps, op_vshufps)
    E(0F, 66, C6, W1, X, VHWI, 8, FV, R_BC, vshufpd, op_vshufpd)
    E(0F, F3, 70, WIG, X, VWI, 2, FVM, 0, vpshufhw, op_vpshufhw)
    E(0F, F2, 70, WIG, X, VWI, 2, FVM, 0, vpshuflw, op_vpshuflw)
    /* duplicating moves, 64-bit broadcasts */
    E(0F, F2, 12, W1, X, VW, 8, DUP, 0, vmovddup, op_vmovddup)
    E(0F, F3, 12, W0, X, VW, 4, FVM, 0, vmovsldup, op_vmovsldup)
    E(0F, F3, 16, W0, X, VW, 4, FVM, 0, vmovshdup, op_vmovshdup)
    E(0F38, 66, 19, W0, X, VW, 4, T2, R_V256, vbroadcastf32x2,
      op_vbroadcast32x2)
    E(0F38, 66, 59, W0, X, VW, 4, T2, 0, vbroadcasti32x2, op_vbroadcast32x2)
    /* inserts and extracts */
    E(0F3A, 66, 21, W0, X, VHWI, 4, T1S, R_L128 | R_NOMASK, vinsertps,
      op_vinsertps)
    E(0F3A, 66, 17, WIG, X, EVI, 4, T1S, R_L128 | R_NOMASK, vextractps,
      op_vpextrd)
    E(0F3A, 66, 20, WIG, X, VHEI, 1, T1S, R_L128 | R_NOMASK, vpinsrb,
      op_vpinsrb)
    E(0F, 66, C4, WIG, X, VHEI, 2, T1S, R_L128 | R_NOMASK, vpinsrw,
      op_vpinsrw)
    E(0F3A, 66, 22, W0, X, VHEI, 4, T1S, R_L128 | R_NOMASK, vpinsrd,
      op_vpinsrd)
    E(0F3A, 66, 22, W1, X, VHEI, 8, T1S, R_L128 | R_NOMASK, vpinsrq,
      op_vpinsrq)
    E(0F3A, 66, 14, WIG, X, EVI, 1, T1S, R_L128 | R_NOMASK, vpextrb,
      op_vpextrb)
    E(0F3A, 66, 15, WIG, X, EVI, 2, T1S, R_L128 | R_NOMASK, vpextrw,
      op_vpextrw)
    E(0F, 66, C5, WIG, X, GWI, 2, T1S, R_L128 | R_NOMASK | R_REG, vpextrw,
      op_vpextrw_G_W)
    E(0F3A, 66, 16, W0, X, EVI, 4, T1S, R_L128 | R_NOMASK, vpextrd,
      op_vpextrd)
    E(0F3A, 66, 16, W1, X, EVI, 8, T1S, R_L128 | R_NOMASK, vpextrq,
      op_vpextrq)
    /* qword halves */
#define HL (R_L128 | R_NOMASK)
    E(0F, NONE, 12, W0, X, VHW, 8, T1S, HL | R_MEM, vmovlps, op_vmovlps_V_H_M)
    E(0F, NONE, 12, W0, X, VHW, 8, T1S, HL | R_REG, vmovhlps, op_vmovhlps)
    E(0F, NONE, 13, W0, X, WV, 8, T1S, HL | R_MEM, vmovlps, op_vmovlps_M_V)
    E(0F, NONE, 16, W0, X, VHW, 8, T1S, HL | R_MEM, vmovhps, op_vmovhps_V_H_M)
    E(0F, NONE, 16, W0, X, VHW, 8, T1S, HL | R_REG, vmovlhps, op_vmovlhps)
    E(0F, NONE, 17, W0, X, WV, 8, T1S, HL | R_MEM, vmovhps, op_vmovhps_M_V)
    E(0F, 66, 12, W1, X, VHW, 8, T1S, HL | R_MEM, vmovlpd, op_vmovlps_V_H_M)
    E(0F, 66, 13, W1, X, WV, 8, T1S, HL | R_MEM, vmovlpd, op_vmovlps_M_V)
    E(0F, 66, 16, W1, X, VHW, 8, T1S, HL | R_MEM, vmovhpd, op_vmovhps_V_H_M)
    E(0F, 66, 17, W1, X, WV, 8, T1S, HL | R_MEM, vmovhpd, op_vmovhps_M_V)
#undef HL
};
#undef E
#undef X

const size_t cpu__evex_shuf_nrows =
    sizeof cpu__evex_shuf_rows / sizeof cpu__evex_shuf_rows[0];
