/* SPDX-License-Identifier: MIT */
/* The profile's call tree (rewind analyze profile): each node is a call
 * path, and keeps what its frames did (calls, exclusive and inclusive
 * instructions). Everything else follows from the tree once the frames
 * have ended: a function's calls and exclusive count are the sums over
 * its nodes, its inclusive count the sum over the nodes with no node of
 * it above them (a frame with no frame of it below it on the stack, so a
 * recursion counts once), an edge's counts the sums over the nodes of the
 * callee under a node of the caller. Keeping the tree alone is what lets
 * pieces of a history that each see part of the stacks be joined. */
#define _GNU_SOURCE /* qsort_r */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "replayer/prof_int.h"

static int edge_of(rp_profile *p, u32 caller, u32 callee, u32 *out) {
  u64 k = (u64)caller << 32 | callee;
  u32 v = rp__umap_get(&p->by_edge, k);
  if (!v) {
    RW_FORWARD(rp__grow((void **)&p->edges, p->nedges, &p->capedges,
                        sizeof *p->edges));
    p->edges[p->nedges] = (struct edge){caller, callee, 0, 0};
    RW_FORWARD(rp__umap_put(&p->by_edge, k, (u32)p->nedges + 1));
    v = (u32)++p->nedges;
  }
  *out = v - 1;
  return 0;
}

/* Node I (with OUTER: no node of its function above it) added to its
 * function and to the edge from its parent's. */
static int visit(rp_profile *p, u32 i, int outer) {
  const struct node *nd = &p->nodes[i];
  struct fn *f = &p->fns[nd->fn];
  f->calls += nd->calls;
  f->excl += nd->excl;
  if (outer) f->incl += nd->incl;
  if (!nd->parent) return 0;
  u32 e;
  RW_FORWARD(edge_of(p, p->nodes[nd->parent - 1].fn, nd->fn, &e));
  p->edges[e].calls += nd->calls;
  p->edges[e].incl += nd->incl;
  return 0;
}

int rp__prof_derive(rp_profile *p) {
  for (size_t i = 0; i < p->nfns; i++)
    p->fns[i].calls = p->fns[i].incl = p->fns[i].excl = 0;
  p->nedges = 0;
  rp__umap_free(&p->by_edge);
  if (!p->nnodes) return 0;
  /* Depth first, each node's first child and next sibling (parents have
   * lower indexes than their children), counting each function's nodes
   * on the path. */
  u32 *first = calloc(p->nnodes + 1, sizeof *first);
  u32 *next = calloc(p->nnodes, sizeof *next);
  u32 *on = calloc(p->nfns ? p->nfns : 1, sizeof *on);
  int rc = first && next && on ? 0 : RW_ENOMEM;
  for (size_t i = p->nnodes; rc == 0 && i-- > 0;) {
    u32 up = p->nodes[i].parent;
    next[i] = first[up];
    first[up] = (u32)i + 1;
  }
  u32 k = rc == 0 ? first[0] : 0;
  while (k && rc == 0) {
    u32 fn = p->nodes[k - 1].fn;
    rc = visit(p, k - 1, on[fn]++ == 0);
    if (first[k]) {
      k = first[k];
      continue;
    }
    for (;;) { /* K and the ancestors with no sibling after them end */
      on[p->nodes[k - 1].fn]--;
      if (next[k - 1]) {
        k = next[k - 1];
        break;
      }
      if (!(k = p->nodes[k - 1].parent)) break;
    }
  }
  free(first);
  free(next);
  free(on);
  return rc;
}

/* ---- Canonical order ---------------------------------------------------- */

static int by_name(const void *a, const void *b, void *ctx) {
  const rp_profile *p = ctx;
  const struct fn *x = &p->fns[*(const u32 *)a], *y = &p->fns[*(const u32 *)b];
  int c = strcmp(p->strs + x->name, p->strs + y->name);
  return c ? c : strcmp(p->strs + x->object, p->strs + y->object);
}

