/* SPDX-License-Identifier: MIT */
/* The memory digest of common/digest.h over the replay's address space, and
 * the question a PREEMPT search asks at every arrival at the recorded rip
 * with the recorded registers: is the digest now the recorded one? A digest
 * is a pass over every writable page, and a loop whose iterations differ
 * only in memory arrives there at every iteration. So the first question of
 * a search keeps the chain state before every page, the emulator tracks the
 * pages written since, and a later question hashes only the pages from the
 * lowest written one to the highest; the pages after those are accounted
 * for by going backwards from the recorded digest (every step of the chain
 * can be inverted), once per search. The digest's definition is unchanged:
 * only how much of it is recomputed. Pages never written since they were
 * mapped are zeros, which the digest leaves out, so every pass walks only
 * the pages that hold bytes (cpu_mem_next_data): a terabyte reserved costs
 * nothing. */
#include <stdlib.h>
#include <string.h>

#include "common/digest.h"
#include "common/endian.h"
#include "replayer/rp_int.h"

#define RP_USER_END (1ull << 47)

static const u8 zero_page[RW_DIGEST_PAGE];

/* The bytes of the page at A as a digest with spec S sees them, read in
 * place where its dead range misses the page (BUF: room for a copy); NULL
 * for zeros: a page never written is zeros, which the digest skips, so it
 * costs nothing (thread stacks are mostly such pages). */
static int view(rp_replay *rp, u64 a, const struct rw_digest_spec *s,
                u8 *buf, const u8 **out) {
  const u8 *p;
  RW_FORWARD(cpu_mem_peek(rp->proc->mem, a, &p));
  *out = p ? rw_digest_view(s, a, p, buf) : NULL;
  return 0;
}

/* Adds the page at A to D. */
static int add_page(rp_replay *rp, struct rw_digest *d, u64 a,
                    const struct rw_digest_spec *s) {
  u8 buf[RW_DIGEST_PAGE];
  const u8 *p;
  RW_FORWARD(view(rp, a, s, buf, &p));
  if (p) rw_digest_page(d, a, p);
  return 0;
}

/* The next writable page at or above *AT that holds bytes, up to END: its
 * address in *PAGE, and *AT moved past it. Returns 1 when there is one. */
static int next_writable(rp_replay *rp, u64 *at, u64 end, u64 *page) {
  const u8 *bytes;
  int prot;
  while (*at < end &&
         cpu_mem_next_data(rp->proc->mem, *at, page, &prot, &bytes) == 0 &&
         *page < end) {
    *at = *page + RW_DIGEST_PAGE;
    if (prot & CPU_PROT_WRITE) return 1;
  }
  return 0;
}

int rp__digest(rp_replay *rp, const struct rw_digest_spec *spec, u64 *out) {
  struct rw_digest d;
  u64 at = 0, page;
  rw_digest_start(&d, spec->kind);
  while (next_writable(rp, &at, RP_USER_END, &page))
    RW_FORWARD(add_page(rp, &d, page, spec));
  *out = rw_digest_final(&d);
  return 0;
}

static int grow(struct rp__dcache *dc, size_t n) {
  if (n <= dc->cap) return 0;
  size_t cap = RW_MAX(n, 2 * dc->cap);
  u64 *a = realloc(dc->addr, cap * sizeof *a);
  if (a) dc->addr = a;
  u64 *h = realloc(dc->fh, cap * sizeof *h);
  if (h) dc->fh = h;
  u64 *c = realloc(dc->fn, cap * sizeof *c);
  if (c) dc->fn = c;
  u64 *b = realloc(dc->bh, cap * sizeof *b);
  if (b) dc->bh = b;
  size_t *z = realloc(dc->nz, cap * sizeof *z);
  if (z) dc->nz = z;
  RW_RETURN_IF(!a || !h || !c || !b || !z, RW_ENOMEM, "digest cache");
  dc->cap = cap;
  return 0;
}

/* Computes the digest, keeping the chain state before every writable
 * page that holds bytes, and starts tracking the pages written from here
 * on. */
static int build(rp_replay *rp, u64 target) {
  struct rp__dcache *dc = &rp->search.dc;
  struct rw_digest d;
  u64 at = 0, a;
  dc->valid = 0;
  cpu_mem_dirty_start(rp->proc->mem);
  rw_digest_start(&d, rp->search.pre_spec.kind);
  dc->n = dc->nnz = 0;
  while (next_writable(rp, &at, RP_USER_END, &a)) {
    RW_FORWARD(grow(dc, dc->n + 2));
    dc->addr[dc->n] = a;
    dc->fh[dc->n] = d.h;
    dc->fn[dc->n] = d.n;
    RW_FORWARD(add_page(rp, &d, a, &rp->search.pre_spec));
    if (d.n != dc->fn[dc->n]) dc->nz[dc->nnz++] = dc->n;
    dc->n++;
  }
  RW_FORWARD(grow(dc, dc->n + 1));
  dc->fh[dc->n] = d.h;
  dc->fn[dc->n] = d.n;
  dc->full = rw_digest_final(&d);
  dc->target = target;
  dc->seq = rp->search.pre_seq;
  dc->events = rp->trace.events;
  dc->restores = rp->tl.restores;
  dc->have_b = 0;
  dc->valid = 1;
  return 0;
}

/* The chain state each page boundary needs for the digest to be the
 * target, the pages after it being as they were at the build: true from
 * boundary B on, the pages from B on being unwritten since (the states
 * below B use today's bytes, and a later question's B is never lower:
 * what was written since the build only grows until the next build). */
