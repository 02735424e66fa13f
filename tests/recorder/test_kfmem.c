/* SPDX-License-Identifier: MIT */
/* Tests of the fingerprint that decides whether a keyframe stores a page
 * again (recorder/kfmem.c): equal bytes, equal fingerprints; a page that
 * differs from another in any one word, by any value, never has the same
 * one in either half; words that trade places are seen. */
#include <CUnit/CUnit.h>
#include <string.h>

#include "tests/recorder/tests.h"
#include "recorder/rec_int.h"

static u8 a[4096], b[4096];

static u64 next(u64 *x) {
  *x ^= *x << 13, *x ^= *x >> 7, *x ^= *x << 17;
  return *x;
}

static void fill(u8 *p, u64 seed) {
  for (size_t i = 0; i < 4096; i += 8) {
    u64 w = next(&seed);
    memcpy(p + i, &w, 8);
  }
}

void test_kfmem_equal_bytes_equal_fingerprints(void) {
  u64 f[2], g[2];
  fill(a, 1);
  memcpy(b, a, sizeof b);
  rec__kf_fingerprint(a, f);
  rec__kf_fingerprint(b, g);
  CU_ASSERT(f[0] == g[0] && f[1] == g[1]);
  fill(b, 2);
  rec__kf_fingerprint(b, g);
  CU_ASSERT(f[0] != g[0] && f[1] != g[1]);
}

void test_kfmem_one_word_changes_both_halves(void) {
  u64 f[2], g[2], seed = 7;
  fill(a, 3);
  rec__kf_fingerprint(a, f);
  size_t seen = 0;
  for (size_t w = 0; w < 512; w++) {
    for (int v = 0; v < 8; v++) {
      u64 d = v == 0 ? 1 : v == 1 ? (u64)1 << 63 : next(&seed) | 1;
      memcpy(b, a, sizeof b);
      u64 x;
      memcpy(&x, b + 8 * w, 8);
      x ^= d;
      memcpy(b + 8 * w, &x, 8);
      rec__kf_fingerprint(b, g);
      seen += g[0] != f[0] && g[1] != f[1];
    }
  }
  CU_ASSERT_EQUAL(seen, 512 * 8);
}

void test_kfmem_order_matters(void) {
  u64 f[2], g[2];
  memset(a, 0, sizeof a);
  a[0] = 1; /* word 0 is 1, word 1 is 0 */
  memset(b, 0, sizeof b);
  b[8] = 1; /* word 1 is 1, word 0 is 0 */
  rec__kf_fingerprint(a, f);
  rec__kf_fingerprint(b, g);
  CU_ASSERT(f[0] != g[0] || f[1] != g[1]);
  memset(b, 0, sizeof b);
  b[16] = 1; /* word 2: the same chains as word 0, one step later */
  rec__kf_fingerprint(b, g);
  CU_ASSERT(f[0] != g[0] && f[1] != g[1]);
}
