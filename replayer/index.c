/* SPDX-License-Identifier: MIT */
/* The persistent index of a trace (rewind index): the replay's own
 * keyframes, saved so that a later session starts anywhere without
 * replaying what comes before (architecture section 3, "instant start").
 *
 * The index is a file of rewind's trace format next to the trace
 * (TRACE.idx) that holds no records, only KEYFRAME chunks and metadata:
 *
 *   kind 2, "pages": seq is the id of its first page; u32 n, then n
 *     pages of 4096 bytes. Ids count from 0 across the file.
 *   kind 1, "state": seq is the keyframe's global instruction count; the
 *     replay's position there, every process (its mappings, their
 *     sources, its program images and its pages as (address, page id)
 *     pairs) and every thread (its registers and what the replay knows of
 *     it), encoded by put_state below, and last a seal: the SHA-256 of
 *     all that.
 *
 * A page that did not change since the previous keyframe keeps its id: the
 * replay's memory is copy on write, and a page nobody wrote since a
 * snapshot is the same object, so the writer compares page pointers, and
 * holds the previous keyframe's snapshots so that no page is freed and its
 * memory reused in between. The metadata index_of names the trace the
 * index belongs to (its size and a hash of its first and last 4096
 * bytes): a replay uses an index only when that matches.
 *
 * The metadata cpuid_log holds the trace's CPUID records (their sequence
 * numbers and answers), which a replay that starts at an index keyframe
 * has not met.
 *
 * A replay that opens a trace with an index reads the table of its
 * keyframes; a seek that finds its nearest keyframe of memory farther
 * back than an index keyframe loads that one into the timeline
 * (rp__index_fill), where it is a keyframe as any other. */
#define _GNU_SOURCE
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "common/endian.h"
#include "replayer/rp_int.h"

#define IX_PAGE CPU_PAGE_SIZE
#define IX_PAGES_PER_CHUNK 256
#define IX_KIND_STATE 1
#define IX_KIND_PAGES 2
#define IX_META_OF "index_of"
#define IX_META_VERSION "index_version"
#define IX_VERSION "3"
/* Every CPUID record of the trace (rp->cpuidfix after the whole replay):
 * a replay that starts at a keyframe of the index has not met those
 * before it. n * 32 bytes: u64 seq, u32 leaf, subleaf, eax, ebx, ecx,
 * edx, little-endian. */
#define IX_META_CPUID "cpuid_log"
#define IX_SEAL 32 /* a state's last bytes: SHA-256 of the rest */
#define IX_MAX_PROCS 65536u
#define IX_MAX_ITEMS (1u << 26)

/* ------------------------------------------------------------ identity */

int rp__index_identity(const char *trace, char *out, size_t cap) {
  int fd = open(trace, O_RDONLY | O_CLOEXEC);
  RW_RETURN_IF(fd < 0, RW_ERR(errno), "%s", trace);
  struct stat st;
  u8 buf[8192], h[32];
  size_t n = 0;
  if (fstat(fd, &st) == 0) {
    ssize_t a = pread(fd, buf, 4096, 0);
    off_t at = st.st_size > 4096 ? st.st_size - 4096 : 0;
    ssize_t b = pread(fd, buf + (a > 0 ? a : 0), 4096, at);
    n = (size_t)(a > 0 ? a : 0) + (size_t)(b > 0 ? b : 0);
  }
  close(fd);
  RW_FORWARD(rw_sha256(buf, n, h));
  int k = snprintf(out, cap, "%llu ", (unsigned long long)st.st_size);
  for (int i = 0; i < 16 && k + 2 < (int)cap; i++)
    k += snprintf(out + k, cap - (size_t)k, "%02x", h[i]);
  return 0;
}

/* -------------------------------------------------------- a byte buffer */

struct buf {
  u8 *p;
  size_t n, cap;
  int err;
};

static void put(struct buf *b, const void *src, size_t len) {
  if (b->err) return;
  if (b->n + len > b->cap) {
    size_t cap = b->cap ? b->cap : 4096;
    while (cap < b->n + len) cap *= 2;
    u8 *p = realloc(b->p, cap);
    if (!p) {
      b->err = RW_ENOMEM;
      return;
    }
    b->p = p, b->cap = cap;
  }
  memcpy(b->p + b->n, src, len);
  b->n += len;
}
static void put64(struct buf *b, u64 v) {
  u8 x[8];
  wr_le64(x, v);
  put(b, x, 8);
}
static void put32(struct buf *b, u32 v) {
  u8 x[4];
  wr_le32(x, v);
  put(b, x, 4);
}
static void putstr(struct buf *b, const char *s, size_t n) {
  put32(b, (u32)n);
  put(b, s, n);
}

