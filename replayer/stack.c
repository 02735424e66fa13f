/* SPDX-License-Identifier: MIT */
/* Stack growth in the replay. The kernel grows a grows-down mapping (the
 * main thread's [stack], a MAP_GROWSDOWN mapping) when something touches
 * the unmapped pages right below it, and no syscall says so. The replay
 * does the same thing at the same moments: when an instruction faults on
 * such a page, and when a MEM record (bytes the kernel wrote: a signal
 * frame, a syscall's output) lands on one. Whether the kernel grows the
 * mapping, or lets the access fault, depends on the rules recorded in
 * STACK_RULES; the rules as Linux applies them (mm/ expand_downwards and
 * acct_stack_growth, unchanged in substance through 6.x; x86 has not
 * compared the address with rsp since 4.20):
 *
 *  - only the mapping that comes first above the faulting address grows,
 *    and only when it is a grows-down one; it grows down to the page of
 *    the address, by whole pages;
 *  - that page must not lie below vm.mmap_min_addr;
 *  - the mapping below it, if any, must stay at least stack_guard_gap
 *    bytes away from the new bottom, unless it grows down itself or is
 *    inaccessible (PROT_NONE);
 *  - the grown mapping, from its new bottom to its end, must not be larger
 *    than the soft RLIMIT_STACK.
 *
 * Limits the replay does not know (RLIMIT_AS, RLIMIT_MEMLOCK for locked
 * stacks, overcommit, the memory cgroup) can refuse a growth these rules
 * allow: the recording then has a SIGSEGV where the replay runs on, which
 * is reported as a divergence, never passed over.
 *
 * GROW records are the recorder's view of the same growth, found when it
 * next compared /proc/PID/maps. The replay's mapping must not reach lower
 * (that would be an access the recording did not make); it may reach less
 * low, because the kernel also grows the stack when a syscall reads user
 * memory below it, which the replay does not see: those pages were never
 * written, and the replay maps them at the GROW. */
#include "replayer/rp_int.h"

#define RP_PAGE     CPU_PAGE_SIZE
#define RP_USER_END (1ull << 47)

/* For traces without STACK_RULES: no stack limit (the replay cannot know
 * the recording's, and an overflow there need not fault at the same
 * depth here), the kernel's default gap of 256 pages, the usual
 * mmap_min_addr. */
void rp__stack_defaults(struct rp__stack_rules *rules) {
  rules->rlimit = ~0ull;
  rules->guard_gap = 256ull * RP_PAGE;
  rules->min_addr = 65536;
}

/* The mapping that ends highest at or below ADDR, or NULL. */
static const struct rp__src *src_below(rp_replay *rp, u64 addr) {
  const struct rp__src *best = NULL;
  for (size_t i = 0; i < rp->proc->srcs.n; i++) {
    const struct rp__src *e = &rp->proc->srcs.v[i];
    if (e->end <= addr && (!best || e->end > best->end)) best = e;
  }
  return best;
}

/* Whether the last page of P can be accessed in the recording. Pages past
 * the end of a mapped file are inaccessible in the emulator only (they
 * raise SIGBUS), so their recorded protection counts. */
static int accessible(rp_replay *rp, const struct rp__src *p) {
  u64 last = p->end - RP_PAGE, start, len;
  int prot;
  if (cpu_mem_query(rp->proc->mem, last, &start, &len, &prot) < 0 ||
      start > last)
    return 0;
  if (prot == CPU_PROT_NONE && last >= p->eof) return (p->prot & 7) != 0;
  return prot != CPU_PROT_NONE;
}

int rp__stack_grow(rp_replay *rp, u64 addr, int *grew) {
  const struct rp__stack_rules *ru = &rp->proc->stack;
  u64 low = addr & ~(u64)(RP_PAGE - 1), start, len;
  int prot;
  *grew = 0;
  if (addr >= RP_USER_END ||
      cpu_mem_query(rp->proc->mem, addr, &start, &len, &prot) < 0 ||
      start <= addr)
    return 0; /* nothing above it, or it is mapped */
  struct rp__src *s = rp__src_at(rp->proc, start);
  if (!s || !s->growsdown || s->start != start) return 0;
  if (low < ru->min_addr) return 0;
  const struct rp__src *p = src_below(rp, addr);
  if (p && !p->growsdown && accessible(rp, p) && low - p->end < ru->guard_gap)
    return 0;
  /* The mapping's end: where its protection or its source changes (the
   * kernel merges neighbours that agree in both into one mapping). */
  u64 top = RW_MIN(start + len, s->end);
  if (ru->rlimit != ~0ull && top - low > ru->rlimit) return 0;
  RW_FORWARD(cpu_mem_map(rp->proc->mem, low, start - low, prot));
  s->offset = s->offset >= start - low ? s->offset - (start - low) : 0;
  s->start = low;
  *grew = 1;
  return 0;
}

int rp__apply_stack_rules(rp_replay *rp, const struct rp__rec *rec) {
  struct trace_rec_stack_rules s;
  RW_FORWARD(trace_rec_stack_rules_get(&s, rec->data, rec->len));
  rp->proc->stack.rlimit = s.rlimit;
  rp->proc->stack.guard_gap = s.guard_gap;
  rp->proc->stack.min_addr = s.min_addr;
  return 0;
}

int rp__apply_grow(rp_replay *rp, const struct rp__rec *rec, int *stopped) {
  struct trace_rec_grow g;
  struct rp_stop stop;
  RW_FORWARD(trace_rec_grow_get(&g, rec->data, rec->len));
  u64 a = g.addr, len = g.len;
  RW_RETURN_IF(!len || a % RP_PAGE || len % RP_PAGE || a >= RP_USER_END ||
                   len >= RP_USER_END - a,
               RW_ECORRUPT, "GROW of a bad range");
  u64 b = a + len;
  rp__note_recent(rp, rec, a, len);
  struct rp__src *s = rp__src_at(rp->proc, b);
  if (!s || !s->growsdown) {
    *stopped = 1;
    return rp__diverge(rp, &stop, NULL,
                       "the recorder found the stack (a grows-down mapping) "
                       "at %#llx grown down to %#llx, but the replay has no "
                       "grows-down mapping at %#llx",
                       (unsigned long long)b, (unsigned long long)a,
                       (unsigned long long)b);
  }
  if (s->start < a) {
    *stopped = 1;
    return rp__diverge(rp, &stop, NULL,
                       "the replay grew the stack at %#llx down to %#llx, "
                       "but the recording's reaches only %#llx",
                       (unsigned long long)s->end, (unsigned long long)s->start,
                       (unsigned long long)a);
  }
  if (s->start == a) return 0;
  /* Grown by the kernel reading below the stack: pages never written. */
  u64 start, mlen;
  int prot;
  if (cpu_mem_query(rp->proc->mem, a, &start, &mlen, &prot) < 0 ||
      start < s->start) {
    *stopped = 1;
    return rp__diverge(rp, &stop, NULL,
                       "the recording's stack grew down to %#llx, but the "
                       "replay has another mapping at %#llx below it",
                       (unsigned long long)a, (unsigned long long)start);
  }
  RW_FORWARD(cpu_mem_query(rp->proc->mem, s->start, &start, &mlen, &prot));
  RW_FORWARD(cpu_mem_map(rp->proc->mem, a, s->start - a, prot));
  s->offset = s->offset >= s->start - a ? s->offset - (s->start - a) : 0;
  s->start = a;
  return 0;
}
