/* SPDX-License-Identifier: MIT */
/* Lazy flags (replayer/cpu/flags.c) against hand-computed vectors at the
 * boundary values, and the condition shortcuts against the full flags. */
#include <CUnit/CUnit.h>

#include "replayer/cpu/cpu_int.h"
#include "tests/cpu/tests.h"

struct vec {
  u32 kind;  /* CC_* */
  u8 sz;     /* operand bytes */
  u64 a, b;  /* operands */
  u64 flags; /* expected OSZAPC */
};

#define O CPU_OF
#define S CPU_SF
#define Z CPU_ZF
#define A CPU_AF
#define P CPU_PF
#define C CPU_CF
static const struct vec vecs[] = {
    {CC_ADD, 1, 0x7f, 1, O | S | A},
    {CC_ADD, 1, 0xff, 1, Z | A | P | C},
    {CC_ADD, 2, 0x8000, 0x8000, O | Z | P | C},
    {CC_ADD, 4, 0xffffffff, 0, S | P},
    {CC_ADD, 8, 0x7fffffffffffffffull, 1, O | S | A | P},
    {CC_SUB, 1, 0, 1, S | A | P | C},
    {CC_SUB, 1, 0x80, 1, O | A},
    {CC_SUB, 4, 5, 5, Z | P},
    {CC_SUB, 8, 0x8000000000000000ull, 1, O | A | P},
    {CC_LOGIC, 1, 0x80, 0, S},
    {CC_LOGIC, 8, 0, 0, Z | P},
};
#undef O
#undef S
#undef Z
#undef A
#undef P
#undef C

void test_flags_lazy_matches_eager(void) {
  static struct cpu c; /* only the flag fields are used */
  for (unsigned i = 0; i < RW_ARRAY_SIZE(vecs); i++) {
    const struct vec *v = &vecs[i];
    u64 r = v->kind == CC_ADD   ? v->a + v->b
            : v->kind == CC_SUB ? v->a - v->b
                                : v->a;
    c.cc = (struct cc){CC_OP(v->kind, v->sz), cpu_trunc(r, v->sz), v->a, v->b};
    CU_ASSERT_EQUAL(cpu__flags_arith(&c), v->flags);
    CU_ASSERT_EQUAL(cpu__flag_cf(&c), !!(v->flags & CPU_CF));
    /* Each condition's shortcut agrees with the materialised flags. */
    for (unsigned cond = 0; cond < 16; cond++) {
      struct cpu m = c;
      m.cc = (struct cc){CC_EFLAGS, 0, v->flags, 0};
      CU_ASSERT_EQUAL(cpu__cond(&c, cond), cpu__cond(&m, cond));
    }
  }
  /* inc keeps CF; adc recovers its carry from the result. */
  c.cc = (struct cc){CC_OP(CC_INC, 1), 0, 0xff, 1};
  CU_ASSERT_EQUAL(cpu__flags_arith(&c), CPU_CF | CPU_ZF | CPU_AF | CPU_PF);
  c.cc = (struct cc){CC_OP(CC_ADC, 8), 0, ~0ull, 0};
  CU_ASSERT_EQUAL(cpu__flags_arith(&c) & CPU_CF, CPU_CF);
  c.cc = (struct cc){CC_OP(CC_SBB, 4), 0xffffffff, 0, 0};
  CU_ASSERT_EQUAL(cpu__flags_arith(&c) & CPU_CF, CPU_CF);
}

/* The condition and carry shortcuts (cpu__cond, its inline form, and
 * cpu__flag_cf_inline) agree with the materialised flags for every kind and
 * size, on random operands biased towards edge values. */
