/* SPDX-License-Identifier: MIT */
/* Reads and writes to a data range (rewind analyze accesses): every access
 * an instruction makes to [addr, addr+len) of any process, counted per
 * granule (byte, word, cache line...), per kind, with the unaligned ones
 * (an address that is not a multiple of the size) and those that cross a
 * cache line, by access size, and per instruction that made them. The
 * emulator reports them (cpu_mem_observe, struct cpu_observer.on_access):
 * the range's pages leave the fast TLB, so code that does not touch them
 * runs as fast as without; the kernel's writes (a read(2) into the range)
 * are not instructions and are not counted here. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "replayer/rp_int.h"

/* Most granules a range is cut into (RP_DATA_GRANULES, and one more when
 * the range starts off a granule's start). */
#define GRAN_MAX (RP_DATA_GRANULES + 1)

/* An instruction that accessed the range. */
struct who {
  u64 rip, reads, writes;
  u32 where; /* "function+0xOFF (file)" in strs */
  u32 pid;   /* its process's id in the recording */
};

/* A call path the accesses were made on. */
struct dpath {
  u32 node; /* the profile's node + 1 */
  u64 reads, writes;
  char *text;
};

struct rp_data {
  rp_replay *rp;
  struct rp_data_opts o;
  u64 base, ngran; /* granule I is [base + I * granule, + granule) */
  unsigned gshift;  /* log2 of the granule */
  u64 *reads, *writes, *unaligned; /* per granule */
  u64 nreads, nwrites, ureads, uwrites, split;
  u64 sizes[8]; /* 1, 2, 4, 8, 16, 32, 64 bytes, other */
  struct who *who;
  size_t nwho, capwho;
  struct rp__umap by_rip; /* proc << 48 | rip -> who index + 1 */
  struct dpath *paths;
  size_t npaths, cappaths;
  struct rp__umap by_node; /* node -> paths index + 1 */
  rp_profile *tree;        /* a piece's call tree, whose nodes its paths
                              are (--stacks, analyze accesses -j) */
  rp_profile *join;        /* the total's: the pieces' trees joined */
  char *strs;
  size_t nstrs, capstrs;
  u32 tids[64]; /* the threads seen, up to 64 */
  u32 ntids;
  struct {
    u64 key; /* who_of's answers, by instruction (key + 1; 0: none) */
    u32 who;
  } seen[256];
  u32 last_tid; /* the last thread counted (0: none) */
  int many;     /* more than 64 */
  int err;
};

void rp__data_watch(rp_data *d, cpu_mem *mem) {
  cpu_mem_observe(mem, d->o.addr, d->o.len);
}

/* A new instruction at RIP of process PID, named WHERE, under KEY: its
 * index in *OUT. */
static int who_add(rp_data *d, u64 key, u32 pid, u64 rip, const char *where,
                   u32 *out) {
  size_t n = strlen(where) + 1;
  while (d->nstrs + n > d->capstrs) {
    size_t cap = d->capstrs ? 2 * d->capstrs : 4096;
    char *s = realloc(d->strs, cap);
    if (!s) return RW_ENOMEM;
    d->strs = s;
    d->capstrs = cap;
  }
  RW_FORWARD(rp__grow((void **)&d->who, d->nwho, &d->capwho,
                      sizeof *d->who));
  memcpy(d->strs + d->nstrs, where, n);
  d->who[d->nwho] = (struct who){rip, 0, 0, (u32)d->nstrs, pid};
  d->nstrs += n;
  RW_FORWARD(rp__umap_put(&d->by_rip, key, (u32)d->nwho + 1));
  *out = (u32)d->nwho++;
  return 0;
}

/* The index of the instruction at RIP of thread T, added when new. */
static int who_of(rp_data *d, struct rp__thread *t, u64 rip, u32 *out) {
  u64 key = (u64)t->proc->ix << 48 | (rip & ((1ull << 48) - 1));
  unsigned c = (unsigned)(rip ^ rip >> 8) & 255;
  if (d->seen[c].key == key + 1) { /* a loop's instruction, again */
    *out = d->seen[c].who;
    return 0;
  }
  u32 v = rp__umap_get(&d->by_rip, key);
  if (v) {
    *out = d->seen[c].who = v - 1;
    d->seen[c].key = key + 1;
    return 0;
  }
  char where[800];
  rp__fn_label(d->rp, t, rip, 1, where, sizeof where);
  RW_FORWARD(who_add(d, key, t->proc->pid, rip, where, out));
  d->seen[c].who = *out;
  d->seen[c].key = key + 1;
  return 0;
}

