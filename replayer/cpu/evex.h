/* SPDX-License-Identifier: MIT */
/* What evex.c (the decoder, the opmask instructions, the shared operand
 * helpers) and evex_ops.c (the EVEX vector instructions and their rows)
 * share; evex.c's head comment describes struct cpu_insn for them. */
#ifndef RW_REPLAYER_CPU_EVEX_H
#define RW_REPLAYER_CPU_EVEX_H

#include "replayer/cpu/sse_util.h"

/* One ZMM value. */
union zv {
  u8 b[64];
  u16 w[32];
  u32 d[16];
  u64 q[8];
  i8 sb[64];
  i16 sw[32];
  i32 sd[16];
  i64 sq[8];
};

#define EV_AAA(in) ((unsigned)(in)->cond & 7)
#define EV_Z(in) (((in)->cond >> 3) & 1)
#define EV_BC(in) (((in)->cond >> 4) & 1)
/* EVEX.b on a register form of a row with R_ER or R_SAE (in imm2, which
 * EVEX instructions do not otherwise use): suppress all exceptions; with
 * R_ER, also round as EV_RC says (L'L, in MXCSR.RC order). */
#define EV_SAE(in) ((in)->imm2 & 1)
#define EV_ER(in) (((in)->imm2 >> 1) & 1)
#define EV_RC(in) (((unsigned)(in)->imm2 >> 2) & 3)

/* The MXCSR an EVEX floating-point instruction computes under: the
 * guest's, or with EVEX.b on a register form every exception masked and,
 * for embedded rounding, RC as L'L says. */
static inline u32 cpu__ev_mx(const struct cpu *cpu,
                             const struct cpu_insn *in) {
  u32 mx = cpu->mxcsr;
  if (EV_SAE(in)) mx |= CPU_MX_MASKS;
  if (EV_ER(in)) mx = (mx & ~(u32)CPU_MX_RC) | EV_RC(in) << 13;
  return mx;
}

/* Applies the flags of elements computed under cpu__ev_mx (see
 * cpu__sse_commit), none with SAE; nonzero for an unmasked exception. */
static inline int cpu__ev_commit(struct cpu *cpu, const struct cpu_insn *in,
                                 u32 ex, u32 fl) {
  return EV_SAE(in) ? 0 : cpu__sse_commit(cpu, ex, fl);
}

static inline void zget(const struct cpu *cpu, unsigned r, union zv *v) {
  memcpy(v->b, cpu->ymm[r].b, 32);
  memcpy(v->b + 32, cpu->zmmh[r].b, 32);
}

static inline void zset(struct cpu *cpu, unsigned r, const union zv *v) {
  memcpy(cpu->ymm[r].b, v->b, 32);
  memcpy(cpu->zmmh[r].b, v->b + 32, 32);
}

static inline u64 ones(unsigned n) { return n >= 64 ? ~0ull : (1ull << n) - 1; }

/* The opmask of IN for N elements: all ones without an opmask register. */
static inline u64 kmask(const struct cpu *cpu, const struct cpu_insn *in,
                 unsigned n) {
  unsigned k = EV_AAA(in);
  return k ? cpu->k[k] & ones(n) : ones(n);
}

/* Writes R to vector register DST under IN's opmask, with elements of ESZ
 * bytes: masked-off ones keep their value or become zero (EVEX.z); bytes
 * past the vector length become zero. */
static inline void zput(struct cpu *cpu, const struct cpu_insn *in,
                        unsigned dst, const union zv *r, unsigned esz) {
  unsigned vl = in->osz, n = vl / esz;
  u64 m = kmask(cpu, in, n);
  union zv out = {0};
  if (m == ones(n)) {
    /* constant sizes: copies the compiler inlines */
    if (vl == 64)
      memcpy(out.b, r->b, 64);
    else if (vl == 32)
      memcpy(out.b, r->b, 32);
    else if (vl == 16)
      memcpy(out.b, r->b, 16);
    else
      memcpy(out.b, r->b, vl);
  } else {
    if (!EV_Z(in)) {
      zget(cpu, dst, &out);
      memset(out.b + vl, 0, 64 - vl);
    }
    for (unsigned i = 0; i < n; i++) {
      if (!((m >> i) & 1)) continue;
      switch (esz) {
        case 1: out.b[i] = r->b[i]; break;
        case 2: out.w[i] = r->w[i]; break;
        case 4: out.d[i] = r->d[i]; break;
        case 8: out.q[i] = r->q[i]; break;
        default: memcpy(out.b + i * esz, r->b + i * esz, esz); break;
      }
    }
  }
  zset(cpu, dst, &out);
}

