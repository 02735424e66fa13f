/* SPDX-License-Identifier: MIT */
/* The stack: push, pop, pushf, popf, enter, leave. rsp is committed only
 * after the memory access succeeded. */
#include "replayer/cpu/cpu_variant.h"

enum { RSP = 4, RBP = 5 };

/* Bits popf may change in user mode (CF PF AF ZF SF TF DF OF NT AC ID). */
#define POPF_MASK 0x244dd5ull

CPU_INLINE int push_E(struct cpu *cpu, const struct cpu_insn *in, unsigned sz,
                      int mode) {
  u64 v, sp = cpu->gpr[RSP] - sz;
  CPU_TRY(cpu__rm_read_mode(cpu, in, sz, mode, &v));
  CPU_TRY(cpu_st(cpu, sp, sz, v));
  cpu->gpr[RSP] = sp;
  return CPU_RC_NEXT;
}
CPU__SIZE_VARIANTS(op_push_E, push_E)

static int op_push_I(struct cpu *cpu, const struct cpu_insn *in) {
  unsigned sz = in->pfx & CPU_PFX_OPSIZE ? 2 : 8;
  u64 sp = cpu->gpr[RSP] - sz;
  CPU_TRY(cpu_st(cpu, sp, sz, in->imm));
  cpu->gpr[RSP] = sp;
  return CPU_RC_NEXT;
}

/* A memory destination addressed through rsp sees rsp after the pop. */
CPU_INLINE int pop_E(struct cpu *cpu, const struct cpu_insn *in, unsigned sz,
                     int mode) {
  u64 v, sp = cpu->gpr[RSP];
  CPU_TRY(cpu_ld(cpu, sp, sz, &v));
  if (cpu__rm_is_mem(in, mode)) {
    u64 ea;
    cpu->gpr[RSP] = sp + sz;
    ea = cpu__ea_mode(cpu, in, mode);
    cpu->gpr[RSP] = sp;
    CPU_TRY(cpu_st(cpu, ea, sz, v));
    cpu->gpr[RSP] = sp + sz;
  } else {
    cpu->gpr[RSP] = sp + sz;
    cpu_reg_set(cpu, in->rm, sz, v);
  }
  return CPU_RC_NEXT;
}
CPU__SIZE_VARIANTS(op_pop_E, pop_E)

static int op_pushf(struct cpu *cpu, const struct cpu_insn *in) {
  unsigned sz = in->pfx & CPU_PFX_OPSIZE ? 2 : 8;
  u64 sp = cpu->gpr[RSP] - sz;
  CPU_TRY(cpu_st(cpu, sp, sz, cpu__rflags(cpu) & ~0x30000ull));
  cpu->gpr[RSP] = sp;
  return CPU_RC_NEXT;
}

static int op_popf(struct cpu *cpu, const struct cpu_insn *in) {
  unsigned sz = in->pfx & CPU_PFX_OPSIZE ? 2 : 8;
  u64 v, old = cpu__rflags(cpu), mask = POPF_MASK & cpu_trunc(~0ull, sz);
  CPU_TRY(cpu_ld(cpu, cpu->gpr[RSP], sz, &v));
  cpu->gpr[RSP] += sz;
  cpu__rflags_set(cpu, (old & ~mask) | (v & mask));
  return CPU_RC_NEXT;
}

/* enter imm16, imm8: the nested frame pointers are copied from the old
 * frame; registers change only once every store succeeded. */
static int op_enter_I_I(struct cpu *cpu, const struct cpu_insn *in) {
  unsigned level = in->imm2 & 31;
  u64 sp = cpu->gpr[RSP] - 8, bp = cpu->gpr[RBP], frame;
  CPU_TRY(cpu_st64(cpu, sp, bp));
  frame = sp;
  if (level) {
    for (unsigned i = 1; i < level; i++) {
      u64 v;
      bp -= 8;
      CPU_TRY(cpu_ld64(cpu, bp, &v));
      sp -= 8;
      CPU_TRY(cpu_st64(cpu, sp, v));
    }
    sp -= 8;
    CPU_TRY(cpu_st64(cpu, sp, frame));
  }
  cpu->gpr[RBP] = frame;
  cpu->gpr[RSP] = sp - (u16)in->imm;
  return CPU_RC_NEXT;
}

static int op_leave(struct cpu *cpu, const struct cpu_insn *in) {
  u64 v, sp = cpu->gpr[RBP];
  (void)in;
  CPU_TRY(cpu_ld64(cpu, sp, &v));
  cpu->gpr[RSP] = sp + 8;
  cpu->gpr[RBP] = v;
  return CPU_RC_NEXT;
}

static const struct cpu__sizevar stack_variants[] = {
    CPU__SIZE_ROW(op_push_E) CPU__SIZE_ROW(op_pop_E)};

static cpu_handler stack_specialise(const struct cpu_insn *in,
                                   cpu_handler *chained) {
  return cpu__pick_size(stack_variants, RW_ARRAY_SIZE(stack_variants), in,
                        chained);
}

static const struct cpu__oprow stack_rows[] = {
#define OP(id, form, fn) {id, CPU_FORM_##form, fn, #fn},
#include "replayer/cpu/stack.def"
#undef OP
};
CPU__FAMILY_TABLE_SPEC(stack, stack_specialise)
