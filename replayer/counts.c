/* SPDX-License-Identifier: MIT */
/* Exact instruction counts (rewind analyze counts): how often each
 * instruction of the history ran, by thread-independent straight runs.
 * The profile's observers hand every taken branch (call, ret, jump) of a
 * thread here, and the replayer every move it makes a thread do (a signal,
 * a syscall's return, a restart, an exec). Between two of those a thread
 * runs straight: from the run's first instruction, one after the other,
 * as many instructions as its count says (a rep instruction counts once
 * however many iterations it ran). A run is keyed by its process image,
 * the instruction before it, its start and its length; a new one is
 * decoded once from the memory it just ran in, checked (no jump inside it,
 * its last instruction where the branch was), and its instructions listed;
 * a known one is only counted. At the end each run's count goes to each of
 * its instructions. Runs that fail the check (code that changed under
 * them, code that cannot be read) are counted as unplaced, and the report
 * says so: counts are exact or say by how much they are not. */
#include <capstone/capstone.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "common/digest.h"
#include "replayer/rp_int.h"

/* Longest run decoded; a longer one cannot be straight code. */
#define RUN_MAX (1u << 20)
/* Largest function body kept for a --function listing. */
#define BODY_MAX (256u << 10)

/* Kinds only the checks use, beside the RP_COUNT_* ones. */
enum { T_COND = 64, T_JUMP = 128 };

struct insn {
  u64 addr, count;
  u64 fn_start;     /* its function's first address, or 0 */
  u32 space;
  u32 fn, object;   /* offsets in strs: the function (rp__fn_name) */
  u32 opcode;
  u32 mark;         /* the first mark it is in: index + 1, or 0 */
  int wanted;       /* in the function of --function (by any name) */
  int in_lines;     /* in the source lines of --lines */
  u32 src, line;    /* its source file (offset in strs) and line; line 0:
                       none known */
  u64 marks;        /* bit K: it is in mark K too (the first 64) */
  u8 len, types;
  u8 bytes[15];
};

struct run {
  u64 start, src, len, count;
  u64 last;  /* where its last instruction is */
  u64 first; /* its instructions' indexes: pool[first .. first + len) */
  u32 space;
  int bad;    /* it failed the checks: its instructions are unplaced */
  int marked; /* some of its instructions are marked */
};

struct space {
  u32 proc_ix;
  size_t nimages;
};

/* A function's bytes, for a listing of all of its instructions. */
struct body {
  u32 space, fn, object;
  u64 start;
  const struct rp__lines *lines; /* its file's line table (or NULL) and */
  u64 vstart;                    /* the ELF address of START */
  u8 *bytes;
  size_t len;
};

/* A thread's current run. */
struct cthread {
  struct rp__thread *t;
  u32 space;
  u64 start, src, n0, extra;
  u64 done;      /* instructions it ran (a rep instruction once) */
  int win;       /* its counting window is open, since instruction */
  u64 win_start; /*   win_start */
  u64 partial; /* a rep instruction here ran some iterations and stopped
                  (a fault, a signal): it counts, rip still at it */
};

/* What a mark saw. */
struct mstat {
  u64 execs, in_win;
};

/* A call path a mark ran on, and how often. */
struct mpath {
  u32 mark, node; /* node: the profile's + 1, or 0 */
  u64 count;
  char *text;     /* "main;f;g", once rp__counter_paths made it */
};

struct rp__counter {
  rp_replay *rp;
  struct rp_count_opts o;
  struct rp_mark *marks;  /* copies of o.marks (strings too) */
  struct mstat *mstats;
  struct mpath *paths;
  size_t npaths, cappaths;
  struct rp__umap by_path; /* mark << 32 | node -> paths index + 1 */
  u64 pkey[256];           /* by_path's recent answers (key + 1; 0: none) */
  u32 pix[256];
  u64 nwin, win_total, win_min, win_max; /* closed counting windows */
  char *want_fn, *want_obj; /* copies of o.function, o.object */
  char *want_src;           /* copy of o.src_file */
  int src_seen;             /* some instruction came from want_src */
  csh cs;
  cs_insn *ci;
  struct insn *insns;
  size_t ninsns, capinsns;
  struct rp__umap by_insn; /* space << 48 | addr -> insn index + 1 */
  struct run *runs;
  size_t nruns, capruns;
  u32 *slots;              /* runs by key: index + 1; a power of 2 */
  size_t capslots;
  u32 recent[1024];        /* runs by their start's low bits, index + 1:
                              tried before the hash (a loop's runs) */
  u32 *pool;
  size_t npool, cappool;
  struct space *spaces;
  size_t nspaces, capspaces;
  struct body *bodies;
  size_t nbodies, capbodies;
  char *strs;
  size_t nstrs, capstrs;
  struct rp__umap by_str;  /* hash of a string -> offset + 1 */
  struct rp__umap aliases; /* hash of a function and a name -> 1 when the
                              name is the function's too, 2 when not */
  u64 total;     /* instructions counted, placed or not */
  u64 unplaced;  /* of those, in runs that failed the checks */
  u64 badruns;
  u64 bad_start, bad_end; /* the first such run's start and end */
  u32 threads;
  int err;
};

struct rp_counts {
  struct rp__counter *c;
};

/* S kept once in the string pool, its offset into *OFF. */
static int intern(struct rp__counter *c, const char *s, u32 *off) {
  u64 h = rp__str_hash(s);
  u32 v = rp__umap_get(&c->by_str, h);
  if (v && !strcmp(c->strs + v - 1, s)) {
    *off = v - 1;
    return 0;
  }
  size_t n = strlen(s) + 1;
  while (c->nstrs + n > c->capstrs) {
    size_t cap = c->capstrs ? 2 * c->capstrs : 4096;
    char *ns = realloc(c->strs, cap);
    if (!ns) return RW_ENOMEM;
    c->strs = ns;
    c->capstrs = cap;
  }
  RW_RETURN_IF(c->nstrs + n > 0xffffffffu, RW_ENOMEM, "too many names");
  memcpy(c->strs + c->nstrs, s, n);
  *off = (u32)c->nstrs;
  c->nstrs += n;
  if (!v) RW_FORWARD(rp__umap_put(&c->by_str, h, *off + 1));
  return 0;
}

