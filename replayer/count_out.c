/* SPDX-License-Identifier: MIT */
/* The report of rewind analyze counts (rp_counts_write), and the pieces of
 * analyze counts -j saved and added up (rp_counts_save, rp_counts_add). */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "replayer/count_int.h"

static int selects(const struct rp__counter *c) {
  return c->o.function || c->o.object || c->o.hi > c->o.lo || c->o.src_file;
}

/* ---- The report ------------------------------------------------------- */

/* One line of the report: an instruction, or the same one of a file in
 * several processes, added up. */
struct row {
  const struct insn *in;
  u64 count;
  u64 off; /* from its function's start (with a function) */
};

static const struct rp__counter *sort_c; /* qsort has no context */

/* Same file, function, offset and bytes together; code outside any
 * function by process, address and bytes. */
static int by_place(const void *a, const void *b) {
  const struct row *x = a, *y = b;
  const char *s = sort_c->strs;
  int k = strcmp(s + x->in->object, s + y->in->object);
  if (!k) k = strcmp(s + x->in->fn, s + y->in->fn);
  if (!k && (!x->in->fn_start || !y->in->fn_start))
    k = !x->in->fn_start - !y->in->fn_start;
  if (!k && !x->in->fn_start) k = x->in->pid < y->in->pid ? -1
                                  : x->in->pid > y->in->pid;
  if (!k) k = x->off < y->off ? -1 : x->off > y->off;
  if (!k) k = x->in->len < y->in->len ? -1 : x->in->len > y->in->len;
  if (!k) k = memcmp(x->in->bytes, y->in->bytes, x->in->len);
  if (!k) k = x->in->addr < y->in->addr ? -1 : x->in->addr > y->in->addr;
  return k;
}

static int by_count(const void *a, const void *b) {
  const struct row *x = a, *y = b;
  if (x->count != y->count) return x->count < y->count ? 1 : -1;
  return by_place(a, b);
}

/* Whether rows X and Y (sorted by by_place) are one instruction, the same
 * bytes: at the same offset of a function in any process, or at the same
 * address of one process outside functions (counted in several pieces of
 * a history, or before and after it loaded a library). Code patched or
 * generated in place is a row per version. */
static int same_place(const struct row *x, const struct row *y) {
  if (x->in->fn != y->in->fn || x->in->object != y->in->object ||
      x->in->len != y->in->len || x->off != y->off ||
      memcmp(x->in->bytes, y->in->bytes, x->in->len))
    return 0;
  if (x->in->fn_start && y->in->fn_start) return 1;
  return !x->in->fn_start && !y->in->fn_start && x->in->pid == y->in->pid;
}

/* The selected instructions that ran, merged, into *OUT (*N). */
static int rows_of(const struct rp__counter *c, struct row **out, size_t *n) {
  struct row *v = malloc((c->ninsns ? c->ninsns : 1) * sizeof *v);
  size_t k = 0, m = 0;
  if (!v) return RW_ENOMEM;
  for (size_t i = 0; i < c->ninsns; i++) {
    const struct insn *in = &c->insns[i];
    if (!in->count || !rp__cnt_in_range(c, in) || !rp__cnt_of_kind(c, in))
      continue;
    u64 off = in->fn_start ? in->addr - in->fn_start : in->addr;
    v[k++] = (struct row){in, in->count, off};
  }
  sort_c = c;
  qsort(v, k, sizeof *v, by_place);
  for (size_t i = 0; i < k; i++) {
    if (m && same_place(&v[m - 1], &v[i]))
      v[m - 1].count += v[i].count;
    else
      v[m++] = v[i];
  }
  *out = v;
  *n = m;
  return 0;
}

/* The disassembly of IN into BUF. */
static void disasm(struct rp__counter *c, const struct insn *in, char *buf,
                   size_t cap) {
  const u8 *p = in->bytes;
  size_t n = in->len;
  u64 at = in->addr;
  if (in->bytes[0] != 0x62 && cs_disasm_iter(c->cs, &p, &n, &at, c->ci) &&
      c->ci->size == in->len) {
    snprintf(buf, cap, "%s%s%s", c->ci->mnemonic, c->ci->op_str[0] ? " " : "",
             c->ci->op_str);
    return;
  }
  size_t k = (size_t)snprintf(buf, cap, "(bytes");
  for (unsigned i = 0; i < in->len && k + 4 < cap; i++)
    k += (size_t)snprintf(buf + k, cap - k, " %02x", in->bytes[i]);
  snprintf(buf + k, cap - k, ")");
}

