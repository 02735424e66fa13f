/* SPDX-License-Identifier: MIT */
/* Data movement: mov, movzx, movsx, movsxd, lea, xchg, cmpxchg (8b, 16b),
 * xadd, bswap, movbe, movnti, and the accumulator sign extensions
 * (cbw..cqo). No flags except cmpxchg's and xadd's. */
#include "replayer/cpu/cpu_variant.h"

enum { RAX = 0, RCX = 1, RDX = 2, RBX = 3 };

CPU_INLINE int mov_E_G(struct cpu *cpu, const struct cpu_insn *in,
                       unsigned sz, int mode) {
  return cpu__rm_write_mode(cpu, in, sz, mode, cpu_reg_get(cpu, in->reg, sz));
}
CPU__SIZE_VARIANTS(op_mov_E_G, mov_E_G)

CPU_INLINE int mov_G_E(struct cpu *cpu, const struct cpu_insn *in,
                       unsigned sz, int mode) {
  u64 v;
  CPU_TRY(cpu__rm_read_mode(cpu, in, sz, mode, &v));
  cpu_reg_set(cpu, in->reg, sz, v);
  return CPU_RC_NEXT;
}
CPU__SIZE_VARIANTS(op_mov_G_E, mov_G_E)

CPU_INLINE int mov_E_I(struct cpu *cpu, const struct cpu_insn *in,
                       unsigned sz, int mode) {
  return cpu__rm_write_mode(cpu, in, sz, mode, in->imm);
}
CPU__SIZE_VARIANTS(op_mov_E_I, mov_E_I)

static int op_movzx_G_E(struct cpu *cpu, const struct cpu_insn *in) {
  u64 v;
  CPU_TRY(cpu_rm_read(cpu, in, in->osz2, &v));
  cpu_reg_set(cpu, in->reg, in->osz, v);
  return CPU_RC_NEXT;
}

static int op_movsx_G_E(struct cpu *cpu, const struct cpu_insn *in) {
  u64 v;
  CPU_TRY(cpu_rm_read(cpu, in, in->osz2, &v));
  cpu_reg_set(cpu, in->reg, in->osz, cpu_sext(v, in->osz2));
  return CPU_RC_NEXT;
}

/* Copies of movzx/movsx per source size SSZ (the size variants are over
 * the destination, in->osz). */
