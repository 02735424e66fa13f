/* SPDX-License-Identifier: MIT */
/* Record cursors: one thread's records in order, or every thread's records
 * in global sequence order by a k-way merge over the streams (a binary heap
 * keyed by each stream's next sequence number). A stream's chunk is loaded
 * only when the merge reaches it, and seeking finds chunks by binary search
 * in the chunk table, so nothing is decompressed that is not read. The merge
 * also checks that no sequence number is missing: the writer numbers records
 * 1, 2, 3... across all streams, so a gap is a lost chunk. */
#include <stdlib.h>
#include <string.h>

#include "format/format_int.h"

/* One stream's position. */
struct sub {
  const struct trace__stream *st;
  u32 next;       /* position in st->chunks of the chunk to load next */
  int loaded;     /* buf holds a checked chunk with records left */
  u8 *buf;
  size_t cap;
  u32 raw_len;    /* bytes of records in buf */
  size_t pos;     /* offset of the next record in buf */
  u64 chunk_off;  /* file offset of the loaded chunk */
  u64 min_seq;    /* records below this are skipped (seek) */
};

/* Bounds the decompressed chunks a merge holds at once (one per stream). */
#define CURSOR_MEM_MAX ((size_t)1 << 30)

struct trace_cursor {
  trace_reader *r;
  size_t mem;     /* bytes of all subs' buffers */
  ZSTD_DCtx *dctx;
  struct sub *subs;
  size_t nsubs;
  u32 *heap;      /* indices into subs, min-heap on key() */
  size_t nheap;
  int merge;      /* every stream: sequence numbers must be contiguous */
  u64 expect;     /* with merge: the sequence number due next */
  u64 lost_lo, lost_hi; /* range of the last chunk that could not be read:
                           its gap has been reported with it */
  u64 quiet_until; /* a gap up to here has been reported */
  /* A record of the general registers alone, handed out as the record it
   * stands for (expand()). */
  u8 wide[8 + 8 + RW_REGS_DISK_SIZE + 4];
};

/* SYSCALL_ENTER_GP and SYSCALL_EXIT_GP (format 1.11) are SYSCALL_ENTER and
 * SYSCALL_EXIT with fp_valid 0 that leave out the FP/SSE/AVX part: REC
 * becomes that record, in C's buffer, the part zero. One too short for its
 * registers stays as it is, for its reader to refuse like any payload that
 * does not decode. */
static void expand(trace_cursor *c, struct trace_record *rec) {
  if (rec->type == TRACE_REC_SYSCALL_ENTER_GP) {
    struct trace_rec_syscall_enter_gp g;
    if (trace_rec_syscall_enter_gp_get(&g, rec->data, rec->len) < 0) return;
    struct trace_rec_syscall_enter e = {g.nr, g.regs, 0};
    trace_rec_syscall_enter_put(c->wide, &e);
    rec->type = TRACE_REC_SYSCALL_ENTER;
    rec->len = (u32)trace_rec_syscall_enter_size(&e);
  } else {
    struct trace_rec_syscall_exit_gp g;
    if (trace_rec_syscall_exit_gp_get(&g, rec->data, rec->len) < 0) return;
    struct trace_rec_syscall_exit x = {g.nr, g.result, g.regs, 0};
    trace_rec_syscall_exit_put(c->wide, &x);
    rec->type = TRACE_REC_SYSCALL_EXIT;
    rec->len = (u32)trace_rec_syscall_exit_size(&x);
  }
  rec->data = c->wide;
}

/* The sequence number a sub is ordered by: its next record's when a chunk is
 * loaded, else a lower bound, the next chunk's first seq. */
static u64 key(const trace_cursor *c, u32 i) {
  const struct sub *s = &c->subs[i];
  if (s->loaded) return rd_le64(s->buf + s->pos + 6);
  return c->r->chunks[s->st->chunks[s->next]].seq_first;
}

static void sift_down(trace_cursor *c, size_t i) {
  for (;;) {
    size_t l = 2 * i + 1, m = i;
    if (l < c->nheap && key(c, c->heap[l]) < key(c, c->heap[m])) m = l;
    if (l + 1 < c->nheap && key(c, c->heap[l + 1]) < key(c, c->heap[m]))
      m = l + 1;
    if (m == i) return;
    u32 t = c->heap[i];
    c->heap[i] = c->heap[m];
    c->heap[m] = t;
    i = m;
  }
}