/* The call path NODE's entry, added when new. */
static int path_of(rp_data *d, u32 node, struct dpath **out) {
  u32 v = rp__umap_get(&d->by_node, node);
  if (!v) {
    RW_FORWARD(rp__grow((void **)&d->paths, d->npaths, &d->cappaths,
                        sizeof *d->paths));
    d->paths[d->npaths] = (struct dpath){node, 0, 0, NULL};
    RW_FORWARD(rp__umap_put(&d->by_node, node, (u32)d->npaths + 1));
    v = (u32)++d->npaths;
  }
  *out = &d->paths[v - 1];
  return 0;
}

/* Thread TID accessed the range: one of D's threads (at most 64 named). */
static void tid_seen(rp_data *d, u32 tid) {
  for (u32 i = 0; i < d->ntids; i++)
    if (d->tids[i] == tid) return;
  if (d->ntids < 64) d->tids[d->ntids++] = tid; else d->many = 1;
}

void rp__data_access(rp_data *d, struct rp__thread *t, u64 rip, u64 addr,
                     u32 size, int write, u32 path) {
  u32 w;
  struct dpath *dp = NULL;
  if (d->err) return;
  int rc = who_of(d, t, rip, &w);
  if (rc == 0 && path) rc = path_of(d, path, &dp);
  if (rc < 0) {
    d->err = rc;
    return;
  }
  if (dp) {
    dp->reads += !write;
    dp->writes += write != 0;
  }
  int unal = size > 1 && (addr & (size - 1));
  if (write) {
    d->nwrites++;
    d->uwrites += unal;
    d->who[w].writes++;
  } else {
    d->nreads++;
    d->ureads += unal;
    d->who[w].reads++;
  }
  d->split += (addr & 63) + size > 64;
  unsigned k = size && !(size & (size - 1)) && size <= 64
                   ? (unsigned)__builtin_ctz(size)
                   : 7;
  d->sizes[k]++;
  /* Each granule the access touches counts it once. */
  u64 lo = RW_MAX(addr, d->o.addr), hi = RW_MIN(addr + size, d->o.addr + d->o.len);
  for (u64 g = (lo - d->base) >> d->gshift;
       g < d->ngran && d->base + (g << d->gshift) < hi; g++) {
    if (write) d->writes[g]++; else d->reads[g]++;
    d->unaligned[g] += unal;
  }
  u32 tid = t->st.tid;
  if (tid == d->last_tid) return;
  d->last_tid = tid;
  tid_seen(d, tid);
}

void rp_data_free(rp_data *d) {
  if (!d) return;
  free(d->reads);
  free(d->writes);
  free(d->unaligned);
  free(d->who);
  free(d->strs);
  rp__umap_free(&d->by_rip);
  for (size_t i = 0; i < d->npaths; i++) free(d->paths[i].text);
  free(d->paths);
  rp_profile_free(d->tree);
  rp_profile_free(d->join);
  rp__umap_free(&d->by_node);
  free(d);
}

/* Empty counts of the range of O in *OUT. */
static int data_new(const struct rp_data_opts *o, rp_data **out) {
  *out = NULL;
  u32 g = o->granule ? o->granule : 8;
  RW_RETURN_IF(!o->len || o->addr + o->len < o->addr || (g & (g - 1)) ||
                   g > 4096,
               RW_EINVAL, "bad range or granule");
  u64 ng = (o->len + (o->addr & (g - 1)) + g - 1) / g;
  RW_RETURN_IF(ng > GRAN_MAX, RW_EINVAL, "more than %u granules", GRAN_MAX);
  rp_data *d = calloc(1, sizeof *d);
  if (!d) return RW_ENOMEM;
  d->o = *o;
  d->o.granule = g;
  d->gshift = (unsigned)__builtin_ctz(g);
  /* Granules are aligned: the first starts at or below ADDR. */
  d->base = o->addr & ~(u64)(g - 1);
  d->ngran = ng;
  d->reads = calloc(ng, sizeof *d->reads);
  d->writes = calloc(ng, sizeof *d->writes);
  d->unaligned = calloc(ng, sizeof *d->unaligned);
  if (!d->reads || !d->writes || !d->unaligned) {
    rp_data_free(d);
    return RW_ENOMEM;
  }
  *out = d;
  return 0;
}

