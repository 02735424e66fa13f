/* SPDX-License-Identifier: MIT */
/* The software TLB's slow side: fills on a miss, accesses that cross a
 * page, pages kept out of the TLB (watched ranges, pages holding decoded code
 * for writes), instruction fetch, and the watchpoint bookkeeping. The hit
 * path is inline in cpu_int.h. Page ownership is mem.c's. */
#include <stdlib.h>

#include "replayer/cpu/cpu_int.h"

#define CANON_LIMIT (1ull << 47)

void cpu__tlb_flush(struct cpu *cpu) {
  for (unsigned i = 0; i < CPU_TLB_SIZE; i++) {
    cpu->tlb_r[i].page = CPU_TLB_EMPTY;
    cpu->tlb_w[i].page = CPU_TLB_EMPTY;
    cpu->tlb_x[i].page = CPU_TLB_EMPTY;
  }
  for (unsigned i = 0; i < CPU_OTLB_SIZE; i++)
    cpu->otlb_r[i].page = cpu->otlb_w[i].page = CPU_TLB_EMPTY;
}

void cpu__tlb_flush_page(struct cpu *cpu, u64 page) {
  unsigned i = (page >> 12) & (CPU_TLB_SIZE - 1);
  unsigned o = (page >> 12) & (CPU_OTLB_SIZE - 1);
  if (cpu->tlb_r[i].page == page) cpu->tlb_r[i].page = CPU_TLB_EMPTY;
  if (cpu->tlb_w[i].page == page) cpu->tlb_w[i].page = CPU_TLB_EMPTY;
  if (cpu->tlb_x[i].page == page) cpu->tlb_x[i].page = CPU_TLB_EMPTY;
  if (cpu->otlb_r[o].page == page) cpu->otlb_r[o].page = CPU_TLB_EMPTY;
  if (cpu->otlb_w[o].page == page) cpu->otlb_w[o].page = CPU_TLB_EMPTY;
}

void cpu__mem_tlb_shootdown(struct cpu_mem *mem, u64 page) {
  for (struct cpu *c = mem->cpus; c; c = c->mem_next) {
    if (page == ~(u64)0)
      cpu__tlb_flush(c);
    else
      cpu__tlb_flush_page(c, page);
  }
}

int cpu__watch_on_page(const struct cpu_mem *mem, u64 page, int kind) {
  for (size_t i = 0; i < mem->nwatch; i++) {
    const struct cpu__watch *w = &mem->watches[i];
    if ((w->kind & kind) && w->addr < page + CPU_PAGE_SIZE &&
        w->addr + w->len > page)
      return 1;
  }
  return 0;
}

int cpu__watch_hits(const struct cpu_mem *mem, u64 a, u64 n, int kind) {
  for (size_t i = 0; i < mem->nwatch; i++) {
    const struct cpu__watch *w = &mem->watches[i];
    if ((w->kind & kind) && w->addr < a + n && w->addr + w->len > a) return 1;
  }
  return 0;
}

/* Whether PAGE holds some of MEM's observed range. */
static int observed_page(const struct cpu_mem *mem, u64 page) {
  return mem->obs_len && mem->obs_addr < page + CPU_PAGE_SIZE &&
         mem->obs_addr + mem->obs_len > page;
}

/* Tells CPU's observer about an access of N bytes at A (done) when it
 * overlaps the observed range. */
static void observe(struct cpu *cpu, u64 a, unsigned n, int write) {
  const struct cpu_mem *m = cpu->mem;
  if (m->obs_addr < a + n && m->obs_addr + m->obs_len > a &&
      cpu->obs.on_access)
    cpu->obs.on_access(cpu->obs.ctx, cpu, a, n, write);
}

void cpu_mem_rep_stops(cpu_mem *mem, int mode) { mem->rep_stops = mode; }

void cpu_mem_observe(cpu_mem *mem, u64 addr, u64 len) {
  if (mem->obs_addr == addr && mem->obs_len == len) return;
  mem->obs_addr = addr;
  mem->obs_len = addr + len < addr ? 0 : len;
  cpu__mem_tlb_shootdown(mem, ~(u64)0);
}

