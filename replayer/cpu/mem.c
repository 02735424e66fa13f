/* SPDX-License-Identifier: MIT */
/* The address space: a sparse 4-level table over 36-bit page numbers whose
 * nodes and pages are reference counted and shared copy-on-write, so a
 * snapshot is one reference and pages are duplicated on their first write
 * afterwards. Mapped pages that were never written hold no memory and read
 * as the shared zero page, and a whole subtree of them (2 MiB, 1 GiB or
 * 512 GiB) with one protection is a single entry of its parent, so mapping,
 * protecting or unmapping a terabyte costs a few entries and pages are
 * materialized when first written. TLB fills, watchpoints and decoded code
 * live in tlb.c and icache.c; this file only owns pages and protections. */
#include <stddef.h>
#include <stdlib.h>

#include "replayer/cpu/cpu_int.h"

#define LEVELS 4
#define FANOUT 512
#define VA_LIMIT (1ull << 47)

/* A page of guest memory. refs counts the leaf slots pointing at it.
 * Pages are 16-byte aligned, which glibc's malloc gives anyway: aligned
 * to 64, glibc split off and scattered a free chunk per page, and loading
 * a keyframe's 200 MB spent a sixth of its time in the allocator.
 *
 * The line record (cpu_mem_track_lines): a page made by copying another
 * names it (FROM, by serial: a freed page's address may be reused) and
 * knows which of its 64-byte lines were written since (LINES); FROM2 and
 * LINES2 are the same one copy further back, so that a state snapshotted
 * in between (a fork, the state a query starts from) does not hide the
 * lineage. A page whose writes the TLB takes is counted as written in
 * every line: it gets there after LINES_SLOW marked writes, or at once when
 * the space does not track lines. */
struct page {
  u32 refs;
  u32 slow;   /* writes marked one by one since it was made */
  u64 serial; /* unique over the process's life; 0: none */
  u64 from, lines;
  u64 from2, lines2;
  u8 data[CPU_PAGE_SIZE];
};

/* How many writes a page takes through the slow path, each marking its
 * lines, before the TLB caches it (and every line counts as written): a
 * page written a few times between two snapshots keeps exact lines, a
 * busy one costs a few slow writes more per snapshot. */
#define LINES_SLOW 6u

static u64 page_serials;

/* A slot of a leaf node: a page pointer (16-byte aligned) in the high bits,
 * the protection in bits 0-2 and MAPPED in bit 3. */
#define SLOT_MAPPED 8u
#define SLOT_PROT 7u
#define SLOT_LOW 15u
#define SLOT_PAGE(s) ((struct page *)((s) & ~(uintptr_t)SLOT_LOW))

/* An interior node holds children; a leaf node (level 3) holds slots. A
 * child may also stand for a subtree whose pages are all mapped, never
 * written and alike: then it is their slot shifted left by one with bit 0
 * set (nodes are aligned, so a real child has bit 0 clear). The root is
 * always a real node. */
#define UNIFORM(slot) ((struct cpu__node *)(((uintptr_t)(slot) << 1) | 1))
#define IS_UNIFORM(n) (((uintptr_t)(n)) & 1)
#define UNIFORM_SLOT(n) ((uintptr_t)(n) >> 1)
struct cpu__node {
  u32 refs;
  u32 level;
  union {
    struct cpu__node *child[FANOUT];
    uintptr_t slot[FANOUT];
  } u;
};

/* A snapshot is a reference to a root, and to the space whose footprint
 * counts what only the snapshot still holds. */
struct cpu_snap {
  struct cpu__node *root;
  struct cpu_mem *mem;
};

static const u8 zero_page[CPU_PAGE_SIZE] __attribute__((aligned(4096)));

static unsigned idx(u64 pn, unsigned level) {
  return (unsigned)(pn >> (9 * (LEVELS - 1 - level))) & (FANOUT - 1);
}

/* The number of pages a node of LEVEL covers. */
static u64 span_of(unsigned level) { return 1ull << (9 * (LEVELS - level)); }

static struct cpu__node *node_new(struct cpu_mem *m, unsigned level) {
  struct cpu__node *n = calloc(1, sizeof *n);
  if (!n) return NULL;
  n->refs = 1;
  n->level = level;
  m->footprint += sizeof *n;
  return n;
}

