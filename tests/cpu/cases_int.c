/* SPDX-License-Identifier: MIT */
/* Differential cases of the integer instruction set: one row per encoding
 * (opcode, ModRM use, sizes, immediate), with fix callbacks that steer the
 * random state toward the edges that matter (shift counts, division
 * overflow, branch targets, compare-exchange hits). */
#include <string.h>

#include "replayer/cpu/cpu_int.h"
#include "tests/cpu/diff_int.h"

#define F_C 0x1ull
#define F_P 0x4ull
#define F_A 0x10ull
#define F_Z 0x40ull
#define F_S 0x80ull
#define F_O 0x800ull

static unsigned rnd(struct diff_rng *r, unsigned n) {
  return (unsigned)(diff_rand(r) % n);
}

/* Whether register X holds part of the memory operand's address. */
static int addr_reg(const struct diff_case *c, unsigned x) {
  return c->memop && (c->base == x || c->index == x);
}

static u64 code_target(struct diff_rng *r) {
  u64 t;
  do t = DIFF_CODE_ADDR + rnd(r, 4096);
  while (t >= DIFF_CODE_INSN - 1 && t < DIFF_CODE_INSN + 32);
  return t;
}

/* Sets the rm operand (register or memory) to V. */
static void set_rm(struct diff_case *c, u64 v, unsigned sz) {
  if (c->memop) {
    u64 off = c->mem_addr - DIFF_DATA_ADDR;
    if (off + sz <= DIFF_DATA_SIZE) memcpy(c->st.data + off, &v, sz);
  } else if (!(c->osz == 1 && c->rm >= 4 && c->rm < 8)) {
    c->st.gpr[c->rm] = v;
  }
}

/* ---- Fixes ---------------------------------------------------------- */

static unsigned edge_count(struct diff_rng *r, unsigned bits) {
  static const unsigned k[] = {0, 1, 2, 7, 8, 9, 15, 16, 17, 31, 32, 33, 63};
  unsigned c = rnd(r, 3) ? k[rnd(r, RW_ARRAY_SIZE(k))] : rnd(r, 256);
  (void)bits;
  return c;
}

/* Shifts and rotates: the count and the flags it leaves defined. */
static void fix_shift(struct diff_case *c, struct diff_rng *r) {
  unsigned bits = c->osz * 8, cnt, masked;
  const struct diff_enc *e = c->enc;
  int is_cl = e->op == 0xd2 || e->op == 0xd3 || e->op == 0xa5 || e->op == 0xad;
  int is_one = e->op == 0xd0 || e->op == 0xd1;
  int rot = e->ext >= 0 && e->ext <= 3;
  int dbl = e->map == DIFF_MAP_0F;
  cnt = edge_count(r, bits);
  if (is_one) {
    cnt = 1;
  } else if (is_cl) {
    if (addr_reg(c, 1)) cnt = (u8)c->st.gpr[1];
    else c->st.gpr[1] = (c->st.gpr[1] & ~0xffull) | cnt;
    cnt = (u8)c->st.gpr[1];
  } else {
    c->code[c->len - 1] = (u8)cnt;
  }
  masked = cnt & (bits == 64 ? 63 : 31);
  if (!masked) return; /* nothing changes */
  if (dbl && bits == 16 && masked > 16) {
    /* The manuals leave the result and every flag undefined; the
     * emulator follows the vendor (docs/flags.md), so it is compared. */
    c->flags_defined = 0;
    return;
  }
  if (rot) { /* SF ZF AF PF stay; OF is defined for a count of 1 */
    if (masked != 1) c->flags_defined &= ~F_O;
    return;
  }
  c->flags_defined &= ~F_A;
  if (masked != 1) c->flags_defined &= ~F_O;
  if (masked >= bits) c->flags_defined &= ~(F_C | F_O);
}

static void fix_div(struct diff_case *c, struct diff_rng *r) {
  unsigned sz = c->osz;
  u64 top = sz == 8 ? ~0ull : (1ull << (sz * 8)) - 1, d;
  unsigned k = rnd(r, 8);
  int sgn = c->enc->ext == 7;
  if (addr_reg(c, 0) || addr_reg(c, 2)) return;
  d = diff_rand_edge(r, sz);
  if (k == 0) d = 0;
  if (k == 1) d = top; /* -1: idiv overflow with the minimum dividend */
  set_rm(c, d, sz);
  if (!c->memop) d = c->st.gpr[c->rm];
  if (k >= 3) {
    /* Make the quotient fit: a high half of 0 (or the sign). */
    u64 lo = c->st.gpr[0];
    u64 hi = sgn ? ((lo >> (sz * 8 - 1)) & 1 ? top : 0) : 0;
    if (sz == 1) {
      c->st.gpr[0] = (c->st.gpr[0] & ~0xffffull) | (lo & 0xff) |
                     ((hi & 0xff) << 8);
    } else {
      c->st.gpr[2] = (c->st.gpr[2] & ~top) | hi;
    }
  } else if (k == 2 && sz > 1) {
    c->st.gpr[0] &= ~top;
    c->st.gpr[2] = (c->st.gpr[2] & ~top) | ((top >> 1) + 1);
  }
}

static void fix_ind_branch(struct diff_case *c, struct diff_rng *r) {
  set_rm(c, code_target(r), 8);
}

static void fix_ret(struct diff_case *c, struct diff_rng *r) {
  u64 t = code_target(r), off = c->st.gpr[4] - DIFF_DATA_ADDR;
  memcpy(c->st.data + off, &t, 8);
  if (c->len == 3) { /* ret imm16: keep the stack inside the data pages */
    c->code[1] = (u8)rnd(r, 64);
    c->code[2] = 0;
  }
}