static int by_parent_fn(const void *a, const void *b, void *ctx) {
  const struct node *v = ctx;
  const struct node *x = &v[*(const u32 *)a], *y = &v[*(const u32 *)b];
  if (x->parent != y->parent) return x->parent < y->parent ? -1 : 1;
  return x->fn < y->fn ? -1 : x->fn > y->fn;
}

/* P's functions that have a node (the others were looked up and never
 * called: a piece looks up where a thread jumps when it cannot tell) sorted
 * by name and file; nodes renamed. */
static int canon_fns(rp_profile *p) {
  u32 *ord = calloc(p->nfns ? p->nfns : 1, sizeof *ord);
  u32 *to = malloc((p->nfns ? p->nfns : 1) * sizeof *to);
  struct fn *v = malloc((p->nfns ? p->nfns : 1) * sizeof *v);
  int rc = ord && to && v ? 0 : RW_ENOMEM;
  if (rc == 0) {
    for (size_t i = 0; i < p->nnodes; i++) ord[p->nodes[i].fn] = 1;
    u32 n = 0;
    for (u32 i = 0; i < p->nfns; i++)
      if (ord[i]) ord[n++] = i;
    qsort_r(ord, n, sizeof *ord, by_name, p);
    for (u32 i = 0; i < n; i++) {
      to[ord[i]] = i;
      v[i] = p->fns[ord[i]];
    }
    memcpy(p->fns, v, n * sizeof *v);
    p->nfns = n;
    for (size_t i = 0; i < p->nnodes; i++) p->nodes[i].fn = to[p->nodes[i].fn];
    for (size_t i = 0; i < p->nrecs; i++) { /* their frames had nodes */
      p->recs[i].fn = to[p->recs[i].fn];
      if (p->recs[i].caller != ~0u) p->recs[i].caller = to[p->recs[i].caller];
    }
    /* Lookups by name and by address named the old indexes. */
    rp__umap_free(&p->names);
    for (size_t i = 0; i < p->nspaces; i++)
      rp__umap_free(&p->spaces[i].by_addr);
    for (u32 i = 0; rc == 0 && i < p->nfns; i++) {
      u64 h = rp__prof_fn_hash(p->strs + p->fns[i].name,
                               p->strs + p->fns[i].object);
      while (rp__umap_get(&p->names, h)) h++;
      rc = rp__umap_put(&p->names, h, i + 1);
    }
  }
  free(ord);
  free(to);
  free(v);
  return rc;
}

/* Pushes onto STACK (*SP entries) the children of parent UP (a node index
 * + 1, 0: the roots), the last first so that the first comes out first:
 * ORD has the N nodes of V by parent, FIRST each parent's first in it
 * (+ 1, 0: none). */
static void push_kids(const struct node *v, const u32 *ord, const u32 *first,
                      size_t n, u32 up, u32 *stack, size_t *sp) {
  if (!first[up]) return;
  size_t b = first[up] - 1, e = b;
  while (e < n && v[ord[e]].parent == up) e++;
  while (e > b) stack[(*sp)++] = ord[--e];
}

