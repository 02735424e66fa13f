/* SPDX-License-Identifier: MIT */
/* The memory digest over the pages written since the last one (issue 18).
 *
 * A preemption point digests every writable page (common/digest.h): 1 GB
 * of heap costs about 0.4 s per point, read out of the process and hashed.
 * But a page's contribution (its "lanes") does not depend on the pages
 * before it, only the chaining of those values does, in address order and
 * at two multiplies a page. So the recorder keeps each page's lanes from
 * the last digest and reads again only the pages written since.
 *
 * What was written is the kernel's to say: a userfaultfd with asynchronous
 * write protection (UFFD_FEATURE_WP_ASYNC, Linux 6.7) registered over the
 * private anonymous mappings, and the PAGEMAP_SCAN ioctl of
 * /proc/PID/pagemap, which lists each present page with whether it was
 * written since it was last protected and protects it again in the same
 * walk. A write to a protected page costs the program one fault that the
 * kernel resolves itself (about 1 us here); nothing ever waits on the
 * descriptor. The userfaultfd is made inside the process, by a syscall the
 * recorder injects after each execve (the object belongs to the address
 * space that makes it), taken with pidfd_getfd and closed there again, so
 * the program never sees it.
 *
 * It starts with the first digest that finds REC_WP_ARM pages (32 MiB) of
 * such memory present (rec__wp_large): below that, reading everything
 * costs less than the faults. That digest reads every page, keeps their
 * lanes and protects them, so a second digest, at the end say, reads only
 * what was written in between instead of the whole heap again.
 *
 * Only private anonymous memory takes this path: the pages of files and of
 * shared memory can change through another mapping or write(2) without a
 * fault in this one, so they are read at every digest as before. A page
 * the scan does not call written but that has no lanes kept (it lay in a
 * dead range last time, or moved) is read too. A program that writes most
 * of its pages between two points would pay a fault per page for nothing:
 * then the pages are left unprotected for a few points. And every 64th
 * digest is also taken the full way and compared: a difference (a write
 * this scheme cannot see) turns it off for the process, with a note. */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <linux/userfaultfd.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "common/digest.h"
#include "recorder/rec_int.h"

/* From linux/userfaultfd.h (6.7), which older headers lack. */
#define WP_FEATURE_WP_UNPOPULATED (1ull << 13)
#define WP_FEATURE_WP_ASYNC (1ull << 15)
#ifndef UFFD_USER_MODE_ONLY
#define UFFD_USER_MODE_ONLY 1
#endif

/* A kept page: its address (bit 0: the page is all zeros, which the
 * digest leaves out) and its lanes. */
#define WP_ZERO 1ull

/* Full digests compared with the kept one: every this many. */
#define WP_CHECK_EVERY 64

void rec__wp_reset(struct rec__wp *w) {
  if (w->on) close(w->uffd);
  free(w->keep);
  free(w->next);
  memset(w, 0, sizeof *w);
}

void rec__wp_forget(struct rec__wp *w) { w->nkeep = 0; }

/* On Linux 6.18 here, pages of a range that mprotect made writable again
 * were then written without the scan ever calling them written: their
 * entries still said "protected" (tests/recorder/written.sh found it
 * through REWIND_CHECK_DIGEST, about one run in ten, never without the
 * mprotect; the range had pages written since the last scan among pages
 * not written, in one large folio, which is the likely cause). So after
 * such an mprotect every page of the range is protected again, which
 * makes them all read "not written", and the hashes kept for the range
 * are dropped, so that the next digest reads them. */
