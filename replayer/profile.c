/* SPDX-License-Identifier: MIT */
/* Profiles from the history (rewind analyze profile). Each thread keeps a
 * shadow call stack from the calls and returns the emulator observes
 * (cpu.h, struct cpu_observer). A call pushes a frame that remembers where
 * its return address is on the stack; a frame ends when the stack pointer
 * moves above that slot: at its ret, or, for the frames a longjmp, an
 * exception or a signal handler's sigreturn left behind, at the next call
 * or ret of the thread. A stack pointer far away (a signal handler on an
 * alternate stack, a coroutine's stack) ends nothing, and a ret that is a
 * jump (push; ret) ends nothing either, as the stack stays below the
 * frame. A frame that ends adds its instructions to its function
 * (inclusive, and exclusive of its callees), to the edge from its caller
 * and to its node of the call tree.
 *
 * Instructions count as positions do (each rep iteration is one): a call
 * and what comes before it are the caller's, the callee's run from its
 * first instruction to its ret included. A function that is on the stack
 * already (recursion) adds its inclusive count once, at its outermost
 * frame, so no count exceeds the thread's.
 *
 * A jump into another function with the stack pointer at the frame's
 * slot is a tail call: the target gets a frame of its own on that slot.
 * Not seen as a call: the kernel starting a signal handler (the handler
 * runs in the frame it interrupted). */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "replayer/prof_int.h"



u64 rp__prof_fn_hash(const char *a, const char *b) {
  u64 h = 0xcbf29ce484222325ull;
  for (const char *s = a; *s; s++) h = (h ^ (u8)*s) * 0x100000001b3ull;
  h = (h ^ 0xff) * 0x100000001b3ull;
  for (const char *s = b; *s; s++) h = (h ^ (u8)*s) * 0x100000001b3ull;
  return h;
}

int rp__prof_str(rp_profile *p, const char *s, u32 *off) {
  size_t n = strlen(s) + 1;
  while (p->nstrs + n > p->capstrs) {
    size_t c = p->capstrs ? 2 * p->capstrs : 4096;
    char *v = realloc(p->strs, c);
    if (!v) return RW_ENOMEM;
    p->strs = v;
    p->capstrs = c;
  }
  RW_RETURN_IF(p->nstrs + n > 0xffffffffu, RW_ENOMEM, "too many names");
  memcpy(p->strs + p->nstrs, s, n);
  *off = (u32)p->nstrs;
  p->nstrs += n;
  return 0;
}

/* The index of the function NAME in OBJECT, added when new. */
int rp__prof_fn_named(rp_profile *p, const char *name, const char *object,
                      u32 *out) {
  u64 h = rp__prof_fn_hash(name, object);
  for (;; h++) { /* another name with the same hash: the next key */
    u32 v = rp__umap_get(&p->names, h);
    if (!v) break;
    const struct fn *f = &p->fns[v - 1];
    if (!strcmp(p->strs + f->name, name) &&
        !strcmp(p->strs + f->object, object)) {
      *out = v - 1;
      return 0;
    }
  }
  RW_FORWARD(rp__grow((void **)&p->fns, p->nfns, &p->capfns, sizeof *p->fns));
  struct fn f = {0};
  RW_FORWARD(rp__prof_str(p, name, &f.name));
  RW_FORWARD(rp__prof_str(p, object, &f.object));
  RW_FORWARD(rp__umap_put(&p->names, h, (u32)p->nfns + 1));
  f.wanted = p->history && (!p->want_fn || !strcmp(name, p->want_fn));
  p->fns[p->nfns] = f;
  *out = (u32)p->nfns++;
  return 0;
}

/* The space of thread T's process and program image. */
static int space_of(rp_profile *p, struct rp__thread *t, struct space **out) {
  struct rp__proc *proc = t->proc;
  for (size_t i = 0; i < p->nspaces; i++)
    if (p->spaces[i].proc_ix == proc->ix &&
        p->spaces[i].nimages == proc->nimages) {
      *out = &p->spaces[i];
      return 0;
    }
  RW_FORWARD(rp__grow((void **)&p->spaces, p->nspaces, &p->capspaces,
                  sizeof *p->spaces));
  struct space *s = &p->spaces[p->nspaces++];
  memset(s, 0, sizeof *s);
  s->proc_ix = proc->ix;
  s->nimages = proc->nimages;
  *out = s;
  return 0;
}

/* The index of the function at ADDR in thread T's process: its symbol in
 * the files of the trace, looked up once per program image. */
static int fn_at(rp_profile *p, struct rp__thread *t, u64 addr, u32 *out) {
  struct space *s;
  RW_FORWARD(space_of(p, t, &s));
  u32 v = rp__umap_get(&s->by_addr, addr);
  if (v) {
    *out = v - 1;
    return 0;
  }
  char name[512], object[256];
  rp_replay *rp = p->rp;
  struct rp__proc *was = rp->proc; /* the names are those of T's process */
  rp->proc = t->proc;
  rp__fn_name(rp, addr, name, sizeof name, object, sizeof object);
  rp->proc = was;
  for (char *c = name; *c; c++)
    if (*c == ';' || *c == '\n' || *c == ' ') *c = '_'; /* folded stacks */
  RW_FORWARD(rp__prof_fn_named(p, name, object, out));
  return rp__umap_put(&s->by_addr, addr, *out + 1);
}

int rp__prof_node_of(rp_profile *p, u32 parent, u32 fn, u32 *out) {
  u64 k = (u64)parent << 32 | fn;
  u32 v = rp__umap_get(&p->by_node, k);
  if (!v) {
    RW_FORWARD(rp__grow((void **)&p->nodes, p->nnodes, &p->capnodes,
                    sizeof *p->nodes));
    p->nodes[p->nnodes] = (struct node){.fn = fn, .parent = parent};
    RW_FORWARD(rp__umap_put(&p->by_node, k, (u32)p->nnodes + 1));
    v = (u32)++p->nnodes;
  }
  *out = v - 1;
  return 0;
}

/* The argument registers a call history keeps. */
static const unsigned arg_regs[6] = {RW_REG_rdi, RW_REG_rsi, RW_REG_rdx,
                                     RW_REG_rcx, RW_REG_r8,  RW_REG_r9};

/* The global position of the running thread's count N (observers run
 * inside its cpu_run). */
static u64 global_at(const rp_replay *rp, u64 n) {
  return rp->run_icount + (n - rp->run_own);
}

/* ---- A piece of the history (analyze profile -j) --------------------- */

/* In a replay that began at a keyframe, a thread that was there already
 * has frames below its own that the piece cannot know (SH->base): those
 * of the call stack it had, which the pieces before build up. Whatever
 * reads or changes them goes to the thread's log (struct pev), for the
 * profile that adds the pieces up (rp_profile_tree_add): it keeps each
 * thread's real stack and replays the log on it. The piece's own frames
 * never depend on them: a frame a call pushed onto an empty own stack has
 * its slot below every frame left under it (the call's unwind ended those
 * at or below the slot), so a tail call chain or an unwind that stops at
 * an own frame never reaches them. Such a frame's node hangs from a graft
 * node, which the log ties to the node of the real top frame. */

/* Appends an event to SH's log: KIND, FN, A, at the thread's count N. */
static void log_ev(struct shadow *sh, u32 kind, u32 fn, u64 a, u64 n) {
  size_t cap = sh->capev;
  if (rp__grow((void **)&sh->ev, sh->nev, &sh->capev, sizeof *sh->ev) < 0 ||
      (RW_UNLIKELY(sh->p->history) &&
       rp__grow((void **)&sh->ex, sh->nev, &cap, sizeof *sh->ex) < 0)) {
    sh->p->err = RW_ENOMEM;
    return;
  }
  if (RW_UNLIKELY(sh->p->history))
    memset(&sh->ex[sh->nev], 0, sizeof *sh->ex);
  sh->ev[sh->nev++] = (struct pev){kind, fn, a, n - sh->n0};
}

