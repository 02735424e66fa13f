/* SPDX-License-Identifier: MIT */
/* Histories that begin at a recorder keyframe, and the pieces of a
 * recording between two of them (rewind replay --verify -j N).
 *
 * A recorder keyframe (format/format.h, TRACE_KF_RECORDER) names a blob
 * that is a trace of its own, holding the records a history begins with.
 * A replay opened with rp_opts.start_keyframe k reads those first (step.c,
 * rp__fetch, gives them the sequence number just before the keyframe's),
 * then the recording's records from the keyframe's on; with end_seq it
 * stops before a record, as a trace cut there would.
 *
 * So the segment from keyframe k to keyframe k + 1 is a replay of its own.
 * It is right when it ends in the state keyframe k + 1 records: the same
 * threads with the same registers, the same mappings with the same bytes.
 * rp_state_compare checks that between two replays, one at the end of the
 * segment, one at the beginning of the next. Below each thread's stack
 * pointer (past the red zone) the bytes are not compared: they are dead,
 * and hold what no replay reproduces (common/digest.h, dead ranges). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/endian.h"
#include "replayer/rp_int.h"

#define SEG_USER_END (1ull << 47)
#define SEG_PAGE 4096ull
#define SEG_RED_ZONE 128

/* The recorder keyframe entries of TR, in order: their indexes among all
 * keyframes in IX (up to CAP); returns how many there are. */
static size_t recorder_kfs(trace_reader *tr, size_t *ix, size_t cap) {
  size_t n = 0, nk = trace_reader_nkeyframes(tr);
  for (size_t i = 0; i < nk; i++) {
    struct trace_keyframe_info ki;
    if (trace_reader_keyframe_info(tr, i, &ki) == 0 &&
        ki.kind == TRACE_KF_RECORDER) {
      if (n < cap) ix[n] = i;
      n++;
    }
  }
  return n;
}

/* Keyframe entry I's payload: the sequence number, the state's blob, the
 * recorder's clock when it wrote it (CLOCK may be NULL). */
static int read_kf(trace_reader *tr, size_t i, u64 *seq, u64 *len,
                   u8 hash[32], u64 *clock, struct rw_diag *diag) {
  u8 p[TRACE_KF_RECORDER_SIZE];
  i64 got = trace_reader_keyframe_read(tr, i, p, sizeof p, diag);
  if (got < 0) return (int)got;
  if (got < (i64)sizeof p || rd_le32(p) != 1)
    return rw_diag_set(diag, RW_ECORRUPT, 0, "recorder keyframe %zu: %s",
                       i, got < (i64)sizeof p ? "too short"
                                              : "of an unknown version");
  *seq = rd_le64(p + 8);
  *len = rd_le64(p + 16);
  memcpy(hash, p + 24, 32);
  if (clock) *clock = rd_le64(p + 56);
  return 0;
}

int rp_recorder_keyframes(const char *path, u64 **seqs, u64 **clocks,
                          size_t *n, u64 *first, struct rw_diag *diag) {
  trace_reader *tr;
  *seqs = NULL;
  if (clocks) *clocks = NULL;
  *n = 0;
  RW_FORWARD(trace_reader_open(&tr, path, diag));
  struct trace_info in;
  trace_reader_get_info(tr, &in);
  if (first) *first = in.seq_first;
  size_t count = recorder_kfs(tr, NULL, 0);
  size_t *ix = calloc(count + 1, sizeof *ix);
  u64 *v = calloc(count + 1, sizeof *v), *c = calloc(count + 1, sizeof *c);
  int rc = ix && v && c ? 0 : RW_ENOMEM;
  if (rc == 0) recorder_kfs(tr, ix, count);
  for (size_t i = 0; i < count && rc == 0; i++) {
    u64 len;
    u8 hash[32];
    rc = read_kf(tr, ix[i], &v[i], &len, hash, &c[i], diag);
  }
  free(ix);
  trace_reader_close(tr);
  if (rc < 0 || !clocks) free(c);
  if (rc < 0) {
    free(v);
    return rc;
  }
  *seqs = v;
  if (clocks) *clocks = c;
  *n = count;
  return 0;
}

int rp__segment_first(rp_replay *rp) {
  size_t ix;
  u64 seq, len;
  u8 hash[32];
  struct trace_info in;
  struct rw_diag d = {0};
  if (!recorder_kfs(rp->trace.tr, &ix, 1) ||
      read_kf(rp->trace.tr, ix, &seq, &len, hash, NULL, &d) < 0)
    return 0;
  trace_reader_get_info(rp->trace.tr, &in);
  /* None but after it (or none at all: a recorder killed just after). */
  return !trace_reader_nrecords(rp->trace.tr) || in.seq_first >= seq;
}

