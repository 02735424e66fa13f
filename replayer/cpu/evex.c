/* SPDX-License-Identifier: MIT */
/* AVX-512: the EVEX decoder, the opmask instructions and the operand
 * helpers the EVEX instructions share (their handlers and rows are in
 * evex_ops.c).
 *
 * Capstone 4 decodes only part of AVX-512 and none of several opmask
 * instructions, so this file decodes every EVEX instruction and every VEX
 * opmask instruction from its bytes (Intel SDM vol. 2, 2.7 "EVEX"), with
 * its own table: cpu__decode hands it the bytes first. An encoding with no
 * row is reported as unsupported, never guessed.
 *
 * struct cpu_insn for these instructions: reg is ModRM.reg extended by
 * EVEX.R and R' (0-31), reg2 the vvvv register extended by V' (0-31), rm
 * the ModRM.rm register extended by B and X (0-31), or the memory fields
 * with disp already scaled (disp8*N); osz the vector length in bytes (16,
 * 32, 64), or the opmask width for the opmask instructions; cond holds
 * the opmask register aaa (bits 2:0), EVEX.z (bit 3) and EVEX.b (bit 4);
 * CPU_PFX_REXW is EVEX.W.
 *
 * Masking: an element whose bit in the opmask is clear keeps its old value
 * (merging) or becomes zero (EVEX.z), and its memory is neither read nor
 * written, so it cannot fault (the elements of an instruction's memory
 * operand that correspond to the destination's one for one; permutes and
 * shuffles read their whole source). Every write of a vector register
 * zeroes it above the vector length. */
#include <stdio.h>

#include "replayer/cpu/evex.h"

/* ---- Shared operand helpers --------------------------------------------- */

/* Loads N bytes at A. */
int cpu__ev_ldv(struct cpu *cpu, u64 a, void *v, unsigned n) {
  if (n == 16) return cpu_ld128(cpu, a, v);
  if (n == 32) return cpu_ld256(cpu, a, v);
  if (n == 64) {
    CPU_TRY(cpu_ld256(cpu, a, v));
    return cpu_ld256(cpu, a + 32, (u8 *)v + 32);
  }
  return cpu_ldn(cpu, a, v, n);
}

/* Zeroes the elements of V (NE of ESZ bytes) whose bits in M are clear:
 * stores of the element's own width, no call per element. */
static void zero_disabled(union zv *v, unsigned esz, unsigned ne, u64 m) {
  if (esz == 1) {
    /* eight bytes at a time: bit i of the mask byte spread to byte i
     * (the product puts a copy of the byte in every byte, the and keeps
     * bit i of byte i, the add carries any set bit into bit 7), then
     * every byte to 0 or ff */
    for (unsigned j = 0; j * 8 < ne; j++) {
      u64 x = ((m >> (8 * j)) & 0xff) * 0x0101010101010101ull;
      x &= 0x8040201008040201ull;
      x = ((x + 0x7f7f7f7f7f7f7f7full) & 0x8080808080808080ull) >> 7;
      v->q[j] &= x * 0xff;
    }
    return;
  }
  for (unsigned i = 0; i < ne; i++) {
    if ((m >> i) & 1) continue;
    switch (esz) {
      case 1: v->b[i] = 0; break;
      case 2: v->w[i] = 0; break;
      case 4: v->d[i] = 0; break;
      case 8: v->q[i] = 0; break;
      default: memset(v->b + i * esz, 0, esz); break;
    }
  }
}

/* Loads the NE elements of ESZ bytes at A whose bits in M are set into V
 * (the others zero), touching no byte of the others' pages when they do not
 * share one with an enabled element. */
int cpu__ev_ld_masked(struct cpu *cpu, u64 a, union zv *v, unsigned esz,
                     unsigned ne, u64 m) {
  unsigned n = esz * ne;
  if (m == ones(ne)) {
    /* the common case, every element: no zeroing but past the vector */
    CPU_TRY(cpu__ev_ldv(cpu, a, v->b, n));
    if (n < sizeof v->b) memset(v->b + n, 0, sizeof v->b - n);
    return 0;
  }
  memset(v->b, 0, sizeof v->b);
  if (!m) return 0;
  if ((a >> 12) == ((a + n - 1) >> 12)) {
    CPU_TRY(cpu__ev_ldv(cpu, a, v->b, n));
    zero_disabled(v, esz, ne, m);
    return 0;
  }
  for (unsigned i = 0; i < ne; i++) {
    if (!((m >> i) & 1)) continue;
    u64 x;
    CPU_TRY(cpu_ld(cpu, a + i * esz, esz, &x));
    memcpy(v->b + i * esz, &x, esz);
  }
  return 0;
}

int cpu__ev_st_probe(struct cpu *cpu, u64 a, unsigned n) {
  u8 x;
  u64 second = (a + n - 1) & ~0xfffull;
  CPU_TRY(cpu_ld8(cpu, a, &x));
  CPU_TRY(cpu_st8(cpu, a, x));
  if (second > a) {
    CPU_TRY(cpu_ld8(cpu, second, &x));
    CPU_TRY(cpu_st8(cpu, second, x));
  }
  return 0;
}

/* Stores the enabled elements (bits of M) of V at A; the others' memory is
 * not written. Every enabled element's page is checked before any byte is
 * written, so a fault changes nothing. */