/* P's nodes in depth-first order, each one's children by function. */
static int canon_nodes(rp_profile *p) {
  size_t n = p->nnodes;
  u32 *ord = malloc((n ? n : 1) * sizeof *ord);    /* by parent, fn */
  u32 *first = calloc(n + 1, sizeof *first);       /* in ord, + 1 */
  u32 *to = malloc((n ? n : 1) * sizeof *to);      /* old -> new */
  u32 *stack = malloc((n ? n : 1) * sizeof *stack);
  struct node *v = malloc((n ? n : 1) * sizeof *v);
  int rc = ord && first && to && stack && v ? 0 : RW_ENOMEM;
  if (rc == 0) {
    for (u32 i = 0; i < n; i++) ord[i] = i;
    qsort_r(ord, n, sizeof *ord, by_parent_fn, p->nodes);
    for (size_t i = n; i-- > 0;) first[p->nodes[ord[i]].parent] = (u32)i + 1;
    size_t sp = 0, done = 0;
    push_kids(p->nodes, ord, first, n, 0, stack, &sp);
    while (sp) {
      u32 i = stack[--sp];
      to[i] = (u32)done++;
      push_kids(p->nodes, ord, first, n, i + 1, stack, &sp);
    }
    for (size_t i = 0; i < n; i++) {
      struct node x = p->nodes[i];
      x.parent = x.parent ? to[x.parent - 1] + 1 : 0;
      x.kid_fn = x.kid_node = 0;
      v[to[i]] = x;
    }
    memcpy(p->nodes, v, n * sizeof *v);
    rp__umap_free(&p->by_node);
    for (u32 i = 0; rc == 0 && i < n; i++)
      rc = rp__umap_put(&p->by_node,
                        (u64)p->nodes[i].parent << 32 | p->nodes[i].fn, i + 1);
  }
  free(ord);
  free(first);
  free(to);
  free(stack);
  free(v);
  return rc;
}

int rp__prof_canon(rp_profile *p) {
  RW_FORWARD(canon_fns(p));
  return canon_nodes(p);
}

/* ---- Pieces added up (rewind analyze profile -j) ------------------------ */

#define TMAGIC "RWPTREE1"

struct theader {
  char magic[8];
  u64 nfns, nstrs, nnodes, nlogs, total, calls;
  u32 threads, history;
  u64 icount, nrecs; /* the piece's instructions; its calls kept */
  u32 nuids, misaligned;
};

int rp_profile_tree_save(const rp_profile *p, FILE *f) {
  struct theader h = {.nfns = p->nfns,
                      .nstrs = p->nstrs,
                      .nnodes = p->nnodes,
                      .nlogs = p->nlogs,
                      .total = p->total,
                      .calls = p->calls,
                      .threads = p->threads,
                      .history = (u32)p->history,
                      .icount = p->rp ? p->rp->icount : 0,
                      .nrecs = p->nrecs,
                      .nuids = p->nuids,
                      .misaligned = (u32)p->misaligned};
  memcpy(h.magic, TMAGIC, sizeof h.magic);
  RW_FORWARD(rp__fput(f, &h, sizeof h));
  RW_FORWARD(rp__fput(f, p->fns, p->nfns * sizeof *p->fns));
  RW_FORWARD(rp__fput(f, p->strs, p->nstrs));
  RW_FORWARD(rp__fput(f, p->nodes, p->nnodes * sizeof *p->nodes));
  RW_FORWARD(rp__fput(f, p->logs, p->nlogs * sizeof *p->logs));
  for (size_t i = 0; i < p->nlogs; i++) {
    const struct plog *l = &p->logs[i];
    RW_FORWARD(rp__fput(f, l->ev, l->nev * sizeof *l->ev));
    if (p->history) RW_FORWARD(rp__fput(f, l->ex, l->nev * sizeof *l->ex));
    RW_FORWARD(rp__fput(f, l->open, l->nopen * sizeof *l->open));
  }
  RW_FORWARD(rp__fput(f, p->recs, p->nrecs * sizeof *p->recs));
  return fflush(f) != 0 ? RW_ERR(errno ? errno : EIO) : 0;
}

int rp_profile_tree_empty(u32 tid, rp_profile **out) {
  rp_profile *p = calloc(1, sizeof *p);
  *out = p;
  if (!p) return RW_ENOMEM;
  p->want_tid = tid;
  return 0;
}

/* The total's stack of thread TID, or NULL. */
static struct shadow *stack_of(rp_profile *p, u32 tid, size_t *at) {
  for (size_t i = 0; i < p->nsh; i++)
    if (p->sh[i]->tid == tid) {
      *at = i;
      return p->sh[i];
    }
  return NULL;
}

