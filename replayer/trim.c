/* SPDX-License-Identifier: MIT */
/* rewind trim: a window of a history written as a trace of its own.
 *
 * The replay runs to the window's first instruction and writes what it
 * holds there the way `rewind record -p` writes a process it attaches to
 * (man/rewind-trace.5, ATTACHED PROCESSES): EXEC, a MAP for every mapping
 * with MEM records for each line that differs from the mapping's file (or
 * from zeros), AUXV, each thread's THREAD_START, XSTATE, PKRU and
 * THREAD_NAME, STACK_RULES. A thread inside a syscall there starts inside
 * it (THREAD_START's inside, format 1.14); a thread the replay had located
 * at an asynchronous stop gets a PREEMPT that locates it again at once.
 * Every other process alive there is forked by its parent and runs its
 * own program (or has its own memory). Then the records the
 * replay consumes up to the window's last instruction are copied as they
 * are, and, unless the window reaches the end of the history, a PREEMPT
 * locates the running thread there and DETACH closes the trace with the
 * memory digest of that point. The files the window's mappings name are
 * copied, no others.
 *
 * Digests written here leave nothing out: both sides are this emulator's
 * state, whatever the recorded ones left out (dead stacks, memory other
 * processes share) is the same bytes in both replays.
 *
 * The window cannot start where the first process has ended or where a
 * process's first thread has ended before its others. */
#define _GNU_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/digest.h"
#include "common/endian.h"
#include "replayer/rp_int.h"

#define TRIM_PAGE CPU_PAGE_SIZE
#define TRIM_LINE 64
#define TRIM_MEM_MAX (256u << 10) /* bytes per MEM record */
#define NR_restart_syscall 219
#define RP_USER_TOP (1ull << 47) /* the end of user space */

struct trim {
  rp_replay *rp;
  trace_writer *w;
  struct rp_trim_stats *st;
  struct rw_diag *diag;
  u32 lead;          /* the stream of the process's records */
  u8 (*blobs)[32];   /* the files to copy; owned */
  size_t nblobs, capblobs;
  u8 *want;          /* a mapping's file bytes, RP_BUF; owned */
};

static int blob_note(struct trim *tm, const u8 h[32]) {
  if (rp__is_zero_hash(h)) return 0;
  for (size_t i = 0; i < tm->nblobs; i++)
    if (!memcmp(tm->blobs[i], h, 32)) return 0;
  if (tm->nblobs == tm->capblobs) {
    size_t cap = tm->capblobs ? 2 * tm->capblobs : 32;
    u8(*v)[32] = realloc(tm->blobs, cap * sizeof *v);
    RW_RETURN_IF(!v, RW_ENOMEM, "blobs");
    tm->blobs = v, tm->capblobs = cap;
  }
  memcpy(tm->blobs[tm->nblobs++], h, 32);
  return 0;
}

/* MEM records for [A, A + N) of the replay's memory, at most TRIM_MEM_MAX
 * bytes each. */
static int emit_mem(struct trim *tm, u64 a, const u8 *p, size_t n) {
  while (n) {
    size_t k = RW_MIN(n, (size_t)TRIM_MEM_MAX);
    struct trace_rec_mem m = {a, {p, k}};
    RW_FORWARD(trace_rec_mem_append(tm->w, tm->lead, &m));
    tm->st->mem_bytes += k;
    a += k, p += k, n -= k;
  }
  return 0;
}

/* The lines of the page at A (bytes P, NULL: zeros) that differ from WANT
 * (NULL: zeros), as MEM records. */
