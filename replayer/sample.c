/* SPDX-License-Identifier: MIT */
/* Sampled edge profiles, as branch-trace hardware would give them, checked
 * against the exact history (rewind analyze edges --sample; issue 16).
 *
 * Each thread keeps a ring of its last taken branches, as a last-branch
 * record does. Every PERIOD taken branches (plus a random offset below
 * DELTA, drawn from a seeded generator, to keep the samples from locking
 * onto a loop's period) the ring is sampled, and the full branch sequence
 * it implies is rebuilt: between one taken branch's target and the next
 * taken branch the code ran straight, so every conditional branch decoded
 * on that path fell through. The rebuilt sequence is compared with the
 * true one, which the thread also keeps (every conditional branch, taken
 * or not, and every taken one), and its conditional branches are counted
 * into a sampled edge profile (edges: a branch taken, a branch not taken).
 * Beside it the exact edge profile of every branch, and how far the
 * sampled shares are from the exact ones: the largest relative error and
 * a chi-square, which show which sampling periods mislead.
 *
 * Driven by the profile's branch, call and return observers
 * (replayer/profile.c), which pass every branch through rp__sampler_branch.
 * The calls among them also make a call graph from calls alone: each
 * call's caller and callee function, counted for every call and for the
 * calls in the sampled rings, reported with the same measures. */
#include <capstone/capstone.h>
#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/digest.h"
#include "format/format.h"
#include "replayer/rp_int.h"

#define RP_TRUE_RING 8192u     /* the true sequence kept per thread */
#define RP_WALK_MAX 100000u    /* instructions decoded between two taken */
#define RP_MIN_SHARE 0.01      /* edges the largest error looks at */

/* One branch of a sequence: where it was, whether it was taken, and
 * (taken) where it went. */
struct br {
  u64 from, to;
  int taken;
  int cond;
  u32 pair; /* a call: its caller and callee's pair index + 1 */
};

/* A function of the call graph, by its name and file. */
struct cfn {
  char name[200];
};

/* An edge of the call graph: a caller calling a callee, how often in all
 * and in the samples' rings. */
struct cpair {
  u32 caller, callee; /* cfn indexes */
  u64 exact, sampled;
};

/* One conditional branch instruction: its exact and sampled counts. */
struct csite {
  u64 key;       /* process index << 48 | address */
  char where[96];
  u64 exact[2];  /* not taken, taken */
  u64 sampled[2];
};

struct tstate {
  struct rp__thread *t;
  struct br *taken; /* the ring of the last s->o.ring taken branches, in
                       s->mask + 1 slots */
  u64 ntaken;       /* taken so far */
  u64 countdown;    /* taken branches until the next sample */
  struct br *truth; /* the last RP_TRUE_RING branches, taken or not */
  u64 ntruth;
};

struct rp__sampler {
  rp_replay *rp;
  struct rp_sample_opts o;
  u64 mask;         /* the rings' slots - 1: a power of two - 1 */
  u64 rng;
  int err;
  struct tstate **ts;
  size_t nts, capts;
  struct csite *sites;
  size_t nsites, capsites;
  u32 *by_psite;    /* the profile's site index -> site index + 1 */
  size_t nby;
  struct rp__umap by_key; /* csite key -> site index + 1 */
  struct br *seq;   /* the rebuilt sequence of a sample */
  size_t capseq;
  cs_insn *insn;
  /* The call graph, from calls alone. */
  struct cfn *fns;
  size_t nfns, capfns;
  struct rp__umap fn_by_addr; /* process << 48 | address -> fn index + 1 */
  struct rp__umap fn_by_name; /* hash of a name -> fn index + 1 */
  struct cpair *pairs;
  size_t npairs, cappairs;
  struct rp__umap by_pair;    /* caller << 32 | callee -> pair index + 1 */
  u64 calls, calls_sampled;
  /* What the samples gave. */
  u64 samples, rebuilt, equal, differ, broken;
};