static void stack_drop(rp_profile *p, size_t i) {
  free(p->sh[i]->v);
  free(p->sh[i]->ex);
  free(p->sh[i]);
  p->sh[i] = p->sh[--p->nsh];
}

/* A new stack for thread TID in the total P: with a root frame of
 * function ROOT (node made) unless ROOT is ~0u. */
static int stack_new(rp_profile *p, u32 tid, u32 root, struct shadow **out) {
  struct shadow *sh = calloc(1, sizeof *sh);
  int rc = sh ? rp__grow((void **)&p->sh, p->nsh, &p->capsh, sizeof *p->sh)
              : RW_ENOMEM;
  u32 node;
  if (rc == 0 && root != ~0u) rc = rp__prof_node_of(p, 0, root, &node);
  if (rc == 0 && root != ~0u)
    rc = rp__grow((void **)&sh->v, sh->n, &sh->cap, sizeof *sh->v);
  if (rc < 0) {
    if (sh) free(sh->v);
    free(sh);
    return rc;
  }
  sh->p = p;
  sh->tid = tid;
  if (root != ~0u) {
    sh->v[sh->n++] = (struct frame){.fn = root, .node = node};
    p->nodes[node].calls++;
    p->threads++;
  }
  p->sh[p->nsh++] = sh;
  *out = sh;
  return 0;
}

/* The parts of a saved piece. */
struct saved {
  struct theader h;
  struct fn *fns;
  char *strs;
  struct node *nodes;
  struct plog *logs;
  struct call_rec *recs;
  u32 *fmap, *nmap; /* the piece's function and node -> the total's */
  u64 *at;          /* per log: its events replayed so far, + 1 once its
                       stack is there (0: not begun) */
  u8 *done;         /* per log: replayed (run_log) */
  u8 *ended;        /* per ret numbered in the piece (struct pex): it
                       ended frames below the piece's own */
};

static void saved_free(struct saved *s) {
  for (u64 i = 0; s->logs && i < s->h.nlogs; i++) {
    free(s->logs[i].ev);
    free(s->logs[i].ex);
    free(s->logs[i].open);
  }
  free(s->recs);
  free(s->ended);
  free(s->fns);
  free(s->strs);
  free(s->nodes);
  free(s->logs);
  free(s->fmap);
  free(s->nmap);
  free(s->at);
  free(s->done);
}

/* Reads a saved piece from F into S and checks that its indexes stay in
 * their tables. Returns 0, RW_ECORRUPT, RW_ETRUNC or RW_ENOMEM. */
