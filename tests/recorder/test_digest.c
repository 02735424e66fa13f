/* SPDX-License-Identifier: MIT */
/* Tests of common/digest.c: the digest follows its written definition
 * (recomputed here independently) and depends on addresses and order. */
#include <CUnit/CUnit.h>
#include <string.h>

#include "tests/recorder/tests.h"
#include "common/digest.h"

static u64 rotl(u64 x, int r) { return (x << r) | (x >> (64 - r)); }
static u64 mix(u64 h, u64 w) {
  return rotl(h ^ (w * 0x87c37b91114253d5ull), 31) * 0x4cf5ad432745937full;
}
static u64 fmix(u64 x) {
  x ^= x >> 33;
  x *= 0xff51afd7ed558ccdull;
  x ^= x >> 33;
  x *= 0xc4ceb9fe1a85ec53ull;
  x ^= x >> 33;
  return x;
}

static u8 page[4096];

void test_digest_definition_vectors(void) {
  struct rw_digest d;
  rw_digest_init(&d);
  CU_ASSERT_EQUAL(rw_digest_final(&d), fmix(0x6a09e667f3bcc908ull));
  for (int i = 0; i < 4096; i++) page[i] = (u8)(i * 7);
  rw_digest_page(&d, 0x1000, page);
  u64 h = mix(0x6a09e667f3bcc908ull, 0x1000);
  for (int i = 0; i < 4096; i += 8) {
    u64 w = 0;
    for (int k = 7; k >= 0; k--) w = w << 8 | page[i + k];
    h = mix(h, w);
  }
  CU_ASSERT_EQUAL(rw_digest_final(&d), fmix(h ^ 1));
}

void test_digest_page_order_matters(void) {
  struct rw_digest a, b;
  memset(page, 0, sizeof page);
  rw_digest_init(&a);
  rw_digest_init(&b);
  /* A page of zeros is not part of the digest, wherever it is. */
  u64 empty = rw_digest_final(&a);
  rw_digest_page(&a, 0x1000, page);
  CU_ASSERT_EQUAL(rw_digest_final(&a), empty);
  /* The same bytes at another address give another digest. */
  page[0] = 1;
  rw_digest_page(&a, 0x1000, page);
  rw_digest_page(&b, 0x2000, page);
  CU_ASSERT_NOT_EQUAL(rw_digest_final(&a), rw_digest_final(&b));
  page[4095] = 1;
  rw_digest_page(&b, 0x3000, page);
  u64 x = rw_digest_final(&b);
  page[4095] = 2;
  rw_digest_init(&b);
  rw_digest_page(&b, 0x2000, page - 0 + 0);
  CU_ASSERT_NOT_EQUAL(x, rw_digest_final(&b));
}

void test_digest_steps_undo(void) {
  struct rw_digest d;
  for (unsigned i = 0; i < sizeof page; i++) page[i] = (u8)(i * 7 + 3);
  rw_digest_init(&d);
  rw_digest_page(&d, 0x5000, page);
  u64 before = d.h;
  rw_digest_page(&d, 0x9000, page);
  CU_ASSERT_EQUAL(rw_digest_unpage(RW_DIGEST_CHAIN, d.h, 0x9000, page),
                  before);
  CU_ASSERT_EQUAL(rw_digest_unfinal(rw_digest_final(&d)), d.h ^ d.n);
  rw_digest_start(&d, RW_DIGEST_LANES);
  rw_digest_page(&d, 0x5000, page);
  before = d.h;
  rw_digest_page(&d, 0x9000, page);
  CU_ASSERT_EQUAL(rw_digest_unpage(RW_DIGEST_LANES, d.h, 0x9000, page),
                  before);
}

/* The kind of format 1.10 follows its written definition too, and is
 * another digest than the chain's. */
void test_digest_lanes_definition(void) {
  struct rw_digest d, c;
  const u64 seed = 0x510e527fade682d1ull;
  for (int i = 0; i < 4096; i++) page[i] = (u8)(i * 13 + 5);
  rw_digest_start(&d, RW_DIGEST_LANES);
  rw_digest_page(&d, 0x7000, page);
  u64 l[4];
  for (int j = 0; j < 4; j++) l[j] = mix(seed + (u64)j, 0);
  for (int i = 0; i < 512; i++) {
    u64 w = 0;
    for (int k = 7; k >= 0; k--) w = w << 8 | page[8 * i + k];
    l[i % 4] = mix(l[i % 4], w);
  }
  u64 h = mix(mix(0x6a09e667f3bcc908ull, 0x7000),
              mix(mix(mix(l[0], l[1]), l[2]), l[3]));
  CU_ASSERT_EQUAL(rw_digest_final(&d), fmix(h ^ 1));
  rw_digest_init(&c);
  rw_digest_page(&c, 0x7000, page);
  CU_ASSERT_NOT_EQUAL(rw_digest_final(&c), rw_digest_final(&d));
  /* A page of zeros is left out of it as well. */
  u64 was = rw_digest_final(&d);
  memset(page, 0, sizeof page);
  rw_digest_page(&d, 0x8000, page);
  CU_ASSERT_EQUAL(rw_digest_final(&d), was);
}

/* A page in a left-out range counts as zeros; the dead range still zeroes
 * its part of a page outside them. */
