/* SPDX-License-Identifier: MIT */
/* The timeline: keyframes taken while the replay runs forward (a snapshot of
 * the address space, which costs a page-table copy, plus every thread's
 * registers and state, and the position in the trace), and seeking to any
 * instruction count by restoring the nearest earlier keyframe and running
 * forward. When keyframes grow too many, every other one is dropped and the
 * spacing doubles, so their number stays bounded whatever the trace's length.
 * Also the fine keyframes: a small cache, least recently used out, taken
 * close before a position that a seek reached, so that reverse steps from
 * there (reverse.c) restore a near one. */
#include <stdlib.h>
#include <string.h>

#include "replayer/rp_int.h"

#define RP_MAX_KFS 1024
#define RP_DEFAULT_KF_BUDGET (256ull << 20)

void rp__kf_free(struct rp__kf *kf) {
  for (size_t i = 0; i < kf->nkids; i++) {
    cpu_snap_free(kf->kids[i].snap);
    rp__srcs_free(&kf->kids[i].srcs);
  }
  free(kf->kids);
  cpu_snap_free(kf->snap);
  free(kf->threads);
  free(kf->states);
  rp__srcs_free(&kf->srcs);
  memset(kf, 0, sizeof *kf);
}
#define kf_free rp__kf_free

void rp__kf_free_all(rp_replay *rp) {
  for (size_t i = 0; i < rp->tl.nkfs; i++) kf_free(&rp->tl.kfs[i]);
  free(rp->tl.kfs);
  rp->tl.kfs = NULL;
  free(rp->tl.maplog);
  rp->tl.maplog = NULL;
  rp->tl.nmaplog = rp->tl.capmaplog = 0;
  rp->tl.nkfs = rp->tl.capkfs = 0;
}

/* Drops every other keyframe (never the first) and doubles the spacing. */
static void thin(rp_replay *rp) {
  size_t k = 1;
  for (size_t i = 1; i < rp->tl.nkfs; i++) {
    if (i % 2)
      kf_free(&rp->tl.kfs[i]);
    else
      rp->tl.kfs[k++] = rp->tl.kfs[i];
  }
  rp->tl.nkfs = k;
  rp->tl.kf_interval *= 2;
}

static u64 thread_bytes(const struct rp__kf *kf) {
  return kf->nthreads * (sizeof *kf->threads + cpu_state_size());
}

u64 rp__mem_footprint(const rp_replay *rp) {
  u64 n = cpu_mem_footprint(rp->root.mem);
  for (size_t i = 0; i < rp->nkids; i++)
    if (rp->kids[i]->own) n += cpu_mem_footprint(rp->kids[i]->own);
  return n;
}

u64 rp__kf_thread_bytes(const rp_replay *rp) {
  u64 n = 0;
  for (size_t i = 0; i < rp->tl.nkfs; i++) n += thread_bytes(&rp->tl.kfs[i]);
  for (size_t i = 0; i < rp->tl.nfine; i++) n += thread_bytes(&rp->tl.fine[i]);
  return n;
}

/* Whether the keyframes hold too much: too many of them, thread states
 * (about 1 KiB per thread per keyframe) past a quarter of the budget, or
 * pages only snapshots hold past the budget (a program that rewrites much
 * memory leaves a copy of it in each keyframe), counted over the address
 * spaces of every process. The default budget is 256 MiB plus twice the
 * programs' own memory. */
static int too_many(const rp_replay *rp) {
  if (rp->tl.nkfs > RP_MAX_KFS) return 1;
  if (rp->tl.nkfs <= 2) return 0;
  u64 budget = rp->opts.keyframe_budget ? rp->opts.keyframe_budget
                                        : RP_DEFAULT_KF_BUDGET;
  u64 n = 0;
  for (size_t i = 0; i < rp->tl.nkfs; i++) n += thread_bytes(&rp->tl.kfs[i]);
  if (n > budget / 4) return 1;
  u64 all = rp__mem_footprint(rp);
  if (all <= budget) return 0; /* the walk below is not needed */
  u64 live = 0;
  live += cpu_mem_resident(rp->root.mem);
  for (size_t i = 0; i < rp->nkids; i++)
    if (rp->kids[i]->own) live += cpu_mem_resident(rp->kids[i]->own);
  if (!rp->opts.keyframe_budget) budget += 2 * live;
  return all - RW_MIN(live, all) > budget;
}

/* Where a keyframe at ICOUNT goes in the timeline, or ~0 when one is
 * there already. */
static size_t kf_slot(const rp_replay *rp, u64 icount) {
  size_t i = rp->tl.nkfs;
  while (i > 0 && rp->tl.kfs[i - 1].icount > icount) i--;
  if (i > 0 && rp->tl.kfs[i - 1].icount == icount) return ~(size_t)0;
  return i;
}

