/* SPDX-License-Identifier: MIT */
/* Tests of common/crc32c.c: the published check value, continuation across
 * calls, and agreement of the SSE4.2 and table paths on every length and
 * alignment. */
#include <CUnit/CUnit.h>

#include "tests/format/tests.h"
#include <string.h>

#include "common/rw.h"

u32 rw__crc32c_sw(u32 crc, const void *p, size_t len);
u32 rw__crc32c_hw(u32 crc, const void *p, size_t len);
int rw__crc32c_have_hw(void);

void test_crc32c_vectors(void) {
  static const u8 zeros[32], ones[32] = {[0 ... 31] = 0xff};
  u8 inc[32];
  for (int i = 0; i < 32; i++) inc[i] = (u8)i;
  CU_ASSERT_EQUAL(rw_crc32c(0, "123456789", 9), 0xE3069283u);
  CU_ASSERT_EQUAL(rw_crc32c(0, "", 0), 0);
  /* RFC 3720, appendix B.4. */
  CU_ASSERT_EQUAL(rw_crc32c(0, zeros, 32), 0x8A9136AAu);
  CU_ASSERT_EQUAL(rw_crc32c(0, ones, 32), 0x62A8AB43u);
  CU_ASSERT_EQUAL(rw_crc32c(0, inc, 32), 0x46DD794Eu);
}

void test_crc32c_software(void) {
  CU_ASSERT_EQUAL(~rw__crc32c_sw(~0u, "123456789", 9), 0xE3069283u);
}

void test_crc32c_hardware(void) {
  if (!rw__crc32c_have_hw()) return; /* nothing to compare on this CPU */
  CU_ASSERT_EQUAL(~rw__crc32c_hw(~0u, "123456789", 9), 0xE3069283u);
}

void test_crc32c_paths_agree(void) {
  static u8 buf[4096 + 16];
  u32 x = 1;
  for (size_t i = 0; i < sizeof buf; i++) {
    x = x * 1664525u + 1013904223u;
    buf[i] = (u8)(x >> 24);
  }
  if (!rw__crc32c_have_hw()) return;
  for (size_t align = 0; align < 8; align++)
    for (size_t len = 0; len < 300; len++)
      CU_ASSERT_EQUAL(rw__crc32c_sw(~0u, buf + align, len),
                      rw__crc32c_hw(~0u, buf + align, len));
  CU_ASSERT_EQUAL(rw__crc32c_sw(0x1234u, buf + 3, 4096),
                  rw__crc32c_hw(0x1234u, buf + 3, 4096));
}

void test_crc32c_continue(void) {
  const char *s = "the quick brown fox jumps over the lazy dog";
  size_t n = strlen(s);
  u32 whole = rw_crc32c(0, s, n);
  for (size_t cut = 0; cut <= n; cut++)
    CU_ASSERT_EQUAL(rw_crc32c(rw_crc32c(0, s, cut), s + cut, n - cut), whole);
}