static int saved_read(FILE *f, struct saved *s) {
  struct theader *h = &s->h;
  RW_RETURN_IF(fread(h, sizeof *h, 1, f) != 1 ||
                   memcmp(h->magic, TMAGIC, sizeof h->magic),
               RW_ECORRUPT, "not a saved call tree");
  RW_RETURN_IF(h->nfns > 0xfffffff0u || h->nstrs > 0xffffffffu ||
                   h->nnodes > 0xfffffff0u || h->nlogs > 0xffffffffu ||
                   h->nrecs > (1ull << 40) || h->history > 1,
               RW_ECORRUPT, "a saved call tree too large");
  s->fns = malloc((h->nfns ? h->nfns : 1) * sizeof *s->fns);
  s->strs = malloc(h->nstrs + 1);
  s->nodes = malloc((h->nnodes ? h->nnodes : 1) * sizeof *s->nodes);
  s->logs = calloc(h->nlogs ? h->nlogs : 1, sizeof *s->logs);
  s->fmap = malloc((h->nfns ? h->nfns : 1) * sizeof *s->fmap);
  s->nmap = malloc((h->nnodes ? h->nnodes : 1) * sizeof *s->nmap);
  s->recs = malloc((h->nrecs ? h->nrecs : 1) * sizeof *s->recs);
  s->ended = calloc((size_t)h->nuids + 1, 1);
  s->at = calloc(h->nlogs ? h->nlogs : 1, sizeof *s->at);
  s->done = calloc(h->nlogs ? h->nlogs : 1, 1);
  if (!s->fns || !s->strs || !s->nodes || !s->logs || !s->fmap ||
      !s->nmap || !s->recs || !s->ended || !s->at || !s->done)
    return RW_ENOMEM;
  if (fread(s->fns, sizeof *s->fns, h->nfns, f) != h->nfns ||
      fread(s->strs, 1, h->nstrs, f) != h->nstrs ||
      fread(s->nodes, sizeof *s->nodes, h->nnodes, f) != h->nnodes ||
      fread(s->logs, sizeof *s->logs, h->nlogs, f) != h->nlogs)
    return RW_ETRUNC;
  s->strs[h->nstrs] = 0;
  for (u64 i = 0; i < h->nlogs; i++) { /* the pointers were the piece's */
    s->logs[i].ev = NULL;
    s->logs[i].ex = NULL;
    s->logs[i].open = NULL;
  }
  for (u64 i = 0; i < h->nlogs; i++) {
    struct plog *l = &s->logs[i];
    RW_RETURN_IF(l->nev > (1ull << 40) || l->nopen > (1ull << 32),
                 RW_ECORRUPT, "a saved call tree too large");
    l->ev = malloc((l->nev ? l->nev : 1) * sizeof *l->ev);
    l->ex = calloc(l->nev ? l->nev : 1, sizeof *l->ex);
    l->open = malloc((l->nopen ? l->nopen : 1) * sizeof *l->open);
    if (!l->ev || !l->ex || !l->open) return RW_ENOMEM;
    if (fread(l->ev, sizeof *l->ev, l->nev, f) != l->nev ||
        (h->history && fread(l->ex, sizeof *l->ex, l->nev, f) != l->nev) ||
        fread(l->open, sizeof *l->open, l->nopen, f) != l->nopen)
      return RW_ETRUNC;
    for (u64 k = 0; k < l->nev; k++)
      RW_RETURN_IF(l->ex[k].uid > h->nuids, RW_ECORRUPT,
                   "a bad event in a saved call tree");
    RW_RETURN_IF(!l->born && l->root_fn >= h->nfns, RW_ECORRUPT,
                 "a saved thread in no function");
    for (u64 k = 0; k < l->nev; k++) {
      const struct pev *e = &l->ev[k];
      RW_RETURN_IF(e->kind > PE_END ||
                       (e->kind == PE_TAIL && e->fn >= h->nfns) ||
                       (e->kind == PE_GRAFT &&
                        (e->a >= h->nnodes || s->nodes[e->a].fn != RP_GRAFT)),
                   RW_ECORRUPT, "a bad event in a saved call tree");
    }
    for (u64 k = 0; k < l->nopen; k++)
      RW_RETURN_IF(l->open[k].fn >= h->nfns || l->open[k].node >= h->nnodes,
                   RW_ECORRUPT, "a bad frame in a saved call tree");
  }
  if (fread(s->recs, sizeof *s->recs, h->nrecs, f) != h->nrecs)
    return RW_ETRUNC;
  for (u64 i = 0; i < h->nrecs; i++) {
    const struct call_rec *c = &s->recs[i];
    RW_RETURN_IF(c->fn >= h->nfns ||
                     (c->caller != ~0u && c->caller >= h->nfns) ||
                     c->graft > h->nnodes || c->pend > h->nuids ||
                     (c->graft && s->nodes[c->graft - 1].fn != RP_GRAFT),
                 RW_ECORRUPT, "a bad call in a saved call tree");
  }
  for (u64 i = 0; i < h->nfns; i++)
    RW_RETURN_IF(s->fns[i].name >= h->nstrs || s->fns[i].object >= h->nstrs,
                 RW_ECORRUPT, "a bad name in a saved call tree");
  for (u64 i = 0; i < h->nnodes; i++)
    RW_RETURN_IF((s->nodes[i].fn != RP_GRAFT && s->nodes[i].fn >= h->nfns) ||
                     s->nodes[i].parent > i,
                 RW_ECORRUPT, "a bad node in a saved call tree");
  return 0;
}