static void where(const struct rp__counter *c, const struct row *r, char *buf,
                  size_t cap) {
  const char *fn = c->strs + r->in->fn, *obj = c->strs + r->in->object;
  if (r->in->fn_start)
    snprintf(buf, cap, "%s+0x%llx (%s)", fn, (unsigned long long)r->off, obj);
  else if (!strncmp(fn, obj, strlen(obj))) /* "file+0xOFF" */
    snprintf(buf, cap, "%s", fn);
  else
    snprintf(buf, cap, "%s (%s)", fn, obj);
}

static const char *const kind_names[5] = {"branch", "call", "ret", "rep",
                                          "memory"};

static void row_json(struct rp__counter *c, const struct row *r, FILE *out) {
  char text[256], w[700];
  disasm(c, r->in, text, sizeof text);
  fprintf(out, "{\"address\":%llu,\"function\":",
          (unsigned long long)r->in->addr);
  trace_json_str(out, c->strs + r->in->fn);
  if (r->in->fn_start)
    fprintf(out, ",\"offset\":%llu", (unsigned long long)r->off);
  fprintf(out, ",\"file\":");
  trace_json_str(out, c->strs + r->in->object);
  fprintf(out, ",\"source\":");
  if (r->in->line) {
    trace_json_str(out, c->strs + r->in->src);
    fprintf(out, ",\"line\":%u", r->in->line);
  } else {
    fprintf(out, "null,\"line\":null");
  }
  snprintf(w, sizeof w, "%s", text);
  fprintf(out, ",\"instruction\":");
  trace_json_str(out, w);
  fprintf(out, ",\"count\":%llu,\"opcode\":%u,\"kinds\":[",
          (unsigned long long)r->count, r->in->opcode);
  for (int k = 0, first = 1; k < 5; k++)
    if (r->in->types & (1u << k)) {
      fprintf(out, "%s\"%s\"", first ? "" : ",", kind_names[k]);
      first = 0;
    }
  fprintf(out, "]}\n");
}

static void row_text(struct rp__counter *c, const struct row *r, u64 whole,
                     FILE *out) {
  char text[256], w[700];
  disasm(c, r->in, text, sizeof text);
  where(c, r, w, sizeof w);
  fprintf(out, "%14llu %6.2f%%  %#14llx  %-40s  %s",
          (unsigned long long)r->count,
          whole ? 100.0 * (double)r->count / (double)whole : 0.0,
          (unsigned long long)r->in->addr, text, w);
  if (r->in->line) { /* its source line, by the file's base name */
    const char *src = c->strs + r->in->src, *slash = strrchr(src, '/');
    fprintf(out, "  %s:%u", slash ? slash + 1 : src, r->in->line);
  }
  fputc('\n', out);
}

/* The instructions of body B, decoded one after the other from its
 * start, into *OUT (*N). Returns 0 or RW_ENOMEM. */
static int body_decode(struct rp__counter *c, const struct body *b,
                       struct insn **out, size_t *n) {
  struct insn *ins = NULL;
  size_t ni = 0, capi = 0;
  int rc = 0;
  if (b->ins) { /* decoded by a piece */
    if (b->nins && !(ins = malloc(b->nins * sizeof *ins))) return RW_ENOMEM;
    if (b->nins) memcpy(ins, b->ins, b->nins * sizeof *ins);
    *out = ins;
    *n = b->nins;
    return 0;
  }
  for (u64 off = 0; off < b->len && rc == 0;) {
    struct insn in = {.addr = b->start + off, .space = b->space,
                      .fn = b->fn, .object = b->object,
                      .fn_start = b->start};
    if (!rp__cnt_decode(c, b->bytes + off, b->len - off, &in)) {
      in.len = 1; /* not code: shown as a byte */
      in.bytes[0] = b->bytes[off];
    }
    const char *src;
    if (rp__lines_find(b->lines, b->vstart + off, &src, &in.line) &&
        (rc = rp__cnt_intern(c, src, &in.src)) < 0)
      break;
    rc = rp__grow((void **)&ins, ni, &capi, sizeof *ins);
    if (rc == 0) ins[ni++] = in;
    off += in.len;
  }
  if (rc < 0) {
    free(ins);
    ins = NULL;
    ni = 0;
  }
  *out = ins;
  *n = ni;
  return rc;
}

/* The whole body of the wanted function in file OBJ, every instruction
 * with its count (0 for those that never ran), merged with the ROWS
 * (N) of that file; Returns 0 or RW_ENOMEM. */