/* Rebuilds the heap from every sub that has records left. */
static void heap_init(trace_cursor *c) {
  c->nheap = 0;
  for (size_t i = 0; i < c->nsubs; i++)
    if (c->subs[i].loaded || c->subs[i].next < c->subs[i].st->n)
      c->heap[c->nheap++] = (u32)i;
  for (size_t i = c->nheap / 2; i-- > 0;) sift_down(c, i);
}

/* Drops the heap's top (a sub that has nothing left). */
static void heap_pop(trace_cursor *c) {
  c->heap[0] = c->heap[--c->nheap];
  sift_down(c, 0);
}

/* Skips records below min_seq in S's loaded chunk; unloads it if none is
 * left. */
static void skip_below(struct sub *s) {
  while (s->pos < s->raw_len && rd_le64(s->buf + s->pos + 6) < s->min_seq)
    s->pos += TRACE__REC_HDR + rd_le32(s->buf + s->pos + 2);
  if (s->pos >= s->raw_len) s->loaded = 0;
}

/* Loads S's next chunk. On failure the chunk is passed over, so the caller
 * may continue with the rest of the stream after reporting the error. */
static int sub_load(trace_cursor *c, struct sub *s, struct rw_diag *diag) {
  u32 idx = s->st->chunks[s->next++];
  const struct trace__chunk *ch = &c->r->chunks[idx];
  if (ch->raw_len > s->cap) {
    /* A hostile trace could make every stream hold a huge chunk at once. */
    if (c->mem - s->cap + ch->raw_len > CURSOR_MEM_MAX)
      return rw_diag_set(diag, RW_ELIMIT, ch->offset,
                         "chunk at offset %llu: reading it would hold more "
                         "than %zu MiB of chunks at once",
                         (unsigned long long)ch->offset, CURSOR_MEM_MAX >> 20);
    c->mem -= s->cap;
    free(s->buf);
    s->buf = NULL;
    s->cap = 0;
    RW_FORWARD(trace__reserve(&s->buf, &s->cap, ch->raw_len));
    c->mem += s->cap;
  }
  int rc = trace__chunk_load(c->r, idx, c->dctx, &s->buf, &s->cap, diag);
  if (rc == 0) rc = trace__records_check(ch, s->buf, diag);
  if (rc < 0) {
    c->lost_lo = ch->seq_first;
    c->lost_hi = ch->seq_last;
    return rc;
  }
  s->raw_len = ch->raw_len;
  s->pos = 0;
  s->chunk_off = ch->offset;
  s->loaded = 1;
  skip_below(s);
  return 0;
}

int trace_cursor_open(trace_cursor **out, trace_reader *r, u32 tid) {
  trace_cursor *c;
  *out = NULL;
  if (tid != TRACE_ALL_THREADS && !trace__stream_find(r, tid))
    return RW_ENOTFOUND;
  c = calloc(1, sizeof *c);
  RW_RETURN_IF(!c, RW_ENOMEM, "cursor");
  c->r = r;
  c->nsubs = tid == TRACE_ALL_THREADS ? r->nstreams : 1;
  c->dctx = ZSTD_createDCtx();
  c->subs = calloc(c->nsubs ? c->nsubs : 1, sizeof *c->subs);
  c->heap = calloc(c->nsubs ? c->nsubs : 1, sizeof *c->heap);
  if (!c->dctx || !c->subs || !c->heap) {
    trace_cursor_close(c);
    return RW_ENOMEM;
  }
  for (size_t i = 0; i < c->nsubs; i++)
    c->subs[i].st = tid == TRACE_ALL_THREADS ? &r->streams[i]
                                             : trace__stream_find(r, tid);
  c->merge = tid == TRACE_ALL_THREADS;
  c->expect = trace__first_seq(r);
  heap_init(c);
  *out = c;
  return 0;
}

int trace_cursor_seek(trace_cursor *c, u64 seq) {
  for (size_t i = 0; i < c->nsubs; i++) {
    struct sub *s = &c->subs[i];
    s->loaded = 0;
    s->min_seq = seq;
    s->next = trace__stream_lower(c->r, s->st, seq);
  }
  c->expect = seq ? seq : trace__first_seq(c->r);
  c->lost_lo = c->lost_hi = c->quiet_until = 0;
  heap_init(c);
  return 0;
}

