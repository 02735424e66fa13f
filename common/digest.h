/* SPDX-License-Identifier: MIT */
/* The memory digest of an asynchronous point (DESIGN.md section 2): a 64-bit
 * hash over the contents of every writable page, which the recorder writes in
 * PREEMPT records and the replayer computes over its own memory to find the
 * same instant again. The definition below is part of the trace format. */
#ifndef RW_COMMON_DIGEST_H
#define RW_COMMON_DIGEST_H

#include "rw.h"

/* Page size the digest is defined over. */
#define RW_DIGEST_PAGE 4096u

/* The digest, exactly (so that two implementations agree):
 *
 *   mix(h, w) = rotl64(h ^ (w * K1), 31) * K2
 *     K1 = 0x87c37b91114253d5, K2 = 0x4cf5ad432745937f (mod 2^64)
 *   h = 0x6a09e667f3bcc908
 *   for every page P that is mapped with write permission (PROT_WRITE,
 *   whatever else it has), in increasing address order, skipping pages whose
 *   bytes are all zero and pages that cannot be read (a file mapping past
 *   the end of its file):
 *     h = mix(h, address of P)
 *     for each of the 512 little-endian u64 words w of P, in order:
 *       h = mix(h, w)
 *     n = n + 1
 *   digest = fmix(h ^ n), where fmix(x) is x ^= x >> 33; x *= 0xff51afd7ed558ccd;
 *   x ^= x >> 33; x *= 0xc4ceb9fe1a85ec53; x ^= x >> 33.
 *
 * Mapping boundaries do not matter: only pages, their addresses and bytes.
 * Skipping zero pages lets both sides ignore untouched reserved memory.
 *
 * That is the digest of kind RW_DIGEST_CHAIN, every trace's until format
 * 1.10. Its one chain of dependent multiplies runs at about 2 GB/s, which
 * made a preemption point cost tens of milliseconds in a program with a
 * large heap. Since format 1.10 a trace says in its metadata "digest"
 * which kind its digests are (absent: RW_DIGEST_CHAIN), and rewind writes
 * RW_DIGEST_LANES, the same but for the step of each page:
 *     l[j] = mix(SEED + j, 0) for j = 0..3
 *     for each i = 0..511: l[i % 4] = mix(l[i % 4], w[i])
 *     h = mix(mix(h, address of P), mix(mix(mix(l[0], l[1]), l[2]), l[3]))
 * where w[i] are the page's little-endian u64 words and SEED is
 * 0x510e527fade682d1. The four lanes are independent, so the processor
 * runs them side by side; the step stays invertible in h.
 *
 * Since format 1.3 a digest may name a dead range [lo, hi): the bytes there
 * count as zeros (so a page wholly inside it is skipped). The recorder
 * names the part of the stopped thread's stack below its red zone, which
 * holds nothing the program may rely on, but does hold bytes the replay
 * cannot reproduce: the XSAVE header the dynamic linker's lazy-binding
 * trampoline writes says which register components the processor counted
 * as in use, a choice the architecture leaves to each implementation.
 *
 * Since format 1.5 a digest may also name ranges of memory it leaves out:
 * a page whose address lies in [lo, hi) of one of them is skipped, like a
 * page of zeros. The recorder names the shared memory it watches because
 * a process it does not record can write there at any moment
 * (recorder/watch.c): what such a process wrote is imported at the next
 * event of the program, so the memory at an asynchronous point holds bytes
 * the replay gets only after the point.
 *
 * Since format 1.12 a digest may name up to RW_DIGEST_DEAD_MAX more dead
 * ranges, byte for byte like the first: the recorder names the dead stacks
 * of the process's other threads, which hold the same unreproducible
 * headers for as long as those threads do not run, and those of threads
 * that ended, whose stacks glibc keeps for its next threads. */

/* The kinds of digest (above). */
#define RW_DIGEST_CHAIN 0
#define RW_DIGEST_LANES 1

/* At most this many left-out ranges per digest (the recorder merges the
 * closest ones until they fit). */
#define RW_DIGEST_SKIP_MAX 32
/* And at most this many further dead ranges (since format 1.12). */
#define RW_DIGEST_DEAD_MAX 32