static int data_run(rp_replay *rp, const struct rp_data_opts *o, int whole,
                    void (*tick)(void *ctx), void *ctx, rp_data **out,
                    struct rp_stop *stop) {
  *out = NULL;
  rp_data *d;
  RW_FORWARD(data_new(o, &d));
  d->rp = rp;
  /* A piece's paths are nodes of its call tree, which the total joins. */
  int rc = rp__prof_data(rp, o->tid, d, o->stacks, whole, tick, ctx, stop,
                         o->piece ? &d->tree : NULL);
  /* A piece of a history need not have the thread. */
  if (rc == RW_ENOTFOUND && o->piece && o->tid && !d->ntids) rc = 0;
  if (rc == 0) rc = d->err;
  /* The ranges off every address space the replay still has. */
  for (size_t i = 0; i <= rp->nkids; i++) {
    struct rp__proc *p = rp__proc_at(rp, (u32)i);
    if (p->mem) cpu_mem_observe(p->mem, 0, 0);
    if (p->own) cpu_mem_observe(p->own, 0, 0);
  }
  if (rc < 0) {
    rp_data_free(d);
    return rc;
  }
  *out = d;
  return 0;
}

int rp_data_run(rp_replay *rp, const struct rp_data_opts *o, rp_data **out,
                struct rp_stop *stop) {
  return data_run(rp, o, 0, NULL, NULL, out, stop);
}

int rp_data_whole(rp_replay *rp, const struct rp_data_opts *o,
                  void (*tick)(void *ctx), void *ctx, rp_data **out) {
  struct rp_stop stop;
  return data_run(rp, o, 1, tick, ctx, out, &stop);
}

void rp_data_totals(const rp_data *d, u64 *reads, u64 *writes) {
  *reads = d->nreads;
  *writes = d->nwrites;
}

/* ---- Pieces (analyze accesses -j) ------------------------------------- */

#define DATA_MAGIC "RWDATA1"

/* What a piece's file begins with; then reads, writes and unaligned per
 * granule, then each instruction: a struct piece_who and its name. */
struct piece_head {
  char magic[8];
  u64 ngran, nwho;
  u64 nreads, nwrites, ureads, uwrites, split;
  u64 sizes[8];
  u32 tids[64];
  u32 ntids, many;
  u64 npaths; /* then the call paths (struct piece_path), */
  u32 tree, pad; /* and the piece's call tree when TREE */
};

struct piece_path {
  u32 node, pad; /* a node of the piece's call tree + 1, or 0 */
  u64 reads, writes;
};

struct piece_who {
  u64 rip, reads, writes;
  u32 pid, len; /* the name's bytes, its 0 included */
};

int rp_data_save(const rp_data *d, FILE *f) {
  struct piece_head h;
  memset(&h, 0, sizeof h);
  memcpy(h.magic, DATA_MAGIC, sizeof DATA_MAGIC);
  h.ngran = d->ngran;
  h.nwho = d->nwho;
  h.nreads = d->nreads;
  h.nwrites = d->nwrites;
  h.ureads = d->ureads;
  h.uwrites = d->uwrites;
  h.split = d->split;
  memcpy(h.sizes, d->sizes, sizeof h.sizes);
  memcpy(h.tids, d->tids, sizeof h.tids);
  h.ntids = d->ntids;
  h.many = (u32)d->many;
  h.npaths = d->npaths;
  h.tree = d->tree != NULL;
  RW_FORWARD(rp__fput(f, &h, sizeof h));
  RW_FORWARD(rp__fput(f, d->reads, d->ngran * sizeof *d->reads));
  RW_FORWARD(rp__fput(f, d->writes, d->ngran * sizeof *d->writes));
  RW_FORWARD(rp__fput(f, d->unaligned, d->ngran * sizeof *d->unaligned));
  for (size_t i = 0; i < d->nwho; i++) {
    const struct who *w = &d->who[i];
    const char *name = d->strs + w->where;
    struct piece_who p = {w->rip, w->reads, w->writes, w->pid,
                          (u32)strlen(name) + 1};
    RW_FORWARD(rp__fput(f, &p, sizeof p));
    RW_FORWARD(rp__fput(f, name, p.len));
  }
  for (size_t i = 0; i < d->npaths; i++) {
    const struct dpath *x = &d->paths[i];
    struct piece_path p = {x->node, 0, x->reads, x->writes};
    RW_FORWARD(rp__fput(f, &p, sizeof p));
  }
  return d->tree ? rp_profile_tree_save(d->tree, f) : 0;
}

