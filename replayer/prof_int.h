/* SPDX-License-Identifier: MIT */
/* The profile's data (replayer/profile.c builds it, replayer/prof_write.c
 * writes it out): shared by the two files of the profile alone. */
#ifndef RW_REPLAYER_PROF_INT_H
#define RW_REPLAYER_PROF_INT_H

#include "replayer/rp_int.h"

/* ---- The profile -------------------------------------------------------- */

struct fn {
  u32 name, object; /* offsets in strs */
  u64 calls, incl, excl;
  int wanted;       /* its calls go to the call history */
};

/* A call kept for the call history (rp_calls_run). */
struct call_rec {
  u64 start, end; /* global positions */
  u64 args[6];
  u64 ret;
  u32 tid, fn, caller; /* caller: a function index, or ~0u */
  int returned;
  u32 graft; /* a piece's: the caller is the real top of graft node
                GRAFT - 1 (0: none) */
  u32 pend;  /* a piece's: returned only if the base unwind of the ret
                numbered PEND ended no frame (0: none) */
};

struct edge {
  u32 caller, callee; /* function indexes */
  u64 calls, incl;
};

/* The call tree: one node per call path, with what its frames did. The
 * functions' and edges' counts follow from it (rp__prof_derive). */
struct node {
  u32 fn;      /* function index */
  u32 parent;  /* node index + 1, or 0 for a thread's root */
  u64 calls;   /* frames on this path */
  u64 excl;    /* their instructions, and with their callees' */
  u64 incl;
  u32 kid_fn;  /* the last function called from here (a cache of */
  u32 kid_node;/* by_node: its node index + 1, 0: none) */
};

/* The functions met in one program image of one process, by address. */
struct space {
  u32 proc_ix;
  size_t nimages;
  struct rp__umap by_addr; /* address -> function index + 1 */
  struct rp__umap by_site; /* branch address -> site index + 1 */
};

/* A branch instruction, for the edge profile (rp_edges_run), or a rep
 * string instruction (rp_reps_run). */
struct site {
  u64 addr;
  u32 pid;       /* its process's id in the recording */
  u32 where;     /* "function+0xOFF" in strs */
  int kind;      /* CPU_BRANCH_*, or SITE_REP */
  u64 execs, taken;
  /* A rep instruction's: its mnemonic (static), the iterations asked for
   * (rcx at the first) and done, the fewest and most done in one
   * execution, and how many executions its condition, a fault or a
   * signal ended. */
  const char *mnem;
  u64 req, done, lo, hi, cond, faults, intr;
};
enum { SITE_REP = 20 };

/* One execution of rep site S: REQ asked for, DONE done, ended HOW
 * (CPU_REP_*), added to its counts. */
static inline void rp__rep_count(struct site *s, u64 req, u64 done,
                                 int how) {
  if (!s->execs || done < s->lo) s->lo = done;
  if (done > s->hi) s->hi = done;
  s->execs++;
  s->req += req;
  s->done += done;
  s->cond += how == CPU_REP_COND;
  s->faults += how == CPU_REP_FAULT;
  s->intr += how == CPU_REP_INTERRUPTED;
}

/* Site X's counts added to D's (the same instruction, counted in another
 * piece or process). */
static inline void rp__site_sum(struct site *d, const struct site *x) {
  if (x->kind == SITE_REP && x->execs) {
    if (!d->execs || x->lo < d->lo) d->lo = x->lo;
    if (x->hi > d->hi) d->hi = x->hi;
  }
  d->execs += x->execs;
  d->taken += x->taken;
  d->req += x->req;
  d->done += x->done;
  d->cond += x->cond;
  d->faults += x->faults;
  d->intr += x->intr;
}

/* A rep instruction a replay that begins at a keyframe (a piece of a
 * history, rewind analyze rep -j) cuts in two: the piece before ends with
 * a thread inside it (an open part), the piece after begins there (a
 * head). rp_profile_add joins them into the one execution a whole replay
 * counts; a head with nothing before it counts as an execution of its
 * own, as the history's first does. */
