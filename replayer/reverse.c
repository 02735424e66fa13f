/* SPDX-License-Identifier: MIT */
/* Reverse execution (DESIGN.md section 4, "Timeline"): a reverse step is a
 * seek to the previous instruction; a reverse step of one thread restores
 * the latest keyframe where that thread had not yet executed its last
 * instruction and runs until it is about to; a reverse continue scans
 * keyframe intervals backwards, re-running each with the breakpoints,
 * watchpoints, syscall, rep and signal stops armed, for the last hit before the
 * current position, going back there through the fine keyframes of
 * timeline.c so that the next reverse step is cheap; with only write
 * watchpoints armed, the intervals whose keyframes show the watched pages
 * untouched are passed by (the write index, below); a long one re-runs
 * every other interval in a helper process on another CPU (below). It adds
 * no state to the history: everything here re-executes what the recording
 * fixed. */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <unistd.h>

#include "replayer/rp_int.h"

void rp_set_poll(rp_replay *rp, int (*poll)(void *ctx), void *ctx) {
  rp->user.poll = poll;
  rp->user.poll_ctx = ctx;
}

/* The current position; at the end of the history, the end. */
static u64 here(const rp_replay *rp) {
  return rp->fin.ended ? rp->fin.end_icount : rp->icount;
}

static void stop_begin(rp_replay *rp, struct rp_stop *stop) {
  memset(stop, 0, sizeof *stop);
  stop->reason = RP_STOP_BEGIN;
  stop->icount = rp->icount;
  stop->event = rp->trace.events;
  stop->tid = rp_current_tid(rp);
}

/* With the replay at a position, runs its one instruction with the
 * watchpoints armed to see whether it touches one, then comes back. */
static int probe_watch(rp_replay *rp, struct rp_stop *stop, int *hit) {
  struct rp__kf back;
  struct rp_stop st;
  *hit = 0;
  u64 at = rp->icount;
  RW_FORWARD(rp__kf_capture(rp, &back));
  struct rp__goal next = rp__goal_at(at + 1, RP__USER),
                  here = rp__goal_at(at, 0);
  int rc = rp__run(rp, &next, &st);
  if (rc == 0 && st.reason == RP_STOP_WATCHPOINT && st.icount == at + 1) {
    *hit = 1;
    *stop = st;
  }
  if (rc == 0) rc = rp__kf_restore(rp, &back);
  if (rc == 0) rc = rp__run(rp, &here, &st);
  rp__kf_free(&back);
  if (*hit) {
    stop->icount = rp->icount;
    stop->event = rp->trace.events;
  }
  return rc;
}

/* Whether a reverse move may start from here: a broken replay goes back
 * into the history before its break. */
static int may_go_back(rp_replay *rp, struct rp_stop *stop) {
  u64 at = here(rp);
  return rp__unbreak(rp, at ? at - 1 : 0, stop);
}

int rp_reverse_step(rp_replay *rp, struct rp_stop *stop) {
  if (!may_go_back(rp, stop)) return 0;
  u64 at = here(rp);
  if (at <= rp__floor(rp)) {
    RW_FORWARD(rp_seek(rp, 0, stop));
    stop_begin(rp, stop);
    return 0;
  }
  RW_FORWARD(rp_seek(rp, at - 1, stop));
  if (stop->reason != RP_STOP_TARGET || !rp->user.nwps) return 0;
  int hit;
  RW_FORWARD(probe_watch(rp, stop, &hit));
  return 0;
}

/* The latest keyframe, coarse or fine, at or before AT where thread T had
 * executed at most COUNT instructions or did not exist yet; NULL if none. A
 * fine one returned is marked as used. */
static struct rp__kf *kf_for_thread(rp_replay *rp, const struct rp__thread *t,
                                    u64 count, u64 at) {
  struct rp__kf *best = NULL;
  int fine = 0;
  for (size_t i = 0; i < rp->tl.nkfs + rp->tl.nfine; i++) {
    struct rp__kf *kf =
        i < rp->tl.nkfs ? &rp->tl.kfs[i] : &rp->tl.fine[i - rp->tl.nkfs];
    if (kf->icount > at) continue;
    const struct rp__kthread *k = rp__kf_thread(kf, t);
    if (k && k->cpu_icount > count) continue;
    if (!best || kf->icount > best->icount ||
        (kf->icount == best->icount && kf->events > best->events)) {
      best = kf;
      fine = i >= rp->tl.nkfs;
    }
  }
  if (fine) best->lru = ++rp->tl.fine_clock;
  return best;
}