static u64 next_rand(struct rp__sampler *s) { /* xorshift64* */
  s->rng ^= s->rng >> 12;
  s->rng ^= s->rng << 25;
  s->rng ^= s->rng >> 27;
  return s->rng * 0x2545f4914f6cdd1dull;
}

static u64 period(struct rp__sampler *s) {
  return s->o.period + (s->o.delta ? next_rand(s) % s->o.delta : 0);
}

int rp__sampler_new(rp_replay *rp, const struct rp_sample_opts *o,
                    struct rp__sampler **out) {
  *out = NULL;
  RW_RETURN_IF(!o->period || !o->ring || o->ring > RP_RING_MAX ||
                   o->delta > o->period,
               RW_EINVAL, "sampling period %" PRIu64 ", delta %" PRIu64 ""
               ", ring %u", o->period, o->delta, o->ring);
  RW_FORWARD(rp__cs_open(rp));
  struct rp__sampler *s = calloc(1, sizeof *s);
  if (!s) return RW_ENOMEM;
  s->rp = rp;
  s->o = *o;
  while (s->mask + 1 < o->ring) s->mask = 2 * s->mask + 1;
  s->rng = rw_fmix64(o->seed ^ 0x9e3779b97f4a7c15ull) | 1;
  s->insn = cs_malloc(rp->cs);
  if (!s->insn) {
    free(s);
    return RW_ENOMEM;
  }
  *out = s;
  return 0;
}

static void tstate_free(struct tstate *x) {
  if (!x) return;
  free(x->taken);
  free(x->truth);
  free(x);
}

void rp__sampler_free(struct rp__sampler *s) {
  if (!s) return;
  for (size_t i = 0; i < s->nts; i++) tstate_free(s->ts[i]);
  free(s->ts);
  free(s->sites);
  free(s->by_psite);
  rp__umap_free(&s->by_key);
  free(s->fns);
  rp__umap_free(&s->fn_by_addr);
  rp__umap_free(&s->fn_by_name);
  free(s->pairs);
  rp__umap_free(&s->by_pair);
  free(s->seq);
  if (s->insn) cs_free(s->insn, 1);
  free(s);
}

/* The function holding ADDR in T's process: its index into *OUT. */
static int fn_of(struct rp__sampler *s, struct rp__thread *t, u64 addr,
                 u32 *out) {
  u64 key = (u64)t->st.proc_ix << 48 | (addr & ((1ull << 48) - 1));
  u32 v = rp__umap_get(&s->fn_by_addr, key);
  if (v) {
    *out = v - 1;
    return 0;
  }
  char full[sizeof s->fns->name];
  rp__fn_label(s->rp, t, addr, 0, full, sizeof full);
  u64 h = rp__str_hash(full);
  u32 w = rp__umap_get(&s->fn_by_name, h);
  if (w && !strncmp(s->fns[w - 1].name, full, sizeof s->fns->name - 1)) {
    *out = w - 1;
  } else {
    RW_FORWARD(rp__grow((void **)&s->fns, s->nfns, &s->capfns,
                        sizeof *s->fns));
    memcpy(s->fns[s->nfns].name, full, sizeof full);
    if (!w) RW_FORWARD(rp__umap_put(&s->fn_by_name, h, (u32)s->nfns + 1));
    *out = (u32)s->nfns++;
  }
  return rp__umap_put(&s->fn_by_addr, key, *out + 1);
}

/* The call graph's edge of a call at FROM to TO in T's process: its index
 * + 1 into *OUT. */
static int pair_of(struct rp__sampler *s, struct rp__thread *t, u64 from,
                   u64 to, u32 *out) {
  u32 a, b;
  RW_FORWARD(fn_of(s, t, from, &a));
  RW_FORWARD(fn_of(s, t, to, &b));
  u64 key = (u64)a << 32 | b;
  u32 v = rp__umap_get(&s->by_pair, key);
  if (!v) {
    RW_FORWARD(rp__grow((void **)&s->pairs, s->npairs, &s->cappairs,
                        sizeof *s->pairs));
    s->pairs[s->npairs] = (struct cpair){a, b, 0, 0};
    RW_FORWARD(rp__umap_put(&s->by_pair, key, (u32)s->npairs + 1));
    v = (u32)++s->npairs;
  }
  *out = v;
  return 0;
}

