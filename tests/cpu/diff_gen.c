/* SPDX-License-Identifier: MIT */
/* Case generation for the differential harness: random state biased toward
 * edge values, and a small x86-64 encoder (legacy prefixes, REX, VEX for BMI,
 * ModRM/SIB/displacement, immediates) that turns a struct diff_enc row into
 * instruction bytes whose memory operand lands where the case wants it. It
 * runs nothing; diff_run.c does. */
#include <string.h>

#include "replayer/cpu/evex.h"
#include "tests/cpu/diff_int.h"

u64 diff_rand(struct diff_rng *r) {
  /* xorshift64* */
  u64 x = r->s;
  x ^= x >> 12;
  x ^= x << 25;
  x ^= x >> 27;
  r->s = x;
  return x * 0x2545f4914f6cdd1dull;
}

static unsigned rnd(struct diff_rng *r, unsigned n) {
  return (unsigned)(diff_rand(r) % n);
}

u64 diff_rand_edge(struct diff_rng *r, unsigned sz) {
  u64 v, top = sz >= 8 ? ~0ull : (1ull << (sz * 8)) - 1;
  switch (rnd(r, 12)) {
    case 0:
      v = 0;
      break;
    case 1:
      v = 1;
      break;
    case 2:
      v = ~0ull;
      break;
    case 3:
      v = top >> 1;
      break; /* max signed */
    case 4:
      v = (top >> 1) + 1;
      break; /* min signed */
    case 5:
      v = rnd(r, 64);
      break;
    case 6:
      v = 1ull << rnd(r, 64);
      break;
    case 7:
      v = (top >> 1) + 1 - rnd(r, 3);
      break;
    default:
      v = diff_rand(r);
      break;
  }
  return v & top;
}

void diff_set_xmm(struct diff_case *c, unsigned reg, const void *v,
                  unsigned sz) {
  memcpy(c->st.fx + 160 + 16 * reg, v, sz);
}

/* Fills C's AVX-512 state (when the host has it): all of it in its initial
 * state (zero) in a quarter of the cases; otherwise each of the opmask
 * registers, the upper halves of ZMM0-15 and ZMM16-31 is random, or zero in
 * a quarter of the cases. */
static void random_avx512(struct diff_case *c, struct diff_rng *r) {
  u8 *const part[] = {(u8 *)c->st.k, c->st.zmmh, c->st.hi16};
  const unsigned size[] = {sizeof c->st.k, sizeof c->st.zmmh,
                           sizeof c->st.hi16};
  int any = diff_avx512 && rnd(r, 4);
  for (unsigned j = 0; j < RW_ARRAY_SIZE(part); j++) {
    memset(part[j], 0, size[j]);
    if (!any || !rnd(r, 4)) continue;
    for (unsigned i = 0; i < size[j]; i += 8) {
      u64 v = diff_rand_edge(r, 8);
      memcpy(part[j] + i, &v, 8);
    }
  }
}

/* Fills C's registers, flags, FP state and data with random values. */
static void random_state(struct diff_case *c, struct diff_rng *r) {
  for (int i = 0; i < 16; i++) c->st.gpr[i] = diff_rand_edge(r, 8);
  c->st.rflags = 0x202 | diff_id_flag | (diff_rand(r) & DIFF_ARITH);
  memset(c->st.fx, 0, sizeof c->st.fx);
  c->st.fx[0] = 0x7f; /* fcw 0x37f */
  c->st.fx[1] = 0x03;
  c->st.fx[24] = 0x80; /* mxcsr 0x1f80 */
  c->st.fx[25] = 0x1f;
  for (int i = 0; i < 16 * 16; i += 8) {
    u64 v = diff_rand_edge(r, 8);
    memcpy(c->st.fx + 160 + i, &v, 8);
  }
  for (int i = 0; i < 16 * 16; i += 8) {
    u64 v = diff_rand_edge(r, 8);
    memcpy(c->st.ymmh + i, &v, 8);
  }
  random_avx512(c, r);
  for (unsigned i = 0; i < DIFF_DATA_SIZE; i += 8) {
    u64 v = rnd(r, 4) ? diff_rand(r) : diff_rand_edge(r, 8);
    memcpy(c->st.data + i, &v, 8);
  }
}

/* XINUSE at the start, which an Intel CPU's XSAVE family and xgetbv 1 show
 * (replayer/cpu/xinuse.c): x87, SSE and AVX are each in use, or in an
 * eighth of the cases in their initial state (their registers then hold
 * their initial values, as the XRSTOR that enters the case leaves them);
 * the AVX-512 components are in use when they are not all zero, as the
 * native side enters them. */