/* A MEM_FROM record of a keyframe's state, for putting a run of them in
 * the order their bytes lie in the trace. */
struct mf_key {
  u8 blob[32];
  u64 offset, addr, len;
  size_t i;
};

static int by_blob(const void *x, const void *y) {
  const struct mf_key *a = x, *b = y;
  int c = memcmp(a->blob, b->blob, 32);
  if (c) return c;
  if (a->offset != b->offset) return a->offset < b->offset ? -1 : 1;
  return a->i < b->i ? -1 : a->i > b->i;
}

static int by_addr(const void *x, const void *y) {
  const struct mf_key *a = x, *b = y;
  if (a->addr != b->addr) return a->addr < b->addr ? -1 : 1;
  return a->i < b->i ? -1 : a->i > b->i;
}

/* Puts the run V[0..N) of MEM_FROM records in the order of their blobs
 * and offsets. The recorder writes a state in address order, taking each
 * page from the keyframe that stored it first: a late keyframe's state
 * jumps between many blobs, and the reader, which keeps one decompressed
 * chunk, read the same chunks again and again (4 GB decompressed for a
 * state of 200 MB). Sorted, each chunk is decompressed once. A run whose
 * ranges overlap keeps its order (the later record wins). Returns 0 or
 * RW_ENOMEM. */
static int sort_run(struct trace_record *v, size_t n) {
  if (n < 2) return 0;
  struct mf_key *k = calloc(n, sizeof *k);
  struct trace_record *c = calloc(n, sizeof *c);
  int rc = k && c ? 0 : RW_ENOMEM;
  for (size_t i = 0; i < n && rc == 0; i++) {
    struct trace_rec_mem_from m;
    /* A malformed one: left where it is, for the replay to report. */
    if (trace_rec_mem_from_get(&m, v[i].data, v[i].len) < 0) {
      rc = 1;
      break;
    }
    k[i] = (struct mf_key){{0}, m.offset, m.addr, m.len, i};
    memcpy(k[i].blob, m.blob.b, 32);
  }
  if (rc == 0) {
    qsort(k, n, sizeof *k, by_addr);
    for (size_t i = 1; i < n && rc == 0; i++)
      if (k[i - 1].len > k[i].addr - k[i - 1].addr) rc = 1;
  }
  if (rc == 0) {
    qsort(k, n, sizeof *k, by_blob);
    memcpy(c, v, n * sizeof *c);
    for (size_t i = 0; i < n; i++) v[i] = c[k[i].i];
  }
  free(k);
  free(c);
  return rc < 0 ? rc : 0;
}

/* Reads every record of the state trace TR into RP (copies: the cursor's
 * buffers do not outlive the next record), each run of MEM_FROM records
 * in blob order. */
static int read_state(rp_replay *rp, trace_reader *tr, struct rw_diag *diag) {
  trace_cursor *cur;
  struct trace_record r;
  size_t cap = 0, nb = 0, capb = 0;
  int rc;
  RW_FORWARD(trace_cursor_open(&cur, tr, TRACE_ALL_THREADS));
  while ((rc = trace_cursor_next(cur, &r, diag)) > 0) {
    if (rp->trace.pro_n == cap) {
      size_t nc = cap ? 2 * cap : 256;
      struct trace_record *v = realloc(rp->trace.pro_recs, nc * sizeof *v);
      if (!v) {
        rc = RW_ENOMEM;
        break;
      }
      rp->trace.pro_recs = v;
      cap = nc;
    }
    if (capb - nb < r.len) {
      size_t nc = RW_MAX(2 * capb, nb + r.len + 4096);
      u8 *b = realloc(rp->trace.pro_bytes, nc);
      if (!b) {
        rc = RW_ENOMEM;
        break;
      }
      rp->trace.pro_bytes = b;
      capb = nc;
    }
    if (r.len) memcpy(rp->trace.pro_bytes + nb, r.data, r.len);
    r.data = (const u8 *)(uintptr_t)nb; /* an offset until the end */
    nb += r.len;
    rp->trace.pro_recs[rp->trace.pro_n++] = r;
  }
  trace_cursor_close(cur);
  RW_FORWARD(rc);
  struct trace_record *v = rp->trace.pro_recs;
  for (size_t i = 0; i < rp->trace.pro_n; i++)
    v[i].data = rp->trace.pro_bytes + (uintptr_t)v[i].data;
  for (size_t i = 0, j; i < rp->trace.pro_n; i = j) {
    /* A run: one process's (its pages come in a stream of their own) */
    for (j = i; j < rp->trace.pro_n && v[j].type == TRACE_REC_MEM_FROM &&
                v[j].tid == v[i].tid;
         j++) {}
    if (j > i)
      RW_FORWARD(sort_run(v + i, j - i));
    else
      j++;
  }
  return 0;
}