/* A bounded reader: any read past the end sets bad and reads zeros. */
struct rd {
  const u8 *p;
  size_t n, at;
  int bad;
};
static const u8 *take(struct rd *r, size_t len) {
  static const u8 zeros[64];
  if (r->bad || len > r->n - r->at) {
    r->bad = 1;
    return len <= sizeof zeros ? zeros : NULL;
  }
  const u8 *p = r->p + r->at;
  r->at += len;
  return p;
}
static u64 get64(struct rd *r) { return rd_le64(take(r, 8)); }
static u32 get32(struct rd *r) { return rd_le32(take(r, 4)); }
/* A count of at most MAX items of at least MIN bytes each. */
static u32 getn(struct rd *r, u32 max, size_t min) {
  u32 n = get32(r);
  if (n > max || (min && n > (r->n - r->at) / min)) r->bad = 1;
  return r->bad ? 0 : n;
}
static char *getstr(struct rd *r) {
  u32 n = getn(r, 1u << 20, 1);
  const u8 *p = take(r, n);
  char *s = malloc((size_t)n + 1);
  if (!s) return NULL;
  if (p && n) memcpy(s, p, n);
  s[n] = 0;
  return s;
}

/* --------------------------------------------------------------- writer */

/* What the writer keeps of a process between keyframes: its pages at the
 * previous one (address, object, id), and a snapshot that holds them. */
struct wproc {
  u64 *addr;
  const u8 **ptr;
  u32 *id;
  size_t n;
  cpu_snap *snap;
};

struct writer {
  rp_replay *rp;
  trace_writer *w;
  struct wproc *procs; /* index: proc ix */
  size_t nprocs;
  u8 *pages;           /* pages waiting for their chunk */
  u32 npending, next_id;
  struct rp_index_stats *st;
};

static int flush_pages(struct writer *x) {
  if (!x->npending) return 0;
  u8 *p = x->pages - 4;
  wr_le32(p, x->npending);
  u32 first = x->next_id - x->npending;
  int rc = trace_writer_add_keyframe(x->w, IX_KIND_PAGES, first, p,
                                     4 + (size_t)x->npending * IX_PAGE);
  x->npending = 0;
  return rc;
}

static int new_page(struct writer *x, const u8 *bytes, u32 *id) {
  memcpy(x->pages + (size_t)x->npending * IX_PAGE, bytes, IX_PAGE);
  x->npending++;
  *id = x->next_id++;
  x->st->pages++;
  if (x->npending == IX_PAGES_PER_CHUNK) return flush_pages(x);
  return 0;
}

/* The pages of process P (its own memory) into B, as (address, id). */
static int put_pages(struct writer *x, struct buf *b, struct rp__proc *p) {
  if (p->ix >= x->nprocs) {
    struct wproc *v = realloc(x->procs, (p->ix + 1) * sizeof *v);
    RW_RETURN_IF(!v, RW_ENOMEM, "index processes");
    memset(v + x->nprocs, 0, (p->ix + 1 - x->nprocs) * sizeof *v);
    x->procs = v;
    x->nprocs = p->ix + 1;
  }
  struct wproc *w = &x->procs[p->ix], now;
  memset(&now, 0, sizeof now);
  size_t cap = 0, j = 0;
  u64 at = 0, page;
  int prot;
  const u8 *bytes;
  int rc = 0;
  while (rc == 0 && cpu_mem_next_data(p->mem, at, &page, &prot, &bytes) == 0) {
    at = page + IX_PAGE;
    if (now.n == cap) {
      cap = cap ? 2 * cap : 1024;
      u64 *a = realloc(now.addr, cap * sizeof *a);
      if (a) now.addr = a;
      const u8 **q = realloc(now.ptr, cap * sizeof *q);
      if (q) now.ptr = q;
      u32 *d = realloc(now.id, cap * sizeof *d);
      if (d) now.id = d;
      if (!a || !q || !d) {
        rc = RW_ENOMEM;
        break;
      }
    }
    while (j < w->n && w->addr[j] < page) j++;
    u32 id;
    if (j < w->n && w->addr[j] == page && w->ptr[j] == bytes)
      id = w->id[j];
    else
      rc = new_page(x, bytes, &id);
    now.addr[now.n] = page;
    now.ptr[now.n] = bytes;
    now.id[now.n++] = id;
  }
  put32(b, (u32)now.n);
  for (size_t i = 0; i < now.n; i++) {
    put64(b, now.addr[i]);
    put32(b, now.id[i]);
  }
  if (rc == 0) rc = cpu_mem_snapshot(p->mem, &now.snap);
  free(w->addr);
  free(w->ptr);
  free(w->id);
  cpu_snap_free(w->snap);
  *w = now;
  return rc;
}

