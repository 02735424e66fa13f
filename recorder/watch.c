/* SPDX-License-Identifier: MIT */
/* Shared memory written by processes rewind does not record. A child made
 * by fork runs unrecorded (recorder/children.c) but keeps every MAP_SHARED
 * mapping its parent had: what it writes there shows up in the recorded
 * program between two of its instructions, with no syscall to say so.
 *
 * At each such fork the recorder takes a hash per cache line of every
 * readable shared mapping ("the watch"); at every later syscall exit,
 * signal delivery and asynchronous stop it compares them again and imports
 * the lines that changed, as if the kernel had written them there. The
 * memory digest of an asynchronous stop (PREEMPT) leaves the watched
 * ranges out: the replay finds the stop without what the child wrote, and
 * the imports that follow the PREEMPT bring it. A program that waits
 * for its child (wait4, a futex, a pipe) and then reads what the child
 * wrote replays exactly; one that reads the memory while the child is
 * still writing it, with no syscall between, sees the new bytes at the
 * next event in the replay, and the verifier reports the difference.
 *
 * A child made by clone with CLONE_VM (and not CLONE_VFORK, whose parent
 * waits) shares all of the memory and runs alongside: while one lives,
 * every writable mapping is watched, those mapped later included.
 *
 * The program's own writes to the watched memory are imported too (they
 * are the same bytes the replay computes), so the cost is one read of the
 * watched memory per event plus the lines that changed. The watch ends at
 * exec, which gives the process a new address space. */
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

#include "common/endian.h"
#include "recorder/rec_int.h"

/* More than this in all, and the rest of the shared memory is left
 * unwatched with a warning: reading it at every event would cost more than
 * the program. */
#define REC_WATCH_MAX (256ull << 20)

/* Read-only too: the child may write the file behind it with write().
 * Write-only too: the program reads it all the same. */
static int shared_readable(const struct rec__map *m) {
  return (m->flags & REC_MAPF_SHARED) && rec__prot_reads(m->prot) &&
         !(m->flags & REC_MAPF_SPECIAL);
}

static int in_watch(const struct rec *r, const struct rec__map *m) {
  return shared_readable(m) ||
         (r->proc->watch_all && (m->prot & PROT_WRITE) &&
          !(m->flags & REC_MAPF_SPECIAL));
}

static u64 zero_hash(void) {
  static const u8 zero[REC_LINE];
  return rec__line_hash(zero);
}

struct walk {
  struct rec *r;
  struct rec__snap_region *g;
  int emit; /* 0: fill the hashes; 1: import changed lines and update */
};

/* Hashes the populated part [A, B) of a watched region, importing the
 * lines whose hash changed when W->emit. */
static int walk_range(void *ctx, u64 a, u64 b) {
  struct walk *w = ctx;
  struct rec *r = w->r;
  u8 *buf = r->wbuf;
  while (a < b) {
    size_t n = (size_t)RW_MIN(b - a, (u64)REC_BUF);
    i64 got = rec__mem_read(r, a, buf, n);
    got = got < 0 ? 0 : got & ~(i64)(REC_PAGE - 1);
    u64 *hash = w->g->hash + (a - w->g->start) / REC_LINE;
    size_t run = 0, i;
    for (i = 0; i < (size_t)got; i += REC_LINE) {
      u64 h = rec__line_hash(buf + i);
      if (h != hash[i / REC_LINE]) {
        hash[i / REC_LINE] = h;
        if (w->emit) {
          run += REC_LINE;
          r->n.watched_lines++;
          continue;
        }
      }
      if (run) RW_FORWARD(rec__mem_emit(r, a + i - run, buf + i - run, run));
      run = 0;
    }
    if (run) RW_FORWARD(rec__mem_emit(r, a + i - run, buf + i - run, run));
    /* An unreadable page (it can only be past the end of a file) is
     * skipped; it is compared again once it reads. */
    a += (size_t)got < n ? (u64)got + REC_PAGE : n;
  }
  return 0;
}

static int add_all(struct rec *r);

