/* SPDX-License-Identifier: MIT */
/* SSE shuffles and lane selection: pshufd/pshuflw/pshufhw, pshufb, palignr,
 * shufps/shufpd, the immediate and variable blends, insertps/extractps,
 * pextr(b w d q)/pinsr(b w d q) and pmovzx/pmovsx. Exact C; no exceptions
 * besides memory faults and the 16-byte alignment #GP. */
#include "replayer/cpu/sse_util.h"

/* ---- Shuffles --------------------------------------------------------------- */

static int op_pshufd_Vx_Wx_Ib(struct cpu *cpu, const struct cpu_insn *in) {
  union cpu_vec s, r;
  CPU_TRY(cpu__W16(cpu, in, 1, &s));
  unsigned imm = cpu__imm8(in);
  for (int i = 0; i < 4; i++) r.d[i] = s.d[(imm >> (2 * i)) & 3];
  cpu__xset(cpu, in->reg, &r);
  return CPU_RC_NEXT;
}

/* pshuflw (HI = 0) / pshufhw (HI = 4): shuffles one half's words. */
static int pshufw(struct cpu *cpu, const struct cpu_insn *in, int hi) {
  union cpu_vec s, r;
  CPU_TRY(cpu__W16(cpu, in, 1, &s));
  unsigned imm = cpu__imm8(in);
  r = s;
  for (int i = 0; i < 4; i++) r.w[hi + i] = s.w[hi + ((imm >> (2 * i)) & 3)];
  cpu__xset(cpu, in->reg, &r);
  return CPU_RC_NEXT;
}

static int op_pshuflw_Vx_Wx_Ib(struct cpu *cpu, const struct cpu_insn *in) {
  return pshufw(cpu, in, 0);
}
static int op_pshufhw_Vx_Wx_Ib(struct cpu *cpu, const struct cpu_insn *in) {
  return pshufw(cpu, in, 4);
}

static int op_pshufb_Vx_Wx(struct cpu *cpu, const struct cpu_insn *in) {
  union cpu_vec s, r;
  CPU_TRY(cpu__W16(cpu, in, 1, &s));
  const union cpu_vec *d = cpu__x(cpu, in->reg);
  if (cpu__host_ssse3)
    cpu__host_pshufb(r.b, d->b, s.b, 1);
  else
    for (int i = 0; i < 16; i++)
      r.b[i] = (s.b[i] & 0x80) ? 0 : d->b[s.b[i] & 15];
  cpu__xset(cpu, in->reg, &r);
  return CPU_RC_NEXT;
}

/* The VEX forms of pshufd and pshufb, on 16 or 32 bytes at once (each
 * 128-bit lane selects within itself), for the hot loops of AVX2 code. */
static int op_vpshufd(struct cpu *cpu, const struct cpu_insn *in) {
  union cpu_vec t, r;
  const union cpu_vec *s;
  unsigned imm = cpu__imm8(in);
  int wide = cpu__vex256(in);
  CPU_TRY(cpu__vex_src(cpu, in, wide ? 32 : 16, &t, &s));
  for (int i = 0; i < 8; i++)
    r.d[i] = s->d[(i & 4) + ((imm >> (2 * (i & 3))) & 3)];
  if (!wide) memset(r.b + 16, 0, 16);
  cpu_vput(cpu, in->reg, &r);
  return CPU_RC_NEXT;
}

static int op_vpshufb(struct cpu *cpu, const struct cpu_insn *in) {
  union cpu_vec t, r;
  const union cpu_vec *s, *d = &cpu->ymm[in->reg2];
  int wide = cpu__vex256(in);
  CPU_TRY(cpu__vex_src(cpu, in, wide ? 32 : 16, &t, &s));
  if (cpu__host_ssse3)
    cpu__host_pshufb(r.b, d->b, s->b, 2);
  else
    for (int i = 0; i < 32; i++) {
      u8 k = s->b[i], v = d->b[(i & 16) + (k & 15)];
      r.b[i] = (k & 0x80) ? 0 : v;
    }
  if (!wide) memset(r.b + 16, 0, 16);
  cpu_vput(cpu, in->reg, &r);
  return CPU_RC_NEXT;
}