static void start_xinuse(struct diff_case *c, struct diff_rng *r) {
  static const u8 zero[1024];
  c->xin = 0;
  if (rnd(r, 8)) {
    c->xin |= 1;
  } else {
    c->st.fx[0] = 0x7f; /* fcw 0x37f, everything else of the x87 zero */
    c->st.fx[1] = 0x03;
    memset(c->st.fx + 2, 0, 22);
    memset(c->st.fx + 32, 0, 128);
  }
  if (rnd(r, 8))
    c->xin |= 2;
  else
    memset(c->st.fx + 160, 0, 256);
  if (rnd(r, 8))
    c->xin |= 4;
  else
    memset(c->st.ymmh, 0, sizeof c->st.ymmh);
  if (memcmp(c->st.k, zero, sizeof c->st.k)) c->xin |= 0x20;
  if (memcmp(c->st.zmmh, zero, sizeof c->st.zmmh)) c->xin |= 0x40;
  if (memcmp(c->st.hi16, zero, sizeof c->st.hi16)) c->xin |= 0x80;
}

/* Output cursor. */
struct out {
  u8 *p;
  unsigned n;
};
static void emit(struct out *o, u64 v, unsigned bytes) {
  for (unsigned i = 0; i < bytes; i++) o->p[o->n++] = (u8)(v >> (8 * i));
}

/* Chooses the memory operand's registers and displacement so that the
 * address is TARGET, and emits ModRM (with REG in the reg field), SIB and
 * displacement. *REX collects X and B. Registers in AVOID are not used. */
struct memop {
  int mode; /* 0 [base+disp], 1 [base+index*s+disp], 2 rip, 3 [disp32],
               4 gs:[...] as 0, 5 fs:[...] as 0 */
  u8 base, index, scale;
  i32 disp;
};

static unsigned pick_reg(struct diff_rng *r, u32 avoid) {
  for (;;) {
    unsigned x = rnd(r, 16);
    if (!(avoid & (1u << x))) return x;
  }
}

static void plan_mem(struct diff_case *c, struct diff_rng *r, u32 avoid,
                     struct memop *m) {
  unsigned k = rnd(r, 16);
  m->mode = k < 6 ? 0 : k < 11 ? 1 : k < 13 ? 2 : k < 14 ? 3 : k < 15 ? 4 : 5;
  m->base = (u8)pick_reg(r, avoid);
  m->index = (u8)pick_reg(r, avoid | (1u << 4) | (1u << m->base));
  m->scale = (u8)rnd(r, 4);
  m->disp = rnd(r, 2) ? (i32)(i8)diff_rand(r) : (i32)diff_rand(r);
  if (rnd(r, 4) == 0) m->disp = 0;
  (void)c;
}

/* Applies the plan: register values for TARGET (address of the operand,
 * INSN_END the address after the instruction, for rip-relative). */
static void bind_mem(struct diff_case *c, const struct memop *m, u64 target,
                     u64 insn_end) {
  u64 seg = m->mode == 4 ? DIFF_GS_BASE : m->mode == 5 ? diff_fs_base : 0;
  u64 ea = target - seg;
  switch (m->mode) {
    case 1: {
      u64 iv = c->st.gpr[m->index] & 0xffff;
      c->st.gpr[m->index] = iv;
      c->st.gpr[m->base] = ea - (u64)(i64)m->disp - (iv << m->scale);
      break;
    }
    case 2:
      (void)insn_end;
      break;
    case 3:
      break;
    default:
      c->st.gpr[m->base] = ea - (u64)(i64)m->disp;
      break;
  }
  c->base = m->mode == 2 || m->mode == 3 ? 16 : m->base;
  c->index = m->mode == 1 ? m->index : 16;
}

