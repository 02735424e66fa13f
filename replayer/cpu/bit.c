/* SPDX-License-Identifier: MIT */
/* Bit instructions: bt/bts/btr/btc (register offsets reach beyond a memory
 * operand), bsf, bsr, tzcnt, lzcnt, popcnt, the BMI1/BMI2/ADX instructions
 * and the integer crc32 of SSE4.2. */
#include "replayer/cpu/cpu_int.h"

enum { RDX = 2 };
enum { B_T, B_TS, B_TR, B_TC };

static int bt(struct cpu *cpu, const struct cpu_insn *in, int op, u64 off,
              int reg_off) {
  unsigned sz = in->osz, bits = sz * 8;
  u64 v, nv, bit, ea = 0;
  if (in->pfx & CPU_PFX_MEM) {
    ea = cpu_ea(cpu, in);
    if (reg_off) {
      /* A register offset is signed and selects the operand-sized word. */
      i64 so = (i64)cpu_sext(off, sz);
      ea += (u64)((so >> (sz == 8 ? 6 : sz == 4 ? 5 : 4)) * (i64)sz);
    }
    CPU_TRY(cpu_ld(cpu, ea, sz, &v));
  } else {
    v = cpu_reg_get(cpu, in->rm, sz);
  }
  bit = 1ull << (off & (bits - 1));
  nv = op == B_TS ? v | bit : op == B_TR ? v & ~bit : op == B_TC ? v ^ bit : v;
  if (op != B_T) {
    if (in->pfx & CPU_PFX_MEM)
      CPU_TRY(cpu_st(cpu, ea, sz, nv));
    else
      cpu_reg_set(cpu, in->rm, sz, nv);
  }
  cpu__flags_set(cpu, CPU_CF, (v & bit) ? CPU_CF : 0);
  return CPU_RC_NEXT;
}

#define BT_HANDLERS(name, op)                                              \
  static int op_##name##_E_G(struct cpu *cpu, const struct cpu_insn *in) { \
    return bt(cpu, in, op, cpu_reg_get(cpu, in->reg, in->osz), 1);         \
  }                                                                        \
  static int op_##name##_E_I(struct cpu *cpu, const struct cpu_insn *in) { \
    return bt(cpu, in, op, in->imm, 0);                                    \
  }
BT_HANDLERS(bt, B_T)
BT_HANDLERS(bts, B_TS)
BT_HANDLERS(btr, B_TR)
BT_HANDLERS(btc, B_TC)

/* bsf/bsr: a zero source sets ZF and leaves the destination alone. */
static int op_bsf_G_E(struct cpu *cpu, const struct cpu_insn *in) {
  u64 v;
  CPU_TRY(cpu_rm_read(cpu, in, in->osz, &v));
  u64 i = v ? (u64)__builtin_ctzll(v) : 0;
  if (v) cpu_reg_set(cpu, in->reg, in->osz, i);
  cpu__flags_bitscan(cpu, v, i);
  return CPU_RC_NEXT;
}

static int op_bsr_G_E(struct cpu *cpu, const struct cpu_insn *in) {
  u64 v;
  CPU_TRY(cpu_rm_read(cpu, in, in->osz, &v));
  u64 i = v ? (u64)(63 - __builtin_clzll(v)) : 0;
  if (v) cpu_reg_set(cpu, in->reg, in->osz, i);
  cpu__flags_bitscan(cpu, v, i);
  return CPU_RC_NEXT;
}

static int op_tzcnt_G_E(struct cpu *cpu, const struct cpu_insn *in) {
  unsigned bits = in->osz * 8;
  u64 v, r;
  CPU_TRY(cpu_rm_read(cpu, in, in->osz, &v));
  r = v ? (u64)__builtin_ctzll(v) : bits;
  cpu_reg_set(cpu, in->reg, in->osz, r);
  cpu__flags_count(cpu, v, r);
  return CPU_RC_NEXT;
}

static int op_lzcnt_G_E(struct cpu *cpu, const struct cpu_insn *in) {
  unsigned bits = in->osz * 8;
  u64 v, r;
  CPU_TRY(cpu_rm_read(cpu, in, in->osz, &v));
  r = v ? (u64)__builtin_clzll(v) - (64 - bits) : bits;
  cpu_reg_set(cpu, in->reg, in->osz, r);
  cpu__flags_count(cpu, v, r);
  return CPU_RC_NEXT;
}

