/* SPDX-License-Identifier: MIT */
/* Edge and rep profiles of pieces of one history, added up (rewind analyze
 * edges|rep -j N). Each piece, replayed in a process of its own from a
 * recorder keyframe, saves its profile to a file; the parent adds the
 * files up in the history's order. Both counts are sums over executions,
 * so the total of the pieces is the profile of the whole: a branch site is
 * one process's instruction at one address (its pid, address, kind and
 * "function+0xOFF"), an indirect target one site's destination.
 *
 * The file is private to a process and its forks: a site's rep mnemonic
 * is a static string of the program and is passed as its address. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "replayer/prof_int.h"

#define MAGIC "RWPROF2"

struct header {
  char magic[8];
  u32 branches, reps;
  u64 nbranches, nreps, rep_iters;
  u64 nsites, ntargets, nstrs, nheads, nopens;
};

int rp_profile_empty(int reps, rp_profile **out) {
  rp_profile *p = calloc(1, sizeof *p);
  *out = p;
  if (!p) return RW_ENOMEM;
  p->reps = reps != 0;
  p->branches = !reps;
  return 0;
}

int rp_profile_save(const rp_profile *p, FILE *f) {
  struct header h = {.branches = (u32)p->branches,
                     .reps = (u32)p->reps,
                     .nbranches = p->nbranches,
                     .nreps = p->nreps,
                     .rep_iters = p->rep_iters,
                     .nsites = p->nsites,
                     .ntargets = p->ntargets,
                     .nstrs = p->nstrs,
                     .nheads = p->nheads,
                     .nopens = p->nopens};
  memcpy(h.magic, MAGIC, sizeof h.magic);
  RW_FORWARD(rp__fput(f, &h, sizeof h));
  RW_FORWARD(rp__fput(f, p->sites, p->nsites * sizeof *p->sites));
  RW_FORWARD(rp__fput(f, p->targets, p->ntargets * sizeof *p->targets));
  RW_FORWARD(rp__fput(f, p->strs, p->nstrs));
  RW_FORWARD(rp__fput(f, p->heads, p->nheads * sizeof *p->heads));
  RW_FORWARD(rp__fput(f, p->opens, p->nopens * sizeof *p->opens));
  return fflush(f) != 0 ? RW_ERR(errno ? errno : EIO) : 0;
}

static u64 site_hash(u64 addr, u32 pid, int kind, const char *where) {
  u64 h = rw_fmix64(addr ^ ((u64)pid << 32) ^ ((u64)kind << 56));
  for (const char *c = where; *c; c++) h = (h ^ (u8)*c) * 0x100000001b3ull;
  return h;
}

int rp__prof_site(rp_profile *p, u64 addr, u32 pid, int kind,
                  const char *where, u32 *out) {
  u64 h = site_hash(addr, pid, kind, where);
  for (;; h++) {
    u32 v = rp__umap_get(&p->by_merge, h);
    if (!v) break;
    const struct site *s = &p->sites[v - 1];
    if (s->addr == addr && s->pid == pid && s->kind == kind &&
        !strcmp(p->strs + s->where, where)) {
      *out = v - 1;
      return 0;
    }
  }
  struct site n = {.addr = addr, .pid = pid, .kind = kind};
  RW_FORWARD(rp__prof_str(p, where, &n.where));
  RW_FORWARD(rp__grow((void **)&p->sites, p->nsites, &p->capsites,
                      sizeof *p->sites));
  RW_FORWARD(rp__umap_put(&p->by_merge, h, (u32)p->nsites + 1));
  p->sites[p->nsites] = n;
  *out = (u32)p->nsites++;
  return 0;
}

/* Adds target G (of site I of P, where in STRS). */
static int target_add(rp_profile *p, u32 i, const struct target *g,
                      const char *strs) {
  u64 h0 = rw_fmix64(g->to ^ ((u64)i << 40)), h = h0;
  for (;; h++) {
    u32 v = rp__umap_get(&p->by_target, h);
    if (!v) break;
    struct target *t = &p->targets[v - 1];
    if (t->site == i && t->to == g->to) {
      t->count += g->count;
      return 0;
    }
  }
  struct target n = {.site = i, .to = g->to, .count = g->count};
  RW_FORWARD(rp__prof_str(p, strs + g->where, &n.where));
  RW_FORWARD(rp__grow((void **)&p->targets, p->ntargets, &p->captargets,
                      sizeof *p->targets));
  RW_FORWARD(rp__umap_put(&p->by_target, h, (u32)p->ntargets + 1));
  p->targets[p->ntargets++] = n;
  return 0;
}

/* The open part of thread TID's rep instruction at site I of P that no
 * head has joined yet, or NULL. */