/* The fault for an access of KIND at A that cannot proceed. */
static int fault_at(struct cpu *cpu, u64 a, int kind, int why) {
  if (why == RW_ENOMEM) return RW_ENOMEM;
  return cpu__fault_pf(cpu, a, kind, why == RW_ENOTFOUND);
}

/* Resolves the page of A for KIND into a host pointer to A, filling the TLB
 * when the page may be cached; a write is of N bytes there, on this page.
 * Returns 0 or a fault code. */
static int translate(struct cpu *cpu, u64 a, int kind, unsigned n,
                     u8 **host) {
  u64 page = a & ~(u64)4095;
  u8 *h;
  int rc;
  /* Non-canonical addresses raise #GP; kernel-half addresses fault too.
   * On AMD Linux reports both with si_addr 0 (measured by tests/cpu/diffcpu),
   * so both are #GP there; on Intel (no LASS) a canonical kernel-half
   * address is a page fault that names it. */
  if (RW_UNLIKELY(a >= CANON_LIMIT)) {
    if (a >= 0xffff800000000000ull && cpu->cfg.vendor != CPU_VENDOR_AMD)
      return cpu__fault_pf(cpu, a, kind, 1); /* SEGV_MAPERR */
    return cpu__fault(cpu, CPU_FAULT_GP);
  }
  rc = cpu__mem_page(cpu->mem, page, kind, &h);
  if (rc) return fault_at(cpu, a, kind, rc);
  *host = h + (a & 4095);
  {
    unsigned i = (page >> 12) & (CPU_TLB_SIZE - 1);
    uintptr_t addend = (uintptr_t)h - (uintptr_t)page;
    unsigned o = (page >> 12) & (CPU_OTLB_SIZE - 1);
    if (kind == CPU_ACCESS_WRITE) {
      /* Writes to a page with decoded code drop the code first. */
      if (cpu__code_on_page(cpu->mem, page))
        cpu__code_invalidate(cpu->mem, page);
      int cache = !cpu__watch_on_page(cpu->mem, page, CPU_WATCH_WRITE) &&
                  !(cpu->mem->nalias && cpu__alias_on_page(cpu->mem, page));
      /* The TLB takes a page's writes only when its line record lets it. */
      if (cpu__mem_lines(cpu->mem, h, a, n, cache) && cache) {
        if (!observed_page(cpu->mem, page))
          cpu->tlb_w[i] = (struct cpu_tlbe){page, addend};
        else
          cpu->otlb_w[o] = (struct cpu_tlbe){page, addend};
      }
    } else if (kind == CPU_ACCESS_READ) {
      if (!cpu__watch_on_page(cpu->mem, page, CPU_WATCH_READ)) {
        if (!observed_page(cpu->mem, page))
          cpu->tlb_r[i] = (struct cpu_tlbe){page, addend};
        else
          cpu->otlb_r[o] = (struct cpu_tlbe){page, addend};
      }
    } else {
      cpu->tlb_x[i] = (struct cpu_tlbe){page, addend};
    }
  }
  return 0;
}

/* Records a watched access in watch mode (first one wins). */
static void watch_record(struct cpu *cpu, u64 a, unsigned n, int kind,
                         const void *old, const void *new) {
  if (cpu->watch_hit) return;
  cpu->watch_hit = 1;
  cpu->exit.watch_addr = a;
  cpu->exit.watch_size = n;
  cpu->exit.watch_kind = kind;
  memcpy(cpu->exit.watch_old, old, RW_MIN(n, 16u));
  if (new) memcpy(cpu->exit.watch_new, new, RW_MIN(n, 16u));
}

/* The observed-range TLB T's host address of [A, A+N), or NULL. */
static u8 *otlb_hit(const struct cpu_tlbe *t, u64 a, unsigned n) {
  const struct cpu_tlbe *e = &t[(a >> 12) & (CPU_OTLB_SIZE - 1)];
  if (cpu__tlb_match(e, a, n)) return (u8 *)(uintptr_t)(a + e->addend);
  return NULL;
}