static void put_proc(struct writer *x, struct buf *b, struct rp__proc *p) {
  rp_replay *rp = x->rp;
  int own = p->exists || p == &rp->root;
  put32(b, (u32)own);
  put32(b, p->pid);
  put64(b, p->fork_seq);
  put32(b, p->parent ? p->parent->ix : ~0u);
  put32(b, p->lender ? p->lender->ix : ~0u);
  put64(b, p->stack.rlimit);
  put64(b, p->stack.guard_gap);
  put64(b, p->stack.min_addr);
  put32(b, (u32)p->srcs.n);
  for (size_t i = 0; i < p->srcs.n; i++) {
    const struct rp__src *s = &p->srcs.v[i];
    put64(b, s->start);
    put64(b, s->end);
    put64(b, s->offset);
    put64(b, s->eof);
    put64(b, s->fend);
    put(b, s->hash, 32);
    put32(b, (u32)s->prot);
    put32(b, (u32)s->growsdown);
    put32(b, (u32)s->shared);
    put64(b, s->object);
    putstr(b, s->path, strlen(s->path));
  }
  put32(b, (u32)p->nimages);
  for (size_t i = 0; i < p->nimages; i++) {
    const struct rp__image *im = &p->images[i];
    put64(b, im->seq);
    put32(b, im->pid);
    putstr(b, im->path, strlen(im->path));
    putstr(b, (const char *)im->auxv, im->auxv ? im->auxv_len : 0);
  }
  /* Its mappings, run by run of one protection. */
  u64 at = 0, start, len;
  int prot;
  size_t nat = b->n;
  u32 nruns = 0;
  put32(b, 0);
  while (own && !p->lender &&
         cpu_mem_query(p->mem, at, &start, &len, &prot) == 0) {
    put64(b, start);
    put64(b, len);
    put32(b, (u32)prot);
    nruns++;
    at = start + len;
  }
  if (!b->err) wr_le32(b->p + nat, nruns);
}

static void put_thread(struct buf *b, const struct rp__thread *t) {
  const struct rp__tstate *s = &t->st;
  struct rw_regs regs;
  u8 enc[RW_REGS_DISK_SIZE];
  put32(b, s->tid);
  put64(b, s->start_seq);
  put(b, s->name, sizeof s->name);
  put32(b, (u32)s->alive);
  put32(b, (u32)s->in_syscall);
  put64(b, s->sys_nr);
  put32(b, (u32)s->restart);
  put64(b, (u64)s->restart_result);
  put32(b, (u32)s->located);
  put32(b, (u32)s->fresh);
  put32(b, s->proc_ix);
  put64(b, cpu_icount(t->cpu));
  cpu_get_regs(t->cpu, &regs);
  rw_regs_encode(&regs, enc);
  put(b, enc, sizeof enc);
  for (int k = 0; k < 8; k++) put64(b, regs.k[k]);
  put(b, regs.zmmh, sizeof regs.zmmh);
  put(b, regs.hi16, sizeof regs.hi16);
  put32(b, cpu_pkru(t->cpu));
  put32(b, cpu_xinuse(t->cpu));
}

/* Whether the replay stands where a keyframe of the index may be taken:
 * no thread in the middle of a rep string instruction (which a register
 * file cannot resume), none inside an execve between its images. */
static int takeable(const rp_replay *rp) {
  if (rp->th.exec_nr || !rp->th.nthreads) return 0;
  for (size_t i = 0; i < rp->th.nthreads; i++)
    if (cpu_rep_paused(rp->th.threads[i]->cpu)) return 0;
  return 1;
}

static int put_state(struct writer *x) {
  rp_replay *rp = x->rp;
  struct buf b = {0};
  put64(&b, rp->icount);
  put64(&b, rp->trace.events);
  put64(&b, rp->trace.have_pend ? rp->trace.pend.seq : rp->trace.last_seq + 1);
  put64(&b, rp->pt_icount);
  put64(&b, rp->pt_events);
  put32(&b, rp->th.cur_tid);
  u32 cur = ~0u;
  for (size_t i = 0; i < rp->th.nthreads; i++)
    if (rp->th.threads[i] == rp->th.thr) cur = (u32)i;
  put32(&b, cur);
  put32(&b, (u32)rp->fin.root_ended);
  put32(&b, (u32)rp->fin.root_status);
  put32(&b, (u32)rp->fin.root_signo);
  put32(&b, (u32)(rp->nkids + 1));
  int rc = 0;
  for (size_t i = 0; i <= rp->nkids && rc == 0; i++) {
    struct rp__proc *p = rp__proc_at(rp, (u32)i);
    put_proc(x, &b, p);
    if ((p->exists || p == &rp->root) && !p->lender)
      rc = put_pages(x, &b, p);
    else
      put32(&b, 0);
  }
  put32(&b, (u32)rp->th.nthreads);
  for (size_t i = 0; i < rp->th.nthreads; i++)
    put_thread(&b, rp->th.threads[i]);
  /* The seal: a state changed after it was written (by hand, or by a
   * tool that rewrote the file and its checksums) is refused whole,
   * where a decoder could only catch what breaks its structure. */
  u8 seal[IX_SEAL];
  if (rc == 0 && !b.err) rc = rw_sha256(b.p, b.n, seal);
  put(&b, seal, sizeof seal);
  if (rc == 0) rc = b.err;
  /* Its pages first: a reader of a cut index finds every page a state
   * names. */
  if (rc == 0) rc = flush_pages(x);
  if (rc == 0)
    rc = trace_writer_add_keyframe(x->w, IX_KIND_STATE, rp->icount, b.p, b.n);
  if (rc == 0) x->st->keyframes++;
  x->st->state_bytes += b.n;
  free(b.p);
  return rc;
}

