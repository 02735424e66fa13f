/* SPDX-License-Identifier: MIT */
/* Helpers shared by the SSE family files (replayer/cpu/sse_*.c): MXCSR bits,
 * the floating-point engine that runs one host SSE/SSE2 instruction under the
 * guest's rounding, DAZ and FTZ and turns its exception flags into the
 * guest's MXCSR update or #XM, and small vector accessors. The host never
 * executes anything beyond SSE2 here (plus x87 for exact exception flags);
 * SSE3..SSE4.2 semantics are written in C. */
#ifndef RW_REPLAYER_CPU_SSE_UTIL_H
#define RW_REPLAYER_CPU_SSE_UTIL_H

#include <emmintrin.h>

#include "replayer/cpu/cpu_int.h"

/* MXCSR fields. */
enum {
  CPU_MX_IE = 0x1,  /* invalid operation */
  CPU_MX_DE = 0x2,  /* denormal operand */
  CPU_MX_ZE = 0x4,  /* divide by zero */
  CPU_MX_OE = 0x8,  /* overflow */
  CPU_MX_UE = 0x10, /* underflow */
  CPU_MX_PE = 0x20, /* precision */
  CPU_MX_FLAGS = 0x3f,
  CPU_MX_DAZ = 0x40,
  CPU_MX_MASKS = 0x1f80, /* IM DM ZM OM UM PM, flags << 7 */
  CPU_MX_RC = 0x6000,    /* rounding control */
  CPU_MX_FTZ = 0x8000,
  CPU_MX_VALID = 0xffff  /* bits ldmxcsr accepts (MXCSR_MASK 0xffff) */
};

/* The top bit of each ESZ-byte element (1, 4 or 8) of the 16 bytes at P,
 * element i at bit i: movmskps/pd and pmovmskb, through the host's own
 * (SSE2, which every x86-64 host has: the same bits on any of them). */
static inline u32 cpu__signs16(const u8 *p, unsigned esz) {
  __m128i v = _mm_loadu_si128((const __m128i *)(const void *)p);
  if (esz == 1) return (u32)_mm_movemask_epi8(v);
  if (esz == 4) return (u32)_mm_movemask_ps(_mm_castsi128_ps(v));
  return (u32)_mm_movemask_pd(_mm_castsi128_pd(v));
}

/* Host operations of the engine (sse_fpu.c). Each is one SSE/SSE2 host
 * instruction on two 16-byte operands (destination first), or a
 * conversion. */
enum cpu__sse_hop {
#define HOP(name, insn, kind, esz, n) CPU__HOP_##name,
#define HOPG(name, tmpl, dir, esz) CPU__HOP_##name,
#include "replayer/cpu/sse_hops.def"
#undef HOP
#undef HOPG
  CPU__HOP_COUNT
};

/* Runs host operation HOP on A (destination, updated) and B under the
 * guest MXCSR MX (rounding, DAZ, FTZ; exceptions masked) and returns the
 * exception flags it raised (CPU_MX_*). Never faults. */
u32 cpu__sse_host(int hop, union cpu_vec *a, const union cpu_vec *b, u32 mx);

/* Executes HOP on the guest: A = destination value, B = source, as for
 * cpu__sse_host, then applies the SIMD exception rules of the guest MXCSR.
 * Returns 0 with *A the result and cpu->mxcsr's flags updated, or CPU_FAULT
 * (#XM) with the flags the CPU sets before it faults and *A meaningless. */
int cpu__sse_fp(struct cpu *cpu, int hop, union cpu_vec *a,
                const union cpu_vec *b) RW_MUST_CHECK;

/* Applies the exception flags FL of an operation that cannot overflow or
 * underflow (compares, conversions to integers, rounding, min/max): OR them
 * into MXCSR, or #XM when one of them is unmasked (only the
 * pre-computation ones then, if one of those is unmasked). */
int cpu__sse_flags(struct cpu *cpu, u32 fl) RW_MUST_CHECK;

/* Compares A with B (16 bytes each) under predicate P (0-31, the VEX
 * predicates): HOPEQ is the host eq operation of the element type (ps, pd,
 * ss or sd). Element results (all ones or zero) replace A's elements (the
 * low one only for ss/sd); flags and #XM as cpu__sse_fp. */
