/* SPDX-License-Identifier: MIT */
/* Consistency of positions in a replay, through the replayer's API: a
 * position reached by a forward run, by seeking backwards or forwards
 * through keyframes, or by stepping one thread forwards and backwards must
 * be the same state (the current thread, every listed thread's name,
 * instruction count and registers, the memory around each stack pointer).
 *   seekcheck TRACE [POSITIONS [KEYFRAME_INTERVAL [SEED]]]
 * Prints one line per failed check and a summary; exits 1 on any failure,
 * 2 when the replay itself fails. SEEKCHECK_VERBOSE=1 prints the threads at
 * the end; SEEKCHECK_STEPS sets how many reverse steps are timed;
 * SEEKCHECK_DEBUG=1 logs where replayer calls fail; SEEKCHECK_BUDGET sets
 * the keyframe budget in bytes; SEEKCHECK_PROCESS=PID makes that recorded
 * process the debugger's (rp_debug_process from its creation), whose
 * threads are the ones listed and stepped while other processes run;
 * SEEKCHECK_TREE=1 opens the replay with every process the debugger's
 * (rp_opts.tree), so every live thread is listed and stepped.
 * Used by tests/replay/threads.sh on recordings of multi-threaded programs
 * and of single-threaded ones, and by tests/replay/procs.sh on process
 * trees. */
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/rw.h"
#include "replayer/replayer.h"

#define MAXT 64

/* What a position looks like from outside. */
struct fp {
  u64 icount, event;
  u32 cur;
  size_t n;
  struct rp_thread th[MAXT];
  u64 hash[MAXT]; /* registers and the stack above rsp */
};

static int failed, checks;

static u64 fnv(u64 h, const void *p, size_t n) {
  const u8 *b = p;
  for (size_t i = 0; i < n; i++) h = (h ^ b[i]) * 0x100000001b3ull;
  return h;
}

static void take(rp_replay *rp, struct fp *f) {
  memset(f, 0, sizeof *f);
  f->icount = rp_icount(rp);
  f->event = rp_event(rp);
  f->cur = rp_current_tid(rp);
  f->n = rp_threads(rp, f->th, MAXT);
  for (size_t i = 0; i < f->n && i < MAXT; i++) {
    struct rw_regs r;
    u8 stack[256];
    u64 h = 0xcbf29ce484222325ull;
    if (rp_get_regs(rp, f->th[i].tid, &r) < 0) {
      printf("FAIL: thread %u is listed but has no registers\n",
             f->th[i].tid);
      failed++;
      continue;
    }
    r.orig_rax = 0;
    h = fnv(h, r.gpr, sizeof r.gpr);
    h = fnv(h, &r.rip, sizeof r.rip);
    h = fnv(h, &r.rflags, sizeof r.rflags);
    h = fnv(h, &r.fs_base, sizeof r.fs_base);
    h = fnv(h, r.fxsave + 160, 256); /* xmm */
    if (rp_set_view(rp, f->th[i].pid) == 0 && /* its process's memory */
        rp_read_mem(rp, r.gpr[4], stack, sizeof stack) == 0)
      h = fnv(h, stack, sizeof stack);
    f->hash[i] = h;
  }
}

static void show(const char *what, const struct fp *f) {
  printf("    %s: icount %" PRIu64 " event %" PRIu64 " current %u, %zu "
         "threads:", what, f->icount, f->event, f->cur, f->n);
  for (size_t i = 0; i < f->n && i < MAXT; i++)
    printf(" %u\"%s\"/%" PRIu64 "/%016" PRIx64, f->th[i].tid, f->th[i].name,
           f->th[i].icount, f->hash[i]);
  printf("\n");
}

static int same(const struct fp *a, const struct fp *b) {
  if (a->icount != b->icount || a->event != b->event || a->cur != b->cur ||
      a->n != b->n)
    return 0;
  for (size_t i = 0; i < a->n && i < MAXT; i++)
    if (a->th[i].tid != b->th[i].tid || a->th[i].icount != b->th[i].icount ||
        strcmp(a->th[i].name, b->th[i].name) || a->hash[i] != b->hash[i])
      return 0;
  return 1;
}

static void expect_same(const char *what, const struct fp *want,
                        const struct fp *got) {
  checks++;
  if (same(want, got)) return;
  failed++;
  printf("FAIL: %s\n", what);
  show("expected", want);
  show("got     ", got);
}