static int page_diff(struct trim *tm, u64 a, const u8 *p, const u8 *want) {
  static const u8 zeros[TRIM_PAGE];
  if (!p) p = zeros;
  if (!want) want = zeros;
  if (p == want) return 0;
  size_t run = 0, i;
  for (i = 0; i < TRIM_PAGE; i += TRIM_LINE) {
    if (memcmp(p + i, want + i, TRIM_LINE)) {
      run += TRIM_LINE;
      continue;
    }
    if (run) RW_FORWARD(emit_mem(tm, a + i - run, p + i - run, run));
    run = 0;
  }
  if (run) RW_FORWARD(emit_mem(tm, a + i - run, p + i - run, run));
  return 0;
}

/* The bytes of [A, B), mapped from SRC (NULL: anonymous memory), as MEM
 * records where they differ from what its MAP gives. */
static int contents(struct trim *tm, const struct rp__src *src, u64 a, u64 b) {
  rp_replay *rp = tm->rp;
  cpu_mem *mem = rp->proc->mem;
  if (!src || rp__is_zero_hash(src->hash)) {
    /* Zeros: only the pages ever written can differ. */
    u64 page;
    int prot;
    const u8 *bytes;
    while (a < b && cpu_mem_next_data(mem, a, &page, &prot, &bytes) == 0 &&
           page < b) {
      RW_FORWARD(page_diff(tm, page, bytes, NULL));
      a = page + TRIM_PAGE;
    }
    return 0;
  }
  u64 off = src->offset + (a - src->start);
  while (a < b) {
    size_t n = (size_t)RW_MIN(b - a, (u64)RP_BUF);
    struct rw_diag d = {0};
    i64 got = trace_reader_blob_read(rp->trace.tr, src->hash, off, tm->want,
                                     n, &d);
    if (got < 0)
      return rw_diag_set(tm->diag, (int)got, d.offset,
                         "the contents of %s in the trace: %s", src->path,
                         d.msg[0] ? d.msg : rw_strerror((int)got));
    memset(tm->want + got, 0, n - (size_t)got); /* past the file's end */
    for (size_t i = 0; i < n; i += TRIM_PAGE) {
      const u8 *p;
      RW_FORWARD(cpu_mem_peek(mem, a + i, &p));
      RW_FORWARD(page_diff(tm, a + i, p, tm->want + i));
    }
    a += n, off += n;
  }
  return 0;
}

static u32 map_flags(const struct rp__src *src) {
  u32 f = src && src->shared ? 0x1 : 0x2; /* SHARED : PRIVATE */
  if (src && src->growsdown)
    f |= strcmp(src->path, "[stack]") ? 0x1000 : 0x400; /* GROWSDOWN, STACK */
  if (src && !strcmp(src->path, "[heap]")) f |= 0x200;
  if (src && !strcmp(src->path, "[vdso]")) f |= 0x2000;
  return f;
}

/* A MAP of [A, B) with PROT, its bytes from SRC (NULL: anonymous). */
static int emit_map(struct trim *tm, const struct rp__src *src, u64 a, u64 b,
                    int prot) {
  struct trace_rec_map m;
  memset(&m, 0, sizeof m);
  m.addr = a;
  m.len = b - a;
  m.prot = (u32)prot;
  m.flags = map_flags(src);
  if (src) {
    m.offset = src->offset + (a - src->start);
    memcpy(m.blob.b, src->hash, 32);
    m.path = (struct trace_str){src->path, strlen(src->path)};
    m.object = src->object;
    if (!src->object && rp__is_zero_hash(src->hash)) m.offset = 0;
    RW_FORWARD(blob_note(tm, src->hash));
  }
  return trace_rec_map_append(tm->w, tm->lead, &m);
}

/* Every mapping of the process and its bytes. The protection of each
 * page is the emulator's, except past the end of a mapped file, where the
 * emulator keeps pages inaccessible and the MAP says what the program
 * asked for (the replay hides them again). */