/* The merge met record SEQ of sub S where c->expect was due. Reports the
 * gap once per group of chunks (trace__group_find) and returns the error,
 * or 1 when it is reported already; either way the next call goes on with
 * the record. A record that comes twice is an error each time. */
static int gap(trace_cursor *c, const struct sub *s, u64 seq,
               struct rw_diag *diag) {
  u64 want = c->expect, lo = want, hi = seq - 1, missing = seq - want;
  u64 where = s->chunk_off;
  const struct trace__group *g;
  c->expect = seq;
  if (seq < want)
    return rw_diag_set(diag, RW_ECORRUPT, s->chunk_off,
                       "record %llu of thread %u (chunk at offset %llu) "
                       "comes again after record %llu",
                       (unsigned long long)seq, s->st->tid,
                       (unsigned long long)s->chunk_off,
                       (unsigned long long)(want - 1));
  if (want >= c->lost_lo && seq - 1 <= c->lost_hi) return 1;
  if (want <= c->quiet_until) return 1;
  g = trace__group_find(c->r, want);
  if (g) { /* records of another thread are mixed in: say how many */
    c->quiet_until = g->hi;
    lo = g->lo;
    hi = g->hi;
    missing = g->hi - g->lo + 1 - g->count;
    where = g->offset; /* where trace_reader_open places it too */
  }
  if (trace__gap_is_cut(c->r, !c->r->complete))
    return rw_diag_set(diag, RW_ETRUNC, where,
                       "records from %llu on are not in the trace (%llu of "
                       "%llu..%llu): the recording was cut off before they "
                       "were written",
                       (unsigned long long)want, (unsigned long long)missing,
                       (unsigned long long)lo, (unsigned long long)hi);
  return rw_diag_set(diag, RW_ECORRUPT, where,
                     "records from %llu on are missing (%llu of %llu..%llu), "
                     "before thread %u's chunk at offset %llu: a chunk of "
                     "the trace is lost",
                     (unsigned long long)want, (unsigned long long)missing,
                     (unsigned long long)lo, (unsigned long long)hi,
                     s->st->tid, (unsigned long long)s->chunk_off);
}

int trace_cursor_next(trace_cursor *c, struct trace_record *rec,
                      struct rw_diag *diag) {
  while (c->nheap) {
    struct sub *s = &c->subs[c->heap[0]];
    if (!s->loaded) {
      int rc = sub_load(c, s, diag);
      if (s->loaded) {
        sift_down(c, 0); /* its key rose from the chunk's lower bound */
      } else if (s->next >= s->st->n) {
        heap_pop(c);
      } else {
        sift_down(c, 0);
      }
      if (rc < 0) return rc;
      continue;
    }
    const u8 *p = s->buf + s->pos;
    u64 seq = rd_le64(p + 6);
    if (c->merge && seq != c->expect) {
      int rc = gap(c, s, seq, diag);
      if (rc <= 0) return rc;
      continue; /* reported already: go on with this record */
    }
    c->expect = seq + 1;
    rec->type = rd_le16(p);
    rec->len = rd_le32(p + 2);
    rec->seq = seq;
    rec->data = p + TRACE__REC_HDR;
    rec->tid = s->st->tid;
    rec->chunk_offset = s->chunk_off;
    s->pos += TRACE__REC_HDR + rec->len;
    if (rec->type == TRACE_REC_SYSCALL_ENTER_GP ||
        rec->type == TRACE_REC_SYSCALL_EXIT_GP)
      expand(c, rec);
    if (s->pos >= s->raw_len) {
      s->loaded = 0;
      if (s->next >= s->st->n) {
        /* The record stays valid: the buffer lives until the next call. */
        heap_pop(c);
        return 1;
      }
    }
    sift_down(c, 0);
    return 1;
  }
  return 0;
}

void trace_cursor_close(trace_cursor *c) {
  if (!c) return;
  for (size_t i = 0; i < c->nsubs; i++) free(c->subs[i].buf);
  free(c->subs);
  free(c->heap);
  ZSTD_freeDCtx(c->dctx);
  free(c);
}