/* The call paths of a piece (header H, the rest in F) added to D's: the
 * piece's call tree, joined to the pieces' before, says which of the
 * whole history's paths its nodes are. Returns 0, RW_ERR(ENOTSUP) when
 * the trees cannot be joined exactly (rp_profile_tree_add), or an
 * error. */
static int add_paths(rp_data *d, const struct piece_head *h, FILE *f) {
  RW_RETURN_IF(h->npaths > (1ull << 32), RW_ECORRUPT, "too many paths");
  struct piece_path *v = malloc((h->npaths ? h->npaths : 1) * sizeof *v);
  struct rp__pjoin m = {0};
  int rc = v ? rp__fget(f, v, h->npaths * sizeof *v) : RW_ENOMEM;
  if (rc == 0) rc = rp__prof_paths_join(&d->join, d->o.tid, h->tree, f, &m);
  for (u64 i = 0; rc == 0 && i < h->npaths; i++) {
    u32 node;
    size_t before = d->npaths;
    struct dpath *x;
    if ((rc = rp__prof_paths_node(&m, v[i].node, &node)) < 0 ||
        (rc = path_of(d, node, &x)) < 0)
      break;
    x->reads += v[i].reads;
    x->writes += v[i].writes;
    if (d->npaths > before) rc = rp__prof_path_text(d->join, node, &x->text);
  }
  free(v);
  free(m.nmap);
  return rc;
}

/* Adds N counts from F to V. */
static int add_counts(FILE *f, u64 *v, u64 n) {
  u64 buf[512];
  for (u64 i = 0; i < n;) {
    size_t k = (size_t)RW_MIN(n - i, (u64)(sizeof buf / sizeof *buf));
    RW_FORWARD(rp__fget(f, buf, k * sizeof *buf));
    for (size_t j = 0; j < k; j++) v[i + j] += buf[j];
    i += k;
  }
  return 0;
}

int rp_data_add(rp_data **total, const struct rp_data_opts *o, FILE *f) {
  struct piece_head h;
  RW_FORWARD(rp__fget(f, &h, sizeof h));
  if (memcmp(h.magic, DATA_MAGIC, sizeof DATA_MAGIC) || h.ntids > 64)
    return RW_ECORRUPT;
  if (!*total) RW_FORWARD(data_new(o, total));
  rp_data *d = *total;
  if (h.ngran != d->ngran) return RW_ECORRUPT;
  d->nreads += h.nreads;
  d->nwrites += h.nwrites;
  d->ureads += h.ureads;
  d->uwrites += h.uwrites;
  d->split += h.split;
  for (int k = 0; k < 8; k++) d->sizes[k] += h.sizes[k];
  for (u32 i = 0; i < h.ntids; i++) tid_seen(d, h.tids[i]);
  d->many |= h.many != 0;
  RW_FORWARD(add_counts(f, d->reads, d->ngran));
  RW_FORWARD(add_counts(f, d->writes, d->ngran));
  RW_FORWARD(add_counts(f, d->unaligned, d->ngran));
  char name[800];
  for (u64 i = 0; i < h.nwho; i++) {
    struct piece_who p;
    RW_FORWARD(rp__fget(f, &p, sizeof p));
    if (!p.len || p.len > sizeof name) return RW_ECORRUPT;
    RW_FORWARD(rp__fget(f, name, p.len));
    if (name[p.len - 1]) return RW_ECORRUPT;
    /* Keyed by a hash of both, the next key on a collision. */
    u64 key = rw_fmix64(p.rip ^ (u64)p.pid << 47);
    u32 v, w = ~0u;
    for (; (v = rp__umap_get(&d->by_rip, key)); key++)
      if (d->who[v - 1].pid == p.pid && d->who[v - 1].rip == p.rip) {
        w = v - 1;
        break;
      }
    if (w == ~0u) RW_FORWARD(who_add(d, key, p.pid, p.rip, name, &w));
    d->who[w].reads += p.reads;
    d->who[w].writes += p.writes;
  }
  return add_paths(d, &h, f);
}