/* The CPUID records the replay met, all of the trace's once it has run to
 * the end, as the metadata cpuid_log. */
static int put_cpuid_log(struct writer *x) {
  rp_replay *rp = x->rp;
  u8 *v = malloc(rp->ncpuidfix * 32 + 1);
  RW_RETURN_IF(!v, RW_ENOMEM, "cpuid log");
  for (size_t i = 0; i < rp->ncpuidfix; i++) {
    wr_le64(v + 32 * i, rp->cpuidfix[i].seq);
    for (int k = 0; k < 6; k++)
      wr_le32(v + 32 * i + 8 + 4 * k, rp->cpuidfix[i].e[k]);
  }
  int rc = trace_writer_set_meta(x->w, IX_META_CPUID, v, rp->ncpuidfix * 32);
  free(v);
  return rc;
}

int rp_index_write(rp_replay *rp, const struct rp_index_opts *o,
                   struct rp_index_stats *st, struct rw_diag *diag) {
  struct writer x;
  memset(&x, 0, sizeof x);
  memset(st, 0, sizeof *st);
  x.rp = rp;
  x.st = st;
  char id[128];
  RW_FORWARD(rp__index_identity(rp->trace.path, id, sizeof id));
  u8 *pages = malloc(4 + (size_t)IX_PAGES_PER_CHUNK * IX_PAGE);
  RW_RETURN_IF(!pages, RW_ENOMEM, "index pages");
  x.pages = pages + 4;
  struct trace_writer_opts wo = {0};
  wo.overwrite = o->overwrite;
  int rc = trace_writer_open(&x.w, o->out, &wo);
  if (rc < 0) {
    free(pages);
    return rw_diag_set(diag, rc, 0, "cannot create %s: %s", o->out,
                       rw_strerror(rc));
  }
  rc = trace_writer_set_meta(x.w, IX_META_OF, id, strlen(id));
  if (rc == 0)
    rc = trace_writer_set_meta(x.w, IX_META_VERSION, IX_VERSION,
                               strlen(IX_VERSION));
  u64 interval = o->interval ? o->interval : RP_INDEX_INTERVAL;
  u64 next = rp->icount;
  struct rp_stop stop;
  while (rc == 0) {
    if (rp->icount >= next && takeable(rp)) {
      rc = put_state(&x);
      next = rp->icount + interval;
      if (rc < 0) break;
    }
    u64 to = rp->icount >= next ? rp->icount + 1 : next;
    rc = rp_run(rp, to, &stop);
    if (rc < 0) break;
    if (stop.reason == RP_STOP_END) break;
    if (stop.reason == RP_STOP_DIVERGED || stop.reason == RP_STOP_FAILED) {
      rc = rw_diag_set(diag, RW_ECORRUPT, 0, "the replay %s: %s",
                       stop.reason == RP_STOP_DIVERGED ? "diverged"
                                                       : "failed",
                       stop.msg);
      break;
    }
  }
  st->end = rp->icount;
  if (rc == 0) rc = flush_pages(&x);
  if (rc == 0) rc = put_cpuid_log(&x);
  int crc = trace_writer_close(x.w);
  if (rc == 0) rc = crc;
  for (size_t i = 0; i < x.nprocs; i++) {
    free(x.procs[i].addr);
    free(x.procs[i].ptr);
    free(x.procs[i].id);
    cpu_snap_free(x.procs[i].snap);
  }
  free(x.procs);
  free(pages);
  if (rc < 0) remove(o->out);
  return rc;
}

/* --------------------------------------------------------------- reader */

struct ix_state {
  u64 icount;
  size_t ki; /* keyframe entry */
};
struct ix_chunk {
  u64 first;
  size_t ki;
};

struct rp__index {
  trace_reader *tr;
  struct ix_state *states;
  size_t nstates;
  struct ix_chunk *chunks; /* by first page id */
  size_t nchunks;
  u8 *cache;               /* the pages chunk last read */
  size_t cache_ki;
  u32 cache_n;
  u64 cache_first;
  u64 loaded;              /* keyframes loaded so far */
};

void rp__index_close(rp_replay *rp) {
  struct rp__index *ix = rp->index;
  if (!ix) return;
  trace_reader_close(ix->tr);
  free(ix->states);
  free(ix->chunks);
  free(ix->cache);
  free(ix);
  rp->index = NULL;
}

