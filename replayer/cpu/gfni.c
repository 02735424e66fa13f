/* SPDX-License-Identifier: MIT */
/* GFNI, the Galois-field instructions, in their legacy-SSE and VEX
 * encodings (the EVEX ones are evex_aes.c's): gf2p8mulb multiplies bytes in
 * GF(2^8) modulo x^8+x^4+x^3+x+1, gf2p8affineqb applies to each byte the
 * 8x8 bit matrix of its qword in the other source plus the imm8 vector,
 * and gf2p8affineinvqb does the same to the byte's multiplicative inverse
 * (0 for 0), written from the Intel SDM operation sections. Capstone 4
 * decodes none of them: vexraw.c does, under ids past Capstone's
 * (CPU_INS_GF2P8*). No flags or MXCSR bits change; the faults are #UD for
 * an F2/F3 prefix on a legacy form, #GP for a misaligned legacy memory
 * operand, and those of the memory read. */
#include "replayer/cpu/sse_util.h"

/* ---- GF(2^8) arithmetic ---------------------------------------------- */

/* A times B modulo the AES polynomial x^8+x^4+x^3+x+1 (0x11b). */
static u8 gf_mul(u8 a, u8 b) {
  unsigned p = 0, x = a;
  for (; b; b >>= 1) {
    if (b & 1) p ^= x;
    x <<= 1;
    if (x & 0x100) x ^= 0x11b;
  }
  return (u8)p;
}

/* The multiplicative inverse of A, 0 for 0: A^254, since the nonzero
 * elements form a group of order 255. 254 is binary 11111110, so the
 * product of A^2, A^4, ..., A^128. */
static u8 gf_inv(u8 a) {
  u8 r = 1, sq = a;
  for (unsigned i = 1; i < 8; i++) {
    sq = gf_mul(sq, sq);
    r = gf_mul(r, sq);
  }
  return r;
}

/* The affine map of the SDM's affine_byte: bit i of the result is the
 * parity of X masked by byte 7-i of the matrix M, XOR bit i of B. So the
 * matrix's byte 0 gives the result's top bit, and 0x0102040810204080 is
 * the identity. */
static u8 affine(u64 m, u8 x, u8 b) {
  unsigned r = 0;
  for (unsigned i = 0; i < 8; i++) {
    unsigned row = (unsigned)(m >> (8 * (7 - i))) & 0xff;
    r |= (unsigned)__builtin_parity(row & x) << i;
  }
  return (u8)(r ^ b);
}

/* ---- The operations on N bytes --------------------------------------- */

/* See sse_util.h; evex_aes.c runs it on each 32-byte half of a ZMM
 * register. */
void cpu__gf_run(int op, union cpu_vec *d, const union cpu_vec *x,
                 const union cpu_vec *m, unsigned imm, unsigned n) {
  union cpu_vec r = {0};
  for (unsigned j = 0; j < n; j++) {
    u8 v = x->b[j];
    if (op == CPU_GF_MUL)
      r.b[j] = gf_mul(v, m->b[j]);
    else
      r.b[j] = affine(m->q[j / 8], op == CPU_GF_AFFINEINV ? gf_inv(v) : v,
                      (u8)imm);
  }
  *d = r;
}

/* ---- Handlers -------------------------------------------------------- */

/* Legacy SSE: Vx = OP(Vx, Wx[, imm8]); the YMM upper half is kept. */
static int gf_legacy(struct cpu *cpu, const struct cpu_insn *in, int op) {
  union cpu_vec s, r;
  if (in->pfx & (CPU_PFX_REP | CPU_PFX_REPNE))
    return cpu__fault(cpu, CPU_FAULT_UD);
  CPU_TRY(cpu__W16(cpu, in, 1, &s));
  cpu__gf_run(op, &r, cpu__x(cpu, in->reg), &s, cpu__imm8(in), 16);
  cpu__xset(cpu, in->reg, &r);
  return CPU_RC_NEXT;
}

/* VEX.128/256: V = OP(vvvv, W[, imm8]), no alignment rule, and the bits
 * above the vector length zeroed. */
static int gf_vex(struct cpu *cpu, const struct cpu_insn *in, int op) {
  unsigned n = cpu__vex256(in) ? 32 : 16;
  union cpu_vec s, r;
  CPU_TRY(cpu__vex_rm(cpu, in, n, 0, &s));
  cpu__gf_run(op, &r, cpu__x(cpu, in->reg2), &s, cpu__imm8(in), n);
  cpu_vput(cpu, in->reg, &r);
  return CPU_RC_NEXT;
}

static int op_gf2p8mulb_Vx_Wx(struct cpu *cpu, const struct cpu_insn *in) {
  return gf_legacy(cpu, in, CPU_GF_MUL);
}

static int op_gf2p8affineqb_Vx_Wx_Ib(struct cpu *cpu,
                                     const struct cpu_insn *in) {
  return gf_legacy(cpu, in, CPU_GF_AFFINE);
}

static int op_gf2p8affineinvqb_Vx_Wx_Ib(struct cpu *cpu,
                                        const struct cpu_insn *in) {
  return gf_legacy(cpu, in, CPU_GF_AFFINEINV);
}

static int op_vgf2p8mulb_Vx_Hx_Wx(struct cpu *cpu, const struct cpu_insn *in) {
  return gf_vex(cpu, in, CPU_GF_MUL);
}

static int op_vgf2p8affineqb_Vx_Hx_Wx_Ib(struct cpu *cpu,
                                         const struct cpu_insn *in) {
  return gf_vex(cpu, in, CPU_GF_AFFINE);
}

static int op_vgf2p8affineinvqb_Vx_Hx_Wx_Ib(struct cpu *cpu,
                                            const struct cpu_insn *in) {
  return gf_vex(cpu, in, CPU_GF_AFFINEINV);
}

static const struct cpu__oprow gfni_rows[] = {
#define OP(id, form, fn) {id, CPU_FORM_##form, fn, #fn},
#include "replayer/cpu/gfni.def"
#undef OP
};
CPU__FAMILY_TABLE(gfni)