/* N8 scales a disp8 (EVEX's compressed displacement; 1 otherwise). */
static void emit_modrm_mem(struct out *o, const struct memop *m, unsigned reg,
                           i32 disp, unsigned n8) {
  unsigned base = m->base & 7, mod;
  if (m->mode == 2) { /* rip-relative: mod 00, rm 101 */
    emit(o, ((reg & 7) << 3) | 5, 1);
    emit(o, (u32)disp, 4);
    return;
  }
  if (m->mode == 3) { /* [disp32] through SIB with no base, no index */
    emit(o, ((reg & 7) << 3) | 4, 1);
    emit(o, (4 << 3) | 5, 1);
    emit(o, (u32)disp, 4);
    return;
  }
  mod = disp % (i32)n8 == 0 && disp / (i32)n8 == (i8)(disp / (i32)n8) ? 1 : 2;
  if (disp == 0 && base != 5) mod = 0;
  if (m->mode == 1 || base == 4) {
    unsigned idx = m->mode == 1 ? m->index & 7 : 4;
    emit(o, (mod << 6) | ((reg & 7) << 3) | 4, 1);
    emit(o, ((unsigned)(m->mode == 1 ? m->scale : 0) << 6) | (idx << 3) | base,
         1);
  } else {
    emit(o, (mod << 6) | ((reg & 7) << 3) | base, 1);
  }
  if (mod == 1) emit(o, (u32)(disp / (i32)n8), 1);
  if (mod == 2) emit(o, (u32)disp, 4);
}

/* Picks a memory target inside the data pages (sometimes at their edges or,
 * with DIFF_O_FAULT, in the read-only or unmapped neighbours). */
static u64 pick_target(const struct diff_enc *e, struct diff_rng *r) {
  unsigned k = rnd(r, 32);
  u64 t;
  if ((e->opt & DIFF_O_FAULT) && k == 0) return DIFF_GUARD_ADDR - 4 + rnd(r, 8);
  if ((e->opt & DIFF_O_FAULT) && k == 1) return DIFF_RO_ADDR + rnd(r, 4096);
  t = DIFF_DATA_ADDR + 64 + rnd(r, DIFF_DATA_SIZE - 256);
  if (k < 4) t = DIFF_DATA_ADDR + 4096 - rnd(r, 16); /* across the page */
  if (e->opt & DIFF_O_ALIGN16) {
    if (rnd(r, 8)) t &= ~15ull;
  } else if (rnd(r, 2)) {
    t &= ~7ull;
  }
  return t;
}

/* A register of kind K: k0-k7 (or, in one case in sixteen, a number 8-15
 * whose extension bit the CPU ignores or rejects), a vector register 0-31
 * under EVEX, else 0-15 outside AVOID. */
static unsigned pick_kind(struct diff_rng *r, unsigned k, int evex,
                          u32 avoid) {
  if (k == DIFF_K_K) return rnd(r, 16) ? rnd(r, 8) : rnd(r, 16);
  if (k == DIFF_K_XMM && evex) return rnd(r, 32);
  return pick_reg(r, avoid);
}

/* Whether EVEX form FORM has a vvvv operand. */
static int ev_uses_vvvv(unsigned form) {
  return form == F_VHW || form == F_VHWI || form == F_KHW ||
         form == F_KHWI || form == F_HWI || form == F_VHE || form == F_VHEI;
}

/* The EVEX choices of a case: vector length, opmask, zeroing, broadcast
 * and vvvv as ROW allows them, except that one case in sixteen breaks one
 * rule (the CPU's #UD is then the reference). MEMOP: rm is memory. */
static void ev_choose(const struct ev_row *row, struct diff_rng *r,
                      int memop, unsigned vreg, struct diff_case *c) {
  unsigned brk = rnd(r, 16) ? 0 : 1 + rnd(r, 5), form = row->form;
  int dest_mem = memop && (form == F_WV || form == F_WVI || form == F_EV ||
                           form == F_EVI);
  c->vl = (u8)((row->fl & R_L128)   ? 0
               : (row->fl & R_V256) ? 1 + rnd(r, 2)
                                    : rnd(r, 3));
  if (brk == 1) c->vl = (u8)rnd(r, 4);
  c->aaa = (u8)((row->fl & R_NOMASK) || !rnd(r, 3) ? 0 : 1 + rnd(r, 7));
  if (brk == 2) c->aaa = (u8)rnd(r, 8);
  c->z = (u8)(c->aaa && !(row->fl & R_NOZ) && !dest_mem && rnd(r, 2));
  if (brk == 3) c->z = 1;
  c->bc = (u8)(memop && (row->fl & R_BC) && !rnd(r, 3));
  /* embedded rounding or SAE on a register form: any L'L */
  if (!memop && (row->fl & (R_ER | R_SAE)) && !rnd(r, 3)) {
    c->bc = 1;
    c->vl = (u8)rnd(r, 4);
  }
  if (brk == 4) c->bc = 1;
  c->vreg = (u8)(ev_uses_vvvv(form) ? vreg : 0);
  if (brk == 5 && !ev_uses_vvvv(form)) c->vreg = (u8)(1 + rnd(r, 31));
}

