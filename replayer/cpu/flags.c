/* SPDX-License-Identifier: MIT */
/* Lazy flags (STYLE R11): the only code that computes or changes the
 * arithmetic flags. Handlers record the last flag-setting operation in
 * cpu->cc; the six flags are derived from it only when something reads them,
 * and conditions take shortcuts for the common compare-then-branch case.
 * Every flag is computed, including those the manuals leave undefined, as
 * the vendor of the recording CPU computes them (cpu->cfg.vendor); the rules
 * and where each comes from are in docs/flags.md. */
#include "replayer/cpu/cpu_int.h"

static u64 parity(u64 r) { return __builtin_parity((u8)r) ? 0 : CPU_PF; }

static int amd(const struct cpu *cpu) {
  return cpu->cfg.vendor == CPU_VENDOR_AMD;
}

u32 cpu_family_of(u32 eax) {
  u32 base = (eax >> 8) & 0xf;
  return base == 0xf ? base + ((eax >> 20) & 0xff) : base;
}

u32 cpu_model_of(u32 eax) {
  u32 base = (eax >> 4) & 0xf, family = (eax >> 8) & 0xf;
  return family == 0xf || family == 6 ? base | ((eax >> 12) & 0xf0) : base;
}

unsigned cpu__zen(const struct cpu *cpu) {
  u32 f = cpu->cfg.family, m = cpu->cfg.model;
  if (!amd(cpu)) return CPU__ZEN_NONE;
  if (!f || f >= 0x1a) return CPU__ZEN5;
  if (f == 0x19 && ((m >= 0x10 && m <= 0x1f) || (m >= 0x60 && m <= 0x7f) ||
                    (m >= 0xa0 && m <= 0xaf)))
    return CPU__ZEN4;
  return CPU__ZEN3;
}

int cpu_vendor_of(u32 ebx, u32 edx, u32 ecx) {
  /* "AuthenticAMD" and "HygonGenuine" (Zen derivatives), as three
   * little-endian words. */
  if ((ebx == 0x68747541u && edx == 0x69746e65u && ecx == 0x444d4163u) ||
      (ebx == 0x6f677948u && edx == 0x6e65476eu && ecx == 0x656e6975u))
    return CPU_VENDOR_AMD;
  return CPU_VENDOR_INTEL;
}

/* SF, ZF and PF of a result R of BITS bits. */
static u64 szp(u64 r, unsigned bits) {
  u64 f = parity(r);
  if (!cpu_trunc(r, bits / 8)) f |= CPU_ZF;
  if ((r >> (bits - 1)) & 1) f |= CPU_SF;
  return f;
}

static u64 flags_overridden(const struct cpu *cpu)
    __attribute__((noinline));

/* The flags of C; CPU gives the vendor. */
static inline __attribute__((always_inline)) u64 flags_of(
    const struct cpu *cpu, const struct cc *c) {
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
      /* shl, and shld (whose result also holds bits of the other operand).
       * Count in src2 (1..63); beyond the width CF reads as 0. */
      if (c->src2 <= bits && ((a << (c->src2 - 1)) & sign)) f |= CPU_CF;
      if (amd(cpu)) {
        /* OF compares CF with the top bit of A shifted alone, for every
         * count; AF is set. */
        if (!!(f & CPU_CF) != !!((a << c->src2) & sign)) f |= CPU_OF;
        f |= CPU_AF;
      } else if ((a ^ (a << 1)) & sign) {
        f |= CPU_OF; /* Intel: the count-1 rule on A, for every count */
      }
      return f | szp(r, bits);
    case CC_SHR:
      /* shr, and shrd. */
      if (c->src2 <= 64 && ((a >> (c->src2 - 1)) & 1)) f |= CPU_CF;
      if (amd(cpu)) {
        /* OF: the top two bits of the result differ (for a count of 1,
         * that is the sign change the manuals define); AF is set. */
        if ((r ^ (r << 1)) & sign) f |= CPU_OF;
        f |= CPU_AF;
      } else if (a & sign) {
        f |= CPU_OF; /* Intel: the count-1 rule on A (shrd: cpu__flags_dshift) */
      }
      return f | szp(r, bits);
    case CC_SAR: {
      unsigned n = c->src2 - 1 < bits ? (unsigned)c->src2 - 1 : bits - 1;
      if ((cpu_sext(a, sz) >> n) & 1) f |= CPU_CF;
      if (amd(cpu)) f |= CPU_AF;
      return f | szp(r, bits);
    }
    default:
      if (c->op & CC_OVR) return flags_overridden(cpu);
      RW_ASSERT(!"bad cc.op");
      return 0;
  }
}

