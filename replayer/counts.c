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
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "common/digest.h"
#include "replayer/count_int.h"

/* Longest run decoded; a longer one cannot be straight code. */
#define RUN_MAX (1u << 20)
/* Largest function body kept for a --function listing. */
#define BODY_MAX (256u << 10)

struct run {
  u64 start, src, len, count;
  u64 last;  /* where its last instruction is */
  u64 at;     /* how it ended, as decode_run was told: AT and LAST (the */
  int atlast; /*   same instructions may end a run two ways) */
  u64 first; /* its instructions' indexes: pool[first .. first + len) */
  u32 space;
  int bad;    /* it failed the checks: its instructions are unplaced */
  int marked; /* some of its instructions are marked */
  int stale;  /* its code changed since: a new run takes its key */
  u64 gen;    /* cpu_mem_code_gen of its memory when its code was read */
};

/* A run's gen when its instructions are not what memory held (decode_run):
 * no code generation is ever this, so run_fresh reads memory again. */
#define NOT_MEMORY (~0ull)

struct space {
  u32 proc_ix;
  size_t nimages;
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
  u32 tid;
  int head;    /* it was there where the replay began: 1 until its first
                  run that ran something ends */
  int unknown; /* in a piece, whether its window is open is not known
                  (struct mcut): 1 until its first start mark, 2 after
                  (open, since when unknown), 0 once an end mark ran */
  size_t mhead; /* its head: index + 1 in mheads */
};

/* S kept once in the string pool, its offset into *OFF. */
int rp__cnt_intern(struct rp__counter *c, const char *s, u32 *off) {
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
int rp__cnt_decode(struct rp__counter *c, const u8 *code, size_t n,
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
    RW_FORWARD(rp__cnt_intern(c, src, &in->src));
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
  RW_FORWARD(rp__cnt_intern(c, name, &in->fn));
  RW_FORWARD(rp__cnt_intern(c, object, &in->object));
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
                    bytes, size, NULL, 0};
  return 0;
}

/* Where decode_run's passes read an instruction. */
enum { FROM_KNOWN, FROM_MEMORY, FROM_FILE };

/* Up to 15 bytes at A of the file mapped there in thread T's process (as
 * it was mapped, before anything wrote to it) into CODE: how many, or 0
 * when A is not in a private mapping of a file. */
static size_t file_bytes(struct rp__counter *c, struct rp__thread *t, u64 a,
                         u8 code[15]) {
  const struct rp__src *s = rp__src_at(t->proc, a);
  if (!s || s->shared || rp__is_zero_hash(s->hash) || a >= s->eof) return 0;
  size_t cap = RW_MIN(15, s->eof - a);
  i64 got = trace_reader_blob_read(c->rp->trace.tr, s->hash,
                                   s->offset + (a - s->start), code, cap,
                                   NULL);
  return got > 0 ? (size_t)got : 0;
}

/* The instruction at A in thread T's space SP: its index into *OUT, found
 * or decoded. FROM_MEMORY: what T's memory holds now; a known instruction
 * whose bytes changed (code patched or generated) is decoded again, and a
 * new one is known (by_insn) once decode_run keeps it (from C->pend).
 * FROM_KNOWN: a known one as it is, else as memory holds it. FROM_FILE:
 * as the file mapped there holds it, known to nothing. Returns 0, 1 when
 * it cannot be read or decoded, or RW_ENOMEM. */
static int insn_at(struct rp__counter *c, struct rp__thread *t, u32 sp,
                   u64 a, int from, u32 *out) {
  if (a >= (1ull << 47)) return 1;
  u64 key = (u64)sp << 48 | a;
  u32 v = rp__umap_get(&c->by_insn, key);
  if (v && from == FROM_KNOWN) {
    *out = v - 1;
    return 0;
  }
  u8 code[15];
  size_t len = sizeof code;
  if (from == FROM_FILE) {
    if (!(len = file_bytes(c, t, a, code))) return 1;
  } else if (cpu_mem_read(t->proc->mem, a, code, len) < 0) {
    /* The bytes up to a page end, then what follows may be unmapped. */
    len = CPU_PAGE_SIZE - (a & (CPU_PAGE_SIZE - 1));
    if (len > sizeof code || cpu_mem_read(t->proc->mem, a, code, len) < 0)
      return 1;
  }
  if (v && c->insns[v - 1].len <= len &&
      !memcmp(code, c->insns[v - 1].bytes, c->insns[v - 1].len)) {
    *out = v - 1;
    return 0;
  }
  struct insn in = {.addr = a, .space = sp, .pid = t->proc->pid};
  if (!rp__cnt_decode(c, code, len, &in)) return 1;
  RW_FORWARD(name_of(c, t, &in));
  RW_RETURN_IF(c->ninsns >= 0xfffffff0u, RW_ENOMEM, "too many instructions");
  RW_FORWARD(rp__grow((void **)&c->insns, c->ninsns, &c->capinsns,
                  sizeof *c->insns));
  c->insns[c->ninsns] = in;
  if (from == FROM_MEMORY) {
    RW_FORWARD(rp__grow((void **)&c->pend, c->npend, &c->cappend,
                        sizeof *c->pend));
    c->pend[c->npend++] = key;
  } else if (from == FROM_KNOWN) {
    RW_FORWARD(rp__umap_put(&c->by_insn, key, (u32)c->ninsns + 1));
  }
  *out = (u32)c->ninsns++;
  return 0;
}