int cpu__ev_st_masked(struct cpu *cpu, u64 a, const union zv *v, unsigned esz,
                     unsigned ne, u64 m, int kreg) {
  unsigned n = esz * ne;
  if (!m) return 0;
  if (kreg && cpu->cfg.vendor == CPU_VENDOR_INTEL) {
    /* Intel, measured: an opmask store whose enabled bytes lie on two
     * pages faults at its first enabled byte when the first page cannot be
     * written, else at its last enabled byte (a plain store names the
     * second page's first byte). Once both bytes pass, nothing below can
     * fault. */
    u64 lo = a + (u64)__builtin_ctzll(m) * esz;
    u64 hi = a + (u64)(64 - __builtin_clzll(m)) * esz - 1;
    if ((lo >> 12) != (hi >> 12)) {
      CPU_TRY(cpu__ev_st_probe(cpu, lo, 1));
      CPU_TRY(cpu__ev_st_probe(cpu, hi, 1));
    }
  }
  if (m == ones(ne)) {
    if (n == 64) {
      /* across two pages, neither half may be written before both are
       * known writable; on one page the first store faults first */
      if ((a >> 12) != ((a + 63) >> 12))
        CPU_TRY(cpu__ev_st_probe(cpu, a, 64));
      CPU_TRY(cpu_st256(cpu, a, v->b));
      return cpu_st256(cpu, a + 32, v->b + 32);
    }
    if (n == 32) return cpu_st256(cpu, a, v->b);
    if (n == 16) return cpu_st128(cpu, a, v->b);
    return cpu_stn(cpu, a, v->b, n);
  }
  unsigned first = (unsigned)__builtin_ctzll(m);
  unsigned last = 63u - (unsigned)__builtin_clzll(m);
  u64 lo = a + first * esz, hi = a + last * esz + esz;
  if ((lo >> 12) == ((hi - 1) >> 12)) {
    union zv cur;
    CPU_TRY(cpu_ldn(cpu, lo, cur.b, (unsigned)(hi - lo)));
    for (unsigned i = first; i <= last; i++)
      if ((m >> i) & 1)
        memcpy(cur.b + (i - first) * esz, v->b + i * esz, esz);
    return cpu_stn(cpu, lo, cur.b, (unsigned)(hi - lo));
  }
  /* Enabled elements on two pages: write each one's bytes back to
   * themselves first, in order, so that a read-only or absent page faults
   * before anything changes, naming the lowest byte of an enabled element
   * that cannot be written, as the CPU does. */
  for (unsigned i = first; i <= last; i++) {
    u64 x;
    if (!((m >> i) & 1)) continue;
    CPU_TRY(cpu_ld(cpu, a + i * esz, esz, &x));
    CPU_TRY(cpu_st(cpu, a + i * esz, esz, x));
  }
  for (unsigned i = first; i <= last; i++) {
    if (!((m >> i) & 1)) continue;
    u64 x = 0;
    memcpy(&x, v->b + i * esz, esz);
    CPU_TRY(cpu_st(cpu, a + i * esz, esz, x));
  }
  return 0;
}

/* The rm source of IN with elements of ESZ bytes: a register, the vector
 * length of memory under the opmask (M, or all when FULL), or with EVEX.b
 * one element broadcast to every position. */
int cpu__ev_zsrc_m(struct cpu *cpu, const struct cpu_insn *in, unsigned esz,
                  u64 m, union zv *v) {
  unsigned vl = in->osz, ne = vl / esz;
  if (!(in->pfx & CPU_PFX_MEM)) {
    zget(cpu, in->rm, v);
    return 0;
  }
  u64 a = cpu_ea(cpu, in);
  if (EV_BC(in)) { /* in->msz: the broadcast element's size */
    u64 x = 0;
    unsigned bs = in->msz ? in->msz : esz;
    if (m) CPU_TRY(cpu_ld(cpu, a, bs, &x));
    for (unsigned i = 0; i < vl / bs; i++) memcpy(v->b + i * bs, &x, bs);
    return 0;
  }
  return cpu__ev_ld_masked(cpu, a, v, esz, ne, m);
}

/* ---- Opmask instructions (VEX) ------------------------------------------ */

/* osz is the opmask width in bytes; reg, reg2 (vvvv) and rm name k
 * registers (or a general register / memory, per form). */
static int op_kmov_k_km(struct cpu *cpu, const struct cpu_insn *in) {
  u64 v;
  if (in->pfx & CPU_PFX_MEM)
    CPU_TRY(cpu_ld(cpu, cpu_ea(cpu, in), in->osz, &v));
  else
    v = cpu->k[in->rm & 7] & ones(in->osz * 8);
  cpu->k[in->reg & 7] = v;
  return CPU_RC_NEXT;
}
static int op_kmov_m_k(struct cpu *cpu, const struct cpu_insn *in) {
  return cpu_st(cpu, cpu_ea(cpu, in), in->osz, cpu->k[in->reg & 7]);
}
static int op_kmov_k_r(struct cpu *cpu, const struct cpu_insn *in) {
  cpu->k[in->reg & 7] = cpu->gpr[in->rm] & ones(in->osz * 8);
  return CPU_RC_NEXT;
}
static int op_kmov_r_k(struct cpu *cpu, const struct cpu_insn *in) {
  cpu->gpr[in->reg] = cpu->k[in->rm & 7] & ones(in->osz * 8);
  return CPU_RC_NEXT;
}