void test_flags_shortcuts_match_flags(void) {
  static struct cpu c; /* only the flag fields are used */
  static const u64 edges[] = {0,    1,          0x7f,        0x80,
                              0xff, 0x7fff,     0x8000,      0xffff,
                              0x7fffffff,       0x80000000u, 0xffffffffu,
                              0x8000000000000000ull,         ~0ull};
  u64 x = 0x9e3779b97f4a7c15ull;
  for (unsigned i = 0; i < 200000; i++) {
    u64 v[3];
    for (unsigned k = 0; k < 3; k++) {
      x ^= x << 13;
      x ^= x >> 7;
      x ^= x << 17;
      v[k] = (x & 3) ? edges[(x >> 8) % RW_ARRAY_SIZE(edges)] + ((x >> 4) & 1)
                     : x;
    }
    x ^= x << 13;
    x ^= x >> 7;
    x ^= x << 17;
    /* CC_EFLAGS .. CC_SAR; shift counts kept in 1..63 */
    c.cc = (struct cc){(u32)(x % CC_NKINDS), v[0], v[1], v[2]};
    if ((c.cc.op & ~3u) >= CC_SHL && (c.cc.op & ~3u) <= CC_SAR)
      c.cc.src2 = 1 + (c.cc.src2 & 7) * ((x >> 20) & 7);
    if ((c.cc.op & ~3u) == CC_EFLAGS) c.cc.src1 &= CPU_ARITH;
    /* Handlers record a result consistent with the operands. */
    if ((c.cc.op & ~3u) == CC_SUB) c.cc.dst = c.cc.src1 - c.cc.src2;
    if ((c.cc.op & ~3u) == CC_ADD) c.cc.dst = c.cc.src1 + c.cc.src2;
    /* Rotates and AMD's mul replace CF and OF of any kind but CC_EFLAGS. */
    if (((x >> 30) & 3) == 3 && (c.cc.op & ~3u) != CC_EFLAGS)
      c.cc.op |= CC_OVR | ((x >> 32) & 1 ? CC_OVR_CF : 0) |
                 ((x >> 33) & 1 ? CC_OVR_OF : 0);
    for (unsigned cond = 0; cond < 16; cond++)
      CU_ASSERT_EQUAL(cpu__cond(&c, cond), cpu__cond_flags(&c, cond));
    CU_ASSERT_EQUAL(cpu__flag_cf_inline(&c),
                    (int)(cpu__flags_arith(&c) & CPU_CF));
  }
}

/* The flags the manuals leave undefined, per vendor (docs/flags.md), at a
 * few operands whose answers were read on the CPUs: AMD measured on a Zen 5,
 * Intel on a Xeon with AVX512-FP16. Also which vendor a cpuid string
 * names. */