static int listing(struct rp__counter *c, const struct body *b,
                   const struct row *rows, size_t n, u64 whole, int json,
                   FILE *out) {
  struct row *v = NULL;
  struct insn *ins;
  size_t nv = 0, capv = 0, ni;
  int rc = body_decode(c, b, &ins, &ni);
  /* Rows point into INS: build them once INS stops moving. */
  for (size_t i = 0; rc == 0 && i < ni; i++) {
    rc = rp__grow((void **)&v, nv, &capv, sizeof *v);
    if (rc == 0) v[nv++] = (struct row){&ins[i], 0, ins[i].addr - b->start};
  }
  for (size_t i = 0; rc == 0 && i < n; i++) {
    const struct row *r = &rows[i];
    if (r->in->object != b->object || r->in->fn != b->fn) continue;
    size_t lo = 0, hi = ni; /* the body's, in address order */
    while (lo < hi) {
      size_t mid = (lo + hi) / 2;
      if (v[mid].off < r->off) lo = mid + 1; else hi = mid;
    }
    if (lo < ni && v[lo].off == r->off && v[lo].in->len == r->in->len &&
        !memcmp(v[lo].in->bytes, r->in->bytes, r->in->len)) {
      v[lo].count += r->count;
      continue;
    }
    rc = rp__grow((void **)&v, nv, &capv, sizeof *v);
    if (rc == 0) v[nv++] = *r; /* off the linear decoding: its own line */
  }
  if (rc == 0) {
    sort_c = c;
    qsort(v, nv, sizeof *v, by_place);
    if (!json)
      fprintf(out, "%s in %s, %llu bytes at %#llx:\n", c->strs + b->fn,
              c->strs + b->object, (unsigned long long)b->len,
              (unsigned long long)b->start);
    for (size_t i = 0; i < nv; i++) {
      if (!rp__cnt_of_kind(c, v[i].in)) continue;
      if (json)
        row_json(c, &v[i], out);
      else
        row_text(c, &v[i], whole, out);
    }
  }
  free(v);
  free(ins);
  return rc;
}

static void summary_json(const rp_counts *cc, size_t nrows, FILE *out) {
  const struct rp__counter *c = cc->c;
  const struct tally *t = rp__cnt_tally_of(cc);
  const struct rp_count_opts *o = &c->o;
  fprintf(out, "{\"command\":\"counts\",\"function\":");
  if (o->function) trace_json_str(out, o->function); else fprintf(out, "null");
  fprintf(out, ",\"file\":");
  if (o->object) trace_json_str(out, o->object); else fprintf(out, "null");
  if (o->hi > o->lo)
    fprintf(out, ",\"range\":[%llu,%llu]", (unsigned long long)o->lo,
            (unsigned long long)o->hi);
  else
    fprintf(out, ",\"range\":null");
  fprintf(out, ",\"lines\":");
  if (o->src_file) {
    fprintf(out, "{\"source\":");
    trace_json_str(out, o->src_file);
    fprintf(out, ",\"from\":%u,\"to\":%u}", o->line_lo, o->line_hi);
  } else {
    fprintf(out, "null");
  }
  fprintf(out, ",\"kinds\":[");
  for (int k = 0, first = 1; k < 5; k++)
    if (o->kinds & (1u << k)) {
      fprintf(out, "%s\"%s\"", first ? "" : ",", kind_names[k]);
      first = 0;
    }
  fprintf(out, "]");
  if (o->opcode)
    fprintf(out, ",\"opcode\":%u,\"opcode_mask\":%u", o->opval, o->opmask);
  if (o->tid) fprintf(out, ",\"thread\":%u", o->tid);
  else fprintf(out, ",\"thread\":null");
  fprintf(out, ",\"instructions\":%llu,\"in_range\":%llu,"
               "\"history_instructions\":%llu,\"entered\":",
          (unsigned long long)t->selected, (unsigned long long)t->range,
          (unsigned long long)c->total);
  if (selects(c)) fprintf(out, "%llu", (unsigned long long)t->entered);
  else fprintf(out, "null");
  for (int k = 0; k < 5; k++)
    fprintf(out, ",\"%s\":%llu", kind_names[k],
            (unsigned long long)t->kinds[k]);
  fprintf(out, ",\"conditional\":%llu,\"unplaced\":%llu,\"threads\":%u,"
               "\"rows\":%zu}\n",
          (unsigned long long)t->cond, (unsigned long long)c->unplaced,
          c->threads, nrows);
}