/* The index is not used from here on, because of CODE (WHAT). */
static int drop(rp_replay *rp, int code, const char *what) {
  rw_log(RW_LOG_INFO, "note: the index of %s is not used: %s (%s)",
         rp->trace.path, what, rw_strerror(code));
  rp__index_close(rp);
  return 0;
}

/* Whether the index IX (its reader open) was made for the trace at PATH,
 * in this version; NULL, or why not. */
static const char *unfit(trace_reader *tr, const char *path) {
  char want[128];
  const void *v;
  size_t n;
  if (rp__index_identity(path, want, sizeof want) < 0 ||
      trace_reader_meta(tr, IX_META_OF, &v, &n) < 0 ||
      n != strlen(want) || memcmp(v, want, n))
    return "it was made for another trace, or an earlier state of this "
           "one; rewind index makes it again";
  if (trace_reader_meta(tr, IX_META_VERSION, &v, &n) < 0 ||
      n != strlen(IX_VERSION) || memcmp(v, IX_VERSION, n))
    return "it was made by another version of rewind; rewind index "
           "makes it again";
  return NULL;
}

static size_t count_states(trace_reader *tr) {
  size_t n = 0, nk = trace_reader_nkeyframes(tr);
  for (size_t i = 0; i < nk; i++) {
    struct trace_keyframe_info ki;
    n += trace_reader_keyframe_info(tr, i, &ki) == 0 &&
         ki.kind == IX_KIND_STATE;
  }
  return n;
}

int rp_index_check(const char *trace, size_t *keyframes, char *why,
                   size_t cap) {
  char path[4200];
  snprintf(path, sizeof path, "%s.idx", trace);
  *keyframes = 0;
  if (access(path, F_OK) != 0) return -1;
  trace_reader *tr;
  struct rw_diag d = {0};
  int rc = trace_reader_open(&tr, path, &d);
  if (rc < 0) {
    snprintf(why, cap, "%s", d.msg[0] ? d.msg : rw_strerror(rc));
    return 0;
  }
  const char *no = unfit(tr, trace);
  if (no) snprintf(why, cap, "%s", no);
  else *keyframes = count_states(tr);
  trace_reader_close(tr);
  return !no;
}

int rp__index_open(rp_replay *rp, const char *path) {
  if (access(path, F_OK) != 0) return 0;
  struct rp__index *ix = calloc(1, sizeof *ix);
  RW_RETURN_IF(!ix, RW_ENOMEM, "index");
  rp->index = ix;
  struct rw_diag d = {0};
  int rc = trace_reader_open(&ix->tr, path, &d);
  if (rc < 0) return drop(rp, rc, d.msg[0] ? d.msg : "cannot be read");
  const char *no = unfit(ix->tr, rp->trace.path);
  if (no) return drop(rp, RW_EINVAL, no);
  const void *v;
  size_t n;
  if (trace_reader_meta(ix->tr, IX_META_CPUID, &v, &n) < 0 || n % 32)
    return drop(rp, RW_ECORRUPT, "its log of CPUID records is missing or "
                "malformed; rewind index makes it again");
  for (size_t i = 0; i < n / 32; i++) {
    const u8 *e = (const u8 *)v + 32 * i;
    struct rp__cpuid_fix f = {rd_le64(e), {0}};
    for (int k = 0; k < 6; k++) f.e[k] = rd_le32(e + 8 + 4 * k);
    if (rp__cpuid_note(rp, &f) < 0) return drop(rp, RW_ENOMEM, "memory");
  }
  size_t nk = trace_reader_nkeyframes(ix->tr);
  ix->states = calloc(nk + 1, sizeof *ix->states);
  ix->chunks = calloc(nk + 1, sizeof *ix->chunks);
  if (!ix->states || !ix->chunks) return drop(rp, RW_ENOMEM, "memory");
  for (size_t i = 0; i < nk; i++) {
    struct trace_keyframe_info ki;
    if (trace_reader_keyframe_info(ix->tr, i, &ki) < 0) continue;
    if (ki.kind == IX_KIND_STATE)
      ix->states[ix->nstates++] = (struct ix_state){ki.seq, i};
    else if (ki.kind == IX_KIND_PAGES)
      ix->chunks[ix->nchunks++] = (struct ix_chunk){ki.seq, i};
  }
  ix->cache_ki = ~(size_t)0;
  return 0;
}