/* Whether the replay is where rp_reverse_step_thread goes: thread TID (the
 * one started at SEQ) is about to run with COUNT instructions executed. */
static int at_thread_point(rp_replay *rp, u32 tid, u64 seq, u64 count) {
  const struct rp__thread *t = rp->th.thr;
  return !rp->fin.ended && !rp->health.broken && t && t->st.tid == tid &&
         t->st.start_seq == seq && cpu_icount(t->cpu) == count;
}

int rp_reverse_step_thread(rp_replay *rp, u32 tid, struct rp_stop *stop) {
  if (!may_go_back(rp, stop)) return 0;
  struct rp__thread *t = tid ? rp__thread_find(rp, tid) : NULL;
  if (!t) return RW_ENOTFOUND;
  u64 c = cpu_icount(t->cpu), seq = t->st.start_seq;
  if (c == 0) {
    stop_begin(rp, stop);
    stop->tid = tid;
    return 0;
  }
  /* First find the position: from a keyframe before it, run until TID is
   * about to run with c - 1 executed (the first such position is the
   * last, as its next instruction is TID's). */
  struct rp__kf *kf = kf_for_thread(rp, t, c - 1, here(rp));
  RW_RETURN_IF(!kf, RW_ENOTFOUND, "no keyframe before thread %u ran", tid);
  u64 from = kf->icount;
  struct rp__thread me = *t; /* T's struct may be another after a restore */
  RW_FORWARD(rp__kf_restore(rp, kf));
  struct rp__goal goal = rp__goal_step(&me, c - 1, 0);
  RW_FORWARD(rp__run(rp, &goal, stop));
  if (stop->reason != RP_STOP_TARGET) return 0; /* diverged, failed */
  RW_RETURN_IF(!at_thread_point(rp, tid, seq, c - 1), RW_ECORRUPT,
               "thread %u not found again going back from %llu (at %llu, "
               "thread %u current)",
               tid, (unsigned long long)from, (unsigned long long)rp->icount,
               rp->th.cur_tid);
  /* Far from the keyframe: go there again through rp__run_fine, so that
   * fine keyframes make the next reverse steps cheap. */
  u64 g = stop->icount, ev = stop->event;
  if (g - from > RP_FINE_STEP) {
    struct rp__kf *k2 = rp__kf_before(rp, g, 0);
    if (k2 && k2->icount == g && k2->events > ev)
      k2 = rp__kf_before(rp, g, 1);
    if (k2) {
      RW_FORWARD(rp__kf_restore(rp, k2));
      RW_FORWARD(rp__run_fine(rp, g, ev, stop));
      if (stop->reason != RP_STOP_TARGET) return 0;
      RW_RETURN_IF(!at_thread_point(rp, tid, seq, c - 1), RW_ECORRUPT,
                   "thread %u not found again going back", tid);
    }
  }
  if (!rp->user.nwps) return 0;
  int hit;
  return probe_watch(rp, stop, &hit);
}

/* The best hit found so far while scanning backwards. */
struct hit {
  int found;
  u64 pos, event;     /* the position to stop at */
  struct rp_stop st;  /* the stop as the forward run saw it */
};

static void keep(struct hit *h, const struct rp_stop *st, u64 pos,
                 u64 event) {
  /* Later positions win (a handler's first instruction comes after its
   * signal's delivery, at the same count); at equal positions a
   * watchpoint says more. */
  if (h->found &&
      (pos < h->pos || (pos == h->pos && event < h->event) ||
       (pos == h->pos && event == h->event &&
        st->reason != RP_STOP_WATCHPOINT)))
    return;
  h->found = 1;
  h->pos = pos;
  h->event = event;
  h->st = *st;
}

/* Re-runs [KF, HI) with the user's breakpoints, watchpoints, syscall and
 * signal stops armed, and at HI the records up to HI_EV (a signal
 * delivered just before HI, where the next interval's keyframe was
 * taken), and keeps in H the last hit before LIMIT (a signal stop: before
 * LIMIT, or at it before LIMIT_EV records). *OUT is set when
 * the scan itself must stop (interrupt, divergence, failure). SIG is 0
 * when the interval holds no signal that stops. */