static int space(struct trim *tm) {
  rp_replay *rp = tm->rp;
  cpu_mem *mem = rp->proc->mem;
  const struct rp__srcs *ss = &rp->proc->srcs;
  u64 at = 0, start, len;
  int prot;
  size_t k = 0; /* srcs are sorted by start and do not overlap */
  while (cpu_mem_query(mem, at, &start, &len, &prot) == 0) {
    u64 end = start + len;
    for (u64 a = start; a < end;) {
      while (k < ss->n && ss->v[k].end <= a) k++;
      const struct rp__src *s = k < ss->n && ss->v[k].start <= a ? &ss->v[k]
                                                                  : NULL;
      u64 b = s ? RW_MIN(end, s->end)
                : (k < ss->n ? RW_MIN(end, ss->v[k].start) : end);
      u64 eof = s ? RW_MAX(a, RW_MIN(b, s->eof)) : b;
      if (a < eof) {
        RW_FORWARD(emit_map(tm, s, a, eof, prot));
        RW_FORWARD(contents(tm, s, a, eof));
      }
      if (eof < b) RW_FORWARD(emit_map(tm, s, eof, b, s->prot));
      a = b;
    }
    at = end;
  }
  /* Files without their bytes in the trace end where RESIZE said. */
  for (size_t i = 0; i < ss->n; i++) {
    const struct rp__src *s = &ss->v[i];
    if (!s->object || s->fend == ~(u64)0 || !rp__is_zero_hash(s->hash))
      continue;
    struct trace_rec_resize z = {s->object, s->fend};
    RW_FORWARD(trace_rec_resize_append(tm->w, tm->lead, &z));
  }
  return 0;
}

/* The threads of process P, its first thread (tid = pid) first; at most
 * CAP. */
static size_t threads_of(rp_replay *rp, const struct rp__proc *p,
                         struct rp__thread **out, size_t cap) {
  size_t n = 0;
  for (int pass = 0; pass < 2; pass++)
    for (size_t i = 0; i < rp->th.nthreads && n < cap; i++) {
      struct rp__thread *t = rp->th.threads[i];
      if (!t->st.alive || t->proc != p) continue;
      if ((t->st.tid == p->pid) == (pass == 0)) out[n++] = t;
    }
  return n;
}

/* The processes alive here, the root first, each after its parent. */
static size_t procs_alive(rp_replay *rp, struct rp__proc **out, size_t cap) {
  size_t n = 0;
  if (rp__threads_alive_in(rp, &rp->root)) out[n++] = &rp->root;
  for (size_t i = 0; i < rp->nkids && n < cap; i++)
    if (rp->kids[i]->exists && rp__threads_alive_in(rp, rp->kids[i]))
      out[n++] = rp->kids[i];
  return n;
}

static int digest_now(rp_replay *rp, u64 *out) {
  struct rw_digest_spec spec;
  memset(&spec, 0, sizeof spec);
  spec.kind = rp->digest_kind;
  return rp__digest(rp, &spec, out);
}

/* A PREEMPT that locates T where it is, with its process's memory. */
static int emit_preempt(struct trim *tm, struct rp__thread *t) {
  struct trace_rec_preempt p;
  memset(&p, 0, sizeof p);
  cpu_get_regs(t->cpu, &p.regs);
  struct rp__proc *was = tm->rp->proc;
  tm->rp->proc = t->proc;
  int rc = digest_now(tm->rp, &p.digest);
  tm->rp->proc = was;
  RW_FORWARD(rc);
  return trace_rec_preempt_append(tm->w, t->st.tid, &p);
}

/* Why the state here cannot start a trace (in WHY, CAP bytes), or
 * NULL. */
static const char *unstartable(rp_replay *rp, struct rp__proc **ps,
                               size_t np, char *why, size_t cap) {
  if (rp->fin.root_ended || !np || ps[0] != &rp->root)
    return "the recorded process has ended there";
  if (rp->th.exec_nr) return "a thread is in the middle of an execve there";
  for (size_t k = 1; k < np; k++) {
    struct rp__thread *first;
    if (!threads_of(rp, ps[k], &first, 1) || first->st.tid != ps[k]->pid) {
      snprintf(why, cap, "the first thread of process %u has ended, and "
               "a trace can only start a process with it", ps[k]->pid);
      return why;
    }
  }
  return NULL;
}

