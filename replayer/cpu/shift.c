/* SPDX-License-Identifier: MIT */
/* Shifts and rotates: shl/sal, shr, sar, rol, ror, rcl, rcr by 1, imm8 or
 * cl, and the double shifts shld/shrd. A masked count of 0 changes nothing,
 * flags included; counts beyond the width follow the CPU (masked to 5 or 6
 * bits; rcl/rcr of 8 and 16 bits rotate modulo width+1). */
#include "replayer/cpu/cpu_variant.h"

enum { S_SHL, S_SHR, S_SAR, S_ROL, S_ROR, S_RCL, S_RCR };
enum { RCX = 1 };

CPU_INLINE unsigned count_mask(unsigned sz) { return sz == 8 ? 63 : 31; }

/* Shifts A (SZ bytes) by C (1..63) with OP; fills *CC or, for rotates,
 * the carry out in *CF (and the carry in, for rcl/rcr, in *CIN). */
CPU_INLINE u64 shift(const struct cpu *cpu, int op, unsigned sz, u64 a,
                     unsigned c, struct cc *cc, int *cf, int *cin) {
  unsigned bits = sz * 8;
  u64 sign = 1ull << (bits - 1), r;
  switch (op) {
    case S_SHL:
      r = c >= 64 ? 0 : cpu_trunc(a << c, sz);
      *cc = (struct cc){CC_OP(CC_SHL, sz), r, a, c};
      return r;
    case S_SHR:
      r = c >= 64 ? 0 : a >> c;
      *cc = (struct cc){CC_OP(CC_SHR, sz), r, a, c};
      return r;
    case S_SAR:
      r = cpu_trunc((u64)((i64)cpu_sext(a, sz) >> (c > 63 ? 63 : c)), sz);
      *cc = (struct cc){CC_OP(CC_SAR, sz), r, a, c};
      return r;
    case S_ROL: {
      unsigned k = c % bits;
      r = k ? cpu_trunc((a << k) | (a >> (bits - k)), sz) : a;
      *cf = (int)(r & 1);
      return r;
    }
    case S_ROR: {
      unsigned k = c % bits;
      r = k ? cpu_trunc((a >> k) | (a << (bits - k)), sz) : a;
      *cf = !!(r & sign);
      return r;
    }
    case S_RCL: {
      unsigned k = c % (bits + 1);
      u64 carry = (u64)cpu__flag_cf(cpu);
      *cin = (int)carry;
      r = a;
      for (unsigned i = 0; i < k; i++) {
        u64 out = !!(r & sign);
        r = cpu_trunc((r << 1) | carry, sz);
        carry = out;
      }
      *cf = (int)carry;
      return r;
    }
    default: { /* S_RCR */
      unsigned k = c % (bits + 1);
      u64 carry = (u64)cpu__flag_cf(cpu);
      *cin = (int)carry;
      r = a;
      for (unsigned i = 0; i < k; i++) {
        u64 out = r & 1;
        r = (r >> 1) | (carry ? sign : 0);
        carry = out;
      }
      *cf = (int)carry;
      return r;
    }
  }
}

CPU_INLINE int shift_rm(struct cpu *cpu, const struct cpu_insn *in, int op,
                        unsigned count, unsigned sz, int mode, int by_cl) {
  unsigned c = count & count_mask(sz);
  u64 a, r, ea = 0;
  int cf = 0, cin = 0;
  struct cc cc;
  int mem = cpu__rm_is_mem(in, mode);
  if (mem) {
    ea = cpu__ea_mode(cpu, in, mode);
    CPU_TRY(cpu_ld(cpu, ea, sz, &a));
  } else {
    a = cpu_reg_get(cpu, in->rm, sz);
  }
  if (!c) {
    /* Flags stay, but the destination is written (a 32-bit register is
     * zero-extended), as the CPU does. */
    if (mem) return cpu_st(cpu, ea, sz, a);
    cpu_reg_set(cpu, in->rm, sz, a);
    return CPU_RC_NEXT;
  }
  r = shift(cpu, op, sz, a, c, &cc, &cf, &cin);
  if (mem)
    CPU_TRY(cpu_st(cpu, ea, sz, r));
  else
    cpu_reg_set(cpu, in->rm, sz, r);
  if (op <= S_SAR)
    cpu->cc = cc;
  else if ((op == S_RCL || op == S_RCR) && !(c % (sz * 8 + 1)) &&
           cpu->cfg.vendor != CPU_VENDOR_AMD)
    ; /* Intel: a rotate through CF by a multiple of width+1 keeps them */
  else
    cpu__flags_rotate(cpu, sz,
                      (op == S_ROL || op == S_RCL ? CPU__ROT_LEFT
                       : op == S_RCR              ? CPU__ROT_RCR
                                                  : CPU__ROT_RIGHT) |
                          ((op == S_ROL || op == S_ROR) && !by_cl && !mem && c > 1
                               ? CPU__ROT_IMM
                               : 0),
                      a, r, cf, cin);
  return CPU_RC_NEXT;
}

