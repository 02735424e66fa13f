/* SPDX-License-Identifier: MIT */
/* SSE data movement: whole-register moves (aligned, unaligned, non-temporal,
 * lddqu, movntdqa), scalar moves (movss, movsd), half moves (movlps/pd,
 * movhps/pd, movhlps, movlhps), movd/movq in every direction, the
 * SSE3 duplicating moves, the sign-mask extractions (movmskps/pd, pmovmskb)
 * and maskmovdqu. No exceptions besides memory faults and alignment. */
#include "replayer/cpu/sse_util.h"

/* ---- Whole registers ---------------------------------------------------- */

static inline int load16(struct cpu *cpu, const struct cpu_insn *in,
                         int align) {
  union cpu_vec v;
  CPU_TRY(cpu__W16(cpu, in, align, &v));
  cpu__xset(cpu, in->reg, &v);
  return CPU_RC_NEXT;
}

static inline int store16(struct cpu *cpu, const struct cpu_insn *in,
                          int align) {
  return cpu_W_write(cpu, in, 16, align, cpu__x(cpu, in->reg));
}

#define MOV16(mn, align)                                                   \
  static int op_##mn##_Vx_Wx(struct cpu *cpu, const struct cpu_insn *in) { \
    return load16(cpu, in, align);                                         \
  }                                                                        \
  static int op_##mn##_Wx_Vx(struct cpu *cpu, const struct cpu_insn *in) { \
    return store16(cpu, in, align);                                        \
  }
MOV16(movaps, 1)
MOV16(movapd, 1)
MOV16(movdqa, 1)
MOV16(movups, 0)
MOV16(movupd, 0)
MOV16(movdqu, 0)
#undef MOV16

static int op_lddqu_Vx_Mx(struct cpu *cpu, const struct cpu_insn *in) {
  return load16(cpu, in, 0);
}
static int op_movntdqa_Vx_Mx(struct cpu *cpu, const struct cpu_insn *in) {
  return load16(cpu, in, 1);
}
static int op_movntps_Mx_Vx(struct cpu *cpu, const struct cpu_insn *in) {
  return store16(cpu, in, 1);
}
static int op_movntpd_Mx_Vx(struct cpu *cpu, const struct cpu_insn *in) {
  return store16(cpu, in, 1);
}
static int op_movntdq_Mx_Vx(struct cpu *cpu, const struct cpu_insn *in) {
  return store16(cpu, in, 1);
}

/* ---- Scalars and halves ------------------------------------------------- */

/* movss/movsd and movq loads: from memory, SZ bytes zero-extended; from a
 * register, the low SZ bytes merged (movss/movsd) or zero-extended (ZX). */
static inline int load_low(struct cpu *cpu, const struct cpu_insn *in,
                           unsigned sz, int zx) {
  union cpu_vec v;
  CPU_TRY(cpu_W_read(cpu, in, sz, 0, &v));
  union cpu_vec *d = cpu__x(cpu, in->reg);
  if ((in->pfx & CPU_PFX_MEM) || zx) {
    if (!(in->pfx & CPU_PFX_MEM)) memset(v.b + sz, 0, 16 - sz);
    cpu__xset(cpu, in->reg, &v);
  } else {
    memcpy(d->b, v.b, sz);
  }
  return CPU_RC_NEXT;
}

static int op_movss_Vx_Wss(struct cpu *cpu, const struct cpu_insn *in) {
  return load_low(cpu, in, 4, 0);
}
static int op_movsd_Vx_Wsd(struct cpu *cpu, const struct cpu_insn *in) {
  return load_low(cpu, in, 8, 0);
}
static int op_movss_Wss_Vx(struct cpu *cpu, const struct cpu_insn *in) {
  return cpu_W_write(cpu, in, 4, 0, cpu__x(cpu, in->reg));
}
static int op_movsd_Wsd_Vx(struct cpu *cpu, const struct cpu_insn *in) {
  return cpu_W_write(cpu, in, 8, 0, cpu__x(cpu, in->reg));
}

/* movq Vx, Wq (F3 0F 7E) and movq Vx, Eq / movd Vx, Ed (66 0F 6E). */
static int op_movq_Vx_Wq(struct cpu *cpu, const struct cpu_insn *in) {
  return load_low(cpu, in, 8, 1);
}