void test_flags_vendor_rules(void) {
  static struct cpu amd, intel; /* only the flag fields are used */
  const u64 old = CPU_SF | CPU_ZF | CPU_AF | CPU_PF;
  amd.cfg.vendor = CPU_VENDOR_AMD;
  intel.cfg.vendor = CPU_VENDOR_INTEL;

  /* shr by 2 of 0x80 (8 bits): AMD sets AF and reads OF from the result's
   * top two bits (0x20: none); Intel's OF is the operand's top bit. */
  amd.cc = intel.cc = (struct cc){CC_OP(CC_SHR, 1), 0x20, 0x80, 2};
  CU_ASSERT_EQUAL(cpu__flags_arith(&amd), CPU_AF);
  CU_ASSERT_EQUAL(cpu__flags_arith(&intel), CPU_OF);
  /* shl by 3 of 0x40 (8 bits, 0 left): Intel's OF is bit 7 ^ bit 6 of the
   * operand whatever the count. */
  intel.cc = (struct cc){CC_OP(CC_SHL, 1), 0x00, 0x40, 3};
  CU_ASSERT_EQUAL(cpu__flags_arith(&intel), CPU_OF | CPU_ZF | CPU_PF);
  /* shrd of 0x8000 by 20 with 0x0001 (16 bits): bits from 1:8000:1:8000;
   * OF is the operand's top bit ^ the register's bit 0 (0), CF bit 19. */
  intel.cc = (struct cc){CC_EFLAGS, 0, 0, 0};
  cpu__flags_dshift(&intel, 2, 0, 0x8000, 0x0001, 20, 0x0018);
  CU_ASSERT_EQUAL(cpu__flags_arith(&intel), CPU_PF);
  cpu__flags_dshift(&intel, 2, 0, 0x8000, 0x0000, 4, 0x0800);
  CU_ASSERT_EQUAL(cpu__flags_arith(&intel), CPU_OF | CPU_PF);
  /* shld of a 16-bit 0x0001 by 16: CF is bit 0; AMD's OF equals CF. */
  amd.cc = (struct cc){CC_OP(CC_SHL, 2), 0x8000, 0x0001, 16};
  CU_ASSERT_EQUAL(cpu__flags_arith(&amd), CPU_CF | CPU_OF | CPU_AF | CPU_SF |
                                              CPU_PF);

  /* mul: AMD keeps SF ZF AF PF; Intel derives SF and PF from the low half
   * and clears ZF and AF, even for a zero product. */
  amd.cc = intel.cc = (struct cc){CC_EFLAGS, 0, old, 0};
  cpu__flags_mul(&amd, 4, 1, 1);
  cpu__flags_mul(&intel, 4, 1, 1);
  CU_ASSERT_EQUAL(cpu__flags_arith(&amd), old | CPU_CF | CPU_OF);
  CU_ASSERT_EQUAL(cpu__flags_arith(&intel), CPU_CF | CPU_OF);
  cpu__flags_mul(&intel, 4, 0, 0);
  CU_ASSERT_EQUAL(cpu__flags_arith(&intel), CPU_PF);
  CU_ASSERT_EQUAL(cpu__cond(&intel, 0x4), 0); /* e: ZF clear */
  /* After a lazy operation (a compare 0 - 1: SF AF PF CF), twice. */
  amd.cc = (struct cc){CC_OP(CC_SUB, 1), 0xff, 0, 1};
  cpu__flags_mul(&amd, 8, 5, 1);
  CU_ASSERT_EQUAL(cpu__flags_arith(&amd),
                  CPU_SF | CPU_AF | CPU_PF | CPU_CF | CPU_OF);
  CU_ASSERT_EQUAL(cpu__cond(&amd, 0x2), 1); /* b */
  cpu__flags_mul(&amd, 8, 5, 0);
  CU_ASSERT_EQUAL(cpu__flags_arith(&amd), CPU_SF | CPU_AF | CPU_PF);
  CU_ASSERT_EQUAL(cpu__cond(&amd, 0x2), 0);
  CU_ASSERT_EQUAL(cpu__cond(&amd, 0x8), 1); /* s */
  CU_ASSERT_EQUAL(cpu__flag_cf_inline(&amd), 0);

  /* div: AMD keeps CF and OF, sets AF, clears the rest. */
  amd.cc = (struct cc){CC_EFLAGS, 0, CPU_ARITH, 0};
  cpu__flags_div(&amd);
  CU_ASSERT_EQUAL(cpu__flags_arith(&amd), CPU_CF | CPU_OF | CPU_AF);

  /* bsf: AMD's PF is the parity of the index (of 0 for a zero source). */
  amd.cc = (struct cc){CC_EFLAGS, 0, CPU_ARITH, 0};
  cpu__flags_bitscan(&amd, 0x8, 3);
  CU_ASSERT_EQUAL(cpu__flags_arith(&amd), CPU_PF);
  cpu__flags_bitscan(&amd, 0, 0);
  CU_ASSERT_EQUAL(cpu__flags_arith(&amd), CPU_ZF | CPU_PF);
  /* Zen 3 (family 0x19) changes only ZF there; Intel writes all six, as
   * Zen 4 and 5 do. */
  amd.cfg.family = 0x19;
  amd.cc = intel.cc = (struct cc){CC_EFLAGS, 0, CPU_ARITH & ~CPU_ZF, 0};
  cpu__flags_bitscan(&amd, 0, 0);
  cpu__flags_bitscan(&intel, 0, 0);
  CU_ASSERT_EQUAL(cpu__flags_arith(&amd), CPU_ARITH);
  CU_ASSERT_EQUAL(cpu__flags_arith(&intel), CPU_ZF | CPU_PF);
  cpu__flags_bitscan(&amd, 0x8, 3);
  CU_ASSERT_EQUAL(cpu__flags_arith(&amd), CPU_ARITH & ~CPU_ZF);
  amd.cfg.family = 0x1a;
  amd.cc = (struct cc){CC_EFLAGS, 0, CPU_ARITH, 0};
  cpu__flags_bitscan(&amd, 0x8, 3);
  CU_ASSERT_EQUAL(cpu__flags_arith(&amd), CPU_PF);
  amd.cfg.family = 0;

  /* tzcnt: AMD keeps OF and clears AF SF PF; Intel clears OF too. */
  amd.cc = intel.cc = (struct cc){CC_EFLAGS, 0, CPU_ARITH, 0};
  cpu__flags_count(&amd, 0, 32);
  cpu__flags_count(&intel, 0, 32);
  CU_ASSERT_EQUAL(cpu__flags_arith(&amd), CPU_OF | CPU_CF);
  CU_ASSERT_EQUAL(cpu__flags_arith(&intel), CPU_CF);

  /* bextr sets AF and clears SF on AMD; PF is the result's parity. Intel
   * clears AF, PF and (bextr) SF; blsr keeps SF from the result. */
  amd.cc = intel.cc = (struct cc){CC_EFLAGS, 0, CPU_ARITH, 0};
  cpu__flags_bmi(&amd, CPU__BMI_BEXTR, 0x80000000u, 4, 0);
  cpu__flags_bmi(&intel, CPU__BMI_BEXTR, 0x80000000u, 4, 0);
  CU_ASSERT_EQUAL(cpu__flags_arith(&amd), CPU_AF | CPU_PF);
  CU_ASSERT_EQUAL(cpu__flags_arith(&intel), 0);
  cpu__flags_bmi(&intel, CPU__BMI_OTHER, 0x80000000u, 4, 0);
  CU_ASSERT_EQUAL(cpu__flags_arith(&intel), CPU_SF);

  /* rcr by 2 with CF 1 (8 bits): 0x01 gives 0xc0 and 0x84 gives 0x61, CF 0.
   * AMD's OF is bit 7 ^ bit 6 of the result, Intel's the count-1 rule on
   * the input. */
  amd.cc = intel.cc = (struct cc){CC_EFLAGS, 0, CPU_CF, 0};
  cpu__flags_rotate(&amd, 1, CPU__ROT_RCR, 0x01, 0xc0, 0, 1);
  cpu__flags_rotate(&intel, 1, CPU__ROT_RCR, 0x01, 0xc0, 0, 1);
  CU_ASSERT_EQUAL(cpu__flags_arith(&amd), 0);
  CU_ASSERT_EQUAL(cpu__flags_arith(&intel), CPU_OF);
  amd.cc = intel.cc = (struct cc){CC_EFLAGS, 0, CPU_CF, 0};
  cpu__flags_rotate(&amd, 1, CPU__ROT_RCR, 0x84, 0x61, 0, 1);
  cpu__flags_rotate(&intel, 1, CPU__ROT_RCR, 0x84, 0x61, 0, 1);
  CU_ASSERT_EQUAL(cpu__flags_arith(&amd), CPU_OF);
  CU_ASSERT_EQUAL(cpu__flags_arith(&intel), 0);
  /* rol of 0x40 by 2 (8 bits, 0x01): Intel's OF is bit 7 ^ bit 6 of the
   * operand by cl or of memory, and stays for a register by an immediate. */
  intel.cc = (struct cc){CC_EFLAGS, 0, 0, 0};
  cpu__flags_rotate(&intel, 1, CPU__ROT_LEFT, 0x40, 0x01, 1, 0);
  CU_ASSERT_EQUAL(cpu__flags_arith(&intel), CPU_OF | CPU_CF);
  intel.cc = (struct cc){CC_EFLAGS, 0, 0, 0};
  cpu__flags_rotate(&intel, 1, CPU__ROT_LEFT | CPU__ROT_IMM, 0x40, 0x01, 1, 0);
  CU_ASSERT_EQUAL(cpu__flags_arith(&intel), CPU_CF);

  /* "AuthenticAMD", "HygonGenuine", "GenuineIntel". */
  CU_ASSERT_EQUAL(cpu_family_of(0x00a00f11), 0x19); /* Zen 3 */
  CU_ASSERT_EQUAL(cpu_family_of(0x00b00f21), 0x1a); /* Zen 5 */
  CU_ASSERT_EQUAL(cpu_family_of(0x000906ea), 6);    /* Intel Coffee Lake */
  CU_ASSERT_EQUAL(cpu_vendor_of(0x68747541, 0x69746e65, 0x444d4163),
                  CPU_VENDOR_AMD);
  CU_ASSERT_EQUAL(cpu_vendor_of(0x6f677948, 0x6e65476e, 0x656e6975),
                  CPU_VENDOR_AMD);
  CU_ASSERT_EQUAL(cpu_vendor_of(0x756e6547, 0x49656e69, 0x6c65746e),
                  CPU_VENDOR_INTEL);
}

