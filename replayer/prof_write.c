/* SPDX-License-Identifier: MIT */
/* The profile written out (rewind analyze profile, edges, rep): tables,
 * JSON lines, folded stacks and callgrind's format; the flame graph is
 * replayer/flame.c. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "replayer/prof_int.h"

/* ---- Output ----------------------------------------------------------- */

static const rp_profile *sort_p; /* qsort has no context argument */

static int sort_excl; /* rp_profile_table's BY_EXCL, for qsort */

static int by_incl(const void *a, const void *b) {
  const struct fn *x = &sort_p->fns[*(const u32 *)a],
                  *y = &sort_p->fns[*(const u32 *)b];
  u64 x1 = sort_excl ? x->excl : x->incl, y1 = sort_excl ? y->excl : y->incl;
  u64 x2 = sort_excl ? x->incl : x->excl, y2 = sort_excl ? y->incl : y->excl;
  if (x1 != y1) return x1 < y1 ? 1 : -1;
  if (x2 != y2) return x2 < y2 ? 1 : -1;
  int c = strcmp(sort_p->strs + x->name, sort_p->strs + y->name);
  return c ? c : strcmp(sort_p->strs + x->object, sort_p->strs + y->object);
}

static double share(u64 part, u64 whole) {
  return whole ? 100.0 * (double)part / (double)whole : 0.0;
}

/* P's functions in the table's order (see rp_profile_table) into *IX
 * (free it), the first *N of them (TOP, or all). Returns 0 or RW_ENOMEM. */
static int fn_order(const rp_profile *p, size_t top, int by_excl, u32 **ix,
                    size_t *n) {
  *ix = malloc((p->nfns ? p->nfns : 1) * sizeof **ix);
  if (!*ix) return RW_ENOMEM;
  for (u32 i = 0; i < p->nfns; i++) (*ix)[i] = i;
  sort_p = p;
  sort_excl = by_excl;
  qsort(*ix, p->nfns, sizeof **ix, by_incl);
  *n = top && top < p->nfns ? top : p->nfns;
  return 0;
}

int rp_profile_table(const rp_profile *p, FILE *out, size_t top,
                     int by_excl) {
  u32 *ix;
  size_t n;
  RW_FORWARD(fn_order(p, top, by_excl, &ix, &n));
  fprintf(out, "%13s %7s %13s %7s %10s  %s\n", "inclusive", "", "exclusive",
          "", "calls", "function (file)");
  for (size_t i = 0; i < n; i++) {
    const struct fn *f = &p->fns[ix[i]];
    const char *name = p->strs + f->name, *obj = p->strs + f->object;
    size_t k = strlen(obj);
    /* "file+0x..." names its file already. */
    int named = strncmp(name, obj, k) || strncmp(name + k, "+0x", 3);
    fprintf(out, "%13llu %6.2f%% %13llu %6.2f%% %10llu  %s%s%s%s\n",
            (unsigned long long)f->incl, share(f->incl, p->total),
            (unsigned long long)f->excl, share(f->excl, p->total),
            (unsigned long long)f->calls, name, named ? " (" : "",
            named ? obj : "", named ? ")" : "");
  }
  if (n < p->nfns)
    fprintf(out, "(%zu more functions; --top 0 shows them all)\n",
            p->nfns - n);
  free(ix);
  return rp__written(out);
}

int rp_profile_json(const rp_profile *p, FILE *out, size_t top, int by_excl,
                    const char *cmd) {
  u32 *ix;
  size_t n;
  RW_FORWARD(fn_order(p, top, by_excl, &ix, &n));
  fprintf(out, "{\"command\":");
  trace_json_str(out, cmd ? cmd : "?");
  fprintf(out, ",\"instructions\":%llu,\"calls\":%llu,\"threads\":%u,",
          (unsigned long long)p->total, (unsigned long long)p->calls,
          p->threads);
  if (p->want_tid)
    fprintf(out, "\"thread\":%u,", p->want_tid);
  else
    fprintf(out, "\"thread\":null,");
  fprintf(out, "\"functions\":%zu}\n", p->nfns);
  for (size_t i = 0; i < n; i++) {
    const struct fn *f = &p->fns[ix[i]];
    fprintf(out, "{\"function\":");
    trace_json_str(out, p->strs + f->name);
    fprintf(out, ",\"file\":");
    trace_json_str(out, p->strs + f->object);
    fprintf(out, ",\"inclusive\":%llu,\"exclusive\":%llu,\"calls\":%llu}\n",
            (unsigned long long)f->incl, (unsigned long long)f->excl,
            (unsigned long long)f->calls);
  }
  free(ix);
  return rp__written(out);
}