/* The site of the conditional branch at FROM in T's process. */
static struct csite *site_of(struct rp__sampler *s, struct rp__thread *t,
                             u64 from) {
  u64 key = (u64)t->st.proc_ix << 48 | from;
  u32 v = rp__umap_get(&s->by_key, key);
  if (v) return &s->sites[v - 1];
  if (s->nsites == s->capsites) {
    size_t cap = s->capsites ? 2 * s->capsites : 256;
    struct csite *nv = realloc(s->sites, cap * sizeof *nv);
    if (!nv) return NULL;
    s->sites = nv;
    s->capsites = cap;
  }
  struct csite *c = &s->sites[s->nsites];
  memset(c, 0, sizeof *c);
  c->key = key;
  /* Named now, in its own process's files (the process may be gone at
   * the report). */
  rp_replay *rp = s->rp;
  struct rp__proc *was = rp->proc;
  rp->proc = t->proc;
  if (rp_symbolize(rp, from, c->where, sizeof c->where) < 0)
    snprintf(c->where, sizeof c->where, "%#" PRIx64 "", from);
  rp->proc = was;
  if (rp__umap_put(&s->by_key, key, (u32)s->nsites + 1) < 0) return NULL;
  s->nsites++;
  return c;
}

/* Capstone's conditional branches (jcc, jrcxz and kin, loop*). */
int rp__insn_is_cond(unsigned id) {
  switch (id) {
    case X86_INS_JAE: case X86_INS_JA: case X86_INS_JBE: case X86_INS_JB:
    case X86_INS_JCXZ: case X86_INS_JECXZ: case X86_INS_JE: case X86_INS_JGE:
    case X86_INS_JG: case X86_INS_JLE: case X86_INS_JL: case X86_INS_JNE:
    case X86_INS_JNO: case X86_INS_JNP: case X86_INS_JNS: case X86_INS_JO:
    case X86_INS_JP: case X86_INS_JRCXZ: case X86_INS_JS: case X86_INS_LOOP:
    case X86_INS_LOOPE: case X86_INS_LOOPNE:
      return 1;
    default:
      return 0;
  }
}

/* Any other instruction that may jump: it must not lie on a straight
 * path between two taken branches. */
int rp__insn_is_jump(unsigned id) {
  switch (id) {
    case X86_INS_JMP: case X86_INS_LJMP: case X86_INS_CALL:
    case X86_INS_LCALL: case X86_INS_RET: case X86_INS_RETF:
    case X86_INS_IRET: case X86_INS_IRETD: case X86_INS_IRETQ:
      return 1;
    default:
      return 0;
  }
}

static int seq_push(struct rp__sampler *s, size_t *n, struct br b) {
  if (*n == s->capseq) {
    size_t cap = s->capseq ? 2 * s->capseq : 1024;
    struct br *v = realloc(s->seq, cap * sizeof *v);
    if (!v) return RW_ENOMEM;
    s->seq = v;
    s->capseq = cap;
  }
  s->seq[(*n)++] = b;
  return 0;
}

/* Appends the conditional branches on the straight path from A to B (the
 * next taken branch's address) in T's memory, all not taken. Returns 0,
 * 1 when the path does not reach B straight (a signal, an exception, an
 * instruction Capstone cannot decode), or RW_ENOMEM. */
