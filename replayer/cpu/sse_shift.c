/* SPDX-License-Identifier: MIT */
/* SSE element shifts (psll/psrl/psra by an XMM count or an imm8, counts
 * beyond the element width included), the whole-register byte shifts
 * pslldq/psrldq, the interleaves punpck* and unpck*ps/pd, and the
 * saturating packs. Exact C; no exceptions besides memory faults and the
 * 16-byte alignment #GP. */
#include "replayer/cpu/sse_util.h"

/* Shift kinds. */
enum { SH_LL, SH_RL, SH_RA };

/* Shifts every ESZ-byte lane of the first N bytes of *V by COUNT (any
 * 64-bit value). Inlined, so that constant ESZ, KIND and N make a
 * straight loop. */
static inline __attribute__((always_inline)) void shift_lanes(union cpu_vec *v, unsigned esz, int kind, u64 count,
                        unsigned n) {
  unsigned bits = esz * 8;
  for (unsigned i = 0; i < n / esz; i++) {
    u64 x;
    switch (esz) {
      case 2: x = v->w[i]; break;
      case 4: x = v->d[i]; break;
      default: x = v->q[i]; break;
    }
    if (kind == SH_RA) {
      u64 c = count > bits - 1 ? bits - 1 : count;
      x = (u64)((i64)(x << (64 - bits)) >> (64 - bits + c));
    } else if (count >= bits) {
      x = 0;
    } else {
      x = kind == SH_LL ? x << count : x >> count;
    }
    switch (esz) {
      case 2: v->w[i] = (u16)x; break;
      case 4: v->d[i] = (u32)x; break;
      default: v->q[i] = x; break;
    }
  }
}

/* The SSE handlers op_MN_Vx_Wx (count in an XMM register or m128) and
 * op_MN_Ux_Ib, and their VEX forms op_vMN (vvvv shifted by the rm count)
 * and op_vMN_i (rm shifted into vvvv), which shift all 16 or 32 bytes at
 * once rather than through cpu__vex's lanes. */
#define SHIFT(mn, esz, kind)                                               \
  static int op_##mn##_Vx_Wx(struct cpu *cpu, const struct cpu_insn *in) { \
    union cpu_vec s;                                                       \
    CPU_TRY(cpu__W16(cpu, in, 1, &s));                                     \
    shift_lanes(cpu__x(cpu, in->reg), esz, kind, s.q[0], 16);              \
    return CPU_RC_NEXT;                                                    \
  }                                                                        \
  static int op_##mn##_Ux_Ib(struct cpu *cpu, const struct cpu_insn *in) { \
    shift_lanes(cpu__x(cpu, in->reg), esz, kind, cpu__imm8(in), 16);       \
    return CPU_RC_NEXT;                                                    \
  }                                                                        \
  static int op_v##mn(struct cpu *cpu, const struct cpu_insn *in) {        \
    union cpu_vec s, r = cpu->ymm[in->reg2];                               \
    CPU_TRY(cpu__vex_rm(cpu, in, 16, 0, &s));                              \
    shift_lanes(&r, esz, kind, s.q[0], 32);                                \
    if (!cpu__vex256(in)) memset(r.b + 16, 0, 16);                         \
    cpu_vput(cpu, in->reg, &r);                                            \
    return CPU_RC_NEXT;                                                    \
  }                                                                        \
  static int op_v##mn##_i(struct cpu *cpu, const struct cpu_insn *in) {    \
    union cpu_vec r = cpu->ymm[in->rm];                                    \
    shift_lanes(&r, esz, kind, cpu__imm8(in), 32);                         \
    if (!cpu__vex256(in)) memset(r.b + 16, 0, 16);                         \
    cpu_vput(cpu, in->reg, &r);                                            \
    return CPU_RC_NEXT;                                                    \
  }

SHIFT(psllw, 2, SH_LL)
SHIFT(pslld, 4, SH_LL)
SHIFT(psllq, 8, SH_LL)
SHIFT(psrlw, 2, SH_RL)
SHIFT(psrld, 4, SH_RL)
SHIFT(psrlq, 8, SH_RL)
SHIFT(psraw, 2, SH_RA)
SHIFT(psrad, 4, SH_RA)
#undef SHIFT

static int op_pslldq_Ux_Ib(struct cpu *cpu, const struct cpu_insn *in) {
  union cpu_vec *d = cpu__x(cpu, in->reg), r = {0};
  unsigned n = cpu__imm8(in);
  if (n < 16) memcpy(r.b + n, d->b, 16 - n);
  cpu__xset(cpu, in->reg, &r);
  return CPU_RC_NEXT;
}

