/* SPDX-License-Identifier: MIT */
/* SSE integer arithmetic on XMM registers (SSE2 to SSE4.2): wrapping and
 * saturating add/sub, the multiplies, averages, compares, min/max, psadbw,
 * the logic operations, the SSSE3 abs/sign/horizontal add-sub, ptest and
 * phminposuw. Exact C on the element views; nothing here raises an
 * exception besides memory faults and the 16-byte alignment #GP. Shifts,
 * packs and shuffles are in sse_shift.c and sse_shuf.c. */
#include <stdlib.h>

#include "replayer/cpu/sse_util.h"

static inline i64 clampi(i64 v, i64 lo, i64 hi) {
  return v < lo ? lo : v > hi ? hi : v;
}

/* r.V[i] = EXPR for each of N lanes, with a = destination lane and
 * b = source lane (view V of union cpu_vec). Defines the SSE handler
 * op_MN_Vx_Wx and its VEX form op_vMN, which works on all 32 bytes at
 * once (a = the vvvv source; the upper half is then zeroed at 128 bits)
 * rather than through cpu__vex's lanes: these are the hot instructions of
 * AVX2 integer code, and a fixed trip count lets the compiler vectorize. */
#define LANES(mn, V, N, EXPR)                                              \
  static int op_##mn##_Vx_Wx(struct cpu *cpu, const struct cpu_insn *in) { \
    union cpu_vec s, r;                                                    \
    CPU_TRY(cpu__W16(cpu, in, 1, &s));                                     \
    const union cpu_vec *d = cpu__x(cpu, in->reg);                         \
    for (int i = 0; i < (N); i++) {                                        \
      __typeof__(d->V[0]) a = d->V[i], b = s.V[i];                         \
      (void)a;                                                             \
      (void)b;                                                             \
      r.V[i] = (__typeof__(d->V[0]))(EXPR);                                \
    }                                                                      \
    cpu__xset(cpu, in->reg, &r);                                           \
    return CPU_RC_NEXT;                                                    \
  }                                                                        \
  static int op_v##mn(struct cpu *cpu, const struct cpu_insn *in) {        \
    union cpu_vec t, r;                                                    \
    const union cpu_vec *s, *d = &cpu->ymm[in->reg2];                      \
    int wide = cpu__vex256(in);                                            \
    CPU_TRY(cpu__vex_src(cpu, in, wide ? 32 : 16, &t, &s));                \
    for (int i = 0; i < 2 * (N); i++) {                                    \
      __typeof__(d->V[0]) a = d->V[i], b = s->V[i];                        \
      (void)a;                                                             \
      (void)b;                                                             \
      r.V[i] = (__typeof__(d->V[0]))(EXPR);                                \
    }                                                                      \
    if (!wide) memset(r.b + 16, 0, 16);                                    \
    cpu_vput(cpu, in->reg, &r);                                            \
    return CPU_RC_NEXT;                                                    \
  }

