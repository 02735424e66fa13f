/* SPDX-License-Identifier: MIT */
/* The timeline: keyframes taken while the replay runs forward (a snapshot of
 * the address space, which costs a page-table copy, plus the thread's
 * registers and the position in the trace), and seeking to any instruction
 * count by restoring the nearest earlier keyframe and running forward. When
 * keyframes grow too many, every other one is dropped and the spacing
 * doubles, so their number stays bounded whatever the trace's length. */
#include <stdlib.h>
#include <string.h>

#include "replayer/rp_int.h"

#define RP_MAX_KFS 1024

void rp__kf_free(struct rp__kf *kf) {
  cpu_snap_free(kf->snap);
  rp__srcs_free(&kf->srcs);
  memset(kf, 0, sizeof *kf);
}
#define kf_free rp__kf_free

void rp__kf_free_all(rp_replay *rp) {
  for (size_t i = 0; i < rp->nkfs; i++) kf_free(&rp->kfs[i]);
  free(rp->kfs);
  rp->kfs = NULL;
  rp->nkfs = rp->capkfs = 0;
}

/* Drops every other keyframe (never the first) and doubles the spacing. */
static void thin(rp_replay *rp) {
  size_t k = 1;
  for (size_t i = 1; i < rp->nkfs; i++) {
    if (i % 2)
      kf_free(&rp->kfs[i]);
    else
      rp->kfs[k++] = rp->kfs[i];
  }
  rp->nkfs = k;
  rp->kf_interval *= 2;
}

int rp__kf_take(rp_replay *rp) {
  struct rp__kf kf;
  rp->next_kf = rp->icount + rp->kf_interval;
  /* Keyframes are kept in icount order; one at or before the last is
   * already known (a re-run after a seek). */
  if (rp->nkfs && rp->kfs[rp->nkfs - 1].icount >= rp->icount) return 0;
  if (!rp->have_thread) return 0;
  if (rp->nkfs == rp->capkfs) {
    size_t cap = rp->capkfs ? 2 * rp->capkfs : 32;
    struct rp__kf *v = realloc(rp->kfs, cap * sizeof *v);
    RW_RETURN_IF(!v, RW_ENOMEM, "keyframes");
    rp->kfs = v;
    rp->capkfs = cap;
  }
  RW_FORWARD(rp__kf_capture(rp, &kf));
  rp->kfs[rp->nkfs++] = kf;
  if (rp->nkfs > RP_MAX_KFS) thin(rp);
  return 0;
}

int rp__kf_capture(rp_replay *rp, struct rp__kf *out) {
  struct rp__kf kf;
  memset(&kf, 0, sizeof kf);
  kf.icount = rp->icount;
  kf.cpu_icount = cpu_icount(rp->cpu);
  kf.events = rp->events;
  kf.next_seq = rp->have_pend ? rp->pend.seq : rp->last_seq + 1;
  cpu_get_regs(rp->cpu, &kf.regs);
  kf.in_syscall = rp->in_syscall;
  kf.restart = rp->restart;
  kf.restart_result = rp->restart_result;
  kf.located = rp->located;
  kf.sys_nr = rp->sys_nr;
  kf.tid = rp->tid;
  RW_FORWARD(cpu_mem_snapshot(rp->mem, &kf.snap));
  int rc = rp__srcs_copy(&kf.srcs, &rp->srcs);
  if (rc < 0) {
    cpu_snap_free(kf.snap);
    return rc;
  }
  *out = kf;
  return 0;
}

struct rp__kf *rp__kf_before(rp_replay *rp, u64 icount, int strict) {
  struct rp__kf *best = NULL;
  for (size_t i = 0; i < rp->nkfs; i++) {
    u64 at = rp->kfs[i].icount;
    if (at < icount || (!strict && at == icount)) best = &rp->kfs[i];
  }
  struct rp__kf *fine = NULL;
  for (size_t i = 0; i < rp->nfine; i++) {
    u64 at = rp->fine[i].icount;
    if ((at < icount || (!strict && at == icount)) &&
        (!fine || at > fine->icount))
      fine = &rp->fine[i];
  }
  if (fine && (!best || fine->icount > best->icount)) {
    fine->lru = ++rp->fine_clock;
    return fine;
  }
  return best;
}

int rp__kf_restore(rp_replay *rp, const struct rp__kf *kf) {
  RW_FORWARD(cpu_mem_restore(rp->mem, kf->snap));
  RW_FORWARD(cpu_set_regs(rp->cpu, &kf->regs));
  cpu_set_icount(rp->cpu, kf->cpu_icount);
  struct rp__srcs srcs;
  RW_FORWARD(rp__srcs_copy(&srcs, &kf->srcs));
  rp__srcs_free(&rp->srcs);
  rp->srcs = srcs;
  rp->icount = kf->icount;
  rp->events = kf->events;
  rp->in_syscall = kf->in_syscall;
  rp->restart = kf->restart;
  rp->restart_result = kf->restart_result;
  rp->located = kf->located;
  rp->sys_nr = kf->sys_nr;
  rp->tid = kf->tid;
  rp->have_pend = 0;
  rp->last_seq = kf->next_seq - 1;
  rp->ended = 0;
  rp->preempt_bp = 0;
  RW_FORWARD(trace_cursor_seek(rp->cur, kf->next_seq));
  /* Breakpoints and watchpoints live in the cpu_mem, not in its snapshots,
   * so they survive the restore; adding a breakpoint again is harmless, but
   * a watch added again would be a second copy that outlives its delete. */
  for (size_t i = 0; i < rp->nbps; i++)
    RW_FORWARD(cpu_mem_break_add(rp->mem, rp->bps[i]));
  rp->next_kf = kf->icount + rp->kf_interval;
  return 0;
}

int rp_seek(rp_replay *rp, u64 icount, struct rp_stop *stop) {
  if (rp->broken) {
    *stop = rp->broken_stop;
    return 0;
  }
  if (rp->ended && icount >= rp->end_icount) {
    *stop = rp->end;
    return 0;
  }
  /* Restore the nearest keyframe (coarse or fine) at or before ICOUNT,
   * unless the current position is closer and before it. */
  const struct rp__kf *kf = rp__kf_before(rp, icount, 0);
  u64 ev = rp->until_events;
  if (kf && kf->icount == icount && ev && kf->events > ev)
    kf = rp__kf_before(rp, icount, 1); /* after the state asked for */
  if (kf && (icount < rp->icount || kf->icount > rp->icount ||
             (rp->ended && icount < rp->end_icount) ||
             (ev && icount == rp->icount && rp->events > ev)))
    RW_FORWARD(rp__kf_restore(rp, kf));
  return rp__run_fine(rp, icount, stop);
}
