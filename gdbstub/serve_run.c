/* SPDX-License-Identifier: MIT */
/* Moving through the history for gdb: continue and step forwards (c, s, C,
 * S, vCont with c, s and r actions) and backwards (bc, bs). A step moves
 * one thread, the others running as they did in the recording meanwhile;
 * a continue runs them all. What gdb expects of an all-stop target that
 * the recording cannot give (threads held while one steps alone) is
 * approximated here. The replayer does the moving; serve_bp.c says where
 * a move ended. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gdbstub/serve_int.h"

/* What a resume packet asks of the replay. Plain data. */
struct plan {
  enum gdb_action_kind kind; /* 0 (nothing for a live thread), GDB_ACT_CONT,
                                GDB_ACT_STEP or GDB_ACT_RANGE */
  u32 tid;                   /* the thread that steps, or with ONLY the one
                                that continues */
  int only;                  /* gdb resumes TID alone (its step over a
                                breakpoint, scheduler locking) */
  u64 start, end;            /* GDB_ACT_RANGE: step while rip is in here */
};

/* 1 if the action A applies to the live thread TID. */
static int applies(struct gdb__sess *s, const struct gdb_action *a,
                   u32 tid) {
  u32 t = 0;
  if (!a->has_tid) return 1;
  switch (gdb__tid_match(s, &a->tid, &t)) {
    case GDB__TID_WILD:
      return 1;
    case GDB__TID_ONE:
      return t == tid;
    case GDB__TID_OTHER:
    case GDB__TID_DEAD:
      break;
  }
  return 0;
}

/* The first action of the packet that applies to TID (vCont's rule), or
 * NULL. */
static const struct gdb_action *action_for(struct gdb__sess *s, u32 tid) {
  const struct gdb_request *q = &s->req;
  for (unsigned i = 0; i < q->u.cont.n; i++)
    if (applies(s, &q->u.cont.act[i], tid)) return &q->u.cont.act[i];
  return NULL;
}

/* The live thread every action of ours names, or 0 when some action is for
 * all threads (then gdb resumes them all). */
static u32 sole_thread(struct gdb__sess *s) {
  const struct gdb_request *q = &s->req;
  u32 one = 0, t = 0;
  if (q->u.cont.hc)
    return s->c_tid && gdb__thread_find(s, s->c_tid) ? s->c_tid : 0;
  for (unsigned i = 0; i < q->u.cont.n; i++) {
    const struct gdb_action *a = &q->u.cont.act[i];
    switch (a->has_tid ? gdb__tid_match(s, &a->tid, &t) : GDB__TID_WILD) {
      case GDB__TID_WILD:
        return 0;
      case GDB__TID_ONE:
        if (one && one != t) return 0;
        one = t;
        break;
      case GDB__TID_OTHER:
      case GDB__TID_DEAD:
        break;
    }
  }
  return one;
}

/* Decides what the packet asks. The replay moves one thread at a time:
 * when the action of the preferred thread (the Hc thread for c, s and bs,
 * else the Hg thread) steps, that thread steps; else the first other live
 * thread whose action steps (gdb's "vCont;s:TID;c"); else, when any action
 * applies to a live thread, everything continues. Other threads run as
 * recorded either way. Returns 0 with *P filled, 1 after an error reply,
 * or a negative code. */
