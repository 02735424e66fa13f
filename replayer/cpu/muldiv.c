/* SPDX-License-Identifier: MIT */
/* Multiplication and division: mul, imul (one, two and three operands),
 * div, idiv at every width, with 128-bit products and dividends. Division
 * by zero and quotients that do not fit raise #DE before any register
 * changes. */
#include "replayer/cpu/cpu_variant.h"

enum { RAX = 0, RDX = 2 };

/* The one-operand forms read the accumulator pair at SZ bytes. */
static int mul1(struct cpu *cpu, const struct cpu_insn *in, int sgn) {
  unsigned sz = in->osz;
  u64 b, a = cpu_reg_get(cpu, RAX, sz), lo, hi, ovf;
  CPU_TRY(cpu_rm_read(cpu, in, sz, &b));
  if (sz == 8) {
    u128 p = sgn ? (u128)((i128)(i64)a * (i128)(i64)b) : (u128)a * b;
    lo = (u64)p;
    hi = (u64)(p >> 64);
    ovf = sgn ? hi != (u64)((i64)lo >> 63) : hi != 0;
    cpu->gpr[RAX] = lo;
    cpu->gpr[RDX] = hi;
  } else {
    unsigned bits = sz * 8;
    u64 p = sgn ? (u64)((i64)cpu_sext(a, sz) * (i64)cpu_sext(b, sz)) : a * b;
    lo = cpu_trunc(p, sz);
    hi = cpu_trunc(p >> bits, sz);
    ovf = sgn ? cpu_sext(p, sz) != cpu_sext(p, sz * 2) : hi != 0;
    if (sz == 1) {
      cpu_reg_set(cpu, RAX, 2, p);
    } else {
      cpu_reg_set(cpu, RAX, sz, lo);
      cpu_reg_set(cpu, RDX, sz, hi);
    }
  }
  cpu__flags_mul(cpu, sz, lo, ovf != 0);
  return CPU_RC_NEXT;
}

static int op_mul_E(struct cpu *cpu, const struct cpu_insn *in) {
  return mul1(cpu, in, 0);
}
static int op_imul_E(struct cpu *cpu, const struct cpu_insn *in) {
  return mul1(cpu, in, 1);
}

/* Truncating signed multiply of A and B at SZ into *R; returns overflow. */
CPU_INLINE int imul_trunc(unsigned sz, u64 a, u64 b, u64 *r) {
  if (sz == 8) {
    i64 p;
    int o = __builtin_mul_overflow((i64)a, (i64)b, &p);
    *r = (u64)p;
    return o;
  }
  i64 p = (i64)cpu_sext(a, sz) * (i64)cpu_sext(b, sz);
  *r = cpu_trunc((u64)p, sz);
  return (i64)cpu_sext(*r, sz) != p;
}

CPU_INLINE int imul_G_E(struct cpu *cpu, const struct cpu_insn *in,
                        unsigned sz, int mode) {
  u64 b, r;
  int o;
  CPU_TRY(cpu__rm_read_mode(cpu, in, sz, mode, &b));
  o = imul_trunc(sz, cpu_reg_get(cpu, in->reg, sz), b, &r);
  cpu_reg_set(cpu, in->reg, sz, r);
  cpu__flags_mul(cpu, sz, r, o);
  return CPU_RC_NEXT;
}
CPU__SIZE_VARIANTS(op_imul_G_E, imul_G_E)

CPU_INLINE int imul_G_E_I(struct cpu *cpu, const struct cpu_insn *in,
                          unsigned sz, int mode) {
  u64 b, r;
  int o;
  CPU_TRY(cpu__rm_read_mode(cpu, in, sz, mode, &b));
  o = imul_trunc(sz, b, in->imm, &r);
  cpu_reg_set(cpu, in->reg, sz, r);
  cpu__flags_mul(cpu, sz, r, o);
  return CPU_RC_NEXT;
}
CPU__SIZE_VARIANTS(op_imul_G_E_I, imul_G_E_I)