/* Zen 4 (family 0x19, models 0x10-0x1f, 0x60-0x7f, 0xa0-0xaf) writes all
 * six flags after bsf/bsr as Zen 5 does, though it shares Zen 3's family:
 * measured on an EPYC 9004 of model 0x11 (docs/flags.md). */
void test_flags_zen4_bitscan(void) {
  static struct cpu c; /* only the flag fields are used */
  static const struct {
    u32 family, model;
    unsigned zen;
  } t[] = {
      {0x19, 0x01, CPU__ZEN3}, {0x19, 0x21, CPU__ZEN3},
      {0x19, 0x50, CPU__ZEN3}, {0x19, 0x10, CPU__ZEN4},
      {0x19, 0x11, CPU__ZEN4}, {0x19, 0x61, CPU__ZEN4},
      {0x19, 0x7f, CPU__ZEN4}, {0x19, 0xa0, CPU__ZEN4},
      {0x19, 0xb0, CPU__ZEN3}, {0x17, 0x31, CPU__ZEN3},
      {0x1a, 0x02, CPU__ZEN5}, {0, 0, CPU__ZEN5},
  };
  c.cfg.vendor = CPU_VENDOR_AMD;
  for (size_t i = 0; i < sizeof t / sizeof t[0]; i++) {
    c.cfg.family = t[i].family;
    c.cfg.model = t[i].model;
    CU_ASSERT_EQUAL(cpu__zen(&c), t[i].zen);
    /* bsf of 0x8 (index 3: two bits set, PF) from all six set: Zen 4
     * and 5 leave PF alone set; Zen 3 changes only ZF. */
    c.cc = (struct cc){CC_EFLAGS, 0, CPU_ARITH, 0};
    cpu__flags_bitscan(&c, 0x8, 3);
    CU_ASSERT_EQUAL(cpu__flags_arith(&c), t[i].zen >= CPU__ZEN4
                                              ? CPU_PF
                                              : CPU_ARITH & ~CPU_ZF);
    /* A zero source: ZF and PF, or ZF alone changed. */
    c.cc = (struct cc){CC_EFLAGS, 0, CPU_CF | CPU_OF, 0};
    cpu__flags_bitscan(&c, 0, 0);
    CU_ASSERT_EQUAL(cpu__flags_arith(&c), t[i].zen >= CPU__ZEN4
                                              ? CPU_ZF | CPU_PF
                                              : CPU_CF | CPU_OF | CPU_ZF);
    /* bsr of 0x80 (index 7, three bits: odd, PF clear). */
    c.cc = (struct cc){CC_EFLAGS, 0, CPU_CF, 0};
    cpu__flags_bitscan(&c, 0x80, 7);
    CU_ASSERT_EQUAL(cpu__flags_arith(&c), t[i].zen >= CPU__ZEN4 ? 0 : CPU_CF);
  }
  c.cfg.vendor = CPU_VENDOR_INTEL;
  c.cfg.family = 0x19;
  c.cfg.model = 0x11;
  CU_ASSERT_EQUAL(cpu__zen(&c), CPU__ZEN_NONE);
  /* The display model: extended model included for families 6 and 15. */
  CU_ASSERT_EQUAL(cpu_model_of(0x00a10f11), 0x11); /* Zen 4 EPYC 9004 */
  CU_ASSERT_EQUAL(cpu_model_of(0x00a00f11), 0x01); /* Zen 3 EPYC 7003 */
  CU_ASSERT_EQUAL(cpu_model_of(0x00b00f21), 0x02); /* Zen 5 */
  CU_ASSERT_EQUAL(cpu_model_of(0x000906ea), 0x9e); /* Intel Coffee Lake */
  CU_ASSERT_EQUAL(cpu_model_of(0x00000f4a), 0x04); /* family 15, no ext */
  CU_ASSERT_EQUAL(cpu_model_of(0x00010521), 0x02); /* family 5: no ext */
}
