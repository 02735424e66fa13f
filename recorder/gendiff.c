/* SPDX-License-Identifier: MIT */
/* Memory effects the recorder cannot describe in advance: a snapshot of a
 * hash per cache line of every writable mapping, taken at the entry of a
 * syscall that is not in the table (or at a vfork, whose child writes into
 * the parent's memory), compared at its exit; and the digest of writable
 * memory that locates an asynchronous signal (common/digest.h). */
#include <errno.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/ptrace.h>
#include <sys/user.h>

#include "common/digest.h"
#include "common/endian.h"
#include "recorder/rec_int.h"

/* Hash of an unreadable line: it never equals a readable line's hash in
 * practice, so a page that becomes readable is imported. */
#define UNREADABLE 0x5bd1e9955bd1e995ull

void rec__snap_free(struct rec__snap *s) {
  for (size_t i = 0; i < s->n; i++) free(s->v[i].hash);
  free(s->v);
  s->v = NULL;
  s->n = s->cap = 0;
}

static int writable(const struct rec__map *m) {
  return (m->prot & PROT_WRITE) && !(m->flags & REC_MAPF_SPECIAL);
}

/* Fills HASH for the lines of [A, B). */
static void hash_range(struct rec *r, u64 a, u64 b, u64 *hash) {
  while (a < b) {
    size_t n = (size_t)RW_MIN(b - a, (u64)REC_BUF);
    i64 got = rec__mem_read(r, a, r->buf, n);
    got = got < 0 ? 0 : got & ~(i64)(REC_PAGE - 1);
    for (size_t i = 0; i < (size_t)got; i += REC_LINE)
      *hash++ = rec__line_hash(r->buf + i);
    if ((size_t)got < n) { /* one unreadable page */
      for (size_t i = 0; i < REC_PAGE / REC_LINE; i++) *hash++ = UNREADABLE;
      a += (u64)got + REC_PAGE;
    } else {
      a += n;
    }
  }
}

static int add_region(void *ctx, u64 a, u64 b) {
  struct rec *r = ctx;
  if (r->proc->snap.n == r->proc->snap.cap) {
    size_t cap = r->proc->snap.cap ? r->proc->snap.cap * 2 : 32;
    struct rec__snap_region *v = realloc(r->proc->snap.v, cap * sizeof *v);
    RW_RETURN_IF(!v, RW_ENOMEM, "snapshot");
    r->proc->snap.v = v;
    r->proc->snap.cap = cap;
  }
  struct rec__snap_region *g = &r->proc->snap.v[r->proc->snap.n];
  g->start = a;
  g->end = b;
  g->hash = malloc((b - a) / REC_LINE * sizeof *g->hash + 8);
  RW_RETURN_IF(!g->hash, RW_ENOMEM, "snapshot hashes");
  r->proc->snap.n++;
  hash_range(r, a, b, g->hash);
  return 0;
}

int rec__snap_take(struct rec *r) {
  rec__snap_free(&r->proc->snap);
  for (const struct rec__map *m = rec__maps_first(r->proc->maps); m;
       m = rec__maps_next(r->proc->maps, m)) {
    if (writable(m)) RW_FORWARD(rec__populated(r, m, m->start, m->end,
                                               add_region, r));
  }
  return 0;
}

/* Imports the lines of [A, B) whose hash differs from OLD's. */
static int diff_range(struct rec *r, u64 a, u64 b, const u64 *old,
                      u64 *lines) {
  while (a < b) {
    size_t n = (size_t)RW_MIN(b - a, (u64)REC_BUF);
    i64 got = rec__mem_read(r, a, r->buf, n);
    got = got < 0 ? 0 : got & ~(i64)(REC_PAGE - 1);
    u8 *p = r->buf;
    size_t run = 0, i;
    for (i = 0; i < (size_t)got; i += REC_LINE) {
      if (rec__line_hash(p + i) != old[i / REC_LINE]) {
        run += REC_LINE;
        (*lines)++;
        continue;
      }
      if (run) RW_FORWARD(rec__mem_emit(r, a + i - run, p + i - run, run));
      run = 0;
    }
    if (run) RW_FORWARD(rec__mem_emit(r, a + i - run, p + i - run, run));
    u64 step = (size_t)got < n ? (u64)got + REC_PAGE : n;
    a += step;
    old += step / REC_LINE;
  }
  return 0;
}

struct fresh_ctx {
  struct rec *r;
  u64 *lines;
};

/* Pages populated at exit: those outside the snapshot are new to the trace;
 * their non-zero lines are imported. */
