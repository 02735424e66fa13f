/* SPDX-License-Identifier: MIT */
/* Helpers shared by the SSE family files (replayer/cpu/sse_*.c): MXCSR bits,
 * the floating-point engine that runs one host SSE/SSE2 instruction under the
 * guest's rounding, DAZ and FTZ and turns its exception flags into the
 * guest's MXCSR update or #XM, and small vector accessors. The host never
 * executes anything beyond SSE2 here (plus x87 for exact exception flags);
 * SSE3..SSE4.2 semantics are written in C. */
#ifndef RW_REPLAYER_CPU_SSE_UTIL_H
#define RW_REPLAYER_CPU_SSE_UTIL_H

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

#endif /* RW_REPLAYER_CPU_SSE_UTIL_H */