int rp_profile_folded(const rp_profile *p, FILE *out) {
  u32 *path = NULL;
  size_t cap = 0;
  for (size_t i = 0; i < p->nnodes; i++) {
    if (!p->nodes[i].excl) continue;
    size_t n = 0;
    for (u32 k = (u32)i + 1; k; k = p->nodes[k - 1].parent) {
      if (rp__grow((void **)&path, n, &cap, sizeof *path) < 0) {
        free(path);
        return RW_ENOMEM;
      }
      path[n++] = p->nodes[k - 1].fn;
    }
    while (n--) fprintf(out, "%s%c", p->strs + p->fns[path[n]].name,
                        n ? ';' : ' ');
    fprintf(out, "%llu\n", (unsigned long long)p->nodes[i].excl);
  }
  free(path);
  return rp__written(out);
}

static int by_caller(const void *a, const void *b) {
  const struct edge *x = &sort_p->edges[*(const u32 *)a],
                    *y = &sort_p->edges[*(const u32 *)b];
  if (x->caller != y->caller) return x->caller < y->caller ? -1 : 1;
  return x->callee < y->callee ? -1 : x->callee > y->callee;
}

int rp_profile_callgrind(const rp_profile *p, FILE *out, const char *cmd) {
  u32 *ix = malloc((p->nedges ? p->nedges : 1) * sizeof *ix);
  if (!ix) return RW_ENOMEM;
  for (u32 i = 0; i < p->nedges; i++) ix[i] = i;
  sort_p = p;
  qsort(ix, p->nedges, sizeof *ix, by_caller);
  fprintf(out, "# callgrind format\nversion: 1\ncreator: rewind\n");
  fprintf(out, "cmd: %s\npositions: line\nevents: Ir\nsummary: %llu\n\n",
          cmd ? cmd : "?", (unsigned long long)p->total);
  /* Each function's own cost, then its calls: count and inclusive cost. */
  size_t e = 0;
  for (u32 i = 0; i < p->nfns; i++) {
    const struct fn *f = &p->fns[i];
    fprintf(out, "ob=%s\nfl=???\nfn=%s\n0 %llu\n", p->strs + f->object,
            p->strs + f->name, (unsigned long long)f->excl);
    for (; e < p->nedges && p->edges[ix[e]].caller == i; e++) {
      const struct edge *g = &p->edges[ix[e]];
      const struct fn *c = &p->fns[g->callee];
      fprintf(out, "cob=%s\ncfl=???\ncfn=%s\ncalls=%llu 0\n0 %llu\n",
              p->strs + c->object, p->strs + c->name,
              (unsigned long long)g->calls, (unsigned long long)g->incl);
    }
    fputc('\n', out);
  }
  free(ix);
  return rp__written(out);
}

/* ---- The edge profile ------------------------------------------------- */

/* The order of two sites with the same counts: by address, process and
 * place, so that a whole replay and its pieces added up list them alike. */
static int same_counts(const struct site *x, const struct site *y) {
  if (x->addr != y->addr) return x->addr < y->addr ? -1 : 1;
  if (x->pid != y->pid) return x->pid < y->pid ? -1 : 1;
  return strcmp(sort_p->strs + x->where, sort_p->strs + y->where);
}

static int by_execs(const void *a, const void *b) {
  const struct site *x = &sort_p->sites[*(const u32 *)a],
                    *y = &sort_p->sites[*(const u32 *)b];
  if (x->execs != y->execs) return x->execs < y->execs ? 1 : -1;
  return same_counts(x, y);
}