int cpu__fcmp32(struct cpu *cpu, unsigned p, int hopeq, union cpu_vec *a,
                const union cpu_vec *b) RW_MUST_CHECK;

/* One element of a fused multiply-add (fma.c): OPS are the element's
 * operands (dest, vvvv, rm) as float (DBL 0) or double bits, ORDER 132,
 * 213 or 231 which of them are a, b and c, KIND a CPU_FMA_* and I the
 * element's index (for addsub/subadd). Returns the result rounded under
 * MX, with the flags in *FL (masked view) and *EX (unmasked view, see
 * cpu__sse_commit). */
u64 cpu__fma_elem(int dbl, const u64 ops[3], unsigned order, int kind,
                  unsigned i, u32 mx, u32 *fl, u32 *ex);

/* The handlers of every FMA3 form, op_NAME132p .. op_NAME231p (packed)
 * and op_NAME132s .. op_NAME231s (scalar), each returning
 * CALL(cpu, in, order, kind, scalar): fma.c's VEX ones and evex_fp.c's
 * EVEX ones. */
#define CPU_FMA_1(call, name, order, sfx, kind, scalar)               \
  static int op_##name##order##sfx(struct cpu *cpu,                   \
                                   const struct cpu_insn *in) {       \
    return call(cpu, in, order, kind, scalar);                        \
  }
#define CPU_FMA_3(call, name, sfx, kind, scalar)                      \
  CPU_FMA_1(call, name, 132, sfx, kind, scalar)                       \
  CPU_FMA_1(call, name, 213, sfx, kind, scalar)                       \
  CPU_FMA_1(call, name, 231, sfx, kind, scalar)
#define CPU_FMA_HANDLERS(call)                                        \
  CPU_FMA_3(call, vfmadd, p, CPU_FMA_ADD, 0)                          \
  CPU_FMA_3(call, vfmadd, s, CPU_FMA_ADD, 1)                          \
  CPU_FMA_3(call, vfmsub, p, CPU_FMA_SUB, 0)                          \
  CPU_FMA_3(call, vfmsub, s, CPU_FMA_SUB, 1)                          \
  CPU_FMA_3(call, vfnmadd, p, CPU_FMA_NADD, 0)                        \
  CPU_FMA_3(call, vfnmadd, s, CPU_FMA_NADD, 1)                        \
  CPU_FMA_3(call, vfnmsub, p, CPU_FMA_NSUB, 0)                        \
  CPU_FMA_3(call, vfnmsub, s, CPU_FMA_NSUB, 1)                        \
  CPU_FMA_3(call, vfmaddsub, p, CPU_FMA_ADDSUB, 0)                    \
  CPU_FMA_3(call, vfmsubadd, p, CPU_FMA_SUBADD, 0)

/* ---- Lanes of crypto.c and gfni.c, shared with evex_aes.c ------------ */

/* The four AES rounds (crypto.c). */
enum { CPU_AES_ENC, CPU_AES_ENCLAST, CPU_AES_DEC, CPU_AES_DECLAST };

/* D = the AES round KIND (a CPU_AES_*) of STATE under the round key KEY,
 * as aesenc..aesdeclast compute it: the low 16 bytes of each, the rest of
 * D unchanged. D may alias STATE or KEY. */
void cpu__aes_lane(int kind, union cpu_vec *d, const union cpu_vec *state,
                   const union cpu_vec *key);

/* D = pclmulqdq of A and B: the carry-less product of A's qword imm8 bit 0
 * picks and B's qword bit 4 picks, in the low 16 bytes of D (the rest
 * unchanged). D may alias A or B. */
void cpu__pclmulqdq_lane(union cpu_vec *d, const union cpu_vec *a,
                         const union cpu_vec *b, unsigned imm);

/* The GFNI operations (gfni.c). */
enum { CPU_GF_MUL, CPU_GF_AFFINE, CPU_GF_AFFINEINV };

/* D = OP(X, M) on the low N bytes (16 or 32), the rest of D zero: X is the
 * first source (the bytes transformed, or the first factor), M the second
 * (each qword the matrix of the bytes of the same qword of X, or the
 * second factor), IMM the affine constant. D may alias X or M. */
void cpu__gf_run(int op, union cpu_vec *d, const union cpu_vec *x,
                 const union cpu_vec *m, unsigned imm, unsigned n);

