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

#endif /* RW_TESTS_CPU_CASES_SSE_H */
