/* SPDX-License-Identifier: MIT */
/* The memory digest defined in common/digest.h, shared by the recorder (which
 * writes it into PREEMPT records) and the replayer (which recomputes it). It
 * hashes bytes only; finding the writable pages is the caller's business. */
#include <stdlib.h>
#include <string.h>

#include "digest.h"
#include "endian.h"

#define K1 0x87c37b91114253d5ull
#define K2 0x4cf5ad432745937full
#define F1 0xff51afd7ed558ccdull
#define F2 0xc4ceb9fe1a85ec53ull

static inline u64 rotl64(u64 x, int r) { return (x << r) | (x >> (64 - r)); }
static inline u64 rotr64(u64 x, int r) { return (x >> r) | (x << (64 - r)); }

static inline u64 mix(u64 h, u64 w) { return rotl64(h ^ (w * K1), 31) * K2; }

/* The inverse of K modulo 2^64 (K odd), by Newton's iteration. */
static u64 inverse(u64 k) {
  u64 x = k; /* right to 3 bits */
  for (int i = 0; i < 5; i++) x *= 2 - k * x;
  return x;
}

/* The h that mix(h, w) turns into Y. */
static inline u64 unmix(u64 y, u64 w, u64 k2inv) {
  return rotr64(y * k2inv, 31) ^ (w * K1);
}

#define SEED 0x510e527fade682d1ull

void rw_digest_init(struct rw_digest *d) { rw_digest_start(d, RW_DIGEST_CHAIN); }

void rw_digest_start(struct rw_digest *d, u32 kind) {
  d->h = 0x6a09e667f3bcc908ull;
  d->n = 0;
  d->kind = kind;
}

/* What a page contributes to a digest of kind RW_DIGEST_LANES. */
static u64 lanes(const u8 *page) {
  u64 l0 = mix(SEED, 0), l1 = mix(SEED + 1, 0), l2 = mix(SEED + 2, 0),
      l3 = mix(SEED + 3, 0);
  for (unsigned i = 0; i < RW_DIGEST_PAGE; i += 32) {
    l0 = mix(l0, rd_le64(page + i));
    l1 = mix(l1, rd_le64(page + i + 8));
    l2 = mix(l2, rd_le64(page + i + 16));
    l3 = mix(l3, rd_le64(page + i + 24));
  }
  return mix(mix(mix(l0, l1), l2), l3);
}

int rw_digest_zero(const u8 *page) {
  static const u8 zero[RW_DIGEST_PAGE];
  return !memcmp(page, zero, RW_DIGEST_PAGE);
}

u64 rw_digest_lanes(const u8 *page) { return lanes(page); }

void rw_digest_add(struct rw_digest *d, u64 addr, u64 l) {
  d->h = mix(mix(d->h, addr), l);
  d->n++;
}

void rw_digest_page(struct rw_digest *d, u64 addr, const u8 *page) {
  if (rw_digest_zero(page)) return; /* not part of it */
  u64 h = mix(d->h, addr);
  if (d->kind == RW_DIGEST_LANES) {
    h = mix(h, lanes(page));
  } else {
    for (unsigned i = 0; i < RW_DIGEST_PAGE; i += 8)
      h = mix(h, rd_le64(page + i));
  }
  d->h = h;
  d->n++;
}

int rw_digest_skips(const struct rw_digest_spec *s, u64 addr) {
  for (u32 i = 0; i < s->nskip; i++)
    if (s->skip[i][0] <= addr && addr < s->skip[i][1]) return 1;
  return 0;
}

const u8 *rw_digest_view(const struct rw_digest_spec *s, u64 addr,
                         const u8 *page, u8 *buf) {
  u64 end = addr + RW_DIGEST_PAGE;
  const u8 *out = page;
  if (s->nskip && rw_digest_skips(s, addr)) return NULL;
  for (u32 i = 0; i <= s->ndead; i++) {
    u64 lo = i ? s->dead[i - 1][0] : s->dead_lo;
    u64 hi = i ? s->dead[i - 1][1] : s->dead_hi;
    if (lo >= hi || hi <= addr || lo >= end) continue;
    if (lo <= addr && hi >= end) return NULL;
    if (out == page) {
      memcpy(buf, page, RW_DIGEST_PAGE);
      out = buf;
    }
    u64 a = RW_MAX(lo, addr), b = RW_MIN(hi, end);
    memset(buf + (a - addr), 0, (size_t)(b - a));
  }
  return out;
}

static int cmp_range(const void *x, const void *y) {
  const u64 *a = x, *b = y;
  return a[0] < b[0] ? -1 : a[0] > b[0];
}

/* Sorts the N ranges R, merges those that overlap or touch, then the
 * closest ones until at most MAX remain, into OUT; returns how many. */
static u32 merge_ranges(u64 (*r)[2], size_t n, u64 (*out)[2], size_t max) {
  size_t k = 0;
  if (n) qsort(r, n, sizeof *r, cmp_range);
  for (size_t i = 0; i < n; i++) {
    if (r[i][0] >= r[i][1]) continue;
    if (k && r[i][0] <= r[k - 1][1]) {
      r[k - 1][1] = RW_MAX(r[k - 1][1], r[i][1]);
    } else {
      r[k][0] = r[i][0];
      r[k][1] = r[i][1];
      k++;
    }
  }
  while (k > max) { /* merge across the smallest gap */
    size_t best = 0;
    for (size_t i = 1; i + 1 < k; i++)
      if (r[i + 1][0] - r[i][1] < r[best + 1][0] - r[best][1]) best = i;
    r[best][1] = r[best + 1][1];
    memmove(r + best + 1, r + best + 2, (k - best - 2) * sizeof *r);
    k--;
  }
  for (size_t i = 0; i < k; i++) {
    out[i][0] = r[i][0];
    out[i][1] = r[i][1];
  }
  return (u32)k;
}

void rw_digest_set_skips(struct rw_digest_spec *s, u64 (*r)[2], size_t n) {
  s->nskip = merge_ranges(r, n, s->skip, RW_DIGEST_SKIP_MAX);
}

void rw_digest_set_deads(struct rw_digest_spec *s, u64 (*r)[2], size_t n) {
  s->ndead = merge_ranges(r, n, s->dead, RW_DIGEST_DEAD_MAX);
}

u64 rw_digest_final(const struct rw_digest *d) {
  return rw_fmix64(d->h ^ d->n);
}

u64 rw_fmix64(u64 x) {
  x ^= x >> 33;
  x *= F1;
  x ^= x >> 33;
  x *= F2;
  x ^= x >> 33;
  return x;
}

u64 rw_digest_unfinal(u64 y) { /* x ^= x >> 33 is its own inverse */
  y ^= y >> 33;
  y *= inverse(F2);
  y ^= y >> 33;
  y *= inverse(F1);
  y ^= y >> 33;
  return y;
}

u64 rw_digest_unpage(u32 kind, u64 h, u64 addr, const u8 *page) {
  u64 k2inv = inverse(K2);
  if (kind == RW_DIGEST_LANES) {
    h = unmix(h, lanes(page), k2inv);
  } else {
    for (unsigned i = RW_DIGEST_PAGE; i >= 8; i -= 8)
      h = unmix(h, rd_le64(page + i - 8), k2inv);
  }
  return unmix(h, addr, k2inv);
}