int rec__watch_check(struct rec *r) {
  struct rec__snap *s = &r->proc->watch;
  if (!s->n) return 0;
  size_t keep = 0, k;
  int rc = 0;
  for (k = 0; k < s->n && rc == 0; k++) {
    struct rec__snap_region *g = &s->v[k];
    /* Where it is still mapped shared and readable (parts unmapped are
     * compared again if something is mapped there later; a region wholly
     * unmapped is dropped: what is mapped there next is new). */
    int live = 0;
    for (const struct rec__map *m = rec__maps_from(r->proc->maps, g->start);
         m && m->start < g->end; m = rec__maps_next(r->proc->maps, m)) {
      u64 a = RW_MAX(g->start, m->start), b = RW_MIN(g->end, m->end);
      if (a >= b || !in_watch(r, m)) continue;
      live = 1;
      struct walk w = {r, g, 1};
      rc = rec__populated(r, m, a, b, walk_range, &w);
      if (rc < 0) break;
    }
    if (live || rc < 0) {
      s->v[keep++] = *g;
    } else {
      r->proc->watch_bytes -= g->end - g->start;
      free(g->hash);
    }
  }
  while (k < s->n) s->v[keep++] = s->v[k++]; /* after a failure */
  s->n = keep;
  RW_FORWARD(rc);
  if (!r->proc->watch_all) return 0;
  if (rec__sharers_live(r)) return add_all(r); /* and what was mapped since */
  /* The last sharer is gone: private memory is the program's own again. */
  r->proc->watch_all = 0;
  keep = 0;
  for (size_t i = 0; i < s->n; i++) {
    const struct rec__map *m = rec__maps_find(r->proc->maps, s->v[i].start);
    if (m && shared_readable(m)) {
      s->v[keep++] = s->v[i];
    } else {
      r->proc->watch_bytes -= s->v[i].end - s->v[i].start;
      free(s->v[i].hash);
    }
  }
  s->n = keep;
  return 0;
}

static int watched(const struct rec *r, const struct rec__map *m) {
  for (size_t k = 0; k < r->proc->watch.n; k++)
    if (r->proc->watch.v[k].start <= m->start &&
        m->end <= r->proc->watch.v[k].end)
      return 1;
  return 0;
}

static int add(struct rec *r, const struct rec__map *m) {
  struct rec__snap *s = &r->proc->watch;
  if (s->n == s->cap) {
    size_t cap = s->cap ? s->cap * 2 : 8;
    struct rec__snap_region *v = realloc(s->v, cap * sizeof *v);
    RW_RETURN_IF(!v, RW_ENOMEM, "shared memory watch");
    s->v = v;
    s->cap = cap;
  }
  struct rec__snap_region *g = &s->v[s->n];
  size_t lines = (m->end - m->start) / REC_LINE;
  g->start = m->start;
  g->end = m->end;
  g->hash = malloc(lines * sizeof *g->hash + 8);
  RW_RETURN_IF(!g->hash, RW_ENOMEM, "shared memory watch");
  u64 z = zero_hash();
  for (size_t i = 0; i < lines; i++) g->hash[i] = z;
  s->n++;
  r->proc->watch_bytes += m->end - m->start;
  struct walk w = {r, g, 0};
  return rec__populated(r, m, m->start, m->end, walk_range, &w);
}

/* Adds every mapping of the watch's kind not yet in it. Regions already
 * watched keep their hashes: what changed in them since the last event is
 * imported at the next one. */
static int add_all(struct rec *r) {
  if (!r->wbuf) {
    r->wbuf = malloc(REC_BUF);
    RW_RETURN_IF(!r->wbuf, RW_ENOMEM, "shared memory watch");
  }
  for (const struct rec__map *m = rec__maps_first(r->proc->maps); m;
       m = rec__maps_next(r->proc->maps, m)) {
    if (!in_watch(r, m) || watched(r, m)) continue;
    if (r->proc->watch_bytes + (m->end - m->start) > REC_WATCH_MAX) {
      RW_FORWARD(rec__warn(r, REC_NR_fork,
                           "fork: more than %llu MiB of memory is shared "
                           "with child processes; what they write to %s is "
                           "not recorded",
                           REC_WATCH_MAX >> 20,
                           m->path[0] ? m->path : "(anonymous)"));
      continue;
    }
    RW_FORWARD(add(r, m));
  }
  return 0;
}

int rec__watch_fork(struct rec *r) { return add_all(r); }

int rec__watch_sharer(struct rec *r) {
  r->proc->watch_all = 1;
  return add_all(r);
}

int rec__watch_skips(const struct rec *r, struct rw_digest_spec *spec) {
  const struct rec__snap *s = &r->proc->watch;
  spec->nskip = 0;
  if (!s->n) return 0;
  u64(*v)[2] = malloc(s->n * sizeof *v);
  RW_RETURN_IF(!v, RW_ENOMEM, "shared memory watch");
  for (size_t i = 0; i < s->n; i++) {
    v[i][0] = s->v[i].start;
    v[i][1] = s->v[i].end;
  }
  rw_digest_set_skips(spec, v, s->n);
  free(v);
  return 0;
}

void rec__watch_free(struct rec *r) {
  rec__snap_free(&r->proc->watch);
  r->proc->watch_bytes = 0;
  r->proc->watch_all = 0;
}