/* The bytes of page ID (borrowed until the next call), or NULL. */
static const u8 *page_bytes(struct rp__index *ix, u64 id) {
  if (!(ix->cache_ki != ~(size_t)0 && id >= ix->cache_first &&
        id < ix->cache_first + ix->cache_n)) {
    size_t lo = 0, hi = ix->nchunks;
    while (hi - lo > 1) {
      size_t mid = (lo + hi) / 2;
      if (ix->chunks[mid].first <= id) lo = mid;
      else hi = mid;
    }
    if (!ix->nchunks || ix->chunks[lo].first > id) return NULL;
    size_t cap = 4 + (size_t)IX_PAGES_PER_CHUNK * IX_PAGE;
    if (!ix->cache && !(ix->cache = malloc(cap))) return NULL;
    struct rw_diag d = {0};
    i64 got = trace_reader_keyframe_read(ix->tr, ix->chunks[lo].ki,
                                         ix->cache, cap, &d);
    ix->cache_ki = ~(size_t)0;
    if (got < 4) return NULL;
    u32 n = rd_le32(ix->cache);
    if (n > IX_PAGES_PER_CHUNK || (u64)got < 4 + (u64)n * IX_PAGE)
      return NULL;
    ix->cache_ki = ix->chunks[lo].ki;
    ix->cache_first = ix->chunks[lo].first;
    ix->cache_n = n;
    if (id >= ix->cache_first + n) return NULL;
  }
  return ix->cache + 4 + (size_t)(id - ix->cache_first) * IX_PAGE;
}

static int get_srcs(struct rd *r, struct rp__srcs *out) {
  u32 n = getn(r, IX_MAX_ITEMS, 96);
  memset(out, 0, sizeof *out);
  if (!n) return r->bad ? RW_ECORRUPT : 0;
  out->v = calloc(n, sizeof *out->v);
  RW_RETURN_IF(!out->v, RW_ENOMEM, "index sources");
  out->cap = n;
  for (u32 i = 0; i < n; i++) {
    struct rp__src *s = &out->v[i];
    s->start = get64(r);
    s->end = get64(r);
    s->offset = get64(r);
    s->eof = get64(r);
    s->fend = get64(r);
    const u8 *h = take(r, 32);
    if (h) memcpy(s->hash, h, 32);
    s->prot = (int)get32(r);
    s->growsdown = (int)get32(r);
    s->shared = (int)get32(r);
    s->object = get64(r);
    s->path = getstr(r);
    out->n++;
    RW_RETURN_IF(!s->path, RW_ENOMEM, "index source path");
  }
  return r->bad ? RW_ECORRUPT : 0;
}

/* The images of process P that it has not met yet. */
static int get_images(struct rd *r, struct rp__proc *p) {
  u32 n = getn(r, IX_MAX_ITEMS, 16);
  for (u32 i = 0; i < n && !r->bad; i++) {
    u64 seq = get64(r);
    u32 pid = get32(r);
    char *path = getstr(r);
    u32 alen = getn(r, 1u << 20, 1);
    const u8 *auxv = take(r, alen);
    RW_RETURN_IF(!path, RW_ENOMEM, "index image");
    if (p->nimages && p->images[p->nimages - 1].seq >= seq) {
      free(path);
      continue;
    }
    if (p->nimages == p->capimages) {
      size_t cap = p->capimages ? 2 * p->capimages : 4;
      struct rp__image *v = realloc(p->images, cap * sizeof *v);
      if (!v) free(path);
      RW_RETURN_IF(!v, RW_ENOMEM, "images");
      p->images = v;
      p->capimages = cap;
    }
    struct rp__image *im = &p->images[p->nimages++];
    memset(im, 0, sizeof *im);
    im->seq = seq;
    im->pid = pid;
    im->path = path;
    if (alen && auxv && (im->auxv = malloc(alen))) {
      memcpy(im->auxv, auxv, alen);
      im->auxv_len = alen;
    }
  }
  return r->bad ? RW_ECORRUPT : 0;
}

/* An address space from its runs and pages, frozen into *SNAP. It is
 * built in T, the space it will be restored into (a snapshot belongs to
 * the space it was taken of), whose state is put back afterwards. */
static int get_space(rp_replay *rp, struct rd *r, cpu_mem *t,
                     cpu_snap **snap) {
  cpu_snap *was;
  u64 start, len;
  int prot;
  RW_FORWARD(cpu_mem_snapshot(t, &was));
  int rc = cpu_mem_alias_set(t, NULL, 0);
  while (rc == 0 && cpu_mem_query(t, 0, &start, &len, &prot) == 0)
    rc = cpu_mem_unmap(t, start, len);
  u32 nruns = getn(r, IX_MAX_ITEMS, 20);
  for (u32 i = 0; i < nruns && rc == 0 && !r->bad; i++) {
    u64 a = get64(r), n = get64(r);
    u32 pr = get32(r);
    if ((a | n) & (IX_PAGE - 1) || !n || a >= RP_INDEX_USER_END ||
        n > RP_INDEX_USER_END - a || pr > 7)
      rc = RW_ECORRUPT;
    else
      rc = cpu_mem_map(t, a, n, (int)pr);
  }
  u32 npages = rc == 0 ? getn(r, IX_MAX_ITEMS, 12) : 0;
  for (u32 i = 0; i < npages && rc == 0 && !r->bad; i++) {
    u64 a = get64(r);
    u32 id = get32(r);
    const u8 *bytes = page_bytes(rp->index, id);
    rc = !bytes || (a & (IX_PAGE - 1)) || a >= RP_INDEX_USER_END
             ? RW_ECORRUPT
             : cpu_mem_write(t, a, bytes, IX_PAGE);
  }
  if (rc == 0 && r->bad) rc = RW_ECORRUPT;
  if (rc == 0) rc = cpu_mem_snapshot(t, snap);
  int back = cpu_mem_restore(t, was);
  cpu_snap_free(was);
  return rc < 0 ? rc : back;
}