static void summary_text(const rp_counts *cc, FILE *out) {
  const struct rp__counter *c = cc->c;
  const struct tally *t = rp__cnt_tally_of(cc);
  const struct rp_count_opts *o = &c->o;
  char sel[600] = "", kinds[200] = "";
  size_t k = 0;
  if (o->function)
    k += (size_t)snprintf(sel + k, sizeof sel - k, " in function %s",
                          o->function);
  if (o->object && k < sizeof sel)
    k += (size_t)snprintf(sel + k, sizeof sel - k, " in file %s", o->object);
  if (o->hi > o->lo && k < sizeof sel)
    k += (size_t)snprintf(sel + k, sizeof sel - k, " in [%#llx, %#llx)",
                          (unsigned long long)o->lo, (unsigned long long)o->hi);
  if (o->src_file && k < sizeof sel && o->line_lo == o->line_hi)
    snprintf(sel + k, sizeof sel - k, " in line %s:%u", o->src_file,
             o->line_lo);
  else if (o->src_file && k < sizeof sel)
    snprintf(sel + k, sizeof sel - k, " in lines %s:%u-%u", o->src_file,
             o->line_lo, o->line_hi);
  k = 0;
  for (int i = 0; i < 5 && k < sizeof kinds; i++)
    if (o->kinds & (1u << i))
      k += (size_t)snprintf(kinds + k, sizeof kinds - k, "%s%s",
                            k ? " or " : " of kind ", kind_names[i]);
  if (o->opcode && k < sizeof kinds)
    snprintf(kinds + k, sizeof kinds - k, "%s opcode & %#x == %#x",
             k ? " and" : " with", o->opmask, o->opval);
  fprintf(out, "%llu instructions%s%s executed (%.2f%% of %llu",
          (unsigned long long)t->selected, kinds, sel,
          c->total ? 100.0 * (double)t->selected / (double)c->total : 0.0,
          (unsigned long long)c->total);
  if (o->tid) fprintf(out, " of thread %u", o->tid);
  fprintf(out, ")");
  if (selects(c))
    fprintf(out, "; entered %llu times", (unsigned long long)t->entered);
  fprintf(out, "\n");
  fprintf(out, "by kind%s: %llu branches (%llu conditional), %llu calls, "
               "%llu returns, %llu rep string, %llu with memory operands\n",
          *sel ? sel : " (all code)", (unsigned long long)t->kinds[0],
          (unsigned long long)t->cond, (unsigned long long)t->kinds[1],
          (unsigned long long)t->kinds[2], (unsigned long long)t->kinds[3],
          (unsigned long long)t->kinds[4]);
  if (c->unplaced)
    fprintf(out, "warning: %llu instructions (%llu distinct runs) could not "
                 "be placed: their code changed under them or could not be "
                 "read; the counts above miss them\n",
            (unsigned long long)c->unplaced, (unsigned long long)c->badruns);
  if (c->unplaced)
    fprintf(out, "warning: the first such run went from %#llx to %#llx\n",
            (unsigned long long)c->bad_start, (unsigned long long)c->bad_end);
}

int rp_counts_write(const rp_counts *cc, FILE *out, size_t top, int json) {
  struct rp__counter *c = cc->c;
  struct row *rows;
  size_t n;
  RW_FORWARD(rows_of(c, &rows, &n));
  int rc = 0, listed = 0;
  if (json) summary_json(cc, n, out);
  else summary_text(cc, out);
  /* A function: all of it, per file, when its bytes were kept. */
  for (size_t i = 0; rc == 0 && c->o.function && i < c->nbodies; i++) {
    const struct body *b = &c->bodies[i];
    int dup = 0;
    for (size_t j = 0; j < i && !dup; j++)
      dup = c->bodies[j].object == b->object && c->bodies[j].fn == b->fn;
    if (dup) continue;
    rc = listing(c, b, rows, n, rp__cnt_tally_of(cc)->range, json, out);
    listed = 1;
  }
  if (rc == 0 && !listed) {
    /* Source lines: all of their code that ran, in address order. */
    sort_c = c;
    if (!c->o.src_file) qsort(rows, n, sizeof *rows, by_count);
    size_t m = top && top < n && !c->o.src_file ? top : n;
    if (!json && m)
      fprintf(out, "%14s %7s  %14s  %-40s  %s\n", "count", "share",
              "address", "instruction", "where");
    for (size_t i = 0; i < m; i++) {
      if (json) row_json(c, &rows[i], out);
      else row_text(c, &rows[i], rp__cnt_tally_of(cc)->range, out);
    }
    if (!json && m < n)
      fprintf(out, "(%zu more instructions; rewind analyze counts --top 0 "
                   "lists them all)\n",
              n - m);
  }
  free(rows);
  return rc < 0 ? rc : rp__written(out);
}