static int op_psrldq_Ux_Ib(struct cpu *cpu, const struct cpu_insn *in) {
  union cpu_vec *d = cpu__x(cpu, in->reg), r = {0};
  unsigned n = cpu__imm8(in);
  if (n < 16) memcpy(r.b, d->b + n, 16 - n);
  cpu__xset(cpu, in->reg, &r);
  return CPU_RC_NEXT;
}

/* ---- Interleaves ---------------------------------------------------------- */

/* Interleaves ESZ-byte elements of the low (HI = 0) or high half of the
 * destination and the source: d0 s0 d1 s1 ... */
static int unpack(struct cpu *cpu, const struct cpu_insn *in, unsigned esz,
                  int hi) {
  union cpu_vec s, r;
  CPU_TRY(cpu__W16(cpu, in, 1, &s));
  const union cpu_vec *d = cpu__x(cpu, in->reg);
  unsigned n = 8 / esz, base = hi ? 8 : 0;
  for (unsigned i = 0; i < n; i++) {
    memcpy(r.b + 2 * i * esz, d->b + base + i * esz, esz);
    memcpy(r.b + (2 * i + 1) * esz, s.b + base + i * esz, esz);
  }
  cpu__xset(cpu, in->reg, &r);
  return CPU_RC_NEXT;
}

#define UNPACK(mn, esz, hi)                                                \
  static int op_##mn##_Vx_Wx(struct cpu *cpu, const struct cpu_insn *in) { \
    return unpack(cpu, in, esz, hi);                                       \
  }
UNPACK(punpcklbw, 1, 0)
UNPACK(punpcklwd, 2, 0)
UNPACK(punpckldq, 4, 0)
UNPACK(punpcklqdq, 8, 0)
UNPACK(punpckhbw, 1, 1)
UNPACK(punpckhwd, 2, 1)
UNPACK(punpckhdq, 4, 1)
UNPACK(punpckhqdq, 8, 1)
UNPACK(unpcklps, 4, 0)
UNPACK(unpckhps, 4, 1)
UNPACK(unpcklpd, 8, 0)
UNPACK(unpckhpd, 8, 1)
#undef UNPACK

/* ---- Packs ------------------------------------------------------------------ */

static inline i64 clampi(i64 v, i64 lo, i64 hi) {
  return v < lo ? lo : v > hi ? hi : v;
}

static int op_packsswb_Vx_Wx(struct cpu *cpu, const struct cpu_insn *in) {
  union cpu_vec s, r;
  CPU_TRY(cpu__W16(cpu, in, 1, &s));
  const union cpu_vec *d = cpu__x(cpu, in->reg);
  for (int i = 0; i < 8; i++) {
    r.sb[i] = (i8)clampi(d->sw[i], -128, 127);
    r.sb[i + 8] = (i8)clampi(s.sw[i], -128, 127);
  }
  cpu__xset(cpu, in->reg, &r);
  return CPU_RC_NEXT;
}

static int op_packuswb_Vx_Wx(struct cpu *cpu, const struct cpu_insn *in) {
  union cpu_vec s, r;
  CPU_TRY(cpu__W16(cpu, in, 1, &s));
  const union cpu_vec *d = cpu__x(cpu, in->reg);
  for (int i = 0; i < 8; i++) {
    r.b[i] = (u8)clampi(d->sw[i], 0, 255);
    r.b[i + 8] = (u8)clampi(s.sw[i], 0, 255);
  }
  cpu__xset(cpu, in->reg, &r);
  return CPU_RC_NEXT;
}

static int op_packssdw_Vx_Wx(struct cpu *cpu, const struct cpu_insn *in) {
  union cpu_vec s, r;
  CPU_TRY(cpu__W16(cpu, in, 1, &s));
  const union cpu_vec *d = cpu__x(cpu, in->reg);
  for (int i = 0; i < 4; i++) {
    r.sw[i] = (i16)clampi(d->sd[i], -32768, 32767);
    r.sw[i + 4] = (i16)clampi(s.sd[i], -32768, 32767);
  }
  cpu__xset(cpu, in->reg, &r);
  return CPU_RC_NEXT;
}

static int op_packusdw_Vx_Wx(struct cpu *cpu, const struct cpu_insn *in) {
  union cpu_vec s, r;
  CPU_TRY(cpu__W16(cpu, in, 1, &s));
  const union cpu_vec *d = cpu__x(cpu, in->reg);
  for (int i = 0; i < 4; i++) {
    r.w[i] = (u16)clampi(d->sd[i], 0, 65535);
    r.w[i + 4] = (u16)clampi(s.sd[i], 0, 65535);
  }
  cpu__xset(cpu, in->reg, &r);
  return CPU_RC_NEXT;
}


/* ---- VEX forms (avx.c runs these handlers per 128-bit lane) ---------- */