/* palignr: bytes IMM.. of the 32-byte concatenation dest:src. */
static int op_palignr_Vx_Wx_Ib(struct cpu *cpu, const struct cpu_insn *in) {
  union cpu_vec s, r = {0};
  CPU_TRY(cpu__W16(cpu, in, 1, &s));
  const union cpu_vec *d = cpu__x(cpu, in->reg);
  u8 cat[48] = {0};
  memcpy(cat, s.b, 16);
  memcpy(cat + 16, d->b, 16);
  unsigned n = cpu__imm8(in);
  if (n < 32) memcpy(r.b, cat + n, 16);
  cpu__xset(cpu, in->reg, &r);
  return CPU_RC_NEXT;
}

static int op_shufps_Vx_Wx_Ib(struct cpu *cpu, const struct cpu_insn *in) {
  union cpu_vec s, r;
  CPU_TRY(cpu__W16(cpu, in, 1, &s));
  const union cpu_vec *d = cpu__x(cpu, in->reg);
  unsigned imm = cpu__imm8(in);
  r.d[0] = d->d[imm & 3];
  r.d[1] = d->d[(imm >> 2) & 3];
  r.d[2] = s.d[(imm >> 4) & 3];
  r.d[3] = s.d[(imm >> 6) & 3];
  cpu__xset(cpu, in->reg, &r);
  return CPU_RC_NEXT;
}

static int op_shufpd_Vx_Wx_Ib(struct cpu *cpu, const struct cpu_insn *in) {
  union cpu_vec s, r;
  CPU_TRY(cpu__W16(cpu, in, 1, &s));
  const union cpu_vec *d = cpu__x(cpu, in->reg);
  unsigned imm = cpu__imm8(in);
  r.q[0] = d->q[imm & 1];
  r.q[1] = s.q[(imm >> 1) & 1];
  cpu__xset(cpu, in->reg, &r);
  return CPU_RC_NEXT;
}

/* ---- Blends ----------------------------------------------------------------- */

/* Element i of ESZ bytes comes from the source when bit i of SEL is set. */
static int blend(struct cpu *cpu, const struct cpu_insn *in, unsigned esz,
                 unsigned sel, const union cpu_vec *s) {
  union cpu_vec *d = cpu__x(cpu, in->reg);
  for (unsigned i = 0; i < 16 / esz; i++)
    if ((sel >> i) & 1) memcpy(d->b + i * esz, s->b + i * esz, esz);
  return CPU_RC_NEXT;
}

/* The selector from the top bits of XMM0's ESZ-byte elements. */
static unsigned xmm0_sel(struct cpu *cpu, unsigned esz) {
  const union cpu_vec *m = cpu__x(cpu, 0);
  unsigned sel = 0;
  for (unsigned i = 0; i < 16 / esz; i++)
    sel |= (unsigned)(m->b[i * esz + esz - 1] >> 7) << i;
  return sel;
}

#define BLEND(mn, esz)                                                        \
  static int op_##mn##_Vx_Wx_Ib(struct cpu *cpu, const struct cpu_insn *in) { \
    union cpu_vec s;                                                          \
    CPU_TRY(cpu__W16(cpu, in, 1, &s));                                        \
    unsigned imm = cpu__imm8(in);                                             \
    return blend(cpu, in, esz, esz == 2 ? imm : imm & ((1u << (16 / esz)) - 1), \
                 &s);                                                         \
  }
BLEND(blendps, 4)
BLEND(blendpd, 8)
BLEND(pblendw, 2)
#undef BLEND

#define BLENDV(mn, esz)                                                    \
  static int op_##mn##_Vx_Wx(struct cpu *cpu, const struct cpu_insn *in) { \
    union cpu_vec s;                                                       \
    CPU_TRY(cpu__W16(cpu, in, 1, &s));                                     \
    return blend(cpu, in, esz, xmm0_sel(cpu, esz), &s);                    \
  }
BLENDV(blendvps, 4)
BLENDV(blendvpd, 8)
BLENDV(pblendvb, 1)
#undef BLENDV

/* ---- Insert and extract ---------------------------------------------------- */