/* The log of piece S whose thread has SERIAL, or S->h.nlogs. */
static u64 log_of(const struct saved *s, u32 serial) {
  u64 j = 0;
  while (j < s->h.nlogs && s->logs[j].serial != serial) j++;
  return j;
}

/* The fewest events log I of piece S had when a process it forked began
 * whose stack has not begun in the total (~0: none). */
static u64 next_fork(const struct saved *s, u64 i) {
  u64 k = ~0ull;
  for (u64 c = 0; c < s->h.nlogs; c++)
    if (s->logs[c].fork_serial == s->logs[i].serial && !s->at[c])
      k = RW_MIN(k, s->logs[c].fork_ev);
  return k;
}

/* The stack of log I of piece S begins in the total P; for a process
 * forked in the piece, as a copy of its parent's stack UP (those frames'
 * calls are the parent's). */
static int log_begin(rp_profile *p, struct saved *s, u64 i,
                     const struct shadow *up) {
  const struct plog *l = &s->logs[i];
  size_t at = 0;
  struct shadow *sh = stack_of(p, l->tid, &at);
  s->at[i] = 1;
  if (l->fork_serial) {
    u32 ptid = up->tid;
    if (sh) stack_drop(p, at); /* an id used again */
    RW_FORWARD(stack_new(p, l->tid, ~0u, &sh));
    up = stack_of(p, ptid, &at); /* stack_new may have moved it */
    if (up->n && !(sh->v = malloc(up->n * sizeof *sh->v))) return RW_ENOMEM;
    sh->n = sh->cap = up->n;
    for (size_t k = 0; k < up->n; k++) {
      sh->v[k] = up->v[k];
      sh->v[k].start = sh->v[k].kids = sh->v[k].gstart = 0;
      sh->v[k].copied = 1;
    }
    return 0;
  }
  if (l->born && sh) stack_drop(p, at); /* an id used again */
  if (l->born || !sh) /* a thread there where the history begins: its
                         root frame is where the piece found it */
    RW_FORWARD(stack_new(p, l->tid, l->born ? ~0u : s->fmap[l->root_fn],
                         &sh));
  return 0;
}

static int replay_log(rp_profile *p, struct saved *s, u64 i);

/* Log I of piece S replayed on the total P (once): a process forked in
 * the piece after its parent's log, which begins its stack (DEPTH: the
 * forks above it). */
static int run_log(rp_profile *p, struct saved *s, u64 i, u64 depth) {
  const struct plog *l = &s->logs[i];
  if (s->done[i]) return 0;
  if (l->fork_serial && !s->at[i]) {
    u64 j = log_of(s, l->fork_serial);
    RW_RETURN_IF(j == s->h.nlogs || j == i || s->done[j] ||
                     depth > s->h.nlogs,
                 RW_ECORRUPT, "a saved fork of no thread");
    RW_FORWARD(run_log(p, s, j, depth + 1));
    RW_RETURN_IF(!s->at[i], RW_ECORRUPT, "a saved fork past its end");
  }
  s->done[i] = 1;
  return replay_log(p, s, i);
}

/* Log I of piece S, on the total P's stack of its thread: the frames below
 * the piece's own as its events change them. The processes it forked
 * begin where it had their FORK_EV events. */