static int walk(struct rp__sampler *s, struct rp__thread *t, u64 a, u64 b,
                size_t *n) {
  u8 code[16];
  for (unsigned k = 0; a != b; k++) {
    if (k == RP_WALK_MAX) return 1;
    size_t len = sizeof code;
    /* The bytes up to a page end, then what follows may be unmapped. */
    if (cpu_mem_read(t->proc->mem, a, code, len) < 0) {
      len = CPU_PAGE_SIZE - (a & (CPU_PAGE_SIZE - 1));
      if (len > sizeof code || cpu_mem_read(t->proc->mem, a, code, len) < 0)
        return 1;
    }
    const u8 *p = code;
    u64 at = a;
    /* What Capstone 4 cannot decode, the emulator can: none of those
     * instructions branches, so only their length matters. */
    unsigned own = cpu_insn_length(code, (unsigned)len, a);
    if (own) {
      a += own;
      continue;
    }
    if (!cs_disasm_iter(s->rp->cs, &p, &len, &at, s->insn)) return 1;
    unsigned id = s->insn->id;
    if (rp__insn_is_jump(id)) return 1;
    u64 next = a + s->insn->size;
    if (rp__insn_is_cond(id))
      RW_FORWARD(seq_push(s, n, (struct br){a, next, 0, 1, 0}));
    a = next;
  }
  return 0;
}

/* A sample of X's ring: rebuilt, checked against the truth, counted. */
static int sample(struct rp__sampler *s, struct tstate *x) {
  u32 r = s->o.ring;
  u64 m = RW_MIN(x->ntaken, (u64)r);
  size_t n = 0, from = 0;
  s->samples++;
  for (u64 i = x->ntaken - m; i < x->ntaken; i++) {
    const struct br *e = &x->taken[i & s->mask];
    if (e->pair) { /* the call graph from the ring's calls */
      s->pairs[e->pair - 1].sampled++;
      s->calls_sampled++;
    }
    if (i > x->ntaken - m) {
      const struct br *prev = &x->taken[(i - 1) & s->mask];
      int rc = walk(s, x->t, prev->to, e->from, &n);
      if (rc < 0) return rc;
      if (rc > 0) { /* keep only what follows the break */
        s->broken++;
        from = n;
      }
    }
    RW_FORWARD(seq_push(s, &n, *e));
  }
  /* Against the true sequence: its last entries, as many as were rebuilt
   * after the last break. */
  size_t len = n - from;
  u64 have = RW_MIN(x->ntruth, (u64)RP_TRUE_RING);
  size_t cmp = (size_t)RW_MIN((u64)len, have);
  int same = 1;
  for (size_t k = 0; k < cmp && same; k++) {
    const struct br *a = &s->seq[n - cmp + k];
    const struct br *b = &x->truth[(x->ntruth - cmp + k) % RP_TRUE_RING];
    same = a->from == b->from && a->taken == b->taken &&
           (!a->taken || a->to == b->to);
  }
  if (same)
    s->equal++;
  else
    s->differ++;
  for (size_t k = from; k < n; k++) {
    if (!s->seq[k].cond) continue;
    struct csite *c = site_of(s, x->t, s->seq[k].from);
    if (!c) return RW_ENOMEM;
    c->sampled[s->seq[k].taken]++;
    s->rebuilt++;
  }
  return 0;
}

/* The site of the profile's site PSITE (index + 1) at FROM, found by its
 * index after the first time. */
static struct csite *psite_of(struct rp__sampler *s, struct rp__thread *t,
                              u64 from, u32 psite) {
  if (psite > s->nby) {
    size_t n = RW_MAX((size_t)psite, 2 * s->nby);
    u32 *v = realloc(s->by_psite, n * sizeof *v);
    if (!v) return NULL;
    memset(v + s->nby, 0, (n - s->nby) * sizeof *v);
    s->by_psite = v;
    s->nby = n;
  }
  u32 *slot = &s->by_psite[psite - 1];
  if (*slot) return &s->sites[*slot - 1];
  struct csite *c = site_of(s, t, from);
  if (c) *slot = (u32)(c - s->sites) + 1;
  return c;
}