u64 cpu__flags_arith(const struct cpu *cpu) {
  return flags_of(cpu, &cpu->cc);
}

/* cpu->cc.op carries CC_OVR: the flags of the operation, CF and OF
 * replaced. */
static u64 flags_overridden(const struct cpu *cpu) {
  struct cc base = cpu->cc;
  u64 f;
  base.op &= ~(u32)(CC_OVR | CC_OVR_CF | CC_OVR_OF);
  f = flags_of(cpu, &base) & ~(u64)(CPU_CF | CPU_OF);
  if (cpu->cc.op & CC_OVR_CF) f |= CPU_CF;
  if (cpu->cc.op & CC_OVR_OF) f |= CPU_OF;
  return f;
}

/* Replaces CF and OF, keeping the other four flags lazy (CC_OVR). */
static void replace_cf_of(struct cpu *cpu, int cf, int of) {
  struct cc *c = &cpu->cc;
  if (c->op == CC_EFLAGS) {
    c->src1 = (c->src1 & ~(u64)(CPU_CF | CPU_OF)) | (cf ? CPU_CF : 0) |
              (of ? CPU_OF : 0);
    return;
  }
  c->op = (c->op & ~(u32)(CC_OVR_CF | CC_OVR_OF)) | CC_OVR |
          (cf ? CC_OVR_CF : 0) | (of ? CC_OVR_OF : 0);
}

/* ---- Instructions whose undefined flags follow the vendor ------------- */

/* The flags of the last operation with those in MASK replaced by VALUE,
 * stored whole: what an instruction that keeps some flags leaves. */
static void keep_set(struct cpu *cpu, u64 mask, u64 value) {
  u64 f = cpu__flags_arith(cpu);
  cpu->cc = (struct cc){CC_EFLAGS, 0, (f & ~mask) | (value & mask), 0};
}

static void set_all(struct cpu *cpu, u64 value) {
  cpu->cc = (struct cc){CC_EFLAGS, 0, value & CPU_ARITH, 0};
}

void cpu__flags_mul(struct cpu *cpu, unsigned sz, u64 lo, int ovf) {
  if (amd(cpu)) {
    replace_cf_of(cpu, ovf, ovf); /* SF ZF AF PF stay */
    return;
  }
  /* Intel: SF and PF from the low half, ZF and AF cleared (every kind of
   * zero product measured). Stored whole: a jz after it must not read ZF
   * from the product as the lazy kinds do. */
  set_all(cpu,
          (szp(lo, sz * 8) & ~(u64)CPU_ZF) | (ovf ? CPU_CF | CPU_OF : 0));
}

void cpu__flags_div(struct cpu *cpu) {
  /* AMD: CF and OF stay, AF is set, ZF SF PF are cleared. Intel: left as
   * they were. */
  if (amd(cpu)) keep_set(cpu, CPU_ARITH & ~(u64)(CPU_CF | CPU_OF), CPU_AF);
}