int rec__wp_reprotect(struct rec *r, u64 a, u64 len) {
  struct rec__wp *w = &r->proc->wp;
  if (!w->armed) return 0; /* nothing protected yet */
  u64 lo = a & ~(u64)(REC_PAGE - 1);
  u64 hi = (a + len + REC_PAGE - 1) & ~(u64)(REC_PAGE - 1);
  if (hi <= lo) return 0;
  struct uffdio_register reg = {.range = {lo, hi - lo},
                                .mode = UFFDIO_REGISTER_MODE_WP};
  struct uffdio_writeprotect wp = {.range = {lo, hi - lo},
                                   .mode = UFFDIO_WRITEPROTECT_MODE_WP};
  if (ioctl(w->uffd, UFFDIO_REGISTER, &reg) < 0 ||
      ioctl(w->uffd, UFFDIO_WRITEPROTECT, &wp) < 0) {
    /* Not anonymous memory alone (a file, shared memory): the digest reads
     * those pages anyway; but the kept ones cannot be told apart, so all
     * of them go. */
    w->nkeep = 0;
    return 0;
  }
  size_t i = 0, j;
  while (i < w->nkeep && (w->keep[i][0] & ~WP_ZERO) < lo) i++;
  for (j = i; j < w->nkeep && (w->keep[j][0] & ~WP_ZERO) < hi; j++) {
  }
  memmove(w->keep + i, w->keep + j, (w->nkeep - j) * sizeof *w->keep);
  w->nkeep -= j - i;
  return 0;
}

int rec__wp_start(struct rec *r, pid_t tid, const struct rw_regs *at,
                  u64 insn) {
  struct rec__wp *w = &r->proc->wp;
  rec__wp_reset(w);
  if (getenv("REWIND_WRITTEN") && !strcmp(getenv("REWIND_WRITTEN"), "off"))
    return 0;
  /* A filter of the program's own could kill it for the syscall. */
  if (r->cur->own_seccomp || r->proc->sb_fullstop) return 0;
  u64 a[6] = {O_CLOEXEC | O_NONBLOCK | UFFD_USER_MODE_ONLY, 0, 0, 0, 0, 0};
  i64 fd = -1, res = 0;
  RW_FORWARD(rec__remote_syscall(tid, at, insn, SYS_userfaultfd, a, &fd));
  if (fd < 0) return 0; /* no userfaultfd here: every page at each digest */
  int pidfd = (int)syscall(SYS_pidfd_open, r->proc->pid, 0);
  int mine = pidfd < 0 ? -1 : (int)syscall(SYS_pidfd_getfd, pidfd, (int)fd, 0);
  if (pidfd >= 0) close(pidfd);
  u64 c[6] = {(u64)fd, 0, 0, 0, 0, 0};
  int rc = rec__remote_syscall(tid, at, insn, SYS_close, c, &res);
  if (mine < 0) return rc;
  struct uffdio_api api = {.api = UFFD_API,
                           .features = WP_FEATURE_WP_ASYNC |
                                       WP_FEATURE_WP_UNPOPULATED};
  if (ioctl(mine, UFFDIO_API, &api) < 0) { /* older than Linux 6.7 */
    close(mine);
    return rc;
  }
  w->uffd = mine;
  w->on = 1;
  return rc;
}

int rec__wp_covers(const struct rec *r, const struct rec__map *m) {
  return r->proc->wp.on && !m->ino && (m->flags & REC_MAPF_PRIVATE) &&
         !(m->flags & REC_MAPF_SPECIAL) && (m->prot & PROT_WRITE);
}

int rec__wp_large(struct rec *r) {
  struct rec__wp *w = &r->proc->wp;
  u64 n = 0;
  for (const struct rec__map *m = rec__maps_first(r->proc->maps);
       m && n < REC_WP_ARM; m = rec__maps_next(r->proc->maps, m))
    if (rec__wp_covers(r, m)) n += (m->end - m->start) / REC_PAGE;
  if (n < REC_WP_ARM) return 0; /* not even reserved: no need to ask */
  struct rec__ranges rs = {0};
  int rc = 0;
  n = 0;
  for (const struct rec__map *m = rec__maps_first(r->proc->maps);
       m && n < REC_WP_ARM && rc == 0; m = rec__maps_next(r->proc->maps, m)) {
    if (!rec__wp_covers(r, m)) continue;
    rs.n = 0;
    rc = rec__present(r, m->start, m->end, &rs);
    for (size_t i = 0; rc == 0 && i < rs.n; i++) n += rs.v[i].len / REC_PAGE;
  }
  rec__ranges_free(&rs);
  if (rc != 0) return w->full_pages >= REC_WP_ARM; /* the kernel cannot say */
  return n >= REC_WP_ARM;
}