static void page_unref(struct cpu_mem *m, struct page *p) {
  if (p && --p->refs == 0) {
    if (m) m->footprint -= sizeof *p;
    free(p);
  }
}

/* Drops one reference to N; frees it and its subtree at zero, taking what
 * it frees off M's footprint. */
static void node_unref(struct cpu_mem *m, struct cpu__node *n) {
  if (!n || IS_UNIFORM(n) || --n->refs) return;
  for (unsigned i = 0; i < FANOUT; i++) {
    if (n->level == LEVELS - 1)
      page_unref(m, SLOT_PAGE(n->u.slot[i]));
    else
      node_unref(m, n->u.child[i]);
  }
  if (m) m->footprint -= sizeof *n;
  free(n);
}

/* A private copy of N (whose references are shared). */
static struct cpu__node *node_clone(struct cpu_mem *m, struct cpu__node *n) {
  struct cpu__node *c = node_new(m, n->level);
  if (!c) return NULL;
  memcpy(&c->u, &n->u, sizeof c->u);
  for (unsigned i = 0; i < FANOUT; i++) {
    if (n->level == LEVELS - 1) {
      struct page *p = SLOT_PAGE(c->u.slot[i]);
      if (p) p->refs++;
    } else if (c->u.child[i] && !IS_UNIFORM(c->u.child[i])) {
      c->u.child[i]->refs++;
    }
  }
  n->refs--;
  return c;
}

/* The slot of page number PN under ROOT for reading (0 when not
 * mapped). */
static uintptr_t root_slot(const struct cpu__node *n, u64 pn) {
  for (unsigned l = 0;; l++) {
    if (!n) return 0;
    if (IS_UNIFORM(n)) return UNIFORM_SLOT(n);
    if (l == LEVELS - 1) return n->u.slot[idx(pn, l)];
    n = n->u.child[idx(pn, l)];
  }
}

static uintptr_t slot_get(const struct cpu_mem *m, u64 pn) {
  return root_slot(m->root, pn);
}

/* A node of LEVEL whose pages all have the slot S (no page behind it): the
 * subtree a uniform entry stands for, one level of it made real. */
static struct cpu__node *node_fill(struct cpu_mem *m, unsigned level,
                                   uintptr_t s) {
  struct cpu__node *n = node_new(m, level);
  if (!n) return NULL;
  for (unsigned i = 0; i < FANOUT; i++) {
    if (level == LEVELS - 1)
      n->u.slot[i] = s;
    else
      n->u.child[i] = UNIFORM(s);
  }
  return n;
}

/* Makes the node at *PP, of LEVEL, real and private: created when absent
 * (only when CREATE), filled out when uniform, copied when shared.
 * Returns it, or NULL (absent, or out of memory). */
static struct cpu__node *node_own(struct cpu_mem *m, struct cpu__node **pp,
                                  unsigned level, int create) {
  struct cpu__node *n = *pp;
  if (!n) {
    if (!create) return NULL;
    n = node_new(m, level);
  } else if (IS_UNIFORM(n)) {
    n = node_fill(m, level, UNIFORM_SLOT(n));
  } else if (n->refs > 1) {
    n = node_clone(m, n);
  }
  if (n) *pp = n;
  return n;
}

/* The leaf slot of PN for writing: every node on the path is made private
 * (and created when CREATE). Returns NULL out of memory or when absent. */
static uintptr_t *slot_for_write(struct cpu_mem *m, u64 pn, int create) {
  struct cpu__node **pp = &m->root;
  for (unsigned l = 0; l < LEVELS; l++) {
    struct cpu__node *n = *pp;
    if (!n) {
      if (!create) return NULL;
      if (!(n = node_new(m, l))) return NULL;
      *pp = n;
    } else if (IS_UNIFORM(n)) {
      if (!(n = node_own(m, pp, l, 0))) return NULL;
    } else if (n->refs > 1) {
      if (!(n = node_clone(m, n))) return NULL;
      *pp = n;
    }
    if (l == LEVELS - 1) return &n->u.slot[idx(pn, l)];
    pp = &n->u.child[idx(pn, l)];
  }
  return NULL;
}

static int range_ok(u64 addr, u64 len) {
  return !(addr & (CPU_PAGE_SIZE - 1)) && !(len & (CPU_PAGE_SIZE - 1)) &&
         addr < VA_LIMIT && len <= VA_LIMIT - addr;
}