struct rep_part {
  u32 tid;
  u32 site;      /* in sites */
  u64 req, done; /* rcx at its first iteration in the piece, iterations
                    done in it */
  int how;       /* a head's: how it ended (CPU_REP_*); an open part's: 1
                    when it began at the thread's first instruction in
                    the piece (it continues a part before), else 0 */
};

/* How often an indirect branch went to one target. */
struct target {
  u32 site;
  u64 to;
  u32 where;     /* the target's "function+0xOFF" in strs */
  u64 count;
};

/* Instructions run between two calls of a tick function: a few
 * milliseconds translated, and still a fraction of a second interpreted
 * under a sanitizer on a loaded machine with every observer on (gdb gives
 * up on a monitor command's reply after 2 s of silence; the tick's keep-
 * alive packets are sent at most every 250 ms, gdbstub/monitor.c). */
#define RP_SHADOW_SLICE 2000000ull

/* How far above a frame's slot the stack pointer may be for the frame to
 * count as gone: farther, it is another stack. */
#define RP_PROF_NEAR (64ull << 20)

struct frame {
  u32 fn, node; /* indexes */
  int tail;     /* entered by a jump (a tail call), not a call */
  int copied;   /* a forked child's copy of its parent's frame: the call
                   and its history are the parent's */
  u64 slot;     /* where its return address is (0: the thread's root; a
                   tail call's is its caller's) */
  u64 start;    /* the thread's count at its first instruction */
  u64 kids;     /* instructions of the callees that ended */
  u64 gstart;   /* with a call history: the global position of start */
  u64 args[6];  /* and rdi, rsi, rdx, rcx, r8, r9 at the call */
};

/* What a piece of a history logs of a thread whose frames below its own
 * it does not know (replayer/profile.c, "A piece of the history"), at the
 * thread's count N since the piece began: */
enum {
  PE_GRAFT,  /* graft node A: the own frames from here hang from the top */
  PE_UNWIND, /* the frames with a return address below A (and near) end */
  PE_TAIL,   /* a jump to function FN with the stack pointer at A */
  PE_KIDS,   /* own frames that ran A instructions ended onto the top */
  PE_END     /* the thread ended: every frame ends */
};
struct pev {
  u32 kind, fn;
  u64 a, n;
};
/* With a call history, beside each event: its global position (since the
 * piece began), rax at an unwind, whether a ret made it and then its
 * number (UID, from 1) in the piece, and a tail call's argument
 * registers. */
struct pex {
  u64 g, rax;
  u64 args[6];
  u32 ret, uid;
};

/* The function of a graft node (struct pev). */
#define RP_GRAFT 0xffffffffu

/* A taken branch in a thread's ring (monitor branches). */
struct taken {
  u64 from, to;
  int kind; /* CPU_BRANCH_*, or RING_CALL, RING_RET */
};
enum { RING_CALL = 10, RING_RET = 11 };

/* A thread of a piece, as the piece saves it (rp_profile_tree_save): TID,
 * BORN (no frames below its own: it began in the piece, or the piece
 * begins the history), its function where the piece began, its
 * instructions in the piece, its log, and the
 * frames still open at the piece's end (starts counted from the piece's
 * beginning; none when the thread ended). */
struct plog {
  u32 tid;
  u32 born;
  u32 root_fn; /* where it stood where the piece began (BORN 0) */
  u32 serial;  /* its thread's number in the piece (from 1) */
  u32 fork_serial; /* a process forked in the piece whose parent had
                      frames below its own: the parent's serial; its
                      frames below are the parent's after FORK_EV of the
                      parent's events (BORN 0) */
  u32 pad;
  u64 fork_ev;
  u64 done;
  u64 nev, nopen;
  struct pev *ev;
  struct pex *ex; /* with a call history */
  struct frame *open;
};