/* movq Wq, Vx (66 0F D6): to memory 8 bytes; to a register, zero-extended. */
static int op_movq_Wq_Vx(struct cpu *cpu, const struct cpu_insn *in) {
  const union cpu_vec *s = cpu__x(cpu, in->reg);
  if (in->pfx & CPU_PFX_MEM) return cpu_st64(cpu, cpu_ea(cpu, in), s->q[0]);
  union cpu_vec v = {0};
  v.q[0] = s->q[0];
  cpu__xset(cpu, in->rm, &v);
  return CPU_RC_NEXT;
}

/* movd/movq between XMM and a general register or memory. */
static int op_movd_Vx_Ey(struct cpu *cpu, const struct cpu_insn *in) {
  unsigned sz = (in->pfx & CPU_PFX_REXW) || in->id == X86_INS_MOVQ ? 8 : 4;
  u64 v;
  CPU_TRY(cpu_rm_read(cpu, in, sz, &v));
  union cpu_vec x = {0};
  x.q[0] = v;
  cpu__xset(cpu, in->reg, &x);
  return CPU_RC_NEXT;
}

static int op_movd_Ey_Vx(struct cpu *cpu, const struct cpu_insn *in) {
  unsigned sz = (in->pfx & CPU_PFX_REXW) || in->id == X86_INS_MOVQ ? 8 : 4;
  return cpu_rm_write(cpu, in, sz, cpu__x(cpu, in->reg)->q[0]);
}

/* movlps/movlpd/movhps/movhpd loads: 8 bytes of memory into half HI. */
static inline int load_half(struct cpu *cpu, const struct cpu_insn *in,
                            int hi) {
  u64 v;
  CPU_TRY(cpu_ld64(cpu, cpu_ea(cpu, in), &v));
  cpu__x(cpu, in->reg)->q[hi] = v;
  return CPU_RC_NEXT;
}

static inline int store_half(struct cpu *cpu, const struct cpu_insn *in,
                             int hi) {
  return cpu_st64(cpu, cpu_ea(cpu, in), cpu__x(cpu, in->reg)->q[hi]);
}

static int op_movlps_Vx_Mq(struct cpu *cpu, const struct cpu_insn *in) {
  return load_half(cpu, in, 0);
}
static int op_movlpd_Vx_Mq(struct cpu *cpu, const struct cpu_insn *in) {
  return load_half(cpu, in, 0);
}
static int op_movhps_Vx_Mq(struct cpu *cpu, const struct cpu_insn *in) {
  return load_half(cpu, in, 1);
}
static int op_movhpd_Vx_Mq(struct cpu *cpu, const struct cpu_insn *in) {
  return load_half(cpu, in, 1);
}
static int op_movlps_Mq_Vx(struct cpu *cpu, const struct cpu_insn *in) {
  return store_half(cpu, in, 0);
}
static int op_movlpd_Mq_Vx(struct cpu *cpu, const struct cpu_insn *in) {
  return store_half(cpu, in, 0);
}
static int op_movhps_Mq_Vx(struct cpu *cpu, const struct cpu_insn *in) {
  return store_half(cpu, in, 1);
}
static int op_movhpd_Mq_Vx(struct cpu *cpu, const struct cpu_insn *in) {
  return store_half(cpu, in, 1);
}

static int op_movhlps_Vx_Ux(struct cpu *cpu, const struct cpu_insn *in) {
  cpu__x(cpu, in->reg)->q[0] = cpu__x(cpu, in->rm)->q[1];
  return CPU_RC_NEXT;
}
static int op_movlhps_Vx_Ux(struct cpu *cpu, const struct cpu_insn *in) {
  cpu__x(cpu, in->reg)->q[1] = cpu__x(cpu, in->rm)->q[0];
  return CPU_RC_NEXT;
}

/* ---- SSE3 duplicates ---------------------------------------------------- */

static int op_movddup_Vx_Wq(struct cpu *cpu, const struct cpu_insn *in) {
  union cpu_vec v;
  CPU_TRY(cpu_W_read(cpu, in, 8, 0, &v));
  v.q[1] = v.q[0];
  cpu__xset(cpu, in->reg, &v);
  return CPU_RC_NEXT;
}