static int scan(rp_replay *rp, const struct rp__kf *kf, u64 hi, u64 hi_ev,
                u64 limit, u64 limit_ev, int sig, struct hit *h,
                struct rp_stop *out, int *done) {
  struct rp_stop st;
  int sys = (rp->user.sys_stops ? RP__SYSCALLS : 0) |
            (sig ? RP__SIGNALS : 0);
  int flags = RP__USER | RP__USER_AT_START | sys;
  RW_FORWARD(rp__kf_restore(rp, kf));
  for (;;) {
    struct rp__goal goal = rp__goal_at(hi, flags);
    goal.events = sig ? hi_ev : 0;
    RW_FORWARD(rp__run(rp, &goal, &st));
    flags = RP__USER | sys;
    switch (st.reason) {
      case RP_STOP_BREAKPOINT:
      case RP_STOP_SYSCALL:
      case RP_STOP_REP:
        if (st.icount < limit) keep(h, &st, st.icount, st.event);
        if (st.icount >= hi) return 0;
        continue;
      case RP_STOP_SIGNAL:
        if (st.icount < limit || (st.icount == limit && st.event < limit_ev))
          keep(h, &st, st.icount, st.event);
        if (st.icount > hi) return 0;
        continue;
      case RP_STOP_WATCHPOINT:
        /* Before the access: the instruction's, or the last point before
         * the kernel's write. */
        if (st.by_kernel && st.before_icount < limit)
          keep(h, &st, st.before_icount, st.before_event);
        else if (!st.by_kernel && st.icount >= 1 && st.icount <= limit)
          keep(h, &st, st.icount - 1, st.event);
        if (st.icount >= hi) return 0;
        continue;
      case RP_STOP_TARGET:
      case RP_STOP_END:
        return 0;
      default: /* interrupted, diverged, failed */
        *out = st;
        *done = 1;
        return 0;
    }
  }
}

/* The write index. When the only stops armed are write watchpoints, an
 * interval between two states whose snapshots share every page of the
 * watched ranges (cpu_snap_same) holds no write there, by an instruction
 * or by the kernel, unless the range was mapped or unmapped in between
 * (pages mapped, written and unmapped again, by munmap or exec, are in
 * neither state: the log of mapping changes, rp__maplog_hits, says): the
 * scan passes it by without re-running it. With rp_opts.write_lines, the
 * pages' record of written lines makes it as fine as a line where a page
 * was written only a few times in between (cpu_mem_track_lines). The
 * snapshots are the keyframes' own, so the index costs nothing until it
 * is used and is as fine as the keyframes are; UPPER holds, per
 * watchpoint, the state at the top of the interval looked at next. */
struct windex {
  size_t n;
  cpu_snap **upper; /* owned; NULL: that state is not known */
  const cpu_mem **in;
  u64 upper_events; /* the position of the upper states */
};

static void windex_free(struct windex *w) {
  for (size_t i = 0; i < w->n; i++) cpu_snap_free(w->upper[i]);
  free(w->upper);
  free(w->in);
  memset(w, 0, sizeof *w);
}

/* Starts the index at the current position, or leaves W->n 0 when it
 * cannot serve (other stops armed, a watchpoint that reads, or one not in
 * an address space now). */
static int windex_start(rp_replay *rp, struct windex *w) {
  const struct rp__user *u = &rp->user;
  memset(w, 0, sizeof *w);
  if (rp->opts.no_write_index || u->nbps || u->sys_stops || u->rep_stops ||
      !u->nwps)
    return 0;
  for (size_t i = 0; i < u->nwps; i++)
    if (u->wps[i].kind != 2 || !u->wps[i].in) return 0;
  w->upper = calloc(u->nwps, sizeof *w->upper);
  w->in = calloc(u->nwps, sizeof *w->in);
  if (!w->upper || !w->in) {
    windex_free(w);
    return RW_ENOMEM;
  }
  w->n = u->nwps;
  w->upper_events = rp->trace.events;
  for (size_t i = 0; i < w->n; i++) {
    w->in[i] = u->wps[i].in;
    int rc = cpu_mem_snapshot(u->wps[i].in, &w->upper[i]);
    if (rc < 0) {
      windex_free(w);
      return rc;
    }
  }
  return 0;
}