struct shadow {
  struct rp_profile *p;
  struct rp__thread *t; /* NULL in a total's (rp_profile_tree_add) */
  u32 tid;
  struct frame *v;
  size_t n, cap;
  /* In a piece, a thread that was there where it began (BASE): its log,
   * the instructions of own frames that ended onto the frames below
   * (KACC), the graft node (+ 1, 0: none yet), the last unwind limit and
   * tail (function, stack pointer) logged since anything else was, and
   * the function of the last branch target looked up. */
  int base;
  struct pev *ev;
  struct pex *ex; /* with a call history */
  size_t nev, capev;
  u64 kacc;
  u32 graft;
  u64 u_last;
  u32 t_fn;
  u64 t_rsp;
  u64 to_last;
  size_t to_images;
  u32 to_fn;
  u32 root_fn; /* the function it stood in where the run began */
  u32 serial;  /* its number in the run (from 1), and for a process */
  u32 fork_serial; /* forked from a thread with a base, that thread's */
  u64 fork_ev;     /* and how many events it had logged then */
  u64 off; /* a total's: the thread's instructions in the pieces added */
  struct taken *ring; /* with a ring: its last p->ring taken branches */
  u64 nring;          /* how many were taken in all */
  void *samp;         /* the sampler's state of the thread */
  void *cnt;          /* the counter's (replayer/counts.c) */
  u64 n0;             /* the thread's count where the run began */
};

struct rp_profile {
  rp_replay *rp;
  struct fn *fns;
  size_t nfns, capfns;
  char *strs;
  size_t nstrs, capstrs;
  struct rp__umap names; /* hash of name and object -> function index + 1 */
  struct space *spaces;
  size_t nspaces, capspaces;
  struct edge *edges;
  size_t nedges, capedges;
  struct rp__umap by_edge; /* caller << 32 | callee -> edge index + 1 */
  struct node *nodes;
  size_t nnodes, capnodes;
  struct rp__umap by_node; /* parent << 32 | fn -> node index + 1 */
  struct shadow **sh;  /* the threads' stacks */
  size_t nsh, capsh;
  u64 total, calls;
  u32 threads;
  int err; /* the first failure in an observer (they cannot return one) */
  /* The call history (rp_calls_run): the calls of the wanted functions. */
  int history;
  const char *want_fn; /* borrowed; NULL: every function */
  u32 want_tid;        /* 0: every thread; else the one thread observed
                          (rp_profile_run's TID, rp_calls_run's) */
  size_t max;          /* most calls kept */
  int whole;               /* 1: run the whole history from the first
                              keyframe and come back (monitor commands) */
  void (*tick)(void *ctx); /* called between slices of a run, or NULL */
  void *tick_ctx;
  struct call_rec *recs;
  size_t nrecs, caprecs;
  u64 dropped;
  /* The edge profile (rp_edges_run): every branch site and target. */
  int branches;
  struct site *sites;
  size_t nsites, capsites;
  struct target *targets;
  size_t ntargets, captargets;
  struct rp__umap by_target; /* hash of site and target -> target index + 1 */
  u64 nbranches;
  /* The rep instructions (rp_reps_run), in sites. */
  int reps;
  u64 nreps, rep_iters;
  struct rep_part *heads; /* counted in nreps and rep_iters, not in sites */
  struct rep_part *opens; /* counted nowhere; a total's (rp_profile_add):
                             those not joined yet */
  size_t nheads, capheads, nopens, capopens;
  size_t ring;  /* > 0: each thread keeps its last RING taken branches */
  int ring_json; /* rp_branches_json: the ring as JSON lines */
  struct rp__sampler *sampler; /* sampled edges (replayer/sample.c) */
  struct rp__counter *counter; /* instruction counts (replayer/counts.c);
                                  borrowed */
  rp_data *data;               /* data accesses (replayer/datarange.c);
                                  borrowed */
  int stacks;                  /* keep call stacks for the counter too */
  /* A piece of a history (rp_profile_piece_run): the logs of its threads
   * that ended or were there at its end, in that order. */
  int piece;
  int starting; /* the threads alive where the run begins start */
  u32 nuids;    /* rets that unwound into the frames below */
  int misaligned; /* a frame's return address was not at a multiple of 8
                     (base_unwind then cannot tell limits apart by 8) */
  u64 before;   /* a total's: the instructions of the pieces added */
  struct plog *logs;
  size_t nlogs, caplogs;
  u32 nserial;  /* the threads met (struct shadow's serial) */
  struct rp__umap by_merge;    /* the sites by what tells them apart
                                  (rp__prof_site): hash of pid, kind,
                                  address and where -> index + 1 */
};