/* What a digest leaves out: the dead range [dead_lo, dead_hi) (none when
 * dead_lo >= dead_hi) and NDEAD more, and the pages of NSKIP ranges [skip[i][0],
 * skip[i][1]). Plain data. */
struct rw_digest_spec {
  u64 dead_lo, dead_hi;
  u32 nskip;
  u64 skip[RW_DIGEST_SKIP_MAX][2];
  u32 ndead; /* further dead ranges [dead[i][0], dead[i][1]), sorted */
  u64 dead[RW_DIGEST_DEAD_MAX][2];
  u32 kind; /* RW_DIGEST_CHAIN or RW_DIGEST_LANES (the trace's) */
};

/* Running state. Plain data. */
struct rw_digest {
  u64 h;    /* running hash */
  u64 n;    /* pages hashed so far */
  u32 kind; /* RW_DIGEST_CHAIN or RW_DIGEST_LANES */
};

/* Starts an empty digest of kind RW_DIGEST_CHAIN. */
void rw_digest_init(struct rw_digest *d);
/* Starts an empty digest of KIND. */
void rw_digest_start(struct rw_digest *d, u32 kind);

/* Adds the writable page at ADDR (a multiple of RW_DIGEST_PAGE) with the
 * RW_DIGEST_PAGE bytes at PAGE (borrowed); a page of zeros is skipped here,
 * as the definition says. Pages must come in increasing address order. */
void rw_digest_page(struct rw_digest *d, u64 addr, const u8 *page);

/* For a caller that keeps what pages contribute (recorder/wp.c), with a
 * digest of kind RW_DIGEST_LANES: whether PAGE is all zeros (the digest
 * leaves it out), what it contributes otherwise, and adding a non-zero
 * page at ADDR by that value alone; rw_digest_page(d, addr, page) is
 * rw_digest_add(d, addr, rw_digest_lanes(page)) for such a page. */
int rw_digest_zero(const u8 *page);
u64 rw_digest_lanes(const u8 *page);
void rw_digest_add(struct rw_digest *d, u64 addr, u64 lanes);

/* The bytes of the page at ADDR (RW_DIGEST_PAGE of them at PAGE) as a
 * digest with spec S sees them: PAGE itself when every dead range misses
 * the page, NULL when the page counts as zeros (a dead range covers it, or a
 * left-out range holds it), else BUF (RW_DIGEST_PAGE bytes, caller-owned)
 * holding a copy with the dead bytes zeroed. */
const u8 *rw_digest_view(const struct rw_digest_spec *s, u64 addr,
                         const u8 *page, u8 *buf);

/* Whether spec S leaves the page at ADDR out. */
int rw_digest_skips(const struct rw_digest_spec *s, u64 addr);

/* Sorts the N ranges R[i][0..1] and merges those that overlap or touch,
 * then the closest ones until at most RW_DIGEST_SKIP_MAX remain, into
 * S's left-out ranges. R is reordered. */
void rw_digest_set_skips(struct rw_digest_spec *s, u64 (*r)[2], size_t n);
/* The same for S's further dead ranges (at most RW_DIGEST_DEAD_MAX). */
void rw_digest_set_deads(struct rw_digest_spec *s, u64 (*r)[2], size_t n);

/* Returns the digest of the pages added so far (D is left unchanged). */
u64 rw_digest_final(const struct rw_digest *d);

/* The 64-bit finalizer above on its own: a bijection that spreads every
 * bit of X over the result (hash tables keyed by addresses use it). */
u64 rw_fmix64(u64 x);

/* Every step of the digest can be undone, so a search can work backwards
 * from a recorded digest instead of rehashing the pages after a change. */
/* The value h ^ n that rw_digest_final turned into DIGEST. */
u64 rw_digest_unfinal(u64 digest);
/* The running hash before the page at ADDR with bytes PAGE (not all zero)
 * that rw_digest_page turned into H, for a digest of KIND. */
u64 rw_digest_unpage(u32 kind, u64 h, u64 addr, const u8 *page);

#endif /* RW_COMMON_DIGEST_H */