/* Thread T's THREAD_START (PARENT: 0, or the thread whose process it is
 * made in) and what a register file does not hold. */
static int thread_state(struct trim *tm, struct rp__thread *t, u32 parent) {
  struct trace_rec_thread_start ts;
  memset(&ts, 0, sizeof ts);
  ts.tid = t->st.tid;
  ts.parent_tid = parent;
  cpu_get_regs(t->cpu, &ts.regs);
  if (t->st.in_syscall) { /* inside it, as it entered it */
    ts.inside = 1;
    ts.sys_nr = t->st.sys_nr;
  } else if (t->st.restart) {
    /* About to make its syscall again: before its instruction, as the
     * kernel restarts it. */
    ts.regs.rip -= 2;
    ts.regs.gpr[RW_REG_rax] = t->st.restart_result == -516
                                  ? NR_restart_syscall
                                  : t->st.sys_nr;
  }
  RW_FORWARD(trace_rec_thread_start_append(tm->w, ts.tid, &ts));
  u8 z[1600];
  for (int k = 0; k < 8; k++) wr_le64(z + 8 * k, ts.regs.k[k]);
  memcpy(z + 64, ts.regs.zmmh, sizeof ts.regs.zmmh);
  memcpy(z + 576, ts.regs.hi16, sizeof ts.regs.hi16);
  int avx512 = (rp_xcr0(tm->rp) & 0xe0) == 0xe0;
  struct trace_rec_xstate x = {ts.tid, cpu_xinuse(t->cpu),
                               {z, avx512 ? sizeof z : 0}};
  RW_FORWARD(trace_rec_xstate_append(tm->w, ts.tid, &x));
  struct trace_rec_pkru k = {cpu_pkru(t->cpu)};
  RW_FORWARD(trace_rec_pkru_append(tm->w, ts.tid, &k));
  if (!t->st.name[0]) return 0;
  struct trace_rec_thread_name nm = {
      ts.tid, {t->st.name, strnlen(t->st.name, sizeof t->st.name)}};
  return trace_rec_thread_name_append(tm->w, ts.tid, &nm);
}

static int auxv(struct trim *tm, const struct rp__image *img) {
  if (!img || !img->auxv) return 0;
  struct trace_rec_auxv a = {{img->auxv, img->auxv_len}};
  return trace_rec_auxv_append(tm->w, tm->lead, &a);
}

/* Process P and its N threads TH: the root as a new image (EXEC), any
 * other as a child its parent (or lender, for a vfork child; the root's
 * lead thread when the parent has ended) forks, which then runs its own
 * program (EXEC) or has its own memory. */
