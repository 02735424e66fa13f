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

#define MAGIC "RWPROF1"

struct header {
  char magic[8];
  u32 branches, reps;
  u64 nbranches, nreps, rep_iters;
  u64 nsites, ntargets, nstrs;
};

int rp_profile_empty(int reps, rp_profile **out) {
  rp_profile *p = calloc(1, sizeof *p);
  *out = p;
  if (!p) return RW_ENOMEM;
  p->reps = reps != 0;
  p->branches = !reps;
  return 0;
}

/* Writes N elements of SIZE at V (NULL when N is 0) to F; 1 when done. */
static int put(FILE *f, const void *v, size_t size, size_t n) {
  return !n || fwrite(v, size, n, f) == n;
}

int rp_profile_save(const rp_profile *p, FILE *f) {
  struct header h = {.branches = (u32)p->branches,
                     .reps = (u32)p->reps,
                     .nbranches = p->nbranches,
                     .nreps = p->nreps,
                     .rep_iters = p->rep_iters,
                     .nsites = p->nsites,
                     .ntargets = p->ntargets,
                     .nstrs = p->nstrs};
  memcpy(h.magic, MAGIC, sizeof h.magic);
  if (!put(f, &h, sizeof h, 1) ||
      !put(f, p->sites, sizeof *p->sites, p->nsites) ||
      !put(f, p->targets, sizeof *p->targets, p->ntargets) ||
      !put(f, p->strs, 1, p->nstrs) || fflush(f) != 0)
    return RW_ERR(errno ? errno : EIO);
  return 0;
}

static u64 site_hash(const struct site *s, const char *where) {
  u64 h = rw_fmix64(s->addr ^ ((u64)s->pid << 32) ^ ((u64)s->kind << 56));
  for (const char *c = where; *c; c++) h = (h ^ (u8)*c) * 0x100000001b3ull;
  return h;
}

/* The index of site X (its where in STRS) in P, added when new. */
static int site_of(rp_profile *p, const struct site *x, const char *strs,
                   u32 *out) {
  const char *w = strs + x->where;
  u64 h = site_hash(x, w);
  for (;; h++) {
    u32 v = rp__umap_get(&p->by_merge, h);
    if (!v) break;
    const struct site *s = &p->sites[v - 1];
    if (s->addr == x->addr && s->pid == x->pid && s->kind == x->kind &&
        !strcmp(p->strs + s->where, w)) {
      *out = v - 1;
      return 0;
    }
  }
  struct site n = {.addr = x->addr, .pid = x->pid, .kind = x->kind,
                   .mnem = x->mnem};
  RW_FORWARD(rp__prof_str(p, w, &n.where));
  RW_FORWARD(rp__grow((void **)&p->sites, p->nsites, &p->capsites,
                      sizeof *p->sites));
  RW_FORWARD(rp__umap_put(&p->by_merge, h, (u32)p->nsites + 1));
  p->sites[p->nsites] = n;
  *out = (u32)p->nsites++;
  return 0;
}

/* Adds X's counts to site I of P. */
static void site_add(rp_profile *p, u32 i, const struct site *x) {
  struct site *s = &p->sites[i];
  if (x->kind == SITE_REP && x->execs) {
    if (!s->execs || x->lo < s->lo) s->lo = x->lo;
    if (x->hi > s->hi) s->hi = x->hi;
  }
  s->execs += x->execs;
  s->taken += x->taken;
  s->req += x->req;
  s->done += x->done;
  s->cond += x->cond;
  s->faults += x->faults;
  s->intr += x->intr;
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

int rp_profile_add(rp_profile *p, FILE *f) {
  struct header h;
  RW_RETURN_IF(fread(&h, sizeof h, 1, f) != 1 ||
                   memcmp(h.magic, MAGIC, sizeof h.magic),
               RW_ECORRUPT, "not a saved profile");
  RW_RETURN_IF(h.branches != (u32)p->branches || h.reps != (u32)p->reps,
               RW_EINVAL, "a profile of another kind");
  RW_RETURN_IF(h.nsites > 0xffffffffu || h.ntargets > 0xffffffffu ||
                   h.nstrs > 0xffffffffu,
               RW_ECORRUPT, "a saved profile too large");
  struct site *sites = malloc((h.nsites ? h.nsites : 1) * sizeof *sites);
  struct target *tg = malloc((h.ntargets ? h.ntargets : 1) * sizeof *tg);
  char *strs = malloc(h.nstrs + 1);
  u32 *ix = malloc((h.nsites ? h.nsites : 1) * sizeof *ix);
  int rc = sites && tg && strs && ix ? 0 : RW_ENOMEM;
  if (rc == 0 &&
      (fread(sites, sizeof *sites, h.nsites, f) != h.nsites ||
       fread(tg, sizeof *tg, h.ntargets, f) != h.ntargets ||
       fread(strs, 1, h.nstrs, f) != h.nstrs))
    rc = RW_ETRUNC;
  if (rc == 0) strs[h.nstrs] = 0;
  for (u64 i = 0; rc == 0 && i < h.nsites; i++) {
    if (sites[i].where >= h.nstrs) rc = RW_ECORRUPT;
    if (rc == 0) rc = site_of(p, &sites[i], strs, &ix[i]);
    if (rc == 0) site_add(p, ix[i], &sites[i]);
  }
  for (u64 i = 0; rc == 0 && i < h.ntargets; i++) {
    if (tg[i].site >= h.nsites || tg[i].where >= h.nstrs) rc = RW_ECORRUPT;
    if (rc == 0) rc = target_add(p, ix[tg[i].site], &tg[i], strs);
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
  return rc;
}