static void check(int ok, const char *fmt, ...) RW_PRINTF(2, 3);
static void check(int ok, const char *fmt, ...) {
  checks++;
  if (ok) return;
  failed++;
  va_list ap;
  va_start(ap, fmt);
  printf("FAIL: ");
  vprintf(fmt, ap);
  printf("\n");
  va_end(ap);
}

static u64 rnd(u64 *s) {
  *s ^= *s << 13;
  *s ^= *s >> 7;
  *s ^= *s << 17;
  return *s;
}

static int cmp_u64(const void *a, const void *b) {
  u64 x = *(const u64 *)a, y = *(const u64 *)b;
  return x < y ? -1 : x > y;
}

static u64 floor_icount; /* where the debugger's history begins */

static rp_replay *open_trace(const char *path, u64 interval) {
  struct rp_opts o = {0};
  struct rw_diag d = {0};
  rp_replay *rp;
  o.keyframe_interval = interval;
  o.tree = getenv("SEEKCHECK_TREE") != NULL;
  if (getenv("SEEKCHECK_BUDGET"))
    o.keyframe_budget = strtoull(getenv("SEEKCHECK_BUDGET"), NULL, 0);
  if (rp_open(&rp, path, &o, &d) < 0) {
    fprintf(stderr, "seekcheck: %s: %s\n", path, d.msg);
    exit(2);
  }
  /* SEEKCHECK_PROCESS=PID: the debugger looks at that process, from its
   * creation (rewind replay -p starts at its last exec instead). */
  const char *pid = getenv("SEEKCHECK_PROCESS");
  if (pid && *pid) {
    struct rp_stop st;
    if (rp_debug_process(rp, (u32)strtoul(pid, NULL, 10), 0, &st) < 0 ||
        st.reason != RP_STOP_TARGET) {
      fprintf(stderr, "seekcheck: process %s is not reached\n", pid);
      exit(2);
    }
    floor_icount = rp_icount(rp);
  }
  return rp;
}

static void seek(rp_replay *rp, u64 at, struct rp_stop *st) {
  if (rp_seek(rp, at, st) < 0) {
    fprintf(stderr, "seekcheck: rp_seek failed\n");
    exit(2);
  }
  if (st->reason == RP_STOP_DIVERGED || st->reason == RP_STOP_FAILED) {
    fprintf(stderr, "seekcheck: the replay stopped: %s\n", st->msg);
    exit(2);
  }
}

enum { MAXHITS = 40 };

/* Sets a breakpoint at ADDR (KIND 0) or a write watchpoint on its 8 bytes
 * (KIND 1), runs from the start and notes the hits (at most MAXHITS):
 * their counts (before the access, for a watchpoint), events and threads.
 * Returns how many, -1 when the replay fails, or 0 with the point not set. */
static int hits(rp_replay *rp, int kind, u64 addr, u64 *hic, u64 *hev,
                u32 *htid, struct rp_stop *st) {
  struct rw_regs r;
  int n = 0;
  if (kind ? rp_watch_add(rp, addr, 8, 2) : rp_break_add(rp, addr)) return 0;
  seek(rp, floor_icount, st);
  while (n < MAXHITS) {
    if (rp_run(rp, ~0ull, st) < 0) return -1;
    if (st->reason != (kind ? RP_STOP_WATCHPOINT : RP_STOP_BREAKPOINT))
      break;
    check(st->tid == rp_current_tid(rp), "hit: stop->tid %u is current %u",
          st->tid, rp_current_tid(rp));
    if (!kind && rp_get_regs(rp, st->tid, &r) == 0)
      check(r.rip == addr, "breakpoint hit by %u at %#" PRIx64, st->tid,
            r.rip);
    hic[n] = kind ? st->icount - 1 : st->icount; /* reverse stops before */
    hev[n] = st->event;
    htid[n++] = st->tid;
  }
  return n;
}