/* decode_run's pass over R, reading as insn_at's FROM says. */
static int decode_pass(struct rp__counter *c, struct rp__thread *t,
                       struct run *r, u64 at, int last, int from) {
  r->first = c->npool;
  r->bad = r->marked = 0;
  u64 a = r->start;
  for (u64 i = 0; i < r->len; i++) {
    u32 ix;
    int rc = insn_at(c, t, r->space, a, from, &ix);
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

/* Lists the instructions of new run R (of thread T) into the pool and
 * checks them: straight code, ending as the run's end says (AT the last
 * instruction when LAST, else the one after it). The code in memory now
 * first; when that fails, the instructions known from before: a thread
 * that ran into a syscall the recorder then patched (the buffer's sites,
 * in files' code) ran the code that was there, and its run ends after
 * the patch when the replay runs it after the thread that patched. Last,
 * the code as the file has it: a replay that began at a keyframe between
 * the two never saw the code before the patch (analyze -j), and must
 * count as one that did. Returns 0 (R->bad set when the checks fail) or
 * RW_ENOMEM. */
static int decode_run(struct rp__counter *c, struct rp__thread *t,
                      struct run *r, u64 at, int last) {
  r->first = c->npool;
  if (r->len > RUN_MAX) {
    r->bad = 1;
    return 0;
  }
  size_t n0 = c->ninsns;
  c->npend = 0;
  RW_FORWARD(decode_pass(c, t, r, at, last, FROM_MEMORY));
  if (r->bad) {
    c->ninsns = n0; /* the new ones: known to nothing */
    if (!c->forget) RW_FORWARD(decode_pass(c, t, r, at, last, FROM_KNOWN));
    if (r->bad) RW_FORWARD(decode_pass(c, t, r, at, last, FROM_FILE));
    /* Not the code memory holds: never fresh, so that the next run with
     * its key reads memory again (run_fresh) rather than count this. */
    r->gen = NOT_MEMORY;
    return 0;
  }
  for (size_t i = 0; i < c->npend; i++) {
    u64 key = c->pend[i];
    u32 ix = (u32)(n0 + i) + 1;
    if (rp__umap_get(&c->by_insn, key)) rp__umap_set(&c->by_insn, key, ix);
    else RW_FORWARD(rp__umap_put(&c->by_insn, key, ix));
  }
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
    if (r->stale) continue;
    size_t k = run_hash(r->space, r->src, r->start, r->len) & (cap - 1);
    while (v[k]) k = (k + 1) & (cap - 1);
    v[k] = (u32)i + 1;
  }
  free(c->slots);
  c->slots = v;
  c->capslots = cap;
  return 0;
}

int rp__cnt_path_add(struct rp__counter *c, u32 k, u32 node, u64 n) {
  u64 key = (u64)k << 32 | node;
  unsigned q = (node ^ k * 131u) & 255;
  if (c->pkey[q] == key + 1) {
    c->paths[c->pix[q]].count += n;
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
  c->paths[v - 1].count += n;
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
  struct mcut *h = x->unknown ? &c->mheads[x->mhead - 1] : NULL;
  if ((m->flags & RP_MARK_START) && h) {
    if (x->unknown == 1) h->start = at; /* open from here or before */
    x->unknown = 2;
  } else if ((m->flags & RP_MARK_START) && !x->win) {
    x->win = 1;
    x->win_start = at;
  }
  st->execs++;
  if (x->unknown == 1) /* in a window if the piece before left one */
    c->hcounts[(x->mhead - 1) * c->o.nmarks + k]++;
  else
    st->in_win += x->win || x->unknown == 2;
  if ((m->flags & RP_MARK_STACK) || (m->every && st->execs % m->every == 0))
    RW_FORWARD(rp__cnt_path_add(c, k, path, 1));
  if ((m->flags & RP_MARK_END) && h) { /* no window any more */
    h->end = at;
    x->unknown = 0;
    x->win = 0;
  } else if ((m->flags & RP_MARK_END) && x->win) {
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

/* Run R of thread X ended, LEN instructions: its marks, X's count, and
 * when it is X's first since the replay began, its head. */
static int run_done(struct rp__counter *c, struct cthread *x,
                    const struct run *r, u64 len, u32 path) {
  int rc = r->marked && !r->bad ? run_marks(c, x, r, path) : 0;
  x->done += len;
  if (rc == 0 && x->head) {
    rc = rp__grow((void **)&c->heads, c->nheads, &c->capheads,
                  sizeof *c->heads);
    if (rc == 0)
      c->heads[c->nheads++] = (struct cut){
          .tid = x->tid,
          .in = !r->bad && rp__cnt_in_range(c, &c->insns[c->pool[r->first]])};
    x->head = 0;
  }
  return rc;
}

/* Whether the instruction at A of space SP is in the selection, as
 * finish() sees a run's instruction before it. */
static int was_in(const struct rp__counter *c, u32 sp, u64 a) {
  u32 v = a && a < (1ull << 47)
              ? rp__umap_get(&c->by_insn, (u64)sp << 48 | a)
              : 0;
  return v && rp__cnt_in_range(c, &c->insns[v - 1]);
}

/* Whether run R, met again in thread X, is still the code in memory: its
 * instructions' bytes are read again when code was dropped since (a patch,
 * generated code); if they changed, R is stale. */
static int run_fresh(struct rp__counter *c, struct cthread *x,
                     struct run *r) {
  u64 gen = cpu_mem_code_gen(x->t->proc->mem);
  if (r->bad || r->gen == gen) return 1;
  for (u64 i = 0; i < r->len; i++) {
    const struct insn *in = &c->insns[c->pool[r->first + i]];
    u8 b[15];
    if (cpu_mem_read(x->t->proc->mem, in->addr, b, in->len) < 0 ||
        memcmp(b, in->bytes, in->len)) {
      r->stale = 1;
      return 0;
    }
  }
  r->gen = gen;
  return 1;
}

/* Whether run R, not stale, is thread X's run of LEN instructions now
 * ending at AT (with LAST). Its end too: a patched site keeps the length
 * of a run (`syscall` there becomes a jump), so a thread that entered the
 * syscall before the patch ends a run of the old code after it. */
static int same_run(const struct run *r, const struct cthread *x, u64 len,
                    u64 at, int last) {
  return r->start == x->start && r->len == len && r->src == x->src &&
         r->space == x->space && r->at == at && r->atlast == last &&
         !r->stale;
}

/* The run X of thread T ends at AT (as decode_run says, with LAST) after
 * its count reached N: counted, and listed when new. Returns 0 or
 * RW_ENOMEM; *LASTAT is where its last instruction was (0 when none
 * ran). */
static int run_end(struct rp__counter *c, struct cthread *x, u64 n, u64 at,
                   int last, u32 path, u64 *lastat) {
  *lastat = 0;
  if (n <= x->n0 + x->extra) return 0; /* none ran */
  u64 len = n - x->n0 - x->extra;
  c->total += len;
  u32 *rc = &c->recent[(x->start ^ x->src >> 4) & 1023];
  if (*rc) {
    struct run *r = &c->runs[*rc - 1];
    if (same_run(r, x, len, at, last) && run_fresh(c, x, r)) {
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
    if (!same_run(r, x, len, at, last) || !run_fresh(c, x, r)) continue;
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
                    .at = at, .atlast = last, .count = 1, .space = x->space,
                    .gen = cpu_mem_code_gen(x->t->proc->mem)};
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
    RW_FORWARD(rp__grow((void **)&c->badkeys, c->nbadkeys, &c->capbadkeys,
                        sizeof *c->badkeys));
    c->badkeys[c->nbadkeys++] =
        run_hash(x->t->proc->pid, r->src, r->start, r->len) | 1;
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

/* A head for thread X, there where the piece began (struct mcut). */
static int mhead_new(struct rp__counter *c, struct cthread *x) {
  size_t nm = c->o.nmarks, need = (c->nmheads + 1) * nm;
  RW_FORWARD(rp__grow((void **)&c->mheads, c->nmheads, &c->capmheads,
                      sizeof *c->mheads));
  if (need > c->caphcounts) {
    size_t cap = RW_MAX(2 * c->caphcounts, need);
    u64 *v = realloc(c->hcounts, cap * sizeof *v);
    if (!v) return RW_ENOMEM;
    c->hcounts = v;
    c->caphcounts = cap;
  }
  memset(c->hcounts + c->nmheads * nm, 0, nm * sizeof *c->hcounts);
  c->mheads[c->nmheads++] =
      (struct mcut){.tid = x->tid, .start = ~0ull, .end = ~0ull};
  x->unknown = 1;
  x->mhead = c->nmheads;
  return 0;
}

int rp__counter_moved(struct rp__counter *c, void **state,
                      struct rp__thread *t, u64 at, int executed, u32 path) {
  struct cthread *x = *state;
  u64 lastat = 0;
  if (!x) {
    if (!(x = calloc(1, sizeof *x))) return RW_ENOMEM;
    x->t = t;
    x->tid = t->st.tid;
    x->head = !c->started;
    c->starters += !c->started;
    *state = x;
    c->threads++;
    if (!c->started && c->o.piece && c->o.nmarks) {
      int rc = mhead_new(c, x);
      if (rc < 0) {
        free(x);
        *state = NULL;
        return rc;
      }
    }
  } else if (!c->err) {
    executed |= x->partial && x->partial == at;
    int rc = run_end(c, x, cpu_icount(t->cpu), at, executed, path, &lastat);
    if (rc < 0) c->err = rc;
  }
  u32 space = x->space;
  RW_FORWARD(space_of(c, t, &x->space));
  /* The instruction before the next run: the thread's last one, also
   * across moves that ran nothing (a restarted syscall, a signal's
   * delivery), so that where the replay moves a thread does not change
   * what entered means; none (0) for a new thread or in a new image. */
  if (lastat || x->space != space) x->src = lastat;
  x->start = cpu_rip(t->cpu);
  x->n0 = cpu_icount(t->cpu);
  x->extra = x->partial = 0;
  return 0;
}

void rp__counter_end(struct rp__counter *c, void **state, u32 path) {
  struct cthread *x = *state;
  u64 lastat, n;
  if (!x) return;
  if (!c->err) {
    n = cpu_icount(x->t->cpu);
    /* Inside a rep instruction (the replay stops part way through it):
     * the run ends before it, which counts where it ends. */
    u64 at, req, done, before;
    const char *mnem;
    if (cpu_rep_open(x->t->cpu, &at, &mnem, &req, &done, &before) &&
        at == cpu_rip(x->t->cpu) && before <= n)
      n = before;
    u64 src = x->src;
    int ran = n > x->n0 + x->extra, head = x->head;
    int rc = run_end(c, x, n, cpu_rip(x->t->cpu), 0, path, &lastat);
    /* The replay ends with X going on: the tail of a piece. */
    if (rc == 0 && c->ending)
      rc = rp__grow((void **)&c->tails, c->ntails, &c->captails,
                    sizeof *c->tails);
    if (rc == 0 && c->ending) {
      u8 was = (u8)was_in(c, x->space, ran ? lastat : src);
      c->tails[c->ntails++] =
          (struct cut){.tid = x->tid, .was = was, .pass = (u8)(ran ? 0 : head)};
    }
    if (rc == 0 && c->ending && c->o.piece && c->o.nmarks)
      rc = rp__grow((void **)&c->mtails, c->nmtails, &c->capmtails,
                    sizeof *c->mtails);
    if (rc == 0 && c->ending && c->o.piece && c->o.nmarks)
      c->mtails[c->nmtails++] = (struct mcut){
          .tid = x->tid,
          .state = x->unknown ? 2 : x->win ? 1 : 0,
          .start = x->win_start,
          .done = x->done};
    if (rc < 0) c->err = rc;
  }
  free(x);
  *state = NULL;
}

void rp__counter_bound(struct rp__counter *c, int end) {
  if (end) c->ending = 1;
  else c->started = 1;
}

/* ---- The run ---------------------------------------------------------- */

void rp__cnt_free(struct rp__counter *c) {
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
  rp_profile_free(c->tree);
  rp_profile_free(c->join);
  if (c->ci) cs_free(c->ci, 1);
  if (c->cs) cs_close(&c->cs);
  for (size_t i = 0; i < c->nbodies; i++) {
    free(c->bodies[i].bytes);
    free(c->bodies[i].ins);
  }
  free(c->bodies);
  free(c->pend);
  free(c->heads);
  free(c->tails);
  free(c->mheads);
  free(c->mtails);
  free(c->hcounts);
  free(c->mths);
  free(c->badkeys);
  rp__umap_free(&c->by_bad);
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

int rp__cnt_new(rp_replay *rp, const struct rp_count_opts *o,
                       struct rp__counter **out) {
  struct rp__counter *c = calloc(1, sizeof *c);
  *out = NULL;
  if (!c) return RW_ENOMEM;
  c->rp = rp;
  c->o = *o;
  const char *e = getenv("REWIND_TEST_FORGET_CODE");
  c->forget = e && !strcmp(e, "1");
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
    rp__cnt_free(c);
    return rc;
  }
  *out = c;
  return 0;
}

/* Whether IN is in the selected code (function, file, range). */
int rp__cnt_in_range(const struct rp__counter *c, const struct insn *in) {
  const struct rp_count_opts *o = &c->o;
  if (o->function && !in->wanted) return 0;
  if (o->src_file && !in->in_lines) return 0;
  if (o->object && strcmp(c->strs + in->object, o->object)) return 0;
  if (o->hi > o->lo && (in->addr < o->lo || in->addr >= o->hi)) return 0;
  return 1;
}

/* Whether IN is of the selected kinds. */
int rp__cnt_of_kind(const struct rp__counter *c, const struct insn *in) {
  const struct rp_count_opts *o = &c->o;
  if (o->kinds && !(in->types & o->kinds)) return 0;
  if (o->opcode && (in->opcode & o->opmask) != o->opval) return 0;
  return 1;
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
    int was = v && rp__cnt_in_range(c, &c->insns[v - 1]);
    for (u64 k = 0; k < r->len; k++) {
      struct insn *in = &c->insns[c->pool[r->first + k]];
      in->count += r->count;
      int is = rp__cnt_in_range(c, in);
      if (is && !was) *entered += r->count;
      was = is;
    }
  }
}

/* T's counts but ENTERED from C's instructions' counts. */
void rp__cnt_tally(const struct rp__counter *c, struct tally *t) {
  u64 entered = t->entered;
  memset(t, 0, sizeof *t);
  t->entered = entered;
  for (size_t i = 0; i < c->ninsns; i++) {
    const struct insn *in = &c->insns[i];
    if (!in->count || !rp__cnt_in_range(c, in)) continue;
    t->range += in->count;
    for (int k = 0; k < 5; k++)
      if (in->types & (1u << k)) t->kinds[k] += in->count;
    if (in->types & T_COND) t->cond += in->count;
    if (rp__cnt_of_kind(c, in)) t->selected += in->count;
  }
}

static int counts_run(rp_replay *rp, const struct rp_count_opts *o, int whole,
                      void (*tick)(void *ctx), void *ctx, rp_counts **out,
                      struct rp_stop *stop) {
  struct rp__counter *c;
  *out = NULL;
  RW_FORWARD(rp__cnt_new(rp, o, &c));
  int stacks = 0;
  for (size_t i = 0; i < o->nmarks; i++)
    stacks |= (o->marks[i].flags & RP_MARK_STACK) || o->marks[i].every;
  /* A piece's paths are nodes of its call tree, which the total joins. */
  int rc = rp__prof_count(rp, o->tid, c, stacks, whole, tick, ctx, stop,
                          o->piece ? &c->tree : NULL);
  /* A piece of a history need not have the thread. */
  if (rc == RW_ENOTFOUND && o->piece && o->tid && !c->threads) rc = 0;
  if (rc == 0) rc = c->err;
  struct rp_counts_full *f = rc == 0 ? calloc(1, sizeof *f) : NULL;
  if (rc == 0 && !f) rc = RW_ENOMEM;
  if (rc < 0) {
    rp__cnt_free(c);
    return rc;
  }
  f->pub.c = c;
  finish(c, &f->tl.entered);
  rp__cnt_tally(c, &f->tl);
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
  rp__cnt_free(c->c);
  free(c);
}

void rp_counts_totals(const rp_counts *c, u64 *selected, u64 *all,
                      u64 *unplaced) {
  *selected = rp__cnt_tally_of(c)->selected;
  *all = c->c->total;
  *unplaced = c->c->unplaced;
}

int rp_counts_src_seen(const rp_counts *c) { return c->c->src_seen; }

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
  /* Ties by name, as node numbers differ between a whole replay's tree
   * and the pieces' joined. */
  int d = !x->text || !y->text ? (x->text != NULL) - (y->text != NULL)
                               : strcmp(x->text, y->text);
  if (d) return d;
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