static int plan(struct gdb__sess *s, struct plan *p) {
  const struct gdb_request *q = &s->req;
  const struct gdb_action *a;
  u32 tid = 0;
  memset(p, 0, sizeof *p);
  RW_FORWARD(gdb__threads_load(s));
  for (unsigned i = 0; i < q->u.cont.n; i++) {
    a = &q->u.cont.act[i];
    if (a->kind == GDB_ACT_STOP) {
      gdb_reply_error_msg(&s->reply, "vCont;t needs non-stop mode");
      return 1;
    }
    if (a->has_tid && gdb__tid_match(s, &a->tid, &tid) == GDB__TID_DEAD) {
      gdb_reply_error_msg(&s->reply, "no such thread at this position");
      return 1;
    }
  }
  u32 pref = q->u.cont.hc ? gdb__cont_thread(s) : gdb__sel_thread(s);
  /* After a fork event gdb reads the new process's registers last (its
   * Hg is the child's), yet a bare s, bs or bc with Hc "any" is for the
   * thread that forked, which stays gdb's selected one: a reverse-stepi
   * there stepped the child, which has no history before the fork. */
  if (q->u.cont.hc && s->fork_tid &&
      !(s->c_tid && gdb__thread_find(s, s->c_tid)) &&
      gdb__thread_find(s, s->fork_tid))
    pref = s->fork_tid;
  for (size_t i = 0; i <= s->nthr; i++) {
    tid = i == 0 ? pref : s->thr[i - 1].tid;
    if (i > 0 && tid == pref) continue;
    if (!(a = action_for(s, tid))) continue;
    if (!p->kind) p->kind = GDB_ACT_CONT;
    if (a->kind == GDB_ACT_STEP || a->kind == GDB_ACT_STEP_SIG ||
        a->kind == GDB_ACT_RANGE) {
      p->kind = a->kind == GDB_ACT_RANGE ? GDB_ACT_RANGE : GDB_ACT_STEP;
      p->tid = tid;
      p->start = a->start;
      p->end = a->end;
      break;
    }
  }
  u32 sole = sole_thread(s);
  if (p->kind && sole && (p->kind == GDB_ACT_CONT || sole == p->tid)) {
    p->only = 1;
    p->tid = sole;
  }
  return 0;
}

/* Instructions thread TID has executed, or ~0 when it is gone. */
static u64 own_count(struct gdb__sess *s, u32 tid) {
  const struct rp_thread *t;
  if (gdb__threads_load(s) < 0 || !(t = gdb__thread_find(s, tid)))
    return ~0ull;
  return t->icount;
}

/* 1 if ST is an event of another thread than P's, which gdb cannot take
 * when it resumed P's thread alone: it asserts that the thread it steps
 * over a breakpoint is the one that reports. Those threads still run (the
 * recording says they did), but their breakpoints and watchpoints are
 * passed over. */
static int not_ours(const struct plan *p, const struct rp_stop *st) {
  return p->only && st->tid != p->tid &&
         (st->reason == RP_STOP_BREAKPOINT ||
          st->reason == RP_STOP_WATCHPOINT || st->reason == RP_STOP_SYSCALL ||
          st->reason == RP_STOP_REP || st->reason == RP_STOP_SIGNAL);
}

/* 1 if ST is a fork gdb is not to be told of: of a child it already has
 * an inferior for (the replay went back before the fork and came again),
 * that has no thread yet, by a process gdb does not know, or by another
 * thread while gdb resumed P's thread alone. */
static int fork_passed(struct gdb__sess *s, const struct plan *p,
                       const struct rp_stop *st) {
  struct rw_regs regs;
  if (st->reason != RP_STOP_FORK) return 0;
  if (gdb__pid_known(s, st->child) || (p->only && st->tid != p->tid) ||
      !gdb__pid_known(s, rp_thread_pid(s->rp, st->tid)))
    return 1;
  /* Its first thread has the process's id. */
  return rp_get_regs(s->rp, st->child, &regs) < 0;
}

/* 1 if ST is a stop a run that looks for another one goes on from. */
static int passing(const struct rp_stop *st) {
  return st->reason == RP_STOP_BREAKPOINT ||
         st->reason == RP_STOP_WATCHPOINT || st->reason == RP_STOP_FORK ||
         st->reason == RP_STOP_SYSCALL || st->reason == RP_STOP_REP ||
         st->reason == RP_STOP_SIGNAL;
}

/* Keeps the event E for the next resume in direction DIR, valid while the
 * replay stays where it is now. */
static void keep_pending(struct gdb__sess *s, const struct rp_stop *e,
                         int dir) {
  s->pending = *e;
  s->has_pending = 1;
  s->pending_dir = dir;
  s->pending_icount = rp_icount(s->rp);
  s->pending_event = rp_event(s->rp);
}

/* Runs forwards from here to the breakpoint hit E (a stop met earlier on
 * this stretch of the history) and fills ST with it. Returns 1 when the
 * replay is there, 0 when it did not come by (it is then at most one
 * instruction past it), or a negative code. */
