/* SPDX-License-Identifier: MIT */
/* The recorded processes. The root is the process rewind started; every
 * process it or a recorded descendant forks (fork, or clone without
 * CLONE_VM) is recorded too, unless --no-follow: it starts as a copy of
 * its parent's model of the address space, with the rdtsc patches its
 * parent had (the int3 bytes are in its copy of the memory), and gets
 * its own /proc/PID/mem and pagemap descriptors when first used. One
 * thread of the whole tree runs user code at a time (recorder/loop.c),
 * and struct rec's proc always names the process of the thread being
 * handled, so the code below the loop works on "the process" as before.
 * The trace layout is in docs/design-notes.md, "Processes". */
#define _GNU_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "recorder/rec_int.h"

void rec__set_cur(struct rec *r, struct rec__task *t) {
  r->cur = t;
  if (t && t->proc) r->proc = t->proc;
}

size_t rec__proc_count(const struct rec *r) { return 1 + r->nprocs; }

struct rec__proc *rec__proc_at(struct rec *r, size_t i) {
  return i == 0 ? &r->root : r->procs[i - 1];
}

struct rec__proc *rec__proc_find(struct rec *r, pid_t pid) {
  for (size_t i = 0; i < rec__proc_count(r); i++) {
    struct rec__proc *p = rec__proc_at(r, i);
    if (p->pid == pid && !p->gone) return p;
  }
  return NULL;
}

static int maps_copy(struct rec__maps *dst, const struct rec__maps *src) {
  for (const struct rec__map *e = rec__maps_first(src); e;
       e = rec__maps_next(src, e)) {
    struct rec__map c = *e;
    c.path = strdup(e->path ? e->path : "");
    if (!c.path) return RW_ENOMEM;
    int rc = rec__maps_append(dst, &c);
    if (rc < 0) {
      free(c.path);
      return rc;
    }
  }
  return 0;
}

/* A process with nothing known of it yet, not in the list. */
static struct rec__proc *proc_blank(struct rec *r, pid_t pid) {
  if (r->nprocs == r->capprocs) {
    size_t cap = r->capprocs ? 2 * r->capprocs : 8;
    struct rec__proc **v = realloc(r->procs, cap * sizeof *v);
    if (!v) return NULL;
    r->procs = v;
    r->capprocs = cap;
  }
  struct rec__proc *p = calloc(1, sizeof *p);
  if (!p) return NULL;
  p->pid = p->live = pid;
  p->memfd = -1;
  p->pagemap_fd = -2;
  p->maps = &p->maps_own;
  p->sb = &p->sb_own;
  return p;
}

struct rec__proc *rec__proc_new(struct rec *r, pid_t pid) {
  struct rec__proc *p = proc_blank(r, pid);
  if (p) r->procs[r->nprocs++] = p;
  return p;
}

struct rec__proc *rec__proc_fork(struct rec *r, pid_t child, int shared) {
  const struct rec__proc *pp = r->proc;
  struct rec__proc *p = proc_blank(r, child);
  if (!p) return NULL;
  memcpy(p->comm_fds, pp->comm_fds, sizeof p->comm_fds);
  p->read_exec = pp->read_exec;
  p->stack_limit = pp->stack_limit;
  p->stack_rules_written = pp->stack_rules_written;
  p->stack_warned = pp->stack_warned;
  p->hide_seccomp = pp->hide_seccomp;
  p->hide_nnp = pp->hide_nnp;
  memcpy(p->attach_mask, pp->attach_mask, sizeof p->attach_mask);
  p->attach_mask_ok = pp->attach_mask_ok;
  memcpy(p->forced, pp->forced, sizeof p->forced);
  p->maps = &p->maps_own;
  if (shared) {
    p->maps = pp->maps;
    /* Processes that run unrecorded in the parent's address space run in
     * the child's too. */
    for (size_t i = 0; i < pp->nsharers; i++) {
      struct rec__proc *was = r->proc;
      r->proc = p;
      int rc = rec__follow_sharer(r, pp->sharers[i]);
      r->proc = was;
      if (rc < 0) goto fail;
    }
  } else if (maps_copy(&p->maps_own, pp->maps) < 0) {
    goto fail;
  }
  if (pp->ntscp) {
    p->tscp = malloc(pp->ntscp * sizeof *p->tscp);
    if (!p->tscp) goto fail;
    memcpy(p->tscp, pp->tscp, pp->ntscp * sizeof *p->tscp);
    p->ntscp = p->captscp = pp->ntscp;
  }
  memcpy(p->vfn, pp->vfn, sizeof p->vfn);
  p->nvfn = pp->nvfn;
  rec__sb_fork(p, pp, shared);
  r->procs[r->nprocs++] = p;
  return p;
fail:
  rec__maps_free(&p->maps_own);
  free(p->sharers);
  free(p);
  return NULL;
}

void rec__proc_unshare(struct rec__proc *p) {
  p->maps = &p->maps_own;
  p->sb = &p->sb_own;
}

void rec__proc_release(struct rec *r, struct rec__proc *p) {
  struct rec__proc *was = r->proc;
  r->proc = p;
  rec__maps_free(&p->maps_own);
  p->maps = &p->maps_own;
  p->sb = &p->sb_own;
  free(p->sharers);
  p->sharers = NULL;
  free(p->killed);
  p->killed = NULL;
  p->nsharers = p->capsharers = 0;
  rec__snap_free(&p->snap);
  rec__watch_free(r);
  rec__tsc_patch_reset(r);
  if (p->memfd >= 0) close(p->memfd);
  p->memfd = -1;
  rec__pages_reset(r);
  rec__wp_reset(&p->wp);
  r->proc = was;
}