/* With a call history: the last event's global position G, and its
 * RAX. */
static struct pex *last_ex(struct shadow *sh, u64 g, u64 rax) {
  if (!RW_LIKELY(sh->p->history) || !sh->nev || sh->p->err) return NULL;
  struct pex *x = &sh->ex[sh->nev - 1];
  x->g = g;
  x->rax = rax;
  return x;
}

/* Before an event that may change the frames below SH's own: the
 * instructions of own frames that ended onto the top one go first, and
 * the next own frame hangs from a new graft. The last tail logged may
 * act again (an unwind may have ended the top frame); the last unwind
 * would not (a tail call leaves the top frame's slot as it was, and
 * whether an unwind ends the top frame depends on its slot alone). */
static void base_moves(struct shadow *sh) {
  if (sh->kacc) log_ev(sh, PE_KIDS, 0, sh->kacc, sh->n0);
  sh->kacc = 0;
  sh->graft = 0;
  sh->t_fn = ~0u;
}

/* The graft node (index + 1) SH's own frames hang from now. */
static int graft_of(struct shadow *sh, u32 *out) {
  rp_profile *p = sh->p;
  if (!sh->graft) {
    RW_FORWARD(rp__grow((void **)&p->nodes, p->nnodes, &p->capnodes,
                        sizeof *p->nodes));
    p->nodes[p->nnodes] = (struct node){.fn = RP_GRAFT};
    sh->graft = (u32)++p->nnodes;
    log_ev(sh, PE_GRAFT, 0, sh->graft - 1, sh->n0);
  }
  *out = sh->graft;
  return 0;
}

/* An unwind to LIMIT at the thread's count END (global position GEND)
 * went through all of SH's own frames; RET: a ret's, with RAX, that
 * ended own frame call REC (index into the history, or ~0) as a return
 * unless it ends frames below too. Whether an unwind ends the top frame
 * depends on its slot alone, and with every slot a multiple of 8 (return
 * addresses pushed on a stack kept aligned; P->misaligned says when not)
 * on the limit rounded up to one: another such unwind with no other
 * logged since would change nothing (the top frame it stopped at stays,
 * or a tail call put one on the same slot). So a call and a return at
 * the same stack pointer in a frame below, again and again, log once. */
static void base_unwind(struct shadow *sh, u64 limit, u64 end, u64 gend,
                        int ret, u64 rax, size_t rec) {
  u64 key = (limit + 7) & ~7ull;
  if (key == sh->u_last) return;
  base_moves(sh);
  log_ev(sh, PE_UNWIND, 0, limit, end);
  sh->u_last = key;
  struct pex *x = last_ex(sh, gend, rax);
  if (x && ret) {
    x->ret = 1;
    x->uid = (u32)++sh->p->nuids;
    if (rec != ~(size_t)0) sh->p->recs[rec].pend = x->uid;
  }
}

/* A taken branch of SH's thread to TO at count N with no own frame: a
 * tail call if the stack pointer is at the real top frame's slot. The
 * same stack pointer and function again, with nothing logged since,
 * would change nothing (the top frame is then that function's on that
 * slot, or nothing changed): a loop logs it once. */
static void base_branch(struct shadow *sh, cpu_thread *cpu, u64 to, u64 n) {
  u64 rsp = cpu_gpr(cpu, RW_REG_rsp);
  u32 fn;
  if (to == sh->to_last && sh->t->proc->nimages == sh->to_images) {
    fn = sh->to_fn;
  } else {
    int rc = fn_at(sh->p, sh->t, to, &fn);
    if (rc < 0) {
      sh->p->err = rc;
      return;
    }
    sh->to_last = to;
    sh->to_images = sh->t->proc->nimages;
    sh->to_fn = fn;
  }
  if (fn == sh->t_fn && rsp == sh->t_rsp) return;
  base_moves(sh);
  log_ev(sh, PE_TAIL, fn, rsp, n);
  sh->t_fn = fn;
  sh->t_rsp = rsp;
  /* A frame it pushes starts after the jump, with these arguments. */
  struct pex *x = last_ex(sh, global_at(sh->p->rp, n + 1), 0);
  for (int i = 0; x && i < 6; i++) x->args[i] = cpu_gpr(cpu, arg_regs[i]);
}

/* Pushes a frame of function FN, entered at the thread's count START,
 * whose return address is at SLOT. */
static int push(struct shadow *sh, u32 fn, u64 slot, u64 start) {
  rp_profile *p = sh->p;
  struct frame f = {.fn = fn, .slot = slot, .start = start};
  u32 parent = sh->n ? sh->v[sh->n - 1].node + 1 : 0;
  if (!sh->n && sh->base) RW_FORWARD(graft_of(sh, &parent));
  /* A caller mostly calls what it called last (a loop, a recursion):
   * its node remembers that callee's node. */
  struct node *pn = parent ? &p->nodes[parent - 1] : NULL;
  if (pn && pn->kid_node && pn->kid_fn == fn) {
    f.node = pn->kid_node - 1;
  } else {
    RW_FORWARD(rp__prof_node_of(p, parent, fn, &f.node));
    if (parent) {
      pn = &p->nodes[parent - 1]; /* node_of may have moved them */
      pn->kid_fn = fn;
      pn->kid_node = f.node + 1;
    }
  }
  RW_FORWARD(rp__grow((void **)&sh->v, sh->n, &sh->cap, sizeof *sh->v));
  sh->v[sh->n++] = f;
  p->nodes[f.node].calls++;
  p->misaligned |= (slot & 7) != 0;
  return 0;
}

static int by_start(const void *a, const void *b) {
  const struct call_rec *x = a, *y = b;
  if (x->start != y->start) return x->start < y->start ? -1 : 1;
  return x->end > y->end ? -1 : x->end < y->end; /* outer calls first */
}

/* Keeps the MAX calls that started first (calls are kept as they end, so
 * a later one may still have started earlier). */
static void keep_first(rp_profile *p) {
  qsort(p->recs, p->nrecs, sizeof *p->recs, by_start);
  if (p->nrecs > p->max) {
    p->dropped += p->nrecs - p->max;
    p->nrecs = p->max;
  }
}

int rp__prof_keep(rp_profile *p, const struct call_rec *c) {
  if (p->nrecs >= p->max && p->nrecs - p->max >= RW_MAX(p->max, 1024))
    keep_first(p); /* sorting every so many keeps the cost down */
  RW_FORWARD(rp__grow((void **)&p->recs, p->nrecs, &p->caprecs,
                      sizeof *p->recs));
  p->recs[p->nrecs++] = *c;
  return 0;
}

/* Keeps frame F of SH's thread, which ended at global position GEND
 * (RETURNED: by its ret, with RET in rax), in the call history. */
static void keep_call(struct shadow *sh, const struct frame *f, u64 gend,
                      int returned, u64 ret) {
  rp_profile *p = sh->p;
  struct call_rec c = {.start = f->gstart,
                       .end = gend,
                       .ret = ret,
                       .tid = sh->tid,
                       .fn = f->fn,
                       .caller = sh->n ? sh->v[sh->n - 1].fn : ~0u,
                       .returned = returned};
  memcpy(c.args, f->args, sizeof c.args);
  /* A piece's own bottom frame: its caller is the real top frame below,
   * which the graft it hangs from stands for. */
  u32 up = p->nodes[f->node].parent;
  if (!sh->n && up && p->nodes[up - 1].fn == RP_GRAFT) c.graft = up;
  if (rp__prof_keep(p, &c) < 0) p->err = RW_ENOMEM;
}

/* Ends the top frame at the thread's count END, the global position
 * GEND; RETURNED when its ret ended it, with RET in rax. */