int rp__segment_begin(rp_replay *rp, struct rw_diag *diag) {
  u32 k = rp->opts.start_keyframe;
  trace_reader *tr = rp->trace.tr, *st = NULL;
  size_t count = recorder_kfs(tr, NULL, 0);
  if (k > count)
    return rw_diag_set(diag, RW_ENOTFOUND, 0, "the trace has %zu recorder "
                       "keyframe%s, not %u", count, count == 1 ? "" : "s",
                       k);
  size_t *ix = calloc(count, sizeof *ix);
  RW_RETURN_IF(!ix, RW_ENOMEM, "keyframes");
  recorder_kfs(tr, ix, count);
  u64 seq;
  size_t len;
  u8 *img = NULL;
  int rc = trace_reader_recorder_state(tr, ix[k - 1], &seq, &img, &len,
                                       diag);
  free(ix);
  RW_FORWARD(rc);
  rc = trace_reader_open_mem(&st, img, len, diag);
  if (rc == 0) rc = read_state(rp, st, diag);
  trace_reader_close(st);
  free(img);
  if (rc == 0) rc = trace_cursor_seek(rp->trace.cur, seq);
  if (rc < 0 && !diag->code)
    rw_diag_set(diag, rc, 0, "keyframe %u: %s", k, rw_strerror(rc));
  rp->trace.pro_seq = seq;
  return rc;
}

int rp__segment_next(rp_replay *rp, struct trace_record *r,
                     struct rw_diag *diag) {
  if (rp->trace.pro_i < rp->trace.pro_n) { /* the keyframe's state first */
    *r = rp->trace.pro_recs[rp->trace.pro_i++];
    r->seq = rp->trace.pro_seq - 1; /* before the trace's next record */
    rp->trace.pro_events++;
    return 1;
  }
  int rc = trace_cursor_next(rp->trace.cur, r, diag);
  if (rc > 0 && rp->trace.end_seq && r->seq >= rp->trace.end_seq) rc = 0;
  return rc;
}

/* ------------------------------------ where a state's pages came from */

int rp__prov_note(rp_replay *rp, const struct trace_rec_mem_from *m) {
  struct rp__prov *pv = &rp->prov;
  RW_FORWARD(rp__grow((void **)&pv->v, pv->n, &pv->cap, sizeof *pv->v));
  struct rp__from *f = &pv->v[pv->n++];
  *f = (struct rp__from){m->addr, m->len, m->offset, rp->proc->pid, 0,
                         {0}};
  memcpy(f->blob, m->blob.b, 32);
  return 0;
}

void rp__prov_seen(rp_replay *rp, u32 type) {
  switch (type) {
    case TRACE_REC_MEM_FROM:
    case TRACE_REC_AUXV:
    case TRACE_REC_THREAD_START:
    case TRACE_REC_THREAD_NAME:
    case TRACE_REC_XSTATE:
    case TRACE_REC_PKRU:
    case TRACE_REC_STACK_RULES:
    case TRACE_REC_PROTECT:
    case TRACE_REC_FORK: /* the parent's memory stays as it is */
    case TRACE_REC_NOTE:
    case TRACE_REC_CPUID:
      return;
    default: /* EXEC, MAP, MEM, ...: all the process's notes so far */
      for (size_t i = 0; i < rp->prov.n; i++)
        if (rp->prov.v[i].pid == rp->proc->pid) rp->prov.v[i].spoiled = 1;
  }
}

static int by_pid_addr(const void *x, const void *y) {
  const struct rp__from *a = x, *b = y;
  if (a->pid != b->pid) return a->pid < b->pid ? -1 : 1;
  return a->addr < b->addr ? -1 : a->addr > b->addr;
}