static int goto_hit(struct gdb__sess *s, const struct rp_stop *e,
                    struct rp_stop *st) {
  for (;;) {
    RW_FORWARD(rp_run(s->rp, e->icount + 1, st));
    if (st->reason == e->reason && st->icount == e->icount &&
        st->event == e->event && st->tid == e->tid)
      return 1;
    if (!passing(st)) return 0;
  }
}

/* Thread TID stepped back from position UNTIL to ST, over a stretch where
 * it did not run (a blocking syscall) but others did. Going backwards the
 * last breakpoint another thread hit there comes before TID's step: finds
 * it (*FOUND) into *E by running the stretch forwards again, and returns
 * to ST. Watchpoints on the stretch are not looked for. */
static int last_hit(struct gdb__sess *s, u32 tid, u64 until,
                    struct rp_stop *st, struct rp_stop *e, int *found) {
  struct rp_stop x;
  *found = 0;
  for (;;) {
    RW_FORWARD(rp_run(s->rp, until, &x));
    if (x.reason == RP_STOP_BREAKPOINT && x.tid != tid) {
      *e = x;
      *found = 1;
    } else if (!passing(&x)) {
      break; /* at UNTIL, or the replay cannot go on */
    }
  }
  return rp_reverse_step_thread(s->rp, tid, st);
}

/* Moves P's thread one instruction back. When it had not run for a while,
 * a breakpoint another thread hit meanwhile is what going backwards meets
 * first: reported instead, or, when gdb resumed that one thread alone
 * (gdb's step over a breakpoint going backwards), at the next reverse
 * resume. */
static int step_back(struct gdb__sess *s, const struct plan *p,
                     struct rp_stop *st) {
  u64 from = rp_icount(s->rp);
  struct rp_stop e;
  int found;
  RW_FORWARD(rp_reverse_step_thread(s->rp, p->tid, st));
  if (st->reason != RP_STOP_TARGET || !s->nbps || from - st->icount <= 1)
    return 0;
  RW_FORWARD(last_hit(s, p->tid, from, st, &e, &found));
  if (!found || st->reason != RP_STOP_TARGET) return 0;
  if (p->only) {
    keep_pending(s, &e, GDB_REVERSE);
    return 0;
  }
  struct rp_stop x;
  int rc = goto_hit(s, &e, &x);
  if (rc > 0) *st = x;
  if (rc == 0) /* not met again (cannot happen): the thread's step then */
    rc = rp_reverse_step_thread(s->rp, p->tid, st);
  return rc < 0 ? rc : 0;
}

/* Moves P's thread one instruction forwards or backwards (the others run
 * as recorded meanwhile). A watchpoint the instruction triggers is
 * reported, a breakpoint where it lands is not (gdb checks that itself);
 * a breakpoint another thread reaches first is, unless P resumes its
 * thread alone. */
static int step(struct gdb__sess *s, int dir, const struct plan *p,
                struct rp_stop *st) {
  u64 c0 = own_count(s, p->tid);
  for (;;) {
    int rc = dir == GDB_REVERSE ? step_back(s, p, st)
                                : rp_step_thread(s->rp, p->tid, st);
    if (rc < 0) return rc;
    if (fork_passed(s, p, st)) {
      /* Not told: the step goes on, unless it is over already. */
      if (own_count(s, p->tid) == c0) continue;
      st->reason = RP_STOP_TARGET;
      break;
    }
    if (!not_ours(p, st)) break;
    /* Stopped for another thread on the way: go on, unless the thread has
     * already executed (or gone back over) its instruction, which happens
     * when that was a blocking syscall. Its step is then over, and the
     * other thread's event waits for the next resume, as gdbserver keeps
     * the events of threads it did not report. */
    if (own_count(s, p->tid) != c0) {
      if (dir == GDB_FORWARD) keep_pending(s, st, GDB_FORWARD);
      st->reason = RP_STOP_TARGET;
      break;
    }
  }
  if (st->reason == RP_STOP_TARGET || st->reason == RP_STOP_BEGIN)
    st->tid = p->tid; /* the stepped thread is the one that stopped */
  return 0;
}

/* Range stepping: steps P's thread while its rip stays in [start, end),
 * until something else stops the replay or gdb interrupts. */