static int space_of(struct rp__counter *c, struct rp__thread *t, u32 *out) {
  for (size_t i = 0; i < c->nspaces; i++)
    if (c->spaces[i].proc_ix == t->proc->ix &&
        c->spaces[i].nimages == t->proc->nimages) {
      *out = (u32)i;
      return 0;
    }
  RW_RETURN_IF(c->nspaces >= 0xffff, RW_ENOMEM, "too many program images");
  RW_FORWARD(rp__grow((void **)&c->spaces, c->nspaces, &c->capspaces,
                  sizeof *c->spaces));
  c->spaces[c->nspaces] = (struct space){t->proc->ix, t->proc->nimages};
  *out = (u32)c->nspaces++;
  return 0;
}

/* ---- Decoding --------------------------------------------------------- */

/* What the emulator decodes itself (cpu_insn_length): VEX and EVEX forms,
 * movdiri, movdir64b and the like. Their kinds and opcode from the
 * bytes: a memory operand when ModRM's mod is not 3. */
static void own_kinds(const u8 *b, unsigned len, struct insn *in) {
  unsigned i = 0, map = 1, modrm = 0;
  while (i < len && (b[i] == 0x66 || b[i] == 0xf2 || b[i] == 0xf3 ||
                     (b[i] & 0xf0) == 0x40))
    i++;
  if (i + 5 < len && b[i] == 0x62) { /* EVEX: 62 P0 P1 P2 op modrm */
    map = b[i + 1] & 7;
    in->opcode = b[i + 4];
    modrm = b[i + 5];
  } else if (i + 4 < len && b[i] == 0xc4) { /* c4 RXBm Wvvvv op modrm */
    map = b[i + 1] & 0x1f;
    in->opcode = b[i + 3];
    modrm = b[i + 4];
  } else if (i + 3 < len && b[i] == 0xc5) { /* c5 Rvvvv op modrm */
    in->opcode = b[i + 2];
    modrm = b[i + 3];
  } else if (i + 3 < len && b[i] == 0x0f) {
    map = b[i + 1] == 0x38 ? 2 : b[i + 1] == 0x3a ? 3 : 1;
    in->opcode = b[i + (map == 1 ? 1 : 2)];
    modrm = b[i + (map == 1 ? 2 : 3)];
  } else {
    return;
  }
  in->opcode |= map == 2 ? 0x0f3800u : map == 3 ? 0x0f3a00u : 0x0f00u;
  if ((modrm >> 6) != 3 && !(map == 1 && in->opcode >= 0x0f18 &&
                             in->opcode <= 0x0f1f)) /* hint nops */
    in->types |= RP_COUNT_MEM;
}

/* Kinds and opcode of the instruction Capstone decoded into C->ci. */
static void cs_kinds(struct rp__counter *c, struct insn *in) {
  const cs_insn *ci = c->ci;
  unsigned id = ci->id;
  const cs_x86 *x = &ci->detail->x86;
  if (rp__insn_is_cond(id)) in->types |= RP_COUNT_BRANCH | T_COND;
  if (id == X86_INS_JMP || id == X86_INS_LJMP) in->types |= RP_COUNT_BRANCH;
  if (id == X86_INS_CALL || id == X86_INS_LCALL) in->types |= RP_COUNT_CALL;
  if (id == X86_INS_RET || id == X86_INS_RETF) in->types |= RP_COUNT_RET;
  if (rp__insn_is_jump(id)) in->types |= T_JUMP;
  if ((x->prefix[0] == X86_PREFIX_REP || x->prefix[0] == X86_PREFIX_REPNE) &&
      !strncmp(ci->mnemonic, "rep", 3))
    in->types |= RP_COUNT_REP;
  int mem = id == X86_INS_PUSH || id == X86_INS_POP ||
            id == X86_INS_PUSHFQ || id == X86_INS_POPFQ ||
            id == X86_INS_LEAVE || id == X86_INS_ENTER ||
            (in->types & (RP_COUNT_CALL | RP_COUNT_RET));
  for (unsigned k = 0; !mem && k < x->op_count; k++)
    mem = x->operands[k].type == X86_OP_MEM;
  if (id == X86_INS_LEA || id == X86_INS_NOP) mem = 0;
  if (mem) in->types |= RP_COUNT_MEM;
  const u8 *op = x->opcode;
  if (op[0] == 0x0f && (op[1] == 0x38 || op[1] == 0x3a))
    in->opcode = 0x0f0000u | (u32)op[1] << 8 | op[2];
  else if (op[0] == 0x0f)
    in->opcode = 0x0f00u | op[1];
  else
    in->opcode = op[0];
}

/* Decodes the instruction at IN->addr from the N bytes at CODE into IN
 * (length, bytes, kinds, opcode). Returns 1, or 0 when it cannot. */
static int decode(struct rp__counter *c, const u8 *code, size_t n,
                  struct insn *in) {
  size_t k = RW_MIN(n, 15), i = 0;
  const u8 *p = code;
  u64 at = in->addr;
  while (i < k && (code[i] == 0x66 || code[i] == 0xf2 || code[i] == 0xf3 ||
                   (code[i] & 0xf0) == 0x40))
    i++;
  /* EVEX as the emulator decodes it (Capstone 4 knows only part of it);
   * the rest as Capstone does, or the emulator when Capstone cannot. */
  if ((i == k || code[i] != 0x62) && cs_disasm_iter(c->cs, &p, &k, &at,
                                                    c->ci)) {
    in->len = (u8)c->ci->size;
    cs_kinds(c, in);
  } else {
    unsigned own = cpu_insn_length(code, (unsigned)RW_MIN(n, 15), in->addr);
    if (!own) return 0;
    in->len = (u8)own;
    own_kinds(code, own, in);
  }
  memcpy(in->bytes, code, in->len);
  return 1;
}