/* Applies the exceptions of a whole operation at once: EX the flags its
 * elements raise as the unmasked exceptions see them, FL those they raise
 * masked (cpu__vex, after its lanes ran with cpu->xm_defer set). */
int cpu__sse_commit(struct cpu *cpu, u32 ex, u32 fl) RW_MUST_CHECK;

/* The XMM register R, as the 16 low bytes of the YMM register. */
static inline union cpu_vec *cpu__x(struct cpu *cpu, unsigned r) {
  return &cpu->ymm[r];
}

/* Writes the low 16 bytes of V to XMM register R (legacy SSE: the YMM upper
 * half is kept). */
static inline void cpu__xset(struct cpu *cpu, unsigned r,
                             const union cpu_vec *v) {
  memcpy(cpu->ymm[r].b, v->b, 16);
}

/* The imm8 of IN. */
static inline unsigned cpu__imm8(const struct cpu_insn *in) {
  return (unsigned)(in->imm & 0xff);
}

/* Reads the 16-byte W operand of IN into *V; ALIGN = 1 for the aligned
 * forms (memory #GP unless 16-byte aligned). */
RW_MUST_CHECK static inline int cpu__W16(struct cpu *cpu,
                                         const struct cpu_insn *in, int align,
                                         union cpu_vec *v) {
  return cpu_W_read(cpu, in, 16, align, v);
}

/* ---- VEX forms of SSE instructions (avx.c) ----------------------------
 *
 * cpu__vex runs the SSE handler FN of an instruction's legacy form to
 * compute its VEX form, one 128-bit lane at a time, on the scratch
 * registers CPU_VTMP0 (destination) and CPU_VTMP1 (rm source): the lane of
 * the first source goes to VTMP0, the lane of the rm source to VTMP1, FN
 * runs with reg = VTMP0 and rm = VTMP1, and the
 * lanes it leaves in VTMP0 become the destination, whose bits above the
 * operation's width are zeroed. The memory operand is read whole, before
 * any lane runs and without the legacy alignment rule (unless
 * CPU_VX_ALIGN), so a fault leaves every register as it was. HOW: */
enum {
  CPU_VX_SRC1 = 1 << 0,  /* the vvvv register is the first source (else the
                            destination's old value, for unary forms) */
  CPU_VX_SRCRM = 1 << 1, /* the rm register is the first source (shifts
                            by an immediate: vvvv is the destination) */
  CPU_VX_NODST = 1 << 2, /* FN writes no vector register (flags, a general
                            register, memory): reg is left as decoded */
  CPU_VX_PASS = 1 << 3,  /* at 128 bits the rm operand is left to FN as
                            decoded (scalars, partial or GPR operands) */
  CPU_VX_ALIGN = 1 << 4, /* a memory operand must be aligned to its size */
  CPU_VX_SRC2X = 1 << 5, /* at 256 bits both lanes take the same 128-bit
                            rm source (shift counts) */
  CPU_VX_BLENDV = 1 << 6, /* the is4 register (imm2) is the selector FN
                             reads from XMM0 */
  CPU_VX_XMM0Z = 1 << 7   /* FN wrote XMM0: zero its upper half after */
};
/* The upper lane takes the immediate shifted right by N bits. */
#define CPU_VX_IMMSH(n) ((unsigned)(n) << 8)

int cpu__vex(struct cpu *cpu, const struct cpu_insn *in, cpu_handler fn,
             unsigned how) RW_MUST_CHECK;

/* 256-bit results from 128-bit sources and back, through the SSE handler
 * FN: widen runs FN once per destination lane on the next HALF source
 * bytes (vpmovzx/sx, vcvtps2pd, vcvtdq2pd); narrow runs it once per
 * source lane and keeps the low 8 bytes of each result (vcvtpd2ps,
 * vcvt(t)pd2dq). */
int cpu__vex_widen(struct cpu *cpu, const struct cpu_insn *in, cpu_handler fn,
                   unsigned half) RW_MUST_CHECK;
int cpu__vex_narrow(struct cpu *cpu, const struct cpu_insn *in,
                    cpu_handler fn) RW_MUST_CHECK;

/* Reads N bytes (4, 8, 16 or 32) of the rm operand of a VEX instruction
 * into *V, the rest zero; ALIGN makes memory #GP unless aligned to N. */
int cpu__vex_rm(struct cpu *cpu, const struct cpu_insn *in, unsigned n,
                int align, union cpu_vec *v) RW_MUST_CHECK;

