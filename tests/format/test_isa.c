/* SPDX-License-Identifier: MIT */
/* Tests of common/isa.c: the extensions the emulator lacks, read from a
 * CPUID table in the trace's encoding. */
#include <CUnit/CUnit.h>
#include <string.h>

#include "common/endian.h"
#include "common/isa.h"
#include "tests/format/tests.h"

/* Appends the entry LEAF, SUB, EAX, EBX, ECX, EDX to T at *N bytes. */
static void put(u8 *t, size_t *n, u32 leaf, u32 sub, u32 a, u32 b, u32 c,
                u32 d) {
  u32 v[6] = {leaf, sub, a, b, c, d};
  for (int i = 0; i < 6; i++) wr_le32(t + *n + 4 * i, v[i]);
  *n += 24;
}

void test_isa_unemulated(void) {
  u8 t[24 * 4];
  size_t n = 0;
  char buf[128];
  /* leaf 0 max 0xd (subleaf any), leaf 7.0 with one subleaf more: EDX
   * bit 22 AMX-BF16, bit 23 AVX512-FP16 (which is emulated) and bit 24
   * AMX-TILE; 7.1 EAX bit 4 (AVX-VNNI, emulated) and EDX bit 21 (APX) */
  put(t, &n, 0, 0xffffffffu, 0xd, 0, 0, 0);
  put(t, &n, 7, 0, 1, 1u << 16, 0, (1u << 22) | (1u << 23) | (1u << 24));
  put(t, &n, 7, 1, 1u << 4, 0, 0, 1u << 21);
  CU_ASSERT_EQUAL(rw_isa_unemulated(t, n, 1, buf, sizeof buf), 3);
  CU_ASSERT_STRING_EQUAL(buf, "AMX-BF16, AMX-TILE, APX");
  /* AMX needs the kernel's permission first: left out on request. */
  CU_ASSERT_EQUAL(rw_isa_unemulated(t, n, 0, buf, sizeof buf), 1);
  CU_ASSERT_STRING_EQUAL(buf, "APX");
  /* A short buffer truncates the text, not the count. */
  CU_ASSERT_EQUAL(rw_isa_unemulated(t, n, 1, buf, 8), 3);
  CU_ASSERT_EQUAL(strlen(buf), 7);
  /* Subleaf 1 counts only when subleaf 0's EAX says it exists. */
  wr_le32(t + 24 + 8, 0);
  CU_ASSERT_EQUAL(rw_isa_unemulated(t, n, 1, buf, sizeof buf), 2);
  /* Nothing without leaf 7 (leaf 0's maximum below it). */
  wr_le32(t + 8, 6);
  CU_ASSERT_EQUAL(rw_isa_unemulated(t, n, 1, buf, sizeof buf), 0);
  CU_ASSERT_STRING_EQUAL(buf, "");
  /* An AVX-512 CPU of today (this one's F/CD/BW/DQ/VL...): nothing. */
  n = 0;
  put(t, &n, 0, 0xffffffffu, 0x10, 0, 0, 0);
  put(t, &n, 7, 0, 1, 0xd0230000u, 0x00405f4eu, 0x00000110u);
  put(t, &n, 7, 1, 0x30u, 0, 0, 0);
  CU_ASSERT_EQUAL(rw_isa_unemulated(t, n, 1, buf, sizeof buf), 0);
  /* AVX10 (7.1 EDX bit 19): version 1 is what the emulator runs, version
   * 2 (leaf 24H EBX[7:0]) is not. */
  n = 0;
  put(t, &n, 0, 0xffffffffu, 0x24, 0, 0, 0);
  put(t, &n, 7, 0, 1, 0, 0, 0);
  put(t, &n, 7, 1, 0, 0, 0, 1u << 19);
  put(t, &n, 0x24, 0, 0, 0x70001, 0, 0);
  CU_ASSERT_EQUAL(rw_isa_unemulated(t, n, 1, buf, sizeof buf), 0);
  wr_le32(t + 72 + 12, 0x70002);
  CU_ASSERT_EQUAL(rw_isa_unemulated(t, n, 1, buf, sizeof buf), 1);
  CU_ASSERT_STRING_EQUAL(buf, "AVX10.2");
}
