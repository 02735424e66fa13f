/* SPDX-License-Identifier: MIT */
/* Handlers specialised at decode time (STYLE R9: the choice is made once per
 * decoded address, never per execution). A family writes the body of a
 * handler once, as an always-inline function of (cpu, in, sz, mode) where
 * SZ is the operand size and MODE says where the rm operand is:
 *
 *   CPU__RM_ANY  the row's handler: size from in->osz, register or memory
 *                from in->pfx, full effective address (segment base, 67);
 *   CPU__RM_REG  rm is a register;
 *   CPU__RM_MEM  rm is memory with no segment override and 64-bit
 *                addressing (the decoder checks both before picking it).
 *
 * CPU__SIZE_VARIANTS(op_add_E_G, add_E_G_body) then defines the row's handler
 * op_add_E_G and eight constant-size copies op_add_E_G_r8 ... _m64 in which
 * the compiler folds away the size switch and the register/memory branch.
 * Each copy also has a chained form NAME_r8_c ... (see CPU__VARIANT_FN).
 * The family's specialiser (struct cpu__family.specialise) maps the row's
 * handler to a copy with cpu__pick_size() over a table of CPU__SIZE_ROW()s.
 * Because every copy is the same body, a copy behaves exactly as the row's
 * handler on the instructions it is picked for. */
#ifndef RW_REPLAYER_CPU_CPU_VARIANT_H
#define RW_REPLAYER_CPU_CPU_VARIANT_H

#include "replayer/cpu/cpu_int.h"

enum { CPU__RM_ANY = 0, CPU__RM_REG = 1, CPU__RM_MEM = 2 };

/* Whether IN's rm operand is memory under MODE. */
CPU_INLINE int cpu__rm_is_mem(const struct cpu_insn *in, int mode) {
  if (mode == CPU__RM_ANY) return (in->pfx & CPU_PFX_MEM) != 0;
  return mode == CPU__RM_MEM;
}

/* The effective address of IN's memory operand under MODE. */
CPU_INLINE u64 cpu__ea_mode(const struct cpu *cpu, const struct cpu_insn *in,
                            int mode) {
  if (mode == CPU__RM_MEM)
    return (u64)in->disp + cpu->gpr[in->base] +
           (cpu->gpr[in->index] << in->scale);
  return cpu_ea(cpu, in);
}

/* cpu_rm_read / cpu_rm_write under MODE. */
RW_MUST_CHECK CPU_INLINE int cpu__rm_read_mode(struct cpu *cpu,
                                               const struct cpu_insn *in,
                                               unsigned sz, int mode, u64 *v) {
  if (cpu__rm_is_mem(in, mode))
    return cpu_ld(cpu, cpu__ea_mode(cpu, in, mode), sz, v);
  *v = cpu_reg_get(cpu, in->rm, sz);
  return 0;
}
RW_MUST_CHECK CPU_INLINE int cpu__rm_write_mode(struct cpu *cpu,
                                                const struct cpu_insn *in,
                                                unsigned sz, int mode, u64 v) {
  if (cpu__rm_is_mem(in, mode))
    return cpu_st(cpu, cpu__ea_mode(cpu, in, mode), sz, v);
  cpu_reg_set(cpu, in->rm, sz, v);
  return 0;
}

/* A row's handler and its copies: v[log2(size)] for a register rm,
 * v[4 + log2(size)] for a memory rm; c[] the same copies in their chained
 * form (below). */
struct cpu__sizevar {
  cpu_handler generic;
  cpu_handler v[8];
  cpu_handler c[8];
};

/* The copy of T[0..N) for IN (whose fn is a row's handler), or NULL when
 * none applies: size not 1/2/4/8, memory with a segment override or 32-bit
 * addressing, or IN's handler not in T (decode.c). *CHAINED gets the chained
 * form of the copy returned. */
cpu_handler cpu__pick_size(const struct cpu__sizevar *t, size_t n,
                           const struct cpu_insn *in, cpu_handler *chained);

/* The chained form of a handler (struct cpu_insn.run): when the instruction
 * completes it advances rip and jumps straight to the next instruction's
 * handler, so a block runs without returning to the run loop between
 * instructions. It returns only the code of an instruction that did not
 * complete (rip then points at it) or whatever the block's last
 * instruction returns; run.c works out where the block stopped from that. */
#define CPU__VARIANT_FN(name, suffix, body, sz, mode)                        \
  static int name##_##suffix(struct cpu *cpu, const struct cpu_insn *in) {   \
    return body(cpu, in, sz, mode);                                          \
  }                                                                          \
  static int name##_##suffix##_c(struct cpu *cpu, const struct cpu_insn *in) { \
    int rc = body(cpu, in, sz, mode);                                        \
    if (RW_UNLIKELY(rc)) return rc;                                          \
    cpu->rip += in->len;                                                     \
    return in[1].run(cpu, in + 1);                                           \
  }

/* Eight copies NAME_r8 ... NAME_m64 of BODY. */
#define CPU__SIZE_COPIES(name, body)                               \
  CPU__VARIANT_FN(name, r8, body, 1, CPU__RM_REG)                  \
  CPU__VARIANT_FN(name, r16, body, 2, CPU__RM_REG)                 \
  CPU__VARIANT_FN(name, r32, body, 4, CPU__RM_REG)                 \
  CPU__VARIANT_FN(name, r64, body, 8, CPU__RM_REG)                 \
  CPU__VARIANT_FN(name, m8, body, 1, CPU__RM_MEM)                  \
  CPU__VARIANT_FN(name, m16, body, 2, CPU__RM_MEM)                 \
  CPU__VARIANT_FN(name, m32, body, 4, CPU__RM_MEM)                 \
  CPU__VARIANT_FN(name, m64, body, 8, CPU__RM_MEM)

/* The row's handler NAME and its eight copies, all from BODY. */
#define CPU__SIZE_VARIANTS(name, body)                          \
  static int name(struct cpu *cpu, const struct cpu_insn *in) { \
    return body(cpu, in, in->osz, CPU__RM_ANY);                 \
  }                                                             \
  CPU__SIZE_COPIES(name, body)

/* The table row mapping the row's handler GENERIC to the copies NAME_r8 ...
 * (from CPU__SIZE_COPIES). */
#define CPU__SIZE_ROW_FOR(generic, name)                                    \
  {generic,                                                                 \
   {name##_r8, name##_r16, name##_r32, name##_r64, name##_m8, name##_m16, \
    name##_m32, name##_m64},                                                \
   {name##_r8_c, name##_r16_c, name##_r32_c, name##_r64_c, name##_m8_c,   \
    name##_m16_c, name##_m32_c, name##_m64_c}},
/* The table row for the handlers CPU__SIZE_VARIANTS(name, ...) defined. */
#define CPU__SIZE_ROW(name) CPU__SIZE_ROW_FOR(name, name)

#endif /* RW_REPLAYER_CPU_CPU_VARIANT_H */