int rp__kf_insert(rp_replay *rp, struct rp__kf *kf) {
  size_t i = kf_slot(rp, kf->icount);
  if (i == ~(size_t)0) {
    rp__kf_free(kf);
    return 0;
  }
  if (rp->tl.nkfs == rp->tl.capkfs) {
    size_t cap = rp->tl.capkfs ? 2 * rp->tl.capkfs : 32;
    struct rp__kf *v = realloc(rp->tl.kfs, cap * sizeof *v);
    if (!v) rp__kf_free(kf);
    RW_RETURN_IF(!v, RW_ENOMEM, "keyframes");
    rp->tl.kfs = v;
    rp->tl.capkfs = cap;
  }
  memmove(&rp->tl.kfs[i + 1], &rp->tl.kfs[i],
          (rp->tl.nkfs - i) * sizeof *rp->tl.kfs);
  rp->tl.kfs[i] = *kf;
  rp->tl.nkfs++;
  if (too_many(rp)) thin(rp);
  return 0;
}

int rp__kf_take(rp_replay *rp) {
  struct rp__kf kf;
  /* Not inside an exec, between the old image's threads and the new. */
  if (!rp->th.nthreads) return 0;
  rp->tl.next_kf = rp->icount + rp->tl.kf_interval;
  /* Keyframes are kept in icount order; one at or before the last this
   * replay took is already known (a re-run after a seek). Those loaded
   * from a persistent index may stand anywhere. */
  for (size_t i = rp->tl.nkfs; i-- > 0;)
    if (!rp->tl.kfs[i].from_index) {
      if (rp->tl.kfs[i].icount >= rp->icount) return 0;
      break;
    }
  if (kf_slot(rp, rp->icount) == ~(size_t)0) return 0;
  RW_FORWARD(rp__kf_capture(rp, &kf));
  return rp__kf_insert(rp, &kf);
}

int rp__kf_capture(rp_replay *rp, struct rp__kf *out) {
  struct rp__kf kf;
  memset(&kf, 0, sizeof kf);
  kf.icount = rp->icount;
  kf.events = rp->trace.events;
  kf.next_seq =
      rp->trace.have_pend ? rp->trace.pend.seq : rp->trace.last_seq + 1;
  RW_FORWARD(rp__threads_capture(rp, &kf));
  int rc = cpu_mem_snapshot(rp->root.mem, &kf.snap);
  if (rc == 0) rc = rp__srcs_copy(&kf.srcs, &rp->root.srcs);
  if (rc == 0) rc = rp__procs_capture(rp, &kf);
  kf.stack = rp->root.stack;
  kf.root_ended = rp->fin.root_ended;
  kf.root_status = rp->fin.root_status;
  kf.root_signo = rp->fin.root_signo;
  kf.pt_icount = rp->pt_icount;
  kf.pt_events = rp->pt_events;
  if (rc < 0) {
    rp__kf_free(&kf);
    return rc;
  }
  *out = kf;
  return 0;
}

struct rp__kf *rp__kf_before(rp_replay *rp, u64 icount, int strict) {
  struct rp__kf *best = NULL;
  for (size_t i = 0; i < rp->tl.nkfs; i++) {
    u64 at = rp->tl.kfs[i].icount;
    if (at < icount || (!strict && at == icount)) best = &rp->tl.kfs[i];
  }
  struct rp__kf *fine = NULL;
  for (size_t i = 0; i < rp->tl.nfine; i++) {
    u64 at = rp->tl.fine[i].icount;
    if ((at < icount || (!strict && at == icount)) &&
        (!fine || at > fine->icount))
      fine = &rp->tl.fine[i];
  }
  if (fine && (!best || fine->icount > best->icount)) {
    fine->lru = ++rp->tl.fine_clock;
    return fine;
  }
  return best;
}

int rp__kf_restore(rp_replay *rp, const struct rp__kf *kf) {
  RW_FORWARD(rp__clear_preempt_bp(rp));
  rp->user.sys_ret = 0; /* a syscall return or a kernel write seen */
  rp->user.mem_hit = 0;  /* elsewhere, and the last entry stop */
  rp->user.sys_seen_icount = ~0ull;
  rp->user.sig_seen_icount = ~0ull;
  rp->tl.restores++;
  RW_FORWARD(cpu_mem_restore(rp->root.mem, kf->snap));
  RW_FORWARD(rp__procs_restore(rp, kf));
  struct rp__srcs srcs;
  RW_FORWARD(rp__srcs_copy(&srcs, &kf->srcs));
  rp__srcs_free(&rp->root.srcs);
  rp->root.srcs = srcs;
  rp->root.stack = kf->stack;
  rp->proc = &rp->root;
  RW_FORWARD(rp__alias_sync(rp));
  RW_FORWARD(rp__threads_restore(rp, kf));
  rp->icount = kf->icount;
  rp->trace.events = kf->events;
  rp->tl.log_broken = kf->events > rp->tl.log_covered;
  rp->trace.have_pend = 0;
  rp->trace.last_seq = kf->next_seq - 1;
  rp->fin.ended = 0;
  rp->fin.root_ended = kf->root_ended;
  rp->fin.root_status = kf->root_status;
  rp->fin.root_signo = kf->root_signo;
  rp->pt_icount = kf->pt_icount;
  rp->pt_events = kf->pt_events;
  rp->th.exec_nr = 0;
  RW_FORWARD(trace_cursor_seek(rp->trace.cur, kf->next_seq));
  /* Breakpoints and watchpoints live in the cpu_mem, not in its snapshots,
   * so they survive the restore; adding a breakpoint again is harmless, but
   * a watch added again would be a second copy that outlives its delete. */
  RW_FORWARD(rp__user_sync(rp));
  rp->tl.next_kf = kf->icount + rp->tl.kf_interval;
  return 0;
}