/* Loads N bytes at A (16, 32, 64, or any size through the slow path). */
int cpu__ev_ldv(struct cpu *cpu, u64 a, void *v, unsigned n);
/* Loads the NE elements of ESZ bytes at A whose bits in M are set into V
 * (the others zero), touching no byte of the others' pages when they do
 * not share one with an enabled element. */
int cpu__ev_ld_masked(struct cpu *cpu, u64 a, union zv *v, unsigned esz,
                      unsigned ne, u64 m);
/* Stores the enabled elements (bits of M) of V at A; the others' memory is
 * not written, and a fault changes nothing. KREG says the store goes
 * through an opmask register (EVEX.aaa not 0, or a compress): on Intel such
 * a store across two pages faults at another byte than a plain one. */
int cpu__ev_st_masked(struct cpu *cpu, u64 a, const union zv *v,
                      unsigned esz, unsigned ne, u64 m, int kreg);
/* Faults as a store of N bytes at A would (N at most 4096), naming its
 * lowest byte that cannot be written, and changes nothing. */
int cpu__ev_st_probe(struct cpu *cpu, u64 a, unsigned n);
/* The rm source of IN with elements of ESZ bytes: a register, the vector
 * length of memory under the opmask M, or with EVEX.b one element
 * (in->msz bytes) broadcast to every position. */
int cpu__ev_zsrc_m(struct cpu *cpu, const struct cpu_insn *in, unsigned esz,
                   u64 m, union zv *v);

/* The low element of rm (ESZ bytes) into *B, the rest zero; memory is read
 * only when M enables the element (evex_fp.c). */
int cpu__ev_scalar_src(struct cpu *cpu, const struct cpu_insn *in,
                       unsigned esz, u64 m, union cpu_vec *b);
/* Writes the 16 bytes R to reg with its low element (ESZ bytes) under the
 * opmask bit M, zero above bit 127 (evex_fp.c). */
void cpu__ev_scalar_put(struct cpu *cpu, const struct cpu_insn *in,
                        const union cpu_vec *r, unsigned esz, u64 m);

/* A handler that only calls a shared routine: EV_OP(vpavgb, f(cpu, in)). */
#define EV_OP(name, call)                                            \
  static int op_##name(struct cpu *cpu, const struct cpu_insn *in) { \
    return call;                                                     \
  }

/* The rm source of an element-wise instruction (masked elements not read). */
static inline int zsrc(struct cpu *cpu, const struct cpu_insn *in,
                       unsigned esz, union zv *v) {
  return cpu__ev_zsrc_m(cpu, in, esz, kmask(cpu, in, in->osz / esz), v);
}

/* The rm source read whole (permutes, shuffles: no fault suppression). */
static inline int zsrc_all(struct cpu *cpu, const struct cpu_insn *in,
                           unsigned esz, union zv *v) {
  return cpu__ev_zsrc_m(cpu, in, esz, ones(in->osz / esz), v);
}

/* ---- The table's form --------------------------------------------------- */

/* Operand forms (Intel's letters: V reg, H vvvv, W rm vector or memory,
 * K opmask register, E general register or memory, I imm8). */