void rp__sampler_branch(struct rp__sampler *s, void **state,
                        struct rp__thread *t, u64 from, u64 to, int taken,
                        u32 psite, int call) {
  int cond = psite != 0;
  struct tstate *x = *state;
  if (s->err) return;
  if (!x) {
    x = calloc(1, sizeof *x);
    if (x) {
      x->taken = calloc(s->mask + 1, sizeof *x->taken);
      x->truth = calloc(RP_TRUE_RING, sizeof *x->truth);
    }
    if (s->nts == s->capts) {
      size_t cap = s->capts ? 2 * s->capts : 16;
      struct tstate **v = realloc(s->ts, cap * sizeof *v);
      if (v) {
        s->ts = v;
        s->capts = cap;
      }
    }
    if (!x || !x->taken || !x->truth || s->nts == s->capts) {
      tstate_free(x);
      s->err = RW_ENOMEM;
      return;
    }
    x->t = t;
    x->countdown = period(s);
    s->ts[s->nts++] = x;
    *state = x;
  }
  struct br b = {from, taken ? to : 0, taken != 0, cond, 0};
  if (call) {
    int rc = pair_of(s, t, from, to, &b.pair);
    if (rc < 0) {
      s->err = rc;
      return;
    }
    s->pairs[b.pair - 1].exact++;
    s->calls++;
  }
  x->truth[x->ntruth++ % RP_TRUE_RING] = b;
  if (cond) {
    struct csite *c = psite_of(s, t, from, psite);
    if (!c) {
      s->err = RW_ENOMEM;
      return;
    }
    c->exact[taken != 0]++;
  }
  if (!taken) return;
  x->taken[x->ntaken++ & s->mask] = b;
  if (--x->countdown) return;
  x->countdown = period(s);
  int rc = sample(s, x);
  if (rc < 0) s->err = rc;
}

int rp__sampler_err(const struct rp__sampler *s) { return s->err; }

/* One edge of the report: a site's taken or not-taken side. */
struct edge_row {
  const struct csite *c;
  int taken;
  double exact, sampled, err; /* shares and relative error */
};

static int by_exact(const void *a, const void *b) {
  const struct edge_row *x = a, *y = b;
  if (x->exact != y->exact) return x->exact < y->exact ? 1 : -1;
  if (x->c->key != y->c->key) return x->c->key < y->c->key ? -1 : 1;
  return x->taken - y->taken;
}

/* One edge of the call graph's report. */
struct call_row {
  const struct cpair *p;
  double exact, sampled, err;
};

static int by_calls(const void *a, const void *b) {
  const struct call_row *x = a, *y = b;
  if (x->p->exact != y->p->exact) return x->p->exact < y->p->exact ? 1 : -1;
  if (x->p->caller != y->p->caller) return x->p->caller < y->p->caller ? -1 : 1;
  return x->p->callee < y->p->callee ? -1 : x->p->callee > y->p->callee;
}

/* The call graph from calls alone: exact (every call) and sampled (the
 * calls in the samples' rings), with the same uniformity measures as the
 * edges. */