/* Whether IN's function is also called NAME (with rp->proc its process):
 * asked once per function and name. */
static int alias(struct rp__counter *c, const struct insn *in,
                 const char *name) {
  u64 key = rw_fmix64(in->fn_start ^ rp__str_hash(name)) | 1;
  u32 v = rp__umap_get(&c->aliases, key);
  if (!v) {
    v = rp__fn_named(c->rp, in->fn_start, name) ? 1 : 2;
    if (rp__umap_put(&c->aliases, key, v) < 0) return v == 1;
  }
  return v == 1;
}

/* The marks instruction IN, in function NAME of file OBJECT, is in: the
 * first (index + 1, or 0) and the set of the first 64 into IN->marks;
 * with rp->proc its process. */
static u32 mark_of(struct rp__counter *c, struct insn *in, const char *name,
                   const char *object) {
  u32 first = 0;
  for (size_t k = 0; k < c->o.nmarks; k++) {
    const struct rp_mark *m = &c->marks[k];
    u64 at = in->addr, v;
    if (m->function) {
      if (!in->fn_start || (strcmp(name, m->function) &&
                            !alias(c, in, m->function)))
        continue;
      at = in->addr - in->fn_start;
    } else if (m->object) {
      if (strcmp(object, m->object) || !rp__elf_vaddr(c->rp, in->addr, &v))
        continue;
      at = v;
    }
    if (at < m->addr || at - m->addr >= m->len) continue;
    if (!first) first = (u32)k + 1;
    if (k < 64) in->marks |= 1ull << k;
  }
  return first;
}

/* Names the function of IN (of thread T's process at this point). */
static int name_of(struct rp__counter *c, struct rp__thread *t,
                   struct insn *in) {
  char name[512], object[256];
  rp_replay *rp = c->rp;
  struct rp__proc *was = rp->proc;
  u64 start, size;
  rp->proc = t->proc;
  rp__fn_name(rp, in->addr, name, sizeof name, object, sizeof object);
  in->fn_start = rp__fn_span(rp, in->addr, &start, &size) ? start : 0;
  in->mark = mark_of(c, in, name, object);
  in->wanted = c->want_fn && in->fn_start &&
               (!strcmp(name, c->want_fn) || alias(c, in, c->want_fn));
  const char *src;
  u32 line;
  if (!c->o.marks_only && rp__src_line(rp, in->addr, &src, &line)) {
    RW_FORWARD(intern(c, src, &in->src));
    in->line = line;
    if (c->want_src && rp_src_matches(src, c->want_src)) {
      c->src_seen = 1;
      in->in_lines = line >= c->o.line_lo && line <= c->o.line_hi;
    }
  }
  u64 vstart = 0;
  const struct rp__lines *lines =
      in->wanted ? rp__lines_at(rp, start, &vstart) : NULL;
  rp->proc = was;
  RW_FORWARD(intern(c, name, &in->fn));
  RW_FORWARD(intern(c, object, &in->object));
  /* A function the listing wants: its whole body, once per image. */
  if (!in->wanted || size > BODY_MAX) return 0;
  for (size_t i = 0; i < c->nbodies; i++)
    if (c->bodies[i].space == in->space && c->bodies[i].start == start)
      return 0;
  u8 *bytes = malloc(size ? size : 1);
  if (!bytes) return RW_ENOMEM;
  if (cpu_mem_read(t->proc->mem, start, bytes, size) < 0 ||
      rp__grow((void **)&c->bodies, c->nbodies, &c->capbodies,
           sizeof *c->bodies) < 0) {
    free(bytes);
    return 0; /* listed from the instructions that ran alone */
  }
  c->bodies[c->nbodies++] =
      (struct body){in->space, in->fn, in->object, start, lines, vstart,
                    bytes, size};
  return 0;
}

/* The instruction at A in thread T's space SP: its index into *OUT, found
 * or decoded from T's memory. Returns 0, 1 when it cannot be read or
 * decoded, or RW_ENOMEM. */
static int insn_at(struct rp__counter *c, struct rp__thread *t, u32 sp,
                   u64 a, u32 *out) {
  if (a >= (1ull << 47)) return 1;
  u64 key = (u64)sp << 48 | a;
  u32 v = rp__umap_get(&c->by_insn, key);
  if (v) {
    *out = v - 1;
    return 0;
  }
  u8 code[15];
  size_t len = sizeof code;
  /* The bytes up to a page end, then what follows may be unmapped. */
  if (cpu_mem_read(t->proc->mem, a, code, len) < 0) {
    len = CPU_PAGE_SIZE - (a & (CPU_PAGE_SIZE - 1));
    if (len > sizeof code || cpu_mem_read(t->proc->mem, a, code, len) < 0)
      return 1;
  }
  struct insn in = {.addr = a, .space = sp};
  if (!decode(c, code, len, &in)) return 1;
  RW_FORWARD(name_of(c, t, &in));
  RW_RETURN_IF(c->ninsns >= 0xfffffff0u, RW_ENOMEM, "too many instructions");
  RW_FORWARD(rp__grow((void **)&c->insns, c->ninsns, &c->capinsns,
                  sizeof *c->insns));
  c->insns[c->ninsns] = in;
  RW_FORWARD(rp__umap_put(&c->by_insn, key, (u32)c->ninsns + 1));
  *out = (u32)c->ninsns++;
  return 0;
}

/* Lists the instructions of new run R (of thread T) into the pool and
 * checks them: straight code, ending as the run's end says (AT the last
 * instruction when LAST, else the one after it). Returns 0 (R->bad set
 * when the checks fail) or RW_ENOMEM. */