static int proc_state(struct trim *tm, struct rp__proc *p,
                      struct rp__thread **th, size_t n) {
  rp_replay *rp = tm->rp;
  u32 lead = tm->lead;
  const struct rp__image *img = p->nimages ? &p->images[p->nimages - 1]
                                            : NULL;
  struct trace_rec_exec ex = {p->pid, {img ? img->path : "",
                                       img ? strlen(img->path) : 0}};
  if (p == &rp->root) {
    RW_FORWARD(trace_rec_exec_append(tm->w, lead, &ex));
    rp->proc = p;
    RW_FORWARD(space(tm));
    RW_FORWARD(auxv(tm, img));
    for (size_t i = 0; i < n; i++) RW_FORWARD(thread_state(tm, th[i], 0));
  } else {
    /* Forked by its lender, or by its parent while that lives (so that
     * rewind ps shows its parent), else by the first process. */
    struct rp__thread *via = NULL;
    if (p->lender) threads_of(rp, p->lender, &via, 1);
    RW_RETURN_IF(p->lender && !via, RW_EUNSUPPORTED,
                 "vfork child %u without its parent", p->pid);
    if (!via && p->parent) threads_of(rp, p->parent, &via, 1);
    u32 from = via ? via->st.tid : lead;
    struct trace_rec_fork f = {p->pid, p->lender ? 1 : 0, 0, 1};
    RW_FORWARD(trace_rec_fork_append(tm->w, from, &f));
    RW_FORWARD(thread_state(tm, th[0], from));
    tm->lead = th[0]->st.tid;
    rp->proc = p;
    if (img && !p->lender) {
      /* It runs a program of its own: it execs it, and its first
       * thread is that image's. */
      RW_FORWARD(trace_rec_exec_append(tm->w, tm->lead, &ex));
      RW_FORWARD(space(tm));
      RW_FORWARD(auxv(tm, img));
      RW_FORWARD(thread_state(tm, th[0], 0));
    } else if (!p->lender) { /* a copy of its parent's: its own instead */
      struct trace_rec_unmap u = {0, RP_USER_TOP};
      RW_FORWARD(trace_rec_unmap_append(tm->w, tm->lead, &u));
      RW_FORWARD(space(tm));
    }
    for (size_t i = 1; i < n; i++)
      RW_FORWARD(thread_state(tm, th[i], th[0]->st.tid));
  }
  struct trace_rec_stack_rules sr = {p->stack.rlimit, p->stack.guard_gap,
                                     p->stack.min_addr};
  RW_FORWARD(trace_rec_stack_rules_append(tm->w, tm->lead, &sr));
  tm->lead = lead;
  rp->proc = &rp->root;
  return 0;
}

/* Every process as it is now: the records that begin the new trace. */
/* The cpuid answers in force at the window's start (CPUID records met
 * before it), each entry's latest once. */
static int cpuid_state(struct trim *tm) {
  rp_replay *rp = tm->rp;
  for (size_t i = rp->ncpuidfix; i-- > 0;) {
    const struct rp__cpuid_fix *f = &rp->cpuidfix[i];
    size_t j = i + 1;
    if (f->seq > rp->trace.last_seq) continue;
    while (j < rp->ncpuidfix && (rp->cpuidfix[j].seq > rp->trace.last_seq ||
                                 memcmp(rp->cpuidfix[j].e, f->e, 8)))
      j++;
    if (j < rp->ncpuidfix) continue; /* a later one in force */
    struct trace_rec_cpuid c = {f->e[0], f->e[1], f->e[2],
                                f->e[3], f->e[4], f->e[5]};
    RW_FORWARD(trace_rec_cpuid_append(tm->w, tm->lead, &c));
  }
  return 0;
}

static int prologue_of(struct trim *tm, struct rp__proc **ps, size_t *at,
                       struct rp__thread **th) {
  rp_replay *rp = tm->rp;
  size_t np = procs_alive(rp, ps, rp->nkids + 1), n = 0;
  for (size_t k = 0; k < np; k++) {
    at[k] = n;
    n += threads_of(rp, ps[k], th + n, rp->th.nthreads - n);
  }
  at[np] = n;
  char text[200];
  const char *why = unstartable(rp, ps, np, text, sizeof text);
  if (why)
    return rw_diag_set(tm->diag, RW_EUNSUPPORTED, 0,
                       "cannot start the window at instruction %llu: %s",
                       (unsigned long long)rp->icount, why);
  tm->lead = th[0]->st.tid;
  tm->st->threads = n;
  tm->st->procs = np;
  for (size_t k = 0; k < np; k++)
    RW_FORWARD(proc_state(tm, ps[k], th + at[k], at[k + 1] - at[k]));
  RW_FORWARD(cpuid_state(tm));
  for (size_t i = 0; i < n; i++) {
    struct rp__thread *t = th[i];
    tm->st->in_syscall += t->st.in_syscall != 0;
    if (!t->st.in_syscall && t->st.located)
      RW_FORWARD(emit_preempt(tm, t));
  }
  return 0;
}