static int op_insertps_Vx_Wx_Ib(struct cpu *cpu, const struct cpu_insn *in) {
  union cpu_vec s;
  CPU_TRY(cpu_W_read(cpu, in, 4, 0, &s));
  unsigned imm = cpu__imm8(in);
  u32 v = (in->pfx & CPU_PFX_MEM) ? s.d[0] : s.d[(imm >> 6) & 3];
  union cpu_vec r = *cpu__x(cpu, in->reg);
  r.d[(imm >> 4) & 3] = v;
  for (int i = 0; i < 4; i++)
    if ((imm >> i) & 1) r.d[i] = 0;
  cpu__xset(cpu, in->reg, &r);
  return CPU_RC_NEXT;
}

/* Extracts element (imm8 mod count) of ESZ bytes to a general register
 * (zero-extended to 64 bits) or to memory (ESZ bytes). */
static int extract(struct cpu *cpu, const struct cpu_insn *in,
                   unsigned esz) {
  const union cpu_vec *s = cpu__x(cpu, in->reg);
  unsigned i = cpu__imm8(in) & (16 / esz - 1);
  u64 v = 0;
  memcpy(&v, s->b + i * esz, esz);
  if (in->pfx & CPU_PFX_MEM) return cpu_st(cpu, cpu_ea(cpu, in), esz, v);
  cpu_reg_set(cpu, in->rm, 8, v);
  return CPU_RC_NEXT;
}

static int op_pextrb_Ey_Vx_Ib(struct cpu *cpu, const struct cpu_insn *in) {
  return extract(cpu, in, 1);
}
static int op_pextrw_Ey_Vx_Ib(struct cpu *cpu, const struct cpu_insn *in) {
  return extract(cpu, in, 2);
}
static int op_pextrd_Ey_Vx_Ib(struct cpu *cpu, const struct cpu_insn *in) {
  return extract(cpu, in, 4);
}
static int op_pextrq_Ey_Vx_Ib(struct cpu *cpu, const struct cpu_insn *in) {
  return extract(cpu, in, 8);
}
static int op_extractps_Ey_Vx_Ib(struct cpu *cpu, const struct cpu_insn *in) {
  return extract(cpu, in, 4);
}

/* pextrw Gy, Ux, Ib (66 0F C5): the register-only form. */
static int op_pextrw_Gy_Ux_Ib(struct cpu *cpu, const struct cpu_insn *in) {
  cpu_reg_set(cpu, in->reg, 8, cpu__x(cpu, in->rm)->w[cpu__imm8(in) & 7]);
  return CPU_RC_NEXT;
}

/* Inserts ESZ bytes from a general register (its low bytes) or memory. */
static int insert(struct cpu *cpu, const struct cpu_insn *in, unsigned esz) {
  u64 v;
  CPU_TRY(cpu_rm_read(cpu, in, esz, &v));
  unsigned i = cpu__imm8(in) & (16 / esz - 1);
  memcpy(cpu__x(cpu, in->reg)->b + i * esz, &v, esz);
  return CPU_RC_NEXT;
}

static int op_pinsrb_Vx_Ey_Ib(struct cpu *cpu, const struct cpu_insn *in) {
  return insert(cpu, in, 1);
}
static int op_pinsrw_Vx_Ey_Ib(struct cpu *cpu, const struct cpu_insn *in) {
  return insert(cpu, in, 2);
}
static int op_pinsrd_Vx_Ey_Ib(struct cpu *cpu, const struct cpu_insn *in) {
  return insert(cpu, in, 4);
}
static int op_pinsrq_Vx_Ey_Ib(struct cpu *cpu, const struct cpu_insn *in) {
  return insert(cpu, in, 8);
}

/* ---- pmovzx / pmovsx ---------------------------------------------------------- */

/* Widens the low elements of the source from FROM to TO bytes. */
static int pmov(struct cpu *cpu, const struct cpu_insn *in, unsigned from,
                unsigned to, int sx) {
  union cpu_vec s, r;
  unsigned n = 16 / to;
  CPU_TRY(cpu_W_read(cpu, in, n * from, 0, &s));
  for (unsigned i = 0; i < n; i++) {
    u64 v = 0;
    memcpy(&v, s.b + i * from, from);
    if (sx) v = cpu_sext(v, from);
    memcpy(r.b + i * to, &v, to);
  }
  cpu__xset(cpu, in->reg, &r);
  return CPU_RC_NEXT;
}

