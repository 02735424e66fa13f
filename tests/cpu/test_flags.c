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
    /* CC_EFLAGS .. CC_MUL; shift counts kept in 1..63 */
    c.cc = (struct cc){(u32)(x % CC_NKINDS), v[0], v[1], v[2]};
    if ((c.cc.op & ~3u) >= CC_SHL && (c.cc.op & ~3u) <= CC_SAR)
      c.cc.src2 = 1 + (c.cc.src2 & 7) * ((x >> 20) & 7);
    if ((c.cc.op & ~3u) == CC_EFLAGS) c.cc.src1 &= CPU_ARITH;
    /* Handlers record a result consistent with the operands. */
    if ((c.cc.op & ~3u) == CC_SUB) c.cc.dst = c.cc.src1 - c.cc.src2;
    if ((c.cc.op & ~3u) == CC_ADD) c.cc.dst = c.cc.src1 + c.cc.src2;
    for (unsigned cond = 0; cond < 16; cond++)
      CU_ASSERT_EQUAL(cpu__cond(&c, cond), cpu__cond_flags(&c, cond));
    CU_ASSERT_EQUAL(cpu__flag_cf_inline(&c),
                    (int)(cpu__flags_arith(&c) & CPU_CF));
  }
}