static void pop(struct shadow *sh, u64 end, u64 gend, int returned,
                u64 ret) {
  rp_profile *p = sh->p;
  const struct frame *f = &sh->v[--sh->n];
  if (RW_UNLIKELY(p->history) && p->fns[f->fn].wanted && f->slot &&
      !f->copied)
    keep_call(sh, f, gend, returned, ret);
  u64 incl = end - f->start;
  struct node *nd = &p->nodes[f->node];
  nd->excl += incl - f->kids;
  nd->incl += incl;
  if (sh->n)
    sh->v[sh->n - 1].kids += incl;
  else if (sh->base)
    sh->kacc += incl;
  else
    p->total += incl;
}

/* Keeps a taken branch in SH's ring. */
static void ring_add(struct shadow *sh, u64 from, u64 to, int kind) {
  struct taken *e = &sh->ring[sh->nring++ % sh->p->ring];
  e->from = from;
  e->to = to;
  e->kind = kind;
}

/* Ends the frames whose return address slot is below LIMIT (and near it),
 * at the thread's count END, the global position GEND. The root frame
 * stays. RET: a ret's, with RAX: the frame whose return address is at
 * RET_SLOT is the one it returned from. Returns how many frames ended. */
static size_t unwind(struct shadow *sh, u64 limit, u64 end, u64 gend,
                     int ret, u64 ret_slot, u64 rax) {
  size_t keep = !sh->base, n0 = sh->n, rec = ~(size_t)0;
  while (sh->n > keep) {
    u64 slot = sh->v[sh->n - 1].slot;
    if (slot >= limit || limit - slot > RP_PROF_NEAR) return n0 - sh->n;
    size_t had = sh->p->nrecs;
    pop(sh, end, gend, ret && slot == ret_slot, rax);
    if (ret && slot == ret_slot && sh->p->nrecs > had) rec = had;
  }
  if (sh->base) base_unwind(sh, limit, end, gend, ret, rax, rec);
  return n0 - sh->n;
}

/* The slot of the frame a ret that left the stack pointer at SP returned
 * from: the outermost of the frames it ends (the others were left by a
 * longjmp or an exception); not the root. */
static u64 ret_slot(const struct shadow *sh, u64 sp) {
  u64 found = 0;
  for (size_t k = sh->n; k-- > (size_t)!sh->base;) {
    u64 slot = sh->v[k].slot;
    if (slot >= sp || sp - slot > RP_PROF_NEAR) break;
    found = slot;
  }
  return found;
}

size_t rp__prof_unwind(struct shadow *sh, u64 limit, u64 end, u64 gend,
                       int ret, u64 rax) {
  u64 rs = ret && sh->n > (size_t)!sh->base ? ret_slot(sh, limit) : 0;
  return unwind(sh, limit, end, gend, ret, rs, rax);
}

void rp__prof_end(struct shadow *sh, u64 end, u64 gend) {
  while (sh->n) pop(sh, end, gend, 0, 0);
}

/* With a call history: the top frame, just entered after the thread's
 * count N, keeps its global start and argument registers. */
static void keep_args(struct shadow *sh, cpu_thread *cpu, u64 n) {
  struct frame *f = &sh->v[sh->n - 1];
  f->gstart = global_at(sh->p->rp, n + 1);
  for (int i = 0; i < 6; i++) f->args[i] = cpu_gpr(cpu, arg_regs[i]);
}

static void tap(struct shadow *sh, u64 from, u64 to, int taken, u32 site,
                int call);
static void tap_counter(struct shadow *sh, u64 from, u64 to, u64 n);
static void on_call(void *ctx, cpu_thread *cpu, u64 from, u64 to, u64 ret,
                    u64 n) {
  struct shadow *sh = ctx;
  u32 fn;
  (void)from, (void)ret;
  if (!sh || sh->p->err) return;
  if (sh->ring) ring_add(sh, from, to, RING_CALL);
  tap_counter(sh, from, to, n);
  tap(sh, from, to, 1, 0, 1);
  /* The return address pushed: a frame whose slot this is or was below
   * it is gone (left by a longjmp, an exception). */
  u64 slot = cpu_gpr(cpu, RW_REG_rsp);
  rp_profile *p = sh->p;
  unwind(sh, slot + 1, n,
         RW_UNLIKELY(p->history) ? global_at(p->rp, n) : 0, 0, 0, 0);
  int rc = fn_at(p, sh->t, to, &fn);
  if (rc == 0) rc = push(sh, fn, slot, n + 1);
  if (rc < 0) p->err = rc;
  p->calls++;
  if (RW_UNLIKELY(p->history) && rc == 0) keep_args(sh, cpu, n);
}

static void on_ret(void *ctx, cpu_thread *cpu, u64 from, u64 to, u64 n) {
  struct shadow *sh = ctx;
  (void)from;
  if (!sh || sh->p->err) return;
  /* The slot of the return address is below the stack now; the ret is
   * the callee's instruction. The frame whose slot the ret read returned
   * (ret imm16 pops more than the slot). */
  u64 sp = cpu_gpr(cpu, RW_REG_rsp);
  if (sh->ring) ring_add(sh, from, to, RING_RET);
  tap_counter(sh, from, to, n);
  tap(sh, from, to, 1, 0, 0);
  u64 gend = RW_UNLIKELY(sh->p->history) ? global_at(sh->p->rp, n + 1) : 0;
  rp__prof_unwind(sh, sp, n + 1, gend, 1, cpu_gpr(cpu, RW_REG_rax));
}

/* "function+0xOFF" for ADDR in thread T's process, into SYM (N). */
static void where_text(rp_profile *p, struct rp__thread *t, u64 addr,
                       char *sym, size_t n) {
  rp_replay *rp = p->rp;
  struct rp__proc *was = rp->proc;
  rp->proc = t->proc;
  if (rp_symbolize(rp, addr, sym, n) < 0)
    snprintf(sym, n, "%#llx", (unsigned long long)addr);
  rp->proc = was;
}

/* The same into P's strings. */
static int where_of(rp_profile *p, struct rp__thread *t, u64 addr, u32 *out) {
  char sym[300];
  where_text(p, t, addr, sym, sizeof sym);
  return rp__prof_str(p, sym, out);
}

/* The site of the branch at FROM in thread T's process: looked up by
 * address in the image, then by what tells sites apart (rp__prof_site). */
static int site_at(rp_profile *p, struct rp__thread *t, u64 from, int kind,
                   u32 *out) {
  struct space *s;
  RW_FORWARD(space_of(p, t, &s));
  u32 v = rp__umap_get(&s->by_site, from);
  if (!v) {
    char sym[300];
    where_text(p, t, from, sym, sizeof sym);
    RW_FORWARD(rp__prof_site(p, from, rp__proc_pid(t->proc), kind, sym,
                             &v));
    RW_FORWARD(rp__umap_put(&s->by_site, from, ++v));
  }
  *out = v - 1;
  return 0;
}

/* Counts a jump of indirect branch site I to TO. */
static int target_seen(rp_profile *p, struct rp__thread *t, u32 i, u64 to) {
  for (u64 h = rw_fmix64(to ^ ((u64)i << 40));; h++) {
    u32 v = rp__umap_get(&p->by_target, h);
    if (!v) break;
    struct target *g = &p->targets[v - 1];
    if (g->site == i && g->to == to) {
      g->count++;
      return 0;
    }
  }
  struct target g = {.site = i, .to = to, .count = 1};
  RW_FORWARD(rp__grow((void **)&p->targets, p->ntargets, &p->captargets,
                  sizeof *p->targets));
  RW_FORWARD(where_of(p, t, to, &g.where));
  u64 h = rw_fmix64(to ^ ((u64)i << 40));
  while (rp__umap_get(&p->by_target, h)) h++;
  RW_FORWARD(rp__umap_put(&p->by_target, h, (u32)p->ntargets + 1));
  p->targets[p->ntargets++] = g;
  return 0;
}