static int op_popcnt_G_E(struct cpu *cpu, const struct cpu_insn *in) {
  u64 v;
  CPU_TRY(cpu_rm_read(cpu, in, in->osz, &v));
  cpu_reg_set(cpu, in->reg, in->osz, (u64)__builtin_popcountll(v));
  cpu__flags_set(cpu, CPU_ARITH, v ? 0 : CPU_ZF);
  return CPU_RC_NEXT;
}

/* ---- BMI1, BMI2, ADX ---------------------------------------------------- */

static int op_andn_G_B_E(struct cpu *cpu, const struct cpu_insn *in) {
  u64 v, r;
  CPU_TRY(cpu_rm_read(cpu, in, in->osz, &v));
  r = ~cpu_reg_get(cpu, in->reg2, in->osz) & v;
  cpu_reg_set(cpu, in->reg, in->osz, r);
  cpu__flags_bmi(cpu, CPU__BMI_OTHER, r, in->osz, 0);
  return CPU_RC_NEXT;
}

static int op_bextr_G_E_B(struct cpu *cpu, const struct cpu_insn *in) {
  unsigned bits = in->osz * 8;
  u64 v, ctl = cpu_reg_get(cpu, in->reg2, in->osz), r;
  unsigned start = ctl & 0xff, len = (ctl >> 8) & 0xff;
  CPU_TRY(cpu_rm_read(cpu, in, in->osz, &v));
  r = start >= bits ? 0 : v >> start;
  if (len < 64) r &= (1ull << len) - 1;
  cpu_reg_set(cpu, in->reg, in->osz, r);
  cpu__flags_bmi(cpu, CPU__BMI_BEXTR, r, in->osz, 0);
  return CPU_RC_NEXT;
}

enum { L_BLSI, L_BLSMSK, L_BLSR };
static int bls(struct cpu *cpu, const struct cpu_insn *in, int op) {
  u64 v, r, cf;
  CPU_TRY(cpu_rm_read(cpu, in, in->osz, &v));
  if (op == L_BLSI) {
    r = v & (0 - v);
    cf = v ? CPU_CF : 0;
  } else if (op == L_BLSMSK) {
    r = v ^ (v - 1);
    cf = v ? 0 : CPU_CF;
  } else {
    r = v & (v - 1);
    cf = v ? 0 : CPU_CF;
  }
  r = cpu_trunc(r, in->osz);
  cpu_reg_set(cpu, in->reg, in->osz, r);
  cpu__flags_bmi(cpu, CPU__BMI_OTHER, r, in->osz, cf != 0);
  return CPU_RC_NEXT;
}
static int op_blsi_G_E(struct cpu *cpu, const struct cpu_insn *in) {
  return bls(cpu, in, L_BLSI);
}
static int op_blsmsk_G_E(struct cpu *cpu, const struct cpu_insn *in) {
  return bls(cpu, in, L_BLSMSK);
}
static int op_blsr_G_E(struct cpu *cpu, const struct cpu_insn *in) {
  return bls(cpu, in, L_BLSR);
}

static int op_bzhi_G_E_B(struct cpu *cpu, const struct cpu_insn *in) {
  unsigned bits = in->osz * 8;
  u64 v, n = cpu_reg_get(cpu, in->reg2, in->osz) & 0xff, r;
  CPU_TRY(cpu_rm_read(cpu, in, in->osz, &v));
  r = n < bits ? v & ((1ull << n) - 1) : v;
  cpu_reg_set(cpu, in->reg, in->osz, r);
  cpu__flags_bmi(cpu, CPU__BMI_OTHER, r, in->osz, n >= bits);
  return CPU_RC_NEXT;
}

static int op_pdep_G_B_E(struct cpu *cpu, const struct cpu_insn *in) {
  u64 mask, src = cpu_reg_get(cpu, in->reg2, in->osz), r = 0;
  CPU_TRY(cpu_rm_read(cpu, in, in->osz, &mask));
  for (u64 m = mask, k = 1; m; m &= m - 1, k <<= 1)
    if (src & k) r |= m & (0 - m);
  cpu_reg_set(cpu, in->reg, in->osz, r);
  return CPU_RC_NEXT;
}

static int op_pext_G_B_E(struct cpu *cpu, const struct cpu_insn *in) {
  u64 mask, src = cpu_reg_get(cpu, in->reg2, in->osz), r = 0;
  CPU_TRY(cpu_rm_read(cpu, in, in->osz, &mask));
  for (u64 m = mask, k = 1; m; m &= m - 1, k <<= 1)
    if (src & m & (0 - m)) r |= k;
  cpu_reg_set(cpu, in->reg, in->osz, r);
  return CPU_RC_NEXT;
}

