/* SPDX-License-Identifier: MIT */
/* Hostile input for the whole reader: every truncated prefix of a small
 * trace, flipped bits at many positions, and random bytes (with and without
 * a valid header). Each input goes through the fuzz target, which exercises
 * every read path; the test passes if all of them return (sanitizer builds
 * make any out-of-bounds access fatal). */
#include <CUnit/CUnit.h>

#include "tests/format/tests.h"

#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "format/format_int.h"
#include "tests/format/helpers.h"
#include "tests/fuzz/fuzz.h"

static u8 *small_trace(size_t *n, int close) {
  const char *p = tf_path("hostile.rwd");
  struct tf_sample s = {2, 40, 256, 0, 2, 1, close};
  u8 *f;
  CU_ASSERT_EQUAL_FATAL(tf_make_sample(p, &s), 0);
  f = tf_read_file(p, n);
  unlink(p);
  return f;
}

void test_hostile_prefixes(void) {
  size_t n;
  u8 *f = small_trace(&n, 1);
  CU_ASSERT_PTR_NOT_NULL_FATAL(f);
  for (size_t len = 0; len <= n; len++) {
    /* A fresh allocation of exactly LEN bytes, so ASan sees any overread. */
    u8 *g = malloc(len ? len : 1);
    memcpy(g, f, len);
    CU_ASSERT_EQUAL(LLVMFuzzerTestOneInput(g, len), 0);
    free(g);
  }
  free(f);
}

void test_hostile_flips(void) {
  size_t n;
  for (int close = 0; close < 2; close++) {
    u8 *f = small_trace(&n, close), *g = malloc(n);
    u32 x = 99;
    /* Every bit of the header, and 3000 random bits elsewhere. */
    for (size_t bit = 0; bit < 3000 + 64 * 8; bit++) {
      size_t b;
      x = x * 1103515245u + 12345u;
      b = bit < 64 * 8 ? bit : (x >> 4) % (n * 8);
      memcpy(g, f, n);
      g[b / 8] ^= (u8)(1 << b % 8);
      CU_ASSERT_EQUAL(LLVMFuzzerTestOneInput(g, n), 0);
    }
    free(g);
    free(f);
  }
}

void test_hostile_random(void) {
  u8 *g = malloc(8192);
  u32 x = 7;
  u8 hdr[TRACE__HDR_SIZE];
  trace__header_encode(hdr, 0, 4096);
  for (int round = 0; round < 400; round++) {
    size_t len = (size_t)(round * 37) % 8192;
    for (size_t i = 0; i < len; i++) {
      x = x * 1664525u + 1013904223u;
      g[i] = (u8)(x >> 24);
    }
    /* Half the inputs get a valid header, so the scan sees the garbage. */
    if (round % 2 && len >= sizeof hdr) memcpy(g, hdr, sizeof hdr);
    /* And some get plausible chunk magics sprinkled in. */
    if (round % 4 == 3)
      for (size_t i = 64; i + 4 <= len; i += 97) memcpy(g + i, "RWCK", 4);
    CU_ASSERT_EQUAL(LLVMFuzzerTestOneInput(g, len), 0);
  }
  free(g);
}