#define EV_KLOGIC(name, EXPR)                                           \
  static int op_##name(struct cpu *cpu, const struct cpu_insn *in) {    \
    u64 x = cpu->k[in->reg2 & 7], y = cpu->k[in->rm & 7];               \
    (void)x;                                                            \
    cpu->k[in->reg & 7] = (EXPR) & ones(in->osz * 8);                   \
    return CPU_RC_NEXT;                                                 \
  }
EV_KLOGIC(kand, x & y)
EV_KLOGIC(kandn, ~x & y)
EV_KLOGIC(kor, x | y)
EV_KLOGIC(kxor, x ^ y)
EV_KLOGIC(kxnor, ~(x ^ y))
EV_KLOGIC(kadd, x + y)
EV_KLOGIC(knot, ~y)

/* kunpck: the low halves of vvvv (high) and rm (low) concatenated; osz is
 * the result's width. */
static int op_kunpck(struct cpu *cpu, const struct cpu_insn *in) {
  unsigned h = in->osz * 4;
  u64 lo = cpu->k[in->rm & 7] & ones(h), hi = cpu->k[in->reg2 & 7] & ones(h);
  cpu->k[in->reg & 7] = (hi << h) | lo;
  return CPU_RC_NEXT;
}

static int op_kortest(struct cpu *cpu, const struct cpu_insn *in) {
  u64 all = ones(in->osz * 8);
  u64 v = (cpu->k[in->reg & 7] | cpu->k[in->rm & 7]) & all;
  cpu__flags_set(cpu, CPU_ARITH,
                 (v == 0 ? CPU_ZF : 0) | (v == all ? CPU_CF : 0));
  return CPU_RC_NEXT;
}
static int op_ktest(struct cpu *cpu, const struct cpu_insn *in) {
  u64 all = ones(in->osz * 8);
  u64 a = cpu->k[in->reg & 7] & all, b = cpu->k[in->rm & 7] & all;
  cpu__flags_set(cpu, CPU_ARITH,
                 ((a & b) == 0 ? CPU_ZF : 0) | ((~a & b) == 0 ? CPU_CF : 0));
  return CPU_RC_NEXT;
}
static int op_kshiftl(struct cpu *cpu, const struct cpu_insn *in) {
  unsigned c = (u8)in->imm, w = in->osz * 8;
  u64 v = cpu->k[in->rm & 7] & ones(w);
  cpu->k[in->reg & 7] = c >= w ? 0 : (v << c) & ones(w);
  return CPU_RC_NEXT;
}
static int op_kshiftr(struct cpu *cpu, const struct cpu_insn *in) {
  unsigned c = (u8)in->imm, w = in->osz * 8;
  u64 v = cpu->k[in->rm & 7] & ones(w);
  cpu->k[in->reg & 7] = c >= w ? 0 : v >> c;
  return CPU_RC_NEXT;
}

static int op_ev_ud(struct cpu *cpu, const struct cpu_insn *in) {
  (void)in;
  return cpu__fault(cpu, CPU_FAULT_UD);
}

/* ---- The table ---------------------------------------------------------- */