int cpu__ld_slow(struct cpu *cpu, u64 a, void *buf, unsigned n) {
  u8 *h1, *h2 = NULL;
  unsigned n1 = RW_MIN(n, 4096 - (unsigned)(a & 4095));
  int watched;
  cpu->last_read = (struct cpu_access){a, n};
  if (cpu->mem->obs_len && (h1 = otlb_hit(cpu->otlb_r, a, n))) {
    memcpy(buf, h1, n);
    observe(cpu, a, n, 0);
    return 0;
  }
  CPU_TRY(translate(cpu, a, CPU_ACCESS_READ, 0, &h1));
  if (n1 < n) {
    /* Page-crossing (or larger than a page: fxsave areas are at most 4 KB
     * here, so two pages always suffice). */
    RW_ASSERT(n - n1 <= 4096);
    CPU_TRY(translate(cpu, a + n1, CPU_ACCESS_READ, 0, &h2));
  }
  watched = cpu->mem->nwatch && cpu__watch_hits(cpu->mem, a, n, CPU_WATCH_READ);
  if (watched && !cpu->watch_mode) return CPU_RC_WATCH;
  memcpy(buf, h1, n1);
  if (h2) memcpy((u8 *)buf + n1, h2, n - n1);
  if (watched) watch_record(cpu, a, n, CPU_WATCH_READ, buf, NULL);
  if (RW_UNLIKELY(cpu->mem->obs_len)) observe(cpu, a, n, 0);
  return 0;
}

int cpu__st_slow(struct cpu *cpu, u64 a, const void *buf, unsigned n) {
  u8 *h1, *h2 = NULL;
  unsigned n1 = RW_MIN(n, 4096 - (unsigned)(a & 4095));
  int watched;
  u8 old[16];
  cpu->last_write = (struct cpu_access){a, n};
  if (cpu->mem->obs_len && (h1 = otlb_hit(cpu->otlb_w, a, n))) {
    memcpy(h1, buf, n);
    observe(cpu, a, n, 1);
    return 0;
  }
  /* Both pages are checked before any byte is written. */
  CPU_TRY(translate(cpu, a, CPU_ACCESS_WRITE, n1, &h1));
  if (n1 < n) {
    RW_ASSERT(n - n1 <= 4096);
    CPU_TRY(translate(cpu, a + n1, CPU_ACCESS_WRITE, n - n1, &h2));
    /* The second translation may have replaced the first page (a private
     * copy made for it is stable; a code drop does not move pages). */
  }
  watched =
      cpu->mem->nwatch && cpu__watch_hits(cpu->mem, a, n, CPU_WATCH_WRITE);
  if (watched && !cpu->watch_mode) return CPU_RC_WATCH;
  if (watched) {
    unsigned k = RW_MIN(n, 16u), k1 = RW_MIN(k, n1);
    memcpy(old, h1, k1);
    if (k > k1) memcpy(old + k1, h2, k - k1);
  }
  memcpy(h1, buf, n1);
  if (h2) memcpy(h2, (const u8 *)buf + n1, n - n1);
  if (watched) watch_record(cpu, a, n, CPU_WATCH_WRITE, old, buf);
  if (RW_UNLIKELY(cpu->mem->nalias)) {
    int rc = cpu__alias_write(cpu->mem, a, buf, n);
    if (rc) return rc;
  }
  if (RW_UNLIKELY(cpu->mem->obs_len)) observe(cpu, a, n, 1);
  return 0;
}

struct cpu__ldv cpu__ld_slow_int(struct cpu *cpu, u64 a, unsigned n) {
  u64 v = 0; /* little-endian host: the low N bytes are the value */
  int rc = cpu__ld_slow(cpu, a, &v, n);
  return (struct cpu__ldv){rc ? 0 : v, rc};
}

int cpu__st_slow_int(struct cpu *cpu, u64 a, u64 v, unsigned n) {
  return cpu__st_slow(cpu, a, &v, n);
}

