/* SPDX-License-Identifier: MIT */
/* Tests of common/sha256.c (libcrypto underneath) against the FIPS 180-4
 * example vectors, and that feeding the same bytes in any split gives the
 * same digest. */
#include <CUnit/CUnit.h>

#include "tests/format/tests.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/rw.h"

static void hex(const u8 d[32], char out[65]) {
  for (int i = 0; i < 32; i++) sprintf(out + 2 * i, "%02x", d[i]);
}

static void check(const char *msg, size_t len, const char *want) {
  u8 d[32];
  char h[65];
  CU_ASSERT_EQUAL_FATAL(rw_sha256(msg, len, d), 0);
  hex(d, h);
  CU_ASSERT_STRING_EQUAL(h, want);
}

void test_sha256_vectors(void) {
  check("", 0,
        "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855");
  check("abc", 3,
        "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
  check("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq", 56,
        "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1");
  check("abcdefghbcdefghicdefghijdefghijkefghijklfghijklmghijklmnhijklmno"
        "ijklmnopjklmnopqklmnopqrlmnopqrsmnopqrstnopqrstu",
        112,
        "cf5b16a778af8380036ce59e7b0492370b249b11e8f07a51afac45037afee9d1");
}

void test_sha256_million_a(void) {
  char *m = malloc(1000000);
  CU_ASSERT_PTR_NOT_NULL_FATAL(m);
  memset(m, 'a', 1000000);
  check(m, 1000000,
        "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0");
  free(m);
}

void test_sha256_incremental(void) {
  u8 msg[300], whole[32], part[32];
  for (int i = 0; i < 300; i++) msg[i] = (u8)(i * 31 + 7);
  CU_ASSERT_EQUAL_FATAL(rw_sha256(msg, sizeof msg, whole), 0);
  /* Splits around the 55/56/64-byte padding boundaries. */
  for (size_t a = 0; a < 140; a += 1) {
    struct rw_sha256_ctx c;
    size_t b = a + (a * 7) % 90;
    CU_ASSERT_EQUAL_FATAL(rw_sha256_init(&c), 0);
    rw_sha256_update(&c, msg, a);
    rw_sha256_update(&c, msg + a, b - a);
    rw_sha256_update(&c, msg + b, sizeof msg - b);
    CU_ASSERT_EQUAL_FATAL(rw_sha256_final(&c, part), 0);
    CU_ASSERT_EQUAL(memcmp(whole, part, 32), 0);
  }
  for (size_t len = 50; len < 70; len++) {
    struct rw_sha256_ctx c;
    CU_ASSERT_EQUAL_FATAL(rw_sha256(msg, len, whole), 0);
    CU_ASSERT_EQUAL_FATAL(rw_sha256_init(&c), 0);
    for (size_t i = 0; i < len; i++) rw_sha256_update(&c, msg + i, 1);
    CU_ASSERT_EQUAL_FATAL(rw_sha256_final(&c, part), 0);
    CU_ASSERT_EQUAL(memcmp(whole, part, 32), 0);
  }
}