/* By an immediate (size variants) and by cl. */
#define SHIFT_HANDLERS(name, op)                                            \
  CPU_INLINE int name##_E_I(struct cpu *cpu, const struct cpu_insn *in,     \
                            unsigned sz, int mode) {                        \
    return shift_rm(cpu, in, op, (unsigned)in->imm, sz, mode, 0);           \
  }                                                                         \
  CPU__SIZE_VARIANTS(op_##name##_E_I, name##_E_I)                           \
  static int op_##name##_E_CL(struct cpu *cpu, const struct cpu_insn *in) { \
    return shift_rm(cpu, in, op, (unsigned)cpu->gpr[RCX], in->osz,          \
                    CPU__RM_ANY, 1);                                        \
  }
SHIFT_HANDLERS(shl, S_SHL)
SHIFT_HANDLERS(shr, S_SHR)
SHIFT_HANDLERS(sar, S_SAR)
SHIFT_HANDLERS(rol, S_ROL)
SHIFT_HANDLERS(ror, S_ROR)
SHIFT_HANDLERS(rcl, S_RCL)
SHIFT_HANDLERS(rcr, S_RCR)

/* shld/shrd: the bits shifted in come from the register operand. A count
 * above the width of a 16-bit operand gives a result the manuals leave
 * undefined: Intel shifts through the operand, the register and the
 * operand again; AMD through the operand and the register twice
 * (docs/flags.md). */
static int dshift(struct cpu *cpu, const struct cpu_insn *in, int left,
                  unsigned count) {
  unsigned sz = in->osz, bits = sz * 8, c = count & count_mask(sz);
  u64 a, b = cpu_reg_get(cpu, in->reg, sz), r, ea = 0;
  if (in->pfx & CPU_PFX_MEM) {
    ea = cpu_ea(cpu, in);
    CPU_TRY(cpu_ld(cpu, ea, sz, &a));
  } else {
    a = cpu_reg_get(cpu, in->rm, sz);
  }
  if (!c) {
    if (in->pfx & CPU_PFX_MEM) return cpu_st(cpu, ea, sz, a);
    cpu_reg_set(cpu, in->rm, sz, a);
    return CPU_RC_NEXT;
  }
  if (sz == 2 && cpu->cfg.vendor == CPU_VENDOR_AMD) {
    /* 48 bits a:b:b (shld) or b:b:a (shrd), c in 1..31. */
    if (left)
      r = (a << 32 | b << 16 | b) >> (32 - c);
    else
      r = (b << 32 | b << 16 | a) >> c;
    r = cpu_trunc(r, 2);
  } else if (sz == 2) {
    /* a:b:a:b (shld) or b:a:b:a (shrd). */
    u64 wide = left ? (a << 16) | b : (b << 16) | a;
    wide |= wide << 32;
    r = left ? (wide << c) >> 48 : wide >> c;
    r = cpu_trunc(r, 2);
  } else if (left) {
    r = cpu_trunc((a << c) | (b >> (bits - c)), sz);
  } else {
    r = cpu_trunc((a >> c) | (b << (bits - c)), sz);
  }
  if (in->pfx & CPU_PFX_MEM)
    CPU_TRY(cpu_st(cpu, ea, sz, r));
  else
    cpu_reg_set(cpu, in->rm, sz, r);
  if (cpu->cfg.vendor == CPU_VENDOR_AMD)
    cpu->cc = (struct cc){CC_OP(left ? CC_SHL : CC_SHR, sz), r, a, c};
  else
    cpu__flags_dshift(cpu, sz, left, a, b, c, r);
  return CPU_RC_NEXT;
}

static int op_shld_E_G_I(struct cpu *cpu, const struct cpu_insn *in) {
  return dshift(cpu, in, 1, (unsigned)in->imm);
}
static int op_shld_E_G_CL(struct cpu *cpu, const struct cpu_insn *in) {
  return dshift(cpu, in, 1, (unsigned)cpu->gpr[RCX]);
}
static int op_shrd_E_G_I(struct cpu *cpu, const struct cpu_insn *in) {
  return dshift(cpu, in, 0, (unsigned)in->imm);
}
static int op_shrd_E_G_CL(struct cpu *cpu, const struct cpu_insn *in) {
  return dshift(cpu, in, 0, (unsigned)cpu->gpr[RCX]);
}

static const struct cpu__sizevar shift_variants[] = {
    CPU__SIZE_ROW(op_shl_E_I) CPU__SIZE_ROW(op_shr_E_I)
    CPU__SIZE_ROW(op_sar_E_I) CPU__SIZE_ROW(op_rol_E_I)
    CPU__SIZE_ROW(op_ror_E_I) CPU__SIZE_ROW(op_rcl_E_I)
    CPU__SIZE_ROW(op_rcr_E_I)};

static cpu_handler shift_specialise(const struct cpu_insn *in,
                                   cpu_handler *chained) {
  return cpu__pick_size(shift_variants, RW_ARRAY_SIZE(shift_variants), in,
                        chained);
}

static const struct cpu__oprow shift_rows[] = {
#define OP(id, form, fn) {id, CPU_FORM_##form, fn, #fn},
#include "replayer/cpu/shift.def"
#undef OP
};
CPU__FAMILY_TABLE_SPEC(shift, shift_specialise)