CPU_VEX(vpslldq, op_pslldq_Ux_Ib, CPU_VX_SRCRM)
CPU_VEX(vpsrldq, op_psrldq_Ux_Ib, CPU_VX_SRCRM)
CPU_VEX(vpunpcklbw, op_punpcklbw_Vx_Wx, CPU_VX_SRC1)
CPU_VEX(vpunpcklwd, op_punpcklwd_Vx_Wx, CPU_VX_SRC1)
CPU_VEX(vpunpckldq, op_punpckldq_Vx_Wx, CPU_VX_SRC1)
CPU_VEX(vpunpcklqdq, op_punpcklqdq_Vx_Wx, CPU_VX_SRC1)
CPU_VEX(vpunpckhbw, op_punpckhbw_Vx_Wx, CPU_VX_SRC1)
CPU_VEX(vpunpckhwd, op_punpckhwd_Vx_Wx, CPU_VX_SRC1)
CPU_VEX(vpunpckhdq, op_punpckhdq_Vx_Wx, CPU_VX_SRC1)
CPU_VEX(vpunpckhqdq, op_punpckhqdq_Vx_Wx, CPU_VX_SRC1)
CPU_VEX(vunpcklps, op_unpcklps_Vx_Wx, CPU_VX_SRC1)
CPU_VEX(vunpckhps, op_unpckhps_Vx_Wx, CPU_VX_SRC1)
CPU_VEX(vunpcklpd, op_unpcklpd_Vx_Wx, CPU_VX_SRC1)
CPU_VEX(vunpckhpd, op_unpckhpd_Vx_Wx, CPU_VX_SRC1)
CPU_VEX(vpacksswb, op_packsswb_Vx_Wx, CPU_VX_SRC1)
CPU_VEX(vpackuswb, op_packuswb_Vx_Wx, CPU_VX_SRC1)
CPU_VEX(vpackssdw, op_packssdw_Vx_Wx, CPU_VX_SRC1)
CPU_VEX(vpackusdw, op_packusdw_Vx_Wx, CPU_VX_SRC1)

/* ---- MMX forms (mmx.c runs these handlers on the 64-bit operands) -- */

CPU_MMX(mmx_psllw, op_psllw_Vx_Wx, 0)
CPU_MMX(mmx_psllw_i, op_psllw_Ux_Ib, 0)
CPU_MMX(mmx_pslld, op_pslld_Vx_Wx, 0)
CPU_MMX(mmx_pslld_i, op_pslld_Ux_Ib, 0)
CPU_MMX(mmx_psllq, op_psllq_Vx_Wx, 0)
CPU_MMX(mmx_psllq_i, op_psllq_Ux_Ib, 0)
CPU_MMX(mmx_psrlw, op_psrlw_Vx_Wx, 0)
CPU_MMX(mmx_psrlw_i, op_psrlw_Ux_Ib, 0)
CPU_MMX(mmx_psrld, op_psrld_Vx_Wx, 0)
CPU_MMX(mmx_psrld_i, op_psrld_Ux_Ib, 0)
CPU_MMX(mmx_psrlq, op_psrlq_Vx_Wx, 0)
CPU_MMX(mmx_psrlq_i, op_psrlq_Ux_Ib, 0)
CPU_MMX(mmx_psraw, op_psraw_Vx_Wx, 0)
CPU_MMX(mmx_psraw_i, op_psraw_Ux_Ib, 0)
CPU_MMX(mmx_psrad, op_psrad_Vx_Wx, 0)
CPU_MMX(mmx_psrad_i, op_psrad_Ux_Ib, 0)
CPU_MMX(mmx_punpcklbw, op_punpcklbw_Vx_Wx, CPU_MM_M32)
CPU_MMX(mmx_punpcklwd, op_punpcklwd_Vx_Wx, CPU_MM_M32)
CPU_MMX(mmx_punpckldq, op_punpckldq_Vx_Wx, CPU_MM_M32)
CPU_MMX(mmx_punpckhbw, op_punpcklbw_Vx_Wx, CPU_MM_HIGH)
CPU_MMX(mmx_punpckhwd, op_punpcklwd_Vx_Wx, CPU_MM_HIGH)
CPU_MMX(mmx_punpckhdq, op_punpckldq_Vx_Wx, CPU_MM_HIGH)
CPU_MMX(mmx_packsswb, op_packsswb_Vx_Wx, CPU_MM_PAIR)
CPU_MMX(mmx_packssdw, op_packssdw_Vx_Wx, CPU_MM_PAIR)
CPU_MMX(mmx_packuswb, op_packuswb_Vx_Wx, CPU_MM_PAIR)

static const struct cpu__oprow sse_shift_rows[] = {
#define OP(id, form, fn) {id, CPU_FORM_##form, fn, #fn},
#include "replayer/cpu/sse_shift.def"
#undef OP
};
CPU__FAMILY_TABLE(sse_shift)