/* Sets P's functions' counts (calls, inclusive, exclusive) and its edges
 * from the call tree, once the frames have ended: a function's inclusive
 * count is that of its frames with no frame of it below them (a
 * recursion counts once). Returns 0 or RW_ENOMEM. */
int rp__prof_derive(rp_profile *p) RW_MUST_CHECK;

/* Puts P's functions in the order of their names and files, and its
 * nodes in that order under each parent, parents first: a profile made
 * in pieces (analyze profile -j) then lists as the whole one does. Only
 * for a profile whose run is over (the frames, the history and the
 * lookups by address keep indexes). Returns 0 or RW_ENOMEM. */
int rp__prof_canon(rp_profile *p) RW_MUST_CHECK;

/* The key of function NAME in file OBJECT in rp_profile.names (the next
 * ones when taken). */
u64 rp__prof_fn_hash(const char *name, const char *object);

/* The node of function FN under node PARENT (index + 1, 0 for a root)
 * into *OUT, added when new. Returns 0 or RW_ENOMEM. */
int rp__prof_node_of(rp_profile *p, u32 parent, u32 fn, u32 *out)
    RW_MUST_CHECK;

/* The frames of SH's thread whose return address is below LIMIT (and
 * near it) end at its count END, the global position GEND; the root
 * frame stays. RET: a ret made it, with RAX. Returns how many ended. */
size_t rp__prof_unwind(struct shadow *sh, u64 limit, u64 end, u64 gend,
                       int ret, u64 rax);
/* SH's thread jumped to function FN after its count N with the stack
 * pointer at the top frame's slot: a tail call, or back to a function of
 * a chain of them (the frames above it end at GEND). Returns 1 when it
 * pushed a frame, 0, or RW_ENOMEM. */
int rp__prof_tail(struct shadow *sh, u32 fn, u64 n, u64 gend) RW_MUST_CHECK;
/* Every frame of SH's thread ends at its count END (global GEND). */
void rp__prof_end(struct shadow *sh, u64 end, u64 gend);
/* Keeps call C in P's history (at most P->max of the first, by start).
 * Returns 0 or RW_ENOMEM. */
int rp__prof_keep(rp_profile *p, const struct call_rec *c) RW_MUST_CHECK;
/* The index of function NAME in OBJECT into *OUT, added when new.
 * Returns 0 or RW_ENOMEM. */
int rp__prof_fn_named(rp_profile *p, const char *name, const char *object,
                      u32 *out) RW_MUST_CHECK;

/* S appended to P's strings; its offset into *OFF. Returns 0 or
 * RW_ENOMEM. */
int rp__prof_str(rp_profile *p, const char *s, u32 *off) RW_MUST_CHECK;

/* The index of the site at ADDR of process PID, of KIND, at WHERE
 * ("function+0xOFF") into *OUT, added (its counts zero) when new. A site
 * is told apart by these alone, not by the image it was met in, so a
 * whole replay and the pieces of one (replayer/prof_merge.c) count the
 * same rows: a piece that begins at a keyframe sees each process as a
 * new image. Returns 0 or RW_ENOMEM. */
int rp__prof_site(rp_profile *p, u64 addr, u32 pid, int kind,
                  const char *where, u32 *out) RW_MUST_CHECK;

#endif /* RW_REPLAYER_PROF_INT_H */