u64 rp__floor(const rp_replay *rp) {
  return rp->user.floored ? rp->user.floor_icount : 0;
}

int rp_seek(rp_replay *rp, u64 icount, struct rp_stop *stop) {
  /* Not before the debugger's process began. */
  if (rp->user.floored && icount <= rp->user.floor_icount)
    return rp__seek(rp, rp->user.floor_icount, rp->user.floor_events, stop);
  return rp__seek(rp, icount, 0, stop);
}

int rp_debug_process(rp_replay *rp, u32 pid, u64 seq, struct rp_stop *stop) {
  struct rp__goal goal = rp__goal_at(~0ull, 0);
  goal.proc_pid = pid;
  goal.proc_seq = seq;
  RW_FORWARD(rp__run(rp, &goal, stop));
  if (stop->reason != RP_STOP_TARGET) return 0;
  rp->user.proc = rp->th.thr->proc;
  rp->user.floored = 1;
  rp->user.floor_icount = rp->icount;
  rp->user.floor_events = rp->trace.events;
  return 0;
}

int rp__seek(rp_replay *rp, u64 icount, u64 events, struct rp_stop *stop) {
  if (!rp__unbreak(rp, icount, stop)) return 0;
  if (rp->fin.ended && icount >= rp->fin.end_icount) {
    *stop = rp->fin.end;
    return 0;
  }
  /* Restore the nearest keyframe (coarse or fine) at or before ICOUNT,
   * unless the current position is closer and before it; the persistent
   * index may have a nearer one. */
  RW_FORWARD(rp__index_fill(rp, icount));
  const struct rp__kf *kf = rp__kf_before(rp, icount, 0);
  u64 ev = events;
  if (kf && kf->icount == icount && ev && kf->events > ev)
    kf = rp__kf_before(rp, icount, 1); /* after the state asked for */
  if (kf && (icount < rp->icount || kf->icount > rp->icount ||
             (rp->fin.ended && icount < rp->fin.end_icount) ||
             (ev && icount == rp->icount && rp->trace.events > ev)))
    RW_FORWARD(rp__kf_restore(rp, kf));
  return rp__run_fine(rp, icount, events, stop);
}

/* ------------------------------------------------- fine keyframes */

void rp__fine_free_all(rp_replay *rp) {
  for (size_t i = 0; i < rp->tl.nfine; i++) rp__kf_free(&rp->tl.fine[i]);
  rp->tl.nfine = 0;
}

/* Takes a fine keyframe at the current position, dropping the least
 * recently used one when the cache is full. */
static int fine_take(rp_replay *rp) {
  size_t slot = rp->tl.nfine;
  for (size_t i = 0; i < rp->tl.nfine; i++)
    if (rp->tl.fine[i].icount == rp->icount) return 0;
  for (size_t i = 0; i < rp->tl.nkfs; i++)
    if (rp->tl.kfs[i].icount == rp->icount) return 0;
  if (rp->tl.nfine == RP_FINE_MAX) {
    slot = 0;
    for (size_t i = 1; i < rp->tl.nfine; i++)
      if (rp->tl.fine[i].lru < rp->tl.fine[slot].lru) slot = i;
    rp__kf_free(&rp->tl.fine[slot]);
  }
  struct rp__kf kf;
  RW_FORWARD(rp__kf_capture(rp, &kf));
  kf.lru = ++rp->tl.fine_clock;
  rp->tl.fine[slot] = kf;
  if (slot == rp->tl.nfine) rp->tl.nfine++;
  return 0;
}

int rp__run_fine(rp_replay *rp, u64 icount, u64 events,
                 struct rp_stop *stop) {
  /* One fine keyframe, at the last multiple of RP_FINE_STEP before
   * ICOUNT: the reverse steps from there restore it. Taking more, further
   * back, cost about 2 ms each for steps that may never come; a seek
   * further back takes its own. */
  u64 at = (icount - 1) / RP_FINE_STEP * RP_FINE_STEP;
  if (icount > rp->icount + RP_FINE_STEP && at > rp->icount &&
      rp->th.have_thread) {
    struct rp__goal g = rp__goal_at(at, 0);
    int rc = rp__run(rp, &g, stop);
    if (rc < 0) return rc;
    if (stop->reason != RP_STOP_TARGET) return 0; /* the end or a failure */
    if (rp->icount == at) RW_FORWARD(fine_take(rp));
  }
  struct rp__goal g = rp__goal_at(icount, 0);
  g.events = events;
  return rp__run(rp, &g, stop);
}
