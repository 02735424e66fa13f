/* SPDX-License-Identifier: MIT */
/* Integer arithmetic and logic: add, or, adc, sbb, and, sub, xor, cmp,
 * test, inc, dec, neg, not, for every size and register/memory/immediate
 * form. Flags are recorded lazily (cpu->cc) and committed only after the
 * store, so a fault leaves them as they were. */
#include "replayer/cpu/cpu_variant.h"

enum { A_ADD, A_OR, A_ADC, A_SBB, A_AND, A_SUB, A_XOR, A_CMP, A_TEST };

/* Computes A op B at SZ bytes into the result; *CC gets the flags state. */
static inline __attribute__((always_inline)) u64 alu(const struct cpu *cpu,
                                                     int op, unsigned sz, u64 a,
                                                     u64 b, struct cc *cc) {
  u64 r;
  switch (op) {
    case A_ADD:
      r = a + b;
      *cc = (struct cc){CC_OP(CC_ADD, sz), r, a, b};
      break;
    case A_ADC:
      r = a + b + (u64)cpu__flag_cf_inline(cpu);
      *cc = (struct cc){CC_OP(CC_ADC, sz), r, a, b};
      break;
    case A_SUB:
    case A_CMP:
      r = a - b;
      *cc = (struct cc){CC_OP(CC_SUB, sz), r, a, b};
      break;
    case A_SBB:
      r = a - b - (u64)cpu__flag_cf_inline(cpu);
      *cc = (struct cc){CC_OP(CC_SBB, sz), r, a, b};
      break;
    case A_AND:
    case A_TEST:
      r = a & b;
      *cc = (struct cc){CC_OP(CC_LOGIC, sz), r, 0, 0};
      break;
    case A_OR:
      r = a | b;
      *cc = (struct cc){CC_OP(CC_LOGIC, sz), r, 0, 0};
      break;
    default:
      r = a ^ b;
      *cc = (struct cc){CC_OP(CC_LOGIC, sz), r, 0, 0};
      break;
  }
  return cpu_trunc(r, sz);
}

/* rm op= B, with SZ and MODE as in cpu_variant.h. */
static inline __attribute__((always_inline)) int alu_rm(
    struct cpu *cpu, const struct cpu_insn *in, int op, u64 b, unsigned sz,
    int mode) {
  int wr = op != A_CMP && op != A_TEST;
  struct cc cc;
  u64 a, r;
  if (cpu__rm_is_mem(in, mode)) {
    u64 ea = cpu__ea_mode(cpu, in, mode);
    CPU_TRY(cpu_ld(cpu, ea, sz, &a));
    r = alu(cpu, op, sz, a, b, &cc);
    if (wr) CPU_TRY(cpu_st(cpu, ea, sz, r));
  } else {
    a = cpu_reg_get(cpu, in->rm, sz);
    r = alu(cpu, op, sz, a, b, &cc);
    if (wr) cpu_reg_set(cpu, in->rm, sz, r);
  }
  cpu->cc = cc;
  return CPU_RC_NEXT;
}

/* reg op= rm. */
static inline __attribute__((always_inline)) int alu_reg(
    struct cpu *cpu, const struct cpu_insn *in, int op, unsigned sz,
    int mode) {
  struct cc cc;
  u64 b, r;
  CPU_TRY(cpu__rm_read_mode(cpu, in, sz, mode, &b));
  r = alu(cpu, op, sz, cpu_reg_get(cpu, in->reg, sz), b, &cc);
  if (op != A_CMP) cpu_reg_set(cpu, in->reg, sz, r);
  cpu->cc = cc;
  return CPU_RC_NEXT;
}