static int decode_run(struct rp__counter *c, struct rp__thread *t,
                      struct run *r, u64 at, int last) {
  r->first = c->npool;
  if (r->len > RUN_MAX) {
    r->bad = 1;
    return 0;
  }
  u64 a = r->start;
  for (u64 i = 0; i < r->len; i++) {
    u32 ix;
    int rc = insn_at(c, t, r->space, a, &ix);
    if (rc < 0) return rc;
    const struct insn *in = &c->insns[ix];
    if (rc > 0 || (i + 1 < r->len && (in->types & T_JUMP))) {
      r->bad = 1;
      break;
    }
    RW_FORWARD(rp__grow((void **)&c->pool, c->npool, &c->cappool,
                    sizeof *c->pool));
    c->pool[c->npool++] = ix;
    r->marked |= in->mark != 0;
    r->last = a;
    a += in->len;
  }
  if (!r->bad && (last ? r->last != at : a != at)) r->bad = 1;
  if (r->bad) c->npool = r->first; /* nothing of it is kept */
  return 0;
}

static u64 run_hash(u32 sp, u64 src, u64 start, u64 len) {
  return rw_fmix64(start ^ rw_fmix64(len + ((u64)sp << 40)) ^
                   (src * 0x9e3779b97f4a7c15ull));
}

static int slots_grow(struct rp__counter *c) {
  size_t cap = c->capslots ? 2 * c->capslots : 4096;
  u32 *v = calloc(cap, sizeof *v);
  if (!v) return RW_ENOMEM;
  for (size_t i = 0; i < c->nruns; i++) {
    const struct run *r = &c->runs[i];
    size_t k = run_hash(r->space, r->src, r->start, r->len) & (cap - 1);
    while (v[k]) k = (k + 1) & (cap - 1);
    v[k] = (u32)i + 1;
  }
  free(c->slots);
  c->slots = v;
  c->capslots = cap;
  return 0;
}

/* Mark K ran on call path NODE (the profile's + 1): counted. */
static int path_seen(struct rp__counter *c, u32 k, u32 node) {
  u64 key = (u64)k << 32 | node;
  unsigned q = (node ^ k * 131u) & 255;
  if (c->pkey[q] == key + 1) {
    c->paths[c->pix[q]].count++;
    return 0;
  }
  u32 v = rp__umap_get(&c->by_path, key);
  if (!v) {
    RW_FORWARD(rp__grow((void **)&c->paths, c->npaths, &c->cappaths,
                        sizeof *c->paths));
    c->paths[c->npaths] = (struct mpath){k, node, 0, NULL};
    RW_FORWARD(rp__umap_put(&c->by_path, key, (u32)c->npaths + 1));
    v = (u32)++c->npaths;
  }
  c->paths[v - 1].count++;
  c->pkey[q] = key + 1;
  c->pix[q] = v - 1;
  return 0;
}

/* Mark K ran as thread X's AT-th instruction, on call path PATH: counted,
 * in or out of X's counting window, which it may open or close. */
static int mark_ran(struct rp__counter *c, struct cthread *x, u32 k, u64 at,
                    u32 path) {
  const struct rp_mark *m = &c->marks[k];
  struct mstat *st = &c->mstats[k];
  if ((m->flags & RP_MARK_START) && !x->win) {
    x->win = 1;
    x->win_start = at;
  }
  st->execs++;
  st->in_win += x->win != 0;
  if ((m->flags & RP_MARK_STACK) || (m->every && st->execs % m->every == 0))
    RW_FORWARD(path_seen(c, k, path));
  if ((m->flags & RP_MARK_END) && x->win) {
    u64 n = at - x->win_start + 1;
    x->win = 0;
    if (!c->nwin || n < c->win_min) c->win_min = n;
    if (n > c->win_max) c->win_max = n;
    c->nwin++;
    c->win_total += n;
  }
  return 0;
}

/* The marked instructions of run R, just run by thread X on call path
 * PATH, each mark an instruction is in, in order (past the 64th mark, the
 * first it is in alone). */
static int run_marks(struct rp__counter *c, struct cthread *x,
                     const struct run *r, u32 path) {
  for (u64 i = 0; i < r->len; i++) {
    const struct insn *in = &c->insns[c->pool[r->first + i]];
    if (!in->mark) continue;
    if (!in->marks) {
      RW_FORWARD(mark_ran(c, x, in->mark - 1, x->done + i, path));
      continue;
    }
    for (u64 set = in->marks; set; set &= set - 1)
      RW_FORWARD(mark_ran(c, x, (u32)__builtin_ctzll(set), x->done + i,
                          path));
  }
  return 0;
}

/* Run R of thread X ended, LEN instructions: its marks, X's count. */
static int run_done(struct rp__counter *c, struct cthread *x,
                    const struct run *r, u64 len, u32 path) {
  int rc = r->marked && !r->bad ? run_marks(c, x, r, path) : 0;
  x->done += len;
  return rc;
}

/* The run X of thread T ends at AT (as decode_run says, with LAST) after
 * its count reached N: counted, and listed when new. Returns 0 or
 * RW_ENOMEM; *LASTAT is where its last instruction was (0 when none
 * ran). */