#define PMOV(mn, from, to, sx)                                             \
  static int op_##mn##_Vx_Wx(struct cpu *cpu, const struct cpu_insn *in) { \
    return pmov(cpu, in, from, to, sx);                                    \
  }
PMOV(pmovzxbw, 1, 2, 0)
PMOV(pmovzxbd, 1, 4, 0)
PMOV(pmovzxbq, 1, 8, 0)
PMOV(pmovzxwd, 2, 4, 0)
PMOV(pmovzxwq, 2, 8, 0)
PMOV(pmovzxdq, 4, 8, 0)
PMOV(pmovsxbw, 1, 2, 1)
PMOV(pmovsxbd, 1, 4, 1)
PMOV(pmovsxbq, 1, 8, 1)
PMOV(pmovsxwd, 2, 4, 1)
PMOV(pmovsxwq, 2, 8, 1)
PMOV(pmovsxdq, 4, 8, 1)
#undef PMOV


/* ---- VEX forms (avx.c runs these handlers per 128-bit lane) ---------- */

CPU_VEX(vpshuflw, op_pshuflw_Vx_Wx_Ib, 0)
CPU_VEX(vpshufhw, op_pshufhw_Vx_Wx_Ib, 0)
CPU_VEX(vpalignr, op_palignr_Vx_Wx_Ib, CPU_VX_SRC1)
CPU_VEX(vshufps, op_shufps_Vx_Wx_Ib, CPU_VX_SRC1)
CPU_VEX(vshufpd, op_shufpd_Vx_Wx_Ib, CPU_VX_SRC1|CPU_VX_IMMSH(2))
CPU_VEX(vblendps, op_blendps_Vx_Wx_Ib, CPU_VX_SRC1|CPU_VX_IMMSH(4))
CPU_VEX(vblendpd, op_blendpd_Vx_Wx_Ib, CPU_VX_SRC1|CPU_VX_IMMSH(2))
CPU_VEX(vpblendw, op_pblendw_Vx_Wx_Ib, CPU_VX_SRC1)
CPU_VEX(vblendvps, op_blendvps_Vx_Wx, CPU_VX_SRC1|CPU_VX_BLENDV)
CPU_VEX(vblendvpd, op_blendvpd_Vx_Wx, CPU_VX_SRC1|CPU_VX_BLENDV)
CPU_VEX(vpblendvb, op_pblendvb_Vx_Wx, CPU_VX_SRC1|CPU_VX_BLENDV)
CPU_VEX(vinsertps, op_insertps_Vx_Wx_Ib, CPU_VX_SRC1|CPU_VX_PASS)
CPU_VEX(vextractps, op_extractps_Ey_Vx_Ib, CPU_VX_NODST|CPU_VX_PASS)
CPU_VEX(vpextrb, op_pextrb_Ey_Vx_Ib, CPU_VX_NODST|CPU_VX_PASS)
CPU_VEX(vpextrw, op_pextrw_Ey_Vx_Ib, CPU_VX_NODST|CPU_VX_PASS)
CPU_VEX(vpextrd, op_pextrd_Ey_Vx_Ib, CPU_VX_NODST|CPU_VX_PASS)
CPU_VEX(vpextrq, op_pextrq_Ey_Vx_Ib, CPU_VX_NODST|CPU_VX_PASS)
CPU_VEX(vpextrw_g, op_pextrw_Gy_Ux_Ib, CPU_VX_NODST|CPU_VX_PASS)
CPU_VEX(vpinsrb, op_pinsrb_Vx_Ey_Ib, CPU_VX_SRC1|CPU_VX_PASS)
CPU_VEX(vpinsrw, op_pinsrw_Vx_Ey_Ib, CPU_VX_SRC1|CPU_VX_PASS)
CPU_VEX(vpinsrd, op_pinsrd_Vx_Ey_Ib, CPU_VX_SRC1|CPU_VX_PASS)
CPU_VEX(vpinsrq, op_pinsrq_Vx_Ey_Ib, CPU_VX_SRC1|CPU_VX_PASS)
static int op_vpmovzxbw(struct cpu *cpu, const struct cpu_insn *in) {
  return cpu__vex256(in) ? cpu__vex_widen(cpu, in, op_pmovzxbw_Vx_Wx, 8)
                         : cpu__vex(cpu, in, op_pmovzxbw_Vx_Wx, CPU_VX_PASS);
}
static int op_vpmovzxbd(struct cpu *cpu, const struct cpu_insn *in) {
  return cpu__vex256(in) ? cpu__vex_widen(cpu, in, op_pmovzxbd_Vx_Wx, 4)
                         : cpu__vex(cpu, in, op_pmovzxbd_Vx_Wx, CPU_VX_PASS);
}
static int op_vpmovzxbq(struct cpu *cpu, const struct cpu_insn *in) {
  return cpu__vex256(in) ? cpu__vex_widen(cpu, in, op_pmovzxbq_Vx_Wx, 2)
                         : cpu__vex(cpu, in, op_pmovzxbq_Vx_Wx, CPU_VX_PASS);
}
static int op_vpmovzxwd(struct cpu *cpu, const struct cpu_insn *in) {
  return cpu__vex256(in) ? cpu__vex_widen(cpu, in, op_pmovzxwd_Vx_Wx, 8)
                         : cpu__vex(cpu, in, op_pmovzxwd_Vx_Wx, CPU_VX_PASS);
}
static int op_vpmovzxwq(struct cpu *cpu, const struct cpu_insn *in) {
  return cpu__vex256(in) ? cpu__vex_widen(cpu, in, op_pmovzxwq_Vx_Wx, 4)
                         : cpu__vex(cpu, in, op_pmovzxwq_Vx_Wx, CPU_VX_PASS);
}
static int op_vpmovzxdq(struct cpu *cpu, const struct cpu_insn *in) {
  return cpu__vex256(in) ? cpu__vex_widen(cpu, in, op_pmovzxdq_Vx_Wx, 8)
                         : cpu__vex(cpu, in, op_pmovzxdq_Vx_Wx, CPU_VX_PASS);
}
static int op_vpmovsxbw(struct cpu *cpu, const struct cpu_insn *in) {
  return cpu__vex256(in) ? cpu__vex_widen(cpu, in, op_pmovsxbw_Vx_Wx, 8)
                         : cpu__vex(cpu, in, op_pmovsxbw_Vx_Wx, CPU_VX_PASS);
}
static int op_vpmovsxbd(struct cpu *cpu, const struct cpu_insn *in) {
  return cpu__vex256(in) ? cpu__vex_widen(cpu, in, op_pmovsxbd_Vx_Wx, 4)
                         : cpu__vex(cpu, in, op_pmovsxbd_Vx_Wx, CPU_VX_PASS);
}
static int op_vpmovsxbq(struct cpu *cpu, const struct cpu_insn *in) {
  return cpu__vex256(in) ? cpu__vex_widen(cpu, in, op_pmovsxbq_Vx_Wx, 2)
                         : cpu__vex(cpu, in, op_pmovsxbq_Vx_Wx, CPU_VX_PASS);
}
static int op_vpmovsxwd(struct cpu *cpu, const struct cpu_insn *in) {
  return cpu__vex256(in) ? cpu__vex_widen(cpu, in, op_pmovsxwd_Vx_Wx, 8)
                         : cpu__vex(cpu, in, op_pmovsxwd_Vx_Wx, CPU_VX_PASS);
}
static int op_vpmovsxwq(struct cpu *cpu, const struct cpu_insn *in) {
  return cpu__vex256(in) ? cpu__vex_widen(cpu, in, op_pmovsxwq_Vx_Wx, 4)
                         : cpu__vex(cpu, in, op_pmovsxwq_Vx_Wx, CPU_VX_PASS);
}
static int op_vpmovsxdq(struct cpu *cpu, const struct cpu_insn *in) {
  return cpu__vex256(in) ? cpu__vex_widen(cpu, in, op_pmovsxdq_Vx_Wx, 8)
                         : cpu__vex(cpu, in, op_pmovsxdq_Vx_Wx, CPU_VX_PASS);
}

static const struct cpu__oprow sse_shuf_rows[] = {
#define OP(id, form, fn) {id, CPU_FORM_##form, fn, #fn},
#include "replayer/cpu/sse_shuf.def"
#undef OP
};
CPU__FAMILY_TABLE(sse_shuf)
