/* SPDX-License-Identifier: MIT */
/* Helpers shared by the SSE differential case files (cases_sse*.c): random
 * choices, the memory operand and XMM registers of a case, and MXCSR values
 * that exercise rounding, DAZ/FTZ and unmasked exceptions. */
#ifndef RW_TESTS_CPU_CASES_SSE_H
#define RW_TESTS_CPU_CASES_SSE_H

#include <string.h>

#include "tests/cpu/diff.h"

static inline unsigned rnd(struct diff_rng *r, unsigned n) {
  return (unsigned)(diff_rand(r) % n);
}

/* The N bytes of the memory operand inside the case's data, or NULL. */
static inline u8 *mem_at(struct diff_case *c, unsigned n) {
  if (!c->memop || c->mem_addr < DIFF_DATA_ADDR ||
      c->mem_addr + n > DIFF_DATA_ADDR + DIFF_DATA_SIZE)
    return NULL;
  return c->st.data + (c->mem_addr - DIFF_DATA_ADDR);
}

/* XMM register X of the case. */
static inline u8 *xmm_at(struct diff_case *c, unsigned x) {
  return c->st.fx + 160 + 16 * x;
}

/* A random MXCSR: often the default, else random rounding, DAZ, FTZ, masks
 * and flags (unmasked exceptions included). */
static inline u32 rand_mxcsr(struct diff_rng *r) {
  unsigned k = rnd(r, 10);
  if (k < 3) return 0x1f80;
  if (k < 7)
    return 0x1f80 | (rnd(r, 4) << 13) | (rnd(r, 2) ? 0x40 : 0) |
           (rnd(r, 2) ? 0x8000 : 0) | (rnd(r, 4) ? 0 : rnd(r, 64));
  return (u32)diff_rand(r) & 0xffff;
}

static inline void set_mxcsr(struct diff_case *c, u32 v) {
  memcpy(c->st.fx + 24, &v, 4);
}

/* ---- Values ------------------------------------------------------------- */

/* A shift count around the element widths, or a random one. */
static inline u64 edge_count(struct diff_rng *r) {
  static const u64 k[] = {0, 1, 2, 7, 8, 9, 15, 16, 17, 31, 32, 33, 63, 64,
                          65, 127, 128, 255, 256, 1ull << 32, ~0ull};
  return rnd(r, 4) ? k[rnd(r, sizeof k / sizeof k[0])] : diff_rand(r);
}

/* An edge or random single-precision value. */
static inline u32 f32_edge(struct diff_rng *r) {
  static const u32 k[] = {
      0x00000000, 0x7f800000, 0x7fc00000, 0x7f800001, 0x7fbfffff,
      0x7fc12345, 0x00000001, 0x007fffff, 0x00400000, 0x00800000,
      0x7f7fffff, 0x3f800000, 0x3f000000, 0x3fc00000, 0x40200000,
      0x4f000000, 0x4effffff, 0x5f000000, 0x5effffff, 0x4b000000,
      0x4b7fffff, 0x00800001, 0x7f000000, 0x3effffff, 0x3f7fffff};
  u32 sign = rnd(r, 2) ? 0x80000000u : 0;
  switch (rnd(r, 5)) {
    case 0:
    case 1: return k[rnd(r, sizeof k / sizeof k[0])] | sign;
    case 2: /* near the ends of the exponent range */
      return sign | ((rnd(r, 2) ? rnd(r, 3) : 252 + rnd(r, 3)) << 23) |
             ((u32)diff_rand(r) & 0x7fffff);
    case 3: /* moderate magnitudes with fractions */
      return sign | ((127 - 10 + rnd(r, 45)) << 23) |
             ((u32)diff_rand(r) & 0x7fffff);
    default: return (u32)diff_rand(r);
  }
}