/* ---- Pieces (analyze counts -j) ------------------------------------- */

/* A piece of a history, replayed in a process of its own from a recorder
 * keyframe, saves its counts to a file: the instructions that ran, with
 * their counts, names and kinds; the listing of the wanted function; the
 * heads and tails of its threads (struct cut) and the runs that failed
 * the checks. The parent adds the files up in the history's order. The
 * file is private to a process and its forks. */
#define CMAGIC "RWCNT1"

struct cheader {
  char magic[8];
  u64 total, unplaced, badruns, bad_start, bad_end, entered;
  u32 threads, starters, src_seen, tree; /* tree: a call tree follows */
  u64 ninsns, nstrs, nbodies, nheads, ntails, nbadkeys;
  u64 nwin, win_total, win_min, win_max; /* marks: windows closed */
  u64 nmarks, nmheads, nmtails, npaths;
};

/* A saved call path of a mark: a node of the piece's call tree. */
struct cpath {
  u32 mark, node;
  u64 count;
};

struct cbody {
  u32 fn, object;
  u64 start, len, nins;
};

/* Whether body I of C is the first of its function and file. */
static int body_first(const struct rp__counter *c, size_t i) {
  for (size_t j = 0; j < i; j++)
    if (c->bodies[j].fn == c->bodies[i].fn &&
        c->bodies[j].object == c->bodies[i].object)
      return 0;
  return 1;
}

int rp_counts_save(const rp_counts *cc, FILE *f) {
  struct rp__counter *c = cc->c;
  struct cheader h = {.total = c->total,
                      .unplaced = c->unplaced,
                      .badruns = c->badruns,
                      .bad_start = c->bad_start,
                      .bad_end = c->bad_end,
                      .entered = rp__cnt_tally_of(cc)->entered,
                      .threads = c->threads,
                      .starters = c->starters,
                      .src_seen = (u32)c->src_seen,
                      .nheads = c->nheads,
                      .ntails = c->ntails,
                      .nbadkeys = c->nbadkeys,
                      .nwin = c->nwin,
                      .win_total = c->win_total,
                      .win_min = c->win_min,
                      .win_max = c->win_max,
                      .nmarks = c->o.nmarks,
                      .nmheads = c->nmheads,
                      .nmtails = c->nmtails,
                      .npaths = c->npaths,
                      .tree = c->tree != NULL};
  memcpy(h.magic, CMAGIC, sizeof CMAGIC);
  /* The bodies first: decoding them names their source files. */
  struct insn **bi = calloc(c->nbodies ? c->nbodies : 1, sizeof *bi);
  size_t *bn = calloc(c->nbodies ? c->nbodies : 1, sizeof *bn);
  int rc = bi && bn ? 0 : RW_ENOMEM;
  for (size_t i = 0; rc == 0 && i < c->nbodies; i++)
    if (body_first(c, i)) {
      rc = body_decode(c, &c->bodies[i], &bi[i], &bn[i]);
      h.nbodies++;
    }
  for (size_t i = 0; i < c->ninsns; i++) h.ninsns += c->insns[i].count != 0;
  h.nstrs = c->nstrs;
  if (rc == 0) rc = rp__fput(f, &h, sizeof h);
  for (size_t i = 0; rc == 0 && i < c->ninsns; i++)
    if (c->insns[i].count) rc = rp__fput(f, &c->insns[i], sizeof *c->insns);
  if (rc == 0) rc = rp__fput(f, c->strs, c->nstrs);
  for (size_t i = 0; rc == 0 && i < c->nbodies; i++) {
    const struct body *b = &c->bodies[i];
    if (!body_first(c, i)) continue;
    struct cbody r = {b->fn, b->object, b->start, b->len, bn[i]};
    rc = rp__fput(f, &r, sizeof r);
    if (rc == 0) rc = rp__fput(f, bi[i], bn[i] * sizeof **bi);
  }
  if (rc == 0) rc = rp__fput(f, c->heads, c->nheads * sizeof *c->heads);
  if (rc == 0) rc = rp__fput(f, c->tails, c->ntails * sizeof *c->tails);
  if (rc == 0) rc = rp__fput(f, c->badkeys, c->nbadkeys * sizeof *c->badkeys);
  if (rc == 0) rc = rp__fput(f, c->mstats, c->o.nmarks * sizeof *c->mstats);
  if (rc == 0) rc = rp__fput(f, c->mheads, c->nmheads * sizeof *c->mheads);
  if (rc == 0)
    rc = rp__fput(f, c->hcounts,
                  c->nmheads * c->o.nmarks * sizeof *c->hcounts);
  if (rc == 0) rc = rp__fput(f, c->mtails, c->nmtails * sizeof *c->mtails);
  for (size_t i = 0; rc == 0 && i < c->npaths; i++) {
    struct cpath r = {c->paths[i].mark, c->paths[i].node, c->paths[i].count};
    rc = rp__fput(f, &r, sizeof r);
  }
  if (rc == 0 && c->tree) rc = rp_profile_tree_save(c->tree, f);
  for (size_t i = 0; bi && i < c->nbodies; i++) free(bi[i]);
  free(bi);
  free(bn);
  if (rc == 0 && fflush(f) != 0) rc = RW_ERR(errno ? errno : EIO);
  return rc;
}