void test_digest_left_out_ranges(void) {
  struct rw_digest_spec s;
  u8 buf[RW_DIGEST_PAGE];
  u64 r[2][2] = {{0x9000, 0xb000}, {0x3000, 0x4000}};
  memset(&s, 0, sizeof s);
  for (unsigned i = 0; i < sizeof page; i++) page[i] = (u8)(i + 1);
  rw_digest_set_skips(&s, r, 2);
  CU_ASSERT_EQUAL(s.nskip, 2);
  CU_ASSERT_EQUAL(s.skip[0][0], 0x3000);
  CU_ASSERT_EQUAL(s.skip[1][1], 0xb000);
  CU_ASSERT_PTR_NULL(rw_digest_view(&s, 0x3000, page, buf));
  CU_ASSERT_PTR_NULL(rw_digest_view(&s, 0xa000, page, buf));
  CU_ASSERT_PTR_EQUAL(rw_digest_view(&s, 0xb000, page, buf), page);
  CU_ASSERT_PTR_EQUAL(rw_digest_view(&s, 0x2000, page, buf), page);
  s.dead_lo = 0x2800;
  s.dead_hi = 0x3800;
  CU_ASSERT_PTR_EQUAL(rw_digest_view(&s, 0x2000, page, buf), buf);
  CU_ASSERT_EQUAL(buf[0x7ff], page[0x7ff]);
  CU_ASSERT_EQUAL(buf[0x800], 0);
}

/* Overlapping and touching ranges become one; past the limit the closest
 * neighbours are merged, so every page that was left out still is. */
void test_digest_left_out_ranges_merged(void) {
  struct rw_digest_spec s;
  enum { N = RW_DIGEST_SKIP_MAX + 6 };
  u64 r[N + 2][2], want[N + 2][2];
  memset(&s, 0, sizeof s);
  for (unsigned i = 0; i < N; i++) { /* gaps of 1, 2, 3 ... pages */
    r[i][0] = 0x100000ull * (i + 1);
    r[i][1] = r[i][0] + 0x100000ull - 0x1000ull * (1 + i % 7);
  }
  r[N][0] = r[0][0] + 0x1000; /* inside the first */
  r[N][1] = r[0][0] + 0x2000;
  r[N + 1][0] = r[1][1]; /* touches the second */
  r[N + 1][1] = r[1][1] + 0x1000;
  memcpy(want, r, sizeof r);
  rw_digest_set_skips(&s, r, N + 2);
  CU_ASSERT_EQUAL(s.nskip, RW_DIGEST_SKIP_MAX);
  for (unsigned i = 1; i < s.nskip; i++)
    CU_ASSERT(s.skip[i - 1][1] < s.skip[i][0]);
  for (unsigned i = 0; i < N + 2; i++)
    for (u64 a = want[i][0]; a < want[i][1]; a += 0x1000)
      CU_ASSERT(rw_digest_skips(&s, a));
  CU_ASSERT(!rw_digest_skips(&s, 0x1000));
}

/* Format 1.12's further dead ranges zero their bytes like the first; two
 * in one page both, one covering the page makes it count as zeros; the
 * merge keeps every dead byte dead. */
void test_digest_dead_ranges(void) {
  struct rw_digest_spec s;
  u8 buf[RW_DIGEST_PAGE];
  u64 r[3][2] = {{0x5100, 0x5200}, {0x4010, 0x4020}, {0x7000, 0x9000}};
  memset(&s, 0, sizeof s);
  for (unsigned i = 0; i < sizeof page; i++) page[i] = (u8)(i + 1);
  s.dead_lo = 0x5f00;
  s.dead_hi = 0x6000;
  rw_digest_set_deads(&s, r, 3);
  CU_ASSERT_EQUAL(s.ndead, 3);
  CU_ASSERT_EQUAL(s.dead[0][0], 0x4010);
  CU_ASSERT_PTR_EQUAL(rw_digest_view(&s, 0x3000, page, buf), page);
  CU_ASSERT_PTR_NULL(rw_digest_view(&s, 0x8000, page, buf));
  CU_ASSERT_PTR_EQUAL(rw_digest_view(&s, 0x5000, page, buf), buf);
  CU_ASSERT_EQUAL(buf[0xff], page[0xff]);
  CU_ASSERT_EQUAL(buf[0x100], 0);
  CU_ASSERT_EQUAL(buf[0x1ff], 0);
  CU_ASSERT_EQUAL(buf[0x200], page[0x200]);
  CU_ASSERT_EQUAL(buf[0xeff], page[0xeff]);
  CU_ASSERT_EQUAL(buf[0xf00], 0); /* the first dead range too */
  CU_ASSERT_PTR_EQUAL(rw_digest_view(&s, 0x4000, page, buf), buf);
  CU_ASSERT_EQUAL(buf[0x0f], page[0x0f]);
  CU_ASSERT_EQUAL(buf[0x10], 0);
  CU_ASSERT_EQUAL(buf[0x20], page[0x20]);

  enum { N = RW_DIGEST_DEAD_MAX + 5 };
  u64 m[N][2], want[N][2];
  for (unsigned i = 0; i < N; i++) {
    m[i][0] = 0x10000ull * (i + 1) + 0x30 * i;
    m[i][1] = m[i][0] + 0x800;
  }
  memcpy(want, m, sizeof m);
  rw_digest_set_deads(&s, m, N);
  CU_ASSERT_EQUAL(s.ndead, RW_DIGEST_DEAD_MAX);
  for (unsigned i = 0; i < N; i++) {
    int in = 0;
    for (unsigned k = 0; k < s.ndead; k++)
      in |= s.dead[k][0] <= want[i][0] && want[i][1] <= s.dead[k][1];
    CU_ASSERT(in);
  }
}