enum {
  F_VHW,  /* reg = f(vvvv, rm) */
  F_VHWI, /* reg = f(vvvv, rm, imm8) */
  F_VW,   /* reg = f(rm); vvvv unused */
  F_VWI,  /* reg = f(rm, imm8); vvvv unused */
  F_WV,   /* rm = f(reg); vvvv unused */
  F_WVI,  /* rm = f(reg, imm8) (extracts) */
  F_HWI,  /* vvvv = f(rm, imm8), ModRM.reg an opcode extension */
  F_KHW,  /* k[reg] = f(vvvv, rm) */
  F_KHWI, /* k[reg] = f(vvvv, rm, imm8) */
  F_KWI,  /* k[reg] = f(rm, imm8); vvvv unused */
  F_KU,   /* k[reg] = f(rm register) */
  F_VK,   /* reg = f(k[rm]) */
  F_VR,   /* reg = f(general register rm) */
  F_VE,   /* reg = f(general register or memory rm) */
  F_EV,   /* general register or memory rm = f(reg) */
  F_VHE,  /* reg = f(vvvv, general register or memory rm) */
  F_VHEI, /* reg = f(vvvv, general register or memory rm, imm8) */
  F_GW,   /* general register reg = f(rm); vvvv unused */
  F_GWI,  /* general register reg = f(rm register, imm8); vvvv unused */
  F_EVI,  /* general register or memory rm = f(reg, imm8); vvvv unused */
  /* VEX opmask forms */
  F_KKM,  /* k[reg] = k[rm] or memory */
  F_MK,   /* memory = k[reg] */
  F_KR,   /* k[reg] = general register rm */
  F_RK,   /* general register reg = k[rm] */
  F_KKK,  /* k[reg] = f(k[vvvv], k[rm]) */
  F_KK,   /* k[reg] = f(k[rm]) or flags from k[reg], k[rm] */
  F_KKI   /* k[reg] = f(k[rm], imm8) */
};

/* Tuple types (SDM vol. 2, 2.7.5): how disp8 is scaled. */
enum {
  T_FV,   /* full vector: VL bytes, or the element with EVEX.b */
  T_FVM,  /* full vector, no broadcast */
  T_HVM,  /* half of VL */
  T_QVM,  /* quarter */
  T_OVM,  /* eighth */
  T_T1S,  /* one element */
  T_M128, /* 16 bytes (shift counts) */
  T_T4,   /* 16 bytes (x4 blocks of dwords) */
  T_T8,   /* 32 bytes */
  T_T2Q,  /* 16 bytes (x2 blocks of qwords) */
  T_HV,   /* half of VL, or the element with EVEX.b (widening converts) */
  T_T2,   /* two elements (x2 blocks of dwords: 8 bytes) */
  T_DUP,  /* vmovddup: 8 bytes at 128 bits, else VL */
  T_QV    /* a quarter of VL, or the element with EVEX.b (vcvtph2pd) */
};

/* Row flags. */
enum {
  R_BC = 1,      /* EVEX.b broadcast allowed with memory */
  R_NOMASK = 2,  /* no opmask register allowed */
  R_MEM = 4,     /* memory rm only */
  R_REG = 8,     /* register rm only */
  R_V256 = 16,   /* 256 and 512 bits only */
  R_NOZ = 32,    /* no zeroing-masking (stores, compares) */
  R_L0 = 64,     /* VEX: L must be 0 */
  R_L1 = 128,    /* VEX: L must be 1 */
  R_B4 = 256,    /* EVEX.b broadcasts dwords (elements are smaller) */
  R_B8 = 512,    /* EVEX.b broadcasts qwords */
  R_L128 = 1024, /* 128 bits only */
  R_ER = 2048,   /* EVEX.b with a register rm: rounding RC = L'L, 512 bits
                    (or scalar), exceptions suppressed */
  R_SAE = 4096,  /* EVEX.b with a register rm: exceptions suppressed, 512
                    bits (or scalar) */
  R_VSIB = 8192, /* a VSIB memory operand: in->index is the vector
                    register of the indices (SIB.index, X, V') */
  R_FP = 16384,  /* floating point: the differential harness gives it edge
                    values and a random MXCSR */
  R_B2 = 32768,  /* EVEX.b broadcasts words (elements are larger) */
  R_F16 = 65536  /* its floating-point sources are halves (the harness's
                    edge values) */
};