/* KF's snapshot of address space IN: the root's, or a child's own (not a
 * vfork child's, which borrows); NULL when KF has none of it. */
static const cpu_snap *kf_space(const rp_replay *rp, const struct rp__kf *kf,
                                const cpu_mem *in) {
  if (in == rp->root.mem) return kf->snap;
  for (size_t i = 0; i < rp->nkids && i < kf->nkids; i++)
    if (rp->kids[i]->own == in && kf->kids[i].exists && !kf->kids[i].lender)
      return kf->kids[i].snap;
  return NULL;
}

/* Whether nothing wrote to a watched range between KF and the top of the
 * interval, and KF becomes the top of the next one. */
static int windex_skips(rp_replay *rp, struct windex *w,
                        const struct rp__kf *kf, int *skip) {
  const struct rp__user *u = &rp->user;
  *skip = w->n == u->nwps;
  for (size_t i = 0; i < w->n; i++) {
    const cpu_snap *s = kf_space(rp, kf, w->in[i]);
    if (!s || !w->upper[i] || u->wps[i].in != w->in[i] ||
        !cpu_snap_same(s, w->upper[i], u->wps[i].addr, u->wps[i].len) ||
        rp__maplog_hits(rp, w->in[i], kf->events, w->upper_events,
                        u->wps[i].addr, u->wps[i].len))
      *skip = 0;
    cpu_snap_free(w->upper[i]);
    w->upper[i] = NULL;
    if (s) RW_FORWARD(cpu_snap_dup(s, &w->upper[i]));
  }
  w->upper_events = kf->events;
  return 0;
}

void rp_reverse_stats(const rp_replay *rp, u64 *scanned, u64 *skipped,
                      u64 *helped) {
  *scanned = rp->tl.scanned;
  *skipped = rp->tl.skipped;
  if (helped) *helped = rp->tl.helped;
}

/* The trace's SIGNAL records, read once (records only, no execution): a
 * reverse continue with signal stops re-runs only the intervals that hold
 * one whose signal stops, and none when the trace has none, as most do.
 * The records alone do not say which process a thread belongs to: a
 * signal of another process costs a scan that finds nothing. Sets *ANY
 * when one of them stops with the signals passed now. */
static int sigrecs_load(rp_replay *rp, int *any) {
  struct rp__user *u = &rp->user;
  int rc = 0;
  if (!u->sigrecs_have) {
    trace_cursor *c;
    struct trace_record rec;
    size_t cap = 0;
    u->nsigrecs = 0;
    RW_FORWARD(trace_cursor_open(&c, rp->trace.tr, TRACE_ALL_THREADS));
    while ((rc = trace_cursor_next(c, &rec, NULL)) > 0) {
      struct trace_rec_signal sg;
      if (rec.type != TRACE_REC_SIGNAL ||
          trace_rec_signal_get(&sg, rec.data, rec.len) < 0 ||
          sg.signo < 1 || sg.signo > 64)
        continue;
      if ((rc = rp__grow((void **)&u->sigrecs, u->nsigrecs, &cap,
                         sizeof *u->sigrecs)) < 0)
        break;
      u->sigrecs[u->nsigrecs++] = (struct rp__sigrec){rec.seq, sg.signo};
    }
    trace_cursor_close(c);
    RW_FORWARD(rc);
    u->sigrecs_have = 1;
  }
  *any = 0;
  for (size_t i = 0; i < u->nsigrecs && !*any; i++)
    *any = rp__sig_stops(u, u->sigrecs[i].signo);
  return 0;
}

/* Whether a SIGNAL record whose signal stops has a seq in [LO, HI]. */
static int sig_between(const rp_replay *rp, u64 lo, u64 hi) {
  const struct rp__user *u = &rp->user;
  size_t a = 0, b = u->nsigrecs;
  while (a < b) { /* the first seq >= LO */
    size_t m = a + (b - a) / 2;
    if (u->sigrecs[m].seq < lo) a = m + 1;
    else b = m;
  }
  for (; a < u->nsigrecs && u->sigrecs[a].seq <= hi; a++)
    if (rp__sig_stops(u, u->sigrecs[a].signo)) return 1;
  return 0;
}