static int run_end(struct rp__counter *c, struct cthread *x, u64 n, u64 at,
                   int last, u32 path, u64 *lastat) {
  *lastat = 0;
  if (n <= x->n0 + x->extra) return 0;
  u64 len = n - x->n0 - x->extra;
  c->total += len;
  u32 *rc = &c->recent[(x->start ^ x->src >> 4) & 1023];
  if (*rc) {
    struct run *r = &c->runs[*rc - 1];
    if (r->start == x->start && r->len == len && r->src == x->src &&
        r->space == x->space) {
      r->count++;
      if (r->bad) c->unplaced += len;
      *lastat = r->bad ? at : r->last;
      return run_done(c, x, r, len, path);
    }
  }
  if (2 * (c->nruns + 1) > c->capslots) RW_FORWARD(slots_grow(c));
  size_t k = run_hash(x->space, x->src, x->start, len) & (c->capslots - 1);
  for (; c->slots[k]; k = (k + 1) & (c->capslots - 1)) {
    struct run *r = &c->runs[c->slots[k] - 1];
    if (r->start != x->start || r->len != len || r->src != x->src ||
        r->space != x->space)
      continue;
    r->count++;
    if (r->bad) c->unplaced += len;
    *lastat = r->bad ? at : r->last;
    *rc = c->slots[k];
    return run_done(c, x, r, len, path);
  }
  RW_RETURN_IF(c->nruns >= 0xfffffff0u, RW_ENOMEM, "too many runs");
  RW_FORWARD(rp__grow((void **)&c->runs, c->nruns, &c->capruns,
                  sizeof *c->runs));
  struct run *r = &c->runs[c->nruns];
  *r = (struct run){.start = x->start, .src = x->src, .len = len,
                    .count = 1, .space = x->space};
  RW_FORWARD(decode_run(c, x->t, r, at, last));
  c->slots[k] = (u32)++c->nruns;
  *rc = c->slots[k];
  if (r->bad) {
    c->unplaced += len;
    c->badruns++;
    if (c->badruns == 1) { /* the first one, for the report */
      c->bad_start = r->start;
      c->bad_end = at;
    }
  }
  *lastat = r->bad ? at : r->last;
  return run_done(c, x, r, len, path);
}

/* ---- The hooks -------------------------------------------------------- */

void rp__counter_jump(struct rp__counter *c, void **state, u64 from, u64 to,
                      u64 n, u32 path) {
  struct cthread *x = *state;
  u64 lastat;
  if (!x || c->err) return;
  int rc = run_end(c, x, n + 1, from, 1, path, &lastat);
  if (rc < 0) c->err = rc;
  x->src = from;
  x->start = to;
  x->n0 = n + 1;
  x->extra = x->partial = 0;
}

void rp__counter_rep(struct rp__counter *c, void **state, u64 at,
                     u64 done, int how) {
  struct cthread *x = *state;
  (void)c;
  if (!x) return;
  if (done > 1) x->extra += done - 1;
  if (done && (how == CPU_REP_FAULT || how == CPU_REP_INTERRUPTED))
    x->partial = at;
}

int rp__counter_moved(struct rp__counter *c, void **state,
                      struct rp__thread *t, u64 at, int executed, u32 path) {
  struct cthread *x = *state;
  u64 lastat = 0;
  if (!x) {
    if (!(x = calloc(1, sizeof *x))) return RW_ENOMEM;
    x->t = t;
    *state = x;
    c->threads++;
  } else if (!c->err) {
    executed |= x->partial && x->partial == at;
    int rc = run_end(c, x, cpu_icount(t->cpu), at, executed, path, &lastat);
    if (rc < 0) c->err = rc;
  }
  RW_FORWARD(space_of(c, t, &x->space));
  x->src = lastat; /* 0: no instruction before it */
  x->start = cpu_rip(t->cpu);
  x->n0 = cpu_icount(t->cpu);
  x->extra = x->partial = 0;
  return 0;
}

void rp__counter_end(struct rp__counter *c, void **state, u32 path) {
  struct cthread *x = *state;
  u64 lastat;
  if (!x) return;
  if (!c->err) {
    int rc = run_end(c, x, cpu_icount(x->t->cpu), cpu_rip(x->t->cpu), 0,
                     path, &lastat);
    if (rc < 0) c->err = rc;
  }
  free(x);
  *state = NULL;
}

/* ---- The run ---------------------------------------------------------- */

static void counter_free(struct rp__counter *c) {
  if (!c) return;
  for (size_t i = 0; c->marks && i < c->o.nmarks; i++) {
    free((char *)c->marks[i].function);
    free((char *)c->marks[i].object);
    free((char *)c->marks[i].text);
  }
  free(c->marks);
  free(c->mstats);
  for (size_t i = 0; i < c->npaths; i++) free(c->paths[i].text);
  free(c->paths);
  rp__umap_free(&c->by_path);
  if (c->ci) cs_free(c->ci, 1);
  if (c->cs) cs_close(&c->cs);
  for (size_t i = 0; i < c->nbodies; i++) free(c->bodies[i].bytes);
  free(c->bodies);
  free(c->want_fn);
  free(c->want_obj);
  free(c->want_src);
  free(c->insns);
  rp__umap_free(&c->by_insn);
  rp__umap_free(&c->by_str);
  rp__umap_free(&c->aliases);
  free(c->runs);
  free(c->slots);
  free(c->pool);
  free(c->spaces);
  free(c->strs);
  free(c);
}

static int counter_new(rp_replay *rp, const struct rp_count_opts *o,
                       struct rp__counter **out) {
  struct rp__counter *c = calloc(1, sizeof *c);
  *out = NULL;
  if (!c) return RW_ENOMEM;
  c->rp = rp;
  c->o = *o;
  int rc = 0;
  if ((o->function && !(c->want_fn = strdup(o->function))) ||
      (o->object && !(c->want_obj = strdup(o->object))) ||
      (o->src_file && !(c->want_src = strdup(o->src_file))))
    rc = RW_ENOMEM;
  c->o.function = c->want_fn;
  c->o.object = c->want_obj;
  c->o.src_file = c->want_src;
  size_t nm = o->nmarks;
  c->o.marks = NULL;
  c->o.nmarks = 0;
  if (rc == 0 && nm) {
    c->marks = calloc(nm, sizeof *c->marks);
    c->mstats = calloc(nm, sizeof *c->mstats);
    if (!c->marks || !c->mstats) rc = RW_ENOMEM;
    for (size_t i = 0; rc == 0 && i < nm; i++) {
      const struct rp_mark *m = &o->marks[i];
      c->marks[i] = *m;
      c->marks[i].function = m->function ? strdup(m->function) : NULL;
      c->marks[i].object = m->object ? strdup(m->object) : NULL;
      c->marks[i].text = strdup(m->text ? m->text : "?");
      c->o.nmarks = i + 1;
      if ((m->function && !c->marks[i].function) ||
          (m->object && !c->marks[i].object) || !c->marks[i].text)
        rc = RW_ENOMEM;
    }
  }
  if (rc == 0 && cs_open(CS_ARCH_X86, CS_MODE_64, &c->cs) != CS_ERR_OK) {
    c->cs = 0;
    rc = RW_EUNSUPPORTED;
  }
  if (rc == 0 && cs_option(c->cs, CS_OPT_DETAIL, CS_OPT_ON) != CS_ERR_OK)
    rc = RW_EUNSUPPORTED;
  if (rc == 0 && !(c->ci = cs_malloc(c->cs))) rc = RW_ENOMEM;
  if (rc < 0) {
    counter_free(c);
    return rc;
  }
  *out = c;
  return 0;
}