enum { X_SAR, X_SHL, X_SHR };
static int shx(struct cpu *cpu, const struct cpu_insn *in, int op) {
  unsigned sz = in->osz;
  unsigned c = (unsigned)cpu_reg_get(cpu, in->reg2, sz) & (sz == 8 ? 63 : 31);
  u64 v, r;
  CPU_TRY(cpu_rm_read(cpu, in, sz, &v));
  r = op == X_SHL   ? v << c
      : op == X_SHR ? v >> c
                    : (u64)((i64)cpu_sext(v, sz) >> c);
  cpu_reg_set(cpu, in->reg, sz, cpu_trunc(r, sz));
  return CPU_RC_NEXT;
}
static int op_sarx_G_E_B(struct cpu *cpu, const struct cpu_insn *in) {
  return shx(cpu, in, X_SAR);
}
static int op_shlx_G_E_B(struct cpu *cpu, const struct cpu_insn *in) {
  return shx(cpu, in, X_SHL);
}
static int op_shrx_G_E_B(struct cpu *cpu, const struct cpu_insn *in) {
  return shx(cpu, in, X_SHR);
}

static int op_rorx_G_E_I(struct cpu *cpu, const struct cpu_insn *in) {
  unsigned bits = in->osz * 8, c = (unsigned)in->imm & (bits - 1);
  u64 v, r;
  CPU_TRY(cpu_rm_read(cpu, in, in->osz, &v));
  r = c ? (v >> c) | (v << (bits - c)) : v;
  cpu_reg_set(cpu, in->reg, in->osz, cpu_trunc(r, in->osz));
  return CPU_RC_NEXT;
}

/* mulx: rdx * rm; high half to reg, low half to reg2 (high wins when they
 * are the same register). */
static int op_mulx_G_B_E(struct cpu *cpu, const struct cpu_insn *in) {
  unsigned sz = in->osz;
  u64 v, lo, hi, a = cpu_reg_get(cpu, RDX, sz);
  CPU_TRY(cpu_rm_read(cpu, in, sz, &v));
  if (sz == 8) {
    u128 p = (u128)a * v;
    lo = (u64)p;
    hi = (u64)(p >> 64);
  } else {
    u64 p = a * v;
    lo = (u32)p;
    hi = p >> 32;
  }
  cpu_reg_set(cpu, in->reg2, sz, lo);
  cpu_reg_set(cpu, in->reg, sz, hi);
  return CPU_RC_NEXT;
}

/* adcx/adox: add with carry through CF or OF only. */
static int adx(struct cpu *cpu, const struct cpu_insn *in, u64 flag) {
  unsigned sz = in->osz;
  u64 v, a = cpu_reg_get(cpu, in->reg, sz), f = cpu__flags_arith(cpu), r;
  u64 cin = (f & flag) ? 1 : 0, cout;
  CPU_TRY(cpu_rm_read(cpu, in, sz, &v));
  r = cpu_trunc(a + v + cin, sz);
  cout = cin ? r <= a : r < a;
  cpu_reg_set(cpu, in->reg, sz, r);
  cpu__flags_set(cpu, flag, cout ? flag : 0);
  return CPU_RC_NEXT;
}
static int op_adcx_G_E(struct cpu *cpu, const struct cpu_insn *in) {
  return adx(cpu, in, CPU_CF);
}
static int op_adox_G_E(struct cpu *cpu, const struct cpu_insn *in) {
  return adx(cpu, in, CPU_OF);
}

/* crc32 (SSE4.2): CRC-32C of the source bytes, reflected, into r32/r64. */
static int op_crc32_G_E(struct cpu *cpu, const struct cpu_insn *in) {
  u64 v;
  u32 crc = (u32)cpu->gpr[in->reg];
  CPU_TRY(cpu_rm_read(cpu, in, in->osz2, &v));
  for (unsigned i = 0; i < in->osz2; i++) {
    crc ^= (u8)(v >> (8 * i));
    for (int k = 0; k < 8; k++)
      crc = (crc >> 1) ^ (0x82f63b78u & (0 - (crc & 1)));
  }
  cpu->gpr[in->reg] = crc;
  return CPU_RC_NEXT;
}

static const struct cpu__oprow bit_rows[] = {
#define OP(id, form, fn) {id, CPU_FORM_##form, fn, #fn},
#include "replayer/cpu/bit.def"
#undef OP
};
CPU__FAMILY_TABLE(bit)