static int get_threads(rp_replay *rp, struct rd *r, struct rp__kf *kf,
                       u32 nprocs) {
  u32 n = getn(r, IX_MAX_ITEMS, 64);
  if (!n) return r->bad ? RW_ECORRUPT : 0;
  size_t size = cpu_state_size();
  kf->threads = calloc(n, sizeof *kf->threads);
  kf->states = malloc((size_t)n * size);
  RW_RETURN_IF(!kf->threads || !kf->states, RW_ENOMEM, "index threads");
  cpu_mem *m;
  cpu_thread *cpu;
  RW_FORWARD(cpu_mem_new(&m));
  int rc = cpu_new(m, &rp->root.cfg, &cpu);
  for (u32 i = 0; i < n && rc == 0; i++) {
    struct rp__kthread *k = &kf->threads[i];
    struct rp__tstate *s = &k->st;
    struct rw_regs regs;
    s->tid = get32(r);
    s->start_seq = get64(r);
    const u8 *name = take(r, sizeof s->name);
    if (name) memcpy(s->name, name, sizeof s->name);
    s->name[sizeof s->name - 1] = 0;
    s->alive = (int)get32(r);
    s->in_syscall = (int)get32(r);
    s->sys_nr = get64(r);
    s->restart = (int)get32(r);
    s->restart_result = (i64)get64(r);
    s->located = (int)get32(r);
    s->fresh = (int)get32(r);
    s->proc_ix = get32(r);
    k->cpu_icount = get64(r);
    const u8 *enc = take(r, RW_REGS_DISK_SIZE);
    if (!enc || rw_regs_decode(&regs, enc, RW_REGS_DISK_SIZE) < 0) {
      rc = RW_ECORRUPT;
      break;
    }
    for (int j = 0; j < 8; j++) regs.k[j] = get64(r);
    const u8 *z = take(r, sizeof regs.zmmh);
    if (z) memcpy(regs.zmmh, z, sizeof regs.zmmh);
    const u8 *h = take(r, sizeof regs.hi16);
    if (h) memcpy(regs.hi16, h, sizeof regs.hi16);
    u32 pkru = get32(r), xin = get32(r);
    if (r->bad || s->proc_ix >= nprocs) {
      rc = RW_ECORRUPT;
      break;
    }
    regs.pkru = pkru;
    rc = cpu_set_regs(cpu, &regs);
    cpu_set_pkru(cpu, pkru);
    cpu_set_xinuse(cpu, xin);
    k->state = kf->states + (size_t)i * size;
    cpu_state_save(cpu, k->state);
    kf->nthreads++;
  }
  cpu_free(cpu);
  cpu_mem_free(m);
  return rc;
}

