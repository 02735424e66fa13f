/* SPDX-License-Identifier: MIT */
/* The harness's lists: every case family (cases.def) and the flags the
 * manuals define after each instruction (flagmask.def). */
#include "tests/cpu/diff_int.h"

const struct diff_family *const diff_families[] = {
#define CASES(fam) &diff_cases_##fam,
#include "tests/cpu/cases.def"
#undef CASES
    NULL};

#define F_C 0x1ull
#define F_P 0x4ull
#define F_A 0x10ull
#define F_Z 0x40ull
#define F_S 0x80ull
#define F_O 0x800ull

u64 diff_flags_defined(unsigned id) {
  switch (id) {
#define FLAGS(id, mask) \
  case id:              \
    return (mask);
#include "tests/cpu/flagmask.def"
#undef FLAGS
    default:
      return DIFF_ARITH;
  }
}