static struct rep_part *open_part(rp_profile *p, u32 tid, u32 i) {
  for (size_t k = 0; k < p->nopens; k++)
    if (p->opens[k].tid == tid && p->opens[k].site == i) return &p->opens[k];
  return NULL;
}

/* Head H (at site I of P) of a piece: the end of the open part before it
 * if there is one, else an execution of its own. */
static void head_add(rp_profile *p, u32 i, const struct rep_part *h) {
  struct rep_part *o = open_part(p, h->tid, i);
  if (!o) {
    rp__rep_count(&p->sites[i], h->req, h->done, h->how);
    return;
  }
  rp__rep_count(&p->sites[i], o->req, o->done + h->done, h->how);
  p->rep_iters += o->done; /* the piece before did not count them */
  *o = p->opens[--p->nopens];
}

/* Open part X (at site I of P) at the end of a piece: it goes on in a
 * later one. */
static int open_add(rp_profile *p, u32 i, const struct rep_part *x) {
  struct rep_part *o = open_part(p, x->tid, i);
  if (o && x->how) { /* it went on in this piece too */
    o->done += x->done;
    return 0;
  }
  if (!o) {
    RW_FORWARD(rp__grow((void **)&p->opens, p->nopens, &p->capopens,
                        sizeof *p->opens));
    o = &p->opens[p->nopens++];
  }
  *o = *x;
  o->site = i;
  return 0;
}

int rp_profile_add(rp_profile *p, FILE *f) {
  struct header h;
  RW_RETURN_IF(fread(&h, sizeof h, 1, f) != 1 ||
                   memcmp(h.magic, MAGIC, sizeof h.magic),
               RW_ECORRUPT, "not a saved profile");
  RW_RETURN_IF(h.branches != (u32)p->branches || h.reps != (u32)p->reps,
               RW_EINVAL, "a profile of another kind");
  RW_RETURN_IF(h.nsites > 0xffffffffu || h.ntargets > 0xffffffffu ||
                   h.nstrs > 0xffffffffu || h.nheads > 0xffffffffu ||
                   h.nopens > 0xffffffffu,
               RW_ECORRUPT, "a saved profile too large");
  u64 nparts = h.nheads + h.nopens;
  struct site *sites = malloc((h.nsites ? h.nsites : 1) * sizeof *sites);
  struct target *tg = malloc((h.ntargets ? h.ntargets : 1) * sizeof *tg);
  char *strs = malloc(h.nstrs + 1);
  u32 *ix = malloc((h.nsites ? h.nsites : 1) * sizeof *ix);
  struct rep_part *parts = malloc((nparts ? nparts : 1) * sizeof *parts);
  int rc = sites && tg && strs && ix && parts ? 0 : RW_ENOMEM;
  if (rc == 0 &&
      (fread(sites, sizeof *sites, h.nsites, f) != h.nsites ||
       fread(tg, sizeof *tg, h.ntargets, f) != h.ntargets ||
       fread(strs, 1, h.nstrs, f) != h.nstrs ||
       fread(parts, sizeof *parts, nparts, f) != nparts))
    rc = RW_ETRUNC;
  if (rc == 0) strs[h.nstrs] = 0;
  for (u64 i = 0; rc == 0 && i < h.nsites; i++) {
    if (sites[i].where >= h.nstrs) rc = RW_ECORRUPT;
    const struct site *x = &sites[i];
    if (rc == 0)
      rc = rp__prof_site(p, x->addr, x->pid, x->kind, strs + x->where,
                         &ix[i]);
    if (rc == 0 && !p->sites[ix[i]].mnem) p->sites[ix[i]].mnem = x->mnem;
    if (rc == 0) rp__site_sum(&p->sites[ix[i]], x);
  }
  for (u64 i = 0; rc == 0 && i < h.ntargets; i++) {
    if (tg[i].site >= h.nsites || tg[i].where >= h.nstrs) rc = RW_ECORRUPT;
    if (rc == 0) rc = target_add(p, ix[tg[i].site], &tg[i], strs);
  }
  /* The heads end the parts the pieces before left open; this piece's
   * open parts go on in the next. */
  for (u64 i = 0; rc == 0 && i < nparts; i++) {
    if (parts[i].site >= h.nsites) rc = RW_ECORRUPT;
    if (rc == 0 && i < h.nheads) head_add(p, ix[parts[i].site], &parts[i]);
    if (rc == 0 && i >= h.nheads)
      rc = open_add(p, ix[parts[i].site], &parts[i]);
  }
  if (rc == 0) {
    p->nbranches += h.nbranches;
    p->nreps += h.nreps;
    p->rep_iters += h.rep_iters;
  }
  free(sites);
  free(tg);
  free(strs);
  free(ix);
  free(parts);
  return rc;
}