/* ---- The report ------------------------------------------------------- */

static const rp_data *sort_d; /* qsort has no context */

int rp__data_paths(rp_data *d, const rp_profile *p) {
  for (size_t i = 0; i < d->npaths; i++)
    RW_FORWARD(rp__prof_path_text(p, d->paths[i].node, &d->paths[i].text));
  return 0;
}

static int by_path(const void *a, const void *b) {
  const struct dpath *x = a, *y = b;
  u64 m = x->reads + x->writes, n = y->reads + y->writes;
  if (m != n) return m < n ? 1 : -1;
  /* Ties by name, as node numbers differ between a whole replay's tree
   * and the pieces' joined. */
  int c = !x->text || !y->text ? (x->text != NULL) - (y->text != NULL)
                               : strcmp(x->text, y->text);
  if (c) return c;
  return x->node < y->node ? -1 : x->node > y->node;
}

/* The TOP (0: all) call paths, most accesses first. */
static int paths_write(const rp_data *d, FILE *out, size_t top, int json) {
  struct dpath *v = malloc((d->npaths ? d->npaths : 1) * sizeof *v);
  if (!v) return RW_ENOMEM;
  if (d->npaths) memcpy(v, d->paths, d->npaths * sizeof *v);
  qsort(v, d->npaths, sizeof *v, by_path);
  size_t n = top && top < d->npaths ? top : d->npaths;
  if (!json)
    fprintf(out, "the call paths they were made on, most first:\n%13s %13s"
                 "  %s\n",
            "reads", "writes", "call path");
  for (size_t k = 0; k < n; k++) {
    const char *path = v[k].text ? v[k].text : "?";
    if (json) {
      fprintf(out, "{\"kind\":\"path\",\"path\":");
      trace_json_str(out, path);
      fprintf(out, ",\"reads\":%llu,\"writes\":%llu}\n",
              (unsigned long long)v[k].reads, (unsigned long long)v[k].writes);
    } else {
      fprintf(out, "%13llu %13llu  %s\n", (unsigned long long)v[k].reads,
              (unsigned long long)v[k].writes, path);
    }
  }
  if (!json && n < d->npaths)
    fprintf(out, "(%zu more call paths; --top 0 shows them all)\n",
            d->npaths - n);
  free(v);
  return 0;
}

static int by_accesses(const void *a, const void *b) {
  const struct who *x = &sort_d->who[*(const u32 *)a],
                   *y = &sort_d->who[*(const u32 *)b];
  u64 m = x->reads + x->writes, n = y->reads + y->writes;
  if (m != n) return m < n ? 1 : -1;
  return x->rip < y->rip ? -1 : x->rip > y->rip;
}