void rp__prov_seal(rp_replay *rp) {
  struct rp__prov *pv = &rp->prov;
  if (pv->n) qsort(pv->v, pv->n, sizeof *pv->v, by_pid_addr);
  /* Overlapping notes: which wrote a page last is not known here. */
  for (size_t i = 1; i < pv->n; i++)
    if (pv->v[i].pid == pv->v[i - 1].pid &&
        pv->v[i].addr - pv->v[i - 1].addr < pv->v[i - 1].len)
      pv->v[i].spoiled = pv->v[i - 1].spoiled = 1;
  pv->ref = 0;
  for (size_t i = 0; i < rp->tl.nkfs && pv->n; i++)
    if (rp->tl.kfs[i].icount == rp->icount && !rp->tl.kfs[i].from_index)
      pv->ref = rp->icount + 1;
}

/* D's note of the state's bytes at PAGE (a whole page) of process PID, or
 * NULL. */
static const struct rp__from *note_at(const rp_replay *d, u32 pid,
                                      u64 page) {
  const struct rp__from *v = d->prov.v;
  size_t lo = 0, hi = d->prov.n; /* the last at or before (pid, page) */
  while (lo < hi) {
    size_t mid = lo + (hi - lo) / 2;
    if (v[mid].pid < pid || (v[mid].pid == pid && v[mid].addr <= page))
      lo = mid + 1;
    else
      hi = mid;
  }
  if (!lo) return NULL;
  const struct rp__from *f = &v[lo - 1];
  return f->pid == pid && page - f->addr < f->len &&
                 f->len - (page - f->addr) >= SEG_PAGE
             ? f
             : NULL;
}

/* D's snapshot of its process Q at its reference keyframe, or NULL. */
static const cpu_snap *ref_snap(const rp_replay *d,
                                const struct rp__proc *q) {
  for (size_t i = 0; i < d->tl.nkfs; i++) {
    const struct rp__kf *kf = &d->tl.kfs[i];
    if (kf->icount + 1 != d->prov.ref || kf->from_index) continue;
    if (!q->ix) return kf->snap;
    return q->ix - 1 < kf->nkids ? kf->kids[q->ix - 1].snap : NULL;
  }
  return NULL;
}

int rp__prov_take(rp_replay *rp, const struct trace_rec_mem_from *m,
                  u64 page) {
  rp_replay *d = rp->prov.donor;
  u32 pid = rp->proc->pid;
  if (!d || !d->prov.ref) return 0;
  const struct rp__from *f = note_at(d, pid, page);
  if (!f || f->spoiled || memcmp(f->blob, m->blob.b, 32) ||
      f->off + (page - f->addr) != m->offset + (page - m->addr))
    return 0;
  struct rp__proc *q = d->root.pid == pid ? &d->root : NULL;
  for (size_t i = 0; i < d->nkids && !q; i++)
    if (d->kids[i]->exists && d->kids[i]->pid == pid) q = d->kids[i];
  const cpu_snap *snap = q ? ref_snap(d, q) : NULL;
  /* The donor's page holds those bytes: it loaded them from the same
   * place of the same blob, and nothing wrote the page since. */
  if (!snap || !cpu_mem_page_kept(q->mem, snap, page)) return 0;
  return cpu_mem_share_page(rp->proc->mem, page, q->mem);
}

void rp__segment_close(rp_replay *rp) {
  free(rp->prov.v);
  memset(&rp->prov, 0, sizeof rp->prov);
  free(rp->trace.pro_recs);
  free(rp->trace.pro_bytes);
  rp->trace.pro_recs = NULL;
  rp->trace.pro_bytes = NULL;
  rp->trace.pro_n = rp->trace.pro_i = 0;
}

/* ------------------------------------------------------------ comparing */

struct dead {
  u64 lo, hi;
};

/* The dead part of the stack of every thread of process P in A: from the
 * start of the mapping its stack pointer is in to below the red zone. */
static size_t dead_ranges(rp_replay *a, const struct rp__proc *p,
                          struct dead *d, size_t cap) {
  size_t n = 0;
  for (size_t i = 0; i < a->th.nthreads && n < cap; i++) {
    struct rp__thread *t = a->th.threads[i];
    if (!t->st.alive || t->proc != p) continue;
    struct rw_regs r;
    cpu_get_regs(t->cpu, &r);
    u64 sp = r.gpr[RW_REG_rsp], start, len;
    int prot;
    if (sp < SEG_RED_ZONE ||
        cpu_mem_query(t->proc->mem, sp - 1, &start, &len, &prot) < 0 ||
        start > sp - 1)
      continue;
    d[n++] = (struct dead){start, sp - SEG_RED_ZONE};
  }
  return n;
}

