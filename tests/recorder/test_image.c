/* SPDX-License-Identifier: MIT */
/* Tests of recorder/image.c: editing the auxiliary vector. */
#include <CUnit/CUnit.h>

#include "tests/recorder/tests.h"
#include "recorder/rec_int.h"

void test_image_auxv_remove_vdso(void) {
  u64 v[] = {33, 0x7fff1000, 16, 0xbfebfbff, 6, 4096, 33, 0x1,
             25, 0x7ffd0000, 0,  0,          99, 99};
  size_t n = sizeof v / sizeof v[0] / 2;
  CU_ASSERT_EQUAL(rec__auxv_len(v, n), 6);
  CU_ASSERT_EQUAL(rec__auxv_remove(v, n, REC_AT_SYSINFO_EHDR), 2);
  CU_ASSERT_EQUAL(v[0], 16);
  CU_ASSERT_EQUAL(v[1], 0xbfebfbff);
  CU_ASSERT_EQUAL(v[2], 6);
  CU_ASSERT_EQUAL(v[4], 25);
  CU_ASSERT_EQUAL(v[6], 0); /* AT_NULL moved up */
  CU_ASSERT_EQUAL(v[8], 0); /* freed pairs are AT_NULL too */
  CU_ASSERT_EQUAL(v[10], 0);
  CU_ASSERT_EQUAL(v[12], 99); /* past the vector: untouched */
  CU_ASSERT_EQUAL(rec__auxv_len(v, n), 4);
}

void test_image_auxv_without_entry(void) {
  u64 v[] = {6, 4096, 0, 0};
  CU_ASSERT_EQUAL(rec__auxv_remove(v, 2, REC_AT_SYSINFO_EHDR), 0);
  CU_ASSERT_EQUAL(v[0], 6);
  u64 w[] = {6, 4096, 7, 8}; /* no AT_NULL: not an auxv */
  CU_ASSERT_EQUAL(rec__auxv_len(w, 2), 0);
  CU_ASSERT_EQUAL(rec__auxv_remove(w, 2, 6), 0);
}
