/* SPDX-License-Identifier: MIT */
/* The processes of a replay. The root is the process the recording
 * started, the one the debugger looks at; every process it or a recorded
 * descendant forked is a kid, created at its FORK record (recorded 1) as
 * a copy of the forking process's address space: a snapshot of the parent's
 * cpu_mem restored into a new one, so the copy costs a page table and
 * pages are duplicated only as either side writes them. Records of a
 * thread apply to the thread's process (step.c sets rp->proc before each
 * one). Kids are never freed before rp_close: a keyframe restored from
 * before a FORK marks the kid as not existing, and the FORK applied again
 * reuses it, so cpus of spare threads stay bound to a live cpu_mem.
 *
 * A vfork child (FORK kind 1) runs in its parent's address space until it
 * execs or ends, the parent waiting meanwhile: its mem is the parent's,
 * and it keeps its own for later. Its srcs and stack rules start as a
 * copy of the parent's and go back to the parent when it stops sharing
 * (rp__proc_unshare), since they describe the one address space. */
#include <stdlib.h>
#include <string.h>

#include "replayer/rp_int.h"

struct rp__proc *rp__proc_at(rp_replay *rp, u32 ix) {
  return ix == 0 || ix > rp->nkids ? &rp->root : rp->kids[ix - 1];
}

struct rp__proc *rp__proc_unstarted(rp_replay *rp, u32 pid) {
  for (size_t i = rp->nkids; i-- > 0;) {
    struct rp__proc *p = rp->kids[i];
    if (p->exists && p->pid == pid && !rp__threads_alive_in(rp, p)) return p;
  }
  return NULL;
}

int rp__proc_of_fork(rp_replay *rp, u64 seq, u32 pid,
                     struct rp__proc **out) {
  for (size_t i = 0; i < rp->nkids; i++)
    if (rp->kids[i]->fork_seq == seq && rp->kids[i]->pid == pid) {
      *out = rp->kids[i];
      return 0;
    }
  if (rp->nkids == rp->capkids) {
    size_t cap = rp->capkids ? 2 * rp->capkids : 8;
    struct rp__proc **v = realloc(rp->kids, cap * sizeof *v);
    RW_RETURN_IF(!v, RW_ENOMEM, "processes");
    rp->kids = v;
    rp->capkids = cap;
  }
  struct rp__proc *p = calloc(1, sizeof *p);
  RW_RETURN_IF(!p, RW_ENOMEM, "process");
  int rc = cpu_mem_new(&p->own);
  if (rc < 0) {
    free(p);
    return rc;
  }
  p->mem = p->own;
  cpu_mem_track_lines(p->own,
                      rp->opts.write_lines && !rp->opts.no_write_index);
  p->ix = (u32)(rp->nkids + 1);
  p->fork_seq = seq;
  p->pid = pid;
  rp->kids[rp->nkids++] = p;
  *out = p;
  return 0;
}

int rp__apply_fork(rp_replay *rp, const struct rp__rec *rec,
                   struct rp__proc **kid) {
  struct trace_rec_fork f;
  *kid = NULL;
  RW_FORWARD(trace_rec_fork_get(&f, rec->data, rec->len));
  if (!f.recorded) return 0; /* it ran unrecorded */
  struct rp__proc *parent = rp->proc, *p;
  RW_FORWARD(rp__proc_of_fork(rp, rec->seq, f.child_pid, &p));
  int rc;
  if (f.kind == 1) { /* vfork: the parent's address space itself */
    p->lender = parent->lender ? parent->lender : parent;
    p->mem = parent->mem;
  } else {
    p->lender = NULL;
    p->mem = p->own;
    cpu_snap *snap;
    RW_FORWARD(cpu_mem_snapshot(parent->mem, &snap));
    rc = cpu_mem_restore(p->mem, snap);
    cpu_snap_free(snap);
    RW_FORWARD(rc);
  }
  struct rp__srcs srcs;
  RW_FORWARD(rp__srcs_copy(&srcs, &parent->srcs));
  rp__srcs_free(&p->srcs);
  p->srcs = srcs;
  p->stack = parent->stack;
  p->cfg = parent->cfg;
  p->pid = f.child_pid;
  p->parent = parent;
  p->exists = 1;
  p->nrecent = 0;
  rp->proc = p;
  rc = rp__alias_sync(rp);
  rp->proc = parent;
  *kid = p;
  return rc;
}

void rp__proc_unshare(struct rp__proc *p) {
  struct rp__proc *l = p->lender;
  if (!l) return;
  /* What it mapped or unmapped there is the lender's now (the srcs
   * describe that address space as it is). */
  rp__srcs_free(&l->srcs);
  l->srcs = p->srcs;
  memset(&p->srcs, 0, sizeof p->srcs);
  l->stack = p->stack;
  l->nrecent = 0;
  p->nrecent = 0;
  p->lender = NULL;
}

int rp__procs_capture(rp_replay *rp, struct rp__kf *kf) {
  kf->kids = NULL;
  kf->nkids = 0;
  if (!rp->nkids) return 0;
  kf->kids = calloc(rp->nkids, sizeof *kf->kids);
  RW_RETURN_IF(!kf->kids, RW_ENOMEM, "keyframe processes");
  kf->nkids = rp->nkids;
  for (size_t i = 0; i < rp->nkids; i++) {
    struct rp__proc *p = rp->kids[i];
    struct rp__kproc *k = &kf->kids[i];
    if (!p->exists) continue;
    k->exists = 1;
    k->lender = p->lender;
    if (!p->lender) RW_FORWARD(cpu_mem_snapshot(p->mem, &k->snap));
    RW_FORWARD(rp__srcs_copy(&k->srcs, &p->srcs));
    k->stack = p->stack;
  }
  return 0;
}

int rp__procs_restore(rp_replay *rp, const struct rp__kf *kf) {
  struct rp__proc *was = rp->proc;
  for (size_t i = 0; i < rp->nkids; i++) {
    struct rp__proc *p = rp->kids[i];
    const struct rp__kproc *k = i < kf->nkids ? &kf->kids[i] : NULL;
    p->exists = k && k->exists;
    if (!p->exists) continue;
    /* A lender comes before its vfork children: its address space is in
     * place when theirs, the same, is set up. */
    p->lender = k->lender;
    p->mem = p->lender ? p->lender->mem : p->own;
    if (!p->lender) RW_FORWARD(cpu_mem_restore(p->mem, k->snap));
    struct rp__srcs srcs;
    RW_FORWARD(rp__srcs_copy(&srcs, &k->srcs));
    rp__srcs_free(&p->srcs);
    p->srcs = srcs;
    p->stack = k->stack;
    p->nrecent = 0;
    rp->proc = p;
    int rc = rp__alias_sync(rp);
    rp->proc = was;
    RW_FORWARD(rc);
  }
  return 0;
}

void rp__procs_free(rp_replay *rp) {
  for (size_t i = 0; i < rp->nkids; i++) {
    rp__srcs_free(&rp->kids[i]->srcs);
    rp__images_free(rp->kids[i]);
    cpu_mem_free(rp->kids[i]->own);
    free(rp->kids[i]);
  }
  free(rp->kids);
  rp->kids = NULL;
  rp->nkids = rp->capkids = 0;
}