int cpu_mem_new(cpu_mem **out) {
  struct cpu_mem *m = calloc(1, sizeof *m);
  *out = NULL;
  if (!m) return RW_ENOMEM;
  *out = m;
  return 0;
}

void cpu_mem_free(cpu_mem *m) {
  if (!m) return;
  RW_ASSERT(!m->cpus);
  RW_ASSERT(!m->nsnaps); /* they count into m's footprint */
  cpu__code_free(m);
  node_unref(m, m->root);
  free(m->bps);
  free(m->watches);
  free(m->alias);
  free(m);
}

/* Dirty-page tracking: PAGE was written (or, ~0, anything may have). */
static void dirty(struct cpu_mem *m, u64 page) {
  if (page == ~(u64)0) {
    m->dirty_lo = 0;
    m->dirty_hi = ~(u64)0;
    m->ndirty = CPU_DIRTY_MAX + 1;
    return;
  }
  if (page < m->dirty_lo) m->dirty_lo = page;
  if (page > m->dirty_hi) m->dirty_hi = page;
  if (m->ndirty > CPU_DIRTY_MAX) return;
  for (size_t i = 0; i < m->ndirty; i++)
    if (m->dirty[i] == page) return;
  if (m->ndirty < CPU_DIRTY_MAX)
    m->dirty[m->ndirty++] = page;
  else
    m->ndirty = CPU_DIRTY_MAX + 1;
}

void cpu_mem_dirty_start(cpu_mem *m) {
  m->dirty_on = 1;
  m->dirty_lo = ~(u64)0;
  m->dirty_hi = 0;
  m->ndirty = 0;
  /* Every page's next write must miss the TLB to be seen. */
  cpu__mem_tlb_shootdown(m, ~(u64)0);
}

void cpu_mem_dirty_stop(cpu_mem *m) { m->dirty_on = 0; }

int cpu_mem_dirty_span(const cpu_mem *m, u64 *lo, u64 *hi) {
  *lo = m->dirty_lo;
  *hi = m->dirty_hi;
  return m->dirty_lo <= m->dirty_hi;
}

size_t cpu_mem_dirty_pages(const cpu_mem *m, const u64 **pages) {
  *pages = m->dirty;
  return m->ndirty > CPU_DIRTY_MAX ? (size_t)-1 : m->ndirty;
}

enum { SET_MAP, SET_PROT, SET_UNMAP };

/* What set_range() does, and whether it met unmapped pages. */
struct set_op {
  int op;      /* SET_* */
  int prot;    /* CPU_PROT_* for SET_MAP and SET_PROT */
  int missing; /* 1: SET_PROT or SET_UNMAP met an unmapped page */
};

/* Replaces the node at *PP, of LEVEL > 0, by what all its entries are when
 * they are alike and hold no page: nothing, or one uniform entry. */
static void collapse(struct cpu_mem *m, struct cpu__node **pp,
                     unsigned level) {
  struct cpu__node *n = *pp;
  uintptr_t v;
  if (level == LEVELS - 1) {
    v = n->u.slot[0];
    if (SLOT_PAGE(v)) return;
    for (unsigned i = 1; i < FANOUT; i++)
      if (n->u.slot[i] != v) return;
    *pp = v ? UNIFORM(v) : NULL;
  } else {
    struct cpu__node *c = n->u.child[0];
    if (c && !IS_UNIFORM(c)) return;
    for (unsigned i = 1; i < FANOUT; i++)
      if (n->u.child[i] != c) return;
    *pp = c;
  }
  node_unref(m, n); /* private, and holds no pages or nodes */
}

/* Applies O to the pages [LO, HI) (page numbers) of the subtree at *PP, of
 * LEVEL, which starts at page BASE. A subtree wholly inside the range
 * becomes one entry when the result is uniform. */