static int op_div_E(struct cpu *cpu, const struct cpu_insn *in) {
  unsigned sz = in->osz;
  u64 d, q, r;
  CPU_TRY(cpu_rm_read(cpu, in, sz, &d));
  if (!d) return cpu__fault(cpu, CPU_FAULT_DE);
  if (sz == 8) {
    u128 n = ((u128)cpu->gpr[RDX] << 64) | cpu->gpr[RAX];
    u128 q128 = n / d;
    if (q128 >> 64) return cpu__fault(cpu, CPU_FAULT_DE);
    q = (u64)q128;
    r = (u64)(n % d);
  } else {
    unsigned bits = sz * 8;
    u64 n = sz == 1 ? cpu_reg_get(cpu, RAX, 2)
                    : (cpu_reg_get(cpu, RDX, sz) << bits) |
                          cpu_reg_get(cpu, RAX, sz);
    q = n / d;
    r = n % d;
    if (q >> bits) return cpu__fault(cpu, CPU_FAULT_DE);
  }
  if (sz == 1) {
    cpu_reg_set(cpu, RAX, 2, q | (r << 8));
  } else {
    cpu_reg_set(cpu, RAX, sz, q);
    cpu_reg_set(cpu, RDX, sz, r);
  }
  cpu__flags_div(cpu);
  return CPU_RC_NEXT;
}

static int op_idiv_E(struct cpu *cpu, const struct cpu_insn *in) {
  unsigned sz = in->osz;
  u64 du, q, r;
  CPU_TRY(cpu_rm_read(cpu, in, sz, &du));
  if (!du) return cpu__fault(cpu, CPU_FAULT_DE);
  if (sz == 8) {
    i128 n = (i128)(((u128)cpu->gpr[RDX] << 64) | cpu->gpr[RAX]);
    i128 d = (i64)du, q128;
    /* The only quotient i128 cannot hold is INT128_MIN / -1. */
    if (d == -1 && n == (i128)((u128)1 << 127))
      return cpu__fault(cpu, CPU_FAULT_DE);
    q128 = n / d;
    if (q128 > INT64_MAX || q128 < INT64_MIN)
      return cpu__fault(cpu, CPU_FAULT_DE);
    q = (u64)(i64)q128;
    r = (u64)(i64)(n % d);
  } else {
    unsigned bits = sz * 8;
    i64 n = sz == 1 ? (i64)cpu_sext(cpu_reg_get(cpu, RAX, 2), 2)
                    : (i64)cpu_sext((cpu_reg_get(cpu, RDX, sz) << bits) |
                                        cpu_reg_get(cpu, RAX, sz),
                                    sz * 2);
    i64 d = (i64)cpu_sext(du, sz), qs;
    if (d == -1 && n == INT64_MIN) return cpu__fault(cpu, CPU_FAULT_DE);
    qs = n / d;
    if (qs > (i64)(cpu_trunc(~0ull, sz) >> 1) ||
        qs < -(i64)(cpu_trunc(~0ull, sz) >> 1) - 1)
      return cpu__fault(cpu, CPU_FAULT_DE);
    q = cpu_trunc((u64)qs, sz);
    r = cpu_trunc((u64)(n % d), sz);
  }
  if (sz == 1) {
    cpu_reg_set(cpu, RAX, 2, q | (r << 8));
  } else {
    cpu_reg_set(cpu, RAX, sz, q);
    cpu_reg_set(cpu, RDX, sz, r);
  }
  cpu__flags_div(cpu);
  return CPU_RC_NEXT;
}

static const struct cpu__sizevar muldiv_variants[] = {
    CPU__SIZE_ROW(op_imul_G_E) CPU__SIZE_ROW(op_imul_G_E_I)};

static cpu_handler muldiv_specialise(const struct cpu_insn *in,
                                   cpu_handler *chained) {
  return cpu__pick_size(muldiv_variants, RW_ARRAY_SIZE(muldiv_variants), in,
                        chained);
}

static const struct cpu__oprow muldiv_rows[] = {
#define OP(id, form, fn) {id, CPU_FORM_##form, fn, #fn},
#include "replayer/cpu/muldiv.def"
#undef OP
};
CPU__FAMILY_TABLE_SPEC(muldiv, muldiv_specialise)