static int fresh_range(void *ctx, u64 a, u64 b) {
  struct fresh_ctx *f = ctx;
  const struct rec__snap *s = &f->r->proc->snap;
  size_t lo = 0, hi = s->n;
  while (lo < hi) { /* first region ending after a */
    size_t mid = (lo + hi) / 2;
    if (s->v[mid].end <= a)
      lo = mid + 1;
    else
      hi = mid;
  }
  for (size_t k = lo; k < s->n && a < b; k++) {
    const struct rec__snap_region *g = &s->v[k];
    if (g->start >= b) break;
    if (g->start > a) RW_FORWARD(rec__mem_import_nonzero(f->r, a, g->start));
    a = RW_MAX(a, g->end);
  }
  if (a < b) RW_FORWARD(rec__mem_import_nonzero(f->r, a, b));
  return 0;
}

int rec__snap_diff(struct rec *r, u64 *lines) {
  *lines = 0;
  /* What was there at entry, where it is still mapped writable. */
  for (size_t k = 0; k < r->proc->snap.n; k++) {
    const struct rec__snap_region *g = &r->proc->snap.v[k];
    for (const struct rec__map *m = rec__maps_first(r->proc->maps); m;
         m = rec__maps_next(r->proc->maps, m)) {
      u64 a = RW_MAX(g->start, m->start), b = RW_MIN(g->end, m->end);
      if (a >= b || !writable(m)) continue;
      RW_FORWARD(diff_range(r, a, b, g->hash + (a - g->start) / REC_LINE,
                            lines));
    }
  }
  /* What became populated or writable during the syscall. */
  struct fresh_ctx f = {r, lines};
  for (const struct rec__map *m = rec__maps_first(r->proc->maps); m;
       m = rec__maps_next(r->proc->maps, m)) {
    if (writable(m))
      RW_FORWARD(rec__populated(r, m, m->start, m->end, fresh_range, &f));
  }
  rec__snap_free(&r->proc->snap);
  return 0;
}

struct digest_ctx {
  struct rec *r;
  struct rw_digest d;
  const struct rw_digest_spec *spec; /* what it leaves out */
  u64 pages;                          /* read so far */
  u8 page[REC_PAGE];                  /* a page with its dead bytes zeroed */
};

static int digest_range(void *ctx, u64 a, u64 b) {
  struct digest_ctx *c = ctx;
  while (a < b) {
    size_t n = (size_t)RW_MIN(b - a, (u64)REC_BUF);
    i64 got = rec__mem_read(c->r, a, c->r->buf, n);
    got = got < 0 ? 0 : got & ~(i64)(REC_PAGE - 1);
    c->pages += (u64)got / REC_PAGE;
    for (size_t k = 0; k < (size_t)got; k += REC_PAGE) {
      const u8 *p = rw_digest_view(c->spec, a + k, c->r->buf + k,
                                   c->page);
      if (p) rw_digest_page(&c->d, a + k, p); /* it skips zero pages */
    }
    a += (size_t)got < n ? (u64)got + REC_PAGE : n;
  }
  return 0;
}

/* The stack mapping SP is in (the main stack, or private anonymous
 * memory: threads' stacks, alternate signal stacks; never the brk heap or
 * a file), or NULL. */
static const struct rec__map *stack_of(const struct rec *r, u64 sp) {
  const struct rec__map *m = sp ? rec__maps_find(r->proc->maps, sp - 1) : NULL;
  if (!m || !(m->prot & PROT_WRITE)) return NULL;
  int stack = !strcmp(m->path, "[stack]") ||
              (!m->path[0] && !m->ino && !(m->flags & REC_MAPF_SHARED));
  return stack ? m : NULL;
}

void rec__dead_stack(const struct rec *r, u64 rsp, u64 *lo, u64 *hi) {
  *lo = *hi = 0;
  const struct rec__map *m = stack_of(r, rsp);
  if (m && rsp - REC_RED_ZONE > m->start) {
    *lo = m->start;
    *hi = rsp - REC_RED_ZONE;
  }
}

/* Where thread T's stack pointer is for the digest: at its syscall's
 * entry when it is in one, where it stopped when stopped elsewhere, at
 * its exit when it ended with exit; else 0 (not known). */
static u64 task_sp(const struct rec__task *t) {
  switch (t->state) {
    case REC_T_GONE:
      return t->exit_sp;
    case REC_T_KERNEL:
      return t->in_syscall ? t->entry.gpr[RW_REG_rsp] : 0;
    case REC_T_READY: {
      if (t->in_syscall) return t->entry.gpr[RW_REG_rsp];
      errno = 0;
      long v = ptrace(PTRACE_PEEKUSER, t->tid,
                      (void *)offsetof(struct user_regs_struct, rsp), 0);
      return errno ? 0 : (u64)v;
    }
    default:
      return 0;
  }
}

/* Dead stacks matter for a digest because the bytes below a stack pointer
 * are not all reproducible (common/digest.h: the XSAVE header of the lazy
 * binding trampoline), and a thread that is not running keeps them as
 * long as it does not run: in every digest taken meanwhile. A thread that
 * ended leaves its stack to glibc's cache with the same bytes. */