/* Whether P's threads keep shadow call stacks: not for the rep list or
 * the edge profile alone. */
static int wants_stacks(const rp_profile *p) {
  return (!p->reps && !p->branches && !p->counter && !p->data) ||
         p->history || p->ring || p->stacks;
}

/* Hands a branch of SH's thread to the sampler (CALL: a call). */
static void tap(struct shadow *sh, u64 from, u64 to, int taken, u32 site,
                int call) {
  rp_profile *p = sh->p;
  if (p->sampler)
    rp__sampler_branch(p->sampler, &sh->samp, sh->t, from, to, taken, site,
                       call);
}

/* The call path SH is on (its innermost frame's node + 1), for the
 * counter's marks; 0 without stacks. In a piece, with no own frame, the
 * graft that stands for the real top frame. */
static u32 path_of(struct shadow *sh) {
  if (!sh->p->stacks) return 0;
  if (sh->n) return sh->v[sh->n - 1].node + 1;
  u32 g = 0;
  if (sh->base && graft_of(sh, &g) < 0) sh->p->err = RW_ENOMEM;
  return g;
}

/* Hands a taken branch of SH's thread to the counter, before the stack
 * changes for it: the run it ends ran on the stack as it is. */
static void tap_counter(struct shadow *sh, u64 from, u64 to, u64 n) {
  if (sh->p->counter)
    rp__counter_jump(sh->p->counter, &sh->cnt, from, to, n, path_of(sh));
}

/* A taken jump of SH's thread to TO, the stack pointer at the frame's
 * return address: the function left nothing on the stack, so a jump into
 * another function is a tail call. The callee gets a frame of its own on
 * the caller's slot (a ret ends both). Cheap unless the stack pointer is
 * there: only frameless functions pay a lookup per taken branch. */
int rp__prof_tail(struct shadow *sh, u32 fn, u64 n, u64 gend) {
  const struct frame *top = &sh->v[sh->n - 1];
  /* A chain of tail calls that comes back to a function in it (an
   * interpreter's dispatch from handler to handler) goes back to that
   * frame, leaving the ones above: a chain is never longer than the
   * functions in it. Not to the root frame; a piece's own bottom frame
   * is never the root. */
  size_t lo = !sh->base, k = sh->n - 1;
  while (k > lo && sh->v[k].slot == top->slot && sh->v[k].fn != fn) k--;
  if (k < sh->n - 1 && sh->v[k].slot == top->slot && sh->v[k].fn == fn) {
    while (sh->n > k + 1) pop(sh, n + 1, gend, 0, 0);
    return 0;
  }
  if (fn == top->fn) return 0;
  RW_FORWARD(push(sh, fn, top->slot, n + 1));
  sh->v[sh->n - 1].tail = 1;
  sh->p->calls++;
  return 1;
}

static void tail_seen(struct shadow *sh, cpu_thread *cpu, u64 to, u64 n) {
  u32 fn;
  if (cpu_gpr(cpu, RW_REG_rsp) != sh->v[sh->n - 1].slot) return;
  int rc = fn_at(sh->p, sh->t, to, &fn);
  u64 gend = RW_UNLIKELY(sh->p->history) ? global_at(sh->p->rp, n + 1) : 0;
  if (rc == 0) rc = rp__prof_tail(sh, fn, n, gend);
  if (rc > 0 && RW_UNLIKELY(sh->p->history)) keep_args(sh, cpu, n);
  if (rc < 0) sh->p->err = rc;
}

static void on_branch(void *ctx, cpu_thread *cpu, u64 from, u64 to,
                      int taken, int kind, u64 n) {
  struct shadow *sh = ctx;
  u32 i;
  (void)cpu, (void)n;
  if (!sh || sh->p->err) return;
  rp_profile *p = sh->p;
  if (sh->ring && taken) ring_add(sh, from, to, kind);
  if (taken) tap_counter(sh, from, to, n);
  if (taken && sh->n > !sh->base && sh->v[sh->n - 1].slot &&
      wants_stacks(p))
    tail_seen(sh, cpu, to, n);
  else if (taken && sh->base && !sh->n && wants_stacks(p))
    base_branch(sh, cpu, to, n);
  if (!p->branches || kind == CPU_BRANCH_JMP) {
    tap(sh, from, to, taken, 0, 0);
    return;
  }
  int rc = site_at(p, sh->t, from, kind, &i);
  if (rc == 0) {
    p->sites[i].execs++;
    p->sites[i].taken += taken != 0;
    p->nbranches++;
    if (kind == CPU_BRANCH_INDIRECT) rc = target_seen(p, sh->t, i, to);
  }
  if (rc < 0) p->err = rc;
  tap(sh, from, to, taken, rc == 0 && kind == CPU_BRANCH_COND ? i + 1 : 0,
      0);
}

static void on_rep(void *ctx, cpu_thread *cpu, u64 at, const char *mnem,
                   u64 requested, u64 done, int how, u64 n) {
  struct shadow *sh = ctx;
  u32 i;
  (void)cpu;
  if (!sh || sh->p->err) return;
  rp_profile *p = sh->p;
  if (p->counter) rp__counter_rep(p->counter, &sh->cnt, at, done, how);
  if (!p->reps) return;
  int rc = site_at(p, sh->t, at, SITE_REP, &i);
  if (rc < 0) {
    p->err = rc;
    return;
  }
  p->sites[i].mnem = mnem;
  p->nreps++;
  p->rep_iters += done;
  /* Begun at the thread's first instruction of a run from a keyframe: it
   * may be the end of one begun before (struct rep_part). */
  if (n == sh->n0 && p->rp->trace.pro_seq) {
    struct rep_part h = {(u32)sh->t->st.tid, i, requested, done, how};
    rc = rp__grow((void **)&p->heads, p->nheads, &p->capheads,
                  sizeof *p->heads);
    if (rc == 0) p->heads[p->nheads++] = h;
    if (rc < 0) p->err = rc;
    return;
  }
  rp__rep_count(&p->sites[i], requested, done, how);
}

/* The rep instruction each thread is inside at the end of P's run, as an
 * open part (struct rep_part). */
static int reps_open(rp_profile *p) {
  for (size_t k = 0; k < p->nsh; k++) {
    struct shadow *sh = p->sh[k];
    u64 at, req, done, n;
    const char *mnem;
    u32 i;
    if (!cpu_rep_open(sh->t->cpu, &at, &mnem, &req, &done, &n)) continue;
    RW_FORWARD(site_at(p, sh->t, at, SITE_REP, &i));
    p->sites[i].mnem = mnem;
    struct rep_part o = {(u32)sh->t->st.tid, i, req, done, n == sh->n0};
    RW_FORWARD(rp__grow((void **)&p->opens, p->nopens, &p->capopens,
                        sizeof *p->opens));
    p->opens[p->nopens++] = o;
  }
  return 0;
}

/* The observer of P's threads, with CTX. */
static void on_call(void *ctx, cpu_thread *cpu, u64 from, u64 to, u64 ret,
                    u64 n);
static void on_ret(void *ctx, cpu_thread *cpu, u64 from, u64 to, u64 n);
/* Calls and returns as taken branches alone (the sampler's, the
 * counter's): edges and counts need no call stacks. */
static void on_call_taken(void *ctx, cpu_thread *cpu, u64 from, u64 to,
                          u64 ret, u64 n) {
  struct shadow *sh = ctx;
  (void)cpu;
  if (sh && !sh->p->err) {
    tap_counter(sh, from, to, n);
    tap(sh, from, to, 1, 0, ret != 0); /* a ret comes with RET 0 */
  }
}
static void on_ret_taken(void *ctx, cpu_thread *cpu, u64 from, u64 to,
                         u64 n) {
  on_call_taken(ctx, cpu, from, to, 0, n);
}