static inline int dup32(struct cpu *cpu, const struct cpu_insn *in, int hi) {
  union cpu_vec v;
  CPU_TRY(cpu__W16(cpu, in, 1, &v));
  v.d[0] = v.d[hi];
  v.d[1] = v.d[hi];
  v.d[2] = v.d[2 + hi];
  v.d[3] = v.d[2 + hi];
  cpu__xset(cpu, in->reg, &v);
  return CPU_RC_NEXT;
}

static int op_movsldup_Vx_Wx(struct cpu *cpu, const struct cpu_insn *in) {
  return dup32(cpu, in, 0);
}
static int op_movshdup_Vx_Wx(struct cpu *cpu, const struct cpu_insn *in) {
  return dup32(cpu, in, 1);
}

/* ---- Sign masks ----------------------------------------------------------- */

/* Gathers the top bit of each ESZ-byte element into a general register
 * (32-bit write, zero-extended). */
static inline int mask_bits(struct cpu *cpu, const struct cpu_insn *in,
                            unsigned esz) {
  cpu_reg_set(cpu, in->reg, 8, cpu__signs16(cpu__x(cpu, in->rm)->b, esz));
  return CPU_RC_NEXT;
}

static int op_movmskps_Gy_Ux(struct cpu *cpu, const struct cpu_insn *in) {
  return mask_bits(cpu, in, 4);
}
static int op_movmskpd_Gy_Ux(struct cpu *cpu, const struct cpu_insn *in) {
  return mask_bits(cpu, in, 8);
}
static int op_pmovmskb_Gy_Ux(struct cpu *cpu, const struct cpu_insn *in) {
  return mask_bits(cpu, in, 1);
}

/* maskmovdqu Vx, Ux: the bytes of Vx whose Ux byte has its top bit set go
 * to [rdi] (edi with 67). Like the CPU (AMD and Intel alike), the whole 16
 * bytes are checked for faults whatever the mask; they are read, merged
 * and written back, so a fault leaves memory unchanged. Intel checks the
 * upper 8 bytes first, and names the first byte there that cannot be
 * written (measured). */
static int op_maskmovdqu_Vx_Ux(struct cpu *cpu, const struct cpu_insn *in) {
  const union cpu_vec *v = cpu__x(cpu, in->reg), *m = cpu__x(cpu, in->rm);
  u64 a = cpu->gpr[RW_REG_rdi];
  if (in->pfx & CPU_PFX_ADDR32) a = (u32)a;
  a += cpu->segbase[in->seg];
  if (cpu->cfg.vendor != CPU_VENDOR_AMD) {
    u64 hi;
    CPU_TRY(cpu_ld64(cpu, a + 8, &hi));
    CPU_TRY(cpu_st64(cpu, a + 8, hi));
  }
  u8 buf[16];
  CPU_TRY(cpu_ldn(cpu, a, buf, 16));
  for (int i = 0; i < 16; i++)
    if (m->b[i] & 0x80) buf[i] = v->b[i];
  return cpu_stn(cpu, a, buf, 16);
}


/* ---- VEX forms (avx.c runs these handlers per 128-bit lane) ---------- */

CPU_VEX(vmovddup, op_movddup_Vx_Wq, CPU_VX_PASS)
CPU_VEX(vmovsldup, op_movsldup_Vx_Wx, 0)
CPU_VEX(vmovshdup, op_movshdup_Vx_Wx, 0)
CPU_VEX(vmaskmovdqu, op_maskmovdqu_Vx_Ux, CPU_VX_NODST|CPU_VX_PASS)

/* ---- MMX forms (mmx.c runs these handlers on the 64-bit operands) -- */

CPU_MMX(mmx_pmovmskb, op_pmovmskb_Gy_Ux, CPU_MM_NODST)

static const struct cpu__oprow sse_mov_rows[] = {
#define OP(id, form, fn) {id, CPU_FORM_##form, fn, #fn},
#include "replayer/cpu/sse_mov.def"
#undef OP
};
CPU__FAMILY_TABLE(sse_mov)
