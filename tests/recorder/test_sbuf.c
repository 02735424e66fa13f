/* SPDX-License-Identifier: MIT */
/* Tests of the syscall buffer's library image (recorder/sblib.c) against
 * the layout the recorder relies on (recorder/sbuf.h): entries where the
 * vDSO jumps, the one untraced syscall and the two stores after it. */
#include <CUnit/CUnit.h>
#include <string.h>

#include "tests/recorder/tests.h"
#include "common/endian.h"
#include "recorder/sbuf.h"

extern const unsigned char rec__sblib_start[];
extern const unsigned char *const rec__sblib_end;

void test_sbuf_image_fits_its_page(void) {
  size_t n = (size_t)(rec__sblib_end - rec__sblib_start);
  CU_ASSERT(n > RW_SB_SYSCALL + RW_SB_AFTER_RET);
  CU_ASSERT(n <= RW_SB_CODE);
}

void test_sbuf_entries_jump(void) {
  static const unsigned ents[] = {
      RW_SB_ENT_CLOCK_GETTIME, RW_SB_ENT_GETTIMEOFDAY, RW_SB_ENT_TIME,
      RW_SB_ENT_GETCPU, RW_SB_ENT_CLOCK_GETRES};
  for (size_t i = 0; i < sizeof ents / sizeof *ents; i++) {
    const unsigned char *p = rec__sblib_start + ents[i];
    CU_ASSERT_EQUAL(p[0], 0xe9); /* jmp rel32 */
    /* ... to code past the untraced syscall, inside the image */
    i64 to = (i64)ents[i] + 5 + (i32)rd_le32(p + 1);
    CU_ASSERT(to > RW_SB_SYSCALL &&
              to < (i64)(rec__sblib_end - rec__sblib_start));
  }
}

void test_sbuf_syscall_and_stores(void) {
  const unsigned char *p = rec__sblib_start + RW_SB_SYSCALL;
  static const unsigned char sys[2] = {0x0f, 0x05};
  /* mov %rax, RW_SB_R_RET(%r12) */
  static const unsigned char ret[5] = {0x49, 0x89, 0x44, 0x24, RW_SB_R_RET};
  CU_ASSERT(!memcmp(p, sys, 2));
  CU_ASSERT(!memcmp(p + 2, ret, 5));
  /* mov %r12, RW_SB_HDR + RW_SB_H_DONE (absolute), right at AFTER_RET */
  const unsigned char *d = p + RW_SB_AFTER_RET;
  CU_ASSERT(d[0] == 0x4c && d[1] == 0x89 && d[2] == 0x24 && d[3] == 0x25);
  CU_ASSERT_EQUAL(rd_le32(d + 4), RW_SB_HDR + RW_SB_H_DONE);
}