static void on_access(void *ctx, cpu_thread *cpu, u64 addr, u32 size,
                      int write) {
  struct shadow *sh = ctx;
  if (sh && !sh->p->err)
    rp__data_access(sh->p->data, sh->t, cpu_rip(cpu), addr, size, write,
                    path_of(sh));
}

static struct cpu_observer observer(const rp_profile *p, void *ctx) {
  /* The rep list and the edge profile need no call stacks; a sampled edge
   * profile needs the calls and returns as taken branches. */
  int stacks = wants_stacks(p);
  int taken = !stacks && (p->sampler || p->counter);
  return (struct cpu_observer){.on_call = stacks  ? on_call
                                          : taken ? on_call_taken
                                                  : NULL,
                               .on_ret = stacks  ? on_ret
                                         : taken ? on_ret_taken
                                                 : NULL,
                               .on_branch = p->branches || p->ring ||
                                                    stacks || p->counter
                                                ? on_branch
                                                : NULL,
                               .on_rep = p->reps || p->counter ? on_rep
                                                               : NULL,
                               .on_access = p->data ? on_access : NULL,
                               .ctx = ctx};
}

/* The stack of thread T in P, or NULL. */
static const struct shadow *shadow_of(const rp_profile *p,
                                      const struct rp__thread *t) {
  for (size_t i = 0; t && i < p->nsh; i++)
    if (p->sh[i]->t == t) return p->sh[i];
  return NULL;
}

/* SH, the first thread of a process just forked by FROM's, goes on from
 * the fork on FROM's stack: its frames are copies of FROM's, whose calls
 * (and their history) are FROM's; in a piece, with FROM's frames below
 * them, which the join copies where FROM's log had FORK_EV events. */
static int fork_copy(struct shadow *sh, const struct shadow *from) {
  if (from->n && !(sh->v = malloc(from->n * sizeof *sh->v)))
    return RW_ENOMEM;
  sh->n = sh->cap = from->n;
  for (size_t i = 0; i < from->n; i++) {
    sh->v[i] = from->v[i];
    sh->v[i].start = sh->n0;
    sh->v[i].kids = 0;
    sh->v[i].gstart = 0;
    sh->v[i].copied = 1;
  }
  sh->root_fn = from->root_fn;
  sh->base = from->base;
  if (sh->base) {
    sh->graft = from->graft; /* the copies hang from it too */
    sh->fork_serial = from->serial;
    sh->fork_ev = from->nev;
  }
  return 0;
}

int rp__prof_thread_start(rp_replay *rp, struct rp__thread *t) {
  rp_profile *p = rp->prof;
  struct rw_regs regs;
  u32 fn = 0;
  if (p->data) rp__data_watch(p->data, t->proc->mem);
  if (p->want_tid && t->st.tid != p->want_tid) {
    /* Another thread: observed with no stack, so that the blocks its
     * address space shares with the wanted thread keep their observing
     * handlers (the kinds must agree), and nothing of it counts. */
    struct cpu_observer none = observer(p, NULL);
    return cpu_set_observer(t->cpu, &none);
  }
  struct shadow *sh = calloc(1, sizeof *sh);
  if (!sh) return RW_ENOMEM;
  sh->p = p;
  sh->t = t;
  sh->tid = (u32)t->st.tid;
  sh->t_fn = ~0u;
  sh->serial = ++p->nserial;
  sh->base = p->piece && p->starting && p->rp->trace.pro_seq;
  cpu_get_regs(t->cpu, &regs);
  int rc = 0;
  if (p->ring && !(sh->ring = calloc(p->ring, sizeof *sh->ring)))
    rc = RW_ENOMEM;
  if (rc == 0) rc = fn_at(p, t, regs.rip, &fn);
  sh->root_fn = fn;
  sh->n0 = cpu_icount(t->cpu);
  const struct shadow *from =
      p->starting ? NULL : shadow_of(p, rp->th.fork_from);
  if (rc == 0 && from) rc = fork_copy(sh, from);
  else if (rc == 0 && !sh->base) rc = push(sh, fn, 0, sh->n0);
  if (rc == 0)
    rc = rp__grow((void **)&p->sh, p->nsh, &p->capsh, sizeof *p->sh);
  if (rc == 0 && p->counter)
    rc = rp__counter_moved(p->counter, &sh->cnt, t, 0, 0, 0);
  struct cpu_observer o = observer(p, sh);
  if (rc == 0) rc = cpu_set_observer(t->cpu, &o);
  if (rc < 0) {
    if (p->counter) rp__counter_end(p->counter, &sh->cnt, 0);
    free(sh->v);
    free(sh->ring);
    free(sh);
    return rc;
  }
  p->sh[p->nsh++] = sh;
  p->threads += !sh->base || from; /* the pieces before counted the others */
  return 0;
}

/* Keeps SH's log, whose thread's count is END, in its piece's logs, with
 * its open frames when OPEN. Returns 0 or RW_ENOMEM. */
static int keep_log(struct shadow *sh, u64 end, int open) {
  rp_profile *p = sh->p;
  struct plog l = {.tid = sh->tid,
                   .born = !sh->base,
                   .root_fn = sh->root_fn,
                   .serial = sh->serial,
                   .fork_serial = sh->fork_serial,
                   .fork_ev = sh->fork_ev,
                   .done = end - sh->n0,
                   .nev = sh->nev,
                   .nopen = open ? sh->n : 0,
                   .ev = sh->ev,
                   .ex = sh->ex};
  if (l.nopen && !(l.open = malloc(l.nopen * sizeof *l.open)))
    return RW_ENOMEM;
  RW_FORWARD(rp__grow((void **)&p->logs, p->nlogs, &p->caplogs,
                      sizeof *p->logs));
  for (size_t i = 0; i < l.nopen; i++) {
    l.open[i] = sh->v[i];
    l.open[i].start -= sh->n0;
  }
  p->logs[p->nlogs++] = l;
  sh->ev = NULL;
  sh->ex = NULL;
  sh->nev = sh->capev = 0;
  return 0;
}

/* The end of a piece: SH's thread goes on in the next one, which needs its
 * log and the frames it leaves open. */
static void piece_close(struct shadow *sh) {
  /* The counter's last run ran on the stack as the piece leaves it. */
  if (sh->p->counter) rp__counter_end(sh->p->counter, &sh->cnt, path_of(sh));
  base_moves(sh);
  if (keep_log(sh, cpu_icount(sh->t->cpu), 1) < 0) sh->p->err = RW_ENOMEM;
  sh->n = 0;
  sh->base = 0;
}

void rp__prof_thread_end(rp_replay *rp, struct rp__thread *t) {
  rp_profile *p = rp->prof;
  for (size_t i = 0; i < p->nsh; i++) {
    struct shadow *sh = p->sh[i];
    if (sh->t != t) continue;
    u64 end = cpu_icount(t->cpu);
    if (p->counter) rp__counter_end(p->counter, &sh->cnt, path_of(sh));
    while (sh->n) pop(sh, end, rp->icount, 0, 0);
    if (sh->base) { /* its frames below end too */
      base_moves(sh);
      log_ev(sh, PE_END, 0, 0, end);
      last_ex(sh, rp->icount, 0);
      if (keep_log(sh, end, 0) < 0) p->err = RW_ENOMEM;
    }
    /* The cpu may serve another thread: it keeps observing (no blocks to
     * decode again), with no stack to keep. */
    struct cpu_observer none = observer(p, NULL);
    if (cpu_set_observer(t->cpu, &none) < 0) p->err = RW_ENOMEM;
    free(sh->v);
    free(sh->ring);
    free(sh->ev);
    free(sh->ex);
    free(sh);
    p->sh[i] = p->sh[--p->nsh];
    return;
  }
}