/* Keyframe entry KI of the index, decoded into KF. */
static int load(rp_replay *rp, size_t ki, struct rp__kf *kf) {
  struct rp__index *ix = rp->index;
  struct trace_keyframe_info info;
  RW_FORWARD(trace_reader_keyframe_info(ix->tr, ki, &info));
  RW_RETURN_IF(info.raw_len > (64u << 20), RW_ECORRUPT, "index state");
  u8 *data = malloc(info.raw_len ? info.raw_len : 1);
  RW_RETURN_IF(!data, RW_ENOMEM, "index state");
  struct rw_diag d = {0};
  i64 got = trace_reader_keyframe_read(ix->tr, ki, data, info.raw_len, &d);
  struct rd r = {data, got > 0 ? (size_t)got : 0, 0, got < 0};
  memset(kf, 0, sizeof *kf);
  u8 seal[IX_SEAL];
  if (r.n < IX_SEAL || rw_sha256(data, r.n - IX_SEAL, seal) < 0 ||
      memcmp(seal, data + r.n - IX_SEAL, IX_SEAL)) {
    free(data);
    return RW_ECORRUPT;
  }
  r.n -= IX_SEAL;
  kf->icount = get64(&r);
  kf->events = get64(&r);
  kf->next_seq = get64(&r);
  kf->pt_icount = get64(&r);
  kf->pt_events = get64(&r);
  kf->cur_tid = get32(&r);
  kf->cur_index = (int)get32(&r);
  kf->root_ended = (int)get32(&r);
  kf->root_status = (int)get32(&r);
  kf->root_signo = (int)get32(&r);
  u32 nprocs = getn(&r, IX_MAX_PROCS, 60);
  int rc = r.bad || !nprocs || kf->icount != info.seq ? RW_ECORRUPT : 0;
  if (rc == 0 && nprocs > 1) {
    kf->kids = calloc(nprocs - 1, sizeof *kf->kids);
    kf->nkids = nprocs - 1;
    if (!kf->kids) rc = RW_ENOMEM;
  }
  for (u32 i = 0; i < nprocs && rc == 0; i++) {
    u32 own = get32(&r), pid = get32(&r);
    u64 fork_seq = get64(&r);
    u32 parent = get32(&r), lender = get32(&r);
    struct rp__proc *p = &rp->root;
    if (i) { /* the kid of that FORK, as the replay numbers them */
      rc = rp__proc_of_fork(rp, fork_seq, pid, &p);
      if (rc == 0 && p->ix != i) rc = RW_ECORRUPT;
      if (rc < 0) break;
      p->pid = pid;
      p->cfg = rp->root.cfg;
      if (parent < i) p->parent = rp__proc_at(rp, parent);
    }
    struct rp__stack_rules stack;
    stack.rlimit = get64(&r);
    stack.guard_gap = get64(&r);
    stack.min_addr = get64(&r);
    struct rp__srcs srcs;
    rc = get_srcs(&r, &srcs);
    if (rc == 0) rc = get_images(&r, p);
    cpu_snap *snap = NULL;
    if (rc == 0 && lender == ~0u && own) {
      cpu_mem *t = i ? p->own : rp->root.mem;
      rc = get_space(rp, &r, t, &snap);
      /* Its aliases, cleared to build it, back as they were. */
      if (p->mem == t) {
        struct rp__proc *cur = rp->proc;
        rp->proc = p;
        int back = rp__alias_sync(rp);
        rp->proc = cur;
        if (rc == 0) rc = back;
      }
    } else if (rc == 0) { /* no runs, no pages */
      if (get32(&r) || get32(&r)) rc = RW_ECORRUPT;
    }
    if (rc < 0 || r.bad) {
      rp__srcs_free(&srcs);
      cpu_snap_free(snap);
      rc = rc < 0 ? rc : RW_ECORRUPT;
      break;
    }
    if (!i) {
      kf->snap = snap;
      kf->srcs = srcs;
      kf->stack = stack;
    } else {
      struct rp__kproc *k = &kf->kids[i - 1];
      k->exists = (int)own;
      k->lender = lender < i ? rp__proc_at(rp, lender) : NULL;
      k->snap = snap;
      k->srcs = srcs;
      k->stack = stack;
    }
  }
  if (rc == 0) rc = get_threads(rp, &r, kf, nprocs);
  if (rc == 0 && (r.bad || r.at != r.n || !kf->snap ||
                  (kf->cur_index != -1 && kf->cur_index >= (int)kf->nthreads)))
    rc = RW_ECORRUPT;
  free(data);
  if (rc < 0) rp__kf_free(kf);
  return rc;
}

int rp__index_fill(rp_replay *rp, u64 icount) {
  struct rp__index *ix = rp->index;
  if (!ix || !ix->nstates) return 0;
  size_t best = ~(size_t)0;
  for (size_t i = 0; i < ix->nstates; i++)
    if (ix->states[i].icount <= icount) best = i;
  if (best == ~(size_t)0) return 0;
  const struct rp__kf *have = rp__kf_before(rp, icount, 0);
  u64 at = ix->states[best].icount;
  if (have && have->icount >= at) return 0;
  /* Nearer than the index's: the current position, before it. */
  if (rp->icount <= icount && rp->icount >= at && !rp->fin.ended) return 0;
  struct rp__kf kf;
  int rc = load(rp, ix->states[best].ki, &kf);
  if (rc == RW_ENOMEM) return rc;
  if (rc < 0) return drop(rp, rc, "its keyframe is damaged");
  /* A history that ends with the debugger's process does not go on
   * past its end: neither does a start from the index. */
  const struct rp__proc *own = rp->user.proc;
  int gone = own == &rp->root ? kf.root_ended
             : own && own->ix && own->ix <= kf.nkids &&
                       kf.icount >= rp->user.floor_icount
                 ? !kf.kids[own->ix - 1].exists
                 : 0;
  if (!rp->opts.whole && !rp->user.tree && gone) {
    rp__kf_free(&kf);
    ix->nstates = best;
    return 0;
  }
  ix->loaded++;
  kf.from_index = 1;
  return rp__kf_insert(rp, &kf);
}

u64 rp__index_loaded(const rp_replay *rp) {
  return rp->index ? rp->index->loaded : 0;
}

int rp_index_state(const rp_replay *rp, size_t *keyframes) {
  if (keyframes) *keyframes = rp->index ? rp->index->nstates : 0;
  return rp->index != NULL;
}