static int set_node(struct cpu_mem *m, struct cpu__node **pp, unsigned level,
                    u64 base, u64 lo, u64 hi, struct set_op *o) {
  u64 span = span_of(level);
  struct cpu__node *n = *pp;
  if (level > 0 && lo <= base && hi >= base + span) {
    if (o->op != SET_MAP && !n) {
      o->missing = 1;
      return 0;
    }
    if (o->op == SET_MAP || o->op == SET_UNMAP) {
      node_unref(m, n);
      *pp = o->op == SET_MAP ? UNIFORM(SLOT_MAPPED | (unsigned)(o->prot &
                                                                SLOT_PROT))
                             : NULL;
      return 0;
    }
    if (IS_UNIFORM(n)) {
      *pp = UNIFORM(SLOT_MAPPED | (unsigned)(o->prot & SLOT_PROT));
      return 0;
    }
  }
  if (!n && o->op != SET_MAP) {
    o->missing = 1;
    return 0;
  }
  if (!(n = node_own(m, pp, level, 1))) return RW_ENOMEM;
  u64 x = RW_MAX(lo, base), y = RW_MIN(hi, base + span);
  if (level == LEVELS - 1) {
    for (u64 pn = x; pn < y; pn++) {
      uintptr_t *s = &n->u.slot[pn - base];
      if (o->op != SET_MAP && !(*s & SLOT_MAPPED)) {
        o->missing = 1;
      } else if (o->op == SET_PROT) {
        *s = (*s & ~(uintptr_t)SLOT_PROT) | (unsigned)(o->prot & SLOT_PROT);
      } else {
        page_unref(m, SLOT_PAGE(*s));
        *s = o->op == SET_MAP
                 ? SLOT_MAPPED | (unsigned)(o->prot & SLOT_PROT)
                 : 0;
      }
    }
  } else {
    u64 cs = span / FANOUT;
    for (u64 i = (x - base) / cs; i < FANOUT && base + i * cs < y; i++)
      RW_FORWARD(set_node(m, &n->u.child[i], level + 1, base + i * cs, lo,
                          hi, o));
  }
  if (level > 0) collapse(m, pp, level);
  return 0;
}

/* Sets the pages of [addr, addr+len) by OP, in time that depends on the
 * number of table nodes the range cuts, not on its length. */
static int set_range(struct cpu_mem *m, u64 addr, u64 len, int prot, int op) {
  struct set_op o = {op, prot, 0};
  if (len && !m->root && op != SET_MAP) return RW_ENOTFOUND;
  if (len) {
    if (!m->root && !(m->root = node_new(m, 0))) return RW_ENOMEM;
    RW_FORWARD(set_node(m, &m->root, 0, 0, addr >> 12, (addr + len) >> 12,
                        &o));
  }
  cpu__mem_tlb_shootdown(m, ~(u64)0);
  if (m->dirty_on) dirty(m, ~(u64)0); /* what is writable changed */
  /* Decoded code of the range is gone or replaced. */
  if (op != SET_PROT) cpu__code_invalidate_range(m, addr, addr + len);
  return o.missing ? RW_ENOTFOUND : 0;
}

int cpu_mem_map(cpu_mem *m, u64 addr, u64 len, int prot) {
  RW_RETURN_IF(!range_ok(addr, len), RW_EINVAL, "map %#llx+%#llx",
               (unsigned long long)addr, (unsigned long long)len);
  return set_range(m, addr, len, prot, SET_MAP);
}

int cpu_mem_protect(cpu_mem *m, u64 addr, u64 len, int prot) {
  RW_RETURN_IF(!range_ok(addr, len), RW_EINVAL, "protect %#llx+%#llx",
               (unsigned long long)addr, (unsigned long long)len);
  return set_range(m, addr, len, prot, SET_PROT);
}

int cpu_mem_unmap(cpu_mem *m, u64 addr, u64 len) {
  int rc;
  RW_RETURN_IF(!range_ok(addr, len), RW_EINVAL, "unmap %#llx+%#llx",
               (unsigned long long)addr, (unsigned long long)len);
  rc = set_range(m, addr, len, 0, SET_UNMAP);
  return rc == RW_ENOTFOUND ? 0 : rc;
}