static int replay_log(rp_profile *p, struct saved *s, u64 i) {
  const struct plog *l = &s->logs[i];
  size_t at = 0;
  if (!s->at[i]) RW_FORWARD(log_begin(p, s, i, NULL));
  u64 fork = next_fork(s, i);
  struct shadow *sh = stack_of(p, l->tid, &at);
  for (u64 k = s->at[i] - 1; k <= l->nev; k++, s->at[i]++) {
    while (k == fork) {
      for (u64 c = 0; c < s->h.nlogs; c++)
        if (s->logs[c].fork_serial == l->serial && !s->at[c] &&
            s->logs[c].fork_ev == k) {
          RW_RETURN_IF(!sh, RW_ECORRUPT, "a saved fork after its end");
          RW_FORWARD(log_begin(p, s, c, sh));
          sh = stack_of(p, l->tid, &at); /* log_begin may move it */
        }
      fork = next_fork(s, i);
    }
    if (k == l->nev) break;
    const struct pev *e = &l->ev[k];
    const struct pex *x = &l->ex[k];
    RW_RETURN_IF(!sh || !sh->n, RW_ECORRUPT,
                 "a saved thread's events past its end");
    u64 c = sh->off + e->n, g = p->before + x->g;
    switch (e->kind) {
      case PE_GRAFT:
        s->nmap[e->a] = sh->v[sh->n - 1].node;
        break;
      case PE_UNWIND:
        if (rp__prof_unwind(sh, e->a, c, g, (int)x->ret, x->rax) && x->uid)
          s->ended[x->uid] = 1;
        break;
      case PE_TAIL:
        if (sh->n > 1 && sh->v[sh->n - 1].slot &&
            e->a == sh->v[sh->n - 1].slot) {
          int rc = rp__prof_tail(sh, s->fmap[e->fn], c, g);
          RW_FORWARD(rc);
          struct frame *top = &sh->v[sh->n - 1];
          if (rc > 0) top->gstart = g;
          if (rc > 0) memcpy(top->args, x->args, sizeof top->args);
        }
        break;
      case PE_KIDS:
        sh->v[sh->n - 1].kids += e->a;
        break;
      default: /* PE_END */
        rp__prof_end(sh, c, g);
        stack_of(p, l->tid, &at);
        stack_drop(p, at);
        sh = NULL;
    }
  }
  return 0;
}

/* The calls piece S kept, in the total P's history: positions moved by
 * the pieces before, the caller of a frame that hung from a graft the
 * real top frame's, a ret that went on into the frames below no return of
 * the piece's frame. */
static int add_calls(rp_profile *p, const struct saved *s) {
  for (u64 i = 0; i < s->h.nrecs; i++) {
    struct call_rec c = s->recs[i];
    c.start += p->before;
    c.end += p->before;
    c.fn = s->fmap[c.fn];
    if (c.graft) {
      u32 node = s->nmap[c.graft - 1];
      RW_RETURN_IF(node == ~0u, RW_ECORRUPT, "a call under no frame");
      c.caller = p->nodes[node].fn;
    } else if (c.caller != ~0u) {
      c.caller = s->fmap[c.caller];
    }
    if (c.pend && s->ended[c.pend]) c.returned = 0;
    c.graft = c.pend = 0;
    RW_FORWARD(rp__prof_keep(p, &c));
  }
  return 0;
}

int rp_profile_tree_add(rp_profile *p, FILE *f) {
  return rp__prof_tree_join(p, f, NULL, NULL);
}

int rp__prof_paths_join(rp_profile **join, u32 tid, int tree, FILE *f,
                        struct rp__pjoin *m) {
  *m = (struct rp__pjoin){0};
  if (!tree) return 0;
  if (!*join) RW_FORWARD(rp_profile_tree_empty(tid, join));
  return rp__prof_tree_join(*join, f, &m->nmap, &m->n);
}

int rp__prof_paths_node(const struct rp__pjoin *m, u32 node, u32 *out) {
  *out = 0;
  if (!node) return 0;
  if (node > m->n || m->nmap[node - 1] == ~0u) return RW_ECORRUPT;
  *out = m->nmap[node - 1] + 1;
  return 0;
}