/* The first byte of page P (bytes X and Y, NULL for zeros) that differs
 * outside the dead ranges, or -1. */
static long first_diff(u64 p, const u8 *x, const u8 *y, const struct dead *d,
                       size_t nd) {
  static const u8 zeros[SEG_PAGE];
  if (!x) x = zeros;
  if (!y) y = zeros;
  if (!memcmp(x, y, SEG_PAGE)) return -1;
  for (size_t i = 0; i < SEG_PAGE; i++) {
    if (x[i] == y[i]) continue;
    int dead = 0;
    for (size_t j = 0; j < nd && !dead; j++)
      dead = p + i >= d[j].lo && p + i < d[j].hi;
    if (!dead) return (long)i;
  }
  return -1;
}

/* Compares the bytes of the pages that hold any in FROM with TO's; SWAP:
 * FROM is the keyframe's side (for the message). */
static int cmp_bytes(cpu_mem *from, cpu_mem *to, int swap,
                     const struct dead *d, size_t nd, char *why,
                     size_t cap) {
  u64 at = 0, page;
  int prot;
  const u8 *x, *y;
  while (at < SEG_USER_END &&
         cpu_mem_next_data(from, at, &page, &prot, &x) == 0) {
    at = page + SEG_PAGE;
    RW_FORWARD(cpu_mem_peek(to, page, &y));
    if (swap && y) continue; /* compared from the other side */
    if (x == y) continue; /* one page, shared (struct rp__prov) */
    long i = first_diff(page, x, y, d, nd);
    if (i < 0) continue;
    const u8 *seg = swap ? y : x, *kf = swap ? x : y;
    snprintf(why, cap, "memory at %#llx: the segment has %#04x, the "
             "keyframe %#04x", (unsigned long long)(page + (u64)i),
             seg ? seg[i] : 0, kf ? kf[i] : 0);
    return 1;
  }
  return 0;
}

static int cmp_maps(cpu_mem *x, cpu_mem *y, char *why, size_t cap) {
  u64 ax = 0, ay = 0, sx, lx, sy, ly;
  int px, py;
  for (;;) {
    int hx = cpu_mem_query(x, ax, &sx, &lx, &px) == 0;
    int hy = cpu_mem_query(y, ay, &sy, &ly, &py) == 0;
    if (!hx && !hy) return 0;
    if (hx != hy || sx != sy || lx != ly || px != py) {
      if (hx && hy)
        snprintf(why, cap, "mappings differ: the segment has %#llx-%#llx "
                 "(prot %d), the keyframe %#llx-%#llx (prot %d)",
                 (unsigned long long)sx, (unsigned long long)(sx + lx), px,
                 (unsigned long long)sy, (unsigned long long)(sy + ly), py);
      else
        snprintf(why, cap, "mappings differ: only the %s has %#llx-%#llx",
                 hx ? "segment" : "keyframe",
                 (unsigned long long)(hx ? sx : sy),
                 (unsigned long long)(hx ? sx + lx : sy + ly));
      return 1;
    }
    ax = sx + lx;
    ay = sy + ly;
  }
}

#define REG_DIFF(field, name)                                              \
  if (ra.field != rb.field) {                                              \
    snprintf(why, cap, "thread %u: %s is %#llx at the segment's end, "     \
             "%#llx in the keyframe", tid, name,                           \
             (unsigned long long)ra.field, (unsigned long long)rb.field);  \
    return 1;                                                              \
  }

static int cmp_thread(rp_replay *a, rp_replay *b, u32 tid, char *why,
                      size_t cap) {
  struct rw_regs ra, rb;
  if (rp_get_regs(b, tid, &rb) < 0) {
    snprintf(why, cap, "thread %u lives at the segment's end, but not in "
             "the keyframe", tid);
    return 1;
  }
  RW_FORWARD(rp_get_regs(a, tid, &ra));
  /* RF (the resume flag): a keyframe leaves it out (recorder/keyframe.c),
   * and a thread the kernel returned to a faulting instruction has it
   * until that instruction completes, here as in the replay. */
  ra.rflags &= ~(u64)0x10000;
  rb.rflags &= ~(u64)0x10000;
  for (int i = 0; i < RW_NGPR; i++) {
    if (ra.gpr[i] == rb.gpr[i]) continue;
    snprintf(why, cap, "thread %u: %s is %#llx at the segment's end, %#llx "
             "in the keyframe", tid, rw_gpr_name((unsigned)i),
             (unsigned long long)ra.gpr[i], (unsigned long long)rb.gpr[i]);
    return 1;
  }
  REG_DIFF(rip, "rip")
  REG_DIFF(rflags, "rflags")
  REG_DIFF(fs_base, "fs_base")
  REG_DIFF(gs_base, "gs_base")
  if (memcmp(ra.fxsave + 160, rb.fxsave + 160, 256) ||
      memcmp(ra.ymmh, rb.ymmh, sizeof ra.ymmh)) {
    snprintf(why, cap, "thread %u: the vector registers differ", tid);
    return 1;
  }
  if (memcmp(ra.zmmh, rb.zmmh, sizeof ra.zmmh) ||
      memcmp(ra.hi16, rb.hi16, sizeof ra.hi16) ||
      memcmp(ra.k, rb.k, sizeof ra.k)) {
    snprintf(why, cap, "thread %u: the AVX-512 registers differ", tid);
    return 1;
  }
  return 0;
}