/* The bodies of NAME's three forms and their size variants. */
#define ALU_BODIES(name, op)                                                \
  CPU_INLINE int name##_E_G(struct cpu *cpu, const struct cpu_insn *in,     \
                            unsigned sz, int mode) {                        \
    return alu_rm(cpu, in, op, cpu_reg_get(cpu, in->reg, sz), sz, mode);    \
  }                                                                         \
  CPU_INLINE int name##_E_I(struct cpu *cpu, const struct cpu_insn *in,     \
                            unsigned sz, int mode) {                        \
    return alu_rm(cpu, in, op, in->imm, sz, mode);                          \
  }                                                                         \
  CPU__SIZE_VARIANTS(op_##name##_E_G, name##_E_G)                           \
  CPU__SIZE_VARIANTS(op_##name##_E_I, name##_E_I)
#define ALU_HANDLERS(name, op)                                              \
  ALU_BODIES(name, op)                                                      \
  CPU_INLINE int name##_G_E(struct cpu *cpu, const struct cpu_insn *in,     \
                            unsigned sz, int mode) {                        \
    return alu_reg(cpu, in, op, sz, mode);                                  \
  }                                                                         \
  CPU__SIZE_VARIANTS(op_##name##_G_E, name##_G_E)
ALU_HANDLERS(add, A_ADD)
ALU_HANDLERS(or, A_OR)
ALU_HANDLERS(adc, A_ADC)
ALU_HANDLERS(sbb, A_SBB)
ALU_HANDLERS(and, A_AND)
ALU_HANDLERS(sub, A_SUB)
ALU_HANDLERS(xor, A_XOR)
ALU_HANDLERS(cmp, A_CMP)
ALU_BODIES(test, A_TEST)

/* One-operand read-modify-write: inc, dec, neg, not. */
enum { U_INC, U_DEC, U_NEG, U_NOT };
static inline __attribute__((always_inline)) int unary(
    struct cpu *cpu, const struct cpu_insn *in, int op, unsigned sz,
    int mode) {
  u64 a, r, ea = 0;
  struct cc cc = cpu->cc;
  int mem = cpu__rm_is_mem(in, mode);
  if (mem) {
    ea = cpu__ea_mode(cpu, in, mode);
    CPU_TRY(cpu_ld(cpu, ea, sz, &a));
  } else {
    a = cpu_reg_get(cpu, in->rm, sz);
  }
  switch (op) {
    case U_INC:
      r = a + 1;
      cc = (struct cc){CC_OP(CC_INC, sz), r, a,
                       (u64)cpu__flag_cf_inline(cpu)};
      break;
    case U_DEC:
      r = a - 1;
      cc = (struct cc){CC_OP(CC_DEC, sz), r, a,
                       (u64)cpu__flag_cf_inline(cpu)};
      break;
    case U_NEG:
      r = 0 - a;
      cc = (struct cc){CC_OP(CC_SUB, sz), r, 0, a};
      break;
    default:
      r = ~a;
      break;
  }
  if (mem)
    CPU_TRY(cpu_st(cpu, ea, sz, r));
  else
    cpu_reg_set(cpu, in->rm, sz, r);
  if (op != U_NOT) cpu->cc = cc;
  return CPU_RC_NEXT;
}

#define UNARY_HANDLERS(name, op)                                        \
  CPU_INLINE int name##_E(struct cpu *cpu, const struct cpu_insn *in,   \
                          unsigned sz, int mode) {                      \
    return unary(cpu, in, op, sz, mode);                                \
  }                                                                     \
  CPU__SIZE_VARIANTS(op_##name##_E, name##_E)
UNARY_HANDLERS(inc, U_INC)
UNARY_HANDLERS(dec, U_DEC)
UNARY_HANDLERS(neg, U_NEG)
UNARY_HANDLERS(not, U_NOT)

static const struct cpu__sizevar alu_variants[] = {
#define ALU_VARIANTS(name) \
  CPU__SIZE_ROW(op_##name##_E_G) CPU__SIZE_ROW(op_##name##_G_E) \
  CPU__SIZE_ROW(op_##name##_E_I)
    ALU_VARIANTS(add) ALU_VARIANTS(or) ALU_VARIANTS(adc) ALU_VARIANTS(sbb)
    ALU_VARIANTS(and) ALU_VARIANTS(sub) ALU_VARIANTS(xor) ALU_VARIANTS(cmp)
#undef ALU_VARIANTS
    CPU__SIZE_ROW(op_test_E_G) CPU__SIZE_ROW(op_test_E_I)
    CPU__SIZE_ROW(op_inc_E) CPU__SIZE_ROW(op_dec_E) CPU__SIZE_ROW(op_neg_E)
    CPU__SIZE_ROW(op_not_E)};

static cpu_handler alu_specialise(const struct cpu_insn *in,
                                   cpu_handler *chained) {
  return cpu__pick_size(alu_variants, RW_ARRAY_SIZE(alu_variants), in,
                        chained);
}

static const struct cpu__oprow alu_rows[] = {
#define OP(id, form, fn) {id, CPU_FORM_##form, fn, #fn},
#include "replayer/cpu/alu.def"
#undef OP
};
CPU__FAMILY_TABLE_SPEC(alu, alu_specialise)