/* An EVEX memory target: inside the data (aligned to 64 bytes half the
 * time), across its two pages, or reaching the unmapped page after it or
 * the read-only one before it (masked elements there must not fault). */
static u64 ev_target(struct diff_rng *r) {
  unsigned k = rnd(r, 16);
  if (k == 0) return DIFF_GUARD_ADDR - 1 - rnd(r, 72);
  if (k == 1) return DIFF_RO_ADDR + 4096 - 1 - rnd(r, 80);
  if (k == 2) return DIFF_DATA_ADDR + 4096 - 1 - rnd(r, 72);
  u64 t = DIFF_DATA_ADDR + 64 + rnd(r, DIFF_DATA_SIZE - 256);
  return rnd(r, 2) ? t & ~63ull : t;
}

int diff_make_case(const struct diff_enc *e, struct diff_rng *r,
                   struct diff_case *c) {
  struct out o = {c->code, 0};
  unsigned sz = 0, reg = 0, rm = 0, rex = 0, memop = 0, vreg = 0;
  struct memop m = {0};
  u32 avoid = 0;
  u64 target = 0;
  int evex = e->enc == DIFF_ENC_EVEX;
  int vex = e->enc == DIFF_ENC_VEX || e->enc == DIFF_ENC_KVEX;
  const struct ev_row *row = evex ? diff_evex_row(e) : NULL;
  unsigned n8 = 1;
  if (evex && !row) return -1;
  memset(c, 0, offsetof(struct diff_case, st));
  c->enc = e;
  c->id = e->id;
  random_state(c, r);
  if (e->sizes) {
    unsigned bits[4], n = 0;
    for (unsigned b = 1; b <= 8; b <<= 1)
      if (e->sizes & b) bits[n++] = b;
    sz = bits[rnd(r, n)];
  }
  c->osz = (u8)sz;
  if (e->opt & DIFF_O_STACK) avoid |= 1u << 4;
  if (e->opt & DIFF_O_STRING) avoid |= (1u << 1) | (1u << 6) | (1u << 7);
  if (e->opt & DIFF_O_CL) avoid |= 1u << 1;
  if (e->regk) reg = pick_kind(r, e->regk, evex, avoid);
  if (e->rmk) {
    memop = (e->opt & DIFF_O_MEM) || (!(e->opt & DIFF_O_REG) && rnd(r, 2));
    if (!memop) rm = pick_kind(r, e->rmk, evex, avoid);
  }
  if (e->enc == DIFF_ENC_VEX) vreg = pick_reg(r, avoid);
  if (e->enc == DIFF_ENC_KVEX) vreg = rnd(r, 16) ? rnd(r, 8) : rnd(r, 16);
  if (evex) {
    ev_choose(row, r, memop, rnd(r, 32), c);
    vreg = c->vreg;
  }
  if (memop) {
    plan_mem(c, r, avoid, &m);
    target = evex ? ev_target(r) : pick_target(e, r);
  }
  if (evex && memop) {
    n8 = cpu__evex_disp8_n(row, 16u << (c->vl < 2 ? c->vl : 2), c->bc);
    if (rnd(r, 2)) m.disp = (i32)(i8)diff_rand(r) * (i32)n8;
  }
  /* Legacy prefixes. */
  if ((e->opt & DIFF_O_LOCK) && memop && rnd(r, 2)) emit(&o, 0xf0, 1);
  if (e->opt & DIFF_O_REP) {
    unsigned k = rnd(r, 3);
    if (k) {
      c->rep = k == 1 ? 0xf3 : 0xf2;
      emit(&o, c->rep, 1);
    }
  }
  if (memop && m.mode == 4) emit(&o, 0x65, 1);
  if (memop && m.mode == 5) emit(&o, 0x64, 1);
  if (sz == 2 && !vex && !evex) emit(&o, 0x66, 1);
  if (e->pfx && !vex && !evex) emit(&o, e->pfx, 1);
  /* REX / VEX. */
  if (sz == 8) rex |= 8;
  if (e->enc == DIFF_ENC_OREG) {
    if (reg & 8) rex |= 1;
  } else {
    if ((e->ext < 0 && (reg & 8))) rex |= 4;
    if (!memop && (rm & 8)) rex |= 1;
    if (memop && m.mode != 2 && m.mode != 3) {
      if (m.base & 8) rex |= 1;
      if (m.mode == 1 && (m.index & 8)) rex |= 2;
    }
  }
  if (evex) {
    unsigned pp = e->pfx == 0x66   ? 1
                  : e->pfx == 0xf3 ? 2
                  : e->pfx == 0xf2 ? 3
                                   : 0;
    unsigned mm = e->map == DIFF_MAP_6      ? 6
                  : e->map == DIFF_MAP_5    ? 5
                  : e->map == DIFF_MAP_0F3A ? 3
                  : e->map == DIFF_MAP_0F38 ? 2
                                            : 1;
    unsigned w = row->w == WIG ? rnd(r, 2) : row->w;
    unsigned rr = e->ext < 0 && e->regk == DIFF_K_XMM ? reg : 0;
    unsigned xb = !memop && e->rmk == DIFF_K_XMM ? rm >> 4 : (rex >> 1) & 1;
    if (e->ext < 0 && e->regk != DIFF_K_XMM) rr = reg & 8;
    emit(&o, 0x62, 1);
    emit(&o, (!(rr & 8) << 7) | (!xb << 6) | (!(rex & 1) << 5) |
                 (!(rr & 16) << 4) | mm,
         1);
    emit(&o, (w << 7) | ((~vreg & 15) << 3) | 4 | pp, 1);
    emit(&o, ((unsigned)c->z << 7) | ((unsigned)c->vl << 5) |
                 ((unsigned)c->bc << 4) | (!(vreg & 16) << 3) | c->aaa,
         1);
  } else if (vex) {
    unsigned pp = e->pfx == 0x66   ? 1
                  : e->pfx == 0xf3 ? 2
                  : e->pfx == 0xf2 ? 3
                                   : 0;
    unsigned mm = e->map == DIFF_MAP_0F3A ? 3 : e->map == DIFF_MAP_0F38 ? 2 : 1;
    unsigned vv = (e->opt & DIFF_O_NOVVVV) ? 0
                  : e->ext >= 0 && e->regk      ? reg
                                                : vreg;
    unsigned w = (rex & 8) || (e->opt & DIFF_O_W1);
    c->vl = (e->opt & DIFF_O_L1) || ((e->opt & DIFF_O_VL) && rnd(r, 2));
    if (e->ext >= 0) rex &= ~4u;
    emit(&o, 0xc4, 1);
    emit(&o, ((~rex & 7) << 5) | mm, 1);
    emit(&o, (w << 7) | ((~vv & 15) << 3) | ((unsigned)c->vl << 2) | pp, 1);
    c->vreg = (u8)vv;
  } else {
    /* Byte registers 4-7 name spl..dil with any REX, ah..bh without. */
    if (!rex && sz == 1 && !(e->opt & DIFF_O_NOREX) && rnd(r, 2)) rex = 0x40;
    if ((e->opt & DIFF_O_BYTEREG) && !rex && rnd(r, 2)) rex = 0x40;
    if (rex) emit(&o, 0x40 | rex, 1);
    if (e->map == DIFF_MAP_0F) emit(&o, 0x0f, 1);
    if (e->map == DIFF_MAP_0F38) emit(&o, 0x380f, 2);
    if (e->map == DIFF_MAP_0F3A) emit(&o, 0x3a0f, 2);
  }
  {
    unsigned op = e->op;
    if (e->enc == DIFF_ENC_OREG) op |= reg & 7;
    emit(&o, op, 1);
  }
  if (e->enc == DIFF_ENC_MODRM || evex ||
      (vex && !(e->opt & DIFF_O_NOMODRM))) {
    unsigned rf = e->ext >= 0 ? (unsigned)e->ext : reg;
    if (memop) {
      emit_modrm_mem(&o, &m, rf, m.disp, n8);
    } else {
      emit(&o, 0xc0 | ((rf & 7) << 3) | (rm & 7), 1);
    }
  }
  /* Immediate. */
  {
    unsigned isz = e->imm;
    if (isz == DIFF_IMM_Z) isz = sz == 2 ? 2 : 4;
    if (isz == DIFF_IMM_V) isz = sz ? sz : 4;
    if (isz == DIFF_IMM_Q) isz = 8;
    if (e->opt & (DIFF_O_REL8 | DIFF_O_REL32)) {
      unsigned rs = e->opt & DIFF_O_REL8 ? 1 : 4;
      u64 end = DIFF_CODE_INSN + o.n + rs;
      i64 rel;
      do {
        rel = (i64)rnd(r, rs == 1 ? 256 : 2048) - (rs == 1 ? 128 : 1024);
      } while (end + (u64)rel >= DIFF_CODE_INSN - 1 &&
               end + (u64)rel < end + 1);
      emit(&o, (u64)rel, rs);
    } else if (e->opt & DIFF_O_IS4) {
      c->is4 = (u8)rnd(r, 16);
      emit(&o, (u64)c->is4 << 4 | rnd(r, 16), 1);
    } else if (isz) {
      emit(&o, diff_rand_edge(r, isz), isz);
    }
  }
  c->len = (u8)o.n;
  if (memop) {
    /* rip-relative displacement is known only now. */
    u64 end = DIFF_CODE_INSN + o.n;
    if (m.mode == 2) {
      i32 d = (i32)(target - end);
      unsigned at = o.n - (isz_of(e, sz)) - 4;
      memcpy(c->code + at, &d, 4);
    }
    if (m.mode == 3) {
      u32 d = (u32)target;
      unsigned at = o.n - (isz_of(e, sz)) - 4;
      memcpy(c->code + at, &d, 4);
    }
    bind_mem(c, &m, target, end);
    c->mem_addr = target;
  }
  c->memop = (u8)memop;
  c->reg = (u8)reg;
  c->rm = (u8)(memop ? 16 : rm);
  /* MMX registers ignore REX.R and REX.B, which the encoder still emits
   * for registers 8-15: the case names the register the CPU uses. */
  if (e->regk == DIFF_K_MM) c->reg &= 7;
  if (e->rmk == DIFF_K_MM && !memop) c->rm &= 7;
  if (e->opt & DIFF_O_STACK)
    c->st.gpr[4] = DIFF_DATA_ADDR + 2048 + 8 * rnd(r, 64);
  if (e->opt & DIFF_O_STRING) {
    unsigned shape = rnd(r, 8);
    c->st.gpr[1] = rnd(r, 4) ? rnd(r, 24) : 0;
    c->st.gpr[6] = DIFF_DATA_ADDR + 512 + rnd(r, 1024);
    c->st.gpr[7] = DIFF_DATA_ADDR + 4096 + rnd(r, 1024);
    if (rnd(r, 2)) c->st.rflags |= 0x400;
    if (shape == 0) /* the destination overlapping the source */
      c->st.gpr[7] = c->st.gpr[6] + 20 - rnd(r, 41);
    else if (shape == 1) /* the destination crossing into the next page */
      c->st.gpr[7] = DIFF_DATA_ADDR + 4096 - rnd(r, 40);
    else if (shape == 2 && !(c->st.rflags & 0x400)) /* long, upwards */
      c->st.gpr[1] = rnd(r, 320);
  }
  c->flags_defined = diff_flags_defined(e->id);
  if (e->fix) e->fix(c, r);
  /* VEX vector forms: the SSE fix-ups put their edge values in the
   * destination, which is the first source only in legacy SSE; copy them to
   * the vvvv source, and to the upper lanes. */
  if (e->enc == DIFF_ENC_VEX && e->regk == DIFF_K_XMM) {
    u8 *x = c->st.fx + 160;
    if (e->ext < 0 && !(e->opt & DIFF_O_NOVVVV) && rnd(r, 4))
      memcpy(x + 16 * c->vreg, x + 16 * c->reg, 16);
    for (unsigned k = 0; k < 16; k++)
      if (rnd(r, 2)) memcpy(c->st.ymmh + 16 * k, x + 16 * k, 16);
  }
  start_xinuse(c, r);
  c->probe = diff_intel && !(e->opt & (DIFF_O_REL8 | DIFF_O_REL32)) &&
             e->id != X86_INS_CALL && e->id != X86_INS_JMP &&
             e->id != X86_INS_RET;
  /* A kernel may refuse to return to user space with a non-canonical rsp
   * (6.18 on these VMs raises SIGSEGV in the sigreturn that would enter
   * the case), so rsp is made canonical: bits 63-48 copy bit 47. */
  c->st.gpr[4] = (u64)((i64)(c->st.gpr[4] << 16) >> 16);
  return 0;
}

unsigned isz_of(const struct diff_enc *e, unsigned sz) {
  unsigned isz = e->imm;
  if (e->opt & DIFF_O_REL8) return 1;
  if (e->opt & DIFF_O_REL32) return 4;
  if (e->opt & DIFF_O_IS4) return 1;
  if (isz == DIFF_IMM_Z) isz = sz == 2 ? 2 : 4;
  if (isz == DIFF_IMM_V) isz = sz ? sz : 4;
  if (isz == DIFF_IMM_Q) isz = 8;
  return isz;
}
