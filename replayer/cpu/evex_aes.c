/* SPDX-License-Identifier: MIT */
/* The EVEX forms of VAES (vaesenc, vaesenclast, vaesdec, vaesdeclast),
 * VPCLMULQDQ and GFNI (vgf2p8affineqb, vgf2p8affineinvqb, vgf2p8mulb), and
 * their rows (the decoder is evex.c's). They do at 128, 256 or 512 bits,
 * with registers 0-31, what the SSE and VEX forms do, through the same
 * routines of crypto.c and gfni.c: VAES and VPCLMULQDQ one 128-bit lane
 * at a time, GFNI 32 bytes at a time.
 *
 * VAES and VPCLMULQDQ take no opmask (an aaa other than 0 is #UD) and no
 * broadcast, and read their whole memory operand. The GFNI ones mask
 * bytes (see gf_op for which bytes of memory they read); the affine ones
 * may broadcast one qword, the matrix of every byte. No flags or MXCSR
 * bits change; the only faults are those of the memory read. */
#include "replayer/cpu/evex.h"

/* Lane I (16 bytes) of V into *L, and back. */
static void lane_get(union cpu_vec *l, const union zv *v, unsigned i) {
  memcpy(l->b, v->b + 16 * i, 16);
}
static void lane_put(union zv *v, unsigned i, const union cpu_vec *l) {
  memcpy(v->b + 16 * i, l->b, 16);
}

/* What lane_op computes: an AES round (CPU_AES_*) or pclmulqdq. */
enum { LANE_CLMUL = CPU_AES_DECLAST + 1 };

/* reg = OP(vvvv, rm) on each 128-bit lane: for AES, vvvv is the state and
 * rm the round key. */
static int lane_op(struct cpu *cpu, const struct cpu_insn *in, int op) {
  union zv a, b, r;
  union cpu_vec x, y, d;
  CPU_TRY(zsrc_all(cpu, in, 16, &b));
  zget(cpu, in->reg2, &a);
  for (unsigned i = 0; i < in->osz / 16u; i++) {
    lane_get(&x, &a, i);
    lane_get(&y, &b, i);
    if (op == LANE_CLMUL)
      cpu__pclmulqdq_lane(&d, &x, &y, cpu__imm8(in));
    else
      cpu__aes_lane(op, &d, &x, &y);
    lane_put(&r, i, &d);
  }
  zput(cpu, in, in->reg, &r, 16);
  return CPU_RC_NEXT;
}

EV_OP(vaesenc, lane_op(cpu, in, CPU_AES_ENC))
EV_OP(vaesenclast, lane_op(cpu, in, CPU_AES_ENCLAST))
EV_OP(vaesdec, lane_op(cpu, in, CPU_AES_DEC))
EV_OP(vaesdeclast, lane_op(cpu, in, CPU_AES_DECLAST))
EV_OP(vpclmulqdq, lane_op(cpu, in, LANE_CLMUL))

/* reg = OP(vvvv, rm[, imm8]) on bytes, under a byte opmask: for the affine
 * ones rm holds a matrix per qword (or one broadcast qword). vgf2p8mulb
 * reads only the bytes the opmask enables, so masked-off ones cannot
 * fault; the affine ones read their whole memory operand, or the
 * broadcast qword, whatever the opmask (measured on AMD Zen 5, also with
 * an opmask of zero). */
static int gf_op(struct cpu *cpu, const struct cpu_insn *in, int op) {
  union zv a, b, r;
  union cpu_vec x, y, d;
  if (op == CPU_GF_MUL)
    CPU_TRY(zsrc(cpu, in, 1, &b));
  else
    CPU_TRY(zsrc_all(cpu, in, 8, &b));
  zget(cpu, in->reg2, &a);
  for (unsigned h = 0; h < in->osz; h += 32) {
    unsigned n = in->osz - h < 32 ? in->osz - h : 32;
    memcpy(x.b, a.b + h, n);
    memcpy(y.b, b.b + h, n);
    cpu__gf_run(op, &d, &x, &y, cpu__imm8(in), n);
    memcpy(r.b + h, d.b, n);
  }
  zput(cpu, in, in->reg, &r, 1);
  return CPU_RC_NEXT;
}

EV_OP(vgf2p8affineqb, gf_op(cpu, in, CPU_GF_AFFINE))
EV_OP(vgf2p8affineinvqb, gf_op(cpu, in, CPU_GF_AFFINEINV))
EV_OP(vgf2p8mulb, gf_op(cpu, in, CPU_GF_MUL))

/* esz 16 for VAES and VPCLMULQDQ: their elements are the lanes (they
 * have no opmask), and W is ignored (WIG; on Zen 5 too). The GFNI opmask
 * has a bit per byte, and the wrong W is #UD. vaesimc and
 * vaeskeygenassist have no EVEX form (the CPU raises #UD; here their
 * bytes have no row). */
const struct ev_row cpu__evex_aes_rows[] = {
    E(0F38, 66, DC, WIG, X, VHW, 16, FVM, R_NOMASK, vaesenc, op_vaesenc)
    E(0F38, 66, DD, WIG, X, VHW, 16, FVM, R_NOMASK, vaesenclast,
      op_vaesenclast)
    E(0F38, 66, DE, WIG, X, VHW, 16, FVM, R_NOMASK, vaesdec, op_vaesdec)
    E(0F38, 66, DF, WIG, X, VHW, 16, FVM, R_NOMASK, vaesdeclast,
      op_vaesdeclast)
    E(0F3A, 66, 44, WIG, X, VHWI, 16, FVM, R_NOMASK, vpclmulqdq,
      op_vpclmulqdq)
    E(0F3A, 66, CE, W1, X, VHWI, 1, FV, R_BC | R_B8, vgf2p8affineqb,
      op_vgf2p8affineqb)
    E(0F3A, 66, CF, W1, X, VHWI, 1, FV, R_BC | R_B8, vgf2p8affineinvqb,
      op_vgf2p8affineinvqb)
    E(0F38, 66, CF, W0, X, VHW, 1, FVM, 0, vgf2p8mulb, op_vgf2p8mulb)
};
#undef E
#undef X

const size_t cpu__evex_aes_nrows =
    sizeof cpu__evex_aes_rows / sizeof cpu__evex_aes_rows[0];