static int calls_report(const struct rp__sampler *s, FILE *out, size_t top,
                        int json) {
  struct call_row *v = calloc(s->npairs ? s->npairs : 1, sizeof *v);
  if (!v) return RW_ENOMEM;
  double chi = 0, worst = 0;
  size_t used = 0, big = 0;
  const struct call_row *w = NULL;
  for (size_t i = 0; i < s->npairs; i++) {
    struct call_row *r = &v[i];
    r->p = &s->pairs[i];
    r->exact = s->calls ? (double)r->p->exact / (double)s->calls : 0;
    r->sampled =
        s->calls_sampled ? (double)r->p->sampled / (double)s->calls_sampled
                         : 0;
    r->err = r->exact > 0 ? fabs(r->sampled - r->exact) / r->exact : 0;
    double expect = r->exact * (double)s->calls_sampled;
    if (expect >= 5) {
      chi += (r->p->sampled - expect) * (r->p->sampled - expect) / expect;
      used++;
    }
  }
  qsort(v, s->npairs, sizeof *v, by_calls);
  for (size_t i = 0; i < s->npairs; i++)
    if (v[i].exact >= RP_MIN_SHARE) {
      big++;
      if (!w || v[i].err > worst) {
        worst = v[i].err;
        w = &v[i];
      }
    }
  unsigned df = used > 1 ? (unsigned)(used - 1) : 0;
  if (json) {
    fprintf(out, "{\"sampled_calls\":{\"calls\":%" PRIu64 ""
                 ",\"calls_in_samples\":%" PRIu64 ",\"edges\":%zu"
                 ",\"edges_over_1pct\":%zu,\"max_relative_error\":%.6f"
                 ",\"chi_square\":%.3f,\"degrees_of_freedom\":%u}}\n",
            s->calls, s->calls_sampled, s->npairs, big, worst, chi, df);
  } else {
    fprintf(out, "\ncall graph from calls alone: %" PRIu64 " calls, %zu "
                 "caller-callee edges; %" PRIu64 " calls in the samples' "
                 "rings",
            s->calls, s->npairs, s->calls_sampled);
    if (w)
      fprintf(out, "; largest relative error %.3f at %s -> %s (exact "
                   "%.2f%%, sampled %.2f%%)",
              worst, s->fns[w->p->caller].name, s->fns[w->p->callee].name,
              100 * w->exact, 100 * w->sampled);
    fprintf(out, "; chi-square %.1f over %u degrees of freedom\n", chi, df);
    fprintf(out, "%13s %9s %9s %9s  %s\n", "calls", "exact", "sampled",
            "rel err", "caller -> callee");
  }
  size_t n = top && top < s->npairs ? top : s->npairs;
  for (size_t i = 0; i < n; i++) {
    const struct call_row *r = &v[i];
    const char *a = s->fns[r->p->caller].name, *b = s->fns[r->p->callee].name;
    if (json) {
      fprintf(out, "{\"sampled_call\":{\"caller\":");
      trace_json_str(out, a);
      fprintf(out, ",\"callee\":");
      trace_json_str(out, b);
      fprintf(out, ",\"exact\":%" PRIu64 ",\"sampled\":%" PRIu64 ""
                   ",\"exact_share\":%.6f,\"sampled_share\":%.6f,"
                   "\"relative_error\":%.6f}}\n",
              r->p->exact, r->p->sampled, r->exact, r->sampled, r->err);
    } else {
      fprintf(out, "%13" PRIu64 " %8.2f%% %8.2f%% %9.3f  %s -> %s\n",
              r->p->exact, 100 * r->exact, 100 * r->sampled, r->err, a, b);
    }
  }
  if (!json && n < s->npairs)
    fprintf(out, "(%zu more call edges; --top 0 shows them all)\n",
            s->npairs - n);
  free(v);
  return 0;
}