LANES(paddb, b, 16, a + b)
LANES(paddw, w, 8, a + b)
LANES(paddd, d, 4, a + b)
LANES(paddq, q, 2, a + b)
LANES(psubb, b, 16, a - b)
LANES(psubw, w, 8, a - b)
LANES(psubd, d, 4, a - b)
LANES(psubq, q, 2, a - b)
LANES(paddsb, sb, 16, clampi((i64)a + b, -128, 127))
LANES(paddsw, sw, 8, clampi((i64)a + b, -32768, 32767))
LANES(psubsb, sb, 16, clampi((i64)a - b, -128, 127))
LANES(psubsw, sw, 8, clampi((i64)a - b, -32768, 32767))
LANES(paddusb, b, 16, clampi((i64)a + b, 0, 255))
LANES(paddusw, w, 8, clampi((i64)a + b, 0, 65535))
LANES(psubusb, b, 16, clampi((i64)a - b, 0, 255))
LANES(psubusw, w, 8, clampi((i64)a - b, 0, 65535))
LANES(pmullw, w, 8, (u32)a * b)
LANES(pmulhw, sw, 8, ((i32)a * b) >> 16)
LANES(pmulhuw, w, 8, ((u32)a * b) >> 16)
LANES(pmulld, d, 4, (u64)a * b)
LANES(pmulhrsw, sw, 8, ((((i32)a * b) >> 14) + 1) >> 1)
LANES(pavgb, b, 16, ((u32)a + b + 1) >> 1)
LANES(pavgw, w, 8, ((u32)a + b + 1) >> 1)
LANES(pcmpeqb, b, 16, a == b ? 0xff : 0)
LANES(pcmpeqw, w, 8, a == b ? 0xffff : 0)
LANES(pcmpeqd, d, 4, a == b ? 0xffffffffu : 0)
LANES(pcmpeqq, q, 2, a == b ? ~0ull : 0)
LANES(pcmpgtb, sb, 16, a > b ? -1 : 0)
LANES(pcmpgtw, sw, 8, a > b ? -1 : 0)
LANES(pcmpgtd, sd, 4, a > b ? -1 : 0)
LANES(pcmpgtq, sq, 2, a > b ? -1 : 0)
LANES(pminsb, sb, 16, a < b ? a : b)
LANES(pminub, b, 16, a < b ? a : b)
LANES(pminsw, sw, 8, a < b ? a : b)
LANES(pminuw, w, 8, a < b ? a : b)
LANES(pminsd, sd, 4, a < b ? a : b)
LANES(pminud, d, 4, a < b ? a : b)
LANES(pmaxsb, sb, 16, a > b ? a : b)
LANES(pmaxub, b, 16, a > b ? a : b)
LANES(pmaxsw, sw, 8, a > b ? a : b)
LANES(pmaxuw, w, 8, a > b ? a : b)
LANES(pmaxsd, sd, 4, a > b ? a : b)
LANES(pmaxud, d, 4, a > b ? a : b)
LANES(pand, q, 2, a & b)
LANES(pandn, q, 2, ~a & b)
LANES(por, q, 2, a | b)
LANES(pxor, q, 2, a ^ b)
LANES(pabsb, sb, 16, b < 0 ? -(i32)b : b)
LANES(pabsw, sw, 8, b < 0 ? -(i32)b : b)
LANES(pabsd, sd, 4, b < 0 ? -(i64)b : b)
LANES(psignb, sb, 16, b < 0 ? -(i32)a : b == 0 ? 0 : a)
LANES(psignw, sw, 8, b < 0 ? -(i32)a : b == 0 ? 0 : a)
LANES(psignd, sd, 4, b < 0 ? -(i64)a : b == 0 ? 0 : a)
#undef LANES

/* Lanes built from pairs: r.V[i] from element pairs of the destination and
 * source (views DV of d and SV of s). */
#define PAIRS(mn, V, N, EXPR)                                              \
  static int op_##mn##_Vx_Wx(struct cpu *cpu, const struct cpu_insn *in) { \
    union cpu_vec s, r;                                                    \
    CPU_TRY(cpu__W16(cpu, in, 1, &s));                                     \
    const union cpu_vec *d = cpu__x(cpu, in->reg);                         \
    for (int i = 0; i < (N); i++) {                                        \
      r.V[i] = (__typeof__(r.V[0]))(EXPR);                                 \
    }                                                                      \
    cpu__xset(cpu, in->reg, &r);                                           \
    return CPU_RC_NEXT;                                                    \
  }

PAIRS(pmuludq, q, 2, (u64)d->d[2 * i] * s.d[2 * i])
PAIRS(pmuldq, sq, 2, (i64)d->sd[2 * i] * s.sd[2 * i])
PAIRS(pmaddwd, d, 4,
      (u32)((i32)d->sw[2 * i] * s.sw[2 * i]) +
          (u32)((i32)d->sw[2 * i + 1] * s.sw[2 * i + 1]))
PAIRS(pmaddubsw, sw, 8,
      clampi((i32)d->b[2 * i] * s.sb[2 * i] +
                 (i32)d->b[2 * i + 1] * s.sb[2 * i + 1],
             -32768, 32767))
/* Horizontal: lanes 0..N/2-1 from the destination's pairs, the rest from
 * the source's. */
#define HP(v, V, i, N) \
  ((i) < (N) / 2 ? (d->V[2 * (i)] v d->V[2 * (i) + 1]) \
                 : (s.V[2 * (i) - (N)] v s.V[2 * (i) - (N) + 1]))
PAIRS(phaddw, w, 8, HP(+, w, i, 8))
PAIRS(phaddd, d, 4, HP(+, d, i, 4))
PAIRS(phsubw, w, 8, HP(-, w, i, 8))
PAIRS(phsubd, d, 4, HP(-, d, i, 4))
PAIRS(phaddsw, sw, 8, clampi(HP(+, sw, i, 8), -32768, 32767))
PAIRS(phsubsw, sw, 8, clampi(HP(-, sw, i, 8), -32768, 32767))
#undef HP
#undef PAIRS

