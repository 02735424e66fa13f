/* SPDX-License-Identifier: MIT */
/* Tests of recorder/cpuid.c: the table holds what the CPU answers, with the
 * subleaves enumerated, and encodes as 24-byte little-endian rows. */
#define _GNU_SOURCE
#include <CUnit/CUnit.h>
#include <cpuid.h>
#include <sched.h>
#include <stdlib.h>

#include "tests/recorder/tests.h"
#include "common/endian.h"
#include "recorder/rec_int.h"

static const struct rec__cpuid *find(const struct rec__cpuid *t, size_t n,
                                     u32 leaf, u32 sub) {
  for (size_t i = 0; i < n; i++)
    if (t[i].leaf == leaf && t[i].subleaf == sub) return &t[i];
  return NULL;
}

void test_cpuid_table_matches_cpu(void) {
  u64 others;
  int cpu = rec__pin_cpu(&others);
  CU_ASSERT(cpu >= 0);
  /* The pinned CPU is not among the others, which are all allowed. */
  CU_ASSERT(cpu >= 64 || !(others >> cpu & 1));
  CU_ASSERT_EQUAL(sched_getcpu(), cpu);
  struct rec__cpuid *t;
  size_t n;
  CU_ASSERT_EQUAL_FATAL(rec__cpuid_table(&t, &n), 0);
  unsigned a, b, c, d;
  __cpuid(0, a, b, c, d);
  const struct rec__cpuid *e = find(t, n, 0, REC_CPUID_ANY);
  CU_ASSERT_PTR_NOT_NULL_FATAL(e);
  CU_ASSERT_EQUAL(e->eax, a);
  CU_ASSERT_EQUAL(e->ebx, b);
  __cpuid(1, a, b, c, d);
  e = find(t, n, 1, REC_CPUID_ANY);
  CU_ASSERT_PTR_NOT_NULL_FATAL(e);
  CU_ASSERT_EQUAL(e->ebx, b); /* includes the APIC id: pinned */
  CU_ASSERT_EQUAL(e->ecx, c);
  CU_ASSERT_PTR_NOT_NULL(find(t, n, 0x80000000u, REC_CPUID_ANY));
  free(t);
}

void test_cpuid_subleaves_enumerated(void) {
  struct rec__cpuid *t;
  size_t n;
  CU_ASSERT_EQUAL_FATAL(rec__cpuid_table(&t, &n), 0);
  unsigned a, b, c, d;
  __cpuid(0, a, b, c, d);
  if (a >= 7) {
    CU_ASSERT_PTR_NOT_NULL(find(t, n, 7, 0));
    CU_ASSERT_PTR_NULL(find(t, n, 7, REC_CPUID_ANY));
    __cpuid_count(7, 0, a, b, c, d);
    const struct rec__cpuid *e = find(t, n, 7, 0);
    CU_ASSERT(e && e->ebx == b);
  }
  CU_ASSERT_PTR_NOT_NULL(find(t, n, 0xd, 1));
  free(t);
}

void test_cpuid_encode_little_endian(void) {
  struct rec__cpuid e[2] = {{7, 0, 1, 2, 3, 4},
                            {0x80000001u, REC_CPUID_ANY, 5, 6, 7, 8}};
  u8 b[48];
  rec__cpuid_encode(e, 2, b);
  CU_ASSERT_EQUAL(rd_le32(b), 7);
  CU_ASSERT_EQUAL(rd_le32(b + 20), 4);
  CU_ASSERT_EQUAL(rd_le32(b + 24), 0x80000001u);
  CU_ASSERT_EQUAL(rd_le32(b + 28), 0xffffffffu);
  CU_ASSERT_EQUAL(b[24], 1);
  CU_ASSERT_EQUAL(rd_le32(b + 44), 8);
}