static int range_step(struct gdb__sess *s, int dir, const struct plan *p,
                      struct rp_stop *st) {
  struct rw_regs regs;
  for (unsigned n = 1;; n++) {
    RW_FORWARD(step(s, dir, p, st));
    if (st->reason != RP_STOP_TARGET || s->has_pending) return 0;
    if (rp_get_regs(s->rp, p->tid, &regs) < 0) return 0;
    if (regs.rip < p->start || regs.rip >= p->end) return 0;
    if (n % 1024 == 0 && gdb__poll(s)) {
      st->reason = RP_STOP_INTERRUPTED;
      return 0;
    }
  }
}

/* Runs every thread forwards or backwards to the next breakpoint or
 * watchpoint (of P's thread alone when gdb resumed it alone). */
static int cont(struct gdb__sess *s, int dir, const struct plan *p,
                struct rp_stop *st) {
  do {
    int rc = dir == GDB_REVERSE ? rp_reverse_continue(s->rp, st)
                                : rp_run(s->rp, ~0ull, st);
    if (rc < 0) return rc;
  } while (not_ours(p, st) || fork_passed(s, p, st));
  return 0;
}

/* The event another thread met while gdb stepped one thread alone, into
 * *ST: 1 if gdb now resumes in the direction it waits for, lets that
 * thread run, the breakpoint or watchpoint is still there and the replay
 * has not moved since (going backwards, it then runs forwards to it); 0
 * if not; or a negative code. The event is dropped either way. */
static int take_pending(struct gdb__sess *s, int dir, const struct plan *p,
                        struct rp_stop *st) {
  const struct rp_stop *e = &s->pending;
  if (!s->has_pending) return 0;
  s->has_pending = 0;
  if (dir != s->pending_dir || rp_icount(s->rp) != s->pending_icount ||
      rp_event(s->rp) != s->pending_event || !gdb__thread_find(s, e->tid) ||
      (p->only && p->tid != e->tid) || !gdb__bp_still_set(s, e))
    return 0;
  if (dir == GDB_REVERSE) return goto_hit(s, e, st);
  *st = *e;
  return 1;
}

/* Carries out P in direction DIR and fills ST. Returns 0 or a negative
 * code (RW_ENOTFOUND when the replayer knows no such thread). */
static int move(struct gdb__sess *s, int dir, struct plan *p,
                struct rp_stop *st) {
  int rc;
  switch ((int)p->kind) {
    case GDB_ACT_CONT:
      return cont(s, dir, p, st);
    case GDB_ACT_STEP:
      rc = step(s, dir, p, st);
      break;
    default: /* GDB_ACT_RANGE */
      rc = range_step(s, dir, p, st);
      break;
  }
  if (rc < 0 || st->reason != RP_STOP_TARGET) return rc;
  RW_FORWARD(gdb__threads_load(s));
  if (gdb__thread_find(s, p->tid)) return 0;
  /* The thread exited during its step. gdb 13 cannot take a thread exit
   * event ('w') in all-stop mode, so the program runs on, as it does when
   * gdb steps a thread that exits on a live target; an event of another
   * thread met on the way is reported now. */
  p->only = 0;
  if (!s->has_pending) return cont(s, dir, p, st);
  s->has_pending = 0;
  *st = s->pending;
  return 0;
}

/* With the tree, gdb learns of a process from a fork event alone, and of
 * a process's new program from an exec event. A jump (monitor goto,
 * --goto, a session that starts late) passes forks and execs without
 * stopping there: the first resume after one tells gdb of one such process
 * (as forked by a thread it knows) or program, without moving, and gdb,
 * having taken the event, resumes again. gdb resumes a step after a fork
 * event but continues after an exec event: a STEP is told of a new
 * program on the console instead, which gdb takes as its from then on.
 * Returns 1 with *ST filled, 0 when gdb is up to date, or a negative
 * code. */