static int op_psadbw_Vx_Wx(struct cpu *cpu, const struct cpu_insn *in) {
  union cpu_vec s, r = {0};
  CPU_TRY(cpu__W16(cpu, in, 1, &s));
  const union cpu_vec *d = cpu__x(cpu, in->reg);
  for (int h = 0; h < 2; h++) {
    u64 sum = 0;
    for (int i = 0; i < 8; i++) sum += (u64)abs(d->b[8 * h + i] - s.b[8 * h + i]);
    r.q[h] = sum;
  }
  cpu__xset(cpu, in->reg, &r);
  return CPU_RC_NEXT;
}

/* ptest: ZF = !(d & s), CF = !(~d & s); AF OF PF SF cleared. */
static int op_ptest_Vx_Wx(struct cpu *cpu, const struct cpu_insn *in) {
  union cpu_vec s;
  CPU_TRY(cpu__W16(cpu, in, 1, &s));
  const union cpu_vec *d = cpu__x(cpu, in->reg);
  u64 f = 0;
  if (!((d->q[0] & s.q[0]) | (d->q[1] & s.q[1]))) f |= CPU_ZF;
  if (!((~d->q[0] & s.q[0]) | (~d->q[1] & s.q[1]))) f |= CPU_CF;
  cpu__flags_set(cpu, CPU_ARITH, f);
  return CPU_RC_NEXT;
}

static int op_phminposuw_Vx_Wx(struct cpu *cpu, const struct cpu_insn *in) {
  union cpu_vec s, r = {0};
  CPU_TRY(cpu__W16(cpu, in, 1, &s));
  unsigned best = 0;
  for (unsigned i = 1; i < 8; i++)
    if (s.w[i] < s.w[best]) best = i;
  r.w[0] = s.w[best];
  r.w[1] = (u16)best;
  cpu__xset(cpu, in->reg, &r);
  return CPU_RC_NEXT;
}


/* ---- VEX forms (avx.c runs these handlers per 128-bit lane) ---------- */

CPU_VEX(vpmuludq, op_pmuludq_Vx_Wx, CPU_VX_SRC1)
CPU_VEX(vpmuldq, op_pmuldq_Vx_Wx, CPU_VX_SRC1)
CPU_VEX(vpmaddwd, op_pmaddwd_Vx_Wx, CPU_VX_SRC1)
CPU_VEX(vpmaddubsw, op_pmaddubsw_Vx_Wx, CPU_VX_SRC1)
CPU_VEX(vphaddw, op_phaddw_Vx_Wx, CPU_VX_SRC1)
CPU_VEX(vphaddd, op_phaddd_Vx_Wx, CPU_VX_SRC1)
CPU_VEX(vphaddsw, op_phaddsw_Vx_Wx, CPU_VX_SRC1)
CPU_VEX(vphsubw, op_phsubw_Vx_Wx, CPU_VX_SRC1)
CPU_VEX(vphsubd, op_phsubd_Vx_Wx, CPU_VX_SRC1)
CPU_VEX(vphsubsw, op_phsubsw_Vx_Wx, CPU_VX_SRC1)
CPU_VEX(vpsadbw, op_psadbw_Vx_Wx, CPU_VX_SRC1)
CPU_VEX(vphminposuw, op_phminposuw_Vx_Wx, 0)

/* ---- MMX forms (mmx.c runs these handlers on the 64-bit operands) -- */