/* The second core. A long reverse continue takes a helper: a child process
 * (fork: the same keyframes, the same state) that walks the same intervals
 * the same way and re-runs every other one of those that need re-running,
 * from FIRST on, while this process re-runs the others; it sends one
 * result per interval it takes, in order, through a pipe, and stops at its
 * first hit. The helper only saves time: a result it cannot give (a stop
 * other than a hit, an error, its death) makes this process re-run that
 * interval itself and go on alone. */
struct helper {
  pid_t pid; /* 0: none; in the helper itself, -1 */
  int fd;    /* the results' read end, or in the helper their write end */
  u64 first; /* the first interval it takes (counting those re-run) */
};

struct hresult {
  u64 index, lo, hi; /* the interval */
  int usual;         /* 1: re-run to its end, stopping only at hits, kept in
                        H */
  struct hit h;
};

/* Intervals re-run alone before a helper starts, and keyframes that must
 * lie further back: a reverse continue that ends soon does without. */
#define HELPER_AFTER 2u
#define HELPER_MIN_KFS 4u

static int helper_takes(const struct helper *hp, u64 index) {
  return hp->pid && index >= hp->first && (index - hp->first) % 2 == 0;
}

/* Whether a helper would pay at interval INDEX, whose keyframe is at LO. */
static int helper_wanted(const rp_replay *rp, u64 index, u64 lo) {
  static int cpus;
  if (rp->opts.no_helper || index != HELPER_AFTER) return 0;
  if (!cpus) cpus = (int)sysconf(_SC_NPROCESSORS_ONLN);
  if (cpus < 2) return 0;
  u32 n = 0;
  for (size_t i = 0; i < rp->tl.nkfs && n < HELPER_MIN_KFS; i++)
    if (rp->tl.kfs[i].icount < lo) n++;
  return n >= HELPER_MIN_KFS;
}

/* Forks the helper, which takes FIRST, FIRST + 2, ... In the helper, HP
 * becomes its own side (pid -1). */
static void helper_start(rp_replay *rp, struct helper *hp, u64 first) {
  int p[2];
  if (pipe(p) < 0) return;
  pid_t pid = fork();
  if (pid < 0) {
    close(p[0]);
    close(p[1]);
    return;
  }
  if (pid == 0) {
    int null = open("/dev/null", O_RDWR);
    prctl(PR_SET_PDEATHSIG, SIGKILL);
    close(p[0]);
    if (null >= 0) { /* nothing of it reaches the user or gdb */
      dup2(null, 1);
      dup2(null, 2);
      close(null);
    }
    rp->user.poll = NULL;
    rp->user.echo = NULL;
    rp->opts.progress = 0;
    *hp = (struct helper){-1, p[1], first};
    return;
  }
  close(p[1]);
  *hp = (struct helper){pid, p[0], first};
}

static void helper_stop(struct helper *hp) {
  if (hp->pid <= 0) return;
  kill(hp->pid, SIGKILL);
  while (waitpid(hp->pid, NULL, 0) < 0 && errno == EINTR) {}
  close(hp->fd);
  hp->pid = 0;
}

/* In the helper: sends the result of interval INDEX, [LO, HI), and ends
 * the helper after the last one it has to give. */
static void helper_send(struct helper *hp, u64 index, u64 lo, u64 hi,
                        int usual, const struct hit *h) {
  struct hresult r;
  memset(&r, 0, sizeof r);
  r.index = index;
  r.lo = lo;
  r.hi = hi;
  r.usual = usual;
  r.h = *h;
  const char *b = (const char *)&r;
  size_t done = 0;
  while (done < sizeof r) {
    ssize_t n = write(hp->fd, b + done, sizeof r - done);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) _exit(1);
    done += (size_t)n;
  }
  if (!usual || h->found) _exit(0);
}

/* The result of interval INDEX, [LO, HI), from the helper into H; 0 when
 * it gives none (then the helper is stopped). The bounds are checked too:
 * keyframes the two processes took as they re-ran (between keyframes of a
 * persistent index) may thin out older ones, and then their walks differ. */