static inline u64 f64_edge(struct diff_rng *r) {
  static const u64 k[] = {
      0x0000000000000000ull, 0x7ff0000000000000ull, 0x7ff8000000000000ull,
      0x7ff0000000000001ull, 0x7ff7ffffffffffffull, 0x7ff8000000012345ull,
      0x0000000000000001ull, 0x000fffffffffffffull, 0x0010000000000000ull,
      0x7fefffffffffffffull, 0x3ff0000000000000ull, 0x3fe0000000000000ull,
      0x3ff8000000000000ull, 0x4004000000000000ull, 0x41e0000000000000ull,
      0x41dfffffffffffffull, 0x41dfffffffe00000ull, 0x41dfffffffc00000ull,
      0x43e0000000000000ull, 0x43dfffffffffffffull, 0x4330000000000000ull,
      0x36a0000000000000ull, 0x3810000000000000ull, 0x47efffffe0000000ull,
      0x47f0000000000000ull, 0x380fffffffffffffull, 0x3690000000000000ull};
  u64 sign = rnd(r, 2) ? 1ull << 63 : 0;
  switch (rnd(r, 5)) {
    case 0:
    case 1: return k[rnd(r, sizeof k / sizeof k[0])] | sign;
    case 2: {
      u64 e = rnd(r, 3) ? (rnd(r, 2) ? rnd(r, 3) : 2044 + rnd(r, 3))
                        : (rnd(r, 2) ? 1023 - 126 - 24 + rnd(r, 30)
                                     : 1023 + 125 + rnd(r, 6));
      return sign | (e << 52) | (diff_rand(r) & 0xfffffffffffffull);
    }
    case 3:
      return sign | ((u64)(1023 - 10 + rnd(r, 80)) << 52) |
             (diff_rand(r) & 0xfffffffffffffull);
    default: return diff_rand(r);
  }
}

/* An edge or random half-precision value. */
static inline u16 f16_edge(struct diff_rng *r) {
  static const u16 k[] = {
      0x0000, 0x7c00, 0x7e00, 0x7c01, 0x7dff, 0x7e12, 0x0001, 0x03ff,
      0x0200, 0x0400, 0x0401, 0x7bff, 0x7800, 0x77ff, 0x3c00, 0x3800,
      0x3e00, 0x4100, 0x3bff, 0x3c01, 0x6400, 0x67ff, 0x7a00, 0x1400,
      0x0800, 0x13ff, 0x5bff, 0x7bfe, 0x0002, 0x0100};
  u16 sign = rnd(r, 2) ? 0x8000 : 0;
  switch (rnd(r, 5)) {
    case 0:
    case 1: return k[rnd(r, sizeof k / sizeof k[0])] | sign;
    case 2: /* near the ends of the exponent range */
      return (u16)(sign | (rnd(r, 2) ? rnd(r, 3) : 28 + rnd(r, 3)) << 10 |
                   ((u16)diff_rand(r) & 0x3ff));
    case 3: /* moderate magnitudes with fractions */
      return (u16)(sign | (10 + rnd(r, 12)) << 10 |
                   ((u16)diff_rand(r) & 0x3ff));
    default: return (u16)diff_rand(r);
  }
}

/* An integer around the ends of the halves' range (65504, and 65520 that
 * rounds past it) and of their precision (2048), or a random one. */
static inline u64 i2h_edge(struct diff_rng *r) {
  static const i64 k[] = {0,     1,      -1,     2047,   2049,   4097,
                          65504, 65505,  65519,  65520,  65535,  65536,
                          -65504, -65519, -65520, 32767, -32768, 1 << 24};
  switch (rnd(r, 4)) {
    case 0: return (u64)k[rnd(r, sizeof k / sizeof k[0])];
    case 1: return (u64)((i64)rnd(r, 140000) - 70000);
    case 2: return (u64)rnd(r, 1u << 17) << rnd(r, 8);
    default: return diff_rand(r);
  }
}

#endif /* RW_TESTS_CPU_CASES_SSE_H */