/* Appends a kept page to the table being built. */
static int keep(struct rec__wp *w, u64 addr, u64 lanes) {
  if (w->nnext == w->capnext) {
    size_t cap = w->capnext ? 2 * w->capnext : 4096;
    u64(*v)[2] = realloc(w->next, cap * sizeof *v);
    RW_RETURN_IF(!v, RW_ENOMEM, "kept page hashes");
    w->next = v;
    w->capnext = cap;
  }
  w->next[w->nnext][0] = addr;
  w->next[w->nnext][1] = lanes;
  w->nnext++;
  return 0;
}

/* Whether a dead range of SPEC meets [A, B). */
static int dead_meets(const struct rw_digest_spec *s, u64 a, u64 b) {
  if (s->dead_lo < s->dead_hi && s->dead_lo < b && a < s->dead_hi) return 1;
  for (u32 i = 0; i < s->ndead; i++)
    if (s->dead[i][0] < b && a < s->dead[i][1]) return 1;
  return 0;
}

/* How the dead ranges of SPEC cover the page at P: 0 not at all, 1 in
 * part, 2 wholly. */
static int dead_class(const struct rw_digest_spec *s, u64 p) {
  u64 e = p + REC_PAGE;
  int c = 0;
  for (u32 i = 0; i <= s->ndead; i++) {
    u64 lo = i ? s->dead[i - 1][0] : s->dead_lo;
    u64 hi = i ? s->dead[i - 1][1] : s->dead_hi;
    if (lo >= hi || hi <= p || lo >= e) continue;
    if (lo <= p && hi >= e) return 2;
    c = 1;
  }
  return c;
}

/* Reads the pages of [A, B) from the process, keeps their lanes and adds
 * them to D as SPEC sees them. A page that cannot be read counts as not
 * there, as in the full digest. */
static int read_pages(struct rec *r, u64 a, u64 b,
                      const struct rw_digest_spec *spec, struct rw_digest *d) {
  struct rec__wp *w = &r->proc->wp;
  u8 view[REC_PAGE];
  while (a < b) {
    size_t n = (size_t)RW_MIN(b - a, (u64)REC_BUF);
    i64 got = rec__mem_read(r, a, r->buf, n);
    got = got < 0 ? 0 : got & ~(i64)(REC_PAGE - 1);
    for (size_t k = 0; k < (size_t)got; k += REC_PAGE) {
      const u8 *page = r->buf + k;
      int zero = rw_digest_zero(page);
      u64 lanes = zero ? 0 : rw_digest_lanes(page);
      RW_FORWARD(keep(w, (a + k) | (zero ? WP_ZERO : 0), lanes));
      const u8 *p = rw_digest_view(spec, a + k, page, view);
      if (!p || (p == page && zero)) continue;
      if (p == page)
        rw_digest_add(d, a + k, lanes);
      else
        rw_digest_page(d, a + k, p);
    }
    w->read += (u64)got / REC_PAGE;
    a += (size_t)got < n ? (u64)got + REC_PAGE : n;
  }
  return 0;
}

/* The pages of [A, B), present and not written since the last digest:
 * their kept lanes, or read when none were kept. */
static int kept_pages(struct rec *r, u64 a, u64 b,
                      const struct rw_digest_spec *spec,
                      struct rw_digest *d) {
  struct rec__wp *w = &r->proc->wp;
  for (u64 p = a; p < b; p += REC_PAGE) {
    while (w->at < w->nkeep && (w->keep[w->at][0] & ~WP_ZERO) < p) w->at++;
    if (w->at == w->nkeep || (w->keep[w->at][0] & ~WP_ZERO) != p) {
      RW_FORWARD(read_pages(r, p, p + REC_PAGE, spec, d));
      continue;
    }
    u64 k = w->keep[w->at][0], lanes = w->keep[w->at][1];
    RW_FORWARD(keep(w, k, lanes));
    if (!(k & WP_ZERO)) rw_digest_add(d, p, lanes);
    w->kept++;
  }
  return 0;
}