int rp_data_write(const rp_data *d, FILE *out, size_t top, int all,
                  int json) {
  const struct rp_data_opts *o = &d->o;
  u32 g = o->granule;
  u64 base = d->base;
  static const char *const sz[8] = {"1", "2", "4", "8", "16", "32", "64",
                                    "other"};
  if (json) {
    fprintf(out, "{\"command\":\"accesses\",\"address\":%llu,\"length\":%llu,"
                 "\"granule\":%u,\"thread\":",
            (unsigned long long)o->addr, (unsigned long long)o->len, g);
    if (o->tid) fprintf(out, "%u", o->tid); else fprintf(out, "null");
    fprintf(out, ",\"reads\":%llu,\"writes\":%llu,\"unaligned_reads\":%llu,"
                 "\"unaligned_writes\":%llu,\"line_splits\":%llu,"
                 "\"instructions\":%zu,\"sizes\":{",
            (unsigned long long)d->nreads, (unsigned long long)d->nwrites,
            (unsigned long long)d->ureads, (unsigned long long)d->uwrites,
            (unsigned long long)d->split, d->nwho);
    for (int k = 0; k < 8; k++)
      fprintf(out, "%s\"%s\":%llu", k ? "," : "", sz[k],
              (unsigned long long)d->sizes[k]);
    fprintf(out, "}}\n");
  } else {
    fprintf(out, "accesses by instructions to [%#llx, %#llx) (%llu bytes), "
                 "by granules of %u byte%s",
            (unsigned long long)o->addr,
            (unsigned long long)(o->addr + o->len),
            (unsigned long long)o->len, g, g == 1 ? "" : "s");
    if (o->tid) fprintf(out, ", thread %u", o->tid);
    fprintf(out, ":\n%llu reads (%llu unaligned), %llu writes (%llu "
                 "unaligned), %llu crossing a cache line; by %zu "
                 "instruction%s in %u%s thread%s\nby size:",
            (unsigned long long)d->nreads, (unsigned long long)d->ureads,
            (unsigned long long)d->nwrites, (unsigned long long)d->uwrites,
            (unsigned long long)d->split, d->nwho, d->nwho == 1 ? "" : "s",
            d->ntids, d->many ? "+" : "", d->ntids == 1 ? "" : "s");
    for (int k = 0, first = 1; k < 8; k++)
      if (d->sizes[k]) {
        fprintf(out, "%s %s byte%s: %llu", first ? "" : ",", sz[k],
                k ? "s" : "", (unsigned long long)d->sizes[k]);
        first = 0;
      }
    fprintf(out, "%s\n", d->nreads + d->nwrites ? "" : " none");
    fprintf(out, "%10s %18s %13s %13s %13s\n", "offset", "address", "reads",
                 "writes", "unaligned");
  }
  u64 skipped = 0;
  for (u64 i = 0; i < d->ngran; i++) {
    u64 at = base + i * g;
    if (!all && !d->reads[i] && !d->writes[i]) {
      skipped++;
      continue;
    }
    i64 off = (i64)(at - o->addr);
    if (json)
      fprintf(out, "{\"kind\":\"granule\",\"offset\":%lld,\"address\":%llu,"
                   "\"reads\":%llu,\"writes\":%llu,\"unaligned\":%llu}\n",
              (long long)off, (unsigned long long)at,
              (unsigned long long)d->reads[i],
              (unsigned long long)d->writes[i],
              (unsigned long long)d->unaligned[i]);
    else {
      char o1[32];
      snprintf(o1, sizeof o1, "%s0x%llx", off < 0 ? "-" : "+",
               (unsigned long long)(off < 0 ? -off : off));
      fprintf(out, "%10s %#18llx %13llu %13llu %13llu\n", o1,
              (unsigned long long)at, (unsigned long long)d->reads[i],
              (unsigned long long)d->writes[i],
              (unsigned long long)d->unaligned[i]);
    }
  }
  if (!json && skipped)
    fprintf(out, "(%llu granules no instruction accessed left out; --all "
                 "shows them)\n",
            (unsigned long long)skipped);
  u32 *ix = malloc((d->nwho ? d->nwho : 1) * sizeof *ix);
  if (!ix) return RW_ENOMEM;
  for (u32 i = 0; i < d->nwho; i++) ix[i] = i;
  sort_d = d;
  qsort(ix, d->nwho, sizeof *ix, by_accesses);
  size_t n = top && top < d->nwho ? top : d->nwho;
  if (!json && n)
    fprintf(out, "the instructions that made them, most first:\n%13s %13s "
                 "%18s  %s\n",
            "reads", "writes", "address", "where");
  for (size_t k = 0; k < n; k++) {
    const struct who *w = &d->who[ix[k]];
    if (json) {
      fprintf(out, "{\"kind\":\"instruction\",\"address\":%llu,\"where\":",
              (unsigned long long)w->rip);
      trace_json_str(out, d->strs + w->where);
      fprintf(out, ",\"reads\":%llu,\"writes\":%llu}\n",
              (unsigned long long)w->reads, (unsigned long long)w->writes);
    } else {
      fprintf(out, "%13llu %13llu %#18llx  %s\n", (unsigned long long)w->reads,
              (unsigned long long)w->writes, (unsigned long long)w->rip,
              d->strs + w->where);
    }
  }
  if (!json && n < d->nwho)
    fprintf(out, "(%zu more instructions; --top 0 shows them all)\n",
            d->nwho - n);
  free(ix);
  if (o->stacks) RW_FORWARD(paths_write(d, out, top, json));
  return rp__written(out);
}