static void fix_loop(struct diff_case *c, struct diff_rng *r) {
  c->st.gpr[1] = rnd(r, 3) ? rnd(r, 3) : diff_rand_edge(r, 8);
}

static void fix_cmpxchg(struct diff_case *c, struct diff_rng *r) {
  unsigned sz = c->osz;
  if (rnd(r, 2) || addr_reg(c, 0)) return;
  if (c->memop) {
    u64 v = 0, off = c->mem_addr - DIFF_DATA_ADDR;
    if (off + sz > DIFF_DATA_SIZE) return;
    memcpy(&v, c->st.data + off, sz);
    c->st.gpr[0] = (c->st.gpr[0] & ~(sz == 8 ? ~0ull : (1ull << (sz * 8)) - 1)) | v;
  } else if (sz != 1) {
    c->st.gpr[0] = c->st.gpr[c->rm];
  }
}

static void fix_cmpxchg8b(struct diff_case *c, struct diff_rng *r) {
  u64 off = c->mem_addr - DIFF_DATA_ADDR, m[2];
  if (off + 16 > DIFF_DATA_SIZE || rnd(r, 2) || addr_reg(c, 0) ||
      addr_reg(c, 2))
    return;
  memcpy(m, c->st.data + off, 16);
  if (c->osz == 8 || (c->code[0] & 0xf8) == 0x48) {
    c->st.gpr[0] = m[0];
    c->st.gpr[2] = m[1];
  } else {
    c->st.gpr[0] = (u32)m[0];
    c->st.gpr[2] = m[0] >> 32;
  }
}

static void fix_bt(struct diff_case *c, struct diff_rng *r) {
  /* Register bit offsets beyond the operand, both signs, within 1 KB. */
  if (c->enc->ext < 0 && !addr_reg(c, c->reg)) {
    i64 off = (i64)rnd(r, 16384) - 8192;
    if (rnd(r, 2)) off = (i64)rnd(r, 64);
    c->st.gpr[c->reg] = (u64)off;
  }
}

static void fix_enter(struct diff_case *c, struct diff_rng *r) {
  c->code[1] = (u8)(rnd(r, 8) * 8);
  c->code[2] = 0;
  c->code[3] = (u8)(rnd(r, 4) ? rnd(r, 4) : rnd(r, 256));
  c->st.gpr[5] = DIFF_DATA_ADDR + 4096 + 8 * rnd(r, 64);
}

static void fix_leave(struct diff_case *c, struct diff_rng *r) {
  c->st.gpr[5] = DIFF_DATA_ADDR + 1024 + 8 * rnd(r, 128);
}

static void fix_popf(struct diff_case *c, struct diff_rng *r) {
  u64 off = c->st.gpr[4] - DIFF_DATA_ADDR, v;
  (void)r;
  memcpy(&v, c->st.data + off, 8);
  v &= ~(0x100ull | 0x4000ull | 0x40000ull | 0x200000ull); /* TF NT AC ID */
  v |= diff_id_flag; /* sigreturn cannot restore ID: keep it constant */
  memcpy(c->st.data + off, &v, 8);
}

static void fix_moffs(struct diff_case *c, struct diff_rng *r) {
  u64 t = DIFF_DATA_ADDR + 8 * rnd(r, DIFF_DATA_SIZE / 8 - 1);
  memcpy(c->code + c->len - 8, &t, 8);
}

/* Fixed-byte opcodes (0F 01 D0, 0F AE E8, ...): the last byte is given. */
static void fix_last(struct diff_case *c, u8 b) { c->code[c->len - 1] = b; }

static void fix_xgetbv(struct diff_case *c, struct diff_rng *r) {
  fix_last(c, 0xd0);
  c->st.gpr[1] = rnd(r, 8) ? 0 : 2 + rnd(r, 100); /* 1 is unsupported */
}
static void fix_lfence(struct diff_case *c, struct diff_rng *r) {
  (void)r;
  fix_last(c, 0xe8);
}
static void fix_mfence(struct diff_case *c, struct diff_rng *r) {
  (void)r;
  fix_last(c, 0xf0);
}
static void fix_sfence(struct diff_case *c, struct diff_rng *r) {
  (void)r;
  fix_last(c, 0xf8);
}
/* A vector with no user-mode gate (not 3, 4 or 0x80): #GP. */
static void fix_int(struct diff_case *c, struct diff_rng *r) {
  fix_last(c, (u8)(0x81 + rnd(r, 0x7f)));
}
static void fix_endbr64(struct diff_case *c, struct diff_rng *r) {
  (void)r;
  fix_last(c, 0xfa);
}

static void fix_xlat(struct diff_case *c, struct diff_rng *r) {
  c->st.gpr[3] = DIFF_DATA_ADDR + rnd(r, DIFF_DATA_SIZE - 256);
}

static void fix_cpuid(struct diff_case *c, struct diff_rng *r) {
  (void)r;
  c->st.gpr[0] = 0; /* leaf 0 is the same on every core */
  c->st.gpr[1] = 0;
}

static void fix_bmi(struct diff_case *c, struct diff_rng *r) {
  /* Control registers of bextr/bzhi/shifts: small interesting values. */
  if (rnd(r, 2) && !addr_reg(c, c->vreg))
    c->st.gpr[c->vreg] = rnd(r, 2) ? rnd(r, 80) : (rnd(r, 72) | rnd(r, 72) << 8);
}

/* ---- Rows ----------------------------------------------------------- */