int rp_state_compare(rp_replay *a, rp_replay *b, char *why, size_t cap) {
  size_t na = 0, nb = 0;
  for (size_t i = 0; i < a->th.nthreads; i++) {
    struct rp__thread *t = a->th.threads[i];
    if (!t->st.alive) continue;
    na++;
    int rc = cmp_thread(a, b, t->st.tid, why, cap);
    if (rc) return rc;
  }
  for (size_t i = 0; i < b->th.nthreads; i++) nb += b->th.threads[i]->st.alive;
  if (na != nb) {
    snprintf(why, cap, "the keyframe has %zu threads, the segment's end %zu",
             nb, na);
    return 1;
  }
  /* Every process's memory, found by its pid (its threads agree). */
  for (size_t k = 0; k <= a->nkids; k++) {
    struct rp__proc *p = k ? a->kids[k - 1] : &a->root, *q = NULL;
    if (k && !p->exists) continue;
    if (!rp__threads_alive_in(a, p)) continue;
    if (b->root.pid == p->pid) q = &b->root;
    for (size_t j = 0; j < b->nkids && !q; j++)
      if (b->kids[j]->exists && b->kids[j]->pid == p->pid) q = b->kids[j];
    if (!q) {
      snprintf(why, cap, "process %u lives at the segment's end, but not "
               "in the keyframe", p->pid);
      return 1;
    }
    int rc = cmp_maps(p->mem, q->mem, why, cap);
    struct dead d[256];
    size_t nd = dead_ranges(a, p, d, 64);
    /* Shared memory: a process's copy in a replay takes the others'
     * writes only where the recording imports them, so it may be behind
     * the keyframe, which holds the bytes as they were. */
    for (size_t i = 0; i < p->srcs.n && nd < sizeof d / sizeof *d; i++)
      if (p->srcs.v[i].shared)
        d[nd++] = (struct dead){p->srcs.v[i].start, p->srcs.v[i].end};
    if (rc == 0) rc = cmp_bytes(p->mem, q->mem, 0, d, nd, why, cap);
    if (rc == 0) rc = cmp_bytes(q->mem, p->mem, 1, d, nd, why, cap);
    if (rc < 0) return rc;
    if (rc) {
      if (k) { /* say whose */
        char t[400];
        snprintf(t, sizeof t, "process %u: %s", p->pid, why);
        snprintf(why, cap, "%s", t);
      }
      return 1;
    }
  }
  return 0;
}

/* ------------------------------------------------------------ a segment */

/* The options that open piece K of NKF + 1 (SEQS) with O's others. */
static struct rp_opts piece_opts(const struct rp_opts *o, u32 k,
                                 const u64 *seqs, size_t nkf) {
  struct rp_opts p = *o;
  p.whole = 1;
  p.no_index = 1;
  p.start_keyframe = k;
  p.end_seq = k < nkf ? seqs[k] : 0;
  /* A piece runs forward only: its replay keyframes serve no seek, and
   * each one makes the next write to every page it holds a copy; the
   * keyframe state's pages are many (xz -T2 with 0.1 s keyframes: 30%
   * of the pieces' time at the default spacing). A divergence's report
   * re-runs from the last one, so they are spaced, not gone. */
  if (!p.keyframe_interval) p.keyframe_interval = 1000000000ull;
  return p;
}

int rp_open_segment(const char *path, u32 k, const u64 *seqs, size_t nkf,
                    const struct rp_opts *o, rp_replay **out,
                    struct rw_diag *diag) {
  struct rp_opts p = piece_opts(o, k, seqs, nkf);
  return rp_open(out, path, &p, diag);
}