unsigned cpu__fetch(struct cpu *cpu, u64 a, u8 *buf, unsigned n) {
  unsigned got = 0;
  while (got < n) {
    u64 x = a + got;
    unsigned i = (x >> 12) & (CPU_TLB_SIZE - 1);
    unsigned k = RW_MIN(n - got, 4096 - (unsigned)(x & 4095));
    const u8 *h;
    if (cpu->tlb_x[i].page == (x & ~(u64)4095)) {
      h = (const u8 *)(uintptr_t)(x + cpu->tlb_x[i].addend);
    } else {
      u8 *hh;
      if (translate(cpu, x, CPU_ACCESS_EXEC, 0, &hh)) break;
      h = hh;
    }
    memcpy(buf + got, h, k);
    got += k;
  }
  return got;
}

/* ---- Watchpoint and breakpoint lists ------------------------------------ */

int cpu_mem_watch_add(cpu_mem *mem, u64 addr, u64 len, int kind) {
  RW_RETURN_IF(!len || !(kind & (CPU_WATCH_READ | CPU_WATCH_WRITE)), RW_EINVAL,
               "watch of %llu bytes", (unsigned long long)len);
  if (mem->nwatch == mem->capwatch) {
    size_t cap = mem->capwatch ? mem->capwatch * 2 : 8;
    struct cpu__watch *w = realloc(mem->watches, cap * sizeof *w);
    if (!w) return RW_ENOMEM;
    mem->watches = w;
    mem->capwatch = cap;
  }
  mem->watches[mem->nwatch++] = (struct cpu__watch){addr, len, kind};
  cpu__mem_tlb_shootdown(mem, ~(u64)0);
  return 0;
}

int cpu_mem_watch_del(cpu_mem *mem, u64 addr, u64 len, int kind) {
  for (size_t i = 0; i < mem->nwatch; i++) {
    struct cpu__watch *w = &mem->watches[i];
    if (w->addr == addr && w->len == len && w->kind == kind) {
      *w = mem->watches[--mem->nwatch];
      cpu__mem_tlb_shootdown(mem, ~(u64)0);
      return 0;
    }
  }
  return RW_ENOTFOUND;
}

/* Index of the first breakpoint >= ADDR. */
static size_t bp_find(const struct cpu_mem *mem, u64 addr) {
  size_t lo = 0, hi = mem->nbps;
  while (lo < hi) {
    size_t mid = (lo + hi) / 2;
    if (mem->bps[mid] < addr)
      lo = mid + 1;
    else
      hi = mid;
  }
  return lo;
}

int cpu__break_at(const struct cpu_mem *mem, u64 addr) {
  size_t i = bp_find(mem, addr);
  return i < mem->nbps && mem->bps[i] == addr;
}

static void drop_code_around(struct cpu_mem *mem, u64 addr) {
  /* Blocks containing ADDR start on its page or, for an instruction that
   * straddles, end on it; both are chained on ADDR's page. A block that
   * starts on the previous page can also reach into it. */
  u64 page = addr & ~(u64)4095;
  cpu__code_invalidate(mem, page);
  if (page) cpu__code_invalidate(mem, page - 4096);
}

int cpu_mem_break_add(cpu_mem *mem, u64 addr) {
  size_t i = bp_find(mem, addr);
  if (i < mem->nbps && mem->bps[i] == addr) return 0;
  if (mem->nbps == mem->capbps) {
    size_t cap = mem->capbps ? mem->capbps * 2 : 16;
    u64 *b = realloc(mem->bps, cap * sizeof *b);
    if (!b) return RW_ENOMEM;
    mem->bps = b;
    mem->capbps = cap;
  }
  memmove(&mem->bps[i + 1], &mem->bps[i], (mem->nbps - i) * sizeof(u64));
  mem->bps[i] = addr;
  mem->nbps++;
  drop_code_around(mem, addr);
  return 0;
}

int cpu_mem_break_del(cpu_mem *mem, u64 addr) {
  size_t i = bp_find(mem, addr);
  if (i >= mem->nbps || mem->bps[i] != addr) return RW_ENOTFOUND;
  memmove(&mem->bps[i], &mem->bps[i + 1], (mem->nbps - i - 1) * sizeof(u64));
  mem->nbps--;
  drop_code_around(mem, addr);
  return 0;
}