int cpu__mem_page(struct cpu_mem *m, u64 page, int kind, u8 **host) {
  u64 pn = page >> 12;
  uintptr_t s = page < VA_LIMIT ? slot_get(m, pn) : 0;
  uintptr_t *w;
  struct page *p, *np;
  if (!(s & SLOT_MAPPED)) return RW_ENOTFOUND;
  if (!(s & (unsigned)kind)) return RW_EFAULT;
  p = SLOT_PAGE(s);
  if (kind != CPU_ACCESS_WRITE) {
    *host = p ? p->data : (u8 *)zero_page;
    return 0;
  }
  if (RW_UNLIKELY(m->dirty_on)) dirty(m, page);
  /* A write needs a private page under a private path. */
  if (!(w = slot_for_write(m, pn, 0))) return RW_ENOMEM;
  p = SLOT_PAGE(*w);
  if (!p || p->refs > 1) {
    np = aligned_alloc(SLOT_LOW + 1, sizeof *np); /* malloc's, in glibc */
    if (!np) return RW_ENOMEM;
    np->refs = 1;
    np->slow = 0;
    np->serial = __atomic_add_fetch(&page_serials, 1, __ATOMIC_RELAXED);
    /* Made from nothing (zeros), a page has no lineage: the slot may have
     * held pages since that were written and dropped. */
    np->from = p ? p->serial : 0;
    np->from2 = p ? p->from : 0;
    np->lines2 = p ? p->lines : ~(u64)0;
    np->lines = m->lines_on ? 0 : ~(u64)0;
    if (p)
      memcpy(np->data, p->data, CPU_PAGE_SIZE);
    else
      memset(np->data, 0, CPU_PAGE_SIZE);
    m->footprint += sizeof *np;
    if (p) p->refs--;
    *w = (uintptr_t)np | (*w & SLOT_LOW);
    p = np;
    cpu__mem_tlb_shootdown(m, page);
  }
  *host = p->data;
  return 0;
}

/* The lines of [OFF, OFF+N) of a page (N > 0, within it). */
static u64 line_mask(u64 off, u64 n) {
  unsigned first = (unsigned)(off >> 6), last = (unsigned)((off + n - 1) >> 6);
  return (~(u64)0 >> (63 - last)) & (~(u64)0 << first);
}

static struct page *page_of(u8 *host) {
  return (struct page *)(void *)(host - offsetof(struct page, data));
}

int cpu__mem_lines(struct cpu_mem *m, u8 *host, u64 a, unsigned n,
                   int cache) {
  struct page *p = page_of(host);
  if (p->lines == ~(u64)0) return 1;
  if (cache && (!m->lines_on || ++p->slow > LINES_SLOW)) {
    p->lines = ~(u64)0;
    return 1;
  }
  p->lines |= line_mask(a & 4095, n);
  return 0;
}

void cpu_mem_track_lines(cpu_mem *m, int on) { m->lines_on = on; }

/* Copies between guest [addr, addr+len) and BUF, privileged. */
static int priv_copy(struct cpu_mem *m, u64 addr, void *buf, size_t len,
                     int write) {
  u8 *b = buf;
  /* Check the whole range first so that nothing is written on failure. */
  for (u64 a = addr & ~(u64)4095; len && a < addr + len; a += 4096)
    if (a >= VA_LIMIT || !(slot_get(m, a >> 12) & SLOT_MAPPED))
      return RW_EFAULT;
  while (len) {
    u64 page = addr & ~(u64)4095;
    size_t off = addr & 4095, n = RW_MIN(len, 4096 - off);
    uintptr_t s = slot_get(m, page >> 12);
    u8 *host;
    if (write) {
      /* Privileged: make the page writable for this copy only. */
      uintptr_t *w = slot_for_write(m, page >> 12, 0);
      int rc;
      if (!w) return RW_ENOMEM;
      *w |= CPU_PROT_WRITE;
      rc = cpu__mem_page(m, page, CPU_ACCESS_WRITE, &host);
      w = slot_for_write(m, page >> 12, 0);
      if (w) *w = (*w & ~(uintptr_t)SLOT_PROT) | (s & SLOT_PROT);
      if (rc < 0) return rc == RW_ENOMEM ? rc : RW_EFAULT;
      if (cpu__code_on_page(m, page)) cpu__code_invalidate(m, page);
      (void)cpu__mem_lines(m, host, page + off, (unsigned)n, 0);
      memcpy(host + off, b, n);
    } else {
      struct page *p = SLOT_PAGE(s);
      memcpy(b, p ? p->data + off : zero_page + off, n);
    }
    b += n;
    addr += n;
    len -= n;
  }
  return 0;
}