int main(int argc, char **argv) {
  if (argc < 2) {
    fprintf(stderr, "usage: seekcheck TRACE [POSITIONS [INTERVAL [SEED]]]\n");
    return 2;
  }
  size_t npos = argc > 2 ? (size_t)atoi(argv[2]) : 60;
  u64 interval = argc > 3 ? strtoull(argv[3], NULL, 0) : 200000;
  u64 seed = argc > 4 ? strtoull(argv[4], NULL, 0) : 88172645463325252ull;
  struct rp_stop st;
  int rc;

  /* The end, by one forward run. */
  if (getenv("SEEKCHECK_DEBUG")) rw_log_level = RW_LOG_DEBUG;
  rp_replay *rp = open_trace(argv[1], interval);
  if (rp_run(rp, ~0ull, &st) < 0 || st.reason != RP_STOP_END) {
    fprintf(stderr, "seekcheck: the first run did not reach the end: %s\n",
            st.msg);
    return 2;
  }
  u64 end = rp_icount(rp);
  struct rp_stats stats;
  rp_get_stats(rp, &stats);
  printf("keyframes at the end: %" PRIu64 ", holding %" PRIu64 " bytes\n",
         stats.keyframes, stats.keyframe_bytes);
  struct fp endfp;
  take(rp, &endfp);
  if (getenv("SEEKCHECK_VERBOSE")) show("end", &endfp);
  check(endfp.n >= 1, "at the end, the thread that ended it is listed");

  /* Positions, and how they look reached by a forward run only. */
  u64 *pos = calloc(npos + 2, sizeof *pos);
  struct fp *want = calloc(npos + 2, sizeof *want);
  if (!pos || !want) return 2;
  u64 span = end - floor_icount;
  for (size_t i = 0; i < npos; i++)
    pos[i] = floor_icount + (span ? rnd(&seed) % span : 0);
  pos[npos++] = floor_icount;
  pos[npos++] = end ? end - 1 : 0;
  qsort(pos, npos, sizeof *pos, cmp_u64);
  rp_replay *fw = open_trace(argv[1], ~0ull >> 1); /* no keyframes */
  for (size_t i = 0; i < npos; i++) {
    seek(fw, pos[i], &st);
    take(fw, &want[i]);
    check(want[i].icount == pos[i], "forward run to %" PRIu64
          " stopped at %" PRIu64, pos[i], want[i].icount);
  }
  rp_close(fw);
  size_t maxthreads = 0;
  for (size_t i = 0; i < npos; i++)
    if (want[i].n > maxthreads) maxthreads = want[i].n;

  /* The same positions, in a random order, through keyframes. */
  for (size_t k = 0; k < npos; k++) {
    size_t i = (size_t)(rnd(&seed) % npos);
    char what[96];
    struct fp got;
    seek(rp, pos[i], &st);
    take(rp, &got);
    snprintf(what, sizeof what, "seek to %" PRIu64 " (from anywhere)",
             pos[i]);
    expect_same(what, &want[i], &got);
    check(st.tid == got.cur, "seek: stop->tid %u is the current thread %u",
          st.tid, got.cur);
  }

  /* One instruction back, globally. */
  for (size_t i = 1; i < npos; i += 3) {
    if (pos[i] <= floor_icount) continue;
    struct fp before, got;
    seek(rp, pos[i] - 1, &st);
    take(rp, &before);
    seek(rp, pos[i], &st);
    if (rp_reverse_step(rp, &st) < 0) return 2;
    take(rp, &got);
    expect_same("rp_reverse_step is the position before", &before, &got);
  }

  /* Thread steps: forwards then back, and back then forwards, from
   * positions where the thread is the one about to run; and back from
   * every other listed thread too. */
  for (size_t i = 0; i < npos; i++) {
    if (pos[i] >= end) continue;
    struct fp x, y, z;
    seek(rp, pos[i], &st);
    take(rp, &x);
    u32 t = x.cur;
    /* In a process tree, the debugger's current thread may be waiting
     * while another process runs: a step and a step back land where it
     * is about to run, not here. */
    int runs = rp_running_tid(rp) == t;
    if (rp_step_thread(rp, t, &st) < 0) {
      fprintf(stderr, "seekcheck: rp_step_thread(%u) failed at %" PRIu64 "\n", t, x.icount);
      return 2;
    }
    take(rp, &y);
    size_t ti = 0;
    while (ti < x.n && x.th[ti].tid != t) ti++;
    /* A step that ended the thread (its exit) leaves no thread of that id
     * to be current, or to step back by its id. */
    int gone = 1;
    for (size_t j = 0; j < y.n; j++)
      if (y.th[j].tid == t) gone = 0;
    if (st.reason == RP_STOP_TARGET && gone) {
      check(y.icount == x.icount + 1,
            "step of %u that ended it: one instruction (%" PRIu64
            " -> %" PRIu64 ")", t, x.icount, y.icount);
    } else if (st.reason == RP_STOP_TARGET) {
      check(st.tid == t, "step of %u: stop->tid is %u", t, st.tid);
      check(y.cur == t, "step of %u: it is current after (%u)", t, y.cur);
      for (size_t j = 0; j < y.n; j++)
        if (y.th[j].tid == t && ti < x.n)
          check(y.th[j].icount == x.th[ti].icount + 1,
                "step of %u at %" PRIu64 ": own count %" PRIu64
                " -> %" PRIu64 " (stopped at %" PRIu64 ", event %" PRIu64
                ")", t, x.icount, x.th[ti].icount, y.th[j].icount,
                st.icount, st.event);
      if ((rc = rp_reverse_step_thread(rp, t, &st)) < 0) {
        fprintf(stderr,
                "seekcheck: rp_reverse_step_thread(%u) at %" PRIu64
                " (line %d) failed: %s\n",
                t, x.icount, __LINE__, rw_strerror(rc));
        return 2;
      }
      take(rp, &z);
      if (runs) expect_same("step of the current thread, then back", &x, &z);
    }
    seek(rp, pos[i], &st);
    if (ti < x.n && x.th[ti].icount > 0) {
      if ((rc = rp_reverse_step_thread(rp, t, &st)) < 0) {
        fprintf(stderr,
                "seekcheck: rp_reverse_step_thread(%u) at %" PRIu64
                " (line %d) failed: %s\n",
                t, x.icount, __LINE__, rw_strerror(rc));
        return 2;
      }
      take(rp, &y);
      check(st.reason == RP_STOP_TARGET && y.cur == t,
            "reverse step of %u at %" PRIu64 ": stopped (%d) with %u current",
            t, x.icount, st.reason, y.cur);
      if (rp_step_thread(rp, t, &st) < 0) {
      fprintf(stderr, "seekcheck: rp_step_thread(%u) failed at %" PRIu64 "\n", t, x.icount);
      return 2;
    }
      take(rp, &z);
      if (runs)
        expect_same("back one instruction of the current thread, then "
                    "forward", &x, &z);
    }
    /* Every other thread: back one of its instructions. */
    for (size_t j = 0; j < x.n; j++) {
      u32 u = x.th[j].tid;
      if (u == t) continue;
      seek(rp, pos[i], &st);
      if (rp_reverse_step_thread(rp, u, &st) < 0) {
        check(0, "reverse step of %u failed", u);
        continue;
      }
      take(rp, &y);
      if (!x.th[j].icount) {
        check(st.reason == RP_STOP_BEGIN && y.icount == x.icount,
              "reverse step of %u, which has not run: BEGIN, not moved", u);
        continue;
      }
      size_t k = 0;
      while (k < y.n && y.th[k].tid != u) k++;
      check(st.reason == RP_STOP_TARGET && y.cur == u && k < y.n &&
                y.th[k].icount == x.th[j].icount - 1 && y.icount < x.icount,
            "reverse step of %u (count %" PRIu64 ") at %" PRIu64
            ": reason %d, current %u, at %" PRIu64,
            u, x.th[j].icount, x.icount, st.reason, y.cur, y.icount);
      /* Stepping it forward again runs to its next turn: it then has the
       * count it had, and is current. Unless that instruction ended it: an
       * exit (it is not listed any more) or an execve of any thread (a new
       * image, whose one thread may have its tid). */
      struct rp_image im0, im1;
      if (rp_get_image(rp, &im0) < 0) im0.path = NULL;
      if (rp_step_thread(rp, u, &st) < 0) return 2;
      take(rp, &z);
      if (rp_get_image(rp, &im1) < 0) im1.path = NULL;
      k = 0;
      while (k < z.n && z.th[k].tid != u) k++;
      check(im0.path != im1.path || k >= z.n ||
                (z.th[k].icount == x.th[j].icount &&
                 (st.reason == RP_STOP_END || z.cur == u)),
            "reverse step of %u then step: count back to %" PRIu64, u,
            x.th[j].icount);
    }
  }

  /* A breakpoint and a watchpoint where the current thread is at a
   * position in the middle: their hits, in any thread, forwards, then
   * backwards with rp_reverse_continue. */
  for (int kind = 0; kind < 2 && npos > 2; kind++) {
    u64 hic[MAXHITS], hev[MAXHITS];
    u32 htid[MAXHITS];
    u64 addr = 0;
    int n = 0;
    /* The watched word: the first of rsp-8, rsp, rsp+8 ... (16 of them)
     * that an instruction writes; rsp-8 may be below anything the thread
     * reaches after the start. */
    int waits = 0; /* the thread waits while another process runs */
    for (int w = 0; n == 0 && w < (kind ? 16 : 1); w++) {
      struct rw_regs r;
      seek(rp, pos[npos / 2], &st);
      waits = rp_running_tid(rp) != rp_current_tid(rp);
      if (rp_get_regs(rp, rp_current_tid(rp), &r) < 0) break;
      /* With the tree, the point is in that thread's process. */
      if (rp_set_view(rp, rp_thread_pid(rp, rp_current_tid(rp))) < 0) break;
      addr = kind ? r.gpr[4] - 8 + 8 * (u64)w : r.rip;
      n = hits(rp, kind, addr, hic, hev, htid, &st);
      if (n < 0) return 2;
      if (n == 0 && kind && rp_watch_del(rp, addr, 8, 2)) break;
    }
    if (getenv("SEEKCHECK_VERBOSE")) {
      printf("seekcheck: %s at %#" PRIx64 " set at %" PRIu64 ": %d hits",
             kind ? "watch" : "break", addr, pos[npos / 2], n);
      for (int i = 0; i < n; i++)
        printf(" %" PRIu64 "/%" PRIu64 ":%u", hic[i], hev[i], htid[i]);
      printf("\n");
    }
    /* A thread waiting in a syscall may never run again (killed there):
     * the instruction after it is then never reached. */
    check(n > 0 || (!kind && waits), "%s at %#" PRIx64 " is hit (set at %"
          PRIu64 ")", kind ? "watch" : "break", addr, pos[npos / 2]);
    /* At the end or at the last hit: back through the hits (from just
     * after a watched access, going back finds that access first). */
    int from = st.reason == RP_STOP_END || kind ? n - 1 : n - 2;
    for (int i = from; i >= 0 && i >= from - 12; i--) {
      if (rp_reverse_continue(rp, &st) < 0) return 2;
      check(st.icount == hic[i] && st.tid == htid[i] &&
                (kind || st.event == hev[i]),
            "%s: reverse hit %d at %" PRIu64 "/%" PRIu64 " thread %u, "
            "expected %" PRIu64 "/%" PRIu64 " thread %u",
            kind ? "watch" : "break", i, st.icount, st.event, st.tid, hic[i],
            hev[i], htid[i]);
    }
    if (kind ? rp_watch_del(rp, addr, 8, 2) : rp_break_del(rp, addr)) break;
  }

  /* Repeated reverse steps of one thread are cheap (fine keyframes): the
   * time of SEEKCHECK_STEPS (300) of them from near the end, and of as many
   * global ones. */
  const char *e = getenv("SEEKCHECK_STEPS");
  int nsteps = e ? atoi(e) : 300;
  seek(rp, end > 10 ? end - 10 : 0, &st);
  u32 t = rp_current_tid(rp);
  u64 t0 = rw_now_ns();
  int steps = 0;
  for (; steps < nsteps; steps++) {
    if (rp_reverse_step_thread(rp, t, &st) < 0) return 2;
    if (st.reason != RP_STOP_TARGET) break;
  }
  double ms = (double)(rw_now_ns() - t0) / 1e6;
  printf("seekcheck: %d reverse steps of thread %u in %.1f ms\n", steps, t,
         ms);
  seek(rp, end > 10 ? end - 10 : 0, &st);
  t0 = rw_now_ns();
  for (steps = 0; steps < nsteps; steps++) {
    if (rp_reverse_step(rp, &st) < 0) return 2;
    if (st.reason != RP_STOP_TARGET) break;
  }
  ms = (double)(rw_now_ns() - t0) / 1e6;
  printf("seekcheck: %d global reverse steps in %.1f ms\n", steps, ms);

  /* Back at the end: the same as the first time. (A seek to the end's
   * count stops before a fatal fault there, which does not count.) */
  seek(rp, end ? end - 1 : 0, &st);
  if (rp_run(rp, ~0ull, &st) < 0) return 2;
  struct fp got;
  take(rp, &got);
  expect_same("the end again", &endfp, &got);
  rp_close(rp);
  printf("seekcheck: %s: %" PRIu64 " instructions, up to %zu threads; %d "
         "checks, %d failed\n",
         argv[1], end, maxthreads, checks, failed);
  free(pos);
  free(want);
  return failed ? 1 : 0;
}