static int prologue(struct trim *tm) {
  rp_replay *rp = tm->rp;
  struct rp__proc **ps = malloc((rp->nkids + 1) * sizeof *ps);
  size_t *at = malloc((rp->nkids + 2) * sizeof *at);
  struct rp__thread **th = malloc((rp->th.nthreads + 1) * sizeof *th);
  int rc = ps && at && th ? prologue_of(tm, ps, at, th) : RW_ENOMEM;
  free(ps);
  free(at);
  free(th);
  return rc;
}

/* The records RP consumes from FROM_SEQ (excluded) to TO_SEQ (included,
 * ~0: the end of the trace), as they are. */
static int window(struct trim *tm, u64 from_seq, u64 to_seq) {
  rp_replay *rp = tm->rp;
  trace_cursor *c;
  struct trace_record rec;
  struct rw_diag d = {0};
  int rc;
  RW_FORWARD(trace_cursor_open(&c, rp->trace.tr, TRACE_ALL_THREADS));
  rc = trace_cursor_seek(c, from_seq + 1);
  while (rc == 0 && (rc = trace_cursor_next(c, &rec, &d)) == 1 &&
         rec.seq <= to_seq) {
    if (rec.type == TRACE_REC_MAP) {
      struct trace_rec_map m;
      rc = trace_rec_map_get(&m, rec.data, rec.len);
      if (rc == 0) rc = blob_note(tm, m.blob.b);
      if (rc < 0) break;
    }
    rc = trace_writer_append(tm->w, rec.tid, rec.type, rec.data, rec.len,
                             NULL);
    tm->st->records++;
  }
  trace_cursor_close(c);
  if (rc < 0 && d.msg[0]) rw_diag_set(tm->diag, rc, d.offset, "%s", d.msg);
  return rc < 0 ? rc : 0;
}

/* The trace's metadata, but what describes the whole recording's end. */
static int meta(struct trim *tm, const char *src, int to_end) {
  trace_reader *tr = tm->rp->trace.tr;
  const char *key;
  const void *val;
  size_t len;
  for (size_t i = 0; trace_reader_meta_at(tr, i, &key, &val, &len) == 0; i++) {
    if (!strcmp(key, TRACE_META_RECORDS) || !strcmp(key, TRACE_META_TRIM))
      continue;
    if (!to_end &&
        (!strcmp(key, TRACE_META_EXIT) || !strcmp(key, TRACE_META_END) ||
         !strcmp(key, TRACE_META_STOPPED)))
      continue;
    RW_FORWARD(trace_writer_set_meta(tm->w, key, val, len));
  }
  if (!to_end)
    RW_FORWARD(trace_writer_set_meta(tm->w, TRACE_META_EXIT, "detached", 8));
  char text[4200];
  int n = snprintf(text, sizeof text, "%llu %llu %s",
                   (unsigned long long)tm->st->from,
                   (unsigned long long)tm->st->to, src);
  return trace_writer_set_meta(tm->w, TRACE_META_TRIM, text,
                               (size_t)RW_MIN(n, (int)sizeof text - 1));
}

static int copy_blobs(struct trim *tm) {
  for (size_t i = 0; i < tm->nblobs; i++) {
    u8 *img, h[32];
    size_t len;
    int rc = trace_reader_blob_image(tm->rp->trace.tr, tm->blobs[i], &img,
                                     &len);
    if (rc == RW_ENOTFOUND) continue; /* the replay said so already */
    RW_FORWARD(rc);
    rc = trace_writer_add_blob_image(tm->w, img, len, h, NULL);
    free(img);
    RW_FORWARD(rc);
    tm->st->blobs++;
  }
  return 0;
}