int cpu_mem_peek(cpu_mem *m, u64 page, const u8 **bytes) {
  uintptr_t s = page < VA_LIMIT ? slot_get(m, page >> 12) : 0;
  *bytes = NULL;
  if ((page & (CPU_PAGE_SIZE - 1)) || !(s & SLOT_MAPPED)) return RW_EFAULT;
  if (SLOT_PAGE(s)) *bytes = SLOT_PAGE(s)->data;
  return 0;
}

int cpu_mem_page_kept(const cpu_mem *m, const cpu_snap *snap, u64 page) {
  if (page >= VA_LIMIT || snap->mem != m) return 0;
  uintptr_t s = slot_get(m, page >> 12);
  return (s & SLOT_MAPPED) && SLOT_PAGE(s) &&
         SLOT_PAGE(s) == SLOT_PAGE(root_slot(snap->root, page >> 12));
}

int cpu_mem_share_page(cpu_mem *m, u64 page, cpu_mem *from) {
  if (page >= VA_LIMIT || (page & (CPU_PAGE_SIZE - 1)) || from == m) return 0;
  uintptr_t s = slot_get(m, page >> 12), fs = slot_get(from, page >> 12);
  struct page *fp = SLOT_PAGE(fs);
  /* An aliased page's writes go to its aliases too: written as usual. */
  if (!(s & SLOT_MAPPED) || !(fs & SLOT_MAPPED) || !fp ||
      (m->nalias && cpu__alias_on_page(m, page)))
    return 0;
  /* Another space's page would take the place of this one's lineage: a
   * later copy of it would look like a copy of what the slot held. */
  if (m->lines_on) return 0;
  uintptr_t *w = slot_for_write(m, page >> 12, 0);
  if (!w) return RW_ENOMEM;
  struct page *old = SLOT_PAGE(*w);
  if (old == fp) return 1;
  if (RW_UNLIKELY(m->dirty_on)) dirty(m, page);
  fp->refs++; /* shared: the next write to either side copies it */
  m->footprint += sizeof *fp;
  page_unref(m, old);
  *w = (uintptr_t)fp | (*w & SLOT_LOW);
  cpu__mem_tlb_shootdown(m, page);
  if (cpu__code_on_page(m, page)) cpu__code_invalidate(m, page);
  return 1;
}

int cpu_mem_read(cpu_mem *m, u64 addr, void *dst, size_t len) {
  return priv_copy(m, addr, dst, len, 0);
}

int cpu_mem_write(cpu_mem *m, u64 addr, const void *src, size_t len) {
  RW_FORWARD(priv_copy(m, addr, (void *)(uintptr_t)src, len, 1));
  return m->nalias ? cpu__alias_write(m, addr, src, len) : 0;
}

/* ---- Aliases ------------------------------------------------------------ */

int cpu_mem_alias_set(cpu_mem *m, const struct cpu_alias *v, size_t n) {
  struct cpu_alias *a = NULL;
  size_t k = 0;
  for (size_t i = 0; i < n; i++) {
    size_t j;
    for (j = 0; j < n && (j == i || v[j].object != v[i].object); j++) {}
    if (j == n || !v[i].object || v[i].end <= v[i].start) continue;
    if (!a && !(a = malloc(n * sizeof *a))) return RW_ENOMEM;
    a[k++] = v[i];
  }
  int had = m->nalias != 0;
  free(m->alias);
  m->alias = a;
  m->nalias = k;
  /* Pages that gained aliases must leave the write TLB. */
  if (had || k) cpu__mem_tlb_shootdown(m, ~(u64)0);
  return 0;
}

int cpu__alias_on_page(const struct cpu_mem *m, u64 page) {
  for (size_t i = 0; i < m->nalias; i++)
    if (m->alias[i].start < page + CPU_PAGE_SIZE && m->alias[i].end > page)
      return 1;
  return 0;
}

int cpu__alias_write(struct cpu_mem *m, u64 addr, const void *src,
                     size_t len) {
  const u8 *b = src;
  for (size_t i = 0; i < m->nalias; i++) {
    const struct cpu_alias *e = &m->alias[i];
    u64 x = RW_MAX(addr, e->start), y = RW_MIN(addr + len, e->end);
    if (x >= y) continue;
    u64 fo = e->offset + (x - e->start), fn = y - x;
    for (size_t j = 0; j < m->nalias; j++) {
      const struct cpu_alias *f = &m->alias[j];
      if (j == i || f->object != e->object) continue;
      u64 lo = RW_MAX(fo, f->offset);
      u64 hi = RW_MIN(fo + fn, f->offset + (f->end - f->start));
      if (lo >= hi) continue;
      int rc = priv_copy(m, f->start + (lo - f->offset),
                         (void *)(uintptr_t)(b + (x - addr) + (lo - fo)),
                         hi - lo, 1);
      if (rc == RW_ENOMEM) return rc;
    }
  }
  return 0;
}

