/* SPDX-License-Identifier: MIT */
/* Which pages of a mapping can hold anything but zero bytes. A private
 * anonymous page that was never touched (or swapped) reads as zero, so the
 * memory diffs and the digest skip it; the PAGEMAP_SCAN ioctl of
 * /proc/PID/pagemap (Linux 6.7) lists the others without walking terabytes
 * of reserved address space (sanitizer shadows, language runtimes' heaps).
 * On older kernels every page counts. A mapping of a file or of shared
 * memory shows the object's bytes: only its data (SEEK_DATA/SEEK_HOLE) can
 * be non-zero, plus, in a private mapping, the pages it copied; so a
 * terabyte memfd holding a few pages costs a few pages, and its holes are
 * never read (reading a shared memory hole through a mapping would
 * allocate it). */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <unistd.h>

#include "recorder/rec_int.h"

void rec__pages_reset(struct rec *r) {
  if (r->proc->pagemap_fd >= 0) close(r->proc->pagemap_fd);
  r->proc->pagemap_fd = -2;
}

int rec__pagemap_fd(struct rec *r) {
  if (r->proc->pagemap_fd != -2) return r->proc->pagemap_fd;
  char path[64];
  snprintf(path, sizeof path, "/proc/%d/pagemap", (int)r->proc->live);
  r->proc->pagemap_fd = open(path, O_RDONLY | O_CLOEXEC);
  if (r->proc->pagemap_fd < 0) r->proc->pagemap_fd = -1;
  return r->proc->pagemap_fd;
}

int rec__present(struct rec *r, u64 a, u64 b, struct rec__ranges *out) {
  int fd = rec__pagemap_fd(r);
  if (fd < 0) return 1;
  struct rec__page_region v[64];
  u64 at = a;
  while (at < b) {
    struct rec__pm_scan_arg s = {0};
    s.size = sizeof s;
    s.start = at;
    s.end = b;
    s.vec = (u64)(uintptr_t)v;
    s.vec_len = RW_ARRAY_SIZE(v);
    s.category_anyof_mask = REC_PAGE_IS_PRESENT | REC_PAGE_IS_SWAPPED;
    s.return_mask = REC_PAGE_IS_PRESENT | REC_PAGE_IS_SWAPPED;
    int n = ioctl(fd, REC_PAGEMAP_SCAN, &s);
    if (n < 0) {
      if (errno == EINTR) continue;
      close(r->proc->pagemap_fd);
      r->proc->pagemap_fd = -1; /* not supported: every page from now on */
      return 1;
    }
    for (int i = 0; i < n; i++)
      RW_FORWARD(rec__ranges_add(out, v[i].start, v[i].end - v[i].start));
    if (s.walk_end <= at) break;
    at = s.walk_end;
  }
  return 0;
}

/* The file behind the mapping M, opened for reading, or -1. */
static int open_file(struct rec *r, const struct rec__map *m) {
  char mf[128];
  snprintf(mf, sizeof mf, "/proc/%d/map_files/%llx-%llx", (int)r->proc->live,
           (unsigned long long)m->start, (unsigned long long)m->end);
  int fd = open(mf, O_RDONLY | O_CLOEXEC);
  if (fd < 0 && m->path[0] == '/') fd = open(m->path, O_RDONLY | O_CLOEXEC);
  return fd;
}

int rec__file_data(int fd, u64 lo, u64 hi,
                   int (*fn)(void *ctx, u64 a, u64 b), void *ctx) {
  struct stat st;
  if (fstat(fd, &st) < 0 || !S_ISREG(st.st_mode) || hi > (u64)INT64_MAX)
    return 1;
  u64 at = lo;
  while (at < hi) {
    off_t d = lseek(fd, (off_t)at, SEEK_DATA);
    if (d < 0 && errno == ENXIO) break; /* no data from here to the end */
    if (d < 0 || (u64)d < at) return 1;
    if ((u64)d >= hi) break;
    off_t h = lseek(fd, d, SEEK_HOLE);
    if (h <= d) return 1;
    u64 end = RW_MIN((u64)h, hi);
    RW_FORWARD(fn(ctx, (u64)d, end));
    at = end;
  }
  return 0;
}

struct collect {
  struct rec__ranges *out;
  u64 delta; /* address minus file offset */
};

static int collect(void *ctx, u64 a, u64 b) {
  struct collect *c = ctx;
  u64 x = (a + c->delta) & ~(u64)(REC_PAGE - 1);
  u64 y = ((b + c->delta) + REC_PAGE - 1) & ~(u64)(REC_PAGE - 1);
  return rec__ranges_add(c->out, x, y - x);
}

static int cmp_range(const void *x, const void *y) {
  const struct rec__range *a = x, *b = y;
  return a->addr < b->addr ? -1 : a->addr > b->addr;
}

/* Calls FN for the union of the ranges of RS, clipped to [A, B), in
 * order. */
static int each_union(struct rec__ranges *rs, u64 a, u64 b,
                      int (*fn)(void *ctx, u64 a, u64 b), void *ctx) {
  if (rs->n > 1) qsort(rs->v, rs->n, sizeof *rs->v, cmp_range);
  u64 x = 0, y = 0;
  for (size_t i = 0; i < rs->n; i++) {
    u64 s = RW_MAX(rs->v[i].addr, a);
    u64 e = RW_MIN(rs->v[i].addr + rs->v[i].len, b);
    if (s >= e) continue;
    if (s <= y && y) {
      y = RW_MAX(y, e);
      continue;
    }
    if (y) RW_FORWARD(fn(ctx, x, y));
    x = s, y = e;
  }
  return y ? fn(ctx, x, y) : 0;
}

/* The ranges of [A, B) in the mapping M of a file or shared memory object
 * that may hold non-zero bytes: the parts that are data in the object
 * (SEEK_DATA, SEEK_HOLE: a hole reads as zeros, and a shared memory hole is
 * not even allocated), and for a private mapping also the pages it has
 * copied. Returns 1 when the object cannot say. */
static int object_ranges(struct rec *r, const struct rec__map *m, u64 a,
                         u64 b, struct rec__ranges *out) {
  int fd = open_file(r, m);
  if (fd < 0) return 1;
  struct collect c = {out, m->start - m->offset};
  int rc = rec__file_data(fd, m->offset + (a - m->start),
                          m->offset + (b - m->start), collect, &c);
  close(fd);
  if (rc == 0 && (m->flags & REC_MAPF_PRIVATE)) rc = rec__present(r, a, b, out);
  return rc;
}

/* Below this, a mapping of an object counts whole: reading it costs less
 * than asking the object (an open and a few lseeks per mapping, at every
 * generic diff). */
#define REC_ASK_MIN (1u << 20)

int rec__populated(struct rec *r, const struct rec__map *m, u64 a, u64 b,
                   int (*fn)(void *ctx, u64 a, u64 b), void *ctx) {
  if (a >= b) return 0;
  struct rec__ranges rs = {0};
  int rc = 1;
  if (!m->ino && (m->flags & REC_MAPF_PRIVATE))
    rc = rec__present(r, a, b, &rs);
  else if (m->ino && !(m->flags & REC_MAPF_SPECIAL) && b - a >= REC_ASK_MIN)
    rc = object_ranges(r, m, a, b, &rs);
  if (rc == 0) rc = each_union(&rs, a, b, fn, ctx);
  else if (rc == 1) rc = fn(ctx, a, b); /* every page counts */
  rec__ranges_free(&rs);
  return rc;
}