void rp_profile_free(rp_profile *p) {
  if (!p) return;
  for (size_t i = 0; i < p->nsh; i++) {
    free(p->sh[i]->v);
    free(p->sh[i]->ring);
    free(p->sh[i]->cnt);
    free(p->sh[i]->ev);
    free(p->sh[i]->ex);
    free(p->sh[i]);
  }
  free(p->sh);
  for (size_t i = 0; i < p->nlogs; i++) {
    free(p->logs[i].ev);
    free(p->logs[i].ex);
    free(p->logs[i].open);
  }
  free(p->logs);
  for (size_t i = 0; i < p->nspaces; i++) {
    rp__umap_free(&p->spaces[i].by_addr);
    rp__umap_free(&p->spaces[i].by_site);
  }
  rp__umap_free(&p->by_target);
  rp__umap_free(&p->by_merge);
  free(p->sites);
  free(p->heads);
  free(p->opens);
  free(p->targets);
  free(p->spaces);
  rp__umap_free(&p->names);
  rp__umap_free(&p->by_edge);
  rp__umap_free(&p->by_node);
  free(p->fns);
  free(p->strs);
  free(p->edges);
  free(p->nodes);
  free(p->recs);
  rp__sampler_free(p->sampler);
  free(p);
}

/* Stops observing every thread of RP, spare ones included. */
static void unobserve(rp_replay *rp) {
  for (size_t i = 0; i < rp->th.nthreads; i++)
    if (cpu_set_observer(rp->th.threads[i]->cpu, NULL) < 0) continue;
  for (size_t i = 0; i < rp->th.nspare; i++)
    if (cpu_set_observer(rp->th.spare[i]->cpu, NULL) < 0) continue;
}

/* Runs P's replay to the end of its history with P observing. */
static int profile_run(rp_profile *p, struct rp_stop *stop) {
  rp_replay *rp = p->rp;
  int rc = 0;
  memset(stop, 0, sizeof *stop);
  /* The whole history, for a debugger at any position: from the first
   * keyframe, and back to the position after. */
  u64 at = rp->icount, ev = rp->trace.events;
  if (p->whole) {
    RW_RETURN_IF(rp->health.broken, RW_EINVAL, "the replay is broken here");
    struct rp__kf *kf = rp__kf_before(rp, 0, 0);
    RW_RETURN_IF(!kf, RW_ENOTFOUND, "no keyframe at the start");
    RW_FORWARD(rp__kf_restore(rp, kf));
  }
  rp->prof = p;
  /* The program's output is the debugger's to show as the user moves; a
   * run for an analysis shows none of it. */
  rp_echo_fn echo = rp->user.echo;
  rp->user.echo = NULL;
  /* The threads alive here start their stacks at their current function
   * (in a piece, above the frames the pieces before know). */
  p->starting = 1;
  for (size_t i = 0; rc == 0 && i < rp->th.nthreads; i++)
    if (rp->th.threads[i]->st.alive)
      rc = rp__prof_thread_start(rp, rp->th.threads[i]);
  p->starting = 0;
  if (p->counter) rp__counter_bound(p->counter, 0);
  while (rc == 0) { /* in slices, with TICK between them */
    struct rp__goal goal =
        rp__goal_at(p->tick ? rp->icount + RP_SHADOW_SLICE : ~0ull, 0);
    rc = rp__run(rp, &goal, stop);
    if (rc < 0 || stop->reason != RP_STOP_TARGET) break;
    p->tick(p->tick_ctx);
  }
  if (rc == 0 && p->reps) rc = reps_open(p);
  if (p->counter) rp__counter_bound(p->counter, 1);
  while (p->nsh) {
    if (p->piece) piece_close(p->sh[p->nsh - 1]);
    rp__prof_thread_end(rp, p->sh[p->nsh - 1]->t);
  }
  rp->prof = NULL;
  rp->user.echo = echo;
  unobserve(rp);
  if (p->whole) { /* back where the debugger was, whatever happened */
    struct rp_stop back;
    int r = rp__seek(rp, at, ev, &back);
    if (rc >= 0 && r < 0) rc = r;
  }
  return rc < 0 ? rc : p->err;
}

/* rp_profile_run, or rp_profile_piece_run when PIECE. */
static int run_tree(rp_replay *rp, u32 tid, int piece, rp_profile **out,
                    struct rp_stop *stop) {
  rp_profile *p = calloc(1, sizeof *p);
  *out = NULL;
  if (!p) return RW_ENOMEM;
  p->rp = rp;
  p->want_tid = tid;
  p->piece = piece;
  int rc = profile_run(p, stop);
  if (rc == 0 && tid && !p->threads && !piece) rc = RW_ENOTFOUND;
  if (rc == 0 && !piece) rc = rp__prof_canon(p);
  if (rc == 0 && !piece) rc = rp__prof_derive(p);
  if (rc < 0) {
    rp_profile_free(p);
    return rc;
  }
  *out = p;
  return 0;
}

int rp_profile_run(rp_replay *rp, u32 tid, rp_profile **out,
                   struct rp_stop *stop) {
  return run_tree(rp, tid, 0, out, stop);
}

int rp_profile_piece_run(rp_replay *rp, u32 tid, rp_profile **out,
                         struct rp_stop *stop) {
  return run_tree(rp, tid, 1, out, stop);
}

void rp__prof_moved(rp_replay *rp, struct rp__thread *t, u64 at,
                    int executed) {
  rp_profile *p = rp->prof;
  for (size_t i = 0; p->counter && i < p->nsh; i++)
    if (p->sh[i]->t == t) {
      int rc = rp__counter_moved(p->counter, &p->sh[i]->cnt, t, at, executed,
                                 path_of(p->sh[i]));
      if (rc < 0 && !p->err) p->err = rc;
      return;
    }
}

/* Runs a profile with counter C (with call stacks when STACKS) or data
 * counter D alone. */
static int prof_tap(rp_replay *rp, u32 tid, struct rp__counter *c,
                    int stacks, rp_data *d, int whole,
                    void (*tick)(void *ctx), void *ctx,
                    struct rp_stop *stop, rp_profile **piece) {
  rp_profile *p = calloc(1, sizeof *p);
  if (piece) *piece = NULL;
  if (!p) return RW_ENOMEM;
  p->piece = piece && stacks;
  p->rp = rp;
  p->want_tid = tid;
  p->counter = c;
  p->stacks = stacks;
  p->data = d;
  p->whole = whole;
  p->tick = tick;
  p->tick_ctx = ctx;
  int rc = profile_run(p, stop);
  /* (A piece counts no thread that was there where it began.) */
  if (rc == 0 && tid && !p->threads && !p->piece) rc = RW_ENOTFOUND;
  if (p->piece) { /* its paths are its call tree's, joined later */
    if (rc == 0) *piece = p;
    else rp_profile_free(p);
    return rc;
  }
  if (rc == 0 && c && stacks) rc = rp__counter_paths(c, p);
  if (rc == 0 && d && stacks) rc = rp__data_paths(d, p);
  rp_profile_free(p);
  return rc;
}

int rp__prof_count(rp_replay *rp, u32 tid, struct rp__counter *c,
                   int stacks, int whole, void (*tick)(void *ctx), void *ctx,
                   struct rp_stop *stop, rp_profile **piece) {
  return prof_tap(rp, tid, c, stacks, NULL, whole, tick, ctx, stop, piece);
}

int rp__prof_data(rp_replay *rp, u32 tid, rp_data *d, int stacks, int whole,
                  void (*tick)(void *ctx), void *ctx, struct rp_stop *stop,
                  rp_profile **piece) {
  return prof_tap(rp, tid, NULL, stacks, d, whole, tick, ctx, stop, piece);
}