/* IN's names, offsets in STRS (N bytes and a NUL), as offsets in C's. */
static int rename_insn(struct rp__counter *c, struct insn *in,
                       const char *strs, u64 n) {
  RW_RETURN_IF(in->fn > n || in->object > n || in->src > n ||
                   in->len > sizeof in->bytes,
               RW_ECORRUPT, "a saved instruction out of bounds");
  RW_FORWARD(rp__cnt_intern(c, strs + in->fn, &in->fn));
  RW_FORWARD(rp__cnt_intern(c, strs + in->object, &in->object));
  if (in->line) RW_FORWARD(rp__cnt_intern(c, strs + in->src, &in->src));
  in->space = 0;
  return 0;
}

/* Reads N items of SIZE from F into a new *OUT (freed by the caller). */
static int read_items(FILE *f, u64 n, size_t size, void **out) {
  *out = NULL;
  RW_RETURN_IF(n > (1ull << 32), RW_ECORRUPT, "a saved count too large");
  if (!n) return 0;
  if (!(*out = malloc(n * size))) return RW_ENOMEM;
  return fread(*out, size, n, f) == n ? 0 : RW_ETRUNC;
}

/* The bodies of a piece (H's, from F) into C: those of functions C has
 * none of yet. */
static int add_bodies(struct rp__counter *c, const struct cheader *h,
                      const char *strs, FILE *f) {
  for (u64 i = 0; i < h->nbodies; i++) {
    struct cbody r;
    RW_RETURN_IF(fread(&r, sizeof r, 1, f) != 1, RW_ETRUNC, "short body");
    RW_RETURN_IF(r.fn > h->nstrs || r.object > h->nstrs, RW_ECORRUPT,
                 "a saved body out of bounds");
    struct insn *ins;
    int rc = read_items(f, r.nins, sizeof *ins, (void **)&ins);
    struct body b = {.start = r.start, .len = r.len, .ins = ins,
                     .nins = r.nins};
    if (rc == 0) rc = rp__cnt_intern(c, strs + r.fn, &b.fn);
    if (rc == 0) rc = rp__cnt_intern(c, strs + r.object, &b.object);
    for (u64 k = 0; rc == 0 && k < r.nins; k++)
      rc = rename_insn(c, &ins[k], strs, h->nstrs);
    int dup = 0;
    for (size_t k = 0; rc == 0 && k < c->nbodies && !dup; k++)
      dup = c->bodies[k].fn == b.fn && c->bodies[k].object == b.object;
    if (rc == 0 && !dup)
      rc = rp__grow((void **)&c->bodies, c->nbodies, &c->capbodies,
                    sizeof *c->bodies);
    if (rc < 0 || dup) {
      free(ins);
      RW_FORWARD(rc);
      continue;
    }
    if (!b.ins && !(b.ins = malloc(1))) return RW_ENOMEM; /* an empty one */
    c->bodies[c->nbodies++] = b;
  }
  return 0;
}

/* C's tail of thread TID (the piece before's), or NULL. */
static const struct cut *tail_of(const struct rp__counter *c, u32 tid) {
  for (size_t k = 0; k < c->ntails; k++)
    if (c->tails[k].tid == tid) return &c->tails[k];
  return NULL;
}

/* The cuts of a piece: its HEADS (N) end the tails of the piece before
 * (C's): a thread whose instruction before the cut was in the selection
 * did not enter it again there. Its TAILS (NT) replace C's. */
static int add_cuts(struct rp__counter *c, struct tally *t,
                    const struct cut *heads, u64 n, struct cut *tails,
                    u64 nt) {
  for (u64 i = 0; i < n; i++) {
    const struct cut *x = &heads[i], *y = tail_of(c, x->tid);
    if (x->in && y && y->was && t->entered) t->entered--;
  }
  /* A thread that ran nothing in the piece is where the piece before
   * left it. */
  for (u64 i = 0; i < nt; i++) {
    const struct cut *y = tails[i].pass ? tail_of(c, tails[i].tid) : NULL;
    if (y) tails[i] = *y;
    tails[i].pass = 0;
  }
  free(c->tails);
  c->tails = tails;
  c->ntails = c->captails = nt;
  return 0;
}