/* Whether IN is in the selected code (function, file, range). */
static int in_range(const struct rp__counter *c, const struct insn *in) {
  const struct rp_count_opts *o = &c->o;
  if (o->function && !in->wanted) return 0;
  if (o->src_file && !in->in_lines) return 0;
  if (o->object && strcmp(c->strs + in->object, o->object)) return 0;
  if (o->hi > o->lo && (in->addr < o->lo || in->addr >= o->hi)) return 0;
  return 1;
}

/* Whether IN is of the selected kinds. */
static int of_kind(const struct rp__counter *c, const struct insn *in) {
  const struct rp_count_opts *o = &c->o;
  if (o->kinds && !(in->types & o->kinds)) return 0;
  if (o->opcode && (in->opcode & o->opmask) != o->opval) return 0;
  return 1;
}

static int selects(const struct rp__counter *c) {
  return c->o.function || c->o.object || c->o.hi > c->o.lo || c->o.src_file;
}

/* Each run's count to each of its instructions; how often the selected
 * code was entered (a run's instruction in it after one outside it or
 * none) into *ENTERED. */
static void finish(struct rp__counter *c, u64 *entered) {
  *entered = 0;
  for (size_t i = 0; i < c->nruns; i++) {
    const struct run *r = &c->runs[i];
    if (r->bad) continue;
    u32 v = r->src && r->src < (1ull << 47)
                ? rp__umap_get(&c->by_insn, (u64)r->space << 48 | r->src)
                : 0;
    int was = v && in_range(c, &c->insns[v - 1]);
    for (u64 k = 0; k < r->len; k++) {
      struct insn *in = &c->insns[c->pool[r->first + k]];
      in->count += r->count;
      int is = in_range(c, in);
      if (is && !was) *entered += r->count;
      was = is;
    }
  }
}

/* What the report needs beside the counter. */
struct tally {
  u64 entered, range, selected;
  u64 kinds[5]; /* branch, call, ret, rep, memory: in the range */
  u64 cond;
};

struct rp_counts_full {
  struct rp_counts pub;
  struct tally tl;
};

static int counts_run(rp_replay *rp, const struct rp_count_opts *o, int whole,
                      void (*tick)(void *ctx), void *ctx, rp_counts **out,
                      struct rp_stop *stop) {
  struct rp__counter *c;
  *out = NULL;
  RW_FORWARD(counter_new(rp, o, &c));
  int stacks = 0;
  for (size_t i = 0; i < o->nmarks; i++)
    stacks |= (o->marks[i].flags & RP_MARK_STACK) || o->marks[i].every;
  int rc = rp__prof_count(rp, o->tid, c, stacks, whole, tick, ctx, stop);
  if (rc == 0) rc = c->err;
  struct rp_counts_full *f = rc == 0 ? calloc(1, sizeof *f) : NULL;
  if (rc == 0 && !f) rc = RW_ENOMEM;
  if (rc < 0) {
    counter_free(c);
    return rc;
  }
  f->pub.c = c;
  struct tally *t = &f->tl;
  finish(c, &t->entered);
  for (size_t i = 0; i < c->ninsns; i++) {
    const struct insn *in = &c->insns[i];
    if (!in->count || !in_range(c, in)) continue;
    t->range += in->count;
    for (int k = 0; k < 5; k++)
      if (in->types & (1u << k)) t->kinds[k] += in->count;
    if (in->types & T_COND) t->cond += in->count;
    if (of_kind(c, in)) t->selected += in->count;
  }
  *out = &f->pub;
  return 0;
}

int rp_counts_run(rp_replay *rp, const struct rp_count_opts *o,
                  rp_counts **out, struct rp_stop *stop) {
  return counts_run(rp, o, 0, NULL, NULL, out, stop);
}

int rp_counts_whole(rp_replay *rp, const struct rp_count_opts *o,
                    void (*tick)(void *ctx), void *ctx, rp_counts **out) {
  struct rp_stop stop;
  return counts_run(rp, o, 1, tick, ctx, out, &stop);
}

void rp_counts_free(rp_counts *c) {
  if (!c) return;
  counter_free(c->c);
  free(c);
}

static const struct tally *tally_of(const rp_counts *c) {
  return &((const struct rp_counts_full *)c)->tl;
}

void rp_counts_totals(const rp_counts *c, u64 *selected, u64 *all,
                      u64 *unplaced) {
  *selected = tally_of(c)->selected;
  *all = c->c->total;
  *unplaced = c->c->unplaced;
}

int rp_counts_src_seen(const rp_counts *c) { return c->c->src_seen; }

/* ---- The report ------------------------------------------------------- */

/* One line of the report: an instruction, or the same one of a file in
 * several processes, added up. */
struct row {
  const struct insn *in;
  u64 count;
  u64 off; /* from its function's start (with a function) */
};

static const struct rp__counter *sort_c; /* qsort has no context */

/* Same file, function and offset together; code outside any function by
 * address and image. */
static int by_place(const void *a, const void *b) {
  const struct row *x = a, *y = b;
  const char *s = sort_c->strs;
  int k = strcmp(s + x->in->object, s + y->in->object);
  if (!k) k = strcmp(s + x->in->fn, s + y->in->fn);
  if (!k && (!x->in->fn_start || !y->in->fn_start))
    k = !x->in->fn_start - !y->in->fn_start;
  if (!k && !x->in->fn_start) k = x->in->space < y->in->space ? -1
                                  : x->in->space > y->in->space;
  if (!k) k = x->off < y->off ? -1 : x->off > y->off;
  if (!k) k = x->in->addr < y->in->addr ? -1 : x->in->addr > y->in->addr;
  return k;
}