static int catch_up(struct gdb__sess *s, struct rp_stop *st, int step) {
  if (!s->opts.tree || !(s->features & GDB_FEAT_FORK_EVENTS)) return 0;
  size_t n = rp_threads(s->rp, NULL, 0);
  struct rp_thread *v = calloc(n ? n : 1, sizeof *v);
  if (!v) return RW_ENOMEM;
  n = RW_MIN(n, rp_threads(s->rp, v, n));
  int rc = gdb__threads_load(s), found = 0;
  memset(st, 0, sizeof *st);
  st->icount = rp_icount(s->rp);
  st->event = rp_event(s->rp);
  for (size_t i = 0; rc == 0 && i < n && s->nthr && !found; i++) {
    if (gdb__pid_known(s, v[i].pid) || v[i].tid != v[i].pid) continue;
    st->reason = RP_STOP_FORK;
    st->tid = s->thr[0].tid;
    st->child = v[i].pid;
    found = 1;
  }
  for (size_t i = 0; rc == 0 && i < n && !found &&
                     (s->features & GDB_FEAT_EXEC_EVENTS);
       i++) {
    struct rp_image im;
    if (!gdb__pid_known(s, v[i].pid) || rp_set_view(s->rp, v[i].pid) != 0 ||
        rp_get_image(s->rp, &im) < 0 || !im.path ||
        im.seq == gdb__pid_image(s, v[i].pid))
      continue;
    if (step) {
      char msg[600];
      gdb__pid_image_set(s, v[i].pid, im.seq);
      snprintf(msg, sizeof msg,
               "process %u runs %s here, another program than gdb has "
               "loaded for it; in its inferior, `file target:%s` loads "
               "its symbols\n",
               v[i].pid, im.path, im.path);
      rc = gdb__console(s, msg);
      continue;
    }
    st->reason = RP_STOP_EXEC;
    st->tid = v[i].tid;
    found = 1;
  }
  free(v);
  gdb__view_sync(s);
  return rc < 0 ? rc : found;
}

int gdb__resume(struct gdb__sess *s) {
  const struct gdb_request *q = &s->req;
  struct plan p;
  struct rp_stop st;
  int dir = q->u.cont.dir, rc;
  if (q->u.cont.has_addr) {
    gdb_reply_error_msg(&s->reply, "the recording cannot be changed: "
                                   "resuming at another address");
    return 0;
  }
  rc = plan(s, &p);
  if (rc) return rc < 0 ? rc : 0;
  RW_FORWARD(gdb__signal_note(s));
  if (!p.kind) { /* nothing for a thread alive here: report where we are */
    gdb__stop_reply(s, &s->last);
    return 0;
  }
  rc = catch_up(s, &st, p.kind != GDB_ACT_CONT);
  if (rc < 0) return rc;
  if (rc > 0) goto stopped;
  memset(&st, 0, sizeof st);
  rc = take_pending(s, dir, &p, &st);
  if (rc < 0) return rc;
  if (rc > 0) goto stopped;
  /* A ^C already waiting behind the packet is for this run. */
  s->interrupt = memchr(s->in + s->in_off, 0x03, s->in_len - s->in_off) != 0;
  rc = move(s, dir, &p, &st);
  if (rc == RW_ENOTFOUND) { /* the replayer knows no such thread here */
    gdb_reply_error_msg(&s->reply, "no such thread at this position");
    return 0;
  }
  RW_FORWARD(rc);
  if (st.reason == RP_STOP_DIVERGED || st.reason == RP_STOP_FAILED) {
    char msg[900];
    snprintf(msg, sizeof msg,
             "rewind: the replay cannot go further: %s\n"
             "rewind: the history before this point (global instruction "
             "%llu) %s; reverse execution and `monitor goto` work there\n",
             st.msg, (unsigned long long)st.icount,
             st.reason == RP_STOP_DIVERGED
                 ? "passed every check against the recording up to the "
                   "last event before it"
                 : "is intact");
    RW_FORWARD(gdb__console(s, msg));
  }
stopped:
  if (!st.tid) st.tid = rp_current_tid(s->rp);
  s->last = st;
  s->last_dir = dir;
  s->g_tid = st.tid; /* gdb selects the stopped thread too */
  s->fork_tid = st.reason == RP_STOP_FORK ? st.tid : 0;
  RW_FORWARD(gdb__smark_note(s, &st));
  gdb__stop_reply(s, &st);
  return 0;
}