int rp_profile_edges(const rp_profile *p, FILE *out, size_t top, int json) {
  u32 *ix = malloc((p->nsites ? p->nsites : 1) * sizeof *ix);
  if (!ix) return RW_ENOMEM;
  for (u32 i = 0; i < p->nsites; i++) ix[i] = i;
  sort_p = p;
  qsort(ix, p->nsites, sizeof *ix, by_execs);
  size_t n = top && top < p->nsites ? top : p->nsites;
  if (!json)
    fprintf(out, "%13s %13s %13s %7s  %s\n", "executed", "taken",
            "not taken", "taken", "branch");
  for (size_t k = 0; k < n; k++) {
    const struct site *s = &p->sites[ix[k]];
    int cond = s->kind == CPU_BRANCH_COND;
    if (json) {
      fprintf(out, "{\"address\":%llu,\"where\":", (unsigned long long)s->addr);
      trace_json_str(out, p->strs + s->where);
      fprintf(out, ",\"kind\":\"%s\",\"executed\":%llu,\"taken\":%llu,"
                   "\"not_taken\":%llu",
              cond ? "conditional" : "indirect", (unsigned long long)s->execs,
              (unsigned long long)s->taken,
              (unsigned long long)(s->execs - s->taken));
    } else {
      fprintf(out, "%13llu %13llu %13llu %6.2f%%  %#llx %s%s\n",
              (unsigned long long)s->execs, (unsigned long long)s->taken,
              (unsigned long long)(s->execs - s->taken),
              share(s->taken, s->execs), (unsigned long long)s->addr,
              p->strs + s->where, cond ? "" : " (indirect)");
    }
    int first = 1;
    for (size_t g = 0; !cond && g < p->ntargets; g++) {
      const struct target *t = &p->targets[g];
      if (t->site != ix[k]) continue;
      if (json) {
        fprintf(out, "%s{\"address\":%llu,\"where\":",
                first ? ",\"targets\":[" : ",", (unsigned long long)t->to);
        trace_json_str(out, p->strs + t->where);
        fprintf(out, ",\"count\":%llu}", (unsigned long long)t->count);
      } else {
        fprintf(out, "%13s %13llu %13s %7s    -> %#llx %s\n", "",
                (unsigned long long)t->count, "", "",
                (unsigned long long)t->to, p->strs + t->where);
      }
      first = 0;
    }
    if (json) fprintf(out, "%s}\n", !cond && !first ? "]" : "");
  }
  if (!json && n < p->nsites)
    fprintf(out, "(%zu more branches; --top 0 shows them all)\n",
            p->nsites - n);
  free(ix);
  return rp__written(out);
}

/* ---- Rep string instructions ------------------------------------------ */

/* Orders rep sites by where they are (their "object+0xOFF"), then
 * mnemonic and address: the same instruction of a file in several
 * processes comes together. */
static int by_where(const void *a, const void *b) {
  const struct site *x = a, *y = b;
  int c = strcmp(sort_p->strs + x->where, sort_p->strs + y->where);
  if (!c) c = strcmp(x->mnem, y->mnem);
  if (!c) c = x->addr < y->addr ? -1 : x->addr > y->addr;
  return c;
}

static int by_iters(const void *a, const void *b) {
  const struct site *x = a, *y = b;
  if (x->done != y->done) return x->done < y->done ? 1 : -1;
  if (x->execs != y->execs) return x->execs < y->execs ? 1 : -1;
  return same_counts(x, y);
}

/* The rep instructions of P (*OUT, *N; free *OUT), one per instruction:
 * the sites of one instruction of a named file in several processes (or
 * images) are added up; code no symbol names ("0x...") is not merged.
 * The heads no part before was joined to count as executions. */