/* The window of thread TID in C (a total), added when new: none open,
 * the thread at its first instruction (a thread the pieces before did not
 * have, or the history's first piece). */
static int mthread_of(struct rp__counter *c, u32 tid, struct mthread **out) {
  for (size_t i = 0; i < c->nmths; i++)
    if (c->mths[i].tid == tid) {
      *out = &c->mths[i];
      return 0;
    }
  RW_FORWARD(rp__grow((void **)&c->mths, c->nmths, &c->capmths,
                      sizeof *c->mths));
  *out = &c->mths[c->nmths++];
  **out = (struct mthread){.tid = tid};
  return 0;
}

/* A counting window of N instructions closed. */
static void window_closed(struct rp__counter *c, u64 n) {
  if (!c->nwin || n < c->win_min) c->win_min = n;
  if (n > c->win_max) c->win_max = n;
  c->nwin++;
  c->win_total += n;
}

/* The marks of a piece (header H, then the rest in F) added to C's: its
 * heads settle what the threads' windows were where it began, from where
 * the pieces before left them; its tails say where it leaves them. */
static int add_marks(struct rp__counter *c, const struct cheader *h,
                     FILE *f) {
  size_t nm = c->o.nmarks;
  RW_RETURN_IF(h->nmarks != nm || (h->nmheads && !nm) ||
                   (h->nmtails && !nm) || h->nmheads > (1ull << 32) ||
                   h->nmtails > (1ull << 32),
               RW_ECORRUPT, "saved marks of other options");
  struct mstat *st = NULL;
  struct mcut *heads = NULL, *tails = NULL;
  u64 *hc = NULL;
  int rc = read_items(f, nm, sizeof *st, (void **)&st);
  if (rc == 0) rc = read_items(f, h->nmheads, sizeof *heads, (void **)&heads);
  if (rc == 0)
    rc = read_items(f, h->nmheads * nm, sizeof *hc, (void **)&hc);
  if (rc == 0) rc = read_items(f, h->nmtails, sizeof *tails, (void **)&tails);
  for (size_t k = 0; rc == 0 && k < nm; k++) {
    c->mstats[k].execs += st[k].execs;
    c->mstats[k].in_win += st[k].in_win;
  }
  if (rc == 0 && h->nwin) {
    if (!c->nwin || h->win_min < c->win_min) c->win_min = h->win_min;
    if (h->win_max > c->win_max) c->win_max = h->win_max;
    c->nwin += h->nwin;
    c->win_total += h->win_total;
  }
  for (u64 i = 0; rc == 0 && i < h->nmheads; i++) {
    const struct mcut *x = &heads[i];
    struct mthread *t;
    rc = mthread_of(c, x->tid, &t);
    if (rc < 0) break;
    for (size_t k = 0; t->open && k < nm; k++)
      c->mstats[k].in_win += hc[i * nm + k];
    if (x->start != ~0ull && !t->open) {
      t->open = 1;
      t->start = t->base + x->start;
    }
    if (x->end != ~0ull && t->open) {
      window_closed(c, t->base + x->end - t->start + 1);
      t->open = 0;
    }
  }
  for (u64 i = 0; rc == 0 && i < h->nmtails; i++) {
    const struct mcut *x = &tails[i];
    struct mthread *t;
    u64 j = 0;
    while (j < h->nmheads && heads[j].tid != x->tid) j++;
    rc = mthread_of(c, x->tid, &t);
    if (rc < 0) break;
    if (j == h->nmheads) /* born in the piece (its id may be reused) */
      *t = (struct mthread){.tid = x->tid};
    if (x->state != 2) t->open = x->state == 1; /* 2: as the head left it */
    if (x->state == 1) t->start = t->base + x->start;
    t->base += x->done;
  }
  /* The threads that ended in the piece have no tail. */
  for (size_t i = 0; rc == 0 && i < c->nmths;) {
    u64 j = 0;
    while (j < h->nmtails && tails[j].tid != c->mths[i].tid) j++;
    if (j == h->nmtails)
      c->mths[i] = c->mths[--c->nmths];
    else
      i++;
  }
  free(st);
  free(heads);
  free(hc);
  free(tails);
  return rc;
}