/* VEX opmask instructions: esz is the opmask width in bytes. */
static const struct ev_row kvex_rows[] = {
    E(0F, NONE, 90, W0, X, KKM, 2, FV, R_L0, kmovw, op_kmov_k_km)
    E(0F, NONE, 90, W1, X, KKM, 8, FV, R_L0, kmovq, op_kmov_k_km)
    E(0F, 66, 90, W0, X, KKM, 1, FV, R_L0, kmovb, op_kmov_k_km)
    E(0F, 66, 90, W1, X, KKM, 4, FV, R_L0, kmovd, op_kmov_k_km)
    E(0F, NONE, 91, W0, X, MK, 2, FV, R_L0 | R_MEM, kmovw, op_kmov_m_k)
    E(0F, NONE, 91, W1, X, MK, 8, FV, R_L0 | R_MEM, kmovq, op_kmov_m_k)
    E(0F, 66, 91, W0, X, MK, 1, FV, R_L0 | R_MEM, kmovb, op_kmov_m_k)
    E(0F, 66, 91, W1, X, MK, 4, FV, R_L0 | R_MEM, kmovd, op_kmov_m_k)
    E(0F, NONE, 92, W0, X, KR, 2, FV, R_L0 | R_REG, kmovw, op_kmov_k_r)
    E(0F, 66, 92, W0, X, KR, 1, FV, R_L0 | R_REG, kmovb, op_kmov_k_r)
    E(0F, F2, 92, W0, X, KR, 4, FV, R_L0 | R_REG, kmovd, op_kmov_k_r)
    E(0F, F2, 92, W1, X, KR, 8, FV, R_L0 | R_REG, kmovq, op_kmov_k_r)
    E(0F, NONE, 93, W0, X, RK, 2, FV, R_L0 | R_REG, kmovw, op_kmov_r_k)
    E(0F, 66, 93, W0, X, RK, 1, FV, R_L0 | R_REG, kmovb, op_kmov_r_k)
    E(0F, F2, 93, W0, X, RK, 4, FV, R_L0 | R_REG, kmovd, op_kmov_r_k)
    E(0F, F2, 93, W1, X, RK, 8, FV, R_L0 | R_REG, kmovq, op_kmov_r_k)
#define KL(op, name, fn, form, fl)                                       \
  E(0F, NONE, op, W0, X, form, 2, FV, fl | R_REG, name##w, fn)           \
  E(0F, NONE, op, W1, X, form, 8, FV, fl | R_REG, name##q, fn)           \
  E(0F, 66, op, W0, X, form, 1, FV, fl | R_REG, name##b, fn)             \
  E(0F, 66, op, W1, X, form, 4, FV, fl | R_REG, name##d, fn)
    KL(41, kand, op_kand, KKK, R_L1)
    KL(42, kandn, op_kandn, KKK, R_L1)
    KL(44, knot, op_knot, KK, R_L0)
    KL(45, kor, op_kor, KKK, R_L1)
    KL(46, kxnor, op_kxnor, KKK, R_L1)
    KL(47, kxor, op_kxor, KKK, R_L1)
    KL(4A, kadd, op_kadd, KKK, R_L1)
    KL(98, kortest, op_kortest, KK, R_L0)
    KL(99, ktest, op_ktest, KK, R_L0)
#undef KL
    E(0F, 66, 4B, W0, X, KKK, 2, FV, R_L1 | R_REG, kunpckbw, op_kunpck)
    E(0F, NONE, 4B, W0, X, KKK, 4, FV, R_L1 | R_REG, kunpckwd, op_kunpck)
    E(0F, NONE, 4B, W1, X, KKK, 8, FV, R_L1 | R_REG, kunpckdq, op_kunpck)
    E(0F3A, 66, 30, W0, X, KKI, 1, FV, R_L0 | R_REG, kshiftrb, op_kshiftr)
    E(0F3A, 66, 30, W1, X, KKI, 2, FV, R_L0 | R_REG, kshiftrw, op_kshiftr)
    E(0F3A, 66, 31, W0, X, KKI, 4, FV, R_L0 | R_REG, kshiftrd, op_kshiftr)
    E(0F3A, 66, 31, W1, X, KKI, 8, FV, R_L0 | R_REG, kshiftrq, op_kshiftr)
    E(0F3A, 66, 32, W0, X, KKI, 1, FV, R_L0 | R_REG, kshiftlb, op_kshiftl)
    E(0F3A, 66, 32, W1, X, KKI, 2, FV, R_L0 | R_REG, kshiftlw, op_kshiftl)
    E(0F3A, 66, 33, W0, X, KKI, 4, FV, R_L0 | R_REG, kshiftld, op_kshiftl)
    E(0F3A, 66, 33, W1, X, KKI, 8, FV, R_L0 | R_REG, kshiftlq, op_kshiftl)
};
#undef E
#undef X

static const size_t kvex_nrows = sizeof kvex_rows / sizeof kvex_rows[0];

static const char *const ev_names[] = {
#define EVN(name) [CPU_INS_EV_##name - CPU_INS_EV_kmovb] = #name,
#include "replayer/cpu/evex_ids.def"
#undef EVN
};

const char *cpu__evex_name(unsigned id) {
  if (id < CPU_INS_EV_kmovb || id >= CPU_INS_ENDING) return NULL;
  return ev_names[id - CPU_INS_EV_kmovb];
}

/* ---- Decoding ----------------------------------------------------------- */

/* What the prefix bytes say. */
struct ev_pfx {
  unsigned n;      /* prefix bytes */
  unsigned seg;    /* CPU_SEG_* */
  int addr32;      /* 67 */
  int legacy_bad;  /* 66, F2, F3, F0 or REX before VEX/EVEX: #UD */
};

static void ev_prefixes(const u8 *b, unsigned n, struct ev_pfx *p) {
  memset(p, 0, sizeof *p);
  for (p->n = 0; p->n < n; p->n++) {
    u8 c = b[p->n];
    if (c == 0x64)
      p->seg = CPU_SEG_FS;
    else if (c == 0x65)
      p->seg = CPU_SEG_GS;
    else if (c == 0x67)
      p->addr32 = 1;
    else if (c == 0x66 || c == 0xf2 || c == 0xf3 || c == 0xf0)
      p->legacy_bad = 1;
    else if (c == 0x2e || c == 0x36 || c == 0x3e || c == 0x26)
      continue;
    else if ((c & 0xf0) == 0x40)
      p->legacy_bad = 1; /* REX before VEX/EVEX is #UD (and must be last) */
    else
      break;
  }
}

unsigned cpu__evex_disp8_n(const struct ev_row *r, unsigned vl, int bc) {
  switch (r->tuple) {
    case T_FV:
      return !bc ? vl : (r->fl & R_B4) ? 4 : (r->fl & R_B8) ? 8 : r->esz;
    case T_FVM: return vl;
    case T_HVM: return vl / 2;
    case T_QVM: return vl / 4;
    case T_OVM: return vl / 8;
    case T_T1S: return r->esz;
    case T_M128: return 16;
    case T_T4: return 16;
    case T_T2Q: return 16;
    case T_HV:
      return !bc ? vl / 2 : (r->fl & R_B4) ? 4 : (r->fl & R_B2) ? 2 : r->esz;
    case T_QV:
      return !bc ? vl / 4 : (r->fl & R_B2) ? 2 : r->esz;
    case T_T2: return 2 * r->esz;
    case T_DUP: return vl == 16 ? 8 : vl;
    default: return 32; /* T_T8 */
  }
}

static int op_ev_unsupported(struct cpu *cpu, const struct cpu_insn *in) {
  return cpu__op_unsupported(cpu, in);
}

/* Decodes ModRM (at B[I]), SIB and displacement into IN for a memory or
 * register rm; EXT_B/EXT_X extend base and index (X also extends a
 * register rm to 16-31 under EVEX). Returns the index past them, or 0 when
 * the bytes run out. */
unsigned cpu__ev_modrm(const u8 *b, unsigned n, unsigned i, unsigned bb,
                       unsigned xx, unsigned dn, int evex, struct cpu_insn *in,
                       int *riprel) {
  u8 modrm = b[i++];
  unsigned mod = modrm >> 6, rm = modrm & 7;
  *riprel = 0;
  if (mod == 3) {
    in->rm = (u8)(rm | bb << 3 | (evex ? xx << 4 : 0));
    return i;
  }
  in->pfx |= CPU_PFX_MEM;
  if (rm == 4) {
    if (i >= n) return 0;
    u8 sib = b[i++];
    unsigned base = sib & 7, idx = ((sib >> 3) & 7) | xx << 3;
    in->scale = (u8)(sib >> 6);
    in->index = idx == 4 ? CPU_REG_NONE : (u8)idx;
    if (base == 5 && mod == 0) {
      in->base = CPU_REG_NONE;
      mod = 2; /* disp32, no base */
    } else {
      in->base = (u8)(base | bb << 3);
    }
  } else if (rm == 5 && mod == 0) {
    *riprel = 1;
    mod = 2;
  } else {
    in->base = (u8)(rm | bb << 3);
  }
  if (mod == 1) {
    if (i >= n) return 0;
    in->disp = (i64)(i8)b[i++] * (i64)dn;
  } else if (mod == 2) {
    if (i + 4 > n) return 0;
    i32 d;
    memcpy(&d, b + i, 4);
    in->disp = d;
    i += 4;
  }
  return i;
}

/* Sets IN to raise #UD (the instruction's length known). */
static int ev_ud(struct cpu_insn *in, unsigned len) {
  in->len = (u8)len;
  in->fn = in->run = op_ev_ud;
  return 1;
}

/* The row of ROWS (N of them) for an instruction's map, opcode, pp, W
 * and ModRM.reg, or NULL; with KIND 0 or 1 (a memory or register rm),
 * only a row that allows that rm (two instructions can share an opcode,
 * one R_MEM, the other R_REG); with KIND -1, any. */
static const struct ev_row *find_row(const struct ev_row *rows, size_t n,
                                     unsigned map, unsigned opc, unsigned pp,
                                     unsigned w, unsigned ext, int kind) {
  for (size_t k = 0; k < n; k++) {
    const struct ev_row *r = &rows[k];
    if (r->map != map || r->op != opc || r->pp != pp) continue;
    if (r->w != WIG && r->w != w) continue;
    if (r->ext != EXT_ANY && r->ext != ext) continue;
    if (kind >= 0 && (r->fl & (kind ? R_MEM : R_REG))) continue;
    return r;
  }
  return NULL;
}

/* The XINUSE bits (CPU_XIN_*) the instruction IN of ROW sets: those of
 * the register it writes, at the vector length, and the opmask bit when
 * it writes an opmask (compares, gathers and scatters). */
static unsigned ev_xin(const struct cpu_insn *in, const struct ev_row *row) {
  unsigned x = (row->fl & R_VSIB) ? CPU_XIN_K : 0;
  int reg_rm = !(in->pfx & CPU_PFX_MEM);
  /* Scalar instructions (one element, vvvv's others above it) write an
   * XMM register whatever L'L says; so do vmovd and vmovq. */
  unsigned vl = in->osz;
  if (row->tuple == T_T1S &&
      (row->form == F_VHW || row->form == F_VHWI || row->form == F_VHE ||
       row->form == F_VHEI || row->form == F_VE))
    vl = 16;
  /* Measured: vcvtpd2ph marks as an instruction of half its length does
   * (two steps, through singles?); every other narrowing instruction marks
   * by its encoded length. */
  if (row->id == CPU_INS_EV_vcvtpd2ph) vl = vl > 16 ? vl / 2 : 16;
  if ((row->map == MAP_0F || row->map == MAP_5) && row->op == 0x11 &&
      row->form == F_VHW && row->tuple == T_T1S)
    return reg_rm ? cpu__xin_vreg(in->rm, 16) : 0; /* vmovss/sd/sh stores */
  switch (row->id) { /* compares into RFLAGS: no register written */
    case CPU_INS_EV_vcomiss:
    case CPU_INS_EV_vcomisd:
    case CPU_INS_EV_vucomiss:
    case CPU_INS_EV_vucomisd:
    case CPU_INS_EV_vcomish:
    case CPU_INS_EV_vucomish:
      return 0;
    default:
      break;
  }
  switch (row->form) {
    case F_VHW:
    case F_VHWI:
    case F_VW:
    case F_VWI:
    case F_VK:
    case F_VR:
    case F_VE:
    case F_VHE:
    case F_VHEI:
      return x | cpu__xin_vreg(in->reg, vl);
    case F_WV:
    case F_WVI:
      return reg_rm ? x | cpu__xin_vreg(in->rm, vl) : x;
    case F_HWI:
      return x | cpu__xin_vreg(in->reg2, vl);
    case F_KHW:
    case F_KHWI:
    case F_KWI:
    case F_KU:
    case F_KKM:
    case F_KR:
    case F_KKK:
    case F_KKI:
      return CPU_XIN_K;
    case F_KK: /* kortest and ktest only read their opmasks */
      switch (row->id) {
        case CPU_INS_EV_kortestb:
        case CPU_INS_EV_kortestw:
        case CPU_INS_EV_kortestd:
        case CPU_INS_EV_kortestq:
        case CPU_INS_EV_ktestb:
        case CPU_INS_EV_ktestw:
        case CPU_INS_EV_ktestd:
        case CPU_INS_EV_ktestq:
          return 0;
        default:
          return CPU_XIN_K;
      }
    default:
      return x;
  }
}

/* Decodes an EVEX instruction from cpu__evex_tables, or with EVEX zero a
 * VEX one from cpu__vex_tables, for the recording CPU of CPU (NULL: none,
 * the strict rules and every extension). An AMD Zen 4 runs some encodings
 * that others reject (see below). */
static int decode_row(const struct cpu *cpu, const u8 *b, unsigned n,
                      u64 rip, struct cpu_insn *in, int evex,
                      const struct ev_pfx *px, unsigned i, unsigned *xin) {
  int zen4 = cpu && cpu__zen(cpu) == CPU__ZEN4;
  unsigned R, X, B, R2 = 0, V2 = 0, map, W, vvvv, L, pp, z = 0, aaa = 0,
                                                        bc = 0;
  if (evex) {
    if (i + 4 > n) return n < 15 ? (in->len = 0, 1) : ev_ud(in, n);
    u8 p0 = b[i + 1], p1 = b[i + 2], p2 = b[i + 3];
    R = !(p0 & 0x80), X = !(p0 & 0x40), B = !(p0 & 0x20), R2 = !(p0 & 0x10);
    map = p0 & 7;
    W = p1 >> 7;
    vvvv = (~p1 >> 3) & 15;
    pp = p1 & 3;
    z = p2 >> 7;
    L = (p2 >> 5) & 3;
    bc = (p2 >> 4) & 1;
    V2 = !(p2 & 8);
    aaa = p2 & 7;
    if ((p0 & 0x08) || !(p1 & 0x04)) return ev_ud(in, i + 5 <= n ? i + 5 : n);
    i += 4;
  } else if (b[i] == 0xc5) {
    if (i + 3 > n) return n < 15 ? (in->len = 0, 1) : ev_ud(in, n);
    u8 p = b[i + 1];
    R = !(p & 0x80), X = 0, B = 0, map = 1, W = 0;
    vvvv = (~p >> 3) & 15;
    L = (p >> 2) & 1;
    pp = p & 3;
    i += 2;
  } else {
    if (i + 4 > n) return n < 15 ? (in->len = 0, 1) : ev_ud(in, n);
    u8 p = b[i + 1], q = b[i + 2];
    R = !(p & 0x80), X = !(p & 0x40), B = !(p & 0x20);
    map = p & 31;
    W = q >> 7;
    vvvv = (~q >> 3) & 15;
    L = (q >> 2) & 1;
    pp = q & 3;
    i += 3;
  }
  if (i >= n) return n < 15 ? (in->len = 0, 1) : ev_ud(in, n);
  u8 opc = b[i++];
  const struct ev_row *row = NULL;
  if (i >= n) return n < 15 ? (in->len = 0, 1) : ev_ud(in, n);
  unsigned ext = (b[i] >> 3) & 7, is_reg = (b[i] >> 6) == 3;
  if (evex) /* a row for this kind of rm, else one for the other (#UD) */
    for (int pass = 0; pass < 2 && !row; pass++)
      for (const struct ev_table *t = cpu__evex_tables; t->rows && !row;
           t++)
        row = find_row(t->rows, *t->n, map, opc, pp, W, ext,
                       pass ? -1 : (int)is_reg);
  else
    for (const struct ev_table *t = cpu__vex_tables; t->rows && !row; t++)
      row = find_row(t->rows, *t->n, map, opc, pp, W, ext, -1);
  if (!evex && !row) return 0; /* not one of ours: Capstone's */
  unsigned vl = evex ? 16u << L : 0;
  unsigned dn =
      row && evex ? cpu__evex_disp8_n(row, vl > 64 ? 64 : vl, bc) : 1;
  int riprel;
  unsigned end = cpu__ev_modrm(b, n, i, B, X, dn, evex, in, &riprel);
  if (!end) return n < 15 ? (in->len = 0, 1) : ev_ud(in, n);
  unsigned has_imm =
      row && (row->form == F_VHWI || row->form == F_VWI || row->form == F_WVI ||
              row->form == F_HWI || row->form == F_KHWI || row->form == F_KWI ||
              row->form == F_KKI || row->form == F_VHEI ||
              row->form == F_GWI || row->form == F_EVI);
  if (has_imm) {
    if (end >= n) return n < 15 ? (in->len = 0, 1) : ev_ud(in, n);
    in->imm = b[end++];
  }
  if (end > 15) return ev_ud(in, 15);
  in->len = (u8)end;
  if (riprel) {
    in->base = CPU_REG_NONE;
    in->disp = (i64)(rip + end + (u64)in->disp);
  }
  if (!row) {
    in->fn = in->run = op_ev_unsupported;
    return 1;
  }
  in->id = row->id;
  in->seg = (u8)px->seg;
  if (px->addr32) in->pfx |= CPU_PFX_ADDR32;
  if (W) in->pfx |= CPU_PFX_REXW;
  {
    u8 modrm = b[i];
    in->reg = (u8)(((modrm >> 3) & 7) | R << 3 | R2 << 4);
  }
  in->reg2 = (u8)(vvvv | V2 << 4);
  if (row->fl & R_VSIB) { /* V' extends the index vector, not vvvv */
    if (is_reg || (b[i] & 7) != 4) return ev_ud(in, end);
    in->index = (u8)(((b[i + 1] >> 3) & 7) | X << 3 | V2 << 4);
    in->reg2 = (u8)vvvv;
  }
  in->cond = (u8)(aaa | z << 3 | bc << 4);
  in->msz = (u8)((row->fl & R_B4)   ? 4
                  : (row->fl & R_B8) ? 8
                  : (row->fl & R_B2) ? 2
                                     : row->esz);
  in->fn = in->run = row->fn;
  if (px->legacy_bad) return ev_ud(in, end);
  /* An extension the recording CPU lacks: AVX-512 itself (AVX-VNNI's VEX
   * rows aside), or the row's subset (feature.c). */
  if (((evex || row->form != F_VHW) && !cpu__has(cpu, CPU__FEAT_AVX512F)) ||
      !cpu__has(cpu, cpu__feature_of(row->id, evex)))
    return ev_ud(in, end);
  if ((row->fl & R_MEM) && is_reg) return ev_ud(in, end);
  if ((row->fl & R_REG) && !is_reg) return ev_ud(in, end);
  if (!evex && row->form == F_VHW) { /* AVX-VNNI: no opmask, 16 registers */
    in->osz = (u8)(16u << L);
    in->cond = 0;
    *xin = cpu__xin_vreg(in->reg, in->osz);
    return 1;
  }
  if (!evex) {
    in->osz = row->esz;
    if ((row->fl & R_L0) && L) return ev_ud(in, end);
    if ((row->fl & R_L1) && !L) return ev_ud(in, end);
    /* An opmask named by vvvv (KKK) or ModRM.reg: Zen 4 ignores vvvv's top
     * bit and VEX.R there (measured on every opmask row, 3-byte VEX: each
     * runs as with the bit clear), where the others raise #UD. vvvv must
     * be 1111b where it names nothing, on Zen 4 too. */
    if (row->form == F_KKK ? vvvv > 7 && !zen4 : vvvv != 0)
      return ev_ud(in, end);
    if (R && row->form != F_RK && !zen4) return ev_ud(in, end);
    in->reg = (u8)(in->reg & (row->form == F_RK ? 15 : 7));
    in->reg2 = (u8)(in->reg2 & 7);
    if (row->form == F_KR) in->rm = (u8)(in->rm & 15);
    *xin = ev_xin(in, row);
    return 1;
  }
  /* EVEX checks */
  in->osz = (u8)(vl > 64 ? 64 : vl);
  /* EVEX.b: with a register rm, embedded rounding (L'L is then the
   * rounding) or SAE where the row has them, and the length is 512 bits
   * whatever L'L says (this CPU's behaviour for SAE too); with memory, a
   * broadcast where the row has one; else #UD. */
  if (bc && is_reg && (row->fl & (R_ER | R_SAE))) {
    in->imm2 = (u8)((row->fl & R_ER) ? 3 | L << 2 : 1);
    in->osz = 64;
    L = 2;
  } else if (bc && is_reg && zen4 && (row->fl & R_BC)) {
    /* Zen 4 ignores EVEX.b with a register rm where the row could
     * broadcast from memory (the length stays L'L's); the others, and Zen
     * 4 on a row without a broadcast, raise #UD. */
    bc = 0;
    in->cond = (u8)(in->cond & ~16u);
  } else if (bc && (!(row->fl & R_BC) || is_reg)) {
    return ev_ud(in, end);
  }
  if (L == 3) return ev_ud(in, end);
  if ((row->fl & R_NOMASK) && aaa) return ev_ud(in, end);
  if (z && !aaa && zen4 && (row->fl & R_NOMASK) && row->form != F_KU &&
      row->form != F_VK) {
    /* Zen 4 ignores EVEX.z on a row that takes no opmask, unless an
     * operand is an opmask (vpmovm2*, vpmov*2m, vpbroadcastm*) or the
     * destination is memory (#UD as with an opmask, below). */
    if (is_reg || (row->form != F_WV && row->form != F_WVI &&
                   row->form != F_EV && row->form != F_EVI)) {
      z = 0;
      in->cond = (u8)(in->cond & ~8u);
    }
  }
  if (z && !aaa) return ev_ud(in, end); /* zeroing needs an opmask */
  switch (row->form) {
    case F_KHW:
    case F_KHWI:
    case F_KWI:
    case F_KU:
      if (R || R2) return ev_ud(in, end); /* an opmask in ModRM.reg */
      break;
    default:
      break;
  }
  if (z && ((row->fl & R_NOZ) ||
            (!is_reg && (row->form == F_WV || row->form == F_WVI ||
                         row->form == F_EV || row->form == F_EVI))))
    return ev_ud(in, end); /* no zeroing of memory */
  if ((row->fl & R_V256) && vl == 16) return ev_ud(in, end);
  if ((row->fl & R_L128) && vl != 16) return ev_ud(in, end);
  if ((row->id == CPU_INS_EV_vbroadcasti32x8 ||
       row->id == CPU_INS_EV_vbroadcasti64x4 ||
       row->id == CPU_INS_EV_vbroadcastf32x8 ||
       row->id == CPU_INS_EV_vbroadcastf64x4 ||
       row->id == CPU_INS_EV_vextracti32x8 ||
       row->id == CPU_INS_EV_vextracti64x4 ||
       row->id == CPU_INS_EV_vinserti32x8 ||
       row->id == CPU_INS_EV_vinserti64x4 ||
       row->id == CPU_INS_EV_vextractf32x8 ||
       row->id == CPU_INS_EV_vextractf64x4 ||
       row->id == CPU_INS_EV_vinsertf32x8 ||
       row->id == CPU_INS_EV_vinsertf64x4) &&
      vl != 64)
    return ev_ud(in, end);
  switch (row->form) {
    case F_VW:
    case F_VWI:
    case F_WV:
    case F_WVI:
    case F_KWI:
    case F_KU:
    case F_VK:
    case F_VR:
    case F_VE:
    case F_EV:
    case F_GW:
    case F_GWI:
    case F_EVI:
      if (in->reg2) return ev_ud(in, end); /* vvvv must be 1111b, V' 1 */
      break;
    default:
      break;
  }
  if (row->form == F_HWI) in->reg = 0;
  if ((row->form == F_VR || row->form == F_VE || row->form == F_EV ||
       row->form == F_VHE || row->form == F_VHEI || row->form == F_EVI) &&
      is_reg)
    in->rm = (u8)(in->rm & 15); /* a general register: X is not used */
  if (row->form == F_GW || row->form == F_GWI)
    in->reg = (u8)(in->reg & 15); /* a general register: R' is not used */
  *xin = ev_xin(in, row);
  return 1;
}

const struct ev_table cpu__evex_tables[] = {
    {cpu__evex_rows, &cpu__evex_nrows},
    {cpu__evex_fp_rows, &cpu__evex_fp_nrows},
    {cpu__evex_gs_rows, &cpu__evex_gs_nrows},
    {cpu__evex_fpx_rows, &cpu__evex_fpx_nrows},
    {cpu__evex_cvt_rows, &cpu__evex_cvt_nrows},
    {cpu__evex_shuf_rows, &cpu__evex_shuf_nrows},
    {cpu__evex_dot_rows, &cpu__evex_dot_nrows},
    {cpu__evex_aes_rows, &cpu__evex_aes_nrows},
    {cpu__evex_fp16_rows, &cpu__evex_fp16_nrows},
    {NULL, NULL}};

const struct ev_table cpu__vex_tables[] = {
    {kvex_rows, &kvex_nrows},
    {cpu__vex_dot_rows, &cpu__vex_dot_nrows},
    {NULL, NULL}};

int cpu__decode_evex(const struct cpu *cpu, const u8 *b, unsigned n, u64 rip,
                     struct cpu_insn *in, unsigned *xin) {
  struct ev_pfx px;
  ev_prefixes(b, n, &px);
  unsigned i = px.n;
  *xin = 0;
  if (i >= n) return 0;
  if (b[i] == 0x62) return decode_row(cpu, b, n, rip, in, 1, &px, i, xin);
  if (b[i] == 0xc4 || b[i] == 0xc5)
    return decode_row(cpu, b, n, rip, in, 0, &px, i, xin);
  return 0;
}

int cpu__evex_runs(const struct cpu_insn *in) {
  return in->fn != op_ev_ud && in->fn != op_ev_unsupported;
}

int cpu__evex_describe(const u8 *b, unsigned n, char *buf, size_t size) {
  static const char *const pps[4] = {"", "66.", "F3.", "F2."};
  struct ev_pfx px;
  ev_prefixes(b, n, &px);
  unsigned i = px.n;
  if (i + 3 <= n && b[i] == 0xc5) { /* VEX, two bytes: map 1, W0 */
    u8 p = b[i + 1];
    snprintf(buf, size, "VEX.%u.%smap1.W0 %02X", 128u << ((p >> 2) & 1),
             pps[p & 3], b[i + 2]);
    return 1;
  }
  if (i + 4 <= n && b[i] == 0xc4) {
    u8 p = b[i + 1], q = b[i + 2];
    snprintf(buf, size, "VEX.%u.%smap%u.W%u %02X", 128u << ((q >> 2) & 1),
             pps[q & 3], p & 31, q >> 7, b[i + 3]);
    return 1;
  }
  if (i + 5 > n || b[i] != 0x62) return 0;
  u8 p0 = b[i + 1], p1 = b[i + 2], p2 = b[i + 3];
  snprintf(buf, size, "EVEX.%u.%smap%u.W%u %02X", 128u << ((p2 >> 5) & 3),
           pps[p1 & 3], p0 & 7, p1 >> 7, b[i + 4]);
  return 1;
}

unsigned cpu__vex_len(const u8 *b, unsigned n) {
  struct ev_pfx px;
  struct cpu_insn in;
  int riprel;
  ev_prefixes(b, n, &px);
  unsigned i = px.n, map;
  if (i + 2 >= n || (b[i] != 0xc4 && b[i] != 0xc5)) return 0;
  if (b[i] == 0xc5) {
    map = 1;
    i += 3; /* c5, payload, opcode */
  } else {
    map = b[i + 1] & 31;
    i += 4;
  }
  if (i >= n) return 0;
  /* vzeroupper and vzeroall (map 1, 77) are the VEX forms with no ModRM. */
  if (map == 1 && b[i - 1] == 0x77) return i;
  memset(&in, 0, sizeof in);
  unsigned end = cpu__ev_modrm(b, n, i, 0, 0, 1, 0, &in, &riprel);
  if (!end) return 0;
  if (map == 3) end++; /* every map-3 instruction has an imm8 */
  return end <= n && end <= 15 ? end : 0;
}