static int helper_get(struct helper *hp, u64 index, u64 lo, u64 hi,
                      struct hit *h) {
  struct hresult r;
  char *b = (char *)&r;
  size_t got = 0;
  while (got < sizeof r) {
    ssize_t n = read(hp->fd, b + got, sizeof r - got);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) break;
    got += (size_t)n;
  }
  if (got == sizeof r && r.index == index && r.lo == lo && r.hi == hi &&
      r.usual) {
    *h = r.h;
    return 1;
  }
  helper_stop(hp);
  return 0;
}

int rp_reverse_continue(rp_replay *rp, struct rp_stop *stop) {
  if (!may_go_back(rp, stop)) return 0;
  u64 limit = here(rp), hi = limit, floor = rp__floor(rp);
  u64 limit_ev = rp->trace.events, hi_ev = limit_ev;
  u64 hi_seq = rp->trace.have_pend ? rp->trace.pend.seq
                                   : rp->trace.last_seq + 1;
  struct hit h = {0};
  struct windex wi;
  int sigs = rp->user.sig_stops;
  if (sigs) RW_FORWARD(sigrecs_load(rp, &sigs));
  RW_FORWARD(windex_start(rp, &wi));
  int rc = 0, done = 0;
  struct helper hp = {0};
  u64 index = 0; /* of the next interval re-run */
  while (hi > floor && (rp->user.nbps || rp->user.nwps ||
                        rp->user.sys_stops || rp->user.rep_stops || sigs)) {
    struct rp__kf *kf = rp__kf_before(rp, hi, 1);
    if (!kf) break;
    int skip = 0;
    /* (KF itself may move: a re-run can take keyframes between those of
     * a persistent index, and so grow or thin the table.) */
    u64 lo = kf->icount, lo_ev = kf->events;
    int sig = sigs && sig_between(rp, kf->next_seq, hi_seq);
    hi_seq = kf->next_seq;
    if (!sig && !rp->user.nbps && !rp->user.nwps && !rp->user.sys_stops &&
        !rp->user.rep_stops) {
      rp->tl.skipped++;
      hi = lo;
      hi_ev = kf->events;
      continue;
    }
    if (wi.n && (rc = windex_skips(rp, &wi, kf, &skip)) < 0) break;
    if (skip && !sig) { /* (the index knows nothing of signals) */
      rp->tl.skipped++;
      hi = lo;
      hi_ev = kf->events;
      continue;
    }
    rp->tl.scanned++;
    u64 i = index++;
    if (!hp.pid && helper_wanted(rp, i, lo)) helper_start(rp, &hp, i + 1);
    if (hp.pid > 0 && helper_takes(&hp, i) &&
        helper_get(&hp, i, lo, hi, &h)) {
      rp->tl.helped++;
    } else if (hp.pid < 0 && !helper_takes(&hp, i)) {
      /* the helper passes by the intervals this process re-runs */
    } else {
      rc = scan(rp, kf, hi, hi_ev, limit, limit_ev, sig, &h, stop, &done);
      if (hp.pid < 0) helper_send(&hp, i, lo, hi, rc == 0 && !done, &h);
      if (rc < 0 || done) break;
    }
    if (h.found && h.pos < floor) h.found = 0; /* before the history */
    if (h.found) break;
    hi = lo;
    hi_ev = lo_ev;
  }
  if (hp.pid < 0) _exit(0); /* the helper: nothing more to give */
  helper_stop(&hp);
  windex_free(&wi);
  if (rc < 0 || done) return rc;
  if (!h.found) {
    RW_FORWARD(rp_seek(rp, 0, stop));
    if (stop->reason == RP_STOP_TARGET) stop_begin(rp, stop);
    return 0;
  }
  RW_FORWARD(rp__seek(rp, h.pos, h.event, stop));
  if (stop->reason != RP_STOP_TARGET) return 0;
  u64 icount = stop->icount, event = stop->event;
  *stop = h.st;
  stop->icount = icount;
  stop->event = event;
  /* Told now: going forwards from a syscall's entry runs the syscall. */
  rp->user.sys_ret = 0;
  if (stop->reason == RP_STOP_SYSCALL && stop->sys_entry) {
    rp->user.sys_seen_icount = icount;
    rp->user.sys_seen = event;
  }
  if (stop->reason == RP_STOP_SIGNAL) {
    rp->user.sig_seen_icount = icount;
    rp->user.sig_seen = event;
  }
  return 0;
}