int rec__wp_range(struct rec *r, const struct rec__map *m, u64 a, u64 b,
                  const struct rw_digest_spec *spec, struct rw_digest *d) {
  struct rec__wp *w = &r->proc->wp;
  struct uffdio_register reg = {.range = {m->start, m->end - m->start},
                                .mode = UFFDIO_REGISTER_MODE_WP};
  int pm = rec__pagemap_fd(r);
  /* Registering a range it holds already is a no-op for the kernel. */
  if (pm < 0 || ioctl(w->uffd, UFFDIO_REGISTER, &reg) < 0) return 1;
  struct rec__page_region v[256];
  u64 at = a;
  while (at < b) {
    struct rec__pm_scan_arg s = {0};
    s.size = sizeof s;
    s.flags = w->rest ? 0 : REC_PM_SCAN_WP_MATCHING;
    s.start = at;
    s.end = b;
    s.vec = (u64)(uintptr_t)v;
    s.vec_len = RW_ARRAY_SIZE(v);
    s.category_anyof_mask = REC_PAGE_IS_PRESENT | REC_PAGE_IS_SWAPPED;
    s.return_mask = REC_PAGE_IS_PRESENT | REC_PAGE_IS_SWAPPED |
                    REC_PAGE_IS_WRITTEN;
    int n = ioctl(pm, REC_PAGEMAP_SCAN, &s);
    if (n < 0 && errno == EINTR) continue;
    RW_RETURN_IF(n < 0, RW_ERR(errno), "PAGEMAP_SCAN: %s", strerror(errno));
    for (int i = 0; i < n; i++) {
      u64 s0 = v[i].start, e0 = v[i].end;
      w->present += (e0 - s0) / REC_PAGE;
      int written = (v[i].categories & REC_PAGE_IS_WRITTEN) != 0;
      if (!dead_meets(spec, s0, e0)) {
        RW_FORWARD(written ? read_pages(r, s0, e0, spec, d)
                           : kept_pages(r, s0, e0, spec, d));
        continue;
      }
      /* A stack: its dead pages count as zeros (not even read), a page
       * with its stack pointer is read, the others as any. */
      for (u64 p = s0; p < e0;) {
        int c = dead_class(spec, p);
        u64 q = p + REC_PAGE;
        while (q < e0 && dead_class(spec, q) == c) q += REC_PAGE;
        if (c == 1 || (c == 0 && written))
          RW_FORWARD(read_pages(r, p, q, spec, d));
        else if (c == 0)
          RW_FORWARD(kept_pages(r, p, q, spec, d));
        p = q;
      }
    }
    if (s.walk_end <= at) break;
    at = s.walk_end;
  }
  return 0;
}

void rec__wp_begin(struct rec *r) {
  struct rec__wp *w = &r->proc->wp;
  w->nnext = w->at = 0;
  w->present = w->read = w->kept = 0;
}

int rec__wp_end(struct rec *r, int ok) {
  struct rec__wp *w = &r->proc->wp;
  if (!ok) { /* what was built is not to be trusted: start over */
    w->nkeep = w->nnext = 0;
    return 0;
  }
  u64(*t)[2] = w->keep;
  size_t cap = w->capkeep;
  w->keep = w->next;
  w->capkeep = w->capnext;
  w->nkeep = w->nnext;
  w->next = t;
  w->capnext = cap;
  w->nnext = 0;
  w->digests++;
  /* Most pages written since the last point: protecting them again only
   * adds a fault per page. Leave them be for a while, longer each time in
   * a row. */
  if (w->rest) {
    w->rest--;
  } else if (w->digests > 1 && w->present >= 1024 &&
             2 * w->read > w->present) {
    w->backoff = w->backoff ? RW_MIN(2 * w->backoff, 64u) : 4;
    w->rest = w->backoff;
  } else {
    w->backoff = 0;
  }
  return 0;
}

int rec__wp_check_due(const struct rec *r) {
  const struct rec__wp *w = &r->proc->wp;
  return r->check_digest || (w->digests + 1) % WP_CHECK_EVERY == 0;
}