CPU_MMX(mmx_paddb, op_paddb_Vx_Wx, 0)
CPU_MMX(mmx_paddw, op_paddw_Vx_Wx, 0)
CPU_MMX(mmx_paddd, op_paddd_Vx_Wx, 0)
CPU_MMX(mmx_paddq, op_paddq_Vx_Wx, 0)
CPU_MMX(mmx_psubb, op_psubb_Vx_Wx, 0)
CPU_MMX(mmx_psubw, op_psubw_Vx_Wx, 0)
CPU_MMX(mmx_psubd, op_psubd_Vx_Wx, 0)
CPU_MMX(mmx_psubq, op_psubq_Vx_Wx, 0)
CPU_MMX(mmx_paddsb, op_paddsb_Vx_Wx, 0)
CPU_MMX(mmx_paddsw, op_paddsw_Vx_Wx, 0)
CPU_MMX(mmx_psubsb, op_psubsb_Vx_Wx, 0)
CPU_MMX(mmx_psubsw, op_psubsw_Vx_Wx, 0)
CPU_MMX(mmx_paddusb, op_paddusb_Vx_Wx, 0)
CPU_MMX(mmx_paddusw, op_paddusw_Vx_Wx, 0)
CPU_MMX(mmx_psubusb, op_psubusb_Vx_Wx, 0)
CPU_MMX(mmx_psubusw, op_psubusw_Vx_Wx, 0)
CPU_MMX(mmx_pmullw, op_pmullw_Vx_Wx, 0)
CPU_MMX(mmx_pmulhw, op_pmulhw_Vx_Wx, 0)
CPU_MMX(mmx_pmulhuw, op_pmulhuw_Vx_Wx, 0)
CPU_MMX(mmx_pavgb, op_pavgb_Vx_Wx, 0)
CPU_MMX(mmx_pavgw, op_pavgw_Vx_Wx, 0)
CPU_MMX(mmx_pcmpeqb, op_pcmpeqb_Vx_Wx, 0)
CPU_MMX(mmx_pcmpeqw, op_pcmpeqw_Vx_Wx, 0)
CPU_MMX(mmx_pcmpeqd, op_pcmpeqd_Vx_Wx, 0)
CPU_MMX(mmx_pcmpgtb, op_pcmpgtb_Vx_Wx, 0)
CPU_MMX(mmx_pcmpgtw, op_pcmpgtw_Vx_Wx, 0)
CPU_MMX(mmx_pcmpgtd, op_pcmpgtd_Vx_Wx, 0)
CPU_MMX(mmx_pminub, op_pminub_Vx_Wx, 0)
CPU_MMX(mmx_pminsw, op_pminsw_Vx_Wx, 0)
CPU_MMX(mmx_pmaxub, op_pmaxub_Vx_Wx, 0)
CPU_MMX(mmx_pmaxsw, op_pmaxsw_Vx_Wx, 0)
CPU_MMX(mmx_pand, op_pand_Vx_Wx, 0)
CPU_MMX(mmx_pandn, op_pandn_Vx_Wx, 0)
CPU_MMX(mmx_por, op_por_Vx_Wx, 0)
CPU_MMX(mmx_pxor, op_pxor_Vx_Wx, 0)
CPU_MMX(mmx_pmuludq, op_pmuludq_Vx_Wx, 0)
CPU_MMX(mmx_pmaddwd, op_pmaddwd_Vx_Wx, 0)
CPU_MMX(mmx_psadbw, op_psadbw_Vx_Wx, 0)
CPU_MMX(mmx_pmulhrsw, op_pmulhrsw_Vx_Wx, 0)
CPU_MMX(mmx_pabsb, op_pabsb_Vx_Wx, 0)
CPU_MMX(mmx_pabsw, op_pabsw_Vx_Wx, 0)
CPU_MMX(mmx_pabsd, op_pabsd_Vx_Wx, 0)
CPU_MMX(mmx_psignb, op_psignb_Vx_Wx, 0)
CPU_MMX(mmx_psignw, op_psignw_Vx_Wx, 0)
CPU_MMX(mmx_psignd, op_psignd_Vx_Wx, 0)
CPU_MMX(mmx_pmaddubsw, op_pmaddubsw_Vx_Wx, 0)
CPU_MMX(mmx_phaddw, op_phaddw_Vx_Wx, CPU_MM_PAIR)
CPU_MMX(mmx_phaddd, op_phaddd_Vx_Wx, CPU_MM_PAIR)
CPU_MMX(mmx_phaddsw, op_phaddsw_Vx_Wx, CPU_MM_PAIR)
CPU_MMX(mmx_phsubw, op_phsubw_Vx_Wx, CPU_MM_PAIR)
CPU_MMX(mmx_phsubd, op_phsubd_Vx_Wx, CPU_MM_PAIR)
CPU_MMX(mmx_phsubsw, op_phsubsw_Vx_Wx, CPU_MM_PAIR)

static const struct cpu__oprow sse_int_rows[] = {
#define OP(id, form, fn) {id, CPU_FORM_##form, fn, #fn},
#include "replayer/cpu/sse_int.def"
#undef OP
};
CPU__FAMILY_TABLE(sse_int)