enum { W0 = 0, W1 = 1, WIG = 2, EXT_ANY = 8 };
enum { PP_NONE, PP_66, PP_F3, PP_F2 };
enum { MAP_0F = 1, MAP_0F38 = 2, MAP_0F3A = 3, MAP_5 = 5, MAP_6 = 6 };

struct ev_row {
  u8 map, pp, op, w, ext;
  u8 form;
  u8 esz;   /* element size (masking, broadcast); opmask width for VEX */
  u8 tuple; /* T_* */
  u32 fl;   /* R_* */
  u16 id;
  cpu_handler fn;
};

#define E(map, pp, op, w, ext, form, esz, tup, fl, name, fn)             \
  {MAP_##map, PP_##pp, 0x##op, w, ext, F_##form, esz, T_##tup, fl,       \
   CPU_INS_EV_##name, fn},
#define X EXT_ANY

/* The disp8 scale N of row R's tuple at vector length VL (bytes), with
 * EVEX.b set or not (evex.c; the differential harness uses it too). */
unsigned cpu__evex_disp8_n(const struct ev_row *r, unsigned vl, int bc);

/* The EVEX rows (evex_ops.c). */
extern const struct ev_row cpu__evex_rows[];
extern const size_t cpu__evex_nrows;
/* The EVEX floating-point rows (evex_fp.c). */
extern const struct ev_row cpu__evex_fp_rows[];
extern const size_t cpu__evex_fp_nrows;
/* The AVX512-FP16 arithmetic rows (evex_fp16.c). */
extern const struct ev_row cpu__evex_fp16_rows[];
extern const size_t cpu__evex_fp16_nrows;
/* The EVEX gathers and scatters (evex_gs.c). */
extern const struct ev_row cpu__evex_gs_rows[];
extern const size_t cpu__evex_gs_nrows;
/* The EVEX special-value rows: vgetexp, vgetmant... (evex_fpx.c). */
extern const struct ev_row cpu__evex_fpx_rows[];
extern const size_t cpu__evex_fpx_nrows;
/* The EVEX conversions to and from unsigned and general-register values,
 * half precision, and the scalar compares into RFLAGS (evex_cvt.c). */
extern const struct ev_row cpu__evex_cvt_rows[];
extern const size_t cpu__evex_cvt_nrows;
/* The EVEX floating-point shuffles and element inserts and extracts
 * (evex_shuf.c). */
extern const struct ev_row cpu__evex_shuf_rows[];
extern const size_t cpu__evex_shuf_nrows;
/* The EVEX dot products (VNNI, BF16) and the CD, VP2INTERSECT, BITALG and
 * VBMI2 instructions evex_ops.c lacks (evex_dot.c). */
extern const struct ev_row cpu__evex_dot_rows[];
extern const size_t cpu__evex_dot_nrows;
/* The EVEX forms of VAES, VPCLMULQDQ and GFNI (evex_aes.c). */
extern const struct ev_row cpu__evex_aes_rows[];
extern const size_t cpu__evex_aes_nrows;
/* Every EVEX table (evex.c), in the order the decoder searches them; the
 * last has a NULL ROWS. */
struct ev_table {
  const struct ev_row *rows;
  const size_t *n;
};
extern const struct ev_table cpu__evex_tables[];
/* AVX-VNNI, the VEX forms of the VNNI dot products (evex_dot.c). */
extern const struct ev_row cpu__vex_dot_rows[];
extern const size_t cpu__vex_dot_nrows;
/* The VEX tables the EVEX decoder owns (evex.c): the opmask rows and
 * AVX-VNNI's, which Capstone 4 cannot decode; NULL-ended like
 * cpu__evex_tables. A row with a vector form (F_VHW) is a vector
 * instruction of 128 or 256 bits by VEX.L; the others are opmask
 * instructions, whose esz is the opmask width. */
extern const struct ev_table cpu__vex_tables[];

#endif /* RW_REPLAYER_CPU_EVEX_H */