int rp_segment_stopped(rp_replay *rp, const struct rp_stop *stop,
                       struct rp_segment *out) {
  if (stop->reason != RP_STOP_DIVERGED && stop->reason != RP_STOP_FAILED)
    return 0;
  out->status = stop->reason == RP_STOP_DIVERGED ? RP_SEG_DIVERGED
                                                 : RP_SEG_FAILED;
  out->damaged = stop->damaged;
  snprintf(out->msg, sizeof out->msg, "%s", stop->msg);
  FILE *f = fmemopen(out->report, sizeof out->report - 1, "w");
  if (f) {
    if (rp_report(rp, f) < 0) fprintf(f, "%s\n", stop->msg);
    fclose(f);
  }
  return 1;
}

/* The history of A, which ended where keyframe K + 1 begins, goes on to
 * the record END_SEQ (0: the end of the trace), as a replay from the start
 * goes through the keyframe. */
static int go_on(rp_replay *a, u64 k_seq, u64 end_seq) {
  a->fin.ended = 0;
  a->fin.end_icount = 0;
  memset(&a->fin.end, 0, sizeof a->fin.end);
  a->trace.end_seq = end_seq;
  /* The cursor read the record at the end, which the history did not
   * take: read it again. */
  return trace_cursor_seek(a->trace.cur, k_seq);
}

/* Makes the memory of every process of A that lives on hold exactly what
 * B (which stands where A does, rp_state_compare says) holds: the bytes
 * the comparison leaves out (the dead part of each stack, shared memory
 * another process writes) become the keyframe's, so A goes on from the
 * state a replay that begins at that keyframe would have. Returns 0 or a
 * negative code. */
static int adopt(rp_replay *a, rp_replay *b) {
  static const u8 zeros[SEG_PAGE];
  for (size_t k = 0; k <= a->nkids; k++) {
    struct rp__proc *p = k ? a->kids[k - 1] : &a->root, *q = NULL;
    if ((k && !p->exists) || p->lender || !rp__threads_alive_in(a, p))
      continue;
    if (b->root.pid == p->pid) q = &b->root;
    for (size_t j = 0; j < b->nkids && !q; j++)
      if (b->kids[j]->exists && b->kids[j]->pid == p->pid) q = b->kids[j];
    if (!q) continue; /* the comparison said otherwise */
    u64 at = 0, page;
    int prot;
    const u8 *x, *y;
    /* The keyframe's pages that hold something... */
    while (at < SEG_USER_END &&
           cpu_mem_next_data(q->mem, at, &page, &prot, &y) == 0) {
      at = page + SEG_PAGE;
      RW_FORWARD(cpu_mem_peek(p->mem, page, &x));
      if (x == y || (x && !memcmp(x, y, SEG_PAGE))) continue;
      int rc = cpu_mem_share_page(p->mem, page, q->mem);
      RW_FORWARD(rc);
      if (!rc) RW_FORWARD(cpu_mem_write(p->mem, page, y, SEG_PAGE));
    }
    /* ...and those that are zeros there. */
    for (at = 0; at < SEG_USER_END &&
                 cpu_mem_next_data(p->mem, at, &page, &prot, &x) == 0;) {
      at = page + SEG_PAGE;
      RW_FORWARD(cpu_mem_peek(q->mem, page, &y));
      if (!y && memcmp(x, zeros, SEG_PAGE))
        RW_FORWARD(cpu_mem_write(p->mem, page, zeros, SEG_PAGE));
    }
  }
  return 0;
}

/* Whether A stands where keyframe K + 1 begins (OUT says when not); with
 * KEEP, A takes the keyframe's bytes where the comparison let them differ
 * (adopt), and the state's notes (struct rp__prov) with a keyframe of its
 * own here, to lend its pages to the check of the next keyframe. */
