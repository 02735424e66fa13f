/* SPDX-License-Identifier: MIT */
/* Lazy flags (STYLE R11): the only code that computes or changes the
 * arithmetic flags. Handlers record the last flag-setting operation in
 * cpu->cc; the six flags are derived from it only when something reads them,
 * and conditions take shortcuts for the common compare-then-branch case. */
#include "replayer/cpu/cpu_int.h"

static u64 parity(u64 r) { return __builtin_parity((u8)r) ? 0 : CPU_PF; }

/* SF, ZF and PF of a result R of BITS bits. */
static u64 szp(u64 r, unsigned bits) {
  u64 f = parity(r);
  if (!cpu_trunc(r, bits / 8)) f |= CPU_ZF;
  if ((r >> (bits - 1)) & 1) f |= CPU_SF;
  return f;
}

u64 cpu__flags_arith(const struct cpu *cpu) {
  const struct cc *c = &cpu->cc;
  unsigned kind = c->op & ~3u, sz = 1u << (c->op & 3), bits = sz * 8;
  u64 r = cpu_trunc(c->dst, sz), a = cpu_trunc(c->src1, sz);
  u64 b = cpu_trunc(c->src2, sz), sign = 1ull << (bits - 1), f = 0, cin;
  switch (kind) {
    case CC_EFLAGS:
      return c->src1 & CPU_ARITH;
    case CC_ADD:
    case CC_ADC:
      cin = kind == CC_ADC ? cpu_trunc(r - a - b, sz) & 1 : 0;
      if (cin ? r <= a : r < a) f |= CPU_CF;
      if ((a ^ r) & (b ^ r) & sign) f |= CPU_OF;
      f |= (a ^ b ^ r) & CPU_AF;
      return f | szp(r, bits);
    case CC_SUB:
    case CC_SBB:
      cin = kind == CC_SBB ? cpu_trunc(a - b - r, sz) & 1 : 0;
      if (cin ? a <= b : a < b) f |= CPU_CF;
      if ((a ^ b) & (a ^ r) & sign) f |= CPU_OF;
      f |= (a ^ b ^ r) & CPU_AF;
      return f | szp(r, bits);
    case CC_LOGIC:
      return szp(r, bits);
    case CC_INC:
    case CC_DEC:
      f = c->src2 ? CPU_CF : 0;
      if (kind == CC_INC ? r == sign : r == sign - 1) f |= CPU_OF;
      f |= (a ^ 1 ^ r) & CPU_AF;
      return f | szp(r, bits);
    case CC_SHL:
      /* Count in src2 (1..63); beyond the width CF reads as 0. */
      if (c->src2 <= bits && ((a << (c->src2 - 1)) & sign)) f |= CPU_CF;
      if (!!(f & CPU_CF) != !!(r & sign)) f |= CPU_OF;
      return f | szp(r, bits);
    case CC_SHR:
      if (c->src2 <= 64 && ((a >> (c->src2 - 1)) & 1)) f |= CPU_CF;
      if ((a ^ r) & sign) f |= CPU_OF; /* shr: MSB(a); shrd: sign change */
      return f | szp(r, bits);
    case CC_SAR: {
      unsigned n = c->src2 - 1 < bits ? (unsigned)c->src2 - 1 : bits - 1;
      if ((cpu_sext(a, sz) >> n) & 1) f |= CPU_CF;
      return f | szp(r, bits);
    }
    case CC_MUL:
      if (c->src1) f |= CPU_CF | CPU_OF;
      return f | szp(r, bits);
    default:
      RW_ASSERT(!"bad cc.op");
      return 0;
  }
}

u64 cpu_flags_defined(const cpu_thread *cpu) {
  const struct cc *c = &cpu->cc;
  switch (c->op & ~3u) {
    case CC_LOGIC:
      return CPU_ARITH & ~(u64)CPU_AF;
    case CC_SHL:
    case CC_SHR:
    case CC_SAR:
      return CPU_CF | CPU_SF | CPU_ZF | CPU_PF | (c->src2 == 1 ? CPU_OF : 0);
    case CC_MUL:
      return CPU_CF | CPU_OF;
    default:
      return CPU_ARITH;
  }
}

u64 cpu__rflags(const struct cpu *cpu) {
  return cpu->rflags | cpu__flags_arith(cpu);
}

void cpu__flags_set(struct cpu *cpu, u64 mask, u64 value) {
  u64 f = cpu__flags_arith(cpu);
  mask &= CPU_ARITH;
  f = (f & ~mask) | (value & mask);
  cpu->cc = (struct cc){CC_EFLAGS, 0, f, 0};
}

void cpu__rflags_set(struct cpu *cpu, u64 value) {
  cpu->cc = (struct cc){CC_EFLAGS, 0, value & CPU_ARITH, 0};
  cpu->rflags = (value & ~(u64)CPU_ARITH) | 2;
}

int cpu__flag_cf(const struct cpu *cpu) {
  const struct cc *c = &cpu->cc;
  unsigned sz = 1u << (c->op & 3);
  switch (c->op & ~3u) {
    case CC_EFLAGS:
      return (int)(c->src1 & 1);
    case CC_ADD:
      return cpu_trunc(c->dst, sz) < cpu_trunc(c->src1, sz);
    case CC_SUB:
      return cpu_trunc(c->src1, sz) < cpu_trunc(c->src2, sz);
    case CC_LOGIC:
      return 0;
    case CC_INC:
    case CC_DEC:
      return c->src2 != 0;
    default:
      return (int)(cpu__flags_arith(cpu) & 1);
  }
}

/* Evaluates COND from materialised flags F. */
static int cond_of(u64 f, unsigned cond) {
  int r, sf = !!(f & CPU_SF), of = !!(f & CPU_OF);
  switch (cond >> 1) {
    case 0:
      r = of;
      break;
    case 1:
      r = !!(f & CPU_CF);
      break;
    case 2:
      r = !!(f & CPU_ZF);
      break;
    case 3:
      r = !!(f & (CPU_CF | CPU_ZF));
      break;
    case 4:
      r = sf;
      break;
    case 5:
      r = !!(f & CPU_PF);
      break;
    case 6:
      r = sf != of;
      break;
    default:
      r = (f & CPU_ZF) || sf != of;
      break;
  }
  return r ^ (int)(cond & 1);
}

int cpu__cond_flags(const struct cpu *cpu, unsigned cond) {
  return cond_of(cpu__flags_arith(cpu), cond);
}

int cpu__cond(const struct cpu *cpu, unsigned cond) {
  return cpu__cond_inline(cpu, cond);
}