int rec__stack_deads(struct rec *r, u64 rsp, struct rw_digest_spec *spec) {
  size_t n = 0, nsp = 0, cap = 2 * r->nth + 2;
  u64(*v)[2] = malloc(cap * sizeof *v);
  u64 *live = malloc(cap * sizeof *live);
  if (!v || !live) {
    free(v);
    free(live);
    RW_RETURN_IF(1, RW_ENOMEM, "digest ranges");
  }
  if (rsp) live[nsp++] = rsp;
  for (size_t i = 0; i < r->nth; i++) {
    const struct rec__task *t = r->th[i];
    if (t->proc == r->proc && t != r->cur && t->state != REC_T_GONE &&
        t->state != REC_T_NEW) {
      u64 sp = task_sp(t);
      if (sp) live[nsp++] = sp;
    }
  }
  /* The live threads' stacks (the current thread has its own range), and
   * the stacks of those that ended that no live thread runs on. */
  for (size_t i = rsp ? 1 : 0; i < nsp; i++) {
    rec__dead_stack(r, live[i], &v[n][0], &v[n][1]);
    n += v[n][0] < v[n][1];
  }
  for (size_t i = 0; i < r->nth; i++) {
    const struct rec__task *t = r->th[i];
    if (t->proc != r->proc || t->state != REC_T_GONE || !t->exit_sp)
      continue;
    const struct rec__map *m = stack_of(r, t->exit_sp);
    int used = 0;
    for (size_t k = 0; m && k < nsp && !used; k++)
      used = live[k] > m->start && live[k] <= m->end;
    if (m && !used) {
      rec__dead_stack(r, t->exit_sp, &v[n][0], &v[n][1]);
      n += v[n][0] < v[n][1];
    }
  }
  rw_digest_set_deads(spec, v, n);
  free(v);
  free(live);
  return 0;
}

/* The digest of the writable memory with SPEC into *OUT: kept page hashes
 * for what recorder/wp.c covers when WP, every page read otherwise. */
static int digest_with(struct rec *r, const struct rw_digest_spec *spec,
                       int wp, u64 *out) {
  struct digest_ctx c;
  c.r = r;
  c.spec = spec;
  c.pages = 0;
  rw_digest_start(&c.d, spec->kind);
  for (const struct rec__map *m = rec__maps_first(r->proc->maps); m;
       m = rec__maps_next(r->proc->maps, m)) {
    if (!(m->prot & PROT_WRITE)) continue;
    int kept = wp && rec__wp_covers(r, m);
    /* Around the left-out ranges (sorted): they are not even read. */
    u64 a = m->start;
    for (u32 i = 0; i <= spec->nskip && a < m->end; i++) {
      u64 lo = i < spec->nskip ? spec->skip[i][0] : m->end;
      u64 hi = i < spec->nskip ? spec->skip[i][1] : m->end;
      if (hi <= a) continue;
      u64 b = RW_MIN(lo, m->end);
      if (b > a) {
        int rc = kept ? rec__wp_range(r, m, a, b, spec, &c.d) : 1;
        if (rc == 1) rc = rec__populated(r, m, a, b, digest_range, &c);
        RW_FORWARD(rc);
      }
      a = hi;
      if (lo >= m->end) break;
    }
  }
  *out = rw_digest_final(&c.d);
  if (!wp) r->proc->wp.full_pages = c.pages;
  return 0;
}

int rec__digest(struct rec *r, const struct rw_digest_spec *spec, u64 *out) {
  struct rec__wp *w = &r->proc->wp;
  /* Small memory is read faster than protected: the kept hashes start
   * with the first digest that finds REC_WP_ARM pages of private anonymous
   * memory present. That digest reads them all, as a full one would, and
   * protects them; the next reads only those written since. A page
   * written in between costs a fault about as long as reading it, so even
   * a program with only two points, writing most of its memory between
   * them, pays little more than two full digests. */
  if (w->on && !w->armed && rec__wp_large(r)) w->armed = 1;
  if (!w->armed || spec->kind != RW_DIGEST_LANES)
    return digest_with(r, spec, 0, out);
  rec__wp_begin(r);
  int rc = digest_with(r, spec, 1, out);
  if (rc < 0) {
    RW_FORWARD(rec__wp_end(r, 0));
    return rc;
  }
  if (rec__wp_check_due(r)) {
    u64 full;
    RW_FORWARD(digest_with(r, spec, 0, &full));
    if (full != *out) {
      /* A write the protection did not see: the kept hashes cannot be
       * trusted in this process. */
      rw_log(RW_LOG_INFO,
             "note: process %d wrote memory unseen by its page protection; "
             "its digests read all of its memory from now on",
             (int)r->proc->pid);
      *out = full;
      RW_FORWARD(rec__wp_end(r, 0));
      rec__wp_reset(&r->proc->wp);
      return 0;
    }
  }
  r->n.wp_digests++;
  r->n.wp_kept += r->proc->wp.kept;
  r->n.wp_read += r->proc->wp.read;
  return rec__wp_end(r, 1);
}