/* The call paths of a piece (header H, then the rest in F) added to C's:
 * the piece's call tree, joined to the pieces' before, says which of the
 * whole history's paths its nodes are. Returns 0, RW_ERR(ENOTSUP) when
 * the trees cannot be joined exactly (rp_profile_tree_add), or an
 * error. */
static int add_paths(struct rp__counter *c, const struct cheader *h,
                     FILE *f) {
  struct cpath *v = NULL;
  struct rp__pjoin m = {0};
  int rc = read_items(f, h->npaths, sizeof *v, (void **)&v);
  if (rc == 0) rc = rp__prof_paths_join(&c->join, c->o.tid, h->tree, f, &m);
  for (u64 i = 0; rc == 0 && i < h->npaths; i++) {
    u32 node;
    if (v[i].mark >= c->o.nmarks) rc = RW_ECORRUPT;
    if (rc == 0) rc = rp__prof_paths_node(&m, v[i].node, &node);
    if (rc < 0) break;
    size_t before = c->npaths;
    rc = rp__cnt_path_add(c, v[i].mark, node, v[i].count);
    if (rc == 0 && c->npaths > before)
      rc = rp__prof_path_text(c->join, node, &c->paths[before].text);
  }
  free(v);
  free(m.nmap);
  return rc;
}

int rp_counts_add(rp_counts **total, const struct rp_count_opts *o,
                  FILE *f) {
  struct rp_counts_full *full = (struct rp_counts_full *)*total;
  if (!full) {
    struct rp__counter *c;
    RW_FORWARD(rp__cnt_new(NULL, o, &c));
    if (!(full = calloc(1, sizeof *full))) {
      rp__cnt_free(c);
      return RW_ENOMEM;
    }
    full->pub.c = c;
    *total = &full->pub;
  }
  struct rp__counter *c = full->pub.c;
  struct cheader h;
  RW_RETURN_IF(fread(&h, sizeof h, 1, f) != 1 ||
                   memcmp(h.magic, CMAGIC, sizeof CMAGIC),
               RW_ECORRUPT, "not saved counts");
  struct insn *ins = NULL;
  char *strs = NULL;
  struct cut *heads = NULL, *tails = NULL;
  u64 *bad = NULL;
  int rc = read_items(f, h.ninsns, sizeof *ins, (void **)&ins);
  if (rc == 0 && h.nstrs < (1ull << 32) && !(strs = malloc(h.nstrs + 1)))
    rc = RW_ENOMEM;
  if (rc == 0 && h.nstrs >= (1ull << 32)) rc = RW_ECORRUPT;
  if (rc == 0 && fread(strs, 1, h.nstrs, f) != h.nstrs) rc = RW_ETRUNC;
  if (rc == 0) strs[h.nstrs] = 0;
  for (u64 i = 0; rc == 0 && i < h.ninsns; i++) {
    rc = rename_insn(c, &ins[i], strs, h.nstrs);
    if (rc == 0)
      rc = rp__grow((void **)&c->insns, c->ninsns, &c->capinsns,
                    sizeof *c->insns);
    if (rc == 0) c->insns[c->ninsns++] = ins[i];
  }
  if (rc == 0) rc = add_bodies(c, &h, strs, f);
  if (rc == 0) rc = read_items(f, h.nheads, sizeof *heads, (void **)&heads);
  if (rc == 0) rc = read_items(f, h.ntails, sizeof *tails, (void **)&tails);
  if (rc == 0) rc = read_items(f, h.nbadkeys, sizeof *bad, (void **)&bad);
  if (rc == 0) rc = add_marks(c, &h, f);
  if (rc == 0) rc = add_paths(c, &h, f);
  if (rc == 0) {
    full->tl.entered += h.entered;
    rc = add_cuts(c, &full->tl, heads, h.nheads, tails, h.ntails);
    tails = NULL;
  }
  /* A run that failed the checks in several pieces is one. */
  u64 before = c->badruns;
  for (u64 i = 0; rc == 0 && i < h.nbadkeys; i++)
    if (!rp__umap_get(&c->by_bad, bad[i])) {
      rc = rp__umap_put(&c->by_bad, bad[i], 1);
      c->badruns++;
    }
  if (rc == 0) {
    if (!before && h.badruns) {
      c->bad_start = h.bad_start;
      c->bad_end = h.bad_end;
    }
    c->total += h.total;
    c->unplaced += h.unplaced;
    c->threads += h.threads - (c->pieces ? h.starters : 0);
    c->src_seen |= h.src_seen != 0;
    c->pieces++;
    rp__cnt_tally(c, &full->tl);
  }
  free(ins);
  free(strs);
  free(heads);
  free(tails);
  free(bad);
  return rc;
}