int rp__sampler_report(const struct rp__sampler *s, FILE *out, size_t top,
                       int json) {
  u64 et = 0, st = 0;
  size_t ne = 0;
  for (size_t i = 0; i < s->nsites; i++)
    for (int d = 0; d < 2; d++) {
      et += s->sites[i].exact[d];
      st += s->sites[i].sampled[d];
      ne += s->sites[i].exact[d] || s->sites[i].sampled[d];
    }
  struct edge_row *v = calloc(ne ? ne : 1, sizeof *v);
  if (!v) return RW_ENOMEM;
  size_t k = 0, used = 0;
  double chi = 0, worst = 0;
  const struct edge_row *w = NULL;
  for (size_t i = 0; i < s->nsites; i++)
    for (int d = 0; d < 2; d++) {
      const struct csite *c = &s->sites[i];
      if (!c->exact[d] && !c->sampled[d]) continue;
      struct edge_row *e = &v[k++];
      e->c = c;
      e->taken = d;
      e->exact = et ? (double)c->exact[d] / (double)et : 0;
      e->sampled = st ? (double)c->sampled[d] / (double)st : 0;
      e->err = e->exact > 0 ? fabs(e->sampled - e->exact) / e->exact : 0;
      /* Chi-square over the edges expected at least 5 times in the
       * samples. */
      double expect = e->exact * (double)st;
      if (expect >= 5) {
        chi += (c->sampled[d] - expect) * (c->sampled[d] - expect) / expect;
        used++;
      }
    }
  qsort(v, k, sizeof *v, by_exact);
  size_t big = 0;
  for (size_t i = 0; i < k; i++)
    if (v[i].exact >= RP_MIN_SHARE) {
      big++;
      if (!w || v[i].err > worst) {
        worst = v[i].err;
        w = &v[i];
      }
    }
  unsigned df = used > 1 ? (unsigned)(used - 1) : 0;
  if (json) {
    fprintf(out,
            "{\"sampling\":{\"period\":%" PRIu64 ",\"random_delta\":%" PRIu64 ""
            ",\"seed\":%" PRIu64 ",\"ring\":%u,\"samples\":%" PRIu64 ""
            ",\"rebuilt_conditional\":%" PRIu64 ",\"equal\":%" PRIu64 ""
            ",\"differ\":%" PRIu64 ",\"broken\":%" PRIu64 ""
            ",\"edges\":%zu,\"edges_over_1pct\":%zu,\"max_relative_error\":%.6f"
            ",\"chi_square\":%.3f,\"degrees_of_freedom\":%u}}\n",
            s->o.period, s->o.delta, s->o.seed, s->o.ring, s->samples,
            s->rebuilt, s->equal, s->differ, s->broken, k, big, worst, chi,
            df);
  } else {
    fprintf(out,
            "\nsampled: every %" PRIu64 " taken branches", s->o.period);
    if (s->o.delta)
      fprintf(out, " plus a random 0..%" PRIu64 " (seed %" PRIu64 ")",
              s->o.delta - 1, s->o.seed);
    fprintf(out,
            ", the last %u taken branches each: %" PRIu64 ""
            " samples, %" PRIu64 " conditional branches rebuilt from them\n"
            "rebuilt against the emulator's branch sequence: %" PRIu64 ""
            " equal, %" PRIu64 " differ; %" PRIu64 ""
            " gaps not followed (a signal, an exception, code the "
            "disassembler cannot read)\n",
            s->o.ring, s->samples, s->rebuilt, s->equal, s->differ,
            s->broken);
    fprintf(out, "uniformity: %zu edges (a branch taken, a branch not "
                 "taken), %zu with at least 1%% of the executions",
            k, big);
    if (w)
      fprintf(out, "; largest relative error %.3f at %#" PRIx64 ""
                   " %s %s (exact %.2f%%, sampled %.2f%%)",
              worst, (u64)(w->c->key & ((1ull << 48) - 1)), w->c->where,
              w->taken ? "taken" : "not taken", 100 * w->exact,
              100 * w->sampled);
    fprintf(out, "; chi-square %.1f over %u degrees of freedom (%.1f per "
                 "degree)\n",
            chi, df, df ? chi / df : 0.0);
    fprintf(out, "%9s %9s %9s  %s\n", "exact", "sampled", "rel err",
            "edge");
  }
  size_t n = top && top < k ? top : k;
  for (size_t i = 0; i < n; i++) {
    const struct edge_row *e = &v[i];
    u64 addr = (u64)(e->c->key & ((1ull << 48) - 1));
    if (json) {
      fprintf(out, "{\"sampled_edge\":{\"address\":%" PRIu64 ",\"where\":",
              addr);
      trace_json_str(out, e->c->where);
      fprintf(out,
              ",\"taken\":%s,\"exact\":%" PRIu64 ",\"sampled\":%" PRIu64 ""
              ",\"exact_share\":%.6f,\"sampled_share\":%.6f,"
              "\"relative_error\":%.6f}}\n",
              e->taken ? "true" : "false", e->c->exact[e->taken],
              e->c->sampled[e->taken], e->exact, e->sampled, e->err);
    } else {
      fprintf(out, "%8.2f%% %8.2f%% %9.3f  %#" PRIx64 " %s %s\n",
              100 * e->exact, 100 * e->sampled, e->err, addr, e->c->where,
              e->taken ? "taken" : "not taken");
    }
  }
  if (!json && n < k)
    fprintf(out, "(%zu more edges; --top 0 shows them all)\n", k - n);
  free(v);
  RW_FORWARD(calls_report(s, out, top, json));
  return rp__written(out);
}