static int by_count(const void *a, const void *b) {
  const struct row *x = a, *y = b;
  if (x->count != y->count) return x->count < y->count ? 1 : -1;
  return by_place(a, b);
}

static int same_place(const struct row *x, const struct row *y) {
  return x->in->fn_start && y->in->fn_start && x->off == y->off &&
         x->in->fn == y->in->fn && x->in->object == y->in->object;
}

/* The selected instructions that ran, merged, into *OUT (*N). */
static int rows_of(const struct rp__counter *c, struct row **out, size_t *n) {
  struct row *v = malloc((c->ninsns ? c->ninsns : 1) * sizeof *v);
  size_t k = 0, m = 0;
  if (!v) return RW_ENOMEM;
  for (size_t i = 0; i < c->ninsns; i++) {
    const struct insn *in = &c->insns[i];
    if (!in->count || !in_range(c, in) || !of_kind(c, in)) continue;
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

/* The whole body of the wanted function in file OBJ, every instruction
 * with its count (0 for those that never ran), merged with the ROWS
 * (N) of that file; Returns 0 or RW_ENOMEM. */
static int listing(struct rp__counter *c, const struct body *b,
                   const struct row *rows, size_t n, u64 whole, int json,
                   FILE *out) {
  struct row *v = NULL;
  struct insn *ins = NULL;
  size_t nv = 0, capv = 0, ni = 0, capi = 0;
  int rc = 0;
  for (u64 off = 0; off < b->len && rc == 0;) {
    struct insn in = {.addr = b->start + off, .space = b->space,
                      .fn = b->fn, .object = b->object,
                      .fn_start = b->start};
    if (!decode(c, b->bytes + off, b->len - off, &in)) {
      in.len = 1; /* not code: shown as a byte */
      in.bytes[0] = b->bytes[off];
    }
    const char *src;
    if (rp__lines_find(b->lines, b->vstart + off, &src, &in.line) &&
        (rc = intern(c, src, &in.src)) < 0)
      break;
    rc = rp__grow((void **)&ins, ni, &capi, sizeof *ins);
    if (rc == 0) ins[ni++] = in;
    off += in.len;
  }
  /* Rows point into INS: build them once INS stops moving. */
  for (size_t i = 0; rc == 0 && i < ni; i++) {
    rc = rp__grow((void **)&v, nv, &capv, sizeof *v);
    if (rc == 0) v[nv++] = (struct row){&ins[i], 0, ins[i].addr - b->start};
  }
  for (size_t i = 0; rc == 0 && i < n; i++) {
    const struct row *r = &rows[i];
    if (r->in->object != b->object || r->in->fn != b->fn) continue;
    size_t lo = 0, hi = nv;
    while (lo < hi) {
      size_t mid = (lo + hi) / 2;
      if (v[mid].off < r->off) lo = mid + 1; else hi = mid;
    }
    if (lo < nv && v[lo].off == r->off && v[lo].in->len == r->in->len) {
      v[lo].count = r->count;
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
      if (!of_kind(c, v[i].in)) continue;
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
  const struct tally *t = tally_of(cc);
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
  const struct tally *t = tally_of(cc);
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
    rc = listing(c, b, rows, n, tally_of(cc)->range, json, out);
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
      else row_text(c, &rows[i], tally_of(cc)->range, out);
    }
    if (!json && m < n)
      fprintf(out, "(%zu more instructions; rewind analyze counts --top 0 "
                   "lists them all)\n",
              n - m);
  }
  free(rows);
  return rc < 0 ? rc : rp__written(out);
}

/* ---- Marks ------------------------------------------------------------ */

int rp__counter_paths(struct rp__counter *c, const rp_profile *p) {
  for (size_t i = 0; i < c->npaths; i++)
    RW_FORWARD(rp__prof_path_text(p, c->paths[i].node, &c->paths[i].text));
  return 0;
}

static int by_mark_count(const void *a, const void *b) {
  const struct mpath *x = a, *y = b;
  if (x->mark != y->mark) return x->mark < y->mark ? -1 : 1;
  if (x->count != y->count) return x->count < y->count ? 1 : -1;
  return x->node < y->node ? -1 : x->node > y->node;
}

int rp_counts_marks(const rp_counts *cc, FILE *out, int json) {
  struct rp__counter *c = cc->c;
  struct mpath *v = malloc((c->npaths ? c->npaths : 1) * sizeof *v);
  if (!v) return RW_ENOMEM;
  if (c->npaths) memcpy(v, c->paths, c->npaths * sizeof *v);
  qsort(v, c->npaths, sizeof *v, by_mark_count);
  size_t j = 0;
  int wins = 0;
  for (size_t k = 0; k < c->o.nmarks; k++) {
    const struct rp_mark *m = &c->marks[k];
    const struct mstat *st = &c->mstats[k];
    wins |= (m->flags & (RP_MARK_START | RP_MARK_END)) != 0;
    if (json) {
      fprintf(out, "{\"kind\":\"mark\",\"mark\":%zu,\"spec\":", k + 1);
      trace_json_str(out, m->text);
      fprintf(out, ",\"executions\":%llu,\"in_windows\":%llu,\"paths\":[",
              (unsigned long long)st->execs, (unsigned long long)st->in_win);
    } else {
      fprintf(out, "mark %zu, %s: %llu execution%s", k + 1, m->text,
              (unsigned long long)st->execs, st->execs == 1 ? "" : "s");
      fprintf(out, ", %llu inside counting windows\n",
              (unsigned long long)st->in_win);
    }
    int first = 1;
    for (; j < c->npaths && v[j].mark == k; j++) {
      const char *path = v[j].text ? v[j].text : "(no call path)";
      if (json) {
        fprintf(out, "%s{\"path\":", first ? "" : ",");
        trace_json_str(out, path);
        fprintf(out, ",\"count\":%llu}", (unsigned long long)v[j].count);
      } else {
        if (first)
          fprintf(out, "  call paths it ran on (%s), most first:\n",
                  m->flags & RP_MARK_STACK ? "every execution"
                                           : "every Nth execution");
        fprintf(out, "  %12llu  %s\n", (unsigned long long)v[j].count, path);
      }
      first = 0;
    }
    if (json) fprintf(out, "]}\n");
  }
  free(v);
  if (wins) {
    double mean = c->nwin ? (double)c->win_total / (double)c->nwin : 0;
    if (json)
      fprintf(out, "{\"kind\":\"windows\",\"windows\":%llu,"
                   "\"instructions\":%llu,\"min\":%llu,\"max\":%llu,"
                   "\"mean\":%.1f}\n",
              (unsigned long long)c->nwin, (unsigned long long)c->win_total,
              (unsigned long long)c->win_min, (unsigned long long)c->win_max,
              mean);
    else
      fprintf(out, "counting windows (a start mark to the next end mark of "
                   "a thread, both included): %llu, %llu instructions in "
                   "all; fewest %llu, most %llu, mean %.1f\n",
              (unsigned long long)c->nwin, (unsigned long long)c->win_total,
              (unsigned long long)c->win_min, (unsigned long long)c->win_max,
              mean);
  }
  if (!json && c->unplaced)
    fprintf(out, "warning: %llu instructions could not be placed; marks in "
                 "them are missed\n",
            (unsigned long long)c->unplaced);
  return rp__written(out);
}

/* FLAGS (a comma list) into M. */
static int mark_flags(char *flags, struct rp_mark *m, char *err, size_t cap) {
  for (char *f = strtok(flags, ","); f; f = strtok(NULL, ",")) {
    char *end;
    if (!strcmp(f, "count")) continue;
    if (!strcmp(f, "stack")) m->flags |= RP_MARK_STACK;
    else if (!strcmp(f, "stop")) m->flags |= RP_MARK_STOP;
    else if (!strcmp(f, "start")) m->flags |= RP_MARK_START;
    else if (!strcmp(f, "end")) m->flags |= RP_MARK_END;
    else if (!strncmp(f, "every=", 6) &&
             (m->every = strtoull(f + 6, &end, 0)) && !*end && f[6] != '-')
      continue;
    else {
      snprintf(err, cap, "unknown mark flag '%s' (there are: count, stack, "
               "every=N, start, end, stop)", f);
      return RW_EINVAL;
    }
  }
  return 0;
}

/* A number at *S (moved past it) into *V: 1, or 0 when there is none. */
static int number(char **s, u64 *v) {
  char *end;
  if (**s == '-' || **s == '+') return 0;
  *v = strtoull(*s, &end, 0);
  if (end == *s) return 0;
  *s = end;
  return 1;
}

int rp_mark_parse(const char *spec, struct rp_mark *m, char *err,
                  size_t cap) {
  memset(m, 0, sizeof *m);
  size_t n = strlen(spec);
  char *t = malloc(2 * n + 2); /* the text, then a copy to cut up */
  if (!t) return RW_ENOMEM;
  memcpy(t, spec, n + 1);
  char *w = t + n + 1;
  memcpy(w, spec, n + 1);
  m->text = t;
  m->len = 1;
  char *colon = strchr(w, ':');
  if (colon) *colon++ = 0;
  char *at = strchr(w, '@'), *p = w;
  int rc = 0;
  if (!*w) {
    rc = RW_EINVAL;
  } else if (at || (*w >= '0' && *w <= '9')) { /* [FILE@]ADDR[+LEN] */
    if (at) {
      *at = 0;
      p = at + 1;
      m->object = w;
    }
    rc = (!at || *w) && number(&p, &m->addr) ? 0 : RW_EINVAL;
    if (rc == 0 && *p == '+') p++, rc = number(&p, &m->len) ? 0 : RW_EINVAL;
  } else { /* FUNCTION[+OFF] */
    char *plus = strrchr(w, '+');
    m->function = w;
    if (plus && plus[1] >= '0' && plus[1] <= '9') {
      *plus = 0;
      p = plus + 1;
      rc = number(&p, &m->addr) ? 0 : RW_EINVAL;
    } else {
      p = w + strlen(w);
    }
  }
  if (rc == 0 && (*p || !m->len)) rc = RW_EINVAL;
  if (rc < 0)
    snprintf(err, cap, "bad mark '%s': want 0xADDR[+LEN], FUNCTION[+OFF] or "
             "FILE@VADDR[+LEN], then :FLAG,...", spec);
  if (rc == 0 && colon) rc = mark_flags(colon, m, err, cap);
  if (rc < 0) {
    free(t);
    memset(m, 0, sizeof *m);
  }
  return rc;
}

int rp_mark_parse_line(const char *line, struct rp_mark *m, char *err,
                       size_t cap) {
  char file[512], flags[256] = "count", more[2];
  unsigned long long a, n;
  memset(m, 0, sizeof *m);
  while (*line == ' ' || *line == '\t') line++;
  if (!*line || *line == '#' || *line == '\n') return 0;
  int k = sscanf(line, "%511s %lli %lli %255s %1s", file, &a, &n, flags, more);
  if (k < 3 || k > 4 || !n) {
    snprintf(err, cap, "want FILE VADDR LEN [FLAGS] (FILE - for an "
             "address), not '%.80s'", line);
    return RW_EINVAL;
  }
  char spec[900];
  if (!strcmp(file, "-"))
    snprintf(spec, sizeof spec, "%#llx+%llu:%s", a, n, flags);
  else
    snprintf(spec, sizeof spec, "%s@%#llx+%llu:%s", file, a, n, flags);
  return rp_mark_parse(spec, m, err, cap);
}