void cpu__flags_bitscan(struct cpu *cpu, u64 src, u64 index) {
  /* Zen 3 changes only ZF, as Intel documents; Zen 4, Zen 5 and Intel
   * (measured on a Xeon with AVX512-FP16) write all six (docs/flags.md). */
  if (cpu__zen(cpu) == CPU__ZEN3)
    keep_set(cpu, CPU_ZF, src ? 0 : CPU_ZF);
  else
    set_all(cpu, src ? parity(index) : CPU_ZF | CPU_PF);
}

void cpu__flags_count(struct cpu *cpu, u64 src, u64 count) {
  u64 f = (src ? 0 : CPU_CF) | (count ? 0 : CPU_ZF);
  if (amd(cpu))
    keep_set(cpu, CPU_ARITH & ~(u64)CPU_OF, f); /* AF SF PF cleared */
  else
    set_all(cpu, f); /* Intel: OF AF SF PF cleared */
}

void cpu__flags_bmi(struct cpu *cpu, int op, u64 r, unsigned sz, int cf) {
  u64 f = (cf ? CPU_CF : 0) | (cpu_trunc(r, sz) ? 0 : CPU_ZF);
  u64 sf = (r >> (sz * 8 - 1)) & 1 ? CPU_SF : 0;
  if (amd(cpu)) {
    /* PF from the result; bextr sets AF and clears SF, the others clear
     * AF. */
    f |= parity(r) | (op == CPU__BMI_BEXTR ? CPU_AF : sf);
    set_all(cpu, f);
    return;
  }
  /* Intel: AF and PF cleared; bextr clears SF too. */
  set_all(cpu, op == CPU__BMI_BEXTR ? f : f | sf);
}

void cpu__flags_dshift(struct cpu *cpu, unsigned sz, int left, u64 a, u64 b,
                       unsigned c, u64 r) {
  unsigned bits = sz * 8;
  u64 sign = 1ull << (bits - 1), f = szp(r, bits), wide;
  int cf;
  if (sz == 2) {
    /* A 16-bit count may reach 31: the bits come from a:b:a:b (shld) or
     * b:a:b:a (shrd), and CF is the last bit shifted out of that. */
    wide = left ? (a << 16) | b : (b << 16) | a;
    wide |= wide << 32;
    cf = left ? (int)((wide << (c - 1)) >> 63) : (int)((wide >> (c - 1)) & 1);
  } else {
    cf = left ? (int)((a >> (bits - c)) & 1) : (int)((a >> (c - 1)) & 1);
  }
  if (cf) f |= CPU_CF;
  /* OF: the count-1 rule on the inputs, for every count; AF is cleared. */
  if (left ? (a ^ (a << 1)) & sign : !!(a & sign) != (b & 1)) f |= CPU_OF;
  set_all(cpu, f);
}

void cpu__flags_rotate(struct cpu *cpu, unsigned sz, int kind, u64 a,
                       u64 r, int cf, int cin) {
  u64 sign = 1ull << (sz * 8 - 1), of;
  int imm = kind & CPU__ROT_IMM;
  kind &= ~CPU__ROT_IMM;
  if (!amd(cpu) && imm) {
    /* Intel: rol and ror of a register by an immediate above 1 keep OF
     * (by cl, or of memory, they do not). */
    of = !!(cpu__flags_arith(cpu) & CPU_OF);
  } else if (!amd(cpu)) {
    /* Intel: the count-1 rule applied to the input, for every count. */
    if (kind == CPU__ROT_LEFT)
      of = !!((a ^ (a << 1)) & sign);
    else if (kind == CPU__ROT_RCR)
      of = !!(a & sign) ^ (u64)cin;
    else
      of = !!(a & sign) ^ (a & 1);
  } else if (kind == CPU__ROT_LEFT) {
    of = !!(r & sign) ^ (u64)cf;
  } else {
    of = !!((r ^ (r << 1)) & sign); /* the top two bits of the result */
  }
  replace_cf_of(cpu, cf, (int)of);
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
      if (c->op & CC_OVR) return !!(c->op & CC_OVR_CF);
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