/* The mapped and protection bits of page PN and how many pages from PN on
 * share them by the table's structure: the rest of an absent or uniform
 * subtree, or the run of alike slots in a leaf. */
static unsigned run_at(const struct cpu_mem *m, u64 pn, u64 *count) {
  const struct cpu__node *n = m->root;
  for (unsigned l = 0;; l++) {
    u64 span = span_of(l);
    if (!n || IS_UNIFORM(n)) {
      *count = span - (pn & (span - 1));
      return n ? (unsigned)UNIFORM_SLOT(n) & (SLOT_MAPPED | SLOT_PROT) : 0;
    }
    if (l == LEVELS - 1) {
      unsigned i = idx(pn, l);
      unsigned v = n->u.slot[i] & (SLOT_MAPPED | SLOT_PROT), k = i + 1;
      while (k < FANOUT && (n->u.slot[k] & (SLOT_MAPPED | SLOT_PROT)) == v)
        k++;
      *count = k - i;
      return v;
    }
    n = n->u.child[idx(pn, l)];
  }
}

int cpu_mem_query(cpu_mem *m, u64 addr, u64 *start, u64 *len, int *prot) {
  u64 pn = addr >> 12, end = VA_LIMIT >> 12, c;
  unsigned v = 0;
  while (pn < end && !((v = run_at(m, pn, &c)) & SLOT_MAPPED)) pn += c;
  if (pn >= end) return RW_ENOTFOUND;
  u64 first = pn;
  unsigned p = v & SLOT_PROT;
  while (pn < end && run_at(m, pn, &c) == (SLOT_MAPPED | p)) pn += c;
  *start = first << 12;
  *len = (RW_MIN(pn, end) - first) << 12;
  *prot = (int)p;
  return 0;
}

int cpu_mem_page_prot(const cpu_mem *m, u64 page) {
  uintptr_t s = page < VA_LIMIT ? slot_get(m, page >> 12) : 0;
  return (s & SLOT_MAPPED) ? (int)(s & SLOT_PROT) : -1;
}

int cpu_mem_next_data(const cpu_mem *m, u64 addr, u64 *page, int *prot,
                      const u8 **bytes) {
  u64 pn = addr >> 12, end = VA_LIMIT >> 12;
  while (pn < end) {
    const struct cpu__node *n = m->root;
    unsigned l = 0;
    for (; n && !IS_UNIFORM(n) && l < LEVELS - 1; l++)
      n = n->u.child[idx(pn, l)];
    if (!n || IS_UNIFORM(n)) { /* nothing written in this subtree */
      u64 span = span_of(l);
      pn = (pn | (span - 1)) + 1;
      continue;
    }
    for (unsigned i = idx(pn, l); i < FANOUT; i++, pn++) {
      uintptr_t s = n->u.slot[i];
      if ((s & SLOT_MAPPED) && SLOT_PAGE(s)) {
        *page = pn << 12;
        *prot = (int)(s & SLOT_PROT);
        *bytes = SLOT_PAGE(s)->data;
        return 0;
      }
    }
  }
  return RW_ENOTFOUND;
}

size_t cpu_mem_footprint(const cpu_mem *m) { return m->footprint; }

static size_t node_resident(const struct cpu__node *n) {
  size_t b = 0;
  if (!n || IS_UNIFORM(n)) return 0;
  for (unsigned i = 0; i < FANOUT; i++) {
    if (n->level == LEVELS - 1)
      b += SLOT_PAGE(n->u.slot[i]) ? sizeof(struct page) : 0;
    else
      b += node_resident(n->u.child[i]);
  }
  return b;
}

size_t cpu_mem_resident(const cpu_mem *m) { return node_resident(m->root); }