/* ---- The call history ------------------------------------------------- */

struct rp_calls {
  rp_profile *p;
  struct rp_call *v;
  size_t n;
};

/* Runs P's replay to the end, keeping P's call history into C. */
static int calls_run(rp_profile *p, rp_calls *c, struct rp_stop *stop);

/* A call history of RP for function FN (NULL: all) and thread TID (0:
 * all), at most MAX calls (0: no limit). NULL when out of memory. */
static rp_calls *calls_new(rp_replay *rp, const char *fn, u32 tid,
                           size_t max) {
  rp_calls *c = calloc(1, sizeof *c);
  rp_profile *p = calloc(1, sizeof *p);
  if (!c || !p) {
    free(c);
    free(p);
    return NULL;
  }
  c->p = p;
  p->rp = rp;
  p->history = 1;
  p->want_fn = fn;
  p->want_tid = tid;
  p->max = max ? max : SIZE_MAX;
  return c;
}

int rp_calls_run(rp_replay *rp, const char *fn, u32 tid, size_t max,
                 rp_calls **out, struct rp_stop *stop) {
  rp_calls *c = calls_new(rp, fn, tid, max);
  *out = NULL;
  if (!c) return RW_ENOMEM;
  int rc = calls_run(c->p, c, stop);
  if (rc < 0) {
    rp_calls_free(c);
    return rc;
  }
  *out = c;
  return 0;
}

/* C's list from its profile's history. */
static int calls_list(rp_calls *c) {
  rp_profile *p = c->p;
  int rc = 0;
  if (p->nrecs) {
    keep_first(p);
    c->v = calloc(p->nrecs, sizeof *c->v);
    if (!c->v) rc = RW_ENOMEM;
  }
  for (size_t i = 0; rc == 0 && i < p->nrecs; i++) {
    const struct call_rec *r = &p->recs[i];
    struct rp_call *k = &c->v[i];
    k->start = r->start;
    k->end = r->end;
    k->tid = r->tid;
    k->returned = r->returned;
    k->ret = r->ret;
    memcpy(k->args, r->args, sizeof k->args);
    k->fn = p->strs + p->fns[r->fn].name;
    k->object = p->strs + p->fns[r->fn].object;
    k->caller = r->caller == ~0u ? NULL : p->strs + p->fns[r->caller].name;
  }
  p->want_fn = NULL; /* borrowed for the run only */
  if (rc == 0) c->n = p->nrecs;
  return rc;
}

static int calls_run(rp_profile *p, rp_calls *c, struct rp_stop *stop) {
  int rc = profile_run(p, stop);
  if (rc == 0) rc = calls_list(c);
  p->want_fn = NULL;
  return rc;
}

int rp_calls_piece_run(rp_replay *rp, const char *fn, u32 tid,
                       rp_profile **out, struct rp_stop *stop) {
  rp_calls *c = calls_new(rp, fn, tid, 0);
  *out = NULL;
  if (!c) return RW_ENOMEM;
  c->p->piece = 1;
  int rc = profile_run(c->p, stop);
  c->p->want_fn = NULL;
  if (rc == 0) {
    *out = c->p;
    c->p = NULL;
  }
  rp_calls_free(c);
  return rc;
}

int rp_calls_total(const char *fn, u32 tid, size_t max, rp_calls **out) {
  *out = calls_new(NULL, fn, tid, max);
  return *out ? 0 : RW_ENOMEM;
}

int rp_calls_add(rp_calls *c, FILE *f) {
  return rp_profile_tree_add(c->p, f);
}

int rp_calls_done(rp_calls *c) {
  RW_FORWARD(rp_profile_tree_done(c->p));
  return calls_list(c);
}

int rp_calls_whole(rp_replay *rp, const char *fn, size_t max,
                   void (*tick)(void *ctx), void *ctx, rp_calls **out) {
  struct rp_stop stop;
  *out = NULL;
  rp_calls *c = calls_new(rp, fn, 0, max);
  if (!c) return RW_ENOMEM;
  c->p->tick = tick;
  c->p->tick_ctx = ctx;
  c->p->whole = 1;
  int rc = calls_run(c->p, c, &stop);
  if (rc < 0) {
    rp_calls_free(c);
    return rc;
  }
  *out = c;
  return 0;
}

size_t rp_calls_count(const rp_calls *c, u64 *dropped) {
  if (dropped) *dropped = c->p->dropped;
  return c->n;
}

const struct rp_call *rp_calls_get(const rp_calls *c, size_t i) {
  return i < c->n ? &c->v[i] : NULL;
}

void rp_calls_free(rp_calls *c) {
  if (!c) return;
  free(c->v);
  rp_profile_free(c->p);
  free(c);
}

void rp_profile_totals(const rp_profile *p, u64 *instructions, u64 *calls,
                       u32 *threads) {
  *instructions = p->total;
  *calls = p->calls;
  *threads = p->threads;
}

size_t rp__prof_nodes(const rp_profile *p) { return p->nnodes; }

void rp__prof_node(const rp_profile *p, size_t i, struct rp__prof_node *out) {
  const struct node *n = &p->nodes[i];
  const struct fn *f = &p->fns[n->fn];
  *out = (struct rp__prof_node){.parent = n->parent,
                                .excl = n->excl,
                                .name = p->strs + f->name,
                                .object = p->strs + f->object,
                                .fn_incl = f->incl,
                                .fn_calls = f->calls};
}

/* ---- The shadow stack at a position (monitor stack) ----------------- */

/* Appends the frames of SH, innermost first, to F. */
static void frames_text(rp_replay *rp, const struct shadow *sh, FILE *f) {
  const rp_profile *p = sh->p;
  struct rp__proc *was = rp->proc; /* symbols of the thread's process */
  rp->proc = sh->t->proc;
  for (size_t i = sh->n, k = 0; i-- > 0; k++) {
    const struct frame *fr = &sh->v[i];
    const struct fn *fn = &p->fns[fr->fn];
    fprintf(f, "#%-3zu %s (%s), entered at its instruction %llu%s", k,
            p->strs + fn->name, p->strs + fn->object,
            (unsigned long long)fr->start,
            fr->tail ? " by a jump (a tail call)" : "");
    u64 ret;
    char sym[300];
    if (!fr->slot) {
      fputs(", where the thread began\n", f);
    } else if (cpu_mem_read(sh->t->proc->mem, fr->slot, &ret, 8) == 0) {
      if (rp_symbolize(rp, ret, sym, sizeof sym) < 0) sym[0] = 0;
      fprintf(f, ", returns to %#llx%s%s%s\n", (unsigned long long)ret,
              sym[0] ? " <" : "", sym, sym[0] ? ">" : "");
    } else {
      fprintf(f, ", its return address at %#llx cannot be read\n",
              (unsigned long long)fr->slot);
    }
  }
  rp->proc = was;
}

/* Appends SH's ring of taken branches, oldest first, to F. */
static void ring_text(rp_replay *rp, const struct shadow *sh, FILE *f) {
  size_t cap = sh->p->ring;
  u64 n = RW_MIN(sh->nring, (u64)cap);
  struct rp__proc *was = rp->proc; /* symbols of the thread's process */
  rp->proc = sh->t->proc;
  for (u64 i = sh->nring - n; i < sh->nring; i++) {
    const struct taken *e = &sh->ring[i % cap];
    char a[200], b[200];
    if (rp_symbolize(rp, e->from, a, sizeof a) < 0) a[0] = 0;
    if (rp_symbolize(rp, e->to, b, sizeof b) < 0) b[0] = 0;
    const char *kind = e->kind == RING_CALL             ? "call"
                       : e->kind == RING_RET            ? "ret"
                       : e->kind == CPU_BRANCH_JMP      ? "jmp"
                       : e->kind == CPU_BRANCH_INDIRECT ? "indirect"
                                                        : "cond";
    if (sh->p->ring_json) {
      fprintf(f, "{\"kind\":\"%s\",\"from\":%llu,\"from_where\":", kind,
              (unsigned long long)e->from);
      trace_json_str(f, a);
      fprintf(f, ",\"to\":%llu,\"to_where\":", (unsigned long long)e->to);
      trace_json_str(f, b);
      fputs("}\n", f);
    } else {
      fprintf(f, "  %-8s %#llx <%s> -> %#llx <%s>\n", kind,
              (unsigned long long)e->from, a, (unsigned long long)e->to, b);
    }
  }
  rp->proc = was;
}