static void check_end(rp_replay *a, const char *path, u32 k, const u64 *seqs,
                      size_t nkf, int keep, struct rp_segment *out) {
  struct rp_opts none = {0}, o = piece_opts(&none, k, seqs, nkf);
  struct rw_diag d = {0};
  rp_replay *b = NULL;
  if (k >= nkf) return;
  /* Keyframe k + 1's state alone: none of the records after it applied
   * (it ends where piece K does). */
  o.start_keyframe = k + 1;
  o.defer_blob_hash = a->opts.defer_blob_hash;
  int rc = rp__open(&b, path, &o, a, &d);
  if (rc < 0) {
    out->status = RP_SEG_ERROR;
    snprintf(out->msg, sizeof out->msg, "keyframe %u: %s", k + 1,
             d.msg[0] ? d.msg : rw_strerror(rc));
    return;
  }
  char why[400];
  rc = rp_state_compare(a, b, why, sizeof why);
  if (rc < 0) {
    out->status = RP_SEG_ERROR;
    snprintf(out->msg, sizeof out->msg, "%s", rw_strerror(rc));
  } else if (rc) {
    out->status = RP_SEG_DIVERGED;
    snprintf(out->msg, sizeof out->msg, "at its end (instruction %llu of "
             "the segment, event %llu) the replay is not where keyframe %u "
             "begins: %s",
             (unsigned long long)rp_icount(a),
             (unsigned long long)rp_event(a), k + 1, why);
  } else if (keep && (rc = adopt(a, b)) < 0) {
    out->status = RP_SEG_ERROR;
    snprintf(out->msg, sizeof out->msg, "keyframe %u: %s", k + 1,
             rw_strerror(rc));
  } else if (keep) {
    free(a->prov.v);
    a->prov = b->prov;
    memset(&b->prov, 0, sizeof b->prov);
    a->prov.donor = NULL;
    a->prov.ref = 0;
    if (rp__kf_take(a) == 0) rp__prov_seal(a);
  }
  rp_close(b);
}

void rp_segment_end(rp_replay *a, const char *path, u32 k, const u64 *seqs,
                    size_t nkf, struct rp_segment *out) {
  check_end(a, path, k, seqs, nkf, 0, out);
}

void rp_segment_blobs(rp_replay *a, size_t part, size_t parts,
                      struct rp_segment *out) {
  struct rw_diag d = {0};
  if (rp_check_blobs_part(a, part, parts, &d) == 0) return;
  out->blobs_bad = 1;
  out->blob_offset = d.offset;
  snprintf(out->blob_msg, sizeof out->blob_msg, "%s",
           d.msg[0] ? d.msg : rw_strerror(d.code));
}

int rp_verify_segment(const char *path, u32 k, u32 end, const u64 *seqs,
                      size_t nkf, size_t part, size_t parts,
                      struct rp_segment *out) {
  memset(out, 0, sizeof *out);
  out->index = k;
  out->last = k;
  struct rp_opts none = {0}, o = piece_opts(&none, k, seqs, nkf);
  o.defer_blob_hash = 1;
  rp_replay *a = NULL;
  struct rw_diag d = {0};
  u64 t0 = rw_now_ns();
  int rc = rp_open(&a, path, &o, &d);
  if (rc < 0) {
    out->status = RP_SEG_ERROR;
    snprintf(out->msg, sizeof out->msg, "%s", d.msg[0] ? d.msg
                                                       : rw_strerror(rc));
    return 0;
  }
  /* Interval J (from keyframe J to J + 1) at a time: each keyframe the
   * piece passes is checked, and the replay goes on from its own state
   * (the same, once checked), as one from the start does. */
  for (u32 j = k;; j++) {
    out->last = j;
    struct rp_stop stop;
    rc = rp_run(a, ~0ull, &stop);
    struct rp_stats st;
    rp_get_stats(a, &st);
    out->instructions = rp_icount(a);
    out->events = st.events - st.keyframe_events;
    out->checks = st.checks;
    out->outputs = st.outputs;
    out->digests = st.digests;
    if (rc < 0) {
      out->status = RP_SEG_ERROR;
      snprintf(out->msg, sizeof out->msg, "%s", rw_strerror(rc));
      break;
    }
    if (rp_segment_stopped(a, &stop, out)) break; /* diverged or failed */
    if (j >= nkf) { /* the last: to the end of the recording */
      out->finished = stop.finished;
      out->end_checked = st.end_checked;
      out->end = stop;
      break;
    }
    check_end(a, path, j, seqs, nkf, j + 1 < end, out);
    if (out->status || j + 1 >= end) break;
    rc = go_on(a, seqs[j], j + 1 < nkf ? seqs[j + 1] : 0);
    if (rc < 0) {
      out->status = RP_SEG_ERROR;
      snprintf(out->msg, sizeof out->msg, "%s", rw_strerror(rc));
      break;
    }
  }
  rp_segment_blobs(a, part, parts, out);
  out->secs = (double)(rw_now_ns() - t0) / 1e9;
  rp_close(a);
  return 0;
}