/* Points *S at the rm source of a VEX instruction without copying a
 * register: the register itself, or its N bytes of memory read into *TMP
 * (the rest zero). Returns 0, or CPU_FAULT when the read faults. */
RW_MUST_CHECK static inline int cpu__vex_src(struct cpu *cpu,
                                             const struct cpu_insn *in,
                                             unsigned n, union cpu_vec *tmp,
                                             const union cpu_vec **s) {
  if (!(in->pfx & CPU_PFX_MEM)) {
    *s = &cpu->ymm[in->rm];
    return 0;
  }
  *s = tmp;
  return cpu__vex_rm(cpu, in, n, 0, tmp);
}

/* Defines handler op_NAME as the VEX form of the SSE handler LEGACY. */
#define CPU_VEX(name, legacy, how)                                     \
  static int op_##name(struct cpu *cpu, const struct cpu_insn *in) {   \
    return cpu__vex(cpu, in, legacy, how);                             \
  }

/* ---- MMX forms of SSE instructions (mmx.c) ----------------------------
 *
 * The MMX registers mm0-mm7 are the significands of the x87 physical
 * registers R0-R7. cpu__mmx runs the SSE handler FN of an instruction's
 * XMM form to compute its MMX form: it makes the x87 #MF check, puts the
 * 64-bit destination, zero-extended, in CPU_VTMP0 and the 64-bit source
 * (MMX register or memory, read before anything changes) in CPU_VTMP1,
 * runs FN on them and writes the low 8 bytes of VTMP0 back with
 * cpu__mm_set, after the x87-to-MMX transition (cpu__mmx_enter). What
 * does not fit that mould is shaped by HOW: */
enum {
  CPU_MM_PAIR = 1 << 0,  /* both VTMPs hold dest | src << 64 (packs and
                            horizontal adds take lanes from both) */
  CPU_MM_HIGH = 1 << 1,  /* both operands shifted right by 32 (punpckh*
                            as punpckl* on the high halves) */
  CPU_MM_M32 = 1 << 2,   /* a memory source is 4 bytes (punpckl*) */
  CPU_MM_NODST = 1 << 3, /* FN writes a general register (pmovmskb) */
  CPU_MM_XDST = 1 << 4,  /* the destination is the XMM register: VTMP0
                            holds it whole, and FN's 16 bytes go back
                            (cvtpi2pd) */
  CPU_MM_XLO = 1 << 5,   /* with XDST: only the low 8 bytes go back
                            (cvtpi2ps) */
  CPU_MM_XSRC = 1 << 6,  /* the source is the low 8 bytes of an XMM
                            register or m64 (cvtps2pi) */
  CPU_MM_XSRC16 = 1 << 7 /* the source is a whole XMM register or an
                            aligned m128 (cvtpd2pi) */
};

int cpu__mmx(struct cpu *cpu, const struct cpu_insn *in, cpu_handler fn,
             unsigned how) RW_MUST_CHECK;

/* The x87-to-MMX transition every MMX instruction but emms makes: TOP = 0
 * and every register tagged valid. */
static inline void cpu__mmx_enter(struct cpu *cpu) {
  cpu->x87.fsw &= (u16)~0x3800;
  cpu->x87.ftw = 0xff;
}

/* Writes V to MMX register R: the significand of R's physical x87
 * register, whose sign and exponent become all ones. */
static inline void cpu__mm_set(struct cpu *cpu, unsigned r, u64 v) {
  cpu->x87.st[r & 7].mant = v;
  cpu->x87.st[r & 7].se = 0xffff;
}

/* The value of MMX register R. */
static inline u64 cpu__mm(const struct cpu *cpu, unsigned r) {
  return cpu->x87.st[r & 7].mant;
}

/* Defines handler op_NAME as the MMX form of the SSE handler LEGACY. */
#define CPU_MMX(name, legacy, how)                                     \
  static int op_##name(struct cpu *cpu, const struct cpu_insn *in) {   \
    return cpu__mmx(cpu, in, legacy, how);                             \
  }

/* Whether IN operates on 256 bits (a YMM operand). */
static inline int cpu__vex256(const struct cpu_insn *in) {
  return in->osz == 32 || in->osz2 == 32;
}

#endif /* RW_REPLAYER_CPU_SSE_UTIL_H */