/* The text about thread TID at the current position, from a run of the
 * history from its start to here with observers: its shadow stack, or
 * with RING > 0 its last RING taken branches. */
static int here_text(rp_replay *rp, u32 tid, size_t ring, int json,
                     void (*tick)(void *ctx), void *ctx, char **out) {
  struct rp_stop stop;
  *out = NULL;
  if (!tid) tid = rp_current_tid(rp);
  struct rp__thread *t = tid ? rp__thread_find(rp, tid) : NULL;
  RW_RETURN_IF(!t || !t->st.alive, RW_ENOTFOUND,
               "thread %u does not run here", tid);
  RW_RETURN_IF(rp->health.broken, RW_EINVAL,
               "the replay is broken here");
  u64 at = rp->icount, ev = rp->trace.events;
  int ended = rp->fin.ended;
  struct rp__kf *kf = rp__kf_before(rp, 0, 0);
  RW_RETURN_IF(!kf, RW_ENOTFOUND, "no keyframe at the start");
  RW_FORWARD(rp__kf_restore(rp, kf));
  rp_profile *p = calloc(1, sizeof *p);
  if (!p) return RW_ENOMEM;
  p->rp = rp;
  p->ring = ring;
  p->ring_json = json;
  rp->prof = p;
  int rc = 0;
  for (size_t i = 0; rc == 0 && i < rp->th.nthreads; i++)
    if (rp->th.threads[i]->st.alive)
      rc = rp__prof_thread_start(rp, rp->th.threads[i]);
  /* Back to here, in slices. */
  while (rc == 0) {
    int last = ended || at - rp->icount <= RP_SHADOW_SLICE;
    struct rp__goal goal =
        rp__goal_at(ended ? ~0ull : last ? at : rp->icount + RP_SHADOW_SLICE,
                    0);
    if (last && !ended) goal.events = ev;
    rc = rp__run(rp, &goal, &stop);
    if (rc < 0 || last || stop.reason != RP_STOP_TARGET) break;
    if (tick) tick(ctx);
  }
  if (rc == 0) rc = p->err;
  const struct shadow *sh = NULL;
  for (size_t i = 0; rc == 0 && i < p->nsh; i++)
    if (p->sh[i]->t->st.tid == tid && p->sh[i]->t->st.alive) sh = p->sh[i];
  if (rc == 0 && (rp->icount != at || !sh)) rc = RW_ENOTFOUND;
  if (rc == 0) {
    size_t len;
    FILE *f = open_memstream(out, &len);
    if (!f) {
      rc = RW_ENOMEM;
    } else {
      if (ring && json) {
        ring_text(rp, sh, f);
      } else if (ring) {
        fprintf(f, "thread %u at instruction %llu: its last %llu taken "
                   "branches (of %llu since it began), oldest first\n",
                tid, (unsigned long long)at,
                (unsigned long long)RW_MIN(sh->nring, (u64)ring),
                (unsigned long long)sh->nring);
        ring_text(rp, sh, f);
      } else {
        fprintf(f, "thread %u at instruction %llu: %zu frames (from the "
                   "calls and returns since the thread began)\n",
                tid, (unsigned long long)at, sh->n);
        frames_text(rp, sh, f);
      }
      if (fclose(f) != 0) rc = RW_ENOMEM;
    }
  }
  rp->prof = NULL;
  unobserve(rp);
  rp_profile_free(p);
  if (rc < 0) {
    free(*out);
    *out = NULL;
    /* Back where the debugger was, as far as it goes. */
    if (rp->icount != at || rp->trace.events != ev) {
      int r = rp__seek(rp, ended ? ~0ull : at, ended ? 0 : ev, &stop);
      (void)r;
    }
  }
  return rc;
}

int rp_shadow_text(rp_replay *rp, u32 tid, void (*tick)(void *ctx),
                   void *ctx, char **out) {
  return here_text(rp, tid, 0, 0, tick, ctx, out);
}

int rp_branches_text(rp_replay *rp, u32 tid, size_t n,
                     void (*tick)(void *ctx), void *ctx, char **out) {
  RW_RETURN_IF(!n || n > RP_RING_MAX, RW_EINVAL, "ring of %zu", n);
  return here_text(rp, tid, n, 0, tick, ctx, out);
}

int rp_branches_json(rp_replay *rp, u32 tid, size_t n,
                     void (*tick)(void *ctx), void *ctx, char **out) {
  RW_RETURN_IF(!n || n > RP_RING_MAX, RW_EINVAL, "ring of %zu", n);
  return here_text(rp, tid, n, 1, tick, ctx, out);
}

/* ---- The edge profile ------------------------------------------------- */

int rp_edges_run(rp_replay *rp, rp_profile **out, struct rp_stop *stop) {
  return rp_edges_sampled_run(rp, NULL, out, stop);
}

int rp_edges_sampled_run(rp_replay *rp, const struct rp_sample_opts *o,
                         rp_profile **out, struct rp_stop *stop) {
  rp_profile *p = calloc(1, sizeof *p);
  *out = NULL;
  if (!p) return RW_ENOMEM;
  p->rp = rp;
  p->branches = 1;
  int rc = o ? rp__sampler_new(rp, o, &p->sampler) : 0;
  if (rc == 0) rc = profile_run(p, stop);
  if (rc == 0 && p->sampler) rc = rp__sampler_err(p->sampler);
  if (rc < 0) {
    rp_profile_free(p);
    return rc;
  }
  *out = p;
  return 0;
}


int rp_profile_sampled(const rp_profile *p, FILE *out, size_t top,
                       int json) {
  RW_RETURN_IF(!p->sampler, RW_EINVAL, "the profile was not sampled");
  return rp__sampler_report(p->sampler, out, top, json);
}

void rp_edges_totals(const rp_profile *p, u64 *executed, size_t *sites) {
  *executed = p->nbranches;
  *sites = p->nsites;
}

/* ---- Rep string instructions ------------------------------------------ */

/* A rep list of RP into *OUT: of the rest of the history, or with WHOLE
 * of all of it (TICK, CTX as in rp_reps_whole). */
static int reps_run(rp_replay *rp, int whole, void (*tick)(void *ctx),
                    void *ctx, rp_profile **out, struct rp_stop *stop) {
  rp_profile *p = calloc(1, sizeof *p);
  *out = NULL;
  if (!p) return RW_ENOMEM;
  p->rp = rp;
  p->reps = 1;
  p->whole = whole;
  p->tick = tick;
  p->tick_ctx = ctx;
  int rc = profile_run(p, stop);
  if (rc < 0) {
    rp_profile_free(p);
    return rc;
  }
  *out = p;
  return 0;
}

int rp_reps_run(rp_replay *rp, rp_profile **out, struct rp_stop *stop) {
  return reps_run(rp, 0, NULL, NULL, out, stop);
}


int rp_reps_whole(rp_replay *rp, void (*tick)(void *ctx), void *ctx,
                  rp_profile **out) {
  struct rp_stop stop;
  return reps_run(rp, 1, tick, ctx, out, &stop);
}
