/* SPDX-License-Identifier: MIT */
/* The memory digest defined in common/digest.h, shared by the recorder (which
 * writes it into PREEMPT records) and the replayer (which recomputes it). It
 * hashes bytes only; finding the writable pages is the caller's business. */
#include <string.h>

#include "digest.h"
#include "endian.h"

#define K1 0x87c37b91114253d5ull
#define K2 0x4cf5ad432745937full

static inline u64 rotl64(u64 x, int r) { return (x << r) | (x >> (64 - r)); }

static inline u64 mix(u64 h, u64 w) { return rotl64(h ^ (w * K1), 31) * K2; }

void rw_digest_init(struct rw_digest *d) {
  d->h = 0x6a09e667f3bcc908ull;
  d->n = 0;
}

void rw_digest_page(struct rw_digest *d, u64 addr, const u8 *page) {
  static const u8 zero[RW_DIGEST_PAGE];
  if (!memcmp(page, zero, RW_DIGEST_PAGE)) return; /* not part of it */
  u64 h = mix(d->h, addr);
  for (unsigned i = 0; i < RW_DIGEST_PAGE; i += 8) h = mix(h, rd_le64(page + i));
  d->h = h;
  d->n++;
}

u64 rw_digest_final(const struct rw_digest *d) {
  u64 x = d->h ^ d->n;
  x ^= x >> 33;
  x *= 0xff51afd7ed558ccdull;
  x ^= x >> 33;
  x *= 0xc4ceb9fe1a85ec53ull;
  x ^= x >> 33;
  return x;
}