#define GPR DIFF_K_GPR
#define NOK DIFF_K_NONE
#define M0 DIFF_ENC_MODRM
#define NO DIFF_ENC_NONE
#define RG DIFF_ENC_OREG
#define VX DIFF_ENC_VEX
#define B8 DIFF_SZ8
#define SV DIFF_SZV
#define SY DIFF_SZY
#define IB DIFF_IMM_B
#define IW DIFF_IMM_W
#define IZ DIFF_IMM_Z
#define IV DIFF_IMM_V
#define LK DIFF_O_LOCK
#define FT DIFF_O_FAULT
#define P1 DIFF_MAP_1
#define P0F DIFF_MAP_0F
#define P38 DIFF_MAP_0F38
#define P3A DIFF_MAP_0F3A
#define E(id, text, pfx, map, op, enc, ext, sizes, imm, regk, rmk, opt, fix) \
  {X86_INS_##id, text, pfx, map, op, enc, ext, sizes, imm, regk, rmk, opt, fix},

/* The eight classic ALU operations, in all their encodings. */
#define ALU(id, name, base, ext, lk)                                              \
  E(id, name " Eb,Gb", 0, P1, base + 0, M0, -1, B8, 0, GPR, GPR, lk | FT, 0) \
  E(id, name " Ev,Gv", 0, P1, base + 1, M0, -1, SV, 0, GPR, GPR, lk | FT, 0) \
  E(id, name " Gb,Eb", 0, P1, base + 2, M0, -1, B8, 0, GPR, GPR, FT, 0)      \
  E(id, name " Gv,Ev", 0, P1, base + 3, M0, -1, SV, 0, GPR, GPR, FT, 0)      \
  E(id, name " al,Ib", 0, P1, base + 4, NO, -1, B8, IB, NOK, NOK, 0, 0)      \
  E(id, name " eAX,Iz", 0, P1, base + 5, NO, -1, SV, IZ, NOK, NOK, 0, 0)     \
  E(id, name " Eb,Ib", 0, P1, 0x80, M0, ext, B8, IB, NOK, GPR, lk, 0)        \
  E(id, name " Ev,Iz", 0, P1, 0x81, M0, ext, SV, IZ, NOK, GPR, lk, 0)        \
  E(id, name " Ev,Ib", 0, P1, 0x83, M0, ext, SV, IB, NOK, GPR, lk, 0)

#define SHIFT(id, name, ext)                                                  \
  E(id, name " Eb,Ib", 0, P1, 0xc0, M0, ext, B8, IB, NOK, GPR, 0, fix_shift)  \
  E(id, name " Ev,Ib", 0, P1, 0xc1, M0, ext, SV, IB, NOK, GPR, 0, fix_shift)  \
  E(id, name " Eb,1", 0, P1, 0xd0, M0, ext, B8, 0, NOK, GPR, 0, fix_shift)    \
  E(id, name " Ev,1", 0, P1, 0xd1, M0, ext, SV, 0, NOK, GPR, 0, fix_shift)    \
  E(id, name " Eb,CL", 0, P1, 0xd2, M0, ext, B8, 0, NOK, GPR, DIFF_O_CL,      \
    fix_shift)                                                                \
  E(id, name " Ev,CL", 0, P1, 0xd3, M0, ext, SV, 0, NOK, GPR, DIFF_O_CL,      \
    fix_shift)

#define CC16(X) X(O, 0) X(NO, 1) X(B, 2) X(AE, 3) X(E, 4) X(NE, 5) X(BE, 6) \
  X(A, 7) X(S, 8) X(NS, 9) X(P, 10) X(NP, 11) X(L, 12) X(GE, 13) X(LE, 14) \
  X(G, 15)
#define JCC(c, n)                                                          \
  E(J##c, "j" #c " rel8", 0, P1, 0x70 + n, NO, -1, 0, 0, NOK, NOK,        \
    DIFF_O_REL8, 0)                                                        \
  E(J##c, "j" #c " rel32", 0, P0F, 0x80 + n, NO, -1, 0, 0, NOK, NOK,      \
    DIFF_O_REL32, 0)
#define SETCC(c, n) \
  E(SET##c, "set" #c " Eb", 0, P0F, 0x90 + n, M0, 0, B8, 0, NOK, GPR, 0, 0)
#define CMOVCC(c, n)                                                        \
  E(CMOV##c, "cmov" #c " Gv,Ev", 0, P0F, 0x40 + n, M0, -1, SV, 0, GPR, GPR, \
    FT, 0)

#define STR(id, name, op, sizes, opt)                                       \
  E(id, name, 0, P1, op, NO, -1, sizes, 0, NOK, NOK,                       \
    DIFF_O_STRING | DIFF_O_REP | (opt), 0)

static const struct diff_enc int_encs[] = {
    ALU(ADD, "add", 0x00, 0, LK) ALU(OR, "or", 0x08, 1, LK) ALU(ADC, "adc", 0x10, 2, LK)
    ALU(SBB, "sbb", 0x18, 3, LK) ALU(AND, "and", 0x20, 4, LK) ALU(SUB, "sub", 0x28, 5, LK)
    ALU(XOR, "xor", 0x30, 6, LK) ALU(CMP, "cmp", 0x38, 7, 0)
    E(TEST, "test Eb,Gb", 0, P1, 0x84, M0, -1, B8, 0, GPR, GPR, FT, 0)
    E(TEST, "test Ev,Gv", 0, P1, 0x85, M0, -1, SV, 0, GPR, GPR, FT, 0)
    E(TEST, "test al,Ib", 0, P1, 0xa8, NO, -1, B8, IB, NOK, NOK, 0, 0)
    E(TEST, "test eAX,Iz", 0, P1, 0xa9, NO, -1, SV, IZ, NOK, NOK, 0, 0)
    E(TEST, "test Eb,Ib", 0, P1, 0xf6, M0, 0, B8, IB, NOK, GPR, 0, 0)
    E(TEST, "test Ev,Iz", 0, P1, 0xf7, M0, 0, SV, IZ, NOK, GPR, 0, 0)
    E(INC, "inc Eb", 0, P1, 0xfe, M0, 0, B8, 0, NOK, GPR, LK, 0)
    E(INC, "inc Ev", 0, P1, 0xff, M0, 0, SV, 0, NOK, GPR, LK, 0)
    E(DEC, "dec Eb", 0, P1, 0xfe, M0, 1, B8, 0, NOK, GPR, LK, 0)
    E(DEC, "dec Ev", 0, P1, 0xff, M0, 1, SV, 0, NOK, GPR, LK, 0)
    E(NOT, "not Eb", 0, P1, 0xf6, M0, 2, B8, 0, NOK, GPR, LK, 0)
    E(NOT, "not Ev", 0, P1, 0xf7, M0, 2, SV, 0, NOK, GPR, LK, 0)
    E(NEG, "neg Eb", 0, P1, 0xf6, M0, 3, B8, 0, NOK, GPR, LK, 0)
    E(NEG, "neg Ev", 0, P1, 0xf7, M0, 3, SV, 0, NOK, GPR, LK, 0)
    /* Data movement. */
    E(MOV, "mov Eb,Gb", 0, P1, 0x88, M0, -1, B8, 0, GPR, GPR, FT, 0)
    E(MOV, "mov Ev,Gv", 0, P1, 0x89, M0, -1, SV, 0, GPR, GPR, FT, 0)
    E(MOV, "mov Gb,Eb", 0, P1, 0x8a, M0, -1, B8, 0, GPR, GPR, FT, 0)
    E(MOV, "mov Gv,Ev", 0, P1, 0x8b, M0, -1, SV, 0, GPR, GPR, FT, 0)
    E(MOV, "mov Eb,Ib", 0, P1, 0xc6, M0, 0, B8, IB, NOK, GPR, 0, 0)
    E(MOV, "mov Ev,Iz", 0, P1, 0xc7, M0, 0, SV, IZ, NOK, GPR, 0, 0)
    E(MOV, "mov Zb,Ib", 0, P1, 0xb0, RG, -1, B8, IB, GPR, NOK, 0, 0)
    E(MOV, "mov Zv,Iv", 0, P1, 0xb8, RG, -1, SV, IV, GPR, NOK, 0, 0)
    E(MOVABS, "mov al,Ob", 0, P1, 0xa0, NO, -1, B8, DIFF_IMM_Q, NOK, NOK, 0, fix_moffs)
    E(MOVABS, "mov eAX,Ov", 0, P1, 0xa1, NO, -1, SV, DIFF_IMM_Q, NOK, NOK, 0, fix_moffs)
    E(MOVABS, "mov Ob,al", 0, P1, 0xa2, NO, -1, B8, DIFF_IMM_Q, NOK, NOK, 0, fix_moffs)
    E(MOVABS, "mov Ov,eAX", 0, P1, 0xa3, NO, -1, SV, DIFF_IMM_Q, NOK, NOK, 0, fix_moffs)
    E(MOVNTI, "movnti My,Gy", 0, P0F, 0xc3, M0, -1, SY, 0, GPR, GPR,
      DIFF_O_MEM, 0)
    E(MOVZX, "movzx Gv,Eb", 0, P0F, 0xb6, M0, -1, SV, 0, GPR, GPR,
      DIFF_O_BYTEREG, 0)
    E(MOVZX, "movzx Gv,Ew", 0, P0F, 0xb7, M0, -1, SV, 0, GPR, GPR, 0, 0)
    E(MOVSX, "movsx Gv,Eb", 0, P0F, 0xbe, M0, -1, SV, 0, GPR, GPR,
      DIFF_O_BYTEREG, 0)
    E(MOVSX, "movsx Gv,Ew", 0, P0F, 0xbf, M0, -1, SV, 0, GPR, GPR, 0, 0)
    E(MOVSXD, "movsxd Gv,Ed", 0, P1, 0x63, M0, -1, SV, 0, GPR, GPR, 0, 0)
    E(LEA, "lea Gv,M", 0, P1, 0x8d, M0, -1, SV, 0, GPR, GPR, DIFF_O_MEM, 0)
    E(XCHG, "xchg Eb,Gb", 0, P1, 0x86, M0, -1, B8, 0, GPR, GPR, LK | FT, 0)
    E(XCHG, "xchg Ev,Gv", 0, P1, 0x87, M0, -1, SV, 0, GPR, GPR, LK | FT, 0)
    E(XCHG, "xchg Zv,eAX", 0, P1, 0x90, RG, -1, SV, 0, GPR, NOK, 0, 0)
    E(XADD, "xadd Eb,Gb", 0, P0F, 0xc0, M0, -1, B8, 0, GPR, GPR, LK, 0)
    E(XADD, "xadd Ev,Gv", 0, P0F, 0xc1, M0, -1, SV, 0, GPR, GPR, LK, 0)
    E(CMPXCHG, "cmpxchg Eb,Gb", 0, P0F, 0xb0, M0, -1, B8, 0, GPR, GPR, LK,
      fix_cmpxchg)
    E(CMPXCHG, "cmpxchg Ev,Gv", 0, P0F, 0xb1, M0, -1, SV, 0, GPR, GPR, LK,
      fix_cmpxchg)
    E(CMPXCHG8B, "cmpxchg8b Mq", 0, P0F, 0xc7, M0, 1, 0, 0, NOK, GPR,
      DIFF_O_MEM | LK, fix_cmpxchg8b)
    E(CMPXCHG16B, "cmpxchg16b Mdq", 0, P0F, 0xc7, M0, 1, DIFF_SZ64, 0, NOK,
      GPR, DIFF_O_MEM | LK | DIFF_O_ALIGN16, fix_cmpxchg8b)
    E(BSWAP, "bswap Zy", 0, P0F, 0xc8, RG, -1, SY, 0, GPR, NOK, 0, 0)
    E(MOVBE, "movbe Gv,Mv", 0, P38, 0xf0, M0, -1, SV, 0, GPR, GPR,
      DIFF_O_MEM, 0)
    E(MOVBE, "movbe Mv,Gv", 0, P38, 0xf1, M0, -1, SV, 0, GPR, GPR,
      DIFF_O_MEM, 0)
    {CPU_INS_EV_movdiri, "movdiri My,Gy", 0, P38, 0xf9, M0, -1,
     DIFF_SZ32 | DIFF_SZ64, 0, GPR, GPR, DIFF_O_MEM | FT, 0},
    E(CBW, "cbw", 0, P1, 0x98, NO, -1, DIFF_SZ16, 0, NOK, NOK, 0, 0)
    E(CWDE, "cwde", 0, P1, 0x98, NO, -1, DIFF_SZ32, 0, NOK, NOK, 0, 0)
    E(CDQE, "cdqe", 0, P1, 0x98, NO, -1, DIFF_SZ64, 0, NOK, NOK, 0, 0)
    E(CWD, "cwd", 0, P1, 0x99, NO, -1, DIFF_SZ16, 0, NOK, NOK, 0, 0)
    E(CDQ, "cdq", 0, P1, 0x99, NO, -1, DIFF_SZ32, 0, NOK, NOK, 0, 0)
    E(CQO, "cqo", 0, P1, 0x99, NO, -1, DIFF_SZ64, 0, NOK, NOK, 0, 0)
    /* Stack. */
    E(PUSH, "push Zv", 0, P1, 0x50, RG, -1, DIFF_SZ16 | DIFF_SZ64, 0, GPR, NOK,
      DIFF_O_STACK, 0)
    E(PUSH, "push Ev", 0, P1, 0xff, M0, 6, DIFF_SZ16 | DIFF_SZ64, 0, NOK, GPR,
      DIFF_O_STACK, 0)
    E(PUSH, "push Ib", 0, P1, 0x6a, NO, -1, 0, IB, NOK, NOK, DIFF_O_STACK, 0)
    E(PUSH, "push Iz", 0, P1, 0x68, NO, -1, 0, IZ, NOK, NOK, DIFF_O_STACK, 0)
    E(POP, "pop Zv", 0, P1, 0x58, RG, -1, DIFF_SZ16 | DIFF_SZ64, 0, GPR, NOK,
      DIFF_O_STACK, 0)
    E(POP, "pop Ev", 0, P1, 0x8f, M0, 0, DIFF_SZ16 | DIFF_SZ64, 0, NOK, GPR,
      DIFF_O_STACK, 0)
    E(PUSHFQ, "pushfq", 0, P1, 0x9c, NO, -1, 0, 0, NOK, NOK, DIFF_O_STACK, 0)
    E(POPFQ, "popfq", 0, P1, 0x9d, NO, -1, 0, 0, NOK, NOK, DIFF_O_STACK,
      fix_popf)
    E(PUSHF, "pushf", 0, P1, 0x9c, NO, -1, DIFF_SZ16, 0, NOK, NOK,
      DIFF_O_STACK, 0)
    E(POPF, "popf", 0, P1, 0x9d, NO, -1, DIFF_SZ16, 0, NOK, NOK, DIFF_O_STACK,
      fix_popf)
    E(ENTER, "enter Iw,Ib", 0, P1, 0xc8, NO, -1, 0, 3, NOK, NOK, DIFF_O_STACK,
      fix_enter)
    E(LEAVE, "leave", 0, P1, 0xc9, NO, -1, 0, 0, NOK, NOK, 0, fix_leave)
    /* Control flow. */
    CC16(JCC) CC16(SETCC) CC16(CMOVCC)
    E(JMP, "jmp rel8", 0, P1, 0xeb, NO, -1, 0, 0, NOK, NOK, DIFF_O_REL8, 0)
    E(JMP, "jmp rel32", 0, P1, 0xe9, NO, -1, 0, 0, NOK, NOK, DIFF_O_REL32, 0)
    E(JMP, "jmp Ev", 0, P1, 0xff, M0, 4, 0, 0, NOK, GPR, 0, fix_ind_branch)
    E(CALL, "call rel32", 0, P1, 0xe8, NO, -1, 0, 0, NOK, NOK,
      DIFF_O_REL32 | DIFF_O_STACK, 0)
    E(CALL, "call Ev", 0, P1, 0xff, M0, 2, 0, 0, NOK, GPR, DIFF_O_STACK,
      fix_ind_branch)
    E(RET, "ret", 0, P1, 0xc3, NO, -1, 0, 0, NOK, NOK, DIFF_O_STACK, fix_ret)
    E(RET, "ret Iw", 0, P1, 0xc2, NO, -1, 0, IW, NOK, NOK, DIFF_O_STACK,
      fix_ret)
    E(LOOP, "loop rel8", 0, P1, 0xe2, NO, -1, 0, 0, NOK, NOK, DIFF_O_REL8,
      fix_loop)
    E(LOOPE, "loope rel8", 0, P1, 0xe1, NO, -1, 0, 0, NOK, NOK, DIFF_O_REL8,
      fix_loop)
    E(LOOPNE, "loopne rel8", 0, P1, 0xe0, NO, -1, 0, 0, NOK, NOK,
      DIFF_O_REL8, fix_loop)
    E(JRCXZ, "jrcxz rel8", 0, P1, 0xe3, NO, -1, 0, 0, NOK, NOK, DIFF_O_REL8,
      fix_loop)
    E(JECXZ, "jecxz rel8", 0x67, P1, 0xe3, NO, -1, 0, 0, NOK, NOK, DIFF_O_REL8,
      fix_loop)
    /* Shifts. */
    SHIFT(SHL, "shl", 4) SHIFT(SHR, "shr", 5) SHIFT(SAR, "sar", 7)
    SHIFT(ROL, "rol", 0) SHIFT(ROR, "ror", 1) SHIFT(RCL, "rcl", 2)
    SHIFT(RCR, "rcr", 3) SHIFT(SAL, "sal", 6)
    E(SHLD, "shld Ev,Gv,Ib", 0, P0F, 0xa4, M0, -1, SV, IB, GPR, GPR, 0,
      fix_shift)
    E(SHLD, "shld Ev,Gv,CL", 0, P0F, 0xa5, M0, -1, SV, 0, GPR, GPR, DIFF_O_CL,
      fix_shift)
    E(SHRD, "shrd Ev,Gv,Ib", 0, P0F, 0xac, M0, -1, SV, IB, GPR, GPR, 0,
      fix_shift)
    E(SHRD, "shrd Ev,Gv,CL", 0, P0F, 0xad, M0, -1, SV, 0, GPR, GPR, DIFF_O_CL,
      fix_shift)
    /* Multiply and divide. */
    E(MUL, "mul Eb", 0, P1, 0xf6, M0, 4, B8, 0, NOK, GPR, 0, 0)
    E(MUL, "mul Ev", 0, P1, 0xf7, M0, 4, SV, 0, NOK, GPR, 0, 0)
    E(IMUL, "imul Eb", 0, P1, 0xf6, M0, 5, B8, 0, NOK, GPR, 0, 0)
    E(IMUL, "imul Ev", 0, P1, 0xf7, M0, 5, SV, 0, NOK, GPR, 0, 0)
    E(IMUL, "imul Gv,Ev", 0, P0F, 0xaf, M0, -1, SV, 0, GPR, GPR, 0, 0)
    E(IMUL, "imul Gv,Ev,Iz", 0, P1, 0x69, M0, -1, SV, IZ, GPR, GPR, 0, 0)
    E(IMUL, "imul Gv,Ev,Ib", 0, P1, 0x6b, M0, -1, SV, IB, GPR, GPR, 0, 0)
    E(DIV, "div Eb", 0, P1, 0xf6, M0, 6, B8, 0, NOK, GPR, 0, fix_div)
    E(DIV, "div Ev", 0, P1, 0xf7, M0, 6, SV, 0, NOK, GPR, 0, fix_div)
    E(IDIV, "idiv Eb", 0, P1, 0xf6, M0, 7, B8, 0, NOK, GPR, 0, fix_div)
    E(IDIV, "idiv Ev", 0, P1, 0xf7, M0, 7, SV, 0, NOK, GPR, 0, fix_div)
    /* Bits. */
    E(BT, "bt Ev,Gv", 0, P0F, 0xa3, M0, -1, SV, 0, GPR, GPR, 0, fix_bt)
    E(BTS, "bts Ev,Gv", 0, P0F, 0xab, M0, -1, SV, 0, GPR, GPR, LK, fix_bt)
    E(BTR, "btr Ev,Gv", 0, P0F, 0xb3, M0, -1, SV, 0, GPR, GPR, LK, fix_bt)
    E(BTC, "btc Ev,Gv", 0, P0F, 0xbb, M0, -1, SV, 0, GPR, GPR, LK, fix_bt)
    E(BT, "bt Ev,Ib", 0, P0F, 0xba, M0, 4, SV, IB, NOK, GPR, 0, 0)
    E(BTS, "bts Ev,Ib", 0, P0F, 0xba, M0, 5, SV, IB, NOK, GPR, LK, 0)
    E(BTR, "btr Ev,Ib", 0, P0F, 0xba, M0, 6, SV, IB, NOK, GPR, LK, 0)
    E(BTC, "btc Ev,Ib", 0, P0F, 0xba, M0, 7, SV, IB, NOK, GPR, LK, 0)
    E(BSF, "bsf Gv,Ev", 0, P0F, 0xbc, M0, -1, SV, 0, GPR, GPR, 0, 0)
    E(BSR, "bsr Gv,Ev", 0, P0F, 0xbd, M0, -1, SV, 0, GPR, GPR, 0, 0)
    E(TZCNT, "tzcnt Gv,Ev", 0xf3, P0F, 0xbc, M0, -1, SV, 0, GPR, GPR, 0, 0)
    E(LZCNT, "lzcnt Gv,Ev", 0xf3, P0F, 0xbd, M0, -1, SV, 0, GPR, GPR, 0, 0)
    E(POPCNT, "popcnt Gv,Ev", 0xf3, P0F, 0xb8, M0, -1, SV, 0, GPR, GPR, 0, 0)
    E(ANDN, "andn Gy,By,Ey", 0, P38, 0xf2, VX, -1, SY, 0, GPR, GPR, 0, 0)
    E(BEXTR, "bextr Gy,Ey,By", 0, P38, 0xf7, VX, -1, SY, 0, GPR, GPR, 0,
      fix_bmi)
    E(BLSR, "blsr By,Ey", 0, P38, 0xf3, VX, 1, SY, 0, GPR, GPR, 0, 0)
    E(BLSMSK, "blsmsk By,Ey", 0, P38, 0xf3, VX, 2, SY, 0, GPR, GPR, 0, 0)
    E(BLSI, "blsi By,Ey", 0, P38, 0xf3, VX, 3, SY, 0, GPR, GPR, 0, 0)
    E(BZHI, "bzhi Gy,Ey,By", 0, P38, 0xf5, VX, -1, SY, 0, GPR, GPR, 0,
      fix_bmi)
    E(PDEP, "pdep Gy,By,Ey", 0xf2, P38, 0xf5, VX, -1, SY, 0, GPR, GPR, 0, 0)
    E(PEXT, "pext Gy,By,Ey", 0xf3, P38, 0xf5, VX, -1, SY, 0, GPR, GPR, 0, 0)
    E(SARX, "sarx Gy,Ey,By", 0xf3, P38, 0xf7, VX, -1, SY, 0, GPR, GPR, 0,
      fix_bmi)
    E(SHLX, "shlx Gy,Ey,By", 0x66, P38, 0xf7, VX, -1, SY, 0, GPR, GPR, 0,
      fix_bmi)
    E(SHRX, "shrx Gy,Ey,By", 0xf2, P38, 0xf7, VX, -1, SY, 0, GPR, GPR, 0,
      fix_bmi)
    E(RORX, "rorx Gy,Ey,Ib", 0xf2, P3A, 0xf0, VX, -1, SY, IB, GPR, GPR,
      DIFF_O_NOVVVV, 0)
    E(MULX, "mulx Gy,By,Ey", 0xf2, P38, 0xf6, VX, -1, SY, 0, GPR, GPR, 0, 0)
    E(ADCX, "adcx Gy,Ey", 0x66, P38, 0xf6, M0, -1, SY, 0, GPR, GPR, 0, 0)
    E(ADOX, "adox Gy,Ey", 0xf3, P38, 0xf6, M0, -1, SY, 0, GPR, GPR, 0, 0)
    E(CRC32, "crc32 Gy,Eb", 0xf2, P38, 0xf0, M0, -1, SY, 0, GPR, GPR, 0, 0)
    E(CRC32, "crc32 Gy,Ev", 0xf2, P38, 0xf1, M0, -1, SY, 0, GPR, GPR, 0, 0)
    /* Strings. */
    STR(MOVSB, "movsb", 0xa4, 0, 0) STR(MOVSW, "movsw", 0xa5, DIFF_SZ16, 0)
    STR(MOVSD, "movsd", 0xa5, DIFF_SZ32, 0)
    STR(MOVSQ, "movsq", 0xa5, DIFF_SZ64, 0)
    STR(STOSB, "stosb", 0xaa, 0, 0) STR(STOSW, "stosw", 0xab, DIFF_SZ16, 0)
    STR(STOSD, "stosd", 0xab, DIFF_SZ32, 0)
    STR(STOSQ, "stosq", 0xab, DIFF_SZ64, 0)
    STR(LODSB, "lodsb", 0xac, 0, 0) STR(LODSW, "lodsw", 0xad, DIFF_SZ16, 0)
    STR(LODSD, "lodsd", 0xad, DIFF_SZ32, 0)
    STR(LODSQ, "lodsq", 0xad, DIFF_SZ64, 0)
    STR(SCASB, "scasb", 0xae, 0, 0) STR(SCASW, "scasw", 0xaf, DIFF_SZ16, 0)
    STR(SCASD, "scasd", 0xaf, DIFF_SZ32, 0)
    STR(SCASQ, "scasq", 0xaf, DIFF_SZ64, 0)
    STR(CMPSB, "cmpsb", 0xa6, 0, 0) STR(CMPSW, "cmpsw", 0xa7, DIFF_SZ16, 0)
    STR(CMPSD, "cmpsd", 0xa7, DIFF_SZ32, 0)
    STR(CMPSQ, "cmpsq", 0xa7, DIFF_SZ64, 0)
    /* 66 before F3/F2, as gas encodes "rep stosw" (Capstone 4 alone would
     * decode 66 F3 AB as rep stosd: decode.c reorders). */
    E(STOSW, "rep stosw (66 F3)", 0xf3, P1, 0xab, NO, -1, DIFF_SZ16, 0, NOK,
      NOK, DIFF_O_STRING, 0)
    E(MOVSW, "rep movsw (66 F3)", 0xf3, P1, 0xa5, NO, -1, DIFF_SZ16, 0, NOK,
      NOK, DIFF_O_STRING, 0)
    E(LODSW, "rep lodsw (66 F3)", 0xf3, P1, 0xad, NO, -1, DIFF_SZ16, 0, NOK,
      NOK, DIFF_O_STRING, 0)
    E(CMPSW, "repe cmpsw (66 F3)", 0xf3, P1, 0xa7, NO, -1, DIFF_SZ16, 0, NOK,
      NOK, DIFF_O_STRING, 0)
    E(SCASW, "repne scasw (66 F2)", 0xf2, P1, 0xaf, NO, -1, DIFF_SZ16, 0, NOK,
      NOK, DIFF_O_STRING, 0)
    /* Flags and system. */
    E(CLC, "clc", 0, P1, 0xf8, NO, -1, 0, 0, NOK, NOK, 0, 0)
    E(STC, "stc", 0, P1, 0xf9, NO, -1, 0, 0, NOK, NOK, 0, 0)
    E(CMC, "cmc", 0, P1, 0xf5, NO, -1, 0, 0, NOK, NOK, 0, 0)
    E(CLD, "cld", 0, P1, 0xfc, NO, -1, 0, 0, NOK, NOK, 0, 0)
    E(STD, "std", 0, P1, 0xfd, NO, -1, 0, 0, NOK, NOK, 0, 0)
    E(LAHF, "lahf", 0, P1, 0x9f, NO, -1, 0, 0, NOK, NOK, 0, 0)
    E(SAHF, "sahf", 0, P1, 0x9e, NO, -1, 0, 0, NOK, NOK, 0, 0)
    E(NOP, "nop", 0, P1, 0x90, NO, -1, 0, 0, NOK, NOK, 0, 0)
    E(NOP, "nop Ev", 0, P0F, 0x1f, M0, 0, SV, 0, NOK, GPR, 0, 0)
    E(PAUSE, "pause", 0xf3, P1, 0x90, NO, -1, 0, 0, NOK, NOK, 0, 0)
    E(PREFETCHT0, "prefetcht0 Mb", 0, P0F, 0x18, M0, 1, 0, 0, NOK, GPR,
      DIFF_O_MEM, 0)
    E(PREFETCHNTA, "prefetchnta Mb", 0, P0F, 0x18, M0, 0, 0, 0, NOK, GPR,
      DIFF_O_MEM, 0)
    E(PREFETCHT1, "prefetcht1 Mb", 0, P0F, 0x18, M0, 2, 0, 0, NOK, GPR,
      DIFF_O_MEM, 0)
    E(PREFETCHT2, "prefetcht2 Mb", 0, P0F, 0x18, M0, 3, 0, 0, NOK, GPR,
      DIFF_O_MEM, 0)
    E(PREFETCHW, "prefetchw Mb", 0, P0F, 0x0d, M0, 1, 0, 0, NOK, GPR,
      DIFF_O_MEM, 0)
    E(PREFETCH, "prefetch Mb", 0, P0F, 0x0d, M0, 0, 0, 0, NOK, GPR,
      DIFF_O_MEM, 0)
    E(CLFLUSH, "clflush Mb", 0, P0F, 0xae, M0, 7, 0, 0, NOK, GPR, DIFF_O_MEM,
      0)
    E(CLFLUSHOPT, "clflushopt Mb", 0x66, P0F, 0xae, M0, 7, 0, 0, NOK, GPR,
      DIFF_O_MEM, 0)
    E(CLWB, "clwb Mb", 0x66, P0F, 0xae, M0, 6, 0, 0, NOK, GPR, DIFF_O_MEM, 0)
    E(INT3, "int3", 0, P1, 0xcc, NO, -1, 0, 0, NOK, NOK, 0, 0)
    E(UD2, "ud2", 0, P0F, 0x0b, NO, -1, 0, 0, NOK, NOK, 0, 0)
    E(INT, "int Ib", 0, P1, 0xcd, NO, -1, 0, IB, NOK, NOK, 0, fix_int)
    E(HLT, "hlt", 0, P1, 0xf4, NO, -1, 0, 0, NOK, NOK, 0, 0)
    E(CLI, "cli", 0, P1, 0xfa, NO, -1, 0, 0, NOK, NOK, 0, 0)
    E(STI, "sti", 0, P1, 0xfb, NO, -1, 0, 0, NOK, NOK, 0, 0)
    E(IN, "in al,dx", 0, P1, 0xec, NO, -1, 0, 0, NOK, NOK, 0, 0)
    E(IN, "in eAX,Ib", 0, P1, 0xe5, NO, -1, DIFF_SZ16 | DIFF_SZ32, IB, NOK,
      NOK, 0, 0)
    E(OUT, "out dx,al", 0, P1, 0xee, NO, -1, 0, 0, NOK, NOK, 0, 0)
    E(OUT, "out Ib,al", 0, P1, 0xe6, NO, -1, 0, IB, NOK, NOK, 0, 0)
    E(INSB, "insb", 0, P1, 0x6c, NO, -1, 0, 0, NOK, NOK, DIFF_O_STRING, 0)
    E(INSW, "insw", 0, P1, 0x6d, NO, -1, DIFF_SZ16, 0, NOK, NOK,
      DIFF_O_STRING, 0)
    E(INSD, "insd", 0, P1, 0x6d, NO, -1, 0, 0, NOK, NOK, DIFF_O_STRING, 0)
    E(OUTSB, "outsb", 0, P1, 0x6e, NO, -1, 0, 0, NOK, NOK, DIFF_O_STRING, 0)
    E(OUTSW, "outsw", 0, P1, 0x6f, NO, -1, DIFF_SZ16, 0, NOK, NOK,
      DIFF_O_STRING, 0)
    E(OUTSD, "outsd", 0, P1, 0x6f, NO, -1, 0, 0, NOK, NOK, DIFF_O_STRING, 0)
    E(XLATB, "xlatb", 0, P1, 0xd7, NO, -1, 0, 0, NOK, NOK, 0, fix_xlat)
    E(CPUID, "cpuid", 0, P0F, 0xa2, NO, -1, 0, 0, NOK, NOK, 0, fix_cpuid)
    E(XGETBV, "xgetbv", 0, P0F, 0x01, NO, -1, 0, IB, NOK, NOK, 0, fix_xgetbv)
    E(LFENCE, "lfence", 0, P0F, 0xae, NO, -1, 0, IB, NOK, NOK, 0, fix_lfence)
    E(MFENCE, "mfence", 0, P0F, 0xae, NO, -1, 0, IB, NOK, NOK, 0, fix_mfence)
    E(SFENCE, "sfence", 0, P0F, 0xae, NO, -1, 0, IB, NOK, NOK, 0, fix_sfence)
    E(ENDBR64, "endbr64", 0xf3, P0F, 0x1e, NO, -1, 0, IB, NOK, NOK, 0,
      fix_endbr64)
};

const struct diff_family diff_cases_int = {"int", int_encs,
                                           RW_ARRAY_SIZE(int_encs)};