static int reps_merged(const rp_profile *p, struct site **out, size_t *n) {
  struct site *v = malloc((p->nsites ? p->nsites : 1) * sizeof *v);
  size_t k = 0, m = 0;
  if (!v) return RW_ENOMEM;
  if (p->nsites) memcpy(v, p->sites, p->nsites * sizeof *v);
  for (size_t i = 0; i < p->nheads; i++) {
    const struct rep_part *h = &p->heads[i];
    rp__rep_count(&v[h->site], h->req, h->done, h->how);
  }
  for (size_t i = 0; i < p->nsites; i++)
    if (v[i].kind == SITE_REP && v[i].execs) v[k++] = v[i];
  sort_p = p;
  qsort(v, k, sizeof *v, by_where);
  for (size_t i = 0; i < k; i++) {
    struct site *d = m ? &v[m - 1] : NULL, *x = &v[i];
    const char *w = p->strs + x->where;
    if (!d || !strncmp(w, "0x", 2) || strcmp(w, p->strs + d->where) ||
        strcmp(x->mnem, d->mnem)) {
      v[m++] = *x;
      continue;
    }
    rp__site_sum(d, x);
  }
  qsort(v, m, sizeof *v, by_iters);
  *out = v;
  *n = m;
  return 0;
}

int rp_profile_reps(const rp_profile *p, FILE *out, size_t top, int json) {
  struct site *v;
  size_t ns;
  RW_FORWARD(reps_merged(p, &v, &ns));
  size_t n = top && top < ns ? top : ns;
  if (!json)
    fprintf(out, "%llu rep instructions executed, %llu iterations, by %zu "
                 "instructions\n",
            (unsigned long long)p->nreps, (unsigned long long)p->rep_iters,
            ns);
  if (!json)
    fprintf(out, "%11s %13s %13s %9s %9s %11s %6s %6s %6s  %s\n",
            "executions", "requested", "iterations", "min", "max", "mean",
            "early", "fault", "signal", "instruction");
  for (size_t k = 0; k < n; k++) {
    const struct site *s = &v[k];
    double mean = s->execs ? (double)s->done / (double)s->execs : 0;
    if (json) {
      fprintf(out, "{\"address\":%llu,\"where\":", (unsigned long long)s->addr);
      trace_json_str(out, p->strs + s->where);
      fprintf(out, ",\"instruction\":");
      trace_json_str(out, s->mnem);
      fprintf(out, ",\"executions\":%llu,\"requested\":%llu,"
                   "\"iterations\":%llu,\"min\":%llu,\"max\":%llu,"
                   "\"mean\":%.3f,\"early\":%llu,\"faulted\":%llu,"
                   "\"interrupted\":%llu}\n",
              (unsigned long long)s->execs, (unsigned long long)s->req,
              (unsigned long long)s->done, (unsigned long long)s->lo,
              (unsigned long long)s->hi, mean, (unsigned long long)s->cond,
              (unsigned long long)s->faults, (unsigned long long)s->intr);
    } else {
      fprintf(out, "%11llu %13llu %13llu %9llu %9llu %11.1f %6llu %6llu "
                   "%6llu  %s at %#llx %s\n",
              (unsigned long long)s->execs, (unsigned long long)s->req,
              (unsigned long long)s->done, (unsigned long long)s->lo,
              (unsigned long long)s->hi, mean, (unsigned long long)s->cond,
              (unsigned long long)s->faults, (unsigned long long)s->intr,
              s->mnem, (unsigned long long)s->addr, p->strs + s->where);
    }
  }
  if (!json && n < ns)
    fprintf(out, "(%zu more instructions; --top 0 shows them all)\n",
            ns - n);
  free(v);
  return rp__written(out);
}

/* ---- Call paths ------------------------------------------------------- */

int rp__prof_path_text(const rp_profile *p, u32 node, char **out) {
  *out = NULL;
  if (!node || node > p->nnodes) return 0;
  /* Innermost first, then turned round: root;...;function. */
  const char *names[256];
  size_t n = 0, len = 0;
  int cut = 0;
  for (u32 k = node; k; k = p->nodes[k - 1].parent) {
    if (n == 256) {
      cut = 1;
      break;
    }
    names[n] = p->strs + p->fns[p->nodes[k - 1].fn].name;
    len += strlen(names[n++]) + 1;
  }
  char *t = malloc(len + 5);
  if (!t) return RW_ENOMEM;
  size_t at = 0;
  if (cut) at += (size_t)sprintf(t, "...;");
  while (n--) at += (size_t)sprintf(t + at, "%s%s", names[n], n ? ";" : "");
  *out = t;
  return 0;
}