static int stopped_badly(struct trim *tm, const struct rp_stop *stop,
                         const char *where) {
  if (stop->reason != RP_STOP_DIVERGED && stop->reason != RP_STOP_FAILED)
    return 0;
  return rw_diag_set(tm->diag, RW_ECORRUPT, 0,
                     "the replay %s %s: %s",
                     stop->reason == RP_STOP_DIVERGED ? "diverged" : "failed",
                     where, stop->msg);
}

/* Runs to ICOUNT; SEEK: by the nearest keyframe (the trace's index). */
static int run_to(struct trim *tm, u64 icount, int seek, struct rp_stop *stop,
                  const char *where) {
  RW_FORWARD(seek ? rp_seek(tm->rp, icount, stop)
                  : rp_run(tm->rp, icount, stop));
  return stopped_badly(tm, stop, where);
}

int rp_trim(rp_replay *rp, const struct rp_trim_opts *o,
            struct rp_trim_stats *st, struct rw_diag *diag) {
  struct trim tm;
  struct rp_stop stop;
  memset(&tm, 0, sizeof tm);
  memset(st, 0, sizeof *st);
  tm.rp = rp;
  tm.st = st;
  tm.diag = diag;
  RW_RETURN_IF(o->to <= o->from, RW_EINVAL, "an empty window");
  RW_FORWARD(run_to(&tm, o->from, 1, &stop, "before the window's start"));
  if (stop.reason == RP_STOP_END)
    return rw_diag_set(diag, RW_EINVAL, 0,
                       "the history ends at instruction %llu, before the "
                       "window's start (%llu)",
                       (unsigned long long)rp->icount,
                       (unsigned long long)o->from);
  RW_RETURN_IF(stop.reason != RP_STOP_TARGET, RW_EINVAL,
               "the replay stopped before the window's start");
  st->from = rp->icount;
  st->from_event = rp->trace.events;
  u64 from_seq = rp->trace.last_seq;
  tm.want = malloc(RP_BUF);
  RW_RETURN_IF(!tm.want, RW_ENOMEM, "trim buffer");
  struct trace_writer_opts wo = {0};
  wo.overwrite = o->overwrite;
  int rc = trace_writer_open(&tm.w, o->out, &wo);
  if (rc < 0) {
    free(tm.want);
    return rw_diag_set(diag, rc, 0, "cannot create %s: %s", o->out,
                       rw_strerror(rc));
  }
  rp->proc = &rp->root;
  rc = prologue(&tm);
  /* The end: the history's, or the window's. */
  if (rc == 0) rc = run_to(&tm, o->to, 0, &stop, "in the window");
  if (rc == 0) {
    st->to_end = stop.reason == RP_STOP_END;
    st->to = rp->icount;
    st->to_event = rp->trace.events;
    rc = window(&tm, from_seq, st->to_end ? ~0ull : rp->trace.last_seq);
  }
  if (rc == 0 && !st->to_end) {
    /* The running thread where the window ends, with its process's
     * memory; then the root's, as DETACH has it. */
    struct rp__thread *t = rp->th.thr;
    if (t && t->st.alive && !t->st.in_syscall) {
      rp->proc = t->proc;
      rc = emit_preempt(&tm, t);
    }
    rp->proc = &rp->root;
    struct trace_rec_detach dt;
    memset(&dt, 0, sizeof dt);
    dt.has_digest = !rp->fin.root_ended;
    if (rc == 0 && dt.has_digest) rc = digest_now(rp, &dt.digest);
    if (rc == 0) rc = trace_rec_detach_append(tm.w, TRACE_TID_GLOBAL, &dt);
  }
  if (rc == 0) rc = copy_blobs(&tm);
  if (rc == 0) rc = meta(&tm, o->src_name, st->to_end);
  int crc = trace_writer_close(tm.w);
  if (rc == 0) rc = crc;
  free(tm.want);
  free(tm.blobs);
  if (rc < 0) remove(o->out);
  return rc;
}