int cpu_mem_snapshot(cpu_mem *m, cpu_snap **out) {
  struct cpu_snap *s = calloc(1, sizeof *s);
  *out = NULL;
  if (!s) return RW_ENOMEM;
  if (!m->root && !(m->root = node_new(m, 0))) {
    free(s);
    return RW_ENOMEM;
  }
  s->root = m->root;
  s->root->refs++;
  s->mem = m;
  m->nsnaps++;
  /* Every page is shared now: cached write translations must miss so that
   * the next write to each page copies it. */
  cpu__mem_tlb_shootdown(m, ~(u64)0);
  *out = s;
  return 0;
}

int cpu_mem_restore(cpu_mem *m, const cpu_snap *s) {
  if (m->dirty_on) dirty(m, ~(u64)0);
  node_unref(m, m->root);
  m->root = s->root;
  m->root->refs++;
  cpu__mem_tlb_shootdown(m, ~(u64)0);
  cpu__code_invalidate(m, ~(u64)0);
  return 0;
}

int cpu_snap_dup(const cpu_snap *s, cpu_snap **out) {
  struct cpu_snap *d = malloc(sizeof *d);
  *out = NULL;
  if (!d) return RW_ENOMEM;
  *d = *s;
  d->root->refs++;
  d->mem->nsnaps++;
  *out = d;
  return 0;
}

/* What a node (or absent or uniform entry) N holds at index I as the
 * child of a level below LEVELS - 1: an absent or uniform entry stands for
 * every page under it alike. */
static const struct cpu__node *child_at(const struct cpu__node *n,
                                        unsigned i) {
  return !n || IS_UNIFORM(n) ? n : n->u.child[i];
}
static uintptr_t slot_at(const struct cpu__node *n, unsigned i) {
  return !n ? 0 : IS_UNIFORM(n) ? UNIFORM_SLOT(n) : n->u.slot[i];
}

/* Whether the bytes [LO, HI) of page number PN were left alone between
 * slot SA (earlier) and slot SB (later): the same page, or SB's page a
 * copy of SA's (one or two copies on) whose line record shows no write
 * there, with the same protection. */
static int slot_same(uintptr_t sa, uintptr_t sb, u64 pn, u64 lo, u64 hi) {
  if (sa == sb) return 1;
  const struct page *pa = SLOT_PAGE(sa), *pb = SLOT_PAGE(sb);
  if ((sa & SLOT_LOW) != (sb & SLOT_LOW) || !pa || !pb) return 0;
  u64 base = pn << 12, from = RW_MAX(lo, base) - base;
  u64 mask = line_mask(from, RW_MIN(hi, base + CPU_PAGE_SIZE) - base - from);
  if (pb->from == pa->serial) return !(pb->lines & mask);
  return pb->from2 == pa->serial && !((pb->lines | pb->lines2) & mask);
}

/* cpu_snap_same over nodes A and B of LEVEL, which cover the pages from
 * FIRST on, for the bytes [LO, HI). */
static int same_sub(const struct cpu__node *a, const struct cpu__node *b,
                    unsigned level, u64 first, u64 lo, u64 hi) {
  if (a == b) return 1;
  u64 step = span_of(level + 1);
  u64 from = RW_MAX(lo >> 12, first);
  u64 to = RW_MIN((hi + CPU_PAGE_SIZE - 1) >> 12, first + span_of(level));
  for (u64 i = (from - first) / step; i <= (to - 1 - first) / step; i++) {
    if (level == LEVELS - 1) {
      if (!slot_same(slot_at(a, (unsigned)i), slot_at(b, (unsigned)i),
                     first + i, lo, hi))
        return 0;
    } else if (!same_sub(child_at(a, (unsigned)i), child_at(b, (unsigned)i),
                         level + 1, first + i * step, lo, hi)) {
      return 0;
    }
  }
  return 1;
}

int cpu_snap_same(const cpu_snap *a, const cpu_snap *b, u64 addr, u64 len) {
  if (!len) return 1;
  if (addr >= VA_LIMIT) return a->root == b->root;
  u64 end = len > VA_LIMIT - addr ? VA_LIMIT : addr + len;
  return same_sub(a->root, b->root, 0, 0, addr, end);
}

void cpu_snap_free(cpu_snap *s) {
  if (!s) return;
  node_unref(s->mem, s->root);
  s->mem->nsnaps--;
  free(s);
}