static int backward(rp_replay *rp, size_t b) {
  struct rp__dcache *dc = &rp->search.dc;
  int checked = 0;
  dc->bh[dc->n] = rw_digest_unfinal(dc->target) ^ dc->fn[dc->n];
  for (size_t i = dc->n; i-- > 0;) {
    u8 buf[RW_DIGEST_PAGE];
    const u8 *p;
    RW_FORWARD(view(rp, dc->addr[i], &rp->search.pre_spec, buf, &p));
    if (!p || !memcmp(p, zero_page, RW_DIGEST_PAGE)) {
      dc->bh[i] = dc->bh[i + 1];
      continue;
    }
    u32 kind = rp->search.pre_spec.kind;
    dc->bh[i] = rw_digest_unpage(kind, dc->bh[i + 1], dc->addr[i], p);
    if (!checked && i >= b) { /* the inverse undoes the forward chain,
                                 where the page is as it was then */
      RW_ASSERT(rw_digest_unpage(kind, dc->fh[i + 1], dc->addr[i], p) ==
                dc->fh[i]);
      checked = 1;
    }
  }
  dc->have_b = 1;
  return 0;
}

static int cmp_u64(const void *x, const void *y) {
  u64 a = *(const u64 *)x, b = *(const u64 *)y;
  return a < b ? -1 : a > b;
}

/* The first index whose page is at or above ADDR. */
static size_t lower(const struct rp__dcache *dc, u64 addr) {
  size_t lo = 0, hi = dc->n;
  while (lo < hi) {
    size_t mid = lo + (hi - lo) / 2;
    if (dc->addr[mid] < addr)
      lo = mid + 1;
    else
      hi = mid;
  }
  return lo;
}

int rp__digest_match(rp_replay *rp, u64 target, int *match, int *since) {
  struct rp__dcache *dc = &rp->search.dc;
  const struct rw_digest_spec *spec = &rp->search.pre_spec;
  u64 lo, hi;
  *match = 0;
  *since = RP_DIGEST_CHANGED;
  int dirty = cpu_mem_dirty_span(rp->proc->mem, &lo, &hi);
  if (!dc->valid || dc->target != target || dc->seq != rp->search.pre_seq ||
      dc->events != rp->trace.events || dc->restores != rp->tl.restores ||
      (dirty && lo == 0 && hi == ~(u64)0)) {
    RW_FORWARD(build(rp, target));
    *match = dc->full == target;
    *since = RP_DIGEST_BUILT;
    return 0;
  }
  if (!dirty) *since = RP_DIGEST_SAME;
  size_t a = dirty ? lower(dc, lo) : 0;
  size_t b = dirty ? lower(dc, hi + 1) : 0;
  struct rw_digest d = {dc->fh[a], dc->fn[a], spec->kind};
  const u64 *dp;
  size_t nd = dirty ? cpu_mem_dirty_pages(rp->proc->mem, &dp) : 0;
  if (nd <= CPU_DIRTY_MAX) {
    /* The chain from page A on, over the pages that may hold bytes now:
     * those written since (writable ones; a page written for the first
     * time is not in the list) and, between them, those that were not
     * zero (the others still are, and the digest skips them). */
    u64 pages[CPU_DIRTY_MAX];
    size_t k = 0;
    for (size_t j = 0; j < nd; j++) {
      int prot = cpu_mem_page_prot(rp->proc->mem, dp[j]);
      if (prot >= 0 && (prot & CPU_PROT_WRITE)) pages[k++] = dp[j];
    }
    if (!k) { /* no writable page changed */
      *match = dc->full == target;
      return 0;
    }
    qsort(pages, k, sizeof *pages, cmp_u64);
    size_t lz = 0, hz = dc->nnz; /* the first non-zero page at or past a */
    while (lz < hz) {
      size_t mid = lz + (hz - lz) / 2;
      if (dc->nz[mid] < a)
        lz = mid + 1;
      else
        hz = mid;
    }
    for (size_t j = 0, z = lz;;) {
      u64 page;
      int in_z = z < dc->nnz && dc->nz[z] < b;
      if (j < k && (!in_z || pages[j] <= dc->addr[dc->nz[z]])) {
        page = pages[j++];
        if (in_z && dc->addr[dc->nz[z]] == page) z++;
      } else if (in_z) {
        page = dc->addr[dc->nz[z++]];
      } else {
        break;
      }
      RW_FORWARD(add_page(rp, &d, page, spec));
    }
  } else {
    /* Too many written to list: every page that holds bytes from the
     * lowest written one to the highest. */
    u64 at = lo, page;
    while (next_writable(rp, &at, hi + 1, &page))
      RW_FORWARD(add_page(rp, &d, page, spec));
  }
  if (d.n == dc->fn[b]) {
    if (!dc->have_b) RW_FORWARD(backward(rp, b));
    *match = d.h == dc->bh[b];
    return 0;
  }
  /* A page became zero or stopped being zero: finish the pass. */
  for (size_t i = b; i < dc->n; i++)
    RW_FORWARD(add_page(rp, &d, dc->addr[i], spec));
  *match = rw_digest_final(&d) == target;
  return 0;
}

void rp__digest_drop(rp_replay *rp) {
  if (rp->search.dc.valid) cpu_mem_dirty_stop(rp->proc->mem);
  rp->search.dc.valid = 0;
}

void rp__digest_free(rp_replay *rp) {
  struct rp__dcache *dc = &rp->search.dc;
  free(dc->addr);
  free(dc->fh);
  free(dc->fn);
  free(dc->bh);
  free(dc->nz);
  memset(dc, 0, sizeof *dc);
}