int rp__prof_tree_join(rp_profile *p, FILE *f, u32 **nmap, u64 *n) {
  struct saved s = {0};
  if (nmap) *nmap = NULL;
  if (n) *n = 0;
  int rc = saved_read(f, &s);
  if (rc == 0 && s.h.history != (u32)p->history)
    rc = RW_ERR(EINVAL); /* a profile's piece for a call history */
  /* The piece told unwinds apart by 8 bytes, as a whole replay may not;
   * with a return address at an odd place the join might differ. */
  if (rc == 0 && s.h.misaligned) rc = RW_ERR(ENOTSUP);
  for (u64 i = 0; rc == 0 && i < s.h.nfns; i++)
    rc = rp__prof_fn_named(p, s.strs + s.fns[i].name,
                           s.strs + s.fns[i].object, &s.fmap[i]);
  for (u64 i = 0; rc == 0 && i < s.h.nnodes; i++) s.nmap[i] = ~0u;
  /* A thread the pieces before left that this one does not go on with
   * ended where it begins. */
  for (size_t k = 0; rc == 0 && k < p->nsh;) {
    u64 i = 0;
    while (i < s.h.nlogs &&
           (s.logs[i].tid != p->sh[k]->tid || s.logs[i].born ||
            s.logs[i].fork_serial))
      i++;
    if (i < s.h.nlogs) {
      k++;
      continue;
    }
    rp__prof_end(p->sh[k], p->sh[k]->off, p->before);
    stack_drop(p, k);
  }
  /* The threads' stacks first (they tie the grafts to the total's nodes),
   * then the piece's nodes, then the frames it left open. */
  for (u64 i = 0; rc == 0 && i < s.h.nlogs; i++) rc = run_log(p, &s, i, 0);
  for (u64 i = 0; rc == 0 && i < s.h.nnodes; i++) {
    const struct node *x = &s.nodes[i];
    if (x->fn == RP_GRAFT) continue; /* tied, or nothing hangs from it */
    u32 up = x->parent ? s.nmap[x->parent - 1] : 0;
    if (x->parent && up == ~0u) rc = RW_ECORRUPT;
    if (rc == 0)
      rc = rp__prof_node_of(p, x->parent ? up + 1 : 0, s.fmap[x->fn],
                            &s.nmap[i]);
    if (rc < 0) break;
    struct node *y = &p->nodes[s.nmap[i]];
    y->calls += x->calls;
    y->excl += x->excl;
    y->incl += x->incl;
  }
  for (u64 i = 0; rc == 0 && i < s.h.nlogs; i++) {
    const struct plog *l = &s.logs[i];
    size_t at;
    struct shadow *sh = stack_of(p, l->tid, &at);
    if (!sh) continue; /* it ended */
    for (u64 k = 0; rc == 0 && k < l->nopen; k++) {
      struct frame fr = l->open[k];
      fr.fn = s.fmap[fr.fn];
      fr.node = s.nmap[fr.node];
      fr.start += sh->off;
      fr.gstart += p->before;
      rc = fr.node == ~0u ? RW_ECORRUPT
                          : rp__grow((void **)&sh->v, sh->n, &sh->cap,
                                     sizeof *sh->v);
      if (rc == 0) sh->v[sh->n++] = fr;
    }
    sh->off += l->done;
  }
  if (rc == 0 && p->history) rc = add_calls(p, &s);
  if (rc == 0) {
    p->total += s.h.total;
    p->calls += s.h.calls;
    p->threads += s.h.threads;
    p->before += s.h.icount;
  }
  if (rc == 0 && nmap) {
    *nmap = s.nmap;
    *n = s.h.nnodes;
    s.nmap = NULL;
  }
  saved_free(&s);
  return rc;
}

int rp_profile_tree_done(rp_profile *p) {
  while (p->nsh) { /* the threads there at the end of the history */
    rp__prof_end(p->sh[p->nsh - 1], p->sh[p->nsh - 1]->off, p->before);
    stack_drop(p, p->nsh - 1);
  }
  RW_FORWARD(rp__prof_canon(p));
  return rp__prof_derive(p);
}