#define MOVX_COPIES(name, ssz, sext)                                     \
  CPU_INLINE int name(struct cpu *cpu, const struct cpu_insn *in,        \
                      unsigned sz, int mode) {                           \
    u64 v;                                                               \
    CPU_TRY(cpu__rm_read_mode(cpu, in, ssz, mode, &v));                  \
    cpu_reg_set(cpu, in->reg, sz, sext ? cpu_sext(v, ssz) : v);          \
    return CPU_RC_NEXT;                                                  \
  }                                                                      \
  CPU__SIZE_COPIES(op_##name, name)
MOVX_COPIES(movzx_Gv_Eb, 1, 0)
MOVX_COPIES(movzx_Gv_Ew, 2, 0)
MOVX_COPIES(movsx_Gv_Eb, 1, 1)
MOVX_COPIES(movsx_Gv_Ew, 2, 1)

/* 63 /r: sign-extends with REX.W; without it, a plain 32/16-bit move
 * (Capstone names the destination as 64-bit either way). */
static int op_movsxd_Gv_Ed(struct cpu *cpu, const struct cpu_insn *in) {
  unsigned sz = (in->pfx & CPU_PFX_REXW)     ? 8
                : (in->pfx & CPU_PFX_OPSIZE) ? 2
                                             : 4;
  u64 v;
  CPU_TRY(cpu_rm_read(cpu, in, sz == 2 ? 2 : 4, &v));
  cpu_reg_set(cpu, in->reg, sz, sz == 8 ? cpu_sext(v, 4) : v);
  return CPU_RC_NEXT;
}

/* The offset part of the memory operand: no segment base. */
CPU_INLINE int lea_Gv_M(struct cpu *cpu, const struct cpu_insn *in,
                        unsigned sz, int mode) {
  u64 a =
      (u64)in->disp + cpu->gpr[in->base] + (cpu->gpr[in->index] << in->scale);
  if (mode == CPU__RM_ANY && (in->pfx & CPU_PFX_ADDR32)) a = (u32)a;
  cpu_reg_set(cpu, in->reg, sz, a);
  return CPU_RC_NEXT;
}
CPU__SIZE_VARIANTS(op_lea_Gv_M, lea_Gv_M)

static int op_xchg_E_G(struct cpu *cpu, const struct cpu_insn *in) {
  unsigned sz = in->osz;
  u64 a, b = cpu_reg_get(cpu, in->reg, sz);
  if (in->pfx & CPU_PFX_MEM) {
    u64 ea = cpu_ea(cpu, in);
    CPU_TRY(cpu_ld(cpu, ea, sz, &a));
    CPU_TRY(cpu_st(cpu, ea, sz, b));
  } else {
    a = cpu_reg_get(cpu, in->rm, sz);
    cpu_reg_set(cpu, in->rm, sz, b);
  }
  cpu_reg_set(cpu, in->reg, sz, a);
  return CPU_RC_NEXT;
}

static int op_xadd_E_G(struct cpu *cpu, const struct cpu_insn *in) {
  unsigned sz = in->osz;
  u64 a, b = cpu_reg_get(cpu, in->reg, sz), r;
  if (in->pfx & CPU_PFX_MEM) {
    u64 ea = cpu_ea(cpu, in);
    CPU_TRY(cpu_ld(cpu, ea, sz, &a));
    r = cpu_trunc(a + b, sz);
    CPU_TRY(cpu_st(cpu, ea, sz, r));
    cpu_reg_set(cpu, in->reg, sz, a);
  } else {
    a = cpu_reg_get(cpu, in->rm, sz);
    r = cpu_trunc(a + b, sz);
    cpu_reg_set(cpu, in->reg, sz, a);
    cpu_reg_set(cpu, in->rm, sz, r);
  }
  cpu->cc = (struct cc){CC_OP(CC_ADD, sz), r, a, b};
  return CPU_RC_NEXT;
}

/* The destination is always written (with its own value when the compare
 * fails), as the locked CPU cycle does. */
static int op_cmpxchg_E_G(struct cpu *cpu, const struct cpu_insn *in) {
  unsigned sz = in->osz;
  u64 acc = cpu_reg_get(cpu, RAX, sz), d, src = cpu_reg_get(cpu, in->reg, sz);
  int eq;
  if (in->pfx & CPU_PFX_MEM) {
    u64 ea = cpu_ea(cpu, in);
    CPU_TRY(cpu_ld(cpu, ea, sz, &d));
    eq = d == acc;
    CPU_TRY(cpu_st(cpu, ea, sz, eq ? src : d));
  } else {
    d = cpu_reg_get(cpu, in->rm, sz);
    eq = d == acc;
    if (eq) cpu_reg_set(cpu, in->rm, sz, src);
  }
  if (!eq) cpu_reg_set(cpu, RAX, sz, d);
  cpu->cc = (struct cc){CC_OP(CC_SUB, sz), cpu_trunc(acc - d, sz), acc, d};
  return CPU_RC_NEXT;
}

static int op_cmpxchg8b_Mq(struct cpu *cpu, const struct cpu_insn *in) {
  u64 ea = cpu_ea(cpu, in), m;
  u64 cmp = (u32)cpu->gpr[RAX] | (cpu->gpr[RDX] << 32);
  u64 nv = (u32)cpu->gpr[RBX] | (cpu->gpr[RCX] << 32);
  CPU_TRY(cpu_ld64(cpu, ea, &m));
  CPU_TRY(cpu_st64(cpu, ea, m == cmp ? nv : m));
  if (m != cmp) {
    cpu->gpr[RAX] = (u32)m;
    cpu->gpr[RDX] = m >> 32;
  }
  cpu__flags_set(cpu, CPU_ZF, m == cmp ? CPU_ZF : 0);
  return CPU_RC_NEXT;
}

static int op_cmpxchg16b_Mx(struct cpu *cpu, const struct cpu_insn *in) {
  u64 ea = cpu_ea(cpu, in), m[2], nv[2];
  int eq;
  if (ea & 15) return cpu__fault(cpu, CPU_FAULT_GP);
  CPU_TRY(cpu_ld128(cpu, ea, m));
  eq = m[0] == cpu->gpr[RAX] && m[1] == cpu->gpr[RDX];
  nv[0] = eq ? cpu->gpr[RBX] : m[0];
  nv[1] = eq ? cpu->gpr[RCX] : m[1];
  CPU_TRY(cpu_st128(cpu, ea, nv));
  if (!eq) {
    cpu->gpr[RAX] = m[0];
    cpu->gpr[RDX] = m[1];
  }
  cpu__flags_set(cpu, CPU_ZF, eq ? CPU_ZF : 0);
  return CPU_RC_NEXT;
}

static int op_bswap_E(struct cpu *cpu, const struct cpu_insn *in) {
  if (in->osz == 8)
    cpu->gpr[in->rm] = __builtin_bswap64(cpu->gpr[in->rm]);
  else if (in->osz == 4)
    cpu->gpr[in->rm] = __builtin_bswap32((u32)cpu->gpr[in->rm]);
  else
    return cpu__op_unsupported(cpu, in); /* 16-bit bswap is undefined */
  return CPU_RC_NEXT;
}

static u64 bswap(u64 v, unsigned sz) {
  return sz == 8   ? __builtin_bswap64(v)
         : sz == 4 ? __builtin_bswap32((u32)v)
                   : __builtin_bswap16((u16)v);
}

static int op_movbe_G_M(struct cpu *cpu, const struct cpu_insn *in) {
  u64 v;
  CPU_TRY(cpu_ld(cpu, cpu_ea(cpu, in), in->osz, &v));
  cpu_reg_set(cpu, in->reg, in->osz, bswap(v, in->osz));
  return CPU_RC_NEXT;
}

static int op_movbe_M_G(struct cpu *cpu, const struct cpu_insn *in) {
  u64 v = bswap(cpu_reg_get(cpu, in->reg, in->osz), in->osz);
  return cpu_st(cpu, cpu_ea(cpu, in), in->osz, v);
}

/* al = [rbx + al] (segment override applies). */
static int op_xlatb(struct cpu *cpu, const struct cpu_insn *in) {
  u8 v;
  u64 a = cpu->gpr[RBX] + (u8)cpu->gpr[RAX];
  if (in->pfx & CPU_PFX_ADDR32) a = (u32)a;
  CPU_TRY(cpu_ld8(cpu, a + cpu->segbase[in->seg], &v));
  cpu_reg_set(cpu, RAX, 1, v);
  return CPU_RC_NEXT;
}

static int op_cbw(struct cpu *cpu, const struct cpu_insn *in) {
  (void)in;
  cpu_reg_set(cpu, RAX, 2, cpu_sext(cpu->gpr[RAX], 1));
  return CPU_RC_NEXT;
}
static int op_cwde(struct cpu *cpu, const struct cpu_insn *in) {
  (void)in;
  cpu_reg_set(cpu, RAX, 4, cpu_sext(cpu->gpr[RAX], 2));
  return CPU_RC_NEXT;
}
static int op_cdqe(struct cpu *cpu, const struct cpu_insn *in) {
  (void)in;
  cpu->gpr[RAX] = cpu_sext(cpu->gpr[RAX], 4);
  return CPU_RC_NEXT;
}
static int op_cwd(struct cpu *cpu, const struct cpu_insn *in) {
  (void)in;
  cpu_reg_set(cpu, RDX, 2, (cpu->gpr[RAX] & 0x8000) ? 0xffff : 0);
  return CPU_RC_NEXT;
}
static int op_cdq(struct cpu *cpu, const struct cpu_insn *in) {
  (void)in;
  cpu_reg_set(cpu, RDX, 4, (cpu->gpr[RAX] & 0x80000000u) ? 0xffffffffu : 0);
  return CPU_RC_NEXT;
}
static int op_cqo(struct cpu *cpu, const struct cpu_insn *in) {
  (void)in;
  cpu->gpr[RDX] = (u64)((i64)cpu->gpr[RAX] >> 63);
  return CPU_RC_NEXT;
}

static const struct cpu__sizevar mov_variants[] = {
    CPU__SIZE_ROW(op_mov_E_G) CPU__SIZE_ROW(op_mov_G_E)
    CPU__SIZE_ROW(op_mov_E_I) CPU__SIZE_ROW(op_lea_Gv_M)};
static const struct cpu__sizevar movzx_b_variants[] = {
    CPU__SIZE_ROW_FOR(op_movzx_G_E, op_movzx_Gv_Eb)
    CPU__SIZE_ROW_FOR(op_movsx_G_E, op_movsx_Gv_Eb)};
static const struct cpu__sizevar movzx_w_variants[] = {
    CPU__SIZE_ROW_FOR(op_movzx_G_E, op_movzx_Gv_Ew)
    CPU__SIZE_ROW_FOR(op_movsx_G_E, op_movsx_Gv_Ew)};

static cpu_handler mov_specialise(const struct cpu_insn *in,
                                  cpu_handler *chained) {
  if (in->fn == op_movzx_G_E || in->fn == op_movsx_G_E) {
    if (in->osz2 == 1)
      return cpu__pick_size(movzx_b_variants, RW_ARRAY_SIZE(movzx_b_variants),
                            in, chained);
    if (in->osz2 == 2)
      return cpu__pick_size(movzx_w_variants, RW_ARRAY_SIZE(movzx_w_variants),
                            in, chained);
    return NULL;
  }
  return cpu__pick_size(mov_variants, RW_ARRAY_SIZE(mov_variants), in,
                        chained);
}

static const struct cpu__oprow mov_rows[] = {
#define OP(id, form, fn) {id, CPU_FORM_##form, fn, #fn},
#include "replayer/cpu/mov.def"
#undef OP
};
CPU__FAMILY_TABLE_SPEC(mov, mov_specialise)
